package prove

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestLiftFormulaTotalToGroup: a formula over a total-counter model,
// rewritten by liftFormula over the group-counter model of the same
// system, holds at a configuration of the groups exactly when the
// formula holds at its totals (each state's counters summed over the
// groups), for every configuration drawn, with the sizes, n, the shared
// variable and the parameter read alike. No test of the prover carries
// a total-level proof to a group-level model (the derived systems it
// carries from are group-level ones), so without this one a total
// counter read as one group's counter goes unseen.
func TestLiftFormulaTotalToGroup(t *testing.T) {
	sys, err := gsst.Parse("two.yaml", []byte(`
name: two
params: [k]
assume: k >= 1
shared:
  x: {type: "0..", init: 0}
states: [A, B, C]
groups: {p: "1..", q: 2}
init: A
transitions:
  - {from: A, to: B, guard: "#C < k", update: "x := x + 1"}
  - {from: B, to: C}
properties:
  few: "AG #C <= x"
`))
	if err != nil {
		t.Fatal(err)
	}
	total, err := counterabs.BuildParam(context.Background(), sys, z3.New())
	if err != nil {
		t.Fatal(err)
	}
	if total.Level != counterabs.TotalLevel {
		t.Fatalf("the system is not certified (%s): no total-counter model to lift from", total.Reason)
	}
	group, err := counterabs.BuildParamGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	v := func(x presburger.Var) presburger.Term { return presburger.VarTerm(x) }
	ctr := func(state int) presburger.Term {
		for i, c := range total.Counters {
			if c.State == state {
				return v(presburger.Var(i))
			}
		}
		t.Fatalf("no total counter of state %d", state)
		return presburger.Term{}
	}
	// #A + 2*#C - x >= n - k | #B = |q| + 1, over every kind of variable.
	f := presburger.Disj(
		presburger.Compare(ctr(0).Add(ctr(2).Scale(2)).Sub(v(total.SharedVar(0))), presburger.Ge, v(total.NVar()).Sub(v(total.ParamVar(0)))),
		presburger.Compare(ctr(1), presburger.Eq, v(total.SizeVar(1)).Add(presburger.ConstTerm(1))))
	lifted, ok := liftFormula(total, group, f)
	if !ok {
		t.Fatal("the formula does not carry")
	}
	r := rand.New(rand.NewPCG(22, 1))
	agreeTrue := 0
	for range 2000 {
		gval := map[presburger.Var]int64{}
		tval := map[presburger.Var]int64{}
		for i, c := range group.Counters {
			x := int64(r.IntN(4))
			gval[presburger.Var(i)] = x
			tval[presburger.Var(c.State)] += x // the total counters are by state
		}
		for i, c := range total.Counters {
			if presburger.Var(i) != presburger.Var(c.State) {
				t.Fatalf("total counter %d is of state %d: the test reads them by state", i, c.State)
			}
		}
		for g := range sys.Groups {
			x := int64(r.IntN(4))
			gval[group.SizeVar(g)], tval[total.SizeVar(g)] = x, x
		}
		n, x, k := int64(r.IntN(8)), int64(r.IntN(6)), int64(r.IntN(4))
		gval[group.NVar()], tval[total.NVar()] = n, n
		gval[group.SharedVar(0)], tval[total.SharedVar(0)] = x, x
		gval[group.ParamVar(0)], tval[total.ParamVar(0)] = k, k
		got := presburger.Eval(lifted, func(w presburger.Var) int64 { return gval[w] })
		want := presburger.Eval(f, func(w presburger.Var) int64 { return tval[w] })
		if got != want {
			t.Fatalf("at groups %v (totals %v): the lifted formula %v, the formula %v", gval, tval, got, want)
		}
		if got {
			agreeTrue++
		}
	}
	if agreeTrue == 0 || agreeTrue == 2000 {
		t.Fatalf("the formula held at %d of 2000 configurations: the draw tells nothing apart", agreeTrue)
	}
}
