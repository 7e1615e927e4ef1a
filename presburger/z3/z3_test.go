package z3_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	pb "github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// gen makes random small formulas: atoms with coefficients in -3..3 over
// variables with ranges of at most four values, nested Not/And/Or and,
// when exists is set, bounded Exists (which may shadow a free variable).
type gen struct {
	r      *rand.Rand
	exists bool
	mild   bool   // atoms over two variables, small coefficients
	next   pb.Var // next variable number for an Exists
}

func (g *gen) bounds(n int) []pb.Bound {
	bs := make([]pb.Bound, n)
	for i := range bs {
		lo := int64(g.r.Intn(3) - 1)
		bs[i] = pb.Bound{Var: pb.Var(i), Lo: lo, Hi: lo + int64(g.r.Intn(4))}
	}
	g.next = pb.Var(n)
	return bs
}

func (g *gen) term(vs []pb.Var) pb.Term {
	if g.mild {
		// Atoms like x - y + 1 > 0 are neither valid nor unsat over
		// small ranges more often than arbitrary ones.
		t := pb.ConstTerm(int64(g.r.Intn(5) - 2))
		for _, i := range g.r.Perm(len(vs))[:min(2, len(vs))] {
			t = t.Add(pb.VarTerm(vs[i]).Scale([]int64{-2, -1, 1, 1, 2}[g.r.Intn(5)]))
		}
		return t
	}
	t := pb.ConstTerm(int64(g.r.Intn(9) - 4))
	for k := 1 + g.r.Intn(3); k > 0; k-- {
		v := vs[g.r.Intn(len(vs))]
		t = t.Add(pb.VarTerm(v).Scale(int64(g.r.Intn(7) - 3)))
	}
	return t
}

func (g *gen) atom(vs []pb.Var) pb.Formula {
	if g.r.Intn(20) == 0 {
		return pb.Bool(g.r.Intn(2) == 0)
	}
	// Cmp directly (not Compare) so that constant atoms also occur.
	return pb.Cmp{Op: pb.Op(g.r.Intn(6)), T: g.term(vs)}
}

func (g *gen) formula(depth int, vs []pb.Var) pb.Formula {
	if depth == 0 || g.r.Intn(4) == 0 {
		return g.atom(vs)
	}
	switch k := g.r.Intn(10); {
	case k < 2:
		return pb.Not{F: g.formula(depth-1, vs)}
	case k < 5:
		out := make(pb.And, 1+g.r.Intn(3))
		for i := range out {
			out[i] = g.formula(depth-1, vs)
		}
		return out
	case k < 8:
		out := make(pb.Or, 1+g.r.Intn(3))
		for i := range out {
			out[i] = g.formula(depth-1, vs)
		}
		return out
	case k < 10 && g.exists:
		var bs []pb.Bound
		inner := append([]pb.Var(nil), vs...)
		for n := 1 + g.r.Intn(2); n > 0; n-- {
			v := g.next
			if g.r.Intn(4) == 0 { // shadow a free variable
				v = vs[g.r.Intn(len(vs))]
			} else {
				g.next++
			}
			lo := int64(g.r.Intn(3) - 1)
			bs = append(bs, pb.Bound{Var: v, Lo: lo, Hi: lo + int64(g.r.Intn(4))})
			inner = append(inner, v)
		}
		return pb.Exists{Vars: bs, Body: g.formula(depth-1, inner)}
	}
	return g.atom(vs)
}

// problem makes a random problem with 2..5 variables.
func (g *gen) problem() pb.Problem {
	bs := g.bounds(2 + g.r.Intn(4))
	vs := make([]pb.Var, len(bs))
	for i, b := range bs {
		vs[i] = b.Var
	}
	return pb.Problem{Bounds: bs, F: g.formula(4, vs)}
}

func name(v pb.Var) string { return fmt.Sprintf("x%d", v) }

func modelOK(p pb.Problem, m pb.Model) error {
	for _, b := range p.Bounds {
		x, ok := m[b.Var]
		if !ok {
			return fmt.Errorf("model has no value for x%d", b.Var)
		}
		if !b.Contains(x) {
			return fmt.Errorf("model value x%d=%d outside %s", b.Var, x, b.Range())
		}
	}
	if !pb.Eval(p.F, func(v pb.Var) int64 { return m[v] }) {
		return errors.New("model does not satisfy the formula")
	}
	return nil
}

