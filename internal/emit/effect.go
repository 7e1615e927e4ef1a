package emit

import (
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// CounterEffect returns the counters after a step of transition t of m
// as linear terms over the counters before it. What a step does to the counters is
// defined once, by counterabs.StepInto (movers, the other parts, the
// transfers of a broadcast); it is affine in the counters before the
// step, so the terms are read off it: the constant is the step taken
// from all zeros, and the coefficient of counter c the change that one
// more process in c makes. (The values are arithmetic, not states: a
// counter may go below zero on the way.)
func CounterEffect(m *counterabs.Model, t *counterabs.Transition) []presburger.Term {
	k := len(m.Counters)
	moves := *t
	moves.Assign = nil // the shared variables are the exporter's business
	step := func(x []int64) []int64 {
		y := make([]int64, k)
		_ = counterabs.StepInto(m, &moves, x, y) // only an assignment can fail, and moves has none
		return y
	}
	base := step(make([]int64, k))
	y := make([]presburger.Term, k)
	for i := range y {
		y[i] = presburger.ConstTerm(base[i])
	}
	for c := range k {
		x := make([]int64, k)
		x[c] = 1
		for i, v := range step(x) {
			if d := v - base[i]; d != 0 {
				y[i] = y[i].Add(presburger.VarTerm(presburger.Var(c)).Scale(d))
			}
		}
	}
	return y
}
