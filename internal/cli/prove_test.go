package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/prove"
)

// TestProveLongCertificateOnce: properties proved together by one long
// invariant print it once; the others refer to the first. A ring of 80
// states with one process and a property "at most one" per state is
// proved by the conjunction of the 80 properties (a sum of 80 counters), which the report
// printed 80 times (a net with a property per place, hundreds: megabytes).
func TestProveLongCertificateOnce(t *testing.T) {
	const k = 80
	var src strings.Builder
	src.WriteString("name: ring\nstates: [")
	for i := range k {
		if i > 0 {
			src.WriteString(", ")
		}
		fmt.Fprintf(&src, "S%d", i)
	}
	src.WriteString("]\ngroups: {proc: 1}\ninit: S0\ntransitions:\n")
	for i := range k {
		fmt.Fprintf(&src, "  - {from: S%d, to: S%d}\n", i, (i+1)%k)
	}
	src.WriteString("properties:\n")
	for i := range k {
		fmt.Fprintf(&src, "  one%d: \"AG #S%d <= 1\"\n", i, i)
	}
	file := writeSpecs(t, []byte(src.String()))[0]
	out, errs, code := runVsym("prove", file)
	if code != ExitOK {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	printed := strings.Count(out, "inductive invariant (re-checked): #")
	refs := strings.Count(out, "inductive invariant (re-checked): the one printed for property one0 above")
	if printed != 1 || refs != k-1 {
		t.Errorf("the invariant printed %d times, referred to %d times; want 1 and %d:\n%s", printed, refs, k-1, out)
	}
}

// TestProvePartsJSON: on prove/testdata/parts.yaml, a property asked
// part by part (prove/parts.go) is
// one object of --output json with its combined verdict and the sizes
// of its refuted part, its parts in parts[], each with its own verdict
// and evidence (model, invariant or trace) and the property's place;
// the property has no evidence of its own. The exit code is the
// combined verdict's.
func TestProvePartsJSON(t *testing.T) {
	file := filepath.Join("..", "..", "prove", "testdata", "parts.yaml")
	out, errs, code := runVsym("prove", "--output", "json", file)
	if code != ExitNo {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	var view proveJSON
	if err := json.Unmarshal([]byte(out), &view); err != nil {
		t.Fatal(err)
	}
	if len(view.Properties) != 5 {
		t.Fatalf("%d properties:\n%s", len(view.Properties), out)
	}
	for _, p := range view.Properties {
		want, part2 := "proved", "proved"
		if strings.HasPrefix(p.Name, "broken") {
			want, part2 = "refuted", "refuted"
		}
		if p.Verdict != want || len(p.Parts) != 2 || p.Model != "" || p.Invariant != "" || p.Trace != nil {
			t.Errorf("%s: %s with %d parts, model %q, invariant %q, trace %v", p.Name, p.Verdict, len(p.Parts), p.Model, p.Invariant, p.Trace != nil)
			continue
		}
		if want == "refuted" && p.Sizes["p"] != 1 {
			t.Errorf("%s: refuted at %v, want p=1", p.Name, p.Sizes)
		}
		for j, part := range p.Parts {
			verdict := "proved"
			if j == 1 {
				verdict = part2
			}
			name := fmt.Sprintf("%s (part %d of 2)", p.Name, j+1)
			if part.Name != name || part.Verdict != verdict || part.Line != p.Line || part.Model == "" || len(part.Parts) != 0 {
				t.Errorf("%s: part %d is %s at line %d: %s on model %q, want %s at %d: %s", p.Name, j+1, part.Name, part.Line, part.Verdict, part.Model, name, p.Line, verdict)
			}
			if (verdict == "proved") != (part.Invariant != "") || (verdict == "refuted") != (part.Trace != nil) {
				t.Errorf("%s: invariant %q, trace %v", part.Name, part.Invariant, part.Trace != nil)
			}
		}
	}
}

// TestProvePartHints: the hints prove adds to a reason go to the parts
// of a property asked part by part, which say what ran out or why they
// are skipped: a part out of work says to raise --property-work, a
// skipped part names the property of the file to explore.
func TestProvePartHints(t *testing.T) {
	sys, err := gsst.Parse("fam.yaml", []byte("name: fam\nstates: [A, B]\ngroups: {p: 1..}\ninit: A\ntransitions:\n  - {from: A, to: B}\nproperties:\n  all: \"AG #B >= 0\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := &sys.Properties[0]
	part := func(name string, v prove.Verdict, exhausted prove.Budget) prove.Result {
		return prove.Result{Property: &gsst.Property{Name: name}, Verdict: v, Reason: "why", Exhausted: exhausted}
	}
	rep := &prove.Report{System: sys, Results: []prove.Result{{Property: p, Verdict: prove.Unknown, Reason: "combined", Exhausted: prove.ProverWork,
		Parts: []prove.Result{part("all (part 1 of 2)", prove.Unknown, prove.ProverWork), part("all (part 2 of 2)", prove.Skipped, "")}}}}
	addPropertyTimeoutHints(rep, 0, 7)
	addSkipHints(rep, "fam.yaml", nil)
	r := rep.Results[0]
	if r.Reason != "combined" {
		t.Errorf("the property's reason is now %q", r.Reason)
	}
	if want := "why; raise --property-work (now 7 units per property)"; r.Parts[0].Reason != want {
		t.Errorf("part 1: %q, want %q", r.Parts[0].Reason, want)
	}
	if want := " -p all fam.yaml"; !strings.HasPrefix(r.Parts[1].Reason, "why; check it on one instance with vsym explore") || !strings.HasSuffix(r.Parts[1].Reason, want) {
		t.Errorf("part 2: %q, want the command with %q", r.Parts[1].Reason, want)
	}
}
