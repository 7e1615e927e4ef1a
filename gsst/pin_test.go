package gsst_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// TestPinParamsRandom checks PinParams on random families whose
// assumption gains "k = c" for one of their parameters (or "k >= c & k
// <= c", "k < c+1 & k > c-1", "k <= 0" for c = 0): at every small
// instance, the instance of the pinned family is the instance of the
// family (the same initial configurations, steps, guards, updates,
// justice conditions and properties, written out), and the pinned
// family has k fixed at c.
func TestPinParamsRandom(t *testing.T) {
	systems := 400
	if testing.Short() {
		systems = 100
	}
	r := rand.New(rand.NewSource(2026_11_30))
	pinned, compared := 0, 0
	for i := range systems {
		cfg := testsupport.Config{MaxGroups: 3, MaxSize: 2, MaxProcesses: 5, MaxTransitions: 4}
		cfg.May = testsupport.AllConstructs | testsupport.InitialSets
		cfg.Family = true
		spec := testsupport.RandomSystem(r, cfg).Spec()
		var open []int
		for k := range spec.Params {
			if !spec.Params[k].Fixed {
				open = append(open, k)
			}
		}
		if len(open) == 0 {
			continue
		}
		k := open[r.Intn(len(open))]
		c := int64(r.Intn(3))
		pin := presburger.Compare(presburger.VarTerm(spec.ParamVar(k)), presburger.Eq, presburger.ConstTerm(c))
		if r.Intn(2) == 0 { // as written "c = k"
			pin = presburger.Compare(presburger.ConstTerm(c), presburger.Eq, presburger.VarTerm(spec.ParamVar(k)))
		}
		// Other ways of writing the pin, chosen by i so that the draws
		// stay those of the test before them: both bounds, strict
		// bounds, or for 0 a greatest value alone (a parameter is at
		// least 0), the last in half the draws so that the short test
		// has some.
		x, name := presburger.VarTerm(spec.ParamVar(k)), spec.Params[k].Name
		text := fmt.Sprintf("%s = %d", name, c)
		atom := func(op presburger.Op, d int64) presburger.Formula {
			return presburger.Compare(x, op, presburger.ConstTerm(d))
		}
		switch i % 4 {
		case 1:
			pin, text = presburger.Conj(atom(presburger.Ge, c), atom(presburger.Le, c)), fmt.Sprintf("%s >= %d & %s <= %d", name, c, name, c)
		case 2:
			pin, text = presburger.Conj(atom(presburger.Lt, c+1), atom(presburger.Gt, c-1)), fmt.Sprintf("%s < %d & %s > %d", name, c+1, name, c-1)
		case 0, 3:
			if c == 0 {
				pin, text = atom(presburger.Le, 0), fmt.Sprintf("%s <= 0", name)
			}
		}
		if spec.Assume.Formula == nil {
			spec.Assume.Formula, spec.Assume.Text = pin, text
		} else {
			spec.Assume.Formula = presburger.Conj(spec.Assume.Formula, pin)
			spec.Assume.Text += " & " + text
		}
		// And a property that reads the parameter.
		reads := ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Compare(presburger.VarTerm(spec.TotalVar(0)), presburger.Le, presburger.VarTerm(spec.ParamVar(k)).Add(presburger.ConstTerm(5)))}}
		spec.Properties = append(spec.Properties, gsst.Property{Name: "pinned", Formula: reads, Text: ctl.Format(reads, spec.VarName)})
		sys, err := gsst.New(spec)
		if err != nil {
			continue // a pin that leaves a group with no process
		}
		pin2, ok, err := sys.PinParams()
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		if !ok {
			// Only a family with no instance keeps its pin unfolded.
			for _, in := range testsupport.Instances(sys, 2, 3) {
				if _, err := sys.InstantiateParams(in.Params, in.Sizes); err == nil {
					t.Fatalf("system %d: %s = %d not pinned, and the family has the instance %v\n%s", i, spec.Params[k].Name, c, in, testsupport.Describe(sys))
				}
			}
			continue
		}
		pinned++
		if p := pin2.Params[k]; !p.Fixed || int64(p.Value) != c {
			t.Fatalf("system %d: %s pinned to %v %d, want %d", i, p.Name, p.Fixed, p.Value, c)
		}
		if v := readsVar(pin2, pin2.ParamVar(k)); v != "" {
			t.Fatalf("system %d: the pinned family still reads %s in %s\n%s", i, pin2.Params[k].Name, v, testsupport.Describe(pin2))
		}
		for _, in := range testsupport.Instances(sys, 2, 3) {
			a, errA := sys.InstantiateParams(in.Params, in.Sizes)
			b, errB := pin2.InstantiateParams(in.Params, in.Sizes)
			if (errA == nil) != (errB == nil) {
				t.Fatalf("system %d at %v: the family's instance: %v; the pinned family's: %v\n%s", i, in, errA, errB, testsupport.Describe(sys))
			}
			if errA != nil {
				continue
			}
			if da, db := written(t, a), written(t, b); da != db {
				t.Fatalf("system %d at %v: the instances differ:\n%s\npinned:\n%s", i, in, da, db)
			}
			compared++
		}
	}
	t.Logf("%d systems, %d pinned, %d instances compared", systems, pinned, compared)
	if pinned < systems/10 || compared < pinned {
		t.Errorf("the sample exercises too little")
	}
}

