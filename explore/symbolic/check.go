package symbolic

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/dalzilio/rudd"
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/progress"
)

// BDD is the BDD engine as an explore.Engine. Its fields tune the
// encoding and the fixpoints; the settings every engine shares come as
// explore options.
type BDD struct {
	Order    Order    // variable order (Auto when zero is not wanted: use DefaultBDD)
	Strategy Strategy // least-fixpoint strategy
	// ReachFirst computes the reachable states first and restricts every
	// fixpoint to them. Without it, and unless explore.CountStates asks
	// for counts, properties are decided backwards over every vector of
	// the encoding, which gives the same verdicts at the initial state.
	ReachFirst bool
	// Extra options for the Checker, for experiments and tests.
	Options []Option
}

// DefaultBDD returns the BDD engine with its default settings: order
// Auto, saturation, no reachable states first.
func DefaultBDD() BDD { return BDD{Order: Auto, Strategy: Saturate} }

// Name returns "bdd".
func (BDD) Name() string { return "bdd" }

// Check encodes m and decides its properties.
func (b BDD) Check(ctx context.Context, m *counterabs.Model, opts ...explore.Option) (*explore.Report, error) {
	t0 := time.Now()
	cfg := explore.NewConfig(opts...)
	props, err := cfg.SelectProperties(m)
	if err != nil {
		return nil, err
	}
	copts := []Option{WithOrder(b.Order), WithStrategy(b.Strategy), WithReachable(b.ReachFirst || cfg.CountStates), WithContext(ctx)}
	e, err := New(m, cfg, append(copts, b.Options...)...)
	if err != nil {
		return nil, err
	}
	rep, err := e.checkProperties(ctx, props)
	if err != nil {
		return nil, err
	}
	rep.Stats.Seconds = time.Since(t0).Seconds() // the encoding included
	return rep, nil
}

// maxDeadlockExamples bounds Report.DeadlockExamples.
const maxDeadlockExamples = 3

// checkProperties computes the reachable states (when configured), counts them and
// their deadlocks, and decides props at the initial state, with a trace
// when the verdict has one. A cancelled ctx or an exhausted node table
// returns an error and no verdict.
func (e *Checker) checkProperties(ctx context.Context, props []*counterabs.Property) (*explore.Report, error) {
	e.bind(ctx)
	t0 := time.Now()
	m := e.model
	rep := &explore.Report{
		System: m.System.Name,
		Model:  m.Level,
		Exact:  m.Exact,
	}
	if e.cfg.reachable {
		if _, err := e.Reachable(ctx); err != nil {
			return nil, err
		}
	} else if err := e.reachableIfCheap(ctx); err != nil {
		return nil, err
	}
	method := "backward"
	if e.reach != nil {
		method = "reachable-first"
	}
	if e.shared.CountStates {
		if e.reach == nil {
			return nil, errkind.Errorf(errkind.Internal, "symbolic: states to count without the reachable states")
		}
		rep.ReachableStates = e.Count(e.reach)
		rep.Deadlocks = e.Count(e.dead)
		if e.shared.CountConcrete && explore.ConcreteCountable(m, rep.ReachableStates) {
			c, err := e.concreteCount(ctx, e.reach)
			if err != nil {
				return nil, err
			}
			rep.ConcreteStates = c
		}
	}
	if e.shared.CountStates || e.shared.CheckDeadlocks {
		e.enter(progress.Event{Phase: progress.Deadlock})
		if err := e.deadlockPaths(ctx, rep); err != nil {
			return nil, err
		}
	}
	rep.Properties = []explore.PropertyResult{}
	rep.Fairness = explore.FairnessTexts(m)
	for i, p := range props {
		e.enter(progress.Event{Phase: progress.Property, Item: p.Name, K: i + 1, N: len(props)})
		res, err := e.Property(ctx, p.Formula)
		if err != nil {
			return nil, fmt.Errorf("property %s: %w", p.Name, err)
		}
		verdict := explore.NewPropertyResult(m, p)
		verdict.Holds, verdict.Vacuous, verdict.Trace = res.Holds, res.Vacuous, res.Trace
		explore.Conclude(m, p, &verdict)
		if err := explore.LiftTrace(ctx, m.System, verdict.Trace); err != nil {
			return nil, err
		}
		rep.Properties = append(rep.Properties, verdict)
	}
	e.sample()
	rep.Stats = explore.Stats{
		Engine:       BDD{}.Name(),
		Method:       method,
		Seconds:      time.Since(t0).Seconds(),
		BDDPeakNodes: int64(e.stats.PeakNodes),
		PeakBytes:    int64(e.stats.PeakHeapBytes),
		BDDVars:      e.stats.BDDVars,
		BuildSeconds: e.stats.BuildTime.Seconds(),
		ReachIters:   e.stats.ReachIters,
		ReachSeconds: e.stats.ReachTime.Seconds(),
		SharedBounds: e.stats.Bounds,
	}
	return rep, e.check()
}