// TestSolveAgainstBruteForce compares Z3 with enumeration on random
// problems, with and without quantifiers.
func TestSolveAgainstBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		seed   int64
		n      int
		exists bool
		dflt   bool // only Z3's default solver (Solve's fallback)
		repeat bool // bound variable 0 a second time: its ranges intersect
	}{
		{"quantifier-free", 1, 400, false, false, false},
		{"exists", 2, 250, true, false, false},
		{"default-solver", 6, 100, true, true, false},
		{"repeated-bound", 7, 150, true, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer z3.SetDefaultOnly(tc.dflt)()
			g := &gen{r: rand.New(rand.NewSource(tc.seed)), exists: tc.exists}
			s := z3.New(z3.Timeout(10 * time.Second))
			ctx := context.Background()
			count := map[pb.Result]int{}
			n := shortened(tc.n)
			for i := 0; i < n; i++ {
				p := g.problem()
				if tc.repeat {
					lo := int64(g.r.Intn(3) - 1)
					p.Bounds = append(p.Bounds, pb.Bound{Var: 0, Lo: lo, Hi: lo + int64(g.r.Intn(4))})
				}
				want, err := pb.BruteForce{}.Solve(ctx, p)
				if err != nil || want.Result == pb.Unknown {
					t.Fatalf("brute force: %v %v", want, err)
				}
				got, err := s.Solve(ctx, p)
				if err != nil {
					t.Fatalf("problem %d %s: %v", i, pb.Format(p.F, name), err)
				}
				count[got.Result]++
				if got.Result != want.Result {
					t.Fatalf("problem %d %s over %v: z3 %v (%s), brute force %v", i, pb.Format(p.F, name), p.Bounds, got.Result, got.Reason, want.Result)
				}
				if got.Result == pb.Sat {
					if err := modelOK(p, got.Model); err != nil {
						t.Fatalf("problem %d %s: %v: %v", i, pb.Format(p.F, name), got.Model, err)
					}
				}
			}
			// The generator must produce both answers, or the
			// comparison proves little.
			t.Logf("%d problems: %v", n, count)
			if count[pb.Sat] < n/10 || count[pb.Unsat] < n/10 {
				t.Errorf("unbalanced sample: %v", count)
			}
		})
	}
}

// bruteProject reports, for the keep assignment val, whether values in
// range of the other variables satisfy p.F.
func bruteProject(p pb.Problem, kept map[pb.Var]bool, val map[pb.Var]int64) bool {
	var others []pb.Bound
	for _, b := range p.Bounds {
		if !kept[b.Var] {
			others = append(others, b)
		}
	}
	return pb.Eval(pb.Exists{Vars: others, Body: p.F}, func(v pb.Var) int64 { return val[v] })
}

// forAll calls f on every assignment of bs in range.
func forAll(bs []pb.Bound, f func(map[pb.Var]int64)) {
	val := map[pb.Var]int64{}
	var rec func(i int)
	rec = func(i int) {
		if i == len(bs) {
			f(val)
			return
		}
		for x := bs[i].Lo; x <= bs[i].Hi; x++ {
			val[bs[i].Var] = x
			rec(i + 1)
		}
	}
	rec(0)
}

