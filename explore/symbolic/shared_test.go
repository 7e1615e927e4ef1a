package symbolic

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// Models beyond the paper (issues 20 and 21): shared variables of every
// kind, steps that move several processes (Transition.Also), broadcasts
// (Transfers) and assignments, checked against the oracle's graph of the
// model built with Model.Step alone.

// sharedStats counts what the cross-check covered.
type sharedStats struct {
	models, also, transfers, assigns, unbounded, grown, forced, holds, fails, traces, deadlocked int
}

// randomSharedModel draws a random total-counter model of a random counter
// system (testsupport.RandomCounterModel) and extends it: one to three
// shared variables (a boolean, an enumeration of three values, an
// integer range not starting at 0, an unbounded integer), and on each
// transition, at random, a guard conjunct over them, a second mover, one
// or two transfers, and assignments (constants, other variables,
// increments, values read from counters). Every guard implies what the
// contract asks: the movers exist and each assigned value is in its
// domain; an unbounded variable's assignment is capped by a guard over
// counters, so the reachable states stay finite while its first
// encoding bound may be too small.
func randomSharedModel(r *rand.Rand, properties int, st *sharedStats) *counterabs.Model {
	sys, moves := testsupport.RandomCounterModel(r, 0)
	trans := make([]counterabs.Transition, len(moves))
	for i, mv := range moves {
		trans[i] = counterabs.Transition{From: mv.From, To: mv.To, Guard: mv.Guard, Local: i, Group: -1}
	}
	m := reassemble(&counterabs.Model{System: sys, Transitions: trans, Exact: true})
	nc, n := len(m.Counters), m.N
	ns := 1 + r.Intn(3)
	for j := range ns {
		var sh gsst.Shared
		switch r.Intn(4) {
		case 0:
			sh = gsst.Shared{Bool: true, Lo: 0, Hi: 1}
		case 1:
			sh = gsst.Shared{Values: []string{"a", "b", "c"}, Lo: 0, Hi: 2}
		case 2:
			lo := 1 + r.Intn(2)
			sh = gsst.Shared{Lo: lo, Hi: lo + 1 + r.Intn(4)}
		default:
			sh = gsst.Shared{Lo: 0, Unbounded: true}
			st.unbounded++
		}
		sh.Name = fmt.Sprintf("s%d", j)
		top := sh.Hi
		if sh.Unbounded {
			top = 2
		}
		sh.Init = sh.Lo + r.Intn(top-sh.Lo+1)
		m.Shared = append(m.Shared, sh)
		m.Init = append(m.Init, sh.Init)
	}
	nv := nc + ns
	va := func(i int) presburger.Term { return presburger.VarTerm(presburger.Var(i)) }
	kk := func(c int) presburger.Term { return presburger.ConstTerm(int64(c)) }
	randShared := func() int { return r.Intn(ns) }
	for i := range m.Transitions {
		t := &m.Transitions[i]
		g := []presburger.Formula{t.Guard}
		if r.Intn(2) == 0 {
			j := randShared()
			sh := &m.Shared[j]
			c := sh.Lo + r.Intn(3)
			g = append(g, presburger.Compare(va(nc+j), []presburger.Op{presburger.Eq, presburger.Ne, presburger.Le, presburger.Ge}[r.Intn(4)], kk(c)))
		}
		need := map[int]int{t.From: 1}
		if r.Intn(3) == 0 {
			from := r.Intn(nc)
			to := (from + 1 + r.Intn(nc-1)) % nc
			t.Also = []counterabs.Move{{From: from, To: to}}
			need[from]++
			st.also++
		}
		if r.Intn(4) == 0 {
			srcs := r.Perm(nc)[:1+r.Intn(min(2, nc))]
			for _, s := range srcs {
				to := (s + 1 + r.Intn(nc-1)) % nc
				t.Transfers = append(t.Transfers, counterabs.Move{From: s, To: to})
			}
			st.transfers++
		}
		if r.Intn(2) == 0 {
			for _, j := range r.Perm(ns)[:1+r.Intn(ns)] {
				sh := &m.Shared[j]
				x := nc + j
				var val presburger.Term
				switch {
				case sh.Unbounded:
					switch r.Intn(3) {
					case 0:
						val = va(x).Add(kk(1 + r.Intn(2)))
					case 1:
						val = va(x).Add(va(r.Intn(nc)))
					default:
						val = va(x).Scale(2).Add(kk(1))
					}
					// The cap: value <= K + a*x_c, or a*x_c + b*x_d
					// (no constant, so that the first bound, which
					// covers the constants of guards, may be too small).
					cap := kk(2 + r.Intn(9)).Add(va(r.Intn(nc)).Scale(int64(r.Intn(4))))
					if r.Intn(2) == 0 {
						cap = va(r.Intn(nc)).Scale(int64(2 + r.Intn(5))).Add(va(r.Intn(nc)).Scale(int64(2 + r.Intn(5))))
					}
					g = append(g, presburger.Compare(val, presburger.Le, cap))
				default:
					switch r.Intn(4) {
					case 0:
						val = kk(sh.Lo + r.Intn(sh.Hi-sh.Lo+1))
					case 1:
						// Another variable (any: out-of-domain values
						// disable the step).
						val = va(nc + randShared())
					case 2:
						val = va(x).Add(kk(r.Intn(5) - 2))
					default:
						val = va(x).Add(va(r.Intn(nc))).Add(kk(-1))
					}
				}
				t.Assign = append(t.Assign, counterabs.Assign{Var: x, Value: val})
				g = append(g, inDomain(sh, val))
			}
			st.assigns++
		}
		for c, k := range need {
			g = append(g, presburger.Compare(va(c), presburger.Ge, kk(k)))
		}
		t.Guard = presburger.Conj(g...)
	}
	for i := range properties {
		leaf := func() ctl.Formula { return ctl.Atom{P: testsupport.RandomFormula(r, nv, n, 1, false)} }
		f := randomTemporal(r, 3, leaf)
		m.Properties = append(m.Properties, counterabs.Property{Name: fmt.Sprintf("p%d", i), Text: ctl.Format(f, m.VarName), Formula: f})
	}
	if r.Intn(6) == 0 {
		// A forced model's stutter condition, over counters and shared
		// variables.
		m.MayDeadlock = testsupport.RandomFormula(r, nv, n, 1, false)
		m.Exact = false
		st.forced++
	}
	st.models++
	return m
}