// deadlockPaths decides whether a deadlock is reachable and adds to rep
// the deadlocks at the least distance from the initial state, up to
// maxDeadlockExamples of them, the least first (explore.Compare), with
// (when traces are on) the canonical shortest path to each:
// breadth-first onion rings from the initial vector stop at the first
// ring that meets the deadlocks.
func (e *Checker) deadlockPaths(ctx context.Context, rep *explore.Report) error {
	b := e.b
	dead := e.dead
	if e.reach == nil {
		// Without reachable states, decide EF deadlock backwards first:
		// onion rings are only worth building when one is reachable.
		ef, err := e.eu(ctx, e.space, dead)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(e.model.Starts(), func(x []int) bool { return e.contains(ef, x) }) {
			dead = b.False()
		}
	}
	var layers []rudd.Node
	hit := -1
	if !e.isFalse(dead) {
		var err error
		if layers, hit, err = e.rings(ctx, e.init, e.space, dead); err != nil {
			return err
		}
	}
	free := hit < 0
	rep.DeadlockFree = &free
	if free {
		return e.check()
	}
	d := b.And(layers[hit], dead)
	for i := 0; i < maxDeadlockExamples; i++ {
		x, ok := e.least(d)
		if !ok {
			break
		}
		d = b.And(d, b.Not(e.vector(x)))
		rep.DeadlockExamples = append(rep.DeadlockExamples, explore.CounterState(e.model, x))
		if !e.shared.Traces {
			continue
		}
		path, err := e.backtrack(ctx, layers[:hit+1], e.space, x)
		if err != nil {
			return err
		}
		states := make([]explore.State, len(path))
		for k, y := range path {
			states[k] = explore.CounterState(e.model, y)
		}
		rep.DeadlockTraces = append(rep.DeadlockTraces, explore.DeadlockTrace(ctx, e.model.System, states))
	}
	return e.check()
}

// Property decides f at the initial state and builds its trace. As in
// NuSMV, f holds when the initial state satisfies it or no fair path
// starts there (then vacuously).
func (e *Checker) Property(ctx context.Context, f ctl.Formula) (explore.PropertyResult, error) {
	e.bind(ctx)
	e.cache = nil
	s, err := e.Sat(ctx, f)
	if err != nil {
		return explore.PropertyResult{}, err
	}
	fair, err := e.fair(ctx)
	if err != nil {
		return explore.PropertyResult{}, err
	}
	// Every initial state with a fair path must satisfy f; the trace
	// starts in the first that does not, or (f holding) the first fair.
	var from []int
	res := explore.PropertyResult{Vacuous: true, Holds: true}
	for _, x := range e.model.Starts() {
		if !e.contains(fair, x) {
			continue
		}
		if res.Vacuous {
			res.Vacuous, from = false, x
		}
		if !e.contains(s, x) {
			res.Holds, from = false, x
			break
		}
	}
	if e.shared.Traces && !res.Vacuous {
		tr, err := explore.Explain[[]int, rudd.Node](bddGraph{e, ctx}, from, f, res.Holds, e.model)
		if err != nil {
			return explore.PropertyResult{}, err
		}
		res.Trace = tr
	}
	return res, e.check()
}

// bddGraph offers the BDD engine's sets and explicit steps to the trace
// builder (explore.Explain). Finite paths are shortest: they come from
// breadth-first onion rings, walked back with explicit predecessors.
type bddGraph struct {
	e   *Checker
	ctx context.Context
}

