package counterabs

import (
	"fmt"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// TestLivenessFormulaDisjunction: AG (!p | AF q), either way round, is
// read as AG (p -> AF q) (ByMC's properties written without ->), and a
// disjunction with no AF side, or two, is not a response property.
func TestLivenessFormulaDisjunction(t *testing.T) {
	same := func(a, b presburger.Formula) bool {
		name := func(v presburger.Var) string { return fmt.Sprintf("v%d", v) }
		return presburger.Format(a, name) == presburger.Format(b, name)
	}
	p := ctl.Atom{P: presburger.Compare(presburger.VarTerm(0), presburger.Ge, presburger.ConstTerm(1))}
	q := ctl.Atom{P: presburger.Compare(presburger.VarTerm(1), presburger.Eq, presburger.ConstTerm(0))}
	af := ctl.Unary{Op: ctl.AF, X: q}
	wantStart, wantTrigger, wantQ, ok := LivenessFormula(ctl.Unary{Op: ctl.AG, X: ctl.Binary{Op: ctl.Implies, L: p, R: af}})
	if !ok {
		t.Fatal("AG (p -> AF q) not recognised")
	}
	for _, f := range []ctl.Formula{
		ctl.Binary{Op: ctl.Or, L: ctl.Not{X: p}, R: af},
		ctl.Binary{Op: ctl.Or, L: af, R: ctl.Not{X: p}},
	} {
		start, trigger, got, ok := LivenessFormula(ctl.Unary{Op: ctl.AG, X: f})
		if !ok || !same(start, wantStart) || !same(trigger, wantTrigger) || !same(got, wantQ) {
			t.Errorf("%v: got %v, %v, %v, %v; want %v, %v, %v", f, start, trigger, got, ok, wantStart, wantTrigger, wantQ)
		}
	}
	for _, f := range []ctl.Formula{
		ctl.Binary{Op: ctl.Or, L: p, R: q},
		ctl.Binary{Op: ctl.Or, L: af, R: af},
		ctl.Binary{Op: ctl.And, L: ctl.Not{X: p}, R: af},
	} {
		if _, _, _, ok := LivenessFormula(ctl.Unary{Op: ctl.AG, X: f}); ok {
			t.Errorf("%v recognised as a response property", f)
		}
	}
}
