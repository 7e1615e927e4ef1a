package prove

import (
	"fmt"
	"testing"

	"github.com/vsym/vsym/presburger"
)

// TestGuardCases checks guardCases on guards of known shape: a
// disjunction splits into its parts, a conjunction with disjunctions
// multiplies out, a disequality and a guard with one case stay whole,
// and a guard with more than maxStepCases cases is not split.
func TestGuardCases(t *testing.T) {
	x := func(i int) presburger.Formula {
		return presburger.Compare(presburger.VarTerm(presburger.Var(i)), presburger.Ge, presburger.ConstTerm(1))
	}
	ne := presburger.Compare(presburger.VarTerm(0), presburger.Ne, presburger.ConstTerm(2))
	name := func(v presburger.Var) string { return fmt.Sprintf("x%d", v) }
	or := func(a, b presburger.Formula) presburger.Formula { return presburger.Disj(a, b) }
	// twelve is (x0 | x1) & (x2 | x3) & (x4 | x5 | x6): 2 * 2 * 3 = 12 cases.
	twelve := presburger.Conj(or(x(0), x(1)), or(x(2), x(3)), presburger.Disj(x(4), x(5), x(6)))
	for _, tc := range []struct {
		guard presburger.Formula
		want  []string
	}{
		{x(0), nil},
		{presburger.Conj(x(0), x(1)), nil},
		{ne, nil},
		{or(x(0), x(1)), []string{"x0 >= 1", "x1 >= 1"}},
		{presburger.Conj(or(x(0), x(1)), x(2)), []string{"x0 >= 1 & x2 >= 1", "x1 >= 1 & x2 >= 1"}},
		{presburger.Conj(or(x(0), x(1)), or(x(2), ne)), []string{"x0 >= 1 & x2 >= 1", "x0 >= 1 & x0 != 2", "x1 >= 1 & x2 >= 1", "x1 >= 1 & x0 != 2"}},
		{twelve, nil},
	} {
		var got []string
		for _, c := range guardCases(tc.guard) {
			got = append(got, presburger.Format(c, name))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("guardCases(%s) = %q, want %q", presburger.Format(tc.guard, name), got, tc.want)
		}
	}
}
