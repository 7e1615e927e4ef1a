package symbolic

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dalzilio/rudd"
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// EngineName is the value of Report.Engine for this engine.
const EngineName = "bdd"

// maxDeadlockExamples bounds Report.DeadlockExamples.
const maxDeadlockExamples = 3

// Explore encodes m and checks every property of its system, as Check.
func Explore(ctx context.Context, m *counterabs.Model, opts ...Option) (*explore.Report, Stats, error) {
	e, err := New(m, opts...)
	if err != nil {
		return nil, Stats{}, err
	}
	rep, err := e.Check(ctx)
	return rep, e.Stats(), err
}

// Check computes the reachable states (unless disabled), counts them and
// their deadlocks, and decides every property of the model's system at the
// initial state, with a trace when the verdict has one. A cancelled ctx or
// an exhausted node table returns an error and no verdict.
func (e *Engine) Check(ctx context.Context) (*explore.Report, error) {
	t0 := time.Now()
	props, err := e.properties()
	if err != nil {
		return nil, err
	}
	rep := &explore.Report{
		System: e.model.System.Name,
		Engine: EngineName,
		Mode:   explore.Abstract,
		Exact:  e.model.Certified,
	}
	if e.cfg.reachable {
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
			rep.DeadlockExamples = append(rep.DeadlockExamples, explore.State{Counters: x})
			d = e.b.And(d, e.b.Not(e.vector(x)))
		}
	}
	rep.Properties = []explore.PropertyResult{}
	for _, p := range props {
		res, err := e.Property(ctx, p.Formula)
		if err != nil {
			return nil, fmt.Errorf("property %s: %w", p.Name, err)
		}
		res.Name, res.Text = p.Name, p.Text
		if res.Text == "" {
			res.Text = ctl.Format(p.Formula, e.model.System.VarName)
		}
		if res.Trace != nil {
			res.Trace.Lifted = explore.Lift(e.model.System, res.Trace)
		}
		rep.Properties = append(rep.Properties, res)
	}
	e.sample()
	rep.Stats.Seconds = time.Since(t0).Seconds()
	rep.Stats.BDDPeakNodes = int64(e.stats.PeakNodes)
	rep.Stats.PeakBytes = int64(e.stats.PeakHeapBytes)
	return rep, e.check()
}

// properties returns the properties Check decides: those WithProperties
// names, in its order, or else all of the system's.
func (e *Engine) properties() ([]gsst.Property, error) {
	all := e.model.System.Properties
	if e.cfg.only == nil {
		return all, nil
	}
	out := make([]gsst.Property, 0, len(e.cfg.only))
	for _, name := range e.cfg.only {
		i := slices.IndexFunc(all, func(p gsst.Property) bool { return p.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("symbolic: no property named %q", name)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// Property decides f at the initial state and builds its trace.
func (e *Engine) Property(ctx context.Context, f ctl.Formula) (explore.PropertyResult, error) {
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
func (e *Engine) trace(ctx context.Context, f ctl.Formula, holds bool) (*explore.Trace, error) {
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
		return nil, errors.New("internal error: no trace found for a verdict that has one")
	}
	tr := &explore.Trace{Kind: kind, Loop: loop}
	for _, x := range states {
		tr.States = append(tr.States, explore.State{Counters: x})
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
func (e *Engine) stepInto(x rudd.Node) [][]int {
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
func (e *Engine) rings(ctx context.Context, from, allowed, target rudd.Node) ([]rudd.Node, int, error) {
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
func (e *Engine) backtrack(layers []rudd.Node, allowed rudd.Node, last []int) ([][]int, error) {
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
			return nil, errors.New("internal error: broken onion ring while building a trace")
		}
		path[i] = found
	}
	return path, nil
}

// predecessors returns the explicit predecessors of x by the transitions
// (stutter excluded).
func (e *Engine) predecessors(x []int) [][]int {
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
func (e *Engine) path(ctx context.Context, l, r rudd.Node) ([][]int, error) {
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
func (e *Engine) lassoIn(ctx context.Context, x rudd.Node) ([][]int, int, error) {
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
			return nil, -1, errors.New("internal error: EG state without successor in EG")
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
