package gsst_test

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// TestTypedAtomReadsBack: random atoms over counters and the boolean,
// enumeration and integer shared variables of testdata/constructs/lock.yaml,
// booleans and enumerations in arithmetic included (as an invariant
// found by the prover holds them), printed by FormatFormula, read back
// as a guard of the spec and evaluated against the atom on random
// states whose shared variables lie in their domains.
func TestTypedAtomReadsBack(t *testing.T) {
	src, err := os.ReadFile("testdata/constructs/lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sys := loadExample(t, "lock")
	vars := []presburger.Var{sys.TotalVar(0), sys.TotalVar(2), sys.GroupVar(1, 0), sys.SharedVar(0), sys.SharedVar(1), sys.SharedVar(2)}
	ops := []presburger.Op{presburger.Eq, presburger.Ne, presburger.Lt, presburger.Le, presburger.Gt, presburger.Ge}
	r := rand.New(rand.NewSource(20))
	cases := map[string]int{}
	for i := range 300 {
		var lhs presburger.Term
		for _, v := range vars {
			if r.Intn(3) == 0 {
				lhs = lhs.Add(presburger.VarTerm(v).Scale(int64(r.Intn(5) - 2)))
			}
		}
		f := presburger.Compare(lhs, ops[r.Intn(len(ops))], presburger.ConstTerm(int64(r.Intn(5)-1)))
		text := sys.FormatFormula(f)
		switch {
		case strings.Contains(text, "->"):
			cases["by cases"]++
		case strings.Contains(text, "lock") || strings.Contains(text, "turn"):
			cases["typed"]++
		}
		spec := strings.Replace(string(src), "\nproperties:", fmt.Sprintf("\n  - {from: C, to: W, guard: %q}\nproperties:", text), 1)
		again, err := gsst.Parse("again.yaml", []byte(spec))
		if err != nil {
			t.Fatalf("atom %d, %s, printed %q, does not read back: %v", i, presburger.Format(f, sys.VarName), text, err)
		}
		tr := &again.Transitions[len(again.Transitions)-1]
		if again.TransitionName(tr) != "C -> W" || len(tr.Blocks) != 1 || again.NumVars() != sys.NumVars() {
			t.Fatalf("the new transition is %s with %d blocks", again.TransitionName(tr), len(tr.Blocks))
		}
		for range 40 {
			y := [][]int{make([]int, 4), make([]int, 4)}
			for g := range y {
				for s := range y[g] {
					y[g][s] = r.Intn(3)
				}
			}
			shared := []int{r.Intn(2), r.Intn(2), r.Intn(4)}
			val := sys.Valuation(y, shared)
			if want, got := presburger.Eval(f, val), presburger.Eval(tr.Blocks[0].Guard, val); want != got {
				t.Fatalf("atom %s printed as %q: %v at %v %v, read back %v", presburger.Format(f, sys.VarName), text, want, y, shared, got)
			}
		}
	}
	if cases["by cases"] < 20 || cases["typed"] < 10 {
		t.Errorf("too few typed atoms: %v", cases)
	}
}