func (g bddGraph) Sat(f ctl.Formula) (rudd.Node, error) { return g.e.Sat(g.ctx, f) }
func (g bddGraph) Has(x rudd.Node, s []int) bool        { return g.e.contains(x, s) }
func (g bddGraph) And(a, b rudd.Node) rudd.Node         { return g.e.b.And(a, b) }
func (g bddGraph) Single(s []int) rudd.Node             { return g.e.vector(s) }
func (g bddGraph) Justice() int                         { return len(g.e.justice) }
func (g bddGraph) Same(a, b []int) bool                 { return slices.Equal(a, b) }
func (g bddGraph) State(s []int) explore.State          { return explore.CounterState(g.e.model, s) }

func (g bddGraph) PreJustice(j int, z rudd.Node) (rudd.Node, error) {
	return g.e.preJustice(j, z), g.e.check()
}

// JusticeStep returns the least successor of s in z by an edge meeting
// constraint j.
func (g bddGraph) JusticeStep(s []int, j int, z rudd.Node) ([]int, bool) {
	var best []int
	for _, st := range successors(g.e.model, s) {
		if g.e.contains(z, st.to) && g.e.meets(j, s, st) && (best == nil || explore.Compare(st.to, best) < 0) {
			best = st.to
		}
	}
	return best, best != nil
}

// Path returns the canonical shortest path (explore's canonical.go):
// it ends in the least state of the first ring meeting target.
func (g bddGraph) Path(from []int, through, target rudd.Node) ([][]int, error) {
	e := g.e
	layers, hit, err := e.rings(g.ctx, e.vector(from), through, target)
	if err != nil || hit < 0 {
		return nil, err
	}
	last, _ := e.least(e.b.And(layers[hit], target))
	return e.backtrack(g.ctx, layers, through, last)
}

// Far returns the canonical path to the least state of the last ring.
func (g bddGraph) Far(from []int, within rudd.Node) ([][]int, error) {
	e := g.e
	layers, _, err := e.rings(g.ctx, e.vector(from), within, e.b.False())
	if err != nil {
		return nil, err
	}
	i := len(layers) - 1
	for i > 0 && e.isFalse(e.b.And(layers[i], within)) {
		i--
	}
	far, ok := e.least(e.b.And(layers[i], within))
	if !ok {
		return [][]int{from}, nil
	}
	return e.backtrack(g.ctx, layers[:i+1], within, far)
}

// step is one explicit move of the counter model.
type step struct {
	to    []int
	trans int // index in Model.Transitions; -1 for a deadlock stutter
}

// valuation reads a counter vector as a Presburger assignment.
func valuation(x []int) func(presburger.Var) int64 {
	return func(v presburger.Var) int64 {
		if v < 0 || int(v) >= len(x) {
			return 0
		}
		return int64(x[v])
	}
}

// enabled reports whether transition t of m can fire in x: its guard
// holds, its movers exist, and every value it assigns lies in its
// variable's domain (what the relation's enabled set encodes).
func enabled(m *counterabs.Model, t *counterabs.Transition, x []int) bool {
	need := map[int]int{}
	for _, mv := range t.Moves() {
		need[mv.From]++
		if x[mv.From] < need[mv.From] {
			return false
		}
	}
	if !presburger.Eval(t.Guard, valuation(x)) {
		return false
	}
	for _, a := range t.Assign {
		v, ok := a.Value.Value(valuation(x))
		if !ok || !m.Shared[a.Var-len(m.Counters)].Contains(int(v)) {
			return false
		}
	}
	return true
}

// successors returns the explicit successors of the state x in m (a
// value per model variable): one per enabled transition, by Model.Step,
// and the stutter self-loop when none is enabled or, on a forced model,
// x may be deadlocked (Model.MayDeadlock). Traces are built from these
// explicit steps, so every step of a trace is a move of the model
// whatever the BDDs say.
func successors(m *counterabs.Model, x []int) []step {
	var out []step
	for k := range m.Transitions {
		t := &m.Transitions[k]
		if !enabled(m, t, x) {
			continue
		}
		// Step cannot fail here: New keeps every step from a reachable
		// state within the encoding, which stays within gsst.MaxValue.
		y, err := m.Step(t, x)
		if err != nil {
			continue
		}
		out = append(out, step{y, k})
	}
	if len(out) == 0 || m.MayDeadlock != nil && presburger.Eval(m.MayDeadlock, valuation(x)) {
		out = append(out, step{append([]int(nil), x...), -1})
	}
	return out
}