// randomTemporal draws a CTL formula of the given depth over leaf.
func randomTemporal(r *rand.Rand, depth int, leaf func() ctl.Formula) ctl.Formula {
	if depth == 0 || r.Intn(4) == 0 {
		return leaf()
	}
	switch k := r.Intn(10); {
	case k < 6:
		return ctl.Unary{Op: ctl.TempOp(k), X: randomTemporal(r, depth-1, leaf)}
	case k < 8:
		return ctl.Until{All: k == 7, L: randomTemporal(r, depth-1, leaf), R: randomTemporal(r, depth-1, leaf)}
	case k == 8:
		return ctl.Not{X: randomTemporal(r, depth-1, leaf)}
	}
	return ctl.Binary{Op: ctl.BinOp(r.Intn(3)), L: randomTemporal(r, depth-1, leaf), R: randomTemporal(r, depth-1, leaf)}
}

// stepGraph is the oracle's graph of m: its steps are Model.Step of
// every transition whose guard holds (presburger.Eval), nothing of the
// engine's encoding.
func stepGraph(m *counterabs.Model) *testsupport.Graph {
	return testsupport.StepGraph(m.Init, func(x []int) [][]int {
		var out [][]int
		val := func(v presburger.Var) int64 { return int64(x[v]) }
		for k := range m.Transitions {
			t := &m.Transitions[k]
			if presburger.Eval(t.Guard, val) {
				out = append(out, mustStep(m, t, x))
			}
		}
		return out
	}, m.MayDeadlock)
}

