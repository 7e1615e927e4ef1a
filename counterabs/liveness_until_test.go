package counterabs

import (
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// TestLivenessFormulaUntil: the response properties written with untils
// whose left side is true, "A[true U q]" for AF q and "!E[true U !(p ->
// AF q)]" or "!EF !(p -> AF q)" for AG (p -> AF q), are read as those
// (unaryForms); E[true U q] (EF q) and A[p U q] are not response
// properties.
func TestLivenessFormulaUntil(t *testing.T) {
	name := func(v presburger.Var) string { return []string{"x", "y"}[v] }
	text := func(f presburger.Formula) string { return presburger.Format(f, name) }
	p := ctl.Atom{P: presburger.Compare(presburger.VarTerm(0), presburger.Ge, presburger.ConstTerm(1))}
	q := ctl.Atom{P: presburger.Compare(presburger.VarTerm(1), presburger.Eq, presburger.ConstTerm(0))}
	tt := ctl.Atom{P: presburger.True}
	respond := ctl.Binary{Op: ctl.Implies, L: p, R: ctl.Unary{Op: ctl.AF, X: q}}
	for _, tc := range []struct {
		f                    ctl.Formula
		start, trigger, goal string
	}{
		{ctl.Until{All: true, L: tt, R: q}, "true", "false", "y = 0"},
		{ctl.Unary{Op: ctl.AG, X: ctl.Binary{Op: ctl.Implies, L: p, R: ctl.Until{All: true, L: tt, R: q}}}, "x >= 1", "x >= 1", "y = 0"},
		{ctl.Not{X: ctl.Until{L: tt, R: ctl.Not{X: respond}}}, "x >= 1", "x >= 1", "y = 0"},
		{ctl.Not{X: ctl.Unary{Op: ctl.EF, X: ctl.Not{X: respond}}}, "x >= 1", "x >= 1", "y = 0"},
		{ctl.Unary{Op: ctl.AG, X: ctl.Until{All: true, L: tt, R: q}}, "true", "true", "y = 0"},
	} {
		start, trigger, goal, ok := LivenessFormula(tc.f)
		if !ok || text(start) != tc.start || text(trigger) != tc.trigger || text(goal) != tc.goal {
			t.Errorf("%s: got %v (%v, %v, %v), want (%s, %s, %s)", ctl.Format(tc.f, name), ok, start, trigger, goal, tc.start, tc.trigger, tc.goal)
		}
	}
	for _, f := range []ctl.Formula{
		ctl.Until{L: tt, R: q},
		ctl.Until{All: true, L: p, R: q},
		ctl.Not{X: ctl.Until{All: true, L: tt, R: ctl.Not{X: respond}}},
	} {
		if _, _, _, ok := LivenessFormula(f); ok {
			t.Errorf("%s read as a response property", ctl.Format(f, name))
		}
	}
}