// TestProjectAgainstBruteForce checks that the projection holds, for
// every assignment of the kept variables in range, exactly when brute
// force finds values for the eliminated ones.
func TestProjectAgainstBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		seed   int64
		n      int
		exists bool
	}{
		{"quantifier-free", 3, 250, false},
		{"exists", 4, 120, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &gen{r: rand.New(rand.NewSource(tc.seed)), exists: tc.exists}
			s := z3.New(z3.Timeout(10 * time.Second))
			ctx := context.Background()
			var done, inexpressible, nontrivial int
			n := shortened(tc.n)
			for i := 0; i < n; i++ {
				// A conjunction of shallow formulas is less often
				// valid or unsat than a deep random formula.
				p := g.problem()
				var vs []pb.Var
				for j, b := range p.Bounds {
					vs = append(vs, b.Var)
					if b.Lo == b.Hi { // a fixed kept variable projects trivially
						p.Bounds[j].Hi++
					}
				}
				g.mild = true
				p.F = pb.And{g.formula(2, vs), g.formula(2, vs), g.formula(1, vs)}
				g.mild = false
				kept := map[pb.Var]bool{}
				var keep []pb.Var
				var keepBounds []pb.Bound
				// Keep a nonempty proper subset: the interesting case.
				nkeep := 1 + g.r.Intn(len(p.Bounds)-1)
				for _, j := range g.r.Perm(len(p.Bounds))[:nkeep] {
					b := p.Bounds[j]
					kept[b.Var] = true
					keep = append(keep, b.Var)
					keepBounds = append(keepBounds, b)
				}
				f, r, err := s.Project(ctx, p, keep)
				if err != nil {
					// Divisibility constraints are not expressible;
					// anything else is a failure.
					if !strings.Contains(err.Error(), "cannot express") ||
						!strings.Contains(err.Error(), "mod") && !strings.Contains(err.Error(), "div") {
						t.Fatalf("problem %d %s keep %v: %v", i, pb.Format(p.F, name), keep, err)
					}
					inexpressible++
					continue
				}
				if r != pb.Sat {
					t.Fatalf("problem %d: result %v without error", i, r)
				}
				for _, v := range pb.FreeVars(f) {
					if !kept[v] {
						t.Fatalf("problem %d: projection %s mentions eliminated x%d", i, pb.Format(f, name), v)
					}
				}
				holds, fails := false, false
				forAll(keepBounds, func(val map[pb.Var]int64) {
					want := bruteProject(p, kept, val)
					got := pb.Eval(f, func(v pb.Var) int64 { return val[v] })
					if got != want {
						t.Fatalf("problem %d %s over %v keep %v: projection %s is %v at %v, brute force %v",
							i, pb.Format(p.F, name), p.Bounds, keep, pb.Format(f, name), got, val, want)
					}
					holds = holds || want
					fails = fails || !want
				})
				if holds && fails {
					nontrivial++
				}
				done++
			}
			t.Logf("%d projected (%d neither valid nor unsat), %d inexpressible", done, nontrivial, inexpressible)
			if done < n*3/4 || nontrivial < n/8 {
				t.Errorf("too few informative projections: %d done, %d nontrivial, %d inexpressible", done, nontrivial, inexpressible)
			}
		})
	}
}

// shortened is n random problems, or half of them with -short: each
// half still has both answers (or every kind of projection) in the
// proportions the tests require, which they check.
func shortened(n int) int {
	if testing.Short() {
		return n / 2
	}
	return n
}

// TestProjectInexpressible: eliminating y from x = 2y needs "x is even",
// which has no quantifier-free linear form; that must be an error, not a
// wrong formula.
func TestProjectInexpressible(t *testing.T) {
	x, y := pb.Var(0), pb.Var(1)
	p := pb.Problem{
		Bounds: []pb.Bound{{Var: x, Lo: 0, Hi: 10}, {Var: y, Lo: 0, Hi: 10}},
		F:      pb.Compare(pb.VarTerm(x), pb.Eq, pb.VarTerm(y).Scale(2)),
	}
	f, _, err := z3.New().Project(context.Background(), p, []pb.Var{x})
	if err == nil {
		t.Fatalf("got %s, want an error", pb.Format(f, name))
	}
	if !strings.Contains(err.Error(), "mod") && !strings.Contains(err.Error(), "div") {
		t.Errorf("error %q does not name the construct", err)
	}
}

