package presburger_test

import (
	"context"
	"math/rand"
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

// countSolver counts the problems that reach its solver.
type countSolver struct {
	s pb.Solver
	n int
}

func (c *countSolver) Solve(ctx context.Context, p pb.Problem) (pb.Answer, error) {
	c.n++
	return c.s.Solve(ctx, p)
}

// padded returns f and enough copies of it, as one disjunction, that
// the problem has the 256 comparisons Memo remembers at least: the same
// models as f.
func padded(f pb.Formula) pb.Formula {
	atoms := 0
	for range pb.Atoms(f) {
		atoms++
	}
	if atoms == 0 {
		return f
	}
	copies := make(pb.Or, 256/atoms+1)
	for i := range copies {
		copies[i] = f
	}
	return pb.And{f, copies}
}

// TestMemoRandom checks Memo against brute force on random problems:
// each asked once, then, once Memo answers, asked again with its
// variables renamed (one to one: kept in order, which Memo recognises,
// or reversed), with a variable the formula does not read added, and
// sometimes with a conjunct more; every answer must be brute force's,
// and the unsat problems renamed in order must be answered without
// asking.
func TestMemoRandom(t *testing.T) {
	ctx := context.Background()
	g := newGen(53, 3)
	r := rand.New(rand.NewSource(59))
	inner := &countSolver{s: pb.BruteForce{}}
	hits, unsat, checked := 0, 0, 0
	for i := range 300 {
		m := pb.NewMemo(inner)
		f := padded(g.formula(3, g.vars()))
		p := pb.Problem{Bounds: g.bounds(), F: f}
		want, err := pb.BruteForce{}.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Solve(ctx, p)
		if err != nil || got.Result != want.Result {
			t.Fatalf("problem %d: memo %v %v, brute force %v", i, got.Result, err, want.Result)
		}
		m.Answering()
		// The variables renamed: shifted (in order), or reversed.
		shift := pb.Var(100 + r.Intn(50))
		for _, reverse := range []bool{false, true} {
			ren := func(v pb.Var) pb.Var {
				if reverse {
					return 1000 - v
				}
				return v + shift
			}
			q := pb.Problem{F: renameAll(p.F, ren, 1)}
			if i%5 == 2 {
				// Another coefficient: x0's doubled.
				q.F = renameAll(p.F, ren, 2)
			}
			for _, b := range p.Bounds {
				b.Var = ren(b.Var)
				q.Bounds = append(q.Bounds, b)
			}
			// A variable nothing reads.
			q.Bounds = append(q.Bounds, pb.Bound{Var: 900, Lo: 0, Hi: int64(r.Intn(3))})
			if i%5 == 1 {
				// A wider range.
				q.Bounds[0].Lo -= 2
				q.Bounds[0].Hi += 2
			}
			if i%5 == 0 {
				// Another constant.
				q.F = pb.And{q.F, pb.Cmp{Op: pb.Le, T: pb.VarTerm(ren(0)).Add(pb.ConstTerm(int64(r.Intn(3))))}}
			}
			want, err := pb.BruteForce{}.Solve(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			before := inner.n
			got, err := m.Solve(ctx, q)
			if err != nil || got.Result != want.Result {
				t.Fatalf("problem %d (reverse=%v): memo %v %v, brute force %v", i, reverse, got.Result, err, want.Result)
			}
			checked++
			if inner.n == before {
				hits++
			}
			if !reverse && want.Result == pb.Unsat && i%5 > 2 && large(p.F) {
				unsat++
				if inner.n != before {
					t.Errorf("problem %d: unsat, shown so, and asked again with its variables renamed in order", i)
				}
			}
		}
	}
	t.Logf("%d problems asked again, %d answered without asking, %d of them unsat renamed in order", checked, hits, unsat)
	if unsat < 30 || hits < unsat {
		t.Errorf("the sample exercises too little")
	}
}

// large says whether f has the 256 comparisons Memo remembers.
func large(f pb.Formula) bool {
	atoms := 0
	for range pb.Atoms(f) {
		atoms++
	}
	return atoms >= 256
}

// renameAll renames every variable of f, the bound ones of its Exists
// too, by ren (one to one), which keeps its meaning, and multiplies the
// coefficients of variable 0 by k (1: the meaning kept).
func renameAll(f pb.Formula, ren func(pb.Var) pb.Var, k int64) pb.Formula {
	switch f := f.(type) {
	case pb.Cmp:
		var t pb.Term
		for _, m := range f.T.Monos {
			c := m.Coef
			if m.Var == 0 {
				c *= k
			}
			t = t.Add(pb.VarTerm(ren(m.Var)).Scale(c))
		}
		return pb.Cmp{Op: f.Op, T: t.Add(pb.ConstTerm(f.T.Const))}
	case pb.Not:
		return pb.Not{F: renameAll(f.F, ren, k)}
	case pb.And:
		out := make(pb.And, len(f))
		for i, g := range f {
			out[i] = renameAll(g, ren, k)
		}
		return out
	case pb.Or:
		out := make(pb.Or, len(f))
		for i, g := range f {
			out[i] = renameAll(g, ren, k)
		}
		return out
	case pb.Exists:
		vars := make([]pb.Bound, len(f.Vars))
		for i, b := range f.Vars {
			b.Var = ren(b.Var)
			vars[i] = b
		}
		return pb.Exists{Vars: vars, Body: renameAll(f.Body, ren, k)}
	}
	return f
}

// TestMemoSmall checks that Memo neither remembers nor looks up a
// problem of few comparisons, and answers nothing before Answering.
func TestMemoSmall(t *testing.T) {
	ctx := context.Background()
	inner := &countSolver{s: pb.BruteForce{}}
	m := pb.NewMemo(inner)
	small := pb.Problem{Bounds: []pb.Bound{{Var: 0, Lo: 0, Hi: 3}}, F: pb.Cmp{Op: pb.Lt, T: pb.VarTerm(0)}}
	large := pb.Problem{Bounds: small.Bounds, F: padded(small.F)}
	for _, p := range []pb.Problem{small, large, small, large} {
		if a, err := m.Solve(ctx, p); err != nil || a.Result != pb.Unsat {
			t.Fatalf("%v %v, want unsat", a.Result, err)
		}
	}
	if inner.n != 4 {
		t.Errorf("%d problems asked before Answering, want all 4", inner.n)
	}
	m.Answering()
	for _, p := range []pb.Problem{small, large} {
		if a, err := m.Solve(ctx, p); err != nil || a.Result != pb.Unsat {
			t.Fatalf("%v %v, want unsat", a.Result, err)
		}
	}
	if inner.n != 5 {
		t.Errorf("%d problems asked in all, want 5: the small one again, the large one remembered", inner.n)
	}
	// 2*x >= 3 has no model in 0..1, 3*x >= 3 has one: not the same
	// problem.
	x := pb.VarTerm(0)
	twice := pb.Problem{Bounds: []pb.Bound{{Var: 0, Lo: 0, Hi: 1}}, F: padded(pb.Cmp{Op: pb.Ge, T: x.Scale(2).Add(pb.ConstTerm(-3))})}
	thrice := pb.Problem{Bounds: twice.Bounds, F: padded(pb.Cmp{Op: pb.Ge, T: x.Scale(3).Add(pb.ConstTerm(-3))})}
	for _, c := range []struct {
		p    pb.Problem
		want pb.Result
	}{{twice, pb.Unsat}, {thrice, pb.Sat}} {
		if a, err := m.Solve(ctx, c.p); err != nil || a.Result != c.want {
			t.Errorf("%v %v, want %v", a.Result, err, c.want)
		}
	}
}
