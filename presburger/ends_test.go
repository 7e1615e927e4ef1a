package presburger_test

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

// TestSharpenEndsRandom checks SharpenEnds against evaluation: random
// formulas of atoms over one variable (and some over two), under
// negations, conjunctions and disjunctions, keep their truth value at
// every assignment inside the ranges, which are open on a side for some
// seeds (checked 20 values past the open end); and no disequality at an
// end of its variable's range is left.
func TestSharpenEndsRandom(t *testing.T) {
	changed, joined := 0, 0
	for seed := int64(0); seed < 3000; seed++ {
		r := rand.New(rand.NewSource(seed))
		bs := make([]pb.Bound, 2)
		for i := range bs {
			lo := int64(r.Intn(3) - 1)
			bs[i] = pb.Bound{Var: pb.Var(i), Lo: lo, Hi: lo + int64(r.Intn(4))}
		}
		wide := slices.Clone(bs)
		switch seed % 3 {
		case 1:
			bs[0].NoHi, bs[0].Hi, wide[0].Hi = true, 0, wide[0].Hi+20
		case 2:
			bs[1].NoLo, bs[1].Lo, wide[1].Lo = true, 0, wide[1].Lo-20
		}
		f := sharpenFormula(r, 3)
		h := pb.SharpenEnds(f, bs)
		if pb.Format(h, name) != pb.Format(f, name) {
			changed++
		}
		if fo, isOr := f.(pb.Or); isOr {
			if ho, still := h.(pb.Or); !still || len(ho) < len(fo) {
				joined++
			}
		}
		forAll(wide, func(val func(pb.Var) int64) {
			if pb.Eval(f, val) != pb.Eval(h, val) {
				t.Fatalf("seed %d: %s sharpens to %s on %v, which differs at x=%d y=%d",
					seed, pb.Format(f, name), pb.Format(h, name), bs, val(0), val(1))
			}
		})
	}
	if changed < 300 || joined < 30 {
		t.Fatalf("%d of 3000 formulas changed, %d disjunctions joined: sharpening seems not to happen", changed, joined)
	}
	x, y := pb.VarTerm(0), pb.VarTerm(1)
	flag := []pb.Bound{{Var: 0, Lo: 0, Hi: 1}, {Var: 1, Lo: 0, Hi: 2}}
	for _, tc := range []struct {
		f    pb.Formula
		want string
	}{
		{pb.Compare(x, pb.Ne, pb.ConstTerm(0)), "x = 1"},
		{pb.Compare(x, pb.Ne, pb.ConstTerm(1)), "x = 0"},
		{pb.Compare(y, pb.Ne, pb.ConstTerm(1)), "y != 1"},
		{pb.Disj(pb.Compare(y, pb.Eq, pb.ConstTerm(1)), pb.Compare(y, pb.Eq, pb.ConstTerm(2))), "y >= 1"},
		{pb.Disj(pb.Compare(y, pb.Eq, pb.ConstTerm(0)), pb.Compare(y, pb.Eq, pb.ConstTerm(2))), "y = 0 | y = 2"},
		{pb.Conj(pb.Compare(x, pb.Ne, pb.ConstTerm(0)), pb.Compare(y, pb.Ne, pb.ConstTerm(0))), "x = 1 & y >= 1"},
	} {
		if got := pb.Format(pb.SharpenEnds(tc.f, flag), name); got != tc.want {
			t.Errorf("SharpenEnds(%s) = %s, want %s", pb.Format(tc.f, name), got, tc.want)
		}
	}
	if got := pb.Format(pb.SharpenEnds(pb.Compare(x, pb.Ne, pb.ConstTerm(0)), []pb.Bound{pb.AtLeast(0, 0)}), name); !strings.Contains(got, ">= 1") {
		t.Errorf("SharpenEnds(x != 0) on x >= 0 = %s, want x >= 1", got)
	}
}

// sharpenFormula draws a formula for TestSharpenEndsRandom: its atoms
// read one of the variables x, y (one in five reads both).
func sharpenFormula(r *rand.Rand, depth int) pb.Formula {
	if depth == 0 || r.Intn(3) == 0 {
		coefs := []int64{-2, -1, 1, 1, 1, 2}
		t := pb.VarTerm(pb.Var(r.Intn(2))).Scale(coefs[r.Intn(len(coefs))]).Add(pb.ConstTerm(int64(r.Intn(9) - 4)))
		if r.Intn(5) == 0 {
			t = t.Add(pb.VarTerm(pb.Var(r.Intn(2))))
		}
		return pb.Cmp{Op: pb.Op(r.Intn(6)), T: t}
	}
	switch k := r.Intn(10); {
	case k < 2:
		return pb.Not{F: sharpenFormula(r, depth-1)}
	case k < 5:
		out := make(pb.And, 1+r.Intn(3))
		for i := range out {
			out[i] = sharpenFormula(r, depth-1)
		}
		return out
	default:
		out := make(pb.Or, 2+r.Intn(3))
		for i := range out {
			out[i] = sharpenFormula(r, depth-1)
		}
		return out
	}
}