// TestProjectKnown checks projections small enough to state by hand, and
// that the keep bounds are folded out of the result.
func TestProjectKnown(t *testing.T) {
	x, y, w := pb.Var(0), pb.Var(1), pb.Var(2)
	X, Y, W := pb.VarTerm(x), pb.VarTerm(y), pb.VarTerm(w)
	b := func(v pb.Var, lo, hi int64) pb.Bound { return pb.Bound{Var: v, Lo: lo, Hi: hi} }
	for _, tc := range []struct {
		name string
		p    pb.Problem
		keep []pb.Var
		want string
	}{
		{"sum", pb.Problem{Bounds: []pb.Bound{b(x, 0, 5), b(y, 0, 5)},
			F: pb.Compare(X.Add(Y), pb.Eq, pb.ConstTerm(7))}, []pb.Var{x}, "x0 >= 2"},
		{"keep-all", pb.Problem{Bounds: []pb.Bound{b(x, 0, 5), b(y, 0, 5)},
			F: pb.Compare(X, pb.Lt, Y)}, []pb.Var{x, y}, "x0 - x1 <= -1|x0 <= 4 & x1 >= 1 & x0 - x1 <= -1"},
		{"valid-in-range", pb.Problem{Bounds: []pb.Bound{b(x, 0, 5), b(y, 0, 5)},
			F: pb.Compare(X.Add(Y), pb.Ge, pb.ConstTerm(0))}, []pb.Var{x}, "true"},
		{"unsat", pb.Problem{Bounds: []pb.Bound{b(x, 0, 5), b(y, 0, 5)},
			F: pb.Compare(X.Add(Y), pb.Gt, pb.ConstTerm(10))}, []pb.Var{x}, "false"},
		// y is bounded twice: it lies in 0..3, not just in the last range.
		{"repeated-bound", pb.Problem{Bounds: []pb.Bound{b(x, 0, 9), b(y, 0, 3), b(y, 0, 9)},
			F: pb.Compare(X.Add(Y), pb.Eq, pb.ConstTerm(9))}, []pb.Var{x}, "x0 >= 6"},
		{"chain", pb.Problem{Bounds: []pb.Bound{b(x, 0, 9), b(y, 0, 9), b(w, 0, 9)},
			F: pb.Conj(pb.Compare(X, pb.Lt, Y), pb.Compare(Y, pb.Lt, W))}, []pb.Var{x, w}, "x0 - x2 <= -2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, r, err := z3.New().Project(context.Background(), tc.p, tc.keep)
			if err != nil || r != pb.Sat {
				t.Fatalf("Project: %v %v", r, err)
			}
			got := pb.Format(f, name)
			if !slices.Contains(strings.Split(tc.want, "|"), got) {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// pigeons says that n+1 variables in 1..n are pairwise distinct: unsat,
// and hard for an SMT solver as n grows.
func pigeons(n int) pb.Problem {
	var p pb.Problem
	var fs []pb.Formula
	for i := 0; i <= n; i++ {
		p.Bounds = append(p.Bounds, pb.Bound{Var: pb.Var(i), Lo: 1, Hi: int64(n)})
		for j := 0; j < i; j++ {
			fs = append(fs, pb.Compare(pb.VarTerm(pb.Var(i)), pb.Ne, pb.VarTerm(pb.Var(j))))
		}
	}
	p.F = pb.Conj(fs...)
	return p
}

// TestUnknown: a cancelled context, an expired deadline, a tiny timeout
// and a cancellation during a long solve all answer Unknown, never Sat or
// Unsat, marked Stopped. (That they stop: pigeons(14) runs for minutes;
// how promptly is a duration, which no test asserts.)
func TestUnknown(t *testing.T) {
	hard := pigeons(14)
	easy := pigeons(2)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	for _, tc := range []struct {
		name string
		s    *z3.Solver
		ctx  func() (context.Context, context.CancelFunc)
		p    pb.Problem
	}{
		{"cancelled", z3.New(), func() (context.Context, context.CancelFunc) { return cancelled, func() {} }, easy},
		{"expired", z3.New(), func() (context.Context, context.CancelFunc) { return expired, func() {} }, easy},
		{"timeout-option", z3.New(z3.Timeout(50 * time.Millisecond)), func() (context.Context, context.CancelFunc) {
			return context.Background(), func() {}
		}, hard},
		{"deadline", z3.New(), func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}, hard},
		{"cancel-midway", z3.New(), func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			return ctx, cancel
		}, hard},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx()
			defer cancel()
			a, err := tc.s.Solve(ctx, tc.p)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("reason: %s", a.Reason)
			if a.Result != pb.Unknown || a.Reason == "" {
				t.Errorf("got %v (reason %q), want unknown with a reason", a.Result, a.Reason)
			}
			if !a.Stopped {
				t.Errorf("unknown (reason %q) not marked Stopped, though a time bound or a cancellation caused it", a.Reason)
			}
		})
	}
	// Interrupted contexts must not poison later calls (they are not
	// returned to the pool).
	t.Run("after-interrupts", func(t *testing.T) {
		s := z3.New()
		for i := 0; i < 3; i++ {
			a, err := s.Solve(context.Background(), easy)
			if err != nil || a.Result != pb.Unsat {
				t.Fatalf("got %v %v, want unsat", a, err)
			}
		}
	})
	t.Run("project-cancelled", func(t *testing.T) {
		f, r, err := z3.New().Project(cancelled, easy, []pb.Var{0})
		if err != nil || r != pb.Unknown || f != nil {
			t.Errorf("got %v %v %v, want nil unknown nil", f, r, err)
		}
	})
	t.Run("project-timeout", func(t *testing.T) {
		f, r, err := z3.New(z3.Timeout(50*time.Millisecond)).Project(context.Background(), hard, []pb.Var{0})
		if err != nil || r != pb.Unknown || f != nil {
			t.Errorf("got %v %v %v, want nil unknown nil", f, r, err)
		}
	})
}

