package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestParts: the properties of testdata/parts.yaml, each one AG over a
// conjunction, are asked part by part (parts.go) and get one Result with
// the parts' results in Parts and their verdicts combined: every part
// proved (two liveness parts; a safety part and a liveness part; two
// safety parts, proved with the other safety properties), and one part
// refuted (a safety part; a liveness part under a premise), whose run is
// the property's evidence and replays on the instance. The explicit
// fair-CTL oracle (testsupport, sharing no code with prove) checks each
// verdict on the property as written: a proved one holds at every size
// up to 3, a refuted one fails at the sizes named.
func TestParts(t *testing.T) {
	sys, rep := loadCheck(t, "parts.yaml")
	want := map[string][]prove.Verdict{
		"live":          {prove.Proved, prove.Proved},
		"mixed":         {prove.Proved, prove.Proved},
		"bounds":        {prove.Proved, prove.Proved},
		"broken-safety": {prove.Proved, prove.Refuted},
		"broken-live":   {prove.Proved, prove.Refuted},
	}
	if len(rep.Results) != len(sys.Properties) || rep.System != sys {
		t.Fatalf("%d results for %d properties, report on %p, want %p", len(rep.Results), len(sys.Properties), rep.System, sys)
	}
	// The parts as the user wrote them, read off the syntax.
	texts := map[string][]string{
		"live":          {"AG (#B >= 1 -> AF #C >= 1)", "AG (#A >= 1 -> AF #A = 0)"},
		"mixed":         {"AG (#C >= 1 -> #A = 0)", "AG AF #C = n"},
		"bounds":        {"AG #C <= n", "AG AG (#C >= 1 -> #A = 0)"},
		"broken-safety": {"AG (#B >= 1 -> AF #C >= 1)", "AG #C = 0"},
		"broken-live":   {"#B = 0 -> AG (#C >= 1 -> #A = 0)", "#B = 0 -> AG (#A >= 1 -> AF #C >= 2)"},
	}
	oracles := map[string]*testsupport.Oracle{}
	oracle := func(inst *gsst.System) *testsupport.Oracle {
		key := fmt.Sprint(inst.Groups[0].Size, inst.Properties)
		if oracles[key] == nil {
			oracles[key] = testsupport.NewOracle(inst)
		}
		return oracles[key]
	}
	for k, r := range rep.Results {
		p := &sys.Properties[k]
		if r.Property != p {
			t.Errorf("result %d is of %s, want %s", k, r.Property.Name, p.Name)
		}
		parts := want[p.Name]
		if len(r.Parts) != len(parts) {
			t.Fatalf("%s: %d parts, want %d (%v: %s)", p.Name, len(r.Parts), len(parts), r.Verdict, r.Reason)
		}
		combined := prove.Proved
		for j, part := range r.Parts {
			if name := fmt.Sprintf("%s (part %d of %d)", p.Name, j+1, len(parts)); part.Property.Name != name || part.Property.Pos != p.Pos {
				t.Errorf("%s: part %d is %q at %v, want %q at %v", p.Name, j+1, part.Property.Name, part.Property.Pos, name, p.Pos)
			}
			if part.Property.Text != texts[p.Name][j] {
				t.Errorf("%s: text %q, want %q", part.Property.Name, part.Property.Text, texts[p.Name][j])
			}
			if part.Verdict != parts[j] {
				t.Errorf("%s: %v (%s), want %v", part.Property.Name, part.Verdict, part.Reason, parts[j])
			}
			if _, _, safety := counterabs.PremisedSafety(part.Property.Formula); !safety && !prove.IsLiveness(part.Property.Formula) {
				t.Errorf("%s: %s is no form prove decides", part.Property.Name, part.Property.Text)
			}
			if part.Verdict == prove.Proved && part.Invariant == nil {
				t.Errorf("%s: proved without an invariant", part.Property.Name)
			}
			if parts[j] == prove.Refuted {
				combined = prove.Refuted
			}
		}
		if r.Verdict != combined {
			t.Errorf("%s: %v (%s), want %v", p.Name, r.Verdict, r.Reason, combined)
		}
		switch r.Verdict {
		case prove.Proved:
			for size := 1; size <= 3; size++ {
				inst, err := sys.Instantiate([]int{size})
				if err != nil {
					t.Fatal(err)
				}
				if o := oracle(inst); !o.Holds(inst.Properties[k].Formula) {
					t.Errorf("%s (%s) proved, but fails at p=%d", p.Name, p.Text, size)
				}
			}
		case prove.Refuted:
			j := slices.IndexFunc(r.Parts, func(part prove.Result) bool { return part.Verdict == prove.Refuted })
			part := &r.Parts[j]
			if !slices.Equal(r.Sizes, part.Sizes) || r.Trace != part.Trace || r.Trace == nil || r.Trace.Lifted == nil {
				t.Errorf("%s: refuted at %v with trace %p, its part %d at %v with %p", p.Name, r.Sizes, r.Trace, j+1, part.Sizes, part.Trace)
				continue
			}
			inst, err := sys.Instantiate(r.Sizes)
			if err != nil {
				t.Fatal(err)
			}
			if o := oracle(inst); o.Holds(inst.Properties[k].Formula) {
				t.Errorf("%s (%s) refuted at %v, where it holds", p.Name, p.Text, r.Sizes)
			}
			if err := replayPart(oracle(inst), *part); err != nil {
				t.Errorf("%s: %v", part.Property.Name, err)
			}
		}
	}
}

