package prove_test

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestRaiseToInitialRandom checks raiseToInitial's bound on random
// systems with initial sets at fixed sizes and random premises: each
// monotone candidate, and random linear one, "t <= c" it raises has c the greatest value of t
// over the initial configurations where the premise holds, listed from
// the spec's fields and read on the model (initialConfigs,
// modelValuation), and a candidate it leaves is violated by no initial
// state, or raised when asked alone (the queries of many ran out).
func TestRaiseToInitialRandom(t *testing.T) {
	systems := 120
	if testing.Short() {
		systems = 30
	}
	r := rand.New(rand.NewSource(2026_11_30))
	s := z3.New()
	ctx := context.Background()
	raised, kept := 0, 0
	for i := range systems {
		fam := initialSetSystem(r, i)
		ins := testsupport.Instances(fam, extParamMax, extSizeMax)
		in := ins[r.Intn(len(ins))]
		sys, err := fam.InstantiateParams(in.Params, in.Sizes)
		if err != nil || sys.FiniteInitial() != nil {
			continue
		}
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		// A premise: some counter of the model at least 1, or none.
		var premise presburger.Formula = presburger.True
		if k := r.Intn(len(m.Counters) + 1); k < len(m.Counters) {
			premise = presburger.Compare(presburger.VarTerm(m.StateVar(k)), presburger.Ge, presburger.ConstTerm(1))
		}
		var inits []func(presburger.Var) int64
		for _, st := range initialConfigs(sys, in) {
			if val := modelValuation(m, in, st); presburger.Eval(premise, val) {
				inits = append(inits, val)
			}
		}
		if len(inits) == 0 {
			continue
		}
		mono, _ := prove.MonotoneCandidates(m)
		// And random sums over the state variables, bounded by 0.
		for range 6 {
			var t presburger.Term
			for range 1 + r.Intn(3) {
				t = t.Add(presburger.VarTerm(m.StateVar(r.Intn(m.NumState()))).Scale(int64(r.Intn(5) - 2)))
			}
			if r.Intn(2) == 0 { // and a group's size, fixed at the instance
				t = t.Add(presburger.VarTerm(m.SizeVar(r.Intn(len(sys.Groups)))).Scale(int64(r.Intn(3) - 1)))
			}
			if len(sys.Params) > 0 && r.Intn(2) == 0 { // and a parameter, fixed too
				t = t.Add(presburger.VarTerm(m.ParamVar(r.Intn(len(sys.Params)))).Scale(int64(r.Intn(3) - 1)))
			}
			mono = append(mono, presburger.Compare(t, presburger.Le, presburger.ConstTerm(0)))
		}
		// The state variables that the model's domain lets take two
		// values or more (raiseToInitial reads the others as constants).
		state := map[presburger.Var]bool{}
		for k := range m.NumState() {
			state[m.StateVar(k)] = true
		}
		for _, b := range m.Ranges() {
			if b.Finite() && b.Lo == b.Hi {
				delete(state, b.Var)
			}
		}
		out := prove.RaiseToInitial(ctx, s, m, premise, mono)
		for k, f := range out {
			where := func() string {
				return m.FormatFormula(mono[k]) + " with premise " + m.FormatFormula(premise) + "\n" + testsupport.Describe(sys)
			}
			if presburger.Format(f, m.VarName) == presburger.Format(mono[k], m.VarName) {
				kept++
				// None violates it, or the queries ran out: alone,
				// it is raised.
				c, isCmp := f.(presburger.Cmp)
				if !isCmp || !slices.ContainsFunc(c.T.Monos, func(mo presburger.Mono) bool { return state[mo.Var] }) {
					continue // a sum that cancelled out, or reads constants alone
				}
				violated := false
				for _, val := range inits {
					violated = violated || c.T.Eval(val) > 0
				}
				if !violated {
					continue
				}
				alone := prove.RaiseToInitial(ctx, s, m, premise, mono[k:k+1])
				if presburger.Format(alone[0], m.VarName) == presburger.Format(f, m.VarName) {
					t.Fatalf("system %d: %s is violated by an initial state, and not raised", i, where())
				}
				continue
			}
			raised++
			c, ok := f.(presburger.Cmp)
			if !ok || c.Op != presburger.Le {
				t.Fatalf("system %d: %s raised to %s, not a bound", i, where(), m.FormatFormula(f))
			}
			// c.T is t - bound: the greatest of c.T over the initial
			// states is 0.
			most := int64(-1 << 62)
			for _, val := range inits {
				most = max(most, c.T.Eval(val))
			}
			if most != 0 {
				t.Fatalf("system %d: %s raised to %s, but over the initial states the greatest of its left side less the bound is %d, not 0\n%s", i, m.FormatFormula(mono[k]), m.FormatFormula(f), most, where())
			}
		}
	}
	t.Logf("%d systems: %d candidates raised, %d left", systems, raised, kept)
	if raised < systems/3 {
		t.Errorf("the sample exercises too little")
	}
}