// TestWork: a Solver with a work bound (Z3's resource limit) answers a
// hard problem Unknown, not marked Stopped (no time bound caused it, and
// more time would not help), with a reason that says so, every time;
// an easy problem within the bound is answered.
func TestWork(t *testing.T) {
	s := z3.New(z3.Work(100_000))
	for range 3 {
		a, err := s.Solve(context.Background(), pigeons(14))
		if err != nil {
			t.Fatal(err)
		}
		if a.Result != pb.Unknown || a.Stopped || !strings.Contains(a.Reason, "out of work") {
			t.Fatalf("got %v (reason %q, stopped %v), want unknown for the resource limit", a.Result, a.Reason, a.Stopped)
		}
		if a, err := s.Solve(context.Background(), pigeons(2)); err != nil || a.Result != pb.Unsat {
			t.Fatalf("got %v %v, want unsat", a, err)
		}
	}
}

// TestMalformed: problems the solver must reject with an error.
func TestMalformed(t *testing.T) {
	x, y := pb.Var(0), pb.Var(1)
	for _, tc := range []struct {
		name string
		p    pb.Problem
	}{
		{"unbounded", pb.Problem{Bounds: []pb.Bound{{Var: x, Lo: 0, Hi: 1}},
			F: pb.Compare(pb.VarTerm(x), pb.Lt, pb.VarTerm(y))}},
		{"empty-range", pb.Problem{Bounds: []pb.Bound{{Var: x, Lo: 2, Hi: 1}},
			F: pb.Compare(pb.VarTerm(x), pb.Lt, pb.ConstTerm(3))}},
		{"nil-formula", pb.Problem{Bounds: []pb.Bound{{Var: x, Lo: 0, Hi: 1}}}},
		{"nil-subformula", pb.Problem{Bounds: []pb.Bound{{Var: x, Lo: 0, Hi: 1}},
			F: pb.And{pb.True, nil}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := z3.New()
			if a, err := s.Solve(context.Background(), tc.p); err == nil {
				t.Errorf("Solve: got %v, want an error", a)
			}
			if f, r, err := s.Project(context.Background(), tc.p, []pb.Var{x}); err == nil {
				t.Errorf("Project: got %v %v, want an error", f, r)
			}
		})
	}
}

// TestBigNumbers: values near the GSST limits (1e9 constants, 1e6
// processes) are handled exactly.
func TestBigNumbers(t *testing.T) {
	x, y := pb.Var(0), pb.Var(1)
	p := pb.Problem{
		Bounds: []pb.Bound{{Var: x, Lo: 0, Hi: 1_000_000}, {Var: y, Lo: -1_000_000_000, Hi: 1_000_000_000}},
		F: pb.Conj(
			pb.Compare(pb.VarTerm(x).Scale(999_983), pb.Eq, pb.VarTerm(y).Add(pb.ConstTerm(1_000_000_000))),
			pb.Compare(pb.VarTerm(y), pb.Gt, pb.ConstTerm(-1_000_000_000))),
	}
	a, err := z3.New().Solve(context.Background(), p)
	if err != nil || a.Result != pb.Sat {
		t.Fatalf("got %v %v", a, err)
	}
	if err := modelOK(p, a.Model); err != nil {
		t.Fatal(err)
	}
	p.F = pb.Conj(p.F, pb.Compare(pb.VarTerm(x), pb.Gt, pb.ConstTerm(2001)))
	if a, err := z3.New().Solve(context.Background(), p); err != nil || a.Result != pb.Unsat {
		t.Fatalf("got %v %v, want unsat", a, err)
	}
}

