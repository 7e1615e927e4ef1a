package symbolic

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// Counter models for the tests: hand-written ones with known answers
// (GR&W, ASR), random ones from internal/testsupport, and the oracle's
// graph of any model.

// randomModel draws a random counter model with the given number of
// random properties (testsupport.RandomCounterModel).
func randomModel(r *rand.Rand, properties int) *counterabs.Model {
	sys, moves := testsupport.RandomCounterModel(r, properties)
	trans := make([]counterabs.Transition, len(moves))
	for i, mv := range moves {
		trans[i] = counterabs.Transition{From: mv.From, To: mv.To, Guard: mv.Guard, Local: i, Group: -1}
	}
	return reassemble(&counterabs.Model{System: sys, Transitions: trans, Exact: true})
}

// modelGraph is the oracle's explicit graph of m (testsupport.CounterGraph
// of its initial vector and transitions), keyed by TotalKey of model
// vectors.
func modelGraph(m *counterabs.Model) *testsupport.Graph {
	moves := make([]testsupport.Move, len(m.Transitions))
	for i, t := range m.Transitions {
		moves[i] = testsupport.Move{From: t.From, To: t.To, Guard: t.Guard}
	}
	return testsupport.CounterGraph(m.Init, moves, m.MayDeadlock)
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

// checkTrace checks a trace of the verdict of f on m (mf is the model's
// own formula for it, whose subformulas the segments name): present when
// one is promised, and explaining the verdict on the oracle's graph g of
// m (testsupport.CheckEngineTrace).
func checkTrace(t *testing.T, m *counterabs.Model, g *testsupport.Graph, f, mf ctl.Formula, res explore.PropertyResult) {
	t.Helper()
	key := func(s explore.State) string { return testsupport.TotalKey(fullVec(m, s)) }
	if err := testsupport.CheckEngineTrace(g, f, res.Holds, enginetest.Trace(res.Trace, key), testsupport.Subformulas(f, mf, m.FormatProperty), testsupport.FromInit); err != nil {
		t.Fatalf("%s (holds %v): %v", res.Name, res.Holds, err)
	}
}

func system(m int, names ...string) *gsst.Spec {
	s := &gsst.Spec{Name: "test"}
	for i := 0; i < m; i++ {
		if i < len(names) {
			s.States = append(s.States, names[i])
		} else {
			s.States = append(s.States, fmt.Sprintf("L%d", i+1))
		}
	}
	return s
}

// counterModel completes s into a system of one group of n processes
// starting as init says, with one unguarded local transition per model
// transition (they only name the moves), and assembles the total-counter
// model with the given transitions.
func counterModel(s *gsst.Spec, n int, init []int, trans []counterabs.Transition) *counterabs.Model {
	s.Groups = []gsst.Group{{Name: "p", Size: n}}
	s.Init = [][]int{init}
	s.Transitions = nil
	for i := range trans {
		t := &trans[i]
		t.Local, t.Group = i, -1
		s.Transitions = append(s.Transitions, gsst.Transition{From: t.From, To: t.To,
			Blocks: []gsst.Block{{Groups: []int{0}, Guard: presburger.True}}})
	}
	sys, err := gsst.New(s)
	if err != nil {
		panic(err)
	}
	return reassemble(&counterabs.Model{System: sys, Transitions: trans, Exact: true})
}

// reassemble assembles mod's transitions again, after a change to its
// system's properties.
func reassemble(mod *counterabs.Model) *counterabs.Model {
	m, err := counterabs.Assemble(mod.System, counterabs.TotalLevel, mod.Transitions, mod.Exact)
	if err != nil {
		panic(err)
	}
	return m
}

// exploreModel checks every property of mod with a Checker built with
// opts, as the BDD engine does.
func exploreModel(ctx context.Context, mod *counterabs.Model, opts ...Option) (*explore.Report, Stats, error) {
	e, err := New(mod, explore.NewConfig(), opts...)
	if err != nil {
		return nil, Stats{}, err
	}
	props, err := explore.NewConfig().SelectProperties(mod)
	if err != nil {
		return nil, Stats{}, err
	}
	rep, err := e.checkProperties(ctx, props)
	return rep, e.Stats(), err
}

// parseGroup parses a spec and builds its group-counter model.
func parseGroup(t *testing.T, file string, src []byte) *counterabs.Model {
	t.Helper()
	sys, err := gsst.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func v(i int) presburger.Term   { return presburger.VarTerm(presburger.Var(i)) }
func k(c int64) presburger.Term { return presburger.ConstTerm(c) }

// grw is the counter model of generalized readers/writers: x1..xm, Li ->
// Li+1 free for i <= m-2, L(m-1) -> Lm when x(m-1) >= 1 & xm = 0, Lm -> L1
// free; property AG xm <= 1.
func grw(m, n int) *counterabs.Model {
	s := system(m)
	init := make([]int, m)
	init[0] = n
	var trans []counterabs.Transition
	for i := 0; i < m-2; i++ {
		trans = append(trans, counterabs.Transition{From: i, To: i + 1,
			Guard: presburger.Compare(v(i), presburger.Ge, k(1))})
	}
	trans = append(trans, counterabs.Transition{From: m - 2, To: m - 1,
		Guard: presburger.Conj(presburger.Compare(v(m-2), presburger.Ge, k(1)), presburger.Compare(v(m-1), presburger.Eq, k(0)))})
	trans = append(trans, counterabs.Transition{From: m - 1, To: 0,
		Guard: presburger.Compare(v(m-1), presburger.Ge, k(1))})
	s.Properties = []gsst.Property{{Name: "mutex", Formula: ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Compare(v(m-1), presburger.Le, k(1))}}}}
	return counterModel(s, n, init, trans)
}