// fairOracle is testsupport's fair-CTL oracle on the graph of m, built
// like stepGraph with the steps labelled by their transitions.
func fairOracle(m *counterabs.Model) *testsupport.FairGraph {
	cons := make([]testsupport.ModelConstraint, len(m.Justice))
	for j, c := range m.Justice {
		cons[j] = testsupport.ModelConstraint{Weak: c.Weak, State: c.State, Transitions: c.Transitions}
	}
	return testsupport.NewModelOracle(m.Init, func(x []int) []testsupport.ModelStep {
		var out []testsupport.ModelStep
		val := func(v presburger.Var) int64 { return int64(x[v]) }
		for k := range m.Transitions {
			t := &m.Transitions[k]
			if presburger.Eval(t.Guard, val) {
				out = append(out, testsupport.ModelStep{Trans: k, Next: mustStep(m, t, x)})
			}
		}
		return out
	}, m.MayDeadlock, cons)
}

// fullVec returns the model state (a value per model variable) of a
// trace state.
func fullVec(m *counterabs.Model, st explore.State) []int {
	return append(vec(m, st), st.Shared...)
}

// checkShared checks the BDD engine (with opts) on m against the
// oracle's graph g: counts, deadlocks and the paths to them, verdicts,
// and every trace explained on g.
func checkShared(t *testing.T, eng BDD, m *counterabs.Model, g *testsupport.Graph, reach bool, st *sharedStats) {
	t.Helper()
	opts := []explore.Option{}
	if !reach {
		opts = append(opts, explore.CountStates(false), explore.CheckDeadlocks(true))
	}
	rep, err := eng.Check(context.Background(), m, opts...)
	if err != nil {
		t.Fatalf("bdd: %v", err)
	}
	if reach {
		if rep.ReachableStates == nil || rep.ReachableStates.Int64() != int64(g.Len()) {
			t.Fatalf("reachable states %v, oracle %d", rep.ReachableStates, g.Len())
		}
		if rep.Deadlocks.Int64() != int64(g.Deadlocks()) {
			t.Fatalf("deadlocks %v, oracle %d", rep.Deadlocks, g.Deadlocks())
		}
	}
	key := func(s explore.State) string { return testsupport.TotalKey(fullVec(m, s)) }
	dist := g.Distances(nil)
	nearest := -1
	for i := range g.Keys {
		if g.Dead[i] && dist[i] >= 0 && (nearest < 0 || dist[i] < nearest) {
			nearest = dist[i]
		}
	}
	if rep.DeadlockFree == nil || *rep.DeadlockFree != (nearest < 0) {
		t.Fatalf("deadlock free %v, oracle's nearest deadlock at %d", rep.DeadlockFree, nearest)
	}
	if nearest >= 0 {
		st.deadlocked++
		if len(rep.DeadlockTraces) == 0 {
			t.Fatalf("no deadlock trace")
		}
	}
	for _, tr := range rep.DeadlockTraces {
		if len(tr.States) != nearest+1 {
			t.Fatalf("deadlock trace of %d states, oracle's nearest deadlock at distance %d", len(tr.States), nearest)
		}
		prev := -1
		for k, s := range tr.States {
			i, ok := g.Index[key(s)]
			switch {
			case !ok:
				t.Fatalf("deadlock trace state %d %v is not reachable", k, key(s))
			case k == 0 && i != g.Init:
				t.Fatalf("deadlock trace starts at %v", key(s))
			case k > 0 && !g.Edge(prev, i):
				t.Fatalf("deadlock trace step %d is no step of the model", k)
			}
			prev = i
		}
		if !g.Dead[prev] {
			t.Fatalf("deadlock trace ends in a live state")
		}
	}
	for i, p := range rep.Properties {
		f := m.Properties[i].Formula
		if want := testsupport.Holds(g, f); p.Holds != want {
			t.Fatalf("%s = %s: bdd %v, oracle %v", p.Name, p.Text, p.Holds, want)
		}
		if p.Holds {
			st.holds++
		} else {
			st.fails++
		}
		if p.Trace != nil {
			st.traces++
		}
		if err := testsupport.CheckEngineTrace(g, f, p.Holds, enginetest.Trace(p.Trace, key), testsupport.Subformulas(f, f, m.FormatProperty), testsupport.FromInit); err != nil {
			t.Fatalf("%s = %s (holds %v): %v", p.Name, p.Text, p.Holds, err)
		}
	}
}

