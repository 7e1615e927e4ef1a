package symbolic

import (
	"context"
	"math/big"
	"math/rand"
	"testing"

	"github.com/dalzilio/rudd"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

func binom(n, k int) *big.Int { return new(big.Int).Binomial(int64(n), int64(k)) }

// TestGRWKnownAnswer: the reachable counter vectors of GR&W are exactly
// those with x_m <= 1, C(N+m-2, m-2) + C(N+m-3, m-2) of them, and the
// mutual exclusion invariant holds; under every order and strategy, with
// and without reachable states first.
func TestGRWKnownAnswer(t *testing.T) {
	sizes := []struct{ m, n int }{{3, 1}, {4, 5}, {10, 20}, {6, 100}}
	if testing.Short() {
		// Every order and strategy, up to 100 processes: 10 local
		// states and 10 processes cost a fifth of the CPU of 20.
		sizes = []struct{ m, n int }{{3, 1}, {4, 5}, {10, 10}}
	}
	for _, tc := range sizes {
		for _, o := range []Order{Interleaved, Blocked, Split} {
			for _, s := range []Strategy{Chain, Saturate, BFS} {
				for _, reach := range []bool{true, false} {
					if s == BFS && reach && tc.n*tc.m > 60 || o != Interleaved && tc.n*tc.m > 60 {
						continue // breadth-first reachability is the slow baseline
					}
					mod := grw(tc.m, tc.n)
					rep, _, err := exploreModel(context.Background(), mod, WithOrder(o), WithStrategy(s), WithReachable(reach))
					if err != nil {
						t.Fatalf("m=%d n=%d %v %v: %v", tc.m, tc.n, o, s, err)
					}
					if reach {
						want := new(big.Int).Add(binom(tc.n+tc.m-2, tc.m-2), binom(tc.n+tc.m-3, tc.m-2))
						if rep.ReachableStates.Cmp(want) != 0 {
							t.Errorf("m=%d n=%d %v %v: reachable %v, want %v", tc.m, tc.n, o, s, rep.ReachableStates, want)
						}
						if rep.Deadlocks.Sign() != 0 {
							t.Errorf("m=%d n=%d: %v deadlocks, want 0", tc.m, tc.n, rep.Deadlocks)
						}
					}
					if !rep.Properties[0].Holds || rep.Properties[0].Trace != nil {
						t.Errorf("m=%d n=%d %v %v reach=%v: mutex %+v, want holds without trace", tc.m, tc.n, o, s, reach, rep.Properties[0])
					}
				}
			}
		}
	}
}

// TestGRWBrokenHasShortestCounterexample drops the xm = 0 conjunct: the
// invariant then fails, and the counterexample is a shortest path (m
// steps: two processes walk to Lm).
func TestGRWBrokenHasShortestCounterexample(t *testing.T) {
	mod := grw(5, 4)
	mod.Transitions[3].Guard = presburger.Compare(v(3), presburger.Ge, k(1))
	for _, reach := range []bool{true, false} {
		rep, _, err := exploreModel(context.Background(), mod, WithReachable(reach))
		if err != nil {
			t.Fatal(err)
		}
		p := rep.Properties[0]
		if p.Holds || p.Trace == nil || p.Trace.Kind != explore.Counterexample {
			t.Fatalf("reach=%v: %+v, want a counterexample", reach, p)
		}
		if got := len(p.Trace.States); got != 2*4+1 {
			t.Errorf("reach=%v: counterexample has %d states, want %d", reach, got, 9)
		}
		checkTrace(t, mod, modelGraph(mod), mod.System.Properties[0].Formula, mod.Properties[0].Formula, p)
	}
}

// TestRandomAgainstNaive cross-checks reachable and deadlock counts and
// the verdicts of random CTL formulas over every operator on random small
// models with random guards (testsupport.RandomCounterModel), against the
// oracle's explicit graph of the model, and checks that every trace is a
// path of the model explaining its verdict.
func TestRandomAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewSource(20240501))
	models := 310
	if testing.Short() {
		models = 60
	}
	// What the sample exercised, so an all-trivial sample fails.
	var holds, fails, traces, lassos, deadModels int
	for i := 0; i < models; i++ {
		mod := randomModel(r, 6)
		opts := [][]Option{
			{WithReachable(true)},
			{WithReachable(false)},
			{WithOrder(Blocked), WithStrategy(BFS)},
			{WithOrder(Split), WithStrategy(Saturate), WithReachable(false)},
		}
		o := opts[i%len(opts)]
		reachFirst := i%len(opts) != 1 && i%len(opts) != 3
		rep, _, err := exploreModel(context.Background(), mod, o...)
		if err != nil {
			t.Fatalf("model %d: %v", i, err)
		}
		g := modelGraph(mod)
		if g.Deadlocks() > 0 {
			deadModels++
		}
		if reachFirst {
			if rep.ReachableStates.Int64() != int64(g.Len()) || rep.Deadlocks.Int64() != int64(g.Deadlocks()) {
				t.Fatalf("model %d: reachable %v deadlocks %v, oracle %d %d", i, rep.ReachableStates, rep.Deadlocks, g.Len(), g.Deadlocks())
			}
			for _, d := range rep.DeadlockExamples {
				if idx, ok := g.Index[testsupport.TotalKey(d.Counters)]; !ok || !g.Dead[idx] {
					t.Fatalf("model %d: deadlock example %v is not a reachable deadlock", i, d.Counters)
				}
			}
		}
		for j, p := range mod.System.Properties {
			got := rep.Properties[j]
			if want := testsupport.Holds(g, p.Formula); got.Holds != want {
				t.Fatalf("model %d property %s: bdd %v, oracle %v\n%s", i, p.Text, got.Holds, want, testsupport.Describe(mod.System))
			}
			if got.Holds {
				holds++
			} else {
				fails++
			}
			if got.Trace != nil {
				traces++
				if got.Trace.Loop >= 0 {
					lassos++
				}
			}
			checkTrace(t, mod, g, p.Formula, mod.Properties[j].Formula, got)
		}
	}
	t.Logf("%d models (%d with deadlocks): %d verdicts hold, %d fail; %d traces, %d lassos", models, deadModels, holds, fails, traces, lassos)
	if holds < models || fails < models || traces < models || lassos < models/10 || deadModels == 0 {
		t.Errorf("the random sample exercises too little")
	}
}

