package prove

import (
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
)

// TestCombineParts: the verdict of a property asked part by part is its
// parts' combined (Result.Parts): refuted when one is, with the first
// refuted part's run as the evidence; proved when all are; unknown
// otherwise, a skipped part included, with the reason naming the parts
// undecided and what ran out.
func TestCombineParts(t *testing.T) {
	p := &gsst.Property{Name: "all"}
	proved := Result{Verdict: Proved}
	refuted := func(size int) Result { return Result{Verdict: Refuted, Sizes: []int{size}, Params: []int{size}} }
	unknown := Result{Verdict: Unknown, Reason: "no ranking argument found", Exhausted: ProverWork}
	stopped := Result{Verdict: Unknown, Reason: "timeout after 1s", Stopped: true}
	skipped := Result{Verdict: Skipped, Reason: "not of a form prove decides"}
	for _, tc := range []struct {
		name   string
		parts  []Result
		want   Verdict
		sizes  []int    // of the evidence (Refuted)
		reason []string // in the reason
	}{
		{"all proved", []Result{proved, proved, proved}, Proved, nil, []string{"3 parts"}},
		{"one refuted", []Result{proved, refuted(2)}, Refuted, []int{2}, []string{"part 2 of 2"}},
		{"refuted beats unknown", []Result{unknown, refuted(3), refuted(4)}, Refuted, []int{3}, []string{"part 2 of 3"}},
		{"refuted beats skipped", []Result{skipped, refuted(5)}, Refuted, []int{5}, []string{"part 2 of 2"}},
		{"one unknown", []Result{proved, unknown}, Unknown, nil, []string{"part 2 is unknown (no ranking argument found)"}},
		{"one skipped", []Result{skipped, proved}, Unknown, nil, []string{"part 1 is skipped (not of a form prove decides)"}},
		{"out of time", []Result{stopped, unknown}, Unknown, nil, []string{"2 of its 2 parts", "part 1 is unknown (timeout after 1s)"}},
	} {
		got := combineParts(p, tc.parts)
		if got.Property != p || len(got.Parts) != len(tc.parts) {
			t.Errorf("%s: property %v with %d parts", tc.name, got.Property, len(got.Parts))
		}
		if got.Verdict != tc.want {
			t.Errorf("%s: %v (%s), want %v", tc.name, got.Verdict, got.Reason, tc.want)
		}
		if len(got.Sizes) != len(tc.sizes) || len(tc.sizes) > 0 && (got.Sizes[0] != tc.sizes[0] || got.Params[0] != tc.sizes[0]) {
			t.Errorf("%s: evidence at %v (params %v), want %v", tc.name, got.Sizes, got.Params, tc.sizes)
		}
		for _, s := range tc.reason {
			if !strings.Contains(got.Reason, s) {
				t.Errorf("%s: reason %q, want it to say %q", tc.name, got.Reason, s)
			}
		}
		// What ran out is the undecided parts', for the hints that
		// say which bound to raise; a refuted property has none.
		stoppedWant := tc.want == Unknown && tc.parts[0].Stopped
		exhaustedWant := Budget("")
		if tc.want == Unknown && (tc.parts[0].Exhausted != "" || tc.parts[1].Exhausted != "") {
			exhaustedWant = ProverWork
		}
		if got.Stopped != stoppedWant || got.Exhausted != exhaustedWant {
			t.Errorf("%s: stopped %v, exhausted %q; want %v, %q", tc.name, got.Stopped, got.Exhausted, stoppedWant, exhaustedWant)
		}
	}
}

// TestWrittenParts: the parts' texts are read off the syntax where it
// splits as the formula does, and printed from the formulas where it
// does not (a premise written d | g).
func TestWrittenParts(t *testing.T) {
	sys, err := gsst.Parse("written.yaml", []byte(`
name: written
states: [A, B, C]
groups: {p: 1..}
init: A
transitions:
  - {from: A, to: B}
properties:
  implied: "#B = 0 -> #C = 0 -> AG ((#A >= 1 -> AF #C >= 1) & #B <= n)"
  or: "#B != 0 | AG ((#A >= 1 -> AF #C >= 1) & #B <= n)"
  chain: "AG (#A >= 0 & #B >= 0 & AF #C >= 1 & (#C >= 0 | #A >= 0))"
`))
	if err != nil {
		t.Fatal(err)
	}
	asked, split, err := splitProperties(sys)
	if err != nil || len(split) != 3 {
		t.Fatalf("split %v: %v", split, err)
	}
	want := []string{
		"#B = 0 -> #C = 0 -> AG (#A >= 1 -> AF #C >= 1)", "#B = 0 -> #C = 0 -> AG #B <= n",
		"((#B = 0) -> AG ((#A >= 1) -> AF (#C >= 1)))", "((#B = 0) -> AG (#B - n <= 0))",
		"AG (#A >= 0 & #B >= 0)", "AG AF #C >= 1", "AG (#C >= 0 | #A >= 0)",
	}
	var got []string
	for _, p := range asked.Properties {
		got = append(got, p.Text)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the parts read\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPartNamesTaken: a part's name that a property of the spec has
// already (a Spec built by hand may name one so) is made distinct.
func TestPartNamesTaken(t *testing.T) {
	sys, err := gsst.Parse("taken.yaml", []byte("name: taken\nstates: [A, B]\ngroups: {p: 1..}\ninit: A\ntransitions:\n  - {from: A, to: B}\nproperties:\n  all: \"AG ((#A >= 1 -> AF #B >= 1) & #B <= n)\"\n  other: \"AG #B >= 0\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	spec := sys.Spec()
	spec.Properties[1].Name = "all (part 1 of 2)"
	if sys, err = gsst.New(spec); err != nil {
		t.Fatal(err)
	}
	asked, _, err := splitProperties(sys)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range asked.Properties {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, ", "); got != "all (part 1 of 2)', all (part 2 of 2), all (part 1 of 2)" {
		t.Errorf("the properties asked are %s", got)
	}
}
