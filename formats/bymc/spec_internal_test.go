package bymc

import (
	"math/rand"
	"testing"

	"github.com/vsym/vsym/presburger"
)

// TestLiteralImplies checks the implication between atoms that the
// closure argument rests on (spec.go) against evaluation at every
// assignment of 0..6 to three variables, which are at least 0 as every
// variable of a threshold automaton is, on random atoms; and that it
// shows enough implications to be of use.
func TestLiteralImplies(t *testing.T) {
	rng := rand.New(rand.NewSource(30))
	ops := []presburger.Op{presburger.Eq, presburger.Ne, presburger.Lt, presburger.Le, presburger.Gt, presburger.Ge}
	atom := func(base presburger.Term) presburger.Cmp {
		tm := base
		if rng.Intn(2) == 0 { // another variable, with either sign
			tm = tm.Add(presburger.VarTerm(presburger.Var(2)).Scale(int64(rng.Intn(3) - 1)))
		}
		return presburger.Cmp{Op: ops[rng.Intn(len(ops))], T: tm.Add(presburger.ConstTerm(int64(rng.Intn(7) - 3)))}
	}
	shown := 0
	for range 20000 {
		base := presburger.VarTerm(0).Scale(int64(rng.Intn(3) + 1)).Sub(presburger.VarTerm(1).Scale(int64(rng.Intn(2))))
		l, m := atom(base), atom(base)
		if !literalImplies(l, m) {
			continue
		}
		shown++
		for a := range 7 {
			for b := range 7 {
				for c := range 7 {
					val := func(v presburger.Var) int64 { return []int64{int64(a), int64(b), int64(c)}[v] }
					if presburger.Eval(l, val) && !presburger.Eval(m, val) {
						t.Fatalf("%v implies %v, says literalImplies, but not at %d, %d, %d", l, m, a, b, c)
					}
				}
			}
		}
	}
	if shown < 2000 {
		t.Errorf("only %d implications shown of 20000 pairs", shown)
	}
}
