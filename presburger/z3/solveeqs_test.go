package z3_test

import (
	"context"
	"math/rand"
	"testing"

	pb "github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestSolveEqsAgainstZ3 compares presburger.SolveEqs (in front of Z3)
// with Z3 alone on random problems whose top-level conjuncts include
// equalities with unit coefficients, over counters, open integers and
// finite ranges: the answers must agree, every model satisfies the
// problem as given (values for the variables solved for included), and
// most problems have some variable solved for.
func TestSolveEqsAgainstZ3(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewSource(23))
	ctx := context.Background()
	s := z3.New()
	inner := &fewerVars{s: s}
	eqs := pb.SolveEqs{S: inner}
	count := map[pb.Result]int{}
	solved := 0
	for i := range n {
		p := openProblem(r)
		nv := len(p.Bounds)
		// One to three equalities, each a unit variable against a
		// small sum of the others.
		fs := pb.Conjuncts(p.F)
		for k := 1 + r.Intn(3); k > 0; k-- {
			x := pb.Var(r.Intn(nv))
			t := pb.VarTerm(x).Scale([]int64{-1, 1}[r.Intn(2)]).Add(pb.ConstTerm(int64(r.Intn(7) - 3)))
			for j := r.Intn(3); j > 0; j-- {
				if y := pb.Var(r.Intn(nv)); y != x {
					t = t.Add(pb.VarTerm(y).Scale([]int64{-2, -1, 1, 2}[r.Intn(4)]))
				}
			}
			fs = append(fs, pb.Compare(t, pb.Eq, pb.ConstTerm(0)))
		}
		r.Shuffle(len(fs), func(a, b int) { fs[a], fs[b] = fs[b], fs[a] })
		p.F = pb.Conj(fs...)
		want, err := s.Solve(ctx, p)
		if err != nil || want.Result == pb.Unknown {
			t.Fatalf("z3: %v %v", want, err)
		}
		inner.asked = -1
		got, err := eqs.Solve(ctx, p)
		if inner.asked >= 0 && inner.asked < len(p.Bounds) {
			solved++
		}
		if err != nil {
			t.Fatalf("problem %d %s: %v", i, pb.Format(p.F, name), err)
		}
		count[got.Result]++
		if got.Result != want.Result {
			t.Fatalf("problem %d %s over %v: with the equalities solved %v, z3 alone %v", i, pb.Format(p.F, name), p.Bounds, got.Result, want.Result)
		}
		if got.Result == pb.Sat {
			if len(got.Model) != len(p.Bounds) {
				t.Fatalf("problem %d %s: model %v values %d variables of %d", i, pb.Format(p.F, name), got.Model, len(got.Model), len(p.Bounds))
			}
			if err := modelOK(p, got.Model); err != nil {
				t.Fatalf("problem %d %s: %v: %v", i, pb.Format(p.F, name), got.Model, err)
			}
		}
	}
	t.Logf("%d problems: %v; %d asked with fewer variables", n, count, solved)
	if count[pb.Sat] < n/8 || count[pb.Unsat] < n/8 {
		t.Errorf("too few of each answer: %v", count)
	}
	if solved < n/2 {
		t.Errorf("only %d of %d problems were asked with fewer variables", solved, n)
	}
}

// fewerVars is a Solver that records how many variables the last
// problem it was asked has.
type fewerVars struct {
	s     pb.Solver
	asked int
}

func (f *fewerVars) Solve(ctx context.Context, p pb.Problem) (pb.Answer, error) {
	f.asked = len(p.Bounds)
	return f.s.Solve(ctx, p)
}
