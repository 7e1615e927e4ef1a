package z3_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	pb "github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// threshold is a system whose safety fails only from n = 3 on: processes
// go from x0 to x1 freely and from x1 to x2 only when at least three wait
// in x1; bad is anyone in x2. With n in 1..maxN (maxN 0: unbounded).
func threshold(maxN int64) *counters {
	c := &counters{m: 3, np: 1}
	c.pdom = []pb.Bound{pb.AtLeast(c.p(0), 1)}
	if maxN > 0 {
		c.pdom = []pb.Bound{{Var: c.p(0), Lo: 1, Hi: maxN}}
	}
	c.init = pb.Conj(pb.Compare(c.tx(0), pb.Eq, c.tp(0)), pb.Compare(c.tx(1), pb.Eq, pb.ConstTerm(0)),
		pb.Compare(c.tx(2), pb.Eq, pb.ConstTerm(0)))
	c.rules = []move{
		{from: 0, to: 1, guard: pb.True},
		{from: 1, to: 2, guard: pb.Compare(c.tx(1), pb.Ge, pb.ConstTerm(3))},
	}
	c.bad = pb.Compare(c.tx(2), pb.Ge, pb.ConstTerm(1))
	return c
}

// checkProved checks a Proved answer independently of Prove: the
// invariant passes CheckInvariant with a fresh solver, and it holds in
// every state the explicit search reaches for n = 1..5 (where no bad
// state is reachable).
func checkProved(t *testing.T, c *counters, a pb.SafetyAnswer, box [][]int64) {
	t.Helper()
	if a.Verdict != pb.Proved || a.Invariant == nil {
		t.Fatalf("got %v (%s), want proved with an invariant", a.Verdict, a.Reason)
	}
	ts := c.system()
	if err := pb.CheckInvariant(context.Background(), z3.New(), ts, a.Invariant); err != nil {
		t.Fatalf("invariant %s: %v", pb.Format(a.Invariant, name), err)
	}
	for _, params := range box {
		sum := int64(0)
		for _, p := range params {
			sum += p
		}
		depth, ok := c.explore(params, sum, 1_000_000, func(val func(pb.Var) int64) {
			if !pb.Eval(a.Invariant, val) {
				t.Fatalf("invariant %s false in a reachable state at %v", pb.Format(a.Invariant, name), params)
			}
		})
		if !ok || depth != -1 {
			t.Fatalf("proved, but explicit search at %v: depth %d ok %v", params, depth, ok)
		}
	}
}

// checkRefuted checks a Refuted answer: the counterexample replays (with
// a fresh solver), the explicit search at its parameters finds a bad
// state at exactly its length (it is a shortest run there), and no box
// point has a shorter run into a bad state, nor one of that length at
// smaller values of the first parameter (the parameters are minimal for
// that length).
func checkRefuted(t *testing.T, c *counters, a pb.SafetyAnswer, box [][]int64) {
	t.Helper()
	if a.Verdict != pb.Refuted || a.Counterexample == nil {
		t.Fatalf("got %v (%s), want refuted with a counterexample", a.Verdict, a.Reason)
	}
	cex := *a.Counterexample
	ts := c.system()
	if err := pb.Replay(context.Background(), z3.New(), ts, cex); err != nil {
		t.Fatalf("counterexample %+v: %v", cex, err)
	}
	params := make([]int64, c.np)
	sum := int64(0)
	for j := range params {
		params[j] = cex.Params[c.p(j)]
		sum += params[j]
	}
	depth, ok := c.explore(params, sum, 1_000_000, nil)
	if !ok || depth != len(cex.Steps) {
		t.Fatalf("counterexample of %d steps at %v, explicit search: depth %d ok %v", len(cex.Steps), params, depth, ok)
	}
	for _, q := range box {
		sum := int64(0)
		for _, p := range q {
			sum += p
		}
		d, ok := c.explore(q, sum, 1_000_000, nil)
		if !ok {
			continue
		}
		if d >= 0 && d < len(cex.Steps) {
			t.Fatalf("counterexample of %d steps, but a run of %d at %v", len(cex.Steps), d, q)
		}
		if d == len(cex.Steps) && q[0] < params[0] {
			t.Fatalf("counterexample at %v, but one of the same length at %v", params, q)
		}
	}
}

