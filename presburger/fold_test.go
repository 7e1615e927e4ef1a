package presburger_test

import (
	"slices"
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

// TestFoldBoundsRandom checks FoldBounds against evaluation: on every
// assignment inside the box the folded formula has the truth value of the
// original. Some boxes bound variable 0 twice, to cover the intersection.
func TestFoldBoundsRandom(t *testing.T) {
	folded := 0
	for seed := int64(0); seed < 1500; seed++ {
		g := newGen(seed, 3)
		bs := g.bounds()
		box := bs // the box the result must agree on
		if seed%3 == 0 {
			extra := pb.Bound{Var: 0, Lo: bs[0].Lo + 1, Hi: bs[0].Hi + 2}
			bs = append(bs, extra)
			box = append([]pb.Bound{{Var: 0, Lo: extra.Lo, Hi: bs[0].Hi}}, bs[1:3]...)
		}
		f := g.formula(3, g.vars())
		h := pb.FoldBounds(f, bs)
		if pb.Format(h, name) != pb.Format(f, name) {
			folded++
		}
		forAll(box, func(val func(pb.Var) int64) {
			if pb.Eval(f, val) != pb.Eval(h, val) {
				t.Fatalf("seed %d: %s folds to %s, which differs at x=%d y=%d z=%d",
					seed, pb.Format(f, name), pb.Format(h, name), val(0), val(1), val(2))
			}
		})
	}
	if folded < 100 {
		t.Fatalf("only %d of 1500 formulas changed: folding seems not to happen", folded)
	}
}

func TestFoldBoundsKnown(t *testing.T) {
	x, y := pb.VarTerm(0), pb.VarTerm(1)
	k := pb.ConstTerm
	box := []pb.Bound{{Var: 0, Lo: 0, Hi: 5}}
	big := []pb.Bound{{Var: 0, Lo: 0, Hi: 1 << 40}}
	cases := []struct {
		name string
		f    pb.Formula
		box  []pb.Bound
		want string
	}{
		{"refuted", pb.Compare(x, pb.Lt, k(0)), box, "false"},
		{"implied", pb.Compare(x, pb.Ge, k(0)), box, "true"},
		{"undecided", pb.Compare(x, pb.Ne, k(0)), box, "x != 0"},
		{"outside", pb.Compare(x, pb.Ne, k(7)), box, "true"},
		{"negated", pb.Not{F: pb.Compare(x, pb.Gt, k(5))}, box, "true"},
		{"split ne", pb.Disj(pb.Compare(x, pb.Lt, k(0)), pb.Compare(x, pb.Gt, k(0))), box, "x > 0"},
		{"unbounded var", pb.Compare(x.Add(y), pb.Lt, k(0)), box, "x + y < 0"},
		{"overflow", pb.Compare(x.Scale(1<<40), pb.Ge, k(0)), big, "1099511627776*x >= 0"},
		{"exists", pb.Exists{Vars: []pb.Bound{{Var: 0, Lo: -3, Hi: -1}}, Body: pb.Compare(x, pb.Lt, k(0))}, box, "(exists x in -3..-1: x < 0)"},
		{"intersection", pb.Compare(x, pb.Le, k(3)), []pb.Bound{{Var: 0, Lo: 0, Hi: 9}, {Var: 0, Lo: 2, Hi: 3}}, "true"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := pb.Format(pb.FoldBounds(c.f, c.box), name); got != c.want {
				t.Fatalf("FoldBounds(%s) = %s, want %s", pb.Format(c.f, name), got, c.want)
			}
		})
	}
}

// TestFoldRangesRandom: FoldRanges, with the random box opened above or
// below on some variables, agrees with the formula at every point of
// the box widened by 20 on each open side (far enough for the generated
// terms, whose constants and coefficients are small), and folds atoms
// that FoldBounds leaves over an open range ("x >= lo" on x in lo..).
func TestFoldRangesRandom(t *testing.T) {
	folded := 0
	for seed := int64(0); seed < 1500; seed++ {
		g := newGen(seed, 3)
		bs := g.bounds()
		wide := slices.Clone(bs) // the points checked
		for i := range bs {
			switch seed % 4 {
			case 1:
				bs[i].NoHi, wide[i].Hi = true, bs[i].Hi+20
			case 2:
				if i == 0 {
					bs[i].NoLo, wide[i].Lo = true, bs[i].Lo-20
				}
			}
		}
		f := g.formula(3, g.vars())
		h := pb.FoldRanges(f, bs)
		if pb.Format(h, name) != pb.Format(f, name) {
			folded++
		}
		forAll(wide, func(val func(pb.Var) int64) {
			if pb.Eval(f, val) != pb.Eval(h, val) {
				t.Fatalf("seed %d: %s folds to %s, which differs at x=%d y=%d z=%d",
					seed, pb.Format(f, name), pb.Format(h, name), val(0), val(1), val(2))
			}
		})
	}
	if folded < 100 {
		t.Fatalf("only %d of 1500 formulas changed: folding seems not to happen", folded)
	}
	x := pb.VarTerm(0)
	counter := []pb.Bound{pb.AtLeast(0, 0)}
	if got := pb.Format(pb.FoldRanges(pb.Conj(pb.Compare(x, pb.Ge, pb.ConstTerm(1)), pb.Compare(x, pb.Ge, pb.ConstTerm(0))), counter), name); got != "x >= 1" {
		t.Errorf("FoldRanges(x >= 1 & x >= 0) on x >= 0 = %s, want x >= 1", got)
	}
}

func TestIsQuantifierFree(t *testing.T) {
	x := pb.VarTerm(0)
	atom := pb.Compare(x, pb.Lt, pb.ConstTerm(0))
	ex := pb.Exists{Vars: []pb.Bound{{Var: 1, Lo: 0, Hi: 1}}, Body: atom}
	cases := []struct {
		name string
		f    pb.Formula
		want bool
	}{
		{"atom", atom, true},
		{"bool", pb.True, true},
		{"exists", ex, false},
		{"not exists", pb.Not{F: ex}, false},
		{"in and", pb.And{atom, ex}, false},
		{"in or", pb.Or{atom, pb.Not{F: pb.And{ex}}}, false},
		{"connectives", pb.Or{atom, pb.Not{F: pb.And{atom, atom}}}, true},
	}
	for _, c := range cases {
		if got := pb.IsQuantifierFree(c.f); got != c.want {
			t.Errorf("%s: IsQuantifierFree(%s) = %v, want %v", c.name, pb.Format(c.f, name), got, c.want)
		}
	}
}
