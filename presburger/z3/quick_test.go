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
	n := 1500
	if testing.Short() {
		n = 300
	}
	count := quickAgainstZ3(t, 11, n, openProblem)
	if count[pb.Sat] < n/8 || count[pb.Unsat] < n/8 {
		t.Errorf("Quick decides too few: %v", count)
	}
}

// quickAgainstZ3 asks Quick and Z3 about n problems that random makes
// from seed, fails t when Quick answers other than Z3 or gives a model
// that does not satisfy the problem, and returns Quick's answers.
func quickAgainstZ3(t *testing.T, seed int64, n int, random func(*rand.Rand) pb.Problem) map[pb.Result]int {
	t.Helper()
	r := rand.New(rand.NewSource(seed))
	ctx := context.Background()
	s := z3.New()
	count := map[pb.Result]int{}
	for i := 0; i < n; i++ {
		p := random(r)
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
	return count
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

// TestQuickStateEquationsAgainstZ3 compares Quick with Z3 on the state
// equations of random nets, the queries of a proof by the state
// equation: markings x = x0 + C*y over 10 to 40 places and firing
// counts y of as many transitions, each moving a token or two among a
// few places, and a bad condition that is a disjunction of markings
// covered. Quick solves the equalities for the places (eliminate) and
// decides the rest on a tableau of many sparse rows, with branch and
// bound; every answer it gives must be Z3's, and it must decide most.
func TestQuickStateEquationsAgainstZ3(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	count := quickAgainstZ3(t, 29, n, stateEquation)
	if count[pb.Sat] < n/8 || count[pb.Unsat] < n/8 || count[pb.Unknown] > n/4 {
		t.Errorf("Quick decides too few: %v", count)
	}
}

// stateEquation makes the state equation of a random net with a random
// bad condition: places 0..np-1 (x), transitions np.. (y), x = x0 +
// C*y, every variable a counter.
func stateEquation(r *rand.Rand) pb.Problem {
	np := 10 + r.Intn(31)
	nt := np/2 + r.Intn(np)
	var bs []pb.Bound
	for v := 0; v < np+nt; v++ {
		bs = append(bs, pb.AtLeast(pb.Var(v), 0))
	}
	effect := make([]pb.Term, np) // C*y, by place
	for tr := 0; tr < nt; tr++ {
		y := pb.VarTerm(pb.Var(np + tr))
		for k := 1 + r.Intn(2); k > 0; k-- { // a token or two moved
			from, to := r.Intn(np), r.Intn(np)
			w := int64(1 + r.Intn(2))
			effect[from] = effect[from].Sub(y.Scale(w))
			effect[to] = effect[to].Add(y.Scale(w))
		}
	}
	var fs []pb.Formula
	for pl := 0; pl < np; pl++ {
		x0 := int64(0)
		if r.Intn(4) == 0 {
			x0 = int64(1 + r.Intn(2))
		}
		fs = append(fs, pb.Compare(pb.VarTerm(pb.Var(pl)), pb.Eq, effect[pl].Add(pb.ConstTerm(x0))))
	}
	var bad []pb.Formula
	for k := 1 + r.Intn(3); k > 0; k-- {
		var cover []pb.Formula
		for j := 1 + r.Intn(2); j > 0; j-- {
			cover = append(cover, pb.Compare(pb.VarTerm(pb.Var(r.Intn(np))), pb.Ge, pb.ConstTerm(int64(1+r.Intn(3)))))
		}
		bad = append(bad, pb.Conj(cover...))
	}
	fs = append(fs, pb.Disj(bad...))
	return pb.Problem{Bounds: bs, F: pb.Conj(fs...)}
}

// TestQuickRingWithinBudget checks that Quick decides, within its
// default steps, the state equation of a ring of 120 places that one
// token goes round (120 transitions, 240 variables): "two tokens at
// once" has no rational solution, since the places sum to 1, which
// takes the relaxation a pivot on most rows. The dense tableau that
// came before the sparse one ran out of steps from 100 places on.
func TestQuickRingWithinBudget(t *testing.T) {
	const np = 120
	var bs []pb.Bound
	for v := 0; v < 2*np; v++ {
		bs = append(bs, pb.AtLeast(pb.Var(v), 0))
	}
	var fs []pb.Formula
	for pl := 0; pl < np; pl++ {
		in, out := pb.VarTerm(pb.Var(np+(pl+np-1)%np)), pb.VarTerm(pb.Var(np+pl))
		x0 := int64(0)
		if pl == 0 {
			x0 = 1
		}
		fs = append(fs, pb.Compare(pb.VarTerm(pb.Var(pl)), pb.Eq, in.Sub(out).Add(pb.ConstTerm(x0))))
	}
	two := pb.VarTerm(pb.Var(np / 3)).Add(pb.VarTerm(pb.Var(2 * np / 3)))
	p := pb.Problem{Bounds: bs, F: pb.Conj(append(fs, pb.Compare(two, pb.Ge, pb.ConstTerm(2)))...)}
	a, err := pb.Quick{}.Solve(context.Background(), p)
	if err != nil || a.Result != pb.Unsat {
		t.Errorf("quick: %v (%s) %v, want unsat", a.Result, a.Reason, err)
	}
	want, err := z3.New().Solve(context.Background(), p)
	if err != nil || want.Result != pb.Unsat {
		t.Errorf("z3: %v %v, want unsat", want.Result, err)
	}
}
