package gsst_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// TestNarrowInitialRandom checks NarrowInitial's exactness on random
// systems with initial sets and random premises: at every small
// instance, the initial configurations of the narrowed system where the
// rest of the premise holds are those of the system where the whole
// premise holds, listed by Initials on both (ranges with no greatest
// value cut at the same value, above every constant of the premises).
func TestNarrowInitialRandom(t *testing.T) {
	systems := 1500
	if testing.Short() {
		systems = 400
	}
	r := rand.New(rand.NewSource(2026_11_30))
	cfg := testsupport.Config{MaxGroups: 3, MaxSize: 2, MaxProcesses: 5, MaxTransitions: 3}
	const cut = 9 // above every constant drawn below
	var narrowed, folded, kept, compared int
	for i := range systems {
		c := cfg
		c.May = testsupport.AllConstructs | testsupport.InitialSets
		c.Ranges = i%2 == 1
		c.Family = i%4 == 3
		sys := testsupport.RandomSystem(r, c)
		premise := randomPremise(r, sys)
		nsys, _, rest, err := sys.NarrowInitial(premise)
		if err != nil {
			t.Fatalf("system %d, premise %s: %v\n%s", i, presburger.Format(premise, sys.VarName), err, testsupport.Describe(sys))
		}
		all, left := len(presburger.Conjuncts(premise)), len(presburger.Conjuncts(rest))
		if nsys == sys {
			if left != all {
				t.Fatalf("system %d: nothing narrowed, but the premise lost conjuncts", i)
			}
			continue
		}
		narrowed++
		folded += all - left
		kept += left
		for _, in := range testsupport.Instances(sys, 2, 3) {
			if !fixedAt(sys, in.Params) {
				continue
			}
			where := fmt.Sprintf("system %d, %v, premise %s (rest %s)", i, in, presburger.Format(premise, sys.VarName), presburger.Format(rest, sys.VarName))
			want := initialsWhere(t, where, sys, in, premise, cut)
			got := initialsWhere(t, where+", narrowed", nsys, in, rest, cut)
			if fmt.Sprint(want) != fmt.Sprint(got) {
				t.Fatalf("%s: the initial configurations where the premise holds are\n%v\nthe narrowed system's where the rest holds\n%v\n%s", where, want, got, testsupport.Describe(sys))
			}
			compared += len(want)
		}
	}
	t.Logf("%d systems, %d narrowed (%d conjuncts folded, %d kept), %d initial configurations compared", systems, narrowed, folded, kept, compared)
	if narrowed < systems/4 || kept == 0 || compared < systems {
		t.Errorf("the sample exercises too little")
	}
}

// randomPremise draws a conjunction of one to three atoms over sys's
// variables: a shared variable against a constant near its initial
// values, a counter (of a group or a total) against 0, 1 or 2, or a
// sum of two counters, which NarrowInitial never folds.
func randomPremise(r *rand.Rand, sys *gsst.System) presburger.Formula {
	ops := []presburger.Op{presburger.Eq, presburger.Ne, presburger.Lt, presburger.Le, presburger.Gt, presburger.Ge}
	var atoms []presburger.Formula
	for range 1 + r.Intn(3) {
		op := ops[r.Intn(len(ops))]
		counter := func() presburger.Term {
			st := r.Intn(len(sys.States))
			if r.Intn(2) == 0 {
				return presburger.VarTerm(sys.TotalVar(st))
			}
			return presburger.VarTerm(sys.GroupVar(st, r.Intn(len(sys.Groups))))
		}
		var lhs presburger.Term
		var k int
		scale := int64(1 + r.Intn(2)) // "2*x op 2*k + 1" too
		switch c := r.Intn(5); {
		case c < 2 && len(sys.Shared) > 0:
			j := r.Intn(len(sys.Shared))
			lhs, k = presburger.VarTerm(sys.SharedVar(j)), sys.Shared[j].Init+r.Intn(5)-1
		case c == 4:
			lhs, k = counter().Add(counter()), r.Intn(3)
		default:
			lhs, k = counter(), r.Intn(3)
		}
		rhs := presburger.ConstTerm(int64(k) * scale)
		lhs = lhs.Scale(scale)
		if scale > 1 && r.Intn(2) == 0 {
			rhs = rhs.Add(presburger.ConstTerm(1))
		}
		if r.Intn(3) == 0 {
			// As written "c op x".
			atoms = append(atoms, presburger.Compare(rhs, op, lhs))
			continue
		}
		atoms = append(atoms, presburger.Compare(lhs, op, rhs))
	}
	return presburger.Conj(atoms...)
}

// initialsWhere lists the initial configurations of sys at in where f
// holds, ranges with no greatest value cut at cut.
func initialsWhere(t *testing.T, where string, sys *gsst.System, in testsupport.Instance, f presburger.Formula, cut int) []string {
	t.Helper()
	inst, err := sys.InstantiateParams(in.Params, in.Sizes)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	inits, err := inst.InitialsUpTo(cut).Initials()
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	var out []string
	for _, c := range inits {
		if presburger.Eval(f, inst.ValuationOf(c)) {
			out = append(out, fmt.Sprint(c.Counts, c.Shared))
		}
	}
	return out
}