func boxOf(n ...int64) [][]int64 {
	var out [][]int64
	for _, x := range n {
		out = append(out, []int64{x})
	}
	return out
}

func TestProveKnown(t *testing.T) {
	ctx := context.Background()
	s := z3.New(z3.Timeout(time.Minute))
	box := boxOf(1, 2, 3, 4, 5)
	t.Run("grw-4", func(t *testing.T) {
		c := grw(4, true)
		a, err := s.Prove(ctx, c.system(), pb.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		checkProved(t, c, a, box)
		t.Logf("invariant %s", pb.Format(a.Invariant, name))
	})
	t.Run("grw-4-unguarded", func(t *testing.T) {
		c := grw(4, false)
		a, err := s.Prove(ctx, c.system(), pb.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		checkRefuted(t, c, a, box)
		// Two processes each walk three steps into x3.
		if cex := a.Counterexample; cex.Params[c.p(0)] != 2 || len(cex.Steps) != 6 {
			t.Errorf("counterexample %+v, want n = 2 and 6 steps", cex)
		}
	})
	t.Run("threshold", func(t *testing.T) {
		c := threshold(0)
		a, err := s.Prove(ctx, c.system(), pb.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		checkRefuted(t, c, a, box)
		if cex := a.Counterexample; cex.Params[c.p(0)] != 3 || len(cex.Steps) != 4 {
			t.Errorf("counterexample %+v, want n = 3 and 4 steps", cex)
		}
	})
	t.Run("threshold-below-3", func(t *testing.T) {
		c := threshold(2)
		a, err := s.Prove(ctx, c.system(), pb.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		checkProved(t, c, a, boxOf(1, 2))
		t.Logf("invariant %s", pb.Format(a.Invariant, name))
	})
	for _, m := range []int{6, 10} {
		c := grw(m, true)
		a, err := s.Prove(ctx, c.system(), pb.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		checkProved(t, c, a, boxOf(1, 2, 3))
	}
}

// single-variable systems for the corner cases of the translation: x
// (variable 0, next 1), n (variable 2), a local l (variable 3).
var (
	ox, oxn, on, ol     = pb.Var(0), pb.Var(1), pb.Var(2), pb.Var(3)
	otx, otxn, otn, otl = pb.VarTerm(ox), pb.VarTerm(oxn), pb.VarTerm(on), pb.VarTerm(ol)
)

// counting: x counts up from 0 to n; bad is x > n.
func counting() pb.TransitionSystem {
	return pb.TransitionSystem{Vars: []pb.Var{ox}, Next: []pb.Var{oxn}, Params: []pb.Var{on},
		Domain: []pb.Bound{pb.AtLeast(ox, 0), pb.AtLeast(on, 1)},
		Init:   pb.Compare(otx, pb.Eq, pb.ConstTerm(0)),
		Trans:  []pb.Formula{pb.Conj(pb.Compare(otx, pb.Lt, otn), pb.Compare(otxn, pb.Eq, otx.Add(pb.ConstTerm(1))))},
		Bad:    pb.Compare(otx, pb.Gt, otn)}
}

func TestProveCorners(t *testing.T) {
	ctx := context.Background()
	s := z3.New(z3.Timeout(time.Minute))
	for _, tc := range []struct {
		name  string
		mod   func(ts *pb.TransitionSystem)
		want  pb.Verdict
		steps int // for Refuted
	}{
		{"counting", func(*pb.TransitionSystem) {}, pb.Proved, 0},
		{"bad-false", func(ts *pb.TransitionSystem) { ts.Bad = pb.False }, pb.Proved, 0},
		{"init-false", func(ts *pb.TransitionSystem) { ts.Init, ts.Bad = pb.False, pb.True }, pb.Proved, 0},
		{"bad-initially", func(ts *pb.TransitionSystem) { ts.Bad = pb.Compare(otx, pb.Eq, pb.ConstTerm(0)) }, pb.Refuted, 0},
		{"no-transitions", func(ts *pb.TransitionSystem) { ts.Trans = nil; ts.Bad = pb.Compare(otx, pb.Gt, pb.ConstTerm(0)) }, pb.Proved, 0},
		{"no-state", func(ts *pb.TransitionSystem) {
			ts.Vars, ts.Next, ts.Domain, ts.Trans = nil, nil, []pb.Bound{pb.AtLeast(on, 1)}, nil
			ts.Init, ts.Bad = pb.True, pb.Compare(otn, pb.Eq, pb.ConstTerm(7))
		}, pb.Refuted, 0},
		{"no-params", func(ts *pb.TransitionSystem) {
			ts.Params, ts.Domain = nil, []pb.Bound{pb.AtLeast(ox, 0)}
			ts.Trans = []pb.Formula{pb.Conj(pb.Compare(otx, pb.Lt, pb.ConstTerm(5)), pb.Compare(otxn, pb.Eq, otx.Add(pb.ConstTerm(1))))}
			ts.Bad = pb.Compare(otx, pb.Gt, pb.ConstTerm(5))
		}, pb.Proved, 0},
		{"any-int-domain", func(ts *pb.TransitionSystem) {
			ts.Domain = []pb.Bound{pb.AnyInt(ox), pb.AtLeast(on, 1)}
			ts.Trans = append(ts.Trans, pb.Compare(otxn, pb.Eq, otx.Sub(pb.ConstTerm(1))))
			ts.Bad = pb.Compare(otx, pb.Eq, pb.ConstTerm(-3))
		}, pb.Refuted, 3},
		{"local-jump", func(ts *pb.TransitionSystem) {
			ts.Trans = []pb.Formula{pb.Conj(pb.Compare(otl, pb.Ge, pb.ConstTerm(1)), pb.Compare(otxn, pb.Eq, otx.Add(otl)))}
			ts.Bad = pb.Compare(otx, pb.Eq, pb.ConstTerm(1000))
		}, pb.Refuted, 1},
		{"exists-jump", func(ts *pb.TransitionSystem) {
			ts.Trans = []pb.Formula{pb.Exists{Vars: []pb.Bound{{Var: 9, Lo: 1, Hi: 3}}, Body: pb.Compare(otxn, pb.Eq, otx.Add(pb.VarTerm(9)))}}
			ts.Bad = pb.Compare(otx, pb.Eq, pb.ConstTerm(10))
		}, pb.Refuted, 4},
		{"exists-in-bad", func(ts *pb.TransitionSystem) {
			ts.Bad = pb.Exists{Vars: []pb.Bound{{Var: 9, Lo: 1, Hi: 2}}, Body: pb.Compare(otx, pb.Eq, otn.Add(pb.VarTerm(9)))}
		}, pb.Proved, 0},
		{"negated-exists", func(ts *pb.TransitionSystem) {
			// x moves on while x - n is not in 0..3: it stops at n.
			ts.Trans = []pb.Formula{pb.Conj(pb.Compare(otxn, pb.Eq, otx.Add(pb.ConstTerm(1))),
				pb.Not{F: pb.Exists{Vars: []pb.Bound{{Var: 9, Lo: 0, Hi: 3}}, Body: pb.Compare(otx, pb.Eq, pb.VarTerm(9).Add(otn))}})}
			ts.Bad = pb.Compare(otx, pb.Eq, otn.Add(pb.ConstTerm(5)))
		}, pb.Proved, 0},
		{"parity-bounded", func(ts *pb.TransitionSystem) {
			// x' = x + 2 stays even: "x != 1" is inductive over x >= 0.
			ts.Trans = []pb.Formula{pb.Compare(otxn, pb.Eq, otx.Add(pb.ConstTerm(2)))}
			ts.Bad = pb.Compare(otx, pb.Eq, pb.ConstTerm(1))
		}, pb.Proved, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := counting()
			tc.mod(&ts)
			a, err := s.Prove(ctx, ts, pb.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if a.Verdict != tc.want {
				t.Fatalf("got %v (%s), want %v", a.Verdict, a.Reason, tc.want)
			}
			switch a.Verdict {
			case pb.Proved:
				if err := pb.CheckInvariant(ctx, z3.New(), ts, a.Invariant); err != nil {
					t.Errorf("invariant %s: %v", pb.Format(a.Invariant, name), err)
				}
				t.Logf("invariant %s", pb.Format(a.Invariant, name))
			case pb.Refuted:
				if err := pb.Replay(ctx, z3.New(), ts, *a.Counterexample); err != nil {
					t.Errorf("counterexample %+v: %v", a.Counterexample, err)
				}
				if len(a.Counterexample.Steps) != tc.steps {
					t.Errorf("counterexample %+v, want %d steps", a.Counterexample, tc.steps)
				}
			}
		})
	}
}

// parity needs "x is even" over all integers, beyond linear invariants
// without mod: Spacer diverges.
func parity() pb.TransitionSystem {
	ts := counting()
	ts.Trans = []pb.Formula{pb.Compare(otxn, pb.Eq, otx.Add(pb.ConstTerm(2)))}
	ts.Bad = pb.Compare(otx, pb.Eq, otn.Scale(2).Add(pb.ConstTerm(1)))
	return ts
}

func TestProveUndecided(t *testing.T) {
	ctx := context.Background()
	parity := parity()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	bigNeg := counting()
	bigNeg.Trans = []pb.Formula{pb.Conj(pb.Compare(otxn, pb.Eq, otx.Add(pb.ConstTerm(1))),
		pb.Not{F: pb.Exists{Vars: []pb.Bound{{Var: 9, Lo: 0, Hi: 5000}}, Body: pb.Compare(otx, pb.Eq, pb.VarTerm(9).Add(otn).Add(pb.ConstTerm(10)))}})}
	bigNeg.Bad = pb.Compare(otx, pb.Gt, otn.Add(pb.ConstTerm(5000)))
	for _, tc := range []struct {
		name      string
		s         *z3.Solver
		ctx       context.Context
		ts        pb.TransitionSystem
		budget    pb.Budget
		reasonHas string
		exhausted bool
	}{
		{"timeout", z3.New(z3.Timeout(300 * time.Millisecond)), ctx, parity, pb.Budget{}, "deadline|timeout", false},
		{"cancelled", z3.New(), cancelled, counting(), pb.Budget{}, "canceled", false},
		{"max-unroll", z3.New(z3.MaxUnroll(3)), ctx, grw(4, false).system(), pb.Budget{}, "no run of at most 3 steps", false},
		{"big-negated-exists", z3.New(), ctx, bigNeg, pb.Budget{}, "more than 1024 assignments, which the Horn translation needs", false},
		{"work", z3.New(), ctx, parity, pb.Budget{Work: 200_000}, "out of work", true},
		{"work, searching too", z3.New(), ctx, parity, pb.Budget{Work: 200_000, Attempt: 1}, "out of work", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			a, err := tc.s.Prove(tc.ctx, tc.ts, tc.budget)
			if err != nil {
				t.Fatal(err)
			}
			if a.Verdict != pb.Undecided || !regexp.MustCompile(tc.reasonHas).MatchString(a.Reason) || a.Exhausted != tc.exhausted {
				t.Errorf("got %v %q (exhausted %v), want unknown with a reason containing %q (exhausted %v)",
					a.Verdict, a.Reason, a.Exhausted, tc.reasonHas, tc.exhausted)
			}
			t.Logf("%v: %s", time.Since(start), a.Reason)
		})
	}
}

// TestProveSameWork: a question asked with the same budget gets the same
// answer every time, whatever the pooled contexts solved before and
// whatever runs beside it: the invariant of a proof, word for word, and
// the point where a budget too small runs out (the same reason).
func TestProveSameWork(t *testing.T) {
	ctx := context.Background()
	s := z3.New()
	// Each question is asked reps times, the i-th (from 0) with i
	// others beside it: -short asks twice (alone, then with one
	// beside), the full run four times.
	reps := 4
	if testing.Short() {
		reps = 2
	}
	for _, tc := range []struct {
		name   string
		ts     pb.TransitionSystem
		budget pb.Budget
		want   pb.Verdict
	}{
		{"proof", grw(8, true).system(), pb.Budget{Work: 50_000_000}, pb.Proved},
		{"proof, second attempt", grw(8, true).system(), pb.Budget{Work: 50_000_000, Attempt: 2}, pb.Proved},
		{"refutation", grw(4, false).system(), pb.Budget{Work: 50_000_000, Attempt: 1}, pb.Refuted},
		{"out of work", parity(), pb.Budget{Work: 300_000}, pb.Undecided},
		{"out of work, searching too", parity(), pb.Budget{Work: 300_000, Attempt: 1}, pb.Undecided},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first string
			for i := range reps {
				// Other questions before, and one beside, so that the
				// pool and the machine differ from run to run.
				var wg sync.WaitGroup
				for range i {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if _, err := s.Prove(ctx, threshold(0).system(), pb.Budget{}); err != nil {
							t.Error(err)
						}
					}()
				}
				a, err := s.Prove(ctx, tc.ts, tc.budget)
				wg.Wait()
				if err != nil {
					t.Fatal(err)
				}
				if a.Verdict != tc.want {
					t.Fatalf("got %v (%s), want %v", a.Verdict, a.Reason, tc.want)
				}
				got := fmt.Sprintf("%v %s %v %v", a.Verdict, a.Reason, a.Exhausted, a.Counterexample)
				if a.Invariant != nil {
					got += pb.Format(a.Invariant, name)
				}
				if i == 0 {
					first = got
					t.Log(got)
				} else if got != first {
					t.Fatalf("run %d answered\n%s\nrun 0 answered\n%s", i, got, first)
				}
			}
		})
	}
}

func TestProveMalformed(t *testing.T) {
	ts := counting()
	ts.Bad = pb.Compare(otxn, pb.Eq, pb.ConstTerm(0))
	if a, err := z3.New().Prove(context.Background(), ts, pb.Budget{}); err == nil {
		t.Errorf("got %v, want an error for Bad reading a next-state variable", a)
	}
}

// TestProveConcurrent runs Prove from several goroutines: each call has
// contexts of its own, and the answers must not mix.
func TestProveConcurrent(t *testing.T) {
	s := z3.New(z3.Timeout(time.Minute))
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := grw(3+i%3, i%2 == 0)
			a, err := s.Prove(context.Background(), c.system(), pb.Budget{})
			switch {
			case err != nil:
				errs <- err
			case i%2 == 0 && a.Verdict != pb.Proved, i%2 == 1 && a.Verdict != pb.Refuted:
				errs <- errors.New("wrong verdict " + a.Verdict.String() + " " + a.Reason)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCheckInvariantZ3 re-checks right and wrong invariants of GR&W with
// m = 4 over its open domains (counters 0.., n 1..).
func TestCheckInvariantZ3(t *testing.T) {
	ctx := context.Background()
	c := grw(4, true)
	ts := c.system()
	sum := c.tx(0).Add(c.tx(1)).Add(c.tx(2)).Add(c.tx(3))
	for _, tc := range []struct {
		name  string
		inv   pb.Formula
		fails pb.Obligation
		trans int
		ok    bool
	}{
		{"x3 < 2", pb.Compare(c.tx(3), pb.Lt, pb.ConstTerm(2)), 0, 0, true},
		{"with the sum", pb.Conj(pb.Compare(c.tx(3), pb.Le, pb.ConstTerm(1)), pb.Compare(sum, pb.Eq, c.tp(0))), 0, 0, true},
		{"x0 = n + 1", pb.Compare(c.tx(0), pb.Eq, c.tp(0).Add(pb.ConstTerm(1))), pb.Initiation, -1, false},
		{"x3 = 0", pb.Compare(c.tx(3), pb.Eq, pb.ConstTerm(0)), pb.Consecution, 2, false},
		{"x1 = 0", pb.Compare(c.tx(1), pb.Eq, pb.ConstTerm(0)), pb.Consecution, 0, false},
		{"x3 < 5", pb.Compare(c.tx(3), pb.Lt, pb.ConstTerm(5)), pb.Safety, -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := pb.CheckInvariant(ctx, z3.New(), ts, tc.inv)
			if tc.ok {
				if err != nil {
					t.Fatalf("got %v, want nil", err)
				}
				return
			}
			var ie *pb.InvariantError
			if !errors.As(err, &ie) || ie.Obligation != tc.fails || ie.Trans != tc.trans {
				t.Fatalf("got %v, want %v failing (transition %d)", err, tc.fails, tc.trans)
			}
			val := func(v pb.Var) int64 { return ie.Witness[v] }
			var violated pb.Formula
			switch tc.fails {
			case pb.Initiation:
				violated = pb.Conj(ts.Init, pb.Negation(tc.inv))
			case pb.Consecution:
				violated = pb.Conj(tc.inv, ts.Trans[tc.trans], pb.Negation(ts.Prime(tc.inv)))
			default:
				violated = pb.Conj(tc.inv, ts.Bad)
			}
			if !pb.Eval(violated, val) {
				t.Errorf("witness %v does not violate %v", ie.Witness, tc.fails)
			}
		})
	}
	// A solver out of time: UndecidedError, not InvariantError.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	err := pb.CheckInvariant(cancelled, z3.New(), ts, pb.Compare(c.tx(3), pb.Lt, pb.ConstTerm(2)))
	var ue *pb.UndecidedError
	var ie *pb.InvariantError
	if !errors.As(err, &ue) || errors.As(err, &ie) {
		t.Errorf("timeout: %v, want an UndecidedError", err)
	}
}

// TestSolveOpenRanges: the Z3 solver decides problems with open ranges;
// known answers, and random problems whose Sat models must satisfy the
// formula within the open ranges and whose Unsat answers must agree with
// brute force over a box inside the ranges.
func TestSolveOpenRanges(t *testing.T) {
	ctx := context.Background()
	s := z3.New()
	x, y := pb.Var(0), pb.Var(1)
	tx, ty := pb.VarTerm(x), pb.VarTerm(y)
	for _, tc := range []struct {
		name   string
		bounds []pb.Bound
		f      pb.Formula
		want   pb.Result
	}{
		{"far", []pb.Bound{pb.AtLeast(x, 0)}, pb.Compare(tx, pb.Gt, pb.ConstTerm(1_000_000_000_000)), pb.Sat},
		{"below", []pb.Bound{pb.AtLeast(x, 0)}, pb.Compare(tx, pb.Lt, pb.ConstTerm(0)), pb.Unsat},
		{"parity", []pb.Bound{pb.AnyInt(x), pb.AnyInt(y)}, pb.Compare(tx.Scale(2), pb.Eq, ty.Scale(2).Add(pb.ConstTerm(1))), pb.Unsat},
		{"negative", []pb.Bound{{Var: x, Hi: -5, NoLo: true}}, pb.Compare(tx, pb.Lt, pb.ConstTerm(-1_000_000)), pb.Sat},
		{"intersected", []pb.Bound{pb.AtLeast(x, 0), {Var: x, Lo: -3, Hi: 2}}, pb.Compare(tx, pb.Gt, pb.ConstTerm(2)), pb.Unsat},
	} {
		a, err := s.Solve(ctx, pb.Problem{Bounds: tc.bounds, F: tc.f})
		if err != nil || a.Result != tc.want {
			t.Errorf("%s: got %v %v, want %v", tc.name, a, err, tc.want)
		}
	}
	g := &gen{r: rand.New(rand.NewSource(21)), mild: true}
	count := map[pb.Result]int{}
	for i := 0; i < 300; i++ {
		p := g.problem()
		box := append([]pb.Bound(nil), p.Bounds...)
		for j := range p.Bounds {
			switch g.r.Intn(3) {
			case 0:
				p.Bounds[j] = pb.AtLeast(p.Bounds[j].Var, p.Bounds[j].Lo)
			case 1:
				p.Bounds[j] = pb.Bound{Var: p.Bounds[j].Var, Hi: p.Bounds[j].Hi, NoLo: true}
			}
		}
		a, err := s.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		count[a.Result]++
		switch a.Result {
		case pb.Sat:
			if err := modelOK(p, a.Model); err != nil {
				t.Fatalf("%s: %v", pb.Format(p.F, name), err)
			}
		case pb.Unsat:
			// The box lies inside the open ranges: it has no model either.
			b, err := pb.BruteForce{}.Solve(ctx, pb.Problem{Bounds: box, F: p.F})
			if err != nil || b.Result != pb.Unsat {
				t.Fatalf("%s: z3 unsat over open ranges, brute force %v %v in the box", pb.Format(p.F, name), b, err)
			}
		default:
			t.Fatalf("%s: unknown (%s)", pb.Format(p.F, name), a.Reason)
		}
	}
	if count[pb.Sat] < 30 || count[pb.Unsat] < 30 {
		t.Errorf("unbalanced sample %v", count)
	}
}

func TestProjectOpenRanges(t *testing.T) {
	x, y := pb.Var(0), pb.Var(1)
	// Eliminating y in 0.. from x = y + 3, x any integer: x >= 3.
	p := pb.Problem{Bounds: []pb.Bound{pb.AnyInt(x), pb.AtLeast(y, 0)},
		F: pb.Compare(pb.VarTerm(x), pb.Eq, pb.VarTerm(y).Add(pb.ConstTerm(3)))}
	f, r, err := z3.New().Project(context.Background(), p, []pb.Var{x})
	if err != nil || r != pb.Sat {
		t.Fatalf("got %v %v", r, err)
	}
	for v := int64(-10); v <= 10; v++ {
		if got := pb.Eval(f, func(pb.Var) int64 { return v }); got != (v >= 3) {
			t.Errorf("projection %s at x = %d is %v", pb.Format(f, name), v, got)
		}
	}
}

// TestLeastRun: among the shortest runs Prove answers the one with the
// least transition at each step, every time, whatever the pooled solver
// contexts solved before. The diamond x0 -> x1 -> x3, x0 -> x2 -> x3 has
// two shortest runs to x3 >= 1; listing its rules in both orders makes
// the least one differ, so a run picked by the solver's model alone
// cannot satisfy both.
func TestLeastRun(t *testing.T) {
	ctx := context.Background()
	s := z3.New(z3.Timeout(time.Minute))
	diamond := func(rules []move) *counters {
		c := &counters{m: 4, np: 1}
		c.pdom = []pb.Bound{pb.AtLeast(c.p(0), 1)}
		c.init = pb.Conj(pb.Compare(c.tx(0), pb.Eq, c.tp(0)), pb.Compare(c.tx(1), pb.Eq, pb.ConstTerm(0)),
			pb.Compare(c.tx(2), pb.Eq, pb.ConstTerm(0)), pb.Compare(c.tx(3), pb.Eq, pb.ConstTerm(0)))
		c.rules = rules
		c.bad = pb.Compare(c.tx(3), pb.Ge, pb.ConstTerm(1))
		return c
	}
	via1 := []move{{from: 0, to: 1, guard: pb.True}, {from: 1, to: 3, guard: pb.True}}
	via2 := []move{{from: 0, to: 2, guard: pb.True}, {from: 2, to: 3, guard: pb.True}}
	for _, tc := range []struct {
		name  string
		rules []move
		want  []int
	}{
		{"via x1 first", append(append([]move{}, via1...), via2...), []int{0, 1}},
		{"via x2 first", append(append([]move{}, via2...), via1...), []int{0, 1}},
		{"interleaved", []move{via2[0], via1[0], via2[1], via1[1]}, []int{0, 2}},
		{"interleaved, reversed", []move{via1[1], via2[1], via1[0], via2[0]}, []int{2, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Five times (twice with -short: the second after this
			// question and another, so the pool has changed).
			reps := 5
			if testing.Short() {
				reps = 2
			}
			for range reps {
				// Another question first, so that the pooled contexts
				// carry different histories.
				if _, err := s.Prove(ctx, threshold(0).system(), pb.Budget{}); err != nil {
					t.Fatal(err)
				}
				a, err := s.Prove(ctx, diamond(tc.rules).system(), pb.Budget{})
				if err != nil {
					t.Fatal(err)
				}
				if a.Verdict != pb.Refuted || a.Counterexample == nil {
					t.Fatalf("got %v (%s), want refuted", a.Verdict, a.Reason)
				}
				if got := a.Counterexample.Steps; !slices.Equal(got, tc.want) {
					t.Fatalf("steps %v, want %v", got, tc.want)
				}
			}
		})
	}
}
