package presburger_test

import (
	"context"
	"errors"
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

// recorder passes problems on to a solver and keeps them.
type recorder struct {
	s        pb.Solver
	problems []pb.Problem
}

func (r *recorder) Solve(ctx context.Context, p pb.Problem) (pb.Answer, error) {
	r.problems = append(r.problems, p)
	return r.s.Solve(ctx, p)
}

// TestInvariantConservedSteps: a token moves between x and y and the
// invariant is x + y <= 1. Each step keeps x + y, so the atom of !inv'
// contradicts inv's and the consecution query over the steps is false
// before any solver sees it: only initiation and safety are asked
// something else. The answers are those without the folding.
func TestInvariantConservedSteps(t *testing.T) {
	x, y, xn, yn := pb.VarTerm(sx), pb.VarTerm(sy), pb.VarTerm(sxn), pb.VarTerm(syn)
	one := pb.ConstTerm(1)
	ts := pb.TransitionSystem{
		Vars: []pb.Var{sx, sy}, Next: []pb.Var{sxn, syn},
		Domain: []pb.Bound{{Var: sx, Lo: 0, Hi: 3}, {Var: sy, Lo: 0, Hi: 3}},
		Init:   pb.Conj(pb.Compare(x, pb.Eq, one), pb.Compare(y, pb.Eq, pb.ConstTerm(0))),
		Trans: []pb.Formula{
			pb.Conj(pb.Compare(x, pb.Ge, one), pb.Compare(xn, pb.Eq, x.Sub(one)), pb.Compare(yn, pb.Eq, y.Add(one))),
			pb.Conj(pb.Compare(y, pb.Ge, one), pb.Compare(yn, pb.Eq, y.Sub(one)), pb.Compare(xn, pb.Eq, x.Add(one))),
		},
		Bad: pb.Compare(x.Add(y), pb.Ge, pb.ConstTerm(2)),
	}
	inv := pb.Compare(x.Add(y), pb.Le, one)
	rec := &recorder{s: pb.BruteForce{Limit: 1 << 12}}
	if err := pb.CheckInvariant(context.Background(), rec, ts, inv); err != nil {
		t.Fatalf("CheckInvariant: %v", err)
	}
	asked := 0
	for _, p := range rec.problems {
		if p.F != pb.False {
			asked++
		}
	}
	if asked != 2 {
		t.Errorf("%d of the %d queries are not false, want 2 (initiation, safety): %v", asked, len(rec.problems), rec.problems)
	}
	// A step that raises x + y is still asked, and fails.
	ts.Trans = append(ts.Trans, pb.Conj(pb.Compare(xn, pb.Eq, x.Add(one)), pb.Compare(yn, pb.Eq, y)))
	err := pb.CheckInvariant(context.Background(), rec, ts, inv)
	var ie *pb.InvariantError
	if !errors.As(err, &ie) || ie.Obligation != pb.Consecution || ie.Trans != 2 {
		t.Errorf("with a step that adds a token: %v, want a failure of consecution under transition 2", err)
	}
}