// asr is the counter model of asymmetric sharing of resources as
// specs.ASR(n, r, b) defines it: counters N, W1..Wr, C1..Cr; N -> Wj when
// #Wj + #Cj < b, Wj -> Cj when #Cj = 0, Cj -> N free. Properties: all_used
// (EF all Cj > 0) and mutexj (AG #Cj <= 1).
func asr(n, r, bound int) *counterabs.Model {
	names := []string{"N"}
	for j := 1; j <= r; j++ {
		names = append(names, fmt.Sprintf("W%d", j))
	}
	for j := 1; j <= r; j++ {
		names = append(names, fmt.Sprintf("C%d", j))
	}
	s := system(2*r+1, names...)
	init := make([]int, 2*r+1)
	init[0] = n
	var trans []counterabs.Transition
	w := func(j int) int { return j }
	c := func(j int) int { return r + j }
	ge1 := func(i int) presburger.Formula { return presburger.Compare(v(i), presburger.Ge, k(1)) }
	for j := 1; j <= r; j++ {
		trans = append(trans, counterabs.Transition{From: 0, To: w(j),
			Guard: presburger.Conj(ge1(0), presburger.Compare(v(w(j)).Add(v(c(j))), presburger.Lt, k(int64(bound))))})
	}
	for j := 1; j <= r; j++ {
		trans = append(trans, counterabs.Transition{From: w(j), To: c(j),
			Guard: presburger.Conj(ge1(w(j)), presburger.Compare(v(c(j)), presburger.Eq, k(0)))})
	}
	for j := 1; j <= r; j++ {
		trans = append(trans, counterabs.Transition{From: c(j), To: 0, Guard: ge1(c(j))})
	}
	var all []presburger.Formula
	for j := 1; j <= r; j++ {
		all = append(all, presburger.Compare(v(c(j)), presburger.Gt, k(0)))
	}
	s.Properties = append(s.Properties, gsst.Property{Name: "all_used", Formula: ctl.Unary{Op: ctl.EF, X: ctl.Atom{P: presburger.Conj(all...)}}})
	for j := 1; j <= r; j++ {
		s.Properties = append(s.Properties, gsst.Property{Name: fmt.Sprintf("mutex%d", j),
			Formula: ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Compare(v(c(j)), presburger.Le, k(1))}}})
	}
	return counterModel(s, n, init, trans)
}
