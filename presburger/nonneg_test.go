package presburger_test

import (
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

// TestFoldNonnegative checks that the atoms the sign of their
// coefficients decides are folded, and the folded formula against the
// original on every assignment of small nonnegative values.
func TestFoldNonnegative(t *testing.T) {
	x, y := pb.VarTerm(0), pb.VarTerm(1)
	folded := []struct {
		f    pb.Formula
		want pb.Formula
	}{
		{pb.Compare(x, pb.Lt, pb.ConstTerm(0)), pb.False},
		{pb.Compare(x.Add(y), pb.Ge, pb.ConstTerm(0)), pb.True},
		{pb.Compare(x.Scale(-2), pb.Gt, pb.ConstTerm(1)), pb.False},
		{pb.Compare(x, pb.Ne, pb.ConstTerm(-1)), pb.True},
		{pb.Compare(x.Add(y), pb.Eq, pb.ConstTerm(-3)), pb.False},
		{pb.Negation(pb.Compare(x, pb.Lt, pb.ConstTerm(0))), pb.True},
		{pb.Disj(pb.Compare(x, pb.Lt, pb.ConstTerm(0)), pb.Compare(x, pb.Gt, pb.ConstTerm(0))), pb.Compare(x, pb.Gt, pb.ConstTerm(0))},
	}
	for _, c := range folded {
		if got := pb.FoldNonnegative(c.f); pb.Format(got, name) != pb.Format(c.want, name) {
			t.Errorf("FoldNonnegative(%s) = %s, want %s", pb.Format(c.f, name), pb.Format(got, name), pb.Format(c.want, name))
		}
	}
	for _, kept := range []pb.Formula{
		pb.Compare(x.Sub(y), pb.Lt, pb.ConstTerm(0)),
		pb.Compare(x, pb.Gt, pb.ConstTerm(0)),
		pb.Compare(x.Scale(-1), pb.Ge, pb.ConstTerm(-2)),
	} {
		if got := pb.FoldNonnegative(kept); pb.Format(got, name) != pb.Format(kept, name) {
			t.Errorf("undecided atom %s folded to %s", pb.Format(kept, name), pb.Format(got, name))
		}
	}

	g := newGen(7, 3)
	box := []pb.Bound{{Var: 0, Lo: 0, Hi: 4}, {Var: 1, Lo: 0, Hi: 4}, {Var: 2, Lo: 0, Hi: 4}}
	changed := 0
	for i := range 2000 {
		f := g.formula(3, g.vars())
		h := pb.FoldNonnegative(f)
		if pb.Format(f, name) != pb.Format(h, name) {
			changed++
		}
		forAll(box, func(val func(pb.Var) int64) {
			if pb.Eval(f, val) != pb.Eval(h, val) {
				t.Fatalf("formula %d: %s folds to %s, which differs at x=%d y=%d z=%d",
					i, pb.Format(f, name), pb.Format(h, name), val(0), val(1), val(2))
			}
		})
	}
	if changed < 200 {
		t.Errorf("only %d of 2000 formulas changed by folding", changed)
	}
}