// TestPartsOf: which properties Check asks part by part, and their
// parts: AG over a conjunction and a conjunction at the top, nested or
// not, each part a form prove decides, a premise carried to each; not a
// form decided whole, nor a conjunction with a part of no such form
// (skipped as before).
func TestPartsOf(t *testing.T) {
	sys := load(t, "forms.yaml", []byte(`
name: forms
states: [A, B, C]
groups: {p: 1..}
init: A
transitions:
  - {from: A, to: B}
  - {from: B, to: C}
properties:
  two: "AG ((#A >= 1 -> AF #C >= 1) & (#B >= 1 -> AF #C >= 1))"
  nested: "AG (#A <= n & ((#B >= 1 -> AF #C >= 1) & AF #C = n))"
  top: "AF #C >= 1 & AG (#A >= 1 -> AF #C >= 1) & AG #B <= n"
  premised: "#B = 0 -> AG (#A <= n & AF #C >= 1)"
  response: "AG (#A >= 1 -> AF #C >= 1)"
  safety: "AG (#A <= n & #B <= n)"
  safeties: "AG #A <= n & AG #B <= n"
  with-ef: "AG ((#A >= 1 -> AF #C >= 1) & EF #C >= 1)"
  one: "AG (AF #C >= 1)"
  demorgan: "!(EF #C >= 1 & #A >= 1 | EF #B = n | EF (#A >= 1 & EG #C = 0))"
  premised-demorgan: "#B = 0 -> !(EF #C > n | !AF #C >= 1)"
  negated-and: "!(EF #C >= 1 & EF #B = n)"
  condition-or: "!(#C >= 1 | EF #B = n)"
  double: "!(!(AG #C <= n & AF #C >= 1) | EF #B > n)"
`))
	want := map[string]int{"two": 2, "nested": 3, "top": 3, "premised": 2, "demorgan": 3, "premised-demorgan": 2, "double": 3}
	for _, p := range sys.Properties {
		parts, ok := prove.Parts(p.Formula)
		if len(parts) != want[p.Name] || ok != (want[p.Name] > 0) {
			t.Errorf("%s: %d parts (%v), want %d", p.Name, len(parts), ok, want[p.Name])
		}
		for _, f := range parts {
			premise, _, safety := counterabs.PremisedSafety(f)
			if !safety {
				premise, _, _, _, _ = counterabs.PremisedLiveness(f)
			}
			if !safety && !prove.IsLiveness(f) {
				t.Errorf("%s: part %s is no form prove decides", p.Name, ctl.Format(f, sys.VarName))
			}
			if got := sys.FormatFormula(premise); strings.HasPrefix(p.Name, "premised") != (got == "#B = 0") {
				t.Errorf("%s: part %s has premise %s", p.Name, ctl.Format(f, sys.VarName), got)
			}
		}
	}
}