// TestConcurrent runs solves from several goroutines on one Solver.
func TestConcurrent(t *testing.T) {
	g := &gen{r: rand.New(rand.NewSource(5)), exists: true}
	ps := make([]pb.Problem, 80)
	want := make([]pb.Result, len(ps))
	for i := range ps {
		ps[i] = g.problem()
		a, err := pb.BruteForce{}.Solve(context.Background(), ps[i])
		if err != nil {
			t.Fatal(err)
		}
		want[i] = a.Result
	}
	s := z3.New()
	var wg sync.WaitGroup
	errs := make(chan error, len(ps))
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(ps); i += 4 {
				a, err := s.Solve(context.Background(), ps[i])
				if err == nil && a.Result != want[i] {
					err = fmt.Errorf("problem %d: got %v, want %v", i, a.Result, want[i])
				}
				if err != nil {
					errs <- err
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// counterQuery resembles a symmetry-certification query: groups × states
// counters, each group's counters summing to its size, and a guard that
// compares totals.
func counterQuery(groups, states int, size int64) pb.Problem {
	var p pb.Problem
	v := func(g, s int) pb.Var { return pb.Var(g*states + s) }
	var fs []pb.Formula
	total := func(s int) pb.Term {
		var t pb.Term
		for g := 0; g < groups; g++ {
			t = t.Add(pb.VarTerm(v(g, s)))
		}
		return t
	}
	for g := 0; g < groups; g++ {
		var sum pb.Term
		for s := 0; s < states; s++ {
			p.Bounds = append(p.Bounds, pb.Bound{Var: v(g, s), Lo: 0, Hi: size})
			sum = sum.Add(pb.VarTerm(v(g, s)))
		}
		fs = append(fs, pb.Compare(sum, pb.Eq, pb.ConstTerm(size)))
	}
	// Guard holds for a total configuration but differs on some split:
	// "group 0 has a process in state 0 and the guard is enabled in total
	// but not for the group-wise version".
	fs = append(fs,
		pb.Compare(pb.VarTerm(v(0, 0)), pb.Ge, pb.ConstTerm(1)),
		pb.Compare(total(1).Add(total(2)), pb.Le, total(0).Scale(2)),
		pb.Disj(
			pb.Compare(pb.VarTerm(v(1, 1)), pb.Gt, total(3)),
			pb.Compare(total(states-1).Scale(3), pb.Lt, pb.VarTerm(v(0, 2)).Add(pb.ConstTerm(-1)))),
		pb.Negation(pb.Compare(total(0), pb.Eq, total(1))),
	)
	p.F = pb.Conj(fs...)
	return p
}

func BenchmarkSolve(b *testing.B) {
	p := counterQuery(4, 6, 100)
	s := z3.New()
	ctx := context.Background()
	a, err := s.Solve(ctx, p)
	if err != nil || a.Result == pb.Unknown {
		b.Fatalf("%v %v", a, err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Solve(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "solves/s")
	b.ReportMetric(float64(len(p.Bounds)), "vars")
}

// BenchmarkSolveTrivial measures the fixed cost of a call (context
// creation, solver set-up, teardown) on a one-atom problem.
func BenchmarkSolveTrivial(b *testing.B) {
	p := pb.Problem{Bounds: []pb.Bound{{Var: 0, Lo: 0, Hi: 1}}, F: pb.Compare(pb.VarTerm(0), pb.Eq, pb.ConstTerm(1))}
	s := z3.New()
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		if _, err := s.Solve(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "solves/s")
}

func BenchmarkProject(b *testing.B) {
	p := counterQuery(3, 4, 20)
	var keep []pb.Var
	for s := 0; s < 4; s++ { // keep group 0's counters, eliminate the rest
		keep = append(keep, pb.Var(s))
	}
	s := z3.New()
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		if _, _, err := s.Project(ctx, p, keep); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "projections/s")
}

// BenchmarkSolveRandom cycles through the small random problems of
// TestSolveAgainstBruteForce (2-5 variables, with Exists): the typical
// cost of a small query, context pooling included.
func BenchmarkSolveRandom(b *testing.B) {
	g := &gen{r: rand.New(rand.NewSource(2)), exists: true}
	ps := make([]pb.Problem, 200)
	for i := range ps {
		ps[i] = g.problem()
	}
	s := z3.New()
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Solve(ctx, ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "solves/s")
}