// TestNarrowInitialLimits: a premise's constant beyond MaxValue is not
// folded (an initial value past the limit would be one no stage
// represents), and neither is a conjunct that leaves no initial value;
// a premise written with a negation over its atoms ("!(x < 0 | x >
// 0)", as prove's initial phase writes a property's "x >= 0 & x <= 0"
// read after the phase) is folded as the atoms it stands for are.
func TestNarrowInitialLimits(t *testing.T) {
	sys, err := gsst.Parse("limits.yaml", []byte(`name: limits
states: [A, B]
groups: {p: 1..}
init: A
shared:
  x: {type: "0..", init: "0.."}
  y: {type: "0..3", init: "0..2"}
transitions:
  - {from: A, to: B, update: "x := x + 1"}
properties:
  big: "x > 1000000000 -> AG #B = 0"
  none: "y = 3 -> AG #B = 0"
  plain: "x = 0 -> AG #B = 0"
  negated: "!(x < 0 | x > 0) -> AG #B = 0"
`))
	if err != nil {
		t.Fatal(err)
	}
	folds := map[string]bool{"plain": true, "negated": true}
	for _, p := range sys.Properties {
		premise := p.Formula.(ctl.Binary).L.(ctl.Atom).P
		narrowed, _, rest, err := sys.NarrowInitial(premise)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case folds[p.Name] && (narrowed == sys || rest != presburger.Formula(presburger.True)):
			t.Errorf("%s: the premise %s was not folded (rest %s)", p.Name, sys.FormatFormula(premise), sys.FormatFormula(rest))
		case !folds[p.Name] && (narrowed != sys || presburger.Format(rest, sys.VarName) != presburger.Format(premise, sys.VarName)):
			t.Errorf("%s: the premise %s was folded (rest %s)", p.Name, sys.FormatFormula(premise), sys.FormatFormula(rest))
		}
	}
}

// TestNarrowInitialParamRandom checks NarrowInitial's exactness where a
// shared variable starts at a parameter's value ("init: x0_0"), whose
// premise conjuncts it folds into the assumption: at every small
// instance of the system, the initial configurations of the narrowed
// system where the rest of the premise holds (none where the narrowed
// assumption fails: no instance of it) are those of the system where
// the whole premise holds.
func TestNarrowInitialParamRandom(t *testing.T) {
	systems := 800
	if testing.Short() {
		systems = 200
	}
	r := rand.New(rand.NewSource(2026_11_30_22))
	cfg := testsupport.Config{MaxGroups: 2, MaxSize: 2, MaxProcesses: 4, MaxTransitions: 3}
	const cut = 9 // above every constant drawn below
	var intoAssume, compared, emptied int
	for i := range systems {
		c := cfg
		c.May = testsupport.AllConstructs | testsupport.InitialSets
		c.Family = i%2 == 1
		sys := testsupport.RandomSystem(r, c)
		// Each shared variable with one constant initial value starts
		// at a parameter of its own instead, within its domain.
		spec := sys.Spec()
		var bounds []presburger.Formula
		if spec.Assume.Formula != nil {
			bounds = append(bounds, spec.Assume.Formula)
		}
		for j := range spec.Shared {
			v := &spec.Shared[j]
			if v.InitRange || !v.InitTerm.IsConst() || v.Bool || v.Values != nil || r.Intn(3) == 0 {
				continue
			}
			k := len(spec.Params)
			spec.Params = append(spec.Params, gsst.Param{Name: fmt.Sprintf("%s_0", v.Name)})
			p := spec.ParamVar(k)
			hi := v.Lo + 2
			if !v.Unbounded {
				hi = min(hi, v.Hi)
			}
			bounds = append(bounds, presburger.Compare(presburger.VarTerm(p), presburger.Ge, presburger.ConstTerm(int64(v.Lo))),
				presburger.Compare(presburger.VarTerm(p), presburger.Le, presburger.ConstTerm(int64(hi))))
			v.InitTerm, v.InitText, v.Init = presburger.VarTerm(p), spec.Params[k].Name, v.Lo
		}
		if len(bounds) == 0 {
			continue
		}
		spec.Assume.Formula = presburger.Conj(bounds...)
		spec.Assume.Text = spec.FormatFormula(spec.Assume.Formula)
		sys, err := gsst.New(spec)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		premise := randomPremise(r, sys)
		nsys, _, rest, err := sys.NarrowInitial(premise)
		if err != nil {
			t.Fatalf("system %d, premise %s: %v\n%s", i, presburger.Format(premise, sys.VarName), err, testsupport.Describe(sys))
		}
		if nsys.Assume.Text != sys.Assume.Text {
			intoAssume++
		}
		for _, in := range testsupport.Instances(sys, 2, 3) {
			if !fixedAt(sys, in.Params) {
				continue
			}
			where := fmt.Sprintf("system %d, %v, premise %s (rest %s)", i, in, presburger.Format(premise, sys.VarName), presburger.Format(rest, sys.VarName))
			want := initialsWhere(t, where, sys, in, premise, cut)
			var got []string
			at := func(v presburger.Var) int64 {
				k, _ := nsys.ParamOf(v)
				return int64(in.Params[k])
			}
			if presburger.Eval(nsys.Assume.Formula, at) {
				got = initialsWhere(t, where+", narrowed", nsys, in, rest, cut)
			} else {
				emptied++
			}
			if fmt.Sprint(want) != fmt.Sprint(got) {
				t.Fatalf("%s: the initial configurations where the premise holds are\n%v\nthe narrowed system's where the rest holds\n%v\n%s", where, want, got, testsupport.Describe(sys))
			}
			compared += len(want)
		}
	}
	t.Logf("%d systems, %d premises folded into the assumption, %d initial configurations compared, %d instances the narrowed assumption leaves out", systems, intoAssume, compared, emptied)
	if intoAssume < systems/8 || emptied == 0 || compared < systems/4 {
		t.Errorf("the sample exercises too little")
	}
}
