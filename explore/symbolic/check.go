package symbolic

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/dalzilio/rudd"
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/presburger"
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
	copts := []Option{WithOrder(b.Order), WithStrategy(b.Strategy),
		WithReachable(b.ReachFirst || cfg.CountStates), WithTraces(cfg.Traces), WithMaxMemory(cfg.MaxMemory)}
	e, err := New(m, append(copts, b.Options...)...)
	if err != nil {
		return nil, err
	}
	rep, err := e.checkProperties(ctx, props)
	if err != nil {
		return nil, err
	}
	rep.Stats.Seconds = time.Since(t0).Seconds() // the encoding included
	// The BDD engine stores sets, not states, so MaxStates cannot stop it
	// early; a reachable set larger than the bound is still the same
	// resource stop as in the explicit engine.
	if cfg.MaxStates > 0 && rep.ReachableStates != nil && rep.ReachableStates.Cmp(big.NewInt(cfg.MaxStates)) > 0 {
		return nil, &explore.LimitError{Kind: "states", Limit: cfg.MaxStates}
	}
	return rep, nil
}

// maxDeadlockExamples bounds Report.DeadlockExamples.
const maxDeadlockExamples = 3

// checkProperties computes the reachable states (when configured), counts them and
// their deadlocks, and decides props at the initial state, with a trace
// when the verdict has one. A cancelled ctx or an exhausted node table
// returns an error and no verdict.
func (e *Checker) checkProperties(ctx context.Context, props []*counterabs.Property) (*explore.Report, error) {
	t0 := time.Now()
	m := e.model
	rep := &explore.Report{
		System: m.System.Name,
		Engine: BDD{}.Name(),
		Model:  m.Level,
		Exact:  m.Exact,
		Method: "backward",
	}
	if e.cfg.reachable {
		rep.Method = "reachable-first"
		r, err := e.Reachable(ctx)
		if err != nil {
			return nil, err
		}
		rep.ReachableStates = e.Count(r)
		rep.Deadlocks = e.Count(e.dead)
		d := e.dead
		for i := 0; i < maxDeadlockExamples; i++ {
			x, ok := e.pick(d)
			if !ok {
				break
			}
			rep.DeadlockExamples = append(rep.DeadlockExamples, explore.ModelState(m, x))
			d = e.b.And(d, e.b.Not(e.vector(x)))
		}
	}
	rep.Properties = []explore.PropertyResult{}
	for _, p := range props {
		res, err := e.Property(ctx, p.Formula)
		if err != nil {
			return nil, fmt.Errorf("property %s: %w", p.Name, err)
		}
		verdict := explore.NewResult(m, p)
		verdict.Holds, verdict.Trace = res.Holds, res.Trace
		if verdict.Trace != nil {
			verdict.Trace.Lifted = explore.Lift(m.System, verdict.Trace)
		}
		rep.Properties = append(rep.Properties, verdict)
	}
	e.sample()
	rep.Stats = explore.Stats{
		Seconds:      time.Since(t0).Seconds(),
		BDDPeakNodes: int64(e.stats.PeakNodes),
		PeakBytes:    int64(e.stats.PeakHeapBytes),
		BDDVars:      e.stats.BDDVars,
		BuildSeconds: e.stats.BuildTime.Seconds(),
		ReachIters:   e.stats.ReachIters,
		ReachSeconds: e.stats.ReachTime.Seconds(),
	}
	return rep, e.check()
}

// Property decides f at the initial state and builds its trace.
func (e *Checker) Property(ctx context.Context, f ctl.Formula) (explore.PropertyResult, error) {
	s, err := e.Sat(ctx, f)
	if err != nil {
		return explore.PropertyResult{}, err
	}
	res := explore.PropertyResult{Holds: e.contains(s, e.model.Init)}
	if e.cfg.traces {
		tr, err := e.trace(ctx, f, res.Holds)
		if err != nil {
			return explore.PropertyResult{}, err
		}
		res.Trace = tr
	}
	return res, e.check()
}

