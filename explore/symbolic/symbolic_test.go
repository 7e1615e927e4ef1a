package symbolic

import (
	"context"
	"github.com/dalzilio/rudd"
	"math/big"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

func binom(n, k int) *big.Int { return new(big.Int).Binomial(int64(n), int64(k)) }

// TestGRWKnownAnswer: the reachable counter vectors of GR&W are exactly
// those with x_m <= 1, C(N+m-2, m-2) + C(N+m-3, m-2) of them, and the
// mutual exclusion invariant holds; under every order and strategy, with
// and without reachable states first.
func TestGRWKnownAnswer(t *testing.T) {
	for _, tc := range []struct{ m, n int }{{3, 1}, {4, 5}, {10, 20}, {6, 100}} {
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
		checkPath(t, mod, p.Trace)
	}
}

func checkPath(t *testing.T, m *counterabs.Model, tr *explore.Trace) {
	t.Helper()
	if len(tr.States) == 0 || key(vec(m, tr.States[0])) != key(m.Init) {
		t.Fatalf("trace does not start in the initial state: %+v", tr)
	}
	isSucc := func(x, y []int) bool {
		for _, s := range referenceSuccessors(m, x) {
			if key(s) == key(y) {
				return true
			}
		}
		return false
	}
	for i := 0; i+1 < len(tr.States); i++ {
		if !isSucc(vec(m, tr.States[i]), vec(m, tr.States[i+1])) {
			t.Fatalf("trace step %d: %v -> %v is not a transition", i, tr.States[i], tr.States[i+1])
		}
	}
	if tr.Loop >= 0 {
		if tr.Loop >= len(tr.States) {
			t.Fatalf("loop index %d out of range", tr.Loop)
		}
		if !isSucc(vec(m, tr.States[len(tr.States)-1]), vec(m, tr.States[tr.Loop])) {
			t.Fatalf("lasso does not close: %v -> %v", tr.States[len(tr.States)-1], tr.States[tr.Loop])
		}
	}
}

// vec returns the model state (a value per counter) of a trace state.
func vec(m *counterabs.Model, st explore.State) []int {
	if m.Level == counterabs.TotalLevel {
		return st.Counters
	}
	x := make([]int, len(m.Counters))
	for i, c := range m.Counters {
		x[i] = st.Groups[c.Group][c.State]
	}
	return x
}

// referenceSuccessors is written independently of successors.
func referenceSuccessors(m *counterabs.Model, x []int) [][]int {
	var out [][]int
	for _, t := range m.Transitions {
		if x[t.From] == 0 || !presburger.Eval(t.Guard, func(v presburger.Var) int64 { return int64(x[v]) }) {
			continue
		}
		y := append([]int(nil), x...)
		y[t.From]--
		y[t.To]++
		out = append(out, y)
	}
	if out == nil {
		out = [][]int{x}
	}
	return out
}

// TestRandomAgainstNaive cross-checks reachable and deadlock counts and
// the verdicts of random CTL formulas over every operator on random small
// models with random guards, against the naive explicit checker, and
// checks that every trace is a path of the model explaining its verdict.
func TestRandomAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewSource(20240501))
	models := 300
	if testing.Short() {
		models = 60
	}
	// What the sample exercised, so an all-trivial sample fails.
	var holds, fails, traces, lassos, deadModels int
	for i := 0; i < models; i++ {
		mod := randomModel(r)
		var props []gsst.Property
		for j := 0; j < 6; j++ {
			props = append(props, gsst.Property{Name: "p", Formula: randomCTL(r, len(mod.Init), mod.N, 3)})
		}
		mod.System.Properties = props
		mod = reassemble(mod)
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
		nv := newNaive(mod, reachFirst)
		if reachFirst {
			reach, dead := nv.counts()
			if dead > 0 {
				deadModels++
			}
			if rep.ReachableStates.Int64() != int64(reach) || rep.Deadlocks.Int64() != int64(dead) {
				t.Fatalf("model %d: reachable %v deadlocks %v, naive %d %d", i, rep.ReachableStates, rep.Deadlocks, reach, dead)
			}
			for _, d := range rep.DeadlockExamples {
				idx, ok := nv.index[key(d.Counters)]
				if !ok || !nv.dead[idx] || !nv.reach[idx] {
					t.Fatalf("model %d: deadlock example %v is not a reachable deadlock", i, d.Counters)
				}
			}
		}
		dist := nv.dist()
		for j, p := range props {
			got := rep.Properties[j]
			if want := nv.holds(p.Formula); got.Holds != want {
				t.Fatalf("model %d (%+v) property %s: bdd %v, naive %v", i, mod, ctl.Format(p.Formula, vname), got.Holds, want)
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
				checkPath(t, mod, got.Trace)
				checkExplains(t, nv, mod.Properties[j].Formula, got.Trace, dist)
			} else if wantsTrace(p.Formula, got.Holds) {
				t.Fatalf("model %d property %s: no trace", i, ctl.Format(p.Formula, vname))
			}
		}
	}
	t.Logf("%d models (%d with deadlocks): %d verdicts hold, %d fail; %d traces, %d lassos", models, deadModels, holds, fails, traces, lassos)
	if holds < models || fails < models || traces < models || lassos < models/10 || deadModels == 0 {
		t.Errorf("the random sample exercises too little")
	}
}