// TestPartsRandom cross-checks the fold: on random systems with
// response properties, a property that is the conjunction of parts
// (AG over the conjunction of the response properties' operands and of
// a safety condition, the AF ones beside it, sometimes after a premise,
// half of the time written by De Morgan as !(EF !x1 | ... | !o1 | ...))
// gets the verdict the parts get written as properties of their own,
// combined: refuted when one is, proved when all are, unknown
// otherwise; and the explicit fair-CTL oracle agrees with it on the
// property as written (proved: holds at every size of the box;
// refuted: fails at the sizes named, and the run replays there).
func TestPartsRandom(t *testing.T) {
	systems := 40
	if testing.Short() {
		systems = 8
	}
	r := rand.New(rand.NewSource(3))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	for i := range systems {
		drawn := testsupport.RandomSystem(r, liveConfig)
		var ag, other []ctl.Formula // the operands of the AG properties, the others
		var atoms []ctl.Formula
		for _, p := range drawn.Properties {
			for _, a := range ctl.Atoms(p.Formula) {
				atoms = append(atoms, ctl.Atom{P: a})
			}
			if u, ok := p.Formula.(ctl.Unary); ok && u.Op == ctl.AG {
				ag = append(ag, u.X)
			} else {
				other = append(other, p.Formula)
			}
		}
		// A safety condition of the system's atoms: !a | b.
		ag = append(ag, ctl.Binary{Op: ctl.Or, L: ctl.Not{X: atoms[0]}, R: atoms[len(atoms)-1]})
		var parts []ctl.Formula
		for _, x := range ag {
			parts = append(parts, ctl.Unary{Op: ctl.AG, X: x})
		}
		parts = append(parts, other...)
		whole := ctl.Unary{Op: ctl.AG, X: conj(ag)}
		var f ctl.Formula = whole
		if len(other) > 0 {
			f = conj(append([]ctl.Formula{whole}, other...))
		}
		if r.Intn(2) == 0 {
			// De Morgan: the same parts as !(EF !x1 | ... | !o1 | ...),
			// the parts !EF !xi and the others themselves (!!o).
			var neg []ctl.Formula
			for j, x := range ag {
				neg = append(neg, ctl.Unary{Op: ctl.EF, X: ctl.Not{X: x}})
				parts[j] = ctl.Not{X: neg[j]}
			}
			for _, o := range other {
				neg = append(neg, ctl.Not{X: o})
			}
			f = ctl.Not{X: disj(neg)}
		}
		if r.Intn(3) == 0 {
			// A premise on the initial configuration, for the whole and
			// each part.
			c := atoms[r.Intn(len(atoms))]
			f = ctl.Binary{Op: ctl.Implies, L: c, R: f}
			for j := range parts {
				parts[j] = ctl.Binary{Op: ctl.Implies, L: c, R: parts[j]}
			}
		}
		merged := withProperties(t, drawn, f)
		separate := withProperties(t, drawn, parts...)
		got, err := prove.Check(ctx, merged, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(merged))
		}
		each, err := prove.Check(ctx, separate, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(separate))
		}
		res := got.Results[0]
		want := prove.Proved
		for _, e := range each.Results {
			switch {
			case e.Verdict == prove.Refuted:
				want = prove.Refuted
			case e.Verdict != prove.Proved && want == prove.Proved:
				want = prove.Unknown
			}
		}
		counts[res.Verdict]++
		text := merged.Properties[0].Text
		if res.Verdict != want || len(res.Parts) != len(parts) {
			t.Errorf("system %d: %s: %v with %d parts (%s), the parts as properties: %v", i, text, res.Verdict, len(res.Parts), res.Reason, verdicts(each.Results))
			continue
		}
		for j, part := range res.Parts {
			if part.Verdict != each.Results[j].Verdict {
				t.Errorf("system %d: %s: %v, as a property of its own %v", i, part.Property.Name, part.Verdict, each.Results[j].Verdict)
			}
		}
		switch res.Verdict {
		case prove.Unknown:
			t.Logf("system %d: %s: unknown: %s", i, text, res.Reason)
		case prove.Proved:
			for _, sizes := range testsupport.Box(merged, boxMax) {
				inst, err := merged.Instantiate(sizes)
				if err != nil {
					t.Fatal(err)
				}
				if !testsupport.NewOracle(inst).Holds(inst.Properties[0].Formula) {
					t.Errorf("system %d: %s proved, but fails at %s\n%s", i, text, merged.FormatSizes(sizes), testsupport.Describe(merged))
				}
			}
		case prove.Refuted:
			inst, err := merged.Instantiate(res.Sizes)
			if err != nil {
				t.Fatal(err)
			}
			o := testsupport.NewOracle(inst)
			if o.Holds(inst.Properties[0].Formula) {
				t.Errorf("system %d: %s refuted at %s, where it holds\n%s", i, text, merged.FormatSizes(res.Sizes), testsupport.Describe(merged))
			}
			j := slices.IndexFunc(res.Parts, func(part prove.Result) bool { return part.Verdict == prove.Refuted })
			if res.Trace != res.Parts[j].Trace {
				t.Errorf("system %d: %s: the run is not that of part %d, the first refuted", i, text, j+1)
			}
			if err := replayPart(o, res.Parts[j]); err != nil {
				t.Errorf("system %d: %s: %v\n%s", i, res.Parts[j].Property.Name, err, testsupport.Describe(merged))
			}
		}
	}
	t.Logf("%d systems: %v", systems, counts)
	if counts[prove.Proved] == 0 || counts[prove.Refuted] == 0 {
		t.Errorf("the random sample exercises too little: %v", counts)
	}
}