// trace explains a verdict on the top-level operator of f: a witness for a
// holding EX, EF, EG or E[U], a counterexample (a witness of the dual
// existential formula) for a failed AX, AG, AF or A[U].
func (e *Checker) trace(ctx context.Context, f ctl.Formula, holds bool) (*explore.Trace, error) {
	// A negated temporal operator is explained by its dual, as the
	// explicit engine does: !EF p fails exactly when AG !p fails.
	if nf, ok := f.(ctl.Not); ok {
		if u, ok := nf.X.(ctl.Unary); ok && u.Op >= ctl.EX && u.Op <= ctl.AG {
			return e.trace(ctx, ctl.Unary{Op: u.Op.Dual(), X: ctl.Not{X: u.X}}, holds)
		}
		return nil, nil
	}
	var states [][]int
	loop := -1
	var err error
	kind := explore.Witness
	switch f := f.(type) {
	case ctl.Unary:
		if f.Op.Existential() {
			if !holds {
				return nil, nil
			}
		} else if holds {
			return nil, nil
		} else {
			kind = explore.Counterexample
		}
		// Plain assignments below, not :=, so the errors of path and
		// lassoIn reach the check after the switch.
		var x rudd.Node
		if x, err = e.Sat(ctx, f.X); err != nil {
			return nil, err
		}
		switch f.Op {
		case ctl.EX:
			states = e.stepInto(x)
		case ctl.AX:
			states = e.stepInto(e.not(x))
		case ctl.EF:
			states, err = e.path(ctx, e.space, x)
		case ctl.AG:
			states, err = e.path(ctx, e.space, e.not(x))
		case ctl.EG:
			states, loop, err = e.lassoIn(ctx, x)
		case ctl.AF:
			states, loop, err = e.lassoIn(ctx, e.not(x))
		}
	case ctl.Until:
		if f.All == holds {
			return nil, nil
		}
		var l, r, badPath rudd.Node
		if l, err = e.Sat(ctx, f.L); err != nil {
			return nil, err
		}
		if r, err = e.Sat(ctx, f.R); err != nil {
			return nil, err
		}
		if !f.All {
			states, err = e.path(ctx, l, r)
			break
		}
		kind = explore.Counterexample
		nr := e.not(r)
		bad := e.b.And(e.not(l), nr)
		if badPath, err = e.eu(ctx, nr, bad); err != nil {
			return nil, err
		}
		if e.contains(badPath, e.model.Init) {
			states, err = e.path(ctx, nr, bad)
		} else {
			states, loop, err = e.lassoIn(ctx, nr)
		}
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if states == nil {
		return nil, errkind.Errorf(errkind.Internal, "symbolic: internal error: no trace found for a verdict that has one")
	}
	tr := &explore.Trace{Kind: kind, Loop: loop}
	for _, x := range states {
		tr.States = append(tr.States, explore.ModelState(e.model, x))
	}
	return tr, nil
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

// enabled reports whether transition t can fire in x.
func enabled(t counterabs.Transition, x []int) bool {
	return x[t.From] >= 1 && presburger.Eval(t.Guard, valuation(x))
}

// successors returns the explicit successors of the counter vector x in
// m: one per enabled transition, or the stutter self-loop when none is
// enabled. Traces are built from these explicit steps, so every step of
// a trace is a move of the model whatever the BDDs say.
func successors(m *counterabs.Model, x []int) []step {
	var out []step
	for k, t := range m.Transitions {
		if !enabled(t, x) {
			continue
		}
		y := append([]int(nil), x...)
		y[t.From]--
		y[t.To]++
		out = append(out, step{y, k})
	}
	if len(out) == 0 {
		out = append(out, step{append([]int(nil), x...), -1})
	}
	return out
}

// stepInto returns [init, s] for a successor s of init in x, or nil.
func (e *Checker) stepInto(x rudd.Node) [][]int {
	for _, s := range successors(e.model, e.model.Init) {
		if e.contains(x, s.to) {
			return [][]int{e.model.Init, s.to}
		}
	}
	return nil
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

// backtrack turns onion rings into a path ending in last (a state of the
// final layer): each earlier state is a predecessor in its layer whose
// layer state lies in allowed.
func (e *Checker) backtrack(layers []rudd.Node, allowed rudd.Node, last []int) ([][]int, error) {
	path := make([][]int, len(layers))
	path[len(layers)-1] = last
	for i := len(layers) - 2; i >= 0; i-- {
		in := e.b.And(layers[i], allowed)
		var found []int
		for _, p := range e.predecessors(path[i+1]) {
			if e.contains(in, p) {
				found = p
				break
			}
		}
		if found == nil {
			return nil, errkind.Errorf(errkind.Internal, "symbolic: internal error: broken onion ring while building a trace")
		}
		path[i] = found
	}
	return path, nil
}

// predecessors returns the explicit predecessors of x by the transitions
// (stutter excluded).
func (e *Checker) predecessors(x []int) [][]int {
	var out [][]int
	for _, t := range e.model.Transitions {
		if t.From == t.To || x[t.To] < 1 {
			continue
		}
		p := append([]int(nil), x...)
		p[t.To]--
		p[t.From]++
		if enabled(t, p) {
			out = append(out, p)
		}
	}
	return out
}

// path returns a shortest path from the initial state through states of l
// to a state of r (a witness of E[l U r]), or nil when there is none.
func (e *Checker) path(ctx context.Context, l, r rudd.Node) ([][]int, error) {
	layers, hit, err := e.rings(ctx, e.init, l, r)
	if err != nil || hit < 0 {
		return nil, err
	}
	last, _ := e.pick(e.b.And(layers[hit], r))
	return e.backtrack(layers, l, last)
}

// lassoIn returns a lasso from the initial state that stays in x forever
// (a witness of EG x), as states and the index the last state loops back
// to; nil when EG x does not hold initially.
func (e *Checker) lassoIn(ctx context.Context, x rudd.Node) ([][]int, int, error) {
	b := e.b
	z, err := e.eg(ctx, x)
	if err != nil {
		return nil, -1, err
	}
	s := e.model.Init
	if !e.contains(z, s) {
		return nil, -1, nil
	}
	prefix := [][]int{s}
	for {
		// Successors of s inside z; a deadlock's stutter is a loop at once.
		var succ []rudd.Node
		for _, st := range successors(e.model, s) {
			if st.trans < 0 {
				return prefix, len(prefix) - 1, nil
			}
			if e.contains(z, st.to) {
				succ = append(succ, e.vector(st.to))
			}
		}
		if len(succ) == 0 {
			return nil, -1, errkind.Errorf(errkind.Internal, "symbolic: internal error: EG state without successor in EG")
		}
		from := b.Or(succ...)
		// Search z from the successors of s, looking for s itself.
		target := e.vector(s)
		layers, hit, err := e.rings(ctx, from, z, target)
		if err != nil {
			return nil, -1, err
		}
		if hit >= 0 {
			cyc, err := e.backtrack(layers, z, s)
			if err != nil {
				return nil, -1, err
			}
			// cyc runs from a successor of s to s; s already ends prefix.
			return append(prefix, cyc[:len(cyc)-1]...), len(prefix) - 1, nil
		}
		// s lies on no cycle: move to a farthest state of its future,
		// whose own future is strictly smaller, and try again.
		i := len(layers) - 1
		for i > 0 && e.isFalse(b.And(layers[i], z)) {
			i--
		}
		far, _ := e.pick(b.And(layers[i], z))
		seg, err := e.backtrack(layers[:i+1], z, far)
		if err != nil {
			return nil, -1, err
		}
		prefix = append(prefix, seg...)
		s = far
	}
}
