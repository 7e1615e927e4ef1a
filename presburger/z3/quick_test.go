package z3_test

import (
	"context"
	"math/rand"
	"testing"

	pb "github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestQuickAgainstZ3 compares presburger.Quick with Z3 on random
// problems over open ranges (counters with no upper bound, integers with
// no bound at all), which enumeration cannot check: every Sat and Unsat
// of Quick must be Z3's answer, and every model satisfies the problem.
func TestQuickAgainstZ3(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	n := 1500
	if testing.Short() {
		n = 300
	}
	ctx := context.Background()
	s := z3.New()
	count := map[pb.Result]int{}
	for i := 0; i < n; i++ {
		p := openProblem(r)
		want, err := s.Solve(ctx, p)
		if err != nil || want.Result == pb.Unknown {
			t.Fatalf("z3: %v %v", want, err)
		}
		got, err := pb.Quick{}.Solve(ctx, p)
		if err != nil {
			t.Fatalf("problem %d %s: %v", i, pb.Format(p.F, name), err)
		}
		count[got.Result]++
		if got.Result != pb.Unknown && got.Result != want.Result {
			t.Fatalf("problem %d %s over %v: quick %v, z3 %v", i, pb.Format(p.F, name), p.Bounds, got.Result, want.Result)
		}
		if got.Result == pb.Sat {
			if err := modelOK(p, got.Model); err != nil {
				t.Fatalf("problem %d %s: %v: %v", i, pb.Format(p.F, name), got.Model, err)
			}
		}
	}
	t.Logf("%d problems: %v", n, count)
	if count[pb.Sat] < n/8 || count[pb.Unsat] < n/8 {
		t.Errorf("Quick decides too few: %v", count)
	}
}

// openProblem makes a conjunction of linear atoms and small
// disjunctions over 2..6 variables, each a counter (0..), any integer,
// or a finite range.
func openProblem(r *rand.Rand) pb.Problem {
	nv := 2 + r.Intn(5)
	bs := make([]pb.Bound, nv)
	for i := range bs {
		v := pb.Var(i)
		switch r.Intn(3) {
		case 0:
			bs[i] = pb.AtLeast(v, 0)
		case 1:
			bs[i] = pb.AnyInt(v)
		default:
			lo := int64(r.Intn(5) - 2)
			bs[i] = pb.Bound{Var: v, Lo: lo, Hi: lo + int64(r.Intn(6))}
		}
	}
	atom := func() pb.Formula {
		t := pb.ConstTerm(int64(r.Intn(11) - 5))
		for k := 1 + r.Intn(4); k > 0; k-- {
			t = t.Add(pb.VarTerm(pb.Var(r.Intn(nv))).Scale([]int64{-3, -2, -1, -1, 1, 1, 2, 3}[r.Intn(8)]))
		}
		return pb.Cmp{Op: pb.Op(r.Intn(6)), T: t}
	}
	var fs []pb.Formula
	for k := 1 + r.Intn(6); k > 0; k-- {
		switch r.Intn(4) {
		case 0:
			fs = append(fs, pb.Or{atom(), pb.And{atom(), atom()}})
		case 1:
			fs = append(fs, pb.Not{F: pb.And{atom(), atom()}})
		default:
			fs = append(fs, atom())
		}
	}
	return pb.Problem{Bounds: bs, F: pb.And(fs)}
}