// TestSharedAgainstOracle cross-checks the BDD engine, over the
// reachable states first and backwards, on random models with shared
// variables, rendezvous-like moves, broadcasts and assignments, against
// the oracle's graph built from Model.Step.
func TestSharedAgainstOracle(t *testing.T) {
	r := rand.New(rand.NewSource(2021))
	models := 300
	if testing.Short() {
		models = 80
	}
	var st sharedStats
	for k := 0; k < models; k++ {
		m := randomSharedModel(r, 4, &st)
		g := stepGraph(m)
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Log(describeModel(m))
				}
			}()
			// Every order and strategy in rotation, with and without
			// the sum slice as the space.
			eng := BDD{Order: []Order{Auto, Interleaved, Blocked, Split}[k%4], Strategy: []Strategy{Saturate, Chain, BFS}[k%3],
				Options: []Option{WithSumSpace(k%5 == 0), WithAffinity(k%7 != 0)}}
			checkShared(t, eng, m, g, true, &st)
			checkShared(t, eng, m, g, false, &st)
			if e, err := New(m, explore.NewConfig()); err != nil {
				t.Fatal(err)
			} else {
				first, unbounded := encodingLimits(m)
				for i, b := range e.Stats().Bounds {
					j := unbounded[i]
					if b.Max > int64(m.Shared[j].Lo+first[m.SharedVar(j)]) {
						st.grown++
					}
				}
			}
		})
	}
	t.Logf("%+v", st)
	if st.also < models/10 || st.transfers < models/10 || st.assigns < models/4 || st.unbounded < models/10 ||
		st.grown == 0 || st.forced < models/10 || st.holds < models || st.fails < models || st.traces < models || st.deadlocked < models/10 {
		t.Errorf("the random sample exercises too little: %+v", st)
	}
}

// describeModel prints a model compactly, for failure messages.
func describeModel(m *counterabs.Model) string {
	s := fmt.Sprintf("counters %d, shared %+v, init %v\n", len(m.Counters), m.Shared, m.Init)
	for _, t := range m.Transitions {
		s += fmt.Sprintf("  %d -> %d also %v transfers %v assign %v guard %s\n", t.From, t.To, t.Also, t.Transfers, t.Assign, presburger.Format(t.Guard, m.VarName))
	}
	return s
}

// sharedModel is a model of two counters A and B holding n processes,
// all in A at first, with one unbounded shared variable u (initially 0)
// and transitions A -> B assigning u := u + #A when u + #A <= capA*#A
// (when capA > 0; unguarded otherwise) and B -> A free.
func sharedModel(n, capA int) *counterabs.Model {
	s := system(2, "A", "B")
	inc := presburger.VarTerm(2).Add(v(0))
	guard := presburger.Compare(v(0), presburger.Ge, k(1))
	if capA > 0 {
		guard = presburger.Conj(guard, presburger.Compare(inc, presburger.Le, v(0).Scale(int64(capA))))
	}
	trans := []counterabs.Transition{
		{From: 0, To: 1, Guard: presburger.Compare(v(0), presburger.Ge, k(1))},
		{From: 1, To: 0, Guard: presburger.Compare(v(1), presburger.Ge, k(1))},
	}
	m := counterModel(s, n, []int{n, 0}, trans)
	m.Shared = []gsst.Shared{{Name: "u", Lo: 0, Unbounded: true}}
	m.Init = append(m.Init, 0)
	// Assemble checks that guards read counters only: the guard reading
	// u comes after.
	m.Transitions[0].Guard = guard
	m.Transitions[0].Assign = []counterabs.Assign{{Var: 2, Value: inc}}
	u := presburger.VarTerm(2)
	m.Properties = []counterabs.Property{
		{Name: "bounded", Formula: ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Compare(u, presburger.Le, k(int64(capA*n)))}}},
		{Name: "top", Formula: ctl.Unary{Op: ctl.EF, X: ctl.Atom{P: presburger.Compare(u, presburger.Ge, k(int64(capA*n-1)))}}},
	}
	return m
}