// TestTransferClosure: saturation with transition closures computes the
// same reachable set and the same backward EF sets as breadth-first
// search, which never uses them, on random models where half the guards
// read only counters other than the two they move (so have a closure).
func TestTransferClosure(t *testing.T) {
	r := rand.New(rand.NewSource(4242))
	closures, relations := 0, 0
	for i := 0; i < 150; i++ {
		mod := randomModel(r, 0)
		m := len(mod.Init)
		for j := range mod.Transitions {
			tr := &mod.Transitions[j]
			if m < 3 || r.Intn(2) == 0 {
				continue
			}
			other := r.Intn(m)
			for other == tr.From || other == tr.To {
				other = r.Intn(m)
			}
			tr.Guard = presburger.Conj(presburger.Compare(v(tr.From), presburger.Ge, k(1)),
				presburger.Compare(v(other), presburger.Op(r.Intn(6)), k(int64(r.Intn(mod.N+1)))))
		}
		mod = reassemble(mod)
		e, err := New(mod, explore.NewConfig(), WithReachable(false))
		if err != nil {
			t.Fatal(err)
		}
		for _, rel := range e.rels {
			relations++
			if rel.closure != nil {
				closures++
			}
		}
		ctx := context.Background()
		f := ctl.Atom{P: testsupport.RandomFormula(r, m, mod.N, 1, false)}
		target, err := e.Sat(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			base    rudd.Node
			forward bool
		}{{e.init, true}, {target, false}} {
			e.cfg.strategy = Saturate
			withClosure, _, err := e.lfp(ctx, c.base, e.space, c.forward)
			if err != nil {
				t.Fatal(err)
			}
			e.cfg.strategy = BFS
			plain, _, err := e.lfp(ctx, c.base, e.space, c.forward)
			if err != nil {
				t.Fatal(err)
			}
			if !e.b.Equal(withClosure, plain) {
				t.Fatalf("model %d: forward=%v fixpoint with closures (%v states) differs from BFS (%v states)",
					i, c.forward, e.Count(withClosure), e.Count(plain))
			}
		}
	}
	t.Logf("%d of %d relations had a closure", closures, relations)
	if closures < relations/4 {
		t.Errorf("only %d of %d relations had a closure: the sample does not exercise them", closures, relations)
	}
}