// written writes out what an instance is: its initial configurations,
// its steps (guard, update, parts and transfers), its justice conditions
// and its properties.
func written(t *testing.T, s *gsst.System) string {
	t.Helper()
	var b strings.Builder
	inits, err := s.InitialsUpTo(4).Initials()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range inits {
		fmt.Fprintln(&b, "init", c.Counts, c.Shared)
	}
	for _, st := range s.Steps() {
		fmt.Fprintln(&b, "step", s.FormatFormula(st.Guard), st.Update.Assign, st.Parts, st.Transfers)
	}
	for _, j := range s.Fairness.Justice {
		fmt.Fprintln(&b, "justice", s.FormatFormula(j.Formula))
	}
	for _, p := range s.Properties {
		fmt.Fprintln(&b, "property", ctl.Format(p.Formula, s.VarName))
	}
	for g := range s.Groups {
		fmt.Fprintln(&b, "group", s.Groups[g].Size)
	}
	return b.String()
}

// readsVar names a formula of s that reads x, "" when none does.
func readsVar(s *gsst.System, x presburger.Var) string {
	reads := func(f presburger.Formula) bool {
		for _, v := range presburger.FreeVars(f) {
			if v == x {
				return true
			}
		}
		return false
	}
	term := func(t presburger.Term) bool {
		for _, mo := range t.Monos {
			if mo.Var == x {
				return true
			}
		}
		return false
	}
	for _, st := range s.Steps() {
		if reads(st.Guard) {
			return "a guard"
		}
		for _, a := range st.Update.Assign {
			if term(a.Value) {
				return "an update"
			}
		}
	}
	for _, j := range s.Fairness.Justice {
		if reads(j.Formula) {
			return "a justice condition"
		}
	}
	for _, p := range s.Properties {
		for _, a := range ctl.Atoms(p.Formula) {
			if reads(a) {
				return "property " + p.Name
			}
		}
	}
	if s.Assume.Formula != nil && reads(s.Assume.Formula) {
		return "the assumption"
	}
	for g := range s.Groups {
		if term(s.Groups[g].SizeTerm) {
			return "the size of " + s.Groups[g].Name
		}
	}
	for j := range s.Shared {
		if term(s.Shared[j].InitTerm) || term(s.Shared[j].InitHiTerm) {
			return "the initial value of " + s.Shared[j].Name
		}
	}
	return ""
}

// TestPinParamsChain checks that a parameter pinned through another one
// ("k = j + 1 & j = 1", "m = 2*k") is pinned once that one is folded in,
// and that one pinned by nothing ("i = h + 1" alone) stays open.
func TestPinParamsChain(t *testing.T) {
	src := `states: [A, B]
groups: {p: 1..}
init: A
params: [j, k, m, h, i]
assume: k = j + 1 & j = 1 & m = 2*k & i = h + 1
transitions:
- {from: A, to: B, guard: "#B < m & #A >= i"}
properties:
  safe: "AG #B <= k + 2"
`
	sys, err := gsst.Parse("chain.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	pinned, ok, err := sys.PinParams()
	if err != nil || !ok {
		t.Fatalf("nothing pinned (%v)", err)
	}
	want := map[string]int{"j": 1, "k": 2, "m": 4}
	for _, p := range pinned.Params {
		v, fixed := want[p.Name]
		if p.Fixed != fixed || fixed && p.Value != v {
			t.Errorf("%s: fixed %v at %d, want fixed %v at %d", p.Name, p.Fixed, p.Value, fixed, v)
		}
	}
	if got := pinned.Properties[0].Formula; ctl.Format(got, pinned.VarName) != "AG (#B <= 4)" {
		t.Errorf("safe reads %s, want AG (#B <= 4)", ctl.Format(got, pinned.VarName))
	}
}