// TestUnboundedBoundGrows: the first encoding bound of u (7) is too
// small, and the engine doubles it until no reachable state steps beyond
// it; counts and verdicts are the oracle's.
func TestUnboundedBoundGrows(t *testing.T) {
	m := sharedModel(5, 9)
	g := stepGraph(m)
	var st sharedStats
	checkShared(t, DefaultBDD(), m, g, true, &st)
	checkShared(t, DefaultBDD(), m, g, false, &st)
	e, err := New(m, explore.NewConfig())
	if err != nil {
		t.Fatal(err)
	}
	first, _ := encodingLimits(m)
	if b := e.Stats().Bounds; len(b) != 1 || b[0].Name != "u" || b[0].Max != 63 || first[2] != 7 {
		t.Errorf("bounds %+v (first %d), want u up to 63 from 7", b, first[2])
	}
	if st.holds != 4 {
		t.Errorf("%d verdicts hold, want all 4", st.holds)
	}
	// explore.MaxWork bounds the nodes of every encoding New made, not
	// only of the last one.
	last := slices.Clone(first)
	last[2] = 63
	alone, err := newChecker(m, config{order: autoOrder(m), strategy: Saturate, reachable: true, affinity: true}, explore.NewConfig(), last, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := alone.Reachable(context.Background()); err != nil {
		t.Fatal(err)
	}
	if all, one := e.Stats().Produced, alone.Stats().Produced; all <= one {
		t.Errorf("%d nodes produced in all, %d by the last encoding alone", all, one)
	}
}

// TestUnboundedDiverges: a variable that grows without bound in the
// reachable states gives no verdict, a limit error.
func TestUnboundedDiverges(t *testing.T) {
	m := sharedModel(2, 0)
	defer func(b int) { maxBoundBits = b }(maxBoundBits)
	maxBoundBits = 8
	_, err := DefaultBDD().Check(context.Background(), m)
	if !errors.Is(err, errkind.Limit) || !strings.Contains(err.Error(), "shared variable u takes values beyond 255") {
		t.Fatalf("got %v, want a limit error naming u", err)
	}
	_, err = DefaultBDD().Check(context.Background(), m, explore.MaxStates(100))
	var lim *explore.LimitError
	if !errors.As(err, &lim) || lim.Kind != "states" {
		t.Fatalf("with a state limit: got %v, want the state limit", err)
	}
}

// TestConstructsAgainstExplicit runs the BDD engine and the
// explicit engine (cross-checked on its own against the unreduced
// system) on the group-counter models of random systems with shared
// variables, updates, broadcasts and rendezvous
// (testsupport.RandomSystem), with random CTL properties over counters
// and shared variables and, on every other model, random justice
// conditions and weak fairness of random transitions: counts, deadlocks,
// verdicts, trace presence and finite trace lengths agree, and every
// trace is explained on the oracle's graph of the model.
func TestConstructsAgainstExplicit(t *testing.T) {
	r := rand.New(rand.NewSource(2611))
	systems := 300
	if testing.Short() {
		systems = 80
	}
	var checked, fairModels, bcast, rdv, shared, traces, fairVerdicts int
	for i := range systems {
		sys := testsupport.RandomSystem(r, testsupport.Small(0, testsupport.AllConstructs&^testsupport.Params))
		m, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		nv := m.NumVars()
		for p := range 4 {
			leaf := func() ctl.Formula { return ctl.Atom{P: testsupport.RandomFormula(r, nv, m.N, 1, false)} }
			f := randomTemporal(r, 3, leaf)
			m.Properties = append(m.Properties, counterabs.Property{Name: fmt.Sprintf("p%d", p), Text: ctl.Format(f, m.VarName), Formula: f})
		}
		if i%2 == 1 {
			fairModels++
			for range 1 + r.Intn(2) {
				if r.Intn(2) == 0 {
					j := counterabs.Justice{State: testsupport.RandomFormula(r, nv, m.N, 1, false)}
					j.Text = presburger.Format(j.State, m.VarName)
					m.Justice = append(m.Justice, j)
					continue
				}
				j := counterabs.Justice{Weak: true, Text: "weak"}
				for k := range m.Transitions {
					if r.Intn(2) == 0 {
						j.Transitions = append(j.Transitions, k)
					}
				}
				m.Justice = append(m.Justice, j)
			}
		}
		exp, err := explicit.Engine{}.Check(context.Background(), m, explore.MaxStates(5000))
		var lim *explore.LimitError
		if errors.As(err, &lim) {
			continue // an unbounded variable grows for ever
		}
		if err != nil {
			t.Fatalf("system %d: explicit: %v", i, err)
		}
		checked++
		if testsupport.ConstructsOf(sys)&testsupport.Broadcasts != 0 {
			bcast++
		}
		if testsupport.ConstructsOf(sys)&testsupport.Rendezvous != 0 {
			rdv++
		}
		if len(m.Shared) > 0 {
			shared++
		}
		g := stepGraph(m)
		fo := fairOracle(m)
		key := func(s explore.State) string { return testsupport.TotalKey(fullVec(m, s)) }
		for _, opts := range [][]explore.Option{nil, {explore.CountStates(false), explore.CheckDeadlocks(true)}} {
			bdd, err := DefaultBDD().Check(context.Background(), m, opts...)
			if err != nil {
				t.Fatalf("system %d: bdd: %v", i, err)
			}
			if bdd.ReachableStates == nil {
				bdd.ReachableStates, bdd.Deadlocks = exp.ReachableStates, exp.Deadlocks
			}
			what := fmt.Sprintf("system %d (%s)", i, bdd.Stats.Method)
			compareReports(t, what, bdd, exp)
			if *bdd.DeadlockFree != *exp.DeadlockFree || len(bdd.DeadlockTraces) != len(exp.DeadlockTraces) ||
				len(bdd.DeadlockTraces) > 0 && len(bdd.DeadlockTraces[0].States) != len(exp.DeadlockTraces[0].States) {
				t.Fatalf("%s: deadlock free %v with %d traces, explicit %v with %d", what, *bdd.DeadlockFree, len(bdd.DeadlockTraces), *exp.DeadlockFree, len(exp.DeadlockTraces))
			}
			for _, p := range bdd.Properties {
				if p.Trace != nil && (p.Trace.Lifted == nil || p.Trace.Lifted.Error != "") {
					t.Fatalf("%s: %s: the trace does not lift to process moves: %+v", what, p.Name, p.Trace.Lifted)
				}
			}
			if len(m.Justice) > 0 {
				// Fair verdicts against the fair oracle; traces under
				// fairness are the explicit engine's kind (compared
				// above) and lift (checked above).
				for k, p := range bdd.Properties {
					if want := fo.Holds(m.Properties[k].Formula); p.Holds != want || p.Vacuous != !fo.Fair()[0] {
						t.Fatalf("%s: %s = %s under fairness %v: bdd %v (vacuous %v), fair oracle %v (fair start %v)", what, p.Name, p.Text, fairTexts(m), p.Holds, p.Vacuous, want, fo.Fair()[0])
					}
					fairVerdicts++
				}
				continue
			}
			for k, p := range bdd.Properties {
				f := m.Properties[k].Formula
				if p.Trace != nil {
					traces++
				}
				if err := testsupport.CheckEngineTrace(g, f, p.Holds, enginetest.Trace(p.Trace, key), testsupport.Subformulas(f, f, m.FormatProperty), testsupport.FromInit); err != nil {
					t.Fatalf("%s: %s = %s (holds %v): %v", what, p.Name, p.Text, p.Holds, err)
				}
			}
		}
	}
	t.Logf("%d systems checked (%d with fairness, %d broadcast, %d rendezvous, %d shared variables), %d traces checked on the graph, %d fair verdicts on the fair oracle", checked, fairModels, bcast, rdv, shared, traces, fairVerdicts)
	if checked < systems*3/4 || bcast < checked/5 || rdv < checked/5 || shared < checked/2 || traces < checked || fairVerdicts < checked {
		t.Errorf("the random sample exercises too little")
	}
}

// fairTexts names a model's justice constraints, for failure messages.
func fairTexts(m *counterabs.Model) []string {
	var out []string
	for _, j := range m.Justice {
		if j.Weak {
			out = append(out, fmt.Sprintf("weak %v", j.Transitions))
		} else {
			out = append(out, j.Text)
		}
	}
	return out
}

// threshold is the group-counter model of reliable broadcast in the
// style of Srikanth and Toueg at one instance (gsst/testdata/constructs's
// threshold.yaml with f = 0): n correct processes, v1 of them starting
// in V1, an unbounded shared counter nsent incremented by each process
// that sends; V0 -> SE once nsent >= t + 1, SE -> AC once nsent >= n - t.
// Properties: unforgeable (no acceptance without a V1 process, a
// failing property when v1 > 0) and sent (nsent <= n, holds).
func threshold(t *testing.T, n, tt, v1 int) *counterabs.Model {
	src := fmt.Sprintf(`name: threshold
shared:
  nsent: {type: "0..", init: 0}
states: [V0, V1, SE, AC]
groups:
  correct: %d
init: {correct: {V0: %d, V1: %d}}
transitions:
  - {from: V1, to: SE, update: "nsent := nsent + 1"}
  - {from: V0, to: SE, guard: "nsent >= %d", update: "nsent := nsent + 1"}
  - {from: SE, to: AC, guard: "nsent >= %d"}
properties:
  unforgeable: "AG (#V1 = 0 -> #AC = 0)"
  sent: "AG (nsent <= %d)"
`, n, n-v1, v1, tt+1, n-tt, n)
	return parseGroup(t, "threshold.yaml", []byte(src))
}

// TestThreshold: on reliable broadcast at growing sizes the BDD engine
// agrees with the explicit engine, and its bound for nsent covers n.
func TestThreshold(t *testing.T) {
	sizes := []int{4, 13, 40}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, n := range sizes {
		m := threshold(t, n, (n-1)/3, (n-1)/3+1)
		exp, err := explicit.Engine{}.Check(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		bdd, err := DefaultBDD().Check(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		compareReports(t, fmt.Sprintf("n=%d", n), bdd, exp)
		if b := bdd.Stats.SharedBounds; len(b) != 1 || b[0].Max < int64(n) {
			t.Errorf("n=%d: bounds %+v", n, b)
		}
		if bdd.Properties[0].Holds || !bdd.Properties[1].Holds {
			t.Errorf("n=%d: unforgeable %v, sent %v; want false, true", n, bdd.Properties[0].Holds, bdd.Properties[1].Holds)
		}
		t.Logf("n=%d: %v states; explicit %.3fs, bdd %.3fs (bound %d)", n, bdd.ReachableStates, exp.Stats.Seconds, bdd.Stats.Seconds, bdd.Stats.SharedBounds[0].Max)
	}
}

// mustStep is m.Step on the test models, whose values stay far inside
// gsst.MaxValue: an error there is a bug, reported by a panic.
func mustStep(m *counterabs.Model, t *counterabs.Transition, x []int) []int {
	y, err := m.Step(t, x)
	if err != nil {
		panic(err)
	}
	return y
}