func wantsTrace(f ctl.Formula, holds bool) bool {
	switch f := f.(type) {
	case ctl.Not:
		return wantsTrace(f.X, !holds)
	case ctl.Unary:
		ex := f.Op == ctl.EX || f.Op == ctl.EF || f.Op == ctl.EG
		return ex == holds
	case ctl.Until:
		return f.All != holds
	}
	return false
}

// subformulas maps the text of every subformula of f to it, with L | R
// for each A[L U R] (a failing one names it).
func subformulas(f ctl.Formula, name func(presburger.Var) string) map[string]ctl.Formula {
	out := map[string]ctl.Formula{}
	var walk func(f ctl.Formula)
	walk = func(f ctl.Formula) {
		out[ctl.Format(f, name)] = f
		switch f := f.(type) {
		case ctl.Not:
			walk(f.X)
		case ctl.Binary:
			walk(f.L)
			walk(f.R)
		case ctl.Unary:
			walk(f.X)
		case ctl.Until:
			walk(f.L)
			walk(f.R)
			walk(ctl.Binary{Op: ctl.Or, L: f.L, R: f.R})
		}
	}
	walk(f)
	return out
}

// checkExplains checks that a trace's segments show what they claim: each
// segment's formula has its truth value where it starts and its target
// where it ends (every state of a lasso); a path from the initial state
// is shortest; the segments connect and cover the trace. Branches too.
func checkExplains(t *testing.T, nv *naive, f ctl.Formula, tr *explore.Trace, dist []int) {
	t.Helper()
	subs := subformulas(f, nv.m.VarName)
	at := func(i int) int { return nv.index[key(vec(nv.m, tr.States[i]))] }
	sat := func(text string, holds bool) set {
		g, ok := subs[text]
		if !ok {
			t.Fatalf("segment names %q, not a subformula of %s", text, ctl.Format(f, vname))
		}
		x := nv.sat(g)
		if !holds {
			x = nv.not(x)
		}
		return x
	}
	segs := tr.Segments
	if len(segs) == 0 || segs[0].Start != 0 || segs[len(segs)-1].End != len(tr.States)-1 {
		t.Fatalf("segments %+v do not cover %d states", segs, len(tr.States))
	}
	for k, sg := range segs {
		if k > 0 && sg.Start != segs[k-1].End {
			t.Fatalf("segment %d does not connect: %+v", k, segs)
		}
		if !sat(sg.Formula, sg.Holds)[at(sg.Start)] {
			t.Fatalf("segment %d: %s is not %v where it starts", k, sg.Formula, sg.Holds)
		}
		want := sat(sg.Target, sg.TargetHolds)
		switch sg.Kind {
		case explore.StepSegment, explore.PathSegment:
			if !want[at(sg.End)] || sg.Kind == explore.StepSegment && sg.End != sg.Start+1 {
				t.Fatalf("segment %d (%s) does not end where %s is %v", k, sg.Kind, sg.Target, sg.TargetHolds)
			}
			if sg.Kind != explore.PathSegment || sg.Start != 0 {
				break
			}
			if _, until := subs[sg.Formula].(ctl.Until); until {
				break
			}
			best := -1
			for i, ok := range want {
				if ok && dist[i] >= 0 && (best < 0 || dist[i] < best) {
					best = dist[i]
				}
			}
			if best != sg.End {
				t.Fatalf("segment %d: path of length %d, shortest is %d", k, sg.End, best)
			}
		case explore.LassoSegment:
			if tr.Loop < sg.Start || sg.End != len(tr.States)-1 {
				t.Fatalf("segment %d is a lasso that does not end the trace", k)
			}
			for i := sg.Start; i < len(tr.States); i++ {
				if !want[at(i)] {
					t.Fatalf("segment %d: %s is not %v all along the lasso", k, sg.Target, sg.TargetHolds)
				}
			}
		default:
			t.Fatalf("segment %d: unexpected kind %q without fairness", k, sg.Kind)
		}
	}
	for _, b := range tr.Branches {
		checkPath(t, nv.m, b)
		checkExplains(t, nv, f, b, dist)
	}
}

func vname(v presburger.Var) string { return "x" + big.NewInt(int64(v)).String() }

// TestTransferClosure: saturation with transition closures computes the
// same reachable set and the same backward EF sets as breadth-first
// search, which never uses them, on random models where half the guards
// read only counters other than the two they move (so have a closure).
func TestTransferClosure(t *testing.T) {
	r := rand.New(rand.NewSource(4242))
	closures, relations := 0, 0
	for i := 0; i < 150; i++ {
		mod := randomModel(r)
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
		e, err := New(mod, WithReachable(false))
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
		f := ctl.Atom{P: randomGuard(r, m, mod.N, 1, false)}
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
