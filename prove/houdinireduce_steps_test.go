package prove

import (
	"testing"

	"github.com/vsym/vsym/presburger"
)

// TestReduceByFactsSteps checks reduceByFacts by enumeration on a system
// whose steps are not a counter model's: a step that moves a process
// from A to B, or back, states no guard, so only the ranges of the
// counters keep the counter it lowers from going below 0. In a counter
// model the guards (a process must be in the source state) imply the
// pivot's range before and after each step, so there a reduction that
// forgot either constraint answers alike; here each one forgotten lets
// the reduced system take a step the system cannot. For every state and
// successor of the reduced system within small bounds (and every size),
// the reduced system's initial states, steps and bad states are the
// system's (given ranges 0..3 and initial states #B <= 2 here), with the pivot's values read off its term, where those
// values lie in the pivot's range, and nowhere else.
func TestReduceByFactsSteps(t *testing.T) {
	m := groupModel(t, "ab.yaml", `
name: ab
states: [A, B]
groups: {proc: "1.."}
init: A
transitions:
  - {from: A, to: B}
  - {from: B, to: A}
properties:
  few: "AG !(#A >= 2 & #B >= 1)"
`)
	if m.NumState() != 2 {
		t.Fatalf("%d state variables, want 2 (the counters of A and B)", m.NumState())
	}
	lis := linearInvariants(m, nil)
	a, b := m.StateVar(0), m.StateVar(1)
	ts := m.TransitionSystem().Question(presburger.Conj(
		presburger.Compare(presburger.VarTerm(a), presburger.Ge, presburger.ConstTerm(2)),
		presburger.Compare(presburger.VarTerm(b), presburger.Ge, presburger.ConstTerm(1))))
	an, bn := m.NextVar(0), m.NextVar(1)
	move := func(from, fromNext, to, toNext presburger.Var) presburger.Formula {
		return presburger.Conj(
			presburger.Compare(presburger.VarTerm(fromNext), presburger.Eq, presburger.VarTerm(from).Add(presburger.ConstTerm(-1))),
			presburger.Compare(presburger.VarTerm(toNext), presburger.Eq, presburger.VarTerm(to).Add(presburger.ConstTerm(1))))
	}
	ts.Trans = []presburger.Formula{move(a, an, b, bn), move(b, bn, a, an)}
	// Each counter at most 3, and initial states that do not keep the
	// pivot in its range by themselves: the reduction must state both
	// sides of the pivot's range, in the initial states too.
	ts.Domain = append(ts.Domain, presburger.Bound{Var: a, Hi: 3}, presburger.Bound{Var: b, Hi: 3})
	ts.Init = presburger.Compare(presburger.VarTerm(b), presburger.Le, presburger.ConstTerm(2))

	red, sub, ok := reduceByFacts(m, ts, lis)
	if !ok {
		t.Fatalf("no invariant with a pivot among %d", len(lis))
	}
	if len(red.Vars) != 1 {
		t.Fatalf("the reduced system keeps %d variables, want 1", len(red.Vars))
	}
	pivot, pivotNext := a, an
	if red.Vars[0] == a {
		pivot, pivotNext = b, bn
	}
	kept, keptNext := red.Vars[0], red.Next[0]
	dom, redDom := domainBounds(ts.Domain), domainBounds(red.Domain)
	if _, ok := redDom[pivot]; ok {
		t.Errorf("the reduced system's domain still bounds the pivot")
	}
	inRange := func(val map[presburger.Var]int64, vs ...presburger.Var) bool {
		for _, v := range vs {
			if bd, ok := dom[v]; ok && !bd.Contains(val[v]) {
				return false
			}
		}
		return true
	}
	const most = 4
	checked := 0
	var params func(k int, val map[presburger.Var]int64)
	params = func(k int, val map[presburger.Var]int64) {
		if k < len(ts.Params) {
			for x := int64(0); x <= most; x++ {
				val[ts.Params[k]] = x
				if inRange(val, ts.Params[k]) {
					params(k+1, val)
				}
			}
			delete(val, ts.Params[k])
			return
		}
		look := func(v presburger.Var) int64 { return val[v] }
		// The reduced system reads no pivot: a value no state has.
		redLook := func(v presburger.Var) int64 {
			if v == pivot || v == pivotNext {
				return 1000
			}
			return val[v]
		}
		for x := int64(0); x <= most+1; x++ {
			if !redDom[kept].Contains(x) {
				continue
			}
			val[kept] = x
			val[pivot] = sub(pivot).Eval(look)
			// The system's states here are those where the facts hold
			// (the pivot read off its term); the reduced system's,
			// those within its own ranges.
			here := inRange(val, kept, pivot)
			if got, want := presburger.Eval(red.Init, redLook), here && presburger.Eval(ts.Init, look); got != want {
				t.Errorf("at %v: reduced Init %v, system %v", val, got, want)
			}
			if got, want := presburger.Eval(red.Bad, redLook), presburger.Eval(ts.Bad, look); got != want {
				t.Errorf("at %v: reduced Bad %v, system %v", val, got, want)
			}
			for y := int64(0); y <= most+1; y++ {
				if !redDom[kept].Contains(y) {
					continue
				}
				val[keptNext] = y
				val[pivotNext] = sub(pivot).Subst(func(v presburger.Var) presburger.Term {
					if v == kept {
						return presburger.VarTerm(keptNext)
					}
					return presburger.VarTerm(v)
				}).Eval(look)
				there := inRange(val, keptNext, pivotNext) && inRange(map[presburger.Var]int64{kept: val[keptNext], pivot: val[pivotNext]}, kept, pivot)
				for i := range ts.Trans {
					got := presburger.Eval(red.Trans[i], redLook)
					want := here && there && presburger.Eval(ts.Trans[i], look)
					if got != want {
						t.Errorf("step %d at %v: reduced system %v, system %v", i, val, got, want)
					}
					checked++
				}
			}
		}
	}
	params(0, map[presburger.Var]int64{})
	if checked == 0 {
		t.Fatal("no step checked")
	}
}
