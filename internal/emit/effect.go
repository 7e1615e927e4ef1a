package emit

import (
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// CounterEffect returns the counters after a step of t as linear terms
// over the counters before it (counterabs.Model.Step): the movers move
// one process each, and every transfer moves the other processes of its
// source.
func CounterEffect(t *counterabs.Transition, k int) []presburger.Term {
	y := make([]presburger.Term, k)
	for c := range y {
		y[c] = presburger.VarTerm(presburger.Var(c))
	}
	one := presburger.ConstTerm(1)
	y[t.From], y[t.To] = y[t.From].Sub(one), y[t.To].Add(one)
	for _, mv := range t.Also {
		y[mv.From], y[mv.To] = y[mv.From].Sub(one), y[mv.To].Add(one)
	}
	// A transfer moves the processes its source held before the step
	// that are not movers leaving it (a mover arriving there stays).
	moved := make([]presburger.Term, len(t.Transfers))
	for x, mv := range t.Transfers {
		moved[x] = presburger.VarTerm(presburger.Var(mv.From))
		if t.From == mv.From {
			moved[x] = moved[x].Sub(one)
		}
		for _, o := range t.Also {
			if o.From == mv.From {
				moved[x] = moved[x].Sub(one)
			}
		}
	}
	for x, mv := range t.Transfers {
		y[mv.From] = y[mv.From].Sub(moved[x])
	}
	for x, mv := range t.Transfers {
		y[mv.To] = y[mv.To].Add(moved[x])
	}
	return y
}
