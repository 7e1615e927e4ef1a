package prove

import (
	"math/rand"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// TestWeakenImplied checks the property the relaxed first attempt rests
// on: f implies weaken(f), and weaken(f) reads no dropped variable. It
// evaluates both on every assignment of four variables over -1..3, for
// random formulas with conjunctions, disjunctions, negations and bounded
// quantifiers; variables 2 and 3 are dropped.
func TestWeakenImplied(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	drop := map[presburger.Var]bool{2: true, 3: true}
	kept := 0 // weakened formulas that still say something
	for range 2000 {
		f := testsupport.RandomFormula(r, 4, 2, 4, true)
		w := weaken(f, drop)
		for _, v := range presburger.FreeVars(w) {
			if drop[v] {
				t.Fatalf("weaken(%v) = %v reads dropped variable %d", f, w, v)
			}
		}
		if w != presburger.True {
			kept++
		}
		var x [4]int64
		for code := range 625 {
			c := code
			for i := range x {
				x[i] = int64(c%5) - 1
				c /= 5
			}
			val := func(v presburger.Var) int64 {
				if int(v) < len(x) {
					return x[v]
				}
				return 0
			}
			if presburger.Eval(f, val) && !presburger.Eval(w, val) {
				t.Fatalf("%v holds at %v but its weakening %v does not", f, x, w)
			}
		}
	}
	if kept < 400 {
		t.Fatalf("only %d of 2000 weakenings differ from true: the test checks too little", kept)
	}
	t.Logf("2000 formulas, %d weakenings other than true", kept)
}