// rings computes the forward breadth-first layers from the set from: layer
// i+1 holds the new successors of the states of layer i that lie in
// allowed. It stops at the first layer meeting target (returned index), or
// returns -1 when the search is exhausted without meeting it.
func (e *Checker) rings(ctx context.Context, from, allowed, target rudd.Node) ([]rudd.Node, int, error) {
	b := e.b
	layers := []rudd.Node{from}
	seen := from
	for {
		cur := layers[len(layers)-1]
		if !e.isFalse(b.And(cur, target)) {
			return layers, len(layers) - 1, nil
		}
		if err := e.poll(ctx); err != nil {
			return nil, -1, err
		}
		src := b.And(cur, allowed)
		next := b.False()
		for i := range e.rels {
			next = b.Or(next, e.image(&e.rels[i], src))
		}
		next = b.And(next, b.Not(seen))
		if e.isFalse(next) {
			return layers, -1, nil
		}
		seen = b.Or(seen, next)
		layers = append(layers, next)
	}
}

// backtrack turns onion rings into the canonical path ending in last (a
// state of the final layer): each earlier state is the least
// predecessor in its layer that lies in allowed.
func (e *Checker) backtrack(ctx context.Context, layers []rudd.Node, allowed rudd.Node, last []int) ([][]int, error) {
	path := make([][]int, len(layers))
	path[len(layers)-1] = last
	for i := len(layers) - 2; i >= 0; i-- {
		if err := e.poll(ctx); err != nil {
			return nil, err
		}
		p, ok := e.predecessor(path[i+1], e.b.And(layers[i], allowed))
		if !ok {
			if err := e.check(); err != nil {
				return nil, err
			}
			return nil, errkind.Errorf(errkind.Internal, "symbolic: broken onion ring while building a trace")
		}
		path[i] = p
	}
	return path, e.check()
}

// predecessor returns the least state of in (explore.Compare) from which
// some transition (stutter excluded) leads to x: the paper's step by its
// explicit inverse, any other by the pre-image of x under its relation
// within in, the least state of it checked with Model.Step.
func (e *Checker) predecessor(x []int, in rudd.Node) ([]int, bool) {
	m := e.model
	var best []int
	consider := func(p []int) {
		if best == nil || explore.Compare(p, best) < 0 {
			best = p
		}
	}
	var one rudd.Node
	for i := range e.rels {
		r := &e.rels[i]
		t := &m.Transitions[r.index]
		if len(t.Also) == 0 && len(t.Transfers) == 0 && len(t.Assign) == 0 {
			// The paper's step has its explicit inverse.
			if t.From < 0 || t.From == t.To || x[t.To] < 1 {
				continue
			}
			p := append([]int(nil), x...)
			p[t.To]--
			p[t.From]++
			if enabled(m, t, p) && e.contains(in, p) {
				consider(p)
			}
			continue
		}
		if one == nil {
			one = e.vector(x)
		}
		pre := e.b.And(e.preimage(r, one), in)
		for {
			p, ok := e.least(pre)
			if !ok {
				break
			}
			if y, err := m.Step(t, p); enabled(m, t, p) && err == nil && slices.Equal(y, x) {
				consider(p)
				break
			}
			// Not a step of the model (cannot happen when the relation
			// encodes Model.Step): try the others.
			pre = e.b.And(pre, e.b.Not(e.vector(p)))
		}
	}
	return best, best != nil
}

// least returns the least state of s in the order of explore.Compare
// (the model's variables compared by value, in their order), fixing
// their bits from the most significant one down; false when s is empty.
// s must hold states of the model (a ring, the reachable states), not
// vectors that only the encoding has.
func (e *Checker) least(s rudd.Node) ([]int, bool) {
	b := e.b
	if e.isFalse(s) {
		return nil, false
	}
	x := make([]int, len(e.enc.cur))
	for v, bits := range e.enc.cur {
		for j := len(bits) - 1; j >= 0; j-- {
			if zero := b.And(s, b.NIthvar(bits[j])); !e.isFalse(zero) {
				s = zero
				continue
			}
			s = b.And(s, b.Ithvar(bits[j]))
			x[v] |= 1 << uint(j)
		}
		x[v] += int(e.enc.lo[v])
	}
	return x, true
}