// conj is the conjunction of fs, nested to the left.
func conj(fs []ctl.Formula) ctl.Formula {
	f := fs[0]
	for _, g := range fs[1:] {
		f = ctl.Binary{Op: ctl.And, L: f, R: g}
	}
	return f
}

// disj is the disjunction of fs, nested to the left.
func disj(fs []ctl.Formula) ctl.Formula {
	f := fs[0]
	for _, g := range fs[1:] {
		f = ctl.Binary{Op: ctl.Or, L: f, R: g}
	}
	return f
}

// withProperties returns sys with the properties fs, named p1, p2, ...
func withProperties(t *testing.T, sys *gsst.System, fs ...ctl.Formula) *gsst.System {
	t.Helper()
	spec := sys.Spec()
	spec.Properties = nil
	for j, f := range fs {
		spec.Properties = append(spec.Properties, gsst.Property{Name: fmt.Sprintf("p%d", j+1), Formula: f, Text: ctl.Format(f, sys.VarName)})
	}
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// verdicts lists the verdicts of results.
func verdicts(results []prove.Result) []prove.Verdict {
	var out []prove.Verdict
	for _, r := range results {
		out = append(out, r.Verdict)
	}
	return out
}

// replayPart replays the run of part, a refuted part, on the oracle o of
// its instance: a lasso's cycle must meet every fairness constraint
// (replayLassoOn); a path of a safety part must start where its premise
// holds and end where its condition fails.
func replayPart(o *testsupport.Oracle, part prove.Result) error {
	if part.Trace == nil || part.Trace.Lifted == nil {
		return fmt.Errorf("refuted without a replayed run")
	}
	if part.Trace.Loop >= 0 {
		return replayLassoOn(o, part)
	}
	// The part's formula on the instance, where n is a constant.
	k := slices.IndexFunc(part.Instance.Properties, func(q gsst.Property) bool { return q.Name == part.Property.Name })
	if k < 0 {
		return fmt.Errorf("the refuting instance has no property %s", part.Property.Name)
	}
	premise, phi, ok := counterabs.PremisedSafety(part.Instance.Properties[k].Formula)
	if !ok {
		return fmt.Errorf("a path refutes %s, no safety property", part.Property.Text)
	}
	run, err := o.Replay(enginetest.Trace(part.Trace, enginetest.GroupKey))
	if err != nil {
		return fmt.Errorf("the run does not replay: %v", err)
	}
	if !presburger.Eval(premise, o.Val(run[0])) || presburger.Eval(phi, o.Val(run[len(run)-1])) {
		return fmt.Errorf("the run does not start where %s holds and end where %s fails", premise, phi)
	}
	return nil
}
