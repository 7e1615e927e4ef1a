package counterabs

import (
	"math/rand"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// TestLivenessFormulaSpellings checks that the spellings of a response
// property that CTL's dualities make equal are read as the property
// itself: its premise and goal agree with AG (p -> AF q)'s on every
// valuation of a sample, p = a & b where the spelling chains two
// premises. And spellings that are no response property are refused.
func TestLivenessFormulaSpellings(t *testing.T) {
	atom := func(v presburger.Var, op presburger.Op, k int64) ctl.Formula {
		return ctl.Atom{P: presburger.Compare(presburger.VarTerm(v), op, presburger.ConstTerm(k))}
	}
	a, b, q := atom(0, presburger.Ge, 1), atom(1, presburger.Le, 2), atom(2, presburger.Eq, 0)
	p := ctl.Binary{Op: ctl.And, L: a, R: b}
	not := func(f ctl.Formula) ctl.Formula { return ctl.Not{X: f} }
	ag := func(f ctl.Formula) ctl.Formula { return ctl.Unary{Op: ctl.AG, X: f} }
	af := ctl.Unary{Op: ctl.AF, X: q}
	egNot := ctl.Unary{Op: ctl.EG, X: not(q)}
	imp := func(l, r ctl.Formula) ctl.Formula { return ctl.Binary{Op: ctl.Implies, L: l, R: r} }
	and := func(l, r ctl.Formula) ctl.Formula { return ctl.Binary{Op: ctl.And, L: l, R: r} }
	or := func(l, r ctl.Formula) ctl.Formula { return ctl.Binary{Op: ctl.Or, L: l, R: r} }
	tt := ctl.Atom{P: presburger.True}
	r := rand.New(rand.NewSource(3))
	agree := func(x, y presburger.Formula) bool {
		for range 200 {
			val := map[presburger.Var]int64{0: int64(r.Intn(4) - 1), 1: int64(r.Intn(5)), 2: int64(r.Intn(3) - 1)}
			if presburger.Eval(x, func(v presburger.Var) int64 { return val[v] }) != presburger.Eval(y, func(v presburger.Var) int64 { return val[v] }) {
				return false
			}
		}
		return true
	}
	for _, f := range []ctl.Formula{
		ag(imp(p, af)),
		ag(or(not(p), af)),
		ag(or(af, or(not(a), not(b)))),
		ag(imp(a, imp(b, af))),
		ag(not(and(p, egNot))),
		ag(imp(egNot, not(p))),
		not(ctl.Unary{Op: ctl.EF, X: and(p, egNot)}),
		not(ctl.Until{L: tt, R: and(p, egNot)}),
		ag(imp(p, not(egNot))),
	} {
		start, trigger, goal, ok := LivenessFormula(f)
		pf, _ := StateFormula(p)
		qf, _ := StateFormula(q)
		if !ok || !agree(start, pf) || !agree(trigger, pf) || !agree(goal, qf) {
			t.Errorf("%s: got %v, %v, %v, %v", ctl.Format(f, func(v presburger.Var) string { return string(rune('x' + v)) }), start, trigger, goal, ok)
		}
	}
	// AG AF q spelled with the duality.
	if start, trigger, goal, ok := LivenessFormula(ag(not(egNot))); !ok || start != presburger.True || trigger != presburger.True || !agree(goal, q.(ctl.Atom).P) {
		t.Errorf("AG !EG !q: got %v, %v, %v, %v", start, trigger, goal, ok)
	}
	for _, f := range []ctl.Formula{
		ag(or(af, af)),
		ag(and(not(p), af)),
		ag(not(or(p, egNot))),
		ag(imp(af, not(p))),
		ag(or(p, ctl.Unary{Op: ctl.EG, X: q})),
	} {
		if _, _, _, ok := LivenessFormula(f); ok {
			t.Errorf("%s recognised as a response property", ctl.Format(f, func(v presburger.Var) string { return string(rune('x' + v)) }))
		}
	}
}
