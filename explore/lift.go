package explore

import (
	"context"
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
)

// Lifting a trace of a counter model to the unreduced system: which
// steps are enabled and what they do is gsst's (Choices, After on
// counters; Movers, Transferred on processes); the lifter only chooses,
// at each step of the trace, one of the system's steps that leads to the
// trace's next state, and names the processes that take it.

// Limits on unrolling a loop while lifting a lasso.
const (
	maxLiftUnroll = 1000
	maxLiftSteps  = 20_000
)

// LiftTrace lifts a trace (nil: nothing) and its branches to the
// unreduced system sys, setting their Lifted fields. It returns ctx's
// error when ctx ended while it lifted.
func LiftTrace(ctx context.Context, sys *gsst.System, tr *Trace) error {
	if tr == nil {
		return nil
	}
	tr.Lifted = Lift(ctx, sys, tr)
	for _, b := range tr.Branches {
		if err := LiftTrace(ctx, sys, b); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Lift replays tr on the unreduced system sys, tracking the concrete
// configuration from the initial one (processes of each group placed in
// state order, see Lifted). For each step of the trace it takes, of the
// system's steps that lead from the configuration to the trace's next
// state (its total counters, and its group counters and shared values
// when it has them), the first in order of preference: by transition
// (rendezvous after every transition), then by the groups of the
// processes taking its parts; each part is taken by the lowest-numbered
// process of its group in its source that no earlier part took, and a
// broadcast moves every other process of its sources. The choice depends
// only on the configuration, so a loop is unrolled until a configuration
// at the loop's start repeats.
//
// Lifting always succeeds for a trace of an exact model: full virtual
// symmetry means a step enabled for one configuration with given total
// counters is enabled for all of them. On a forced, uncertified model the
// path to the loop is searched depth first over the other choices; when
// no choice works, Lift returns the steps that got furthest and says why
// in Error. Lifting takes time linear in the length of the trace and in
// what its steps move; when ctx ends it stops and says so in Error.
func Lift(ctx context.Context, sys *gsst.System, tr *Trace) *Lifted {
	out := &Lifted{Steps: []Step{}, Loop: -1}
	if tr == nil || len(tr.States) == 0 {
		return out
	}
	start, err := startConfig(sys, tr.States[0])
	if err != nil {
		out.Error = err.Error()
		return out
	}
	out.Start = start.Clone()
	l := newLifter(ctx, sys, start)
	// Stem: every step of the trace. The first choice at each step is the
	// one documented above; should it lead to a step with no matching
	// move (only possible on an uncertified model), other choices are
	// tried, depth first, within a budget.
	steps, err := l.liftPath(tr.States)
	out.Steps = append(out.Steps, steps...)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	if tr.Loop < 0 || tr.Loop >= len(tr.States) {
		return out
	}
	// The loop runs States[Loop] ... States[last] and back to States[Loop].
	// The stem already lifted the first pass through the body, so the
	// first iteration ends with the closing step. Configurations at the
	// start of an iteration are remembered; when one repeats, the lifted
	// run is a lasso. Configuration Loop (the first iteration's start) is
	// rebuilt by replaying the stem's first Loop steps.
	loopLen := len(tr.States) - tr.Loop
	first := newLifter(ctx, sys, start)
	for _, m := range l.done[:tr.Loop] {
		first.p.Take(m.movers, m.transferred, m.after)
	}
	seen := map[string]int{first.p.Key(): tr.Loop}
	for iter := 0; ; iter++ {
		// Close the loop: last state back to States[Loop].
		st, err := l.step(tr.States[len(tr.States)-1], tr.States[tr.Loop])
		if err != nil {
			out.Error = fmt.Sprintf("loop step: %v", err)
			return out
		}
		out.Steps = append(out.Steps, st)
		key := l.p.Key()
		if at, ok := seen[key]; ok {
			out.Loop = at
			return out
		}
		seen[key] = len(out.Steps)
		if iter+1 >= maxLiftUnroll || len(out.Steps)+loopLen > maxLiftSteps {
			// Keep one round: the stem, the body and the closing step.
			out.Steps = out.Steps[:len(tr.States)]
			out.Error = fmt.Sprintf("after %d rounds of the loop the process identities still differ from every "+
				"earlier round (the counters repeat); one round is shown, not closed", iter+1)
			return out
		}
		// The loop body again: States[Loop] ... States[last].
		for i := tr.Loop; i+1 < len(tr.States); i++ {
			st, err := l.step(tr.States[i], tr.States[i+1])
			if err != nil {
				out.Error = fmt.Sprintf("loop unrolling %d, step %d: %v", iter+2, i+1, err)
				return out
			}
			out.Steps = append(out.Steps, st)
		}
	}
}

// lifter tracks a concrete configuration of the system, and the moves
// that led to it (to undo them while searching).
type lifter struct {
	ctx   context.Context
	sys   *gsst.System
	steps []gsst.Step
	p     *gsst.Procs
	done  []move
}

// candidate is a step of the system with the groups of the processes
// taking its parts and the shared values after it.
type candidate struct {
	step           int
	groups, shared []int
}

// move is a step as applied to processes: enough to undo it.
type move struct {
	movers, transferred []gsst.Mover
	before, after       []int // shared values
}

func newLifter(ctx context.Context, sys *gsst.System, start gsst.Config) *lifter {
	return &lifter{ctx: ctx, sys: sys, steps: sys.Steps(), p: sys.NewProcs(start)}
}

// startConfig returns the initial configuration of sys a trace starting
// in st starts from: the first of sys.Initials with st's counters (group
// counters, when st has them) and shared values.
func startConfig(sys *gsst.System, st State) (gsst.Config, error) {
	confs := []gsst.Config{sys.InitConfig()}
	if !sys.SingleInitial() {
		// The configuration itself, where the trace gives it: a group of
		// 1,000 processes spread over three states has half a million,
		// more than Initials lists.
		c, ok, known := sys.InitialWith(st.Counters, st.Groups, st.Shared)
		switch {
		case ok:
			return c, nil
		case known:
			return gsst.Config{}, fmt.Errorf("the trace does not start in an initial configuration")
		}
		var err error
		if confs, err = sys.Initials(); err != nil {
			return gsst.Config{}, err
		}
	}
	for _, c := range confs {
		if !slices.Equal(c.Totals(len(sys.States)), st.Counters) || st.Shared != nil && !slices.Equal(st.Shared, c.Shared) {
			continue
		}
		if st.Groups != nil && !slices.EqualFunc(st.Groups, c.Counts, slices.Equal) {
			continue
		}
		return c, nil
	}
	return gsst.Config{}, fmt.Errorf("the trace does not start in an initial configuration")
}

// maxLiftSearch bounds the choices tried when lifting a path.
const maxLiftSearch = 100_000

// liftPath lifts the path states[0] ... states[last] from the current
// configuration, leaving the lifter at its end. On failure it returns the
// steps of the first attempt up to the step that failed furthest along.
func (l *lifter) liftPath(states []State) ([]Step, error) {
	var steps, best []Step
	var bestMoves []move
	var bestErr error
	budget := maxLiftSearch
	var rec func(i int) bool
	rec = func(i int) bool {
		if i+1 >= len(states) {
			return true
		}
		cands, err := l.candidates(states[i], states[i+1])
		if err != nil {
			if bestErr == nil || len(steps) > len(best) {
				best, bestErr = slices.Clone(steps), fmt.Errorf("step %d: %v", i+1, err)
				bestMoves = slices.Clone(l.done)
			}
			return false
		}
		for _, c := range cands {
			if budget--; budget < 0 {
				return false
			}
			steps = append(steps, l.take(c))
			if rec(i + 1) {
				return true
			}
			steps = steps[:len(steps)-1]
			l.undo()
		}
		return false
	}
	if rec(0) {
		return steps, nil
	}
	if bestErr == nil {
		bestErr = fmt.Errorf("no lifting found within %d choices", maxLiftSearch)
	}
	// Leave the lifter where the reported steps end.
	for _, m := range bestMoves {
		l.p.Take(m.movers, m.transferred, m.after)
	}
	l.done = bestMoves
	return best, bestErr
}

// step takes the first candidate from a to b.
func (l *lifter) step(a, b State) (Step, error) {
	cands, err := l.candidates(a, b)
	if err != nil {
		return Step{}, err
	}
	return l.take(cands[0]), nil
}

// take applies candidate c to the processes and returns it as a step of
// the lifted trace.
func (l *lifter) take(c candidate) Step {
	if c.step < 0 {
		l.done = append(l.done, move{})
		return Step{Stutter: true, Transition: -1, Group: -1, Process: -1, From: -1, To: -1}
	}
	st := &l.steps[c.step]
	movers := l.sys.Movers(st, l.p, c.groups)
	transferred := l.sys.Transferred(st, l.p, movers)
	m := move{movers: movers, transferred: transferred, before: slices.Clone(l.p.Shared), after: c.shared}
	l.p.Take(movers, transferred, c.shared)
	l.done = append(l.done, m)
	return l.report(st, m)
}

// undo undoes the last move taken.
func (l *lifter) undo() {
	m := l.done[len(l.done)-1]
	l.done = l.done[:len(l.done)-1]
	l.p.Take(reversed(m.movers), reversed(m.transferred), m.before)
}

// reversed returns the moves back.
func reversed(ms []gsst.Mover) []gsst.Mover {
	out := make([]gsst.Mover, len(ms))
	for i, m := range ms {
		out[i] = gsst.Mover{Group: m.Group, Process: m.Process, From: m.To, To: m.From}
	}
	return out
}

// report writes a move of step st as a Step of the lifted trace: its
// first mover, the other parts' (Also), the processes its transfers moved
// and the shared values after it.
func (l *lifter) report(st *gsst.Step, m move) Step {
	sys := l.sys
	out := Step{Transition: st.Origin.Transition, Group: -1, Process: -1, From: -1, To: -1}
	if len(m.movers) > 0 {
		first := l.mover(m.movers[0])
		out.Group, out.GroupName, out.Process = first.Group, first.GroupName, first.Process
		out.From, out.To, out.FromName, out.ToName = first.From, first.To, first.FromName, first.ToName
	}
	switch o := &st.Origin; {
	case o.Rendezvous >= 0:
		idx := o.Rendezvous
		out.Rendezvous = &idx
	case o.Environment >= 0:
		idx := o.Environment
		out.Environment, out.EnvironmentName = &idx, sys.EnvironmentName(idx)
	}
	for _, mv := range m.movers[min(1, len(m.movers)):] {
		out.Also = append(out.Also, l.mover(mv))
	}
	for _, mv := range m.transferred {
		out.Transferred = append(out.Transferred, l.mover(mv))
	}
	if len(sys.Shared) > 0 {
		out.sys, out.Shared = sys, slices.Clone(m.after)
	}
	return out
}

func (l *lifter) mover(m gsst.Mover) Mover {
	sys := l.sys
	return Mover{Group: m.Group, GroupName: sys.Groups[m.Group].Name, Process: m.Process, From: m.From, To: m.To,
		FromName: sys.States[m.From], ToName: sys.States[m.To]}
}

// candidates lists the steps of the system that lead from the
// configuration (which matches a) to b, in order of preference (Lift);
// at a state the trace repeats in which no step is possible, the stutter
// of a deadlock.
func (l *lifter) candidates(a, b State) ([]candidate, error) {
	if len(l.done)%1024 == 0 {
		if err := l.ctx.Err(); err != nil {
			return nil, fmt.Errorf("lifting stopped: %w", err)
		}
	}
	sys := l.sys
	m := len(sys.States)
	if len(a.Counters) != m || len(b.Counters) != m {
		return nil, fmt.Errorf("malformed trace state")
	}
	diff := make([]int, m)
	for s := range m {
		diff[s] = b.Counters[s] - a.Counters[s]
	}
	conf := l.p.View()
	var out []candidate
	var failure error
	enabled := false
	for i := range l.steps {
		st := &l.steps[i]
		if len(st.Transfers) == 0 && !partsMatch(st.Parts, diff) {
			// Without transfers a step changes the totals by its
			// parts alone: most steps are ruled out before their
			// guards are read.
			if !enabled && sameState(a, b) {
				// ... but a deadlock needs every step disabled.
				ok, err := sys.Enabled(st, conf)
				enabled = enabled || ok
				failure = cmpErr(failure, err)
			}
			continue
		}
		err := sys.Choices(st, conf, func(groups, shared []int) bool {
			enabled = true
			if l.leadsTo(st, conf, groups, shared, b) {
				out = append(out, candidate{step: i, groups: slices.Clone(groups), shared: slices.Clone(shared)})
			}
			return true
		})
		failure = cmpErr(failure, err)
	}
	if failure != nil {
		return nil, failure
	}
	if len(out) > 0 {
		slices.SortStableFunc(out, func(x, y candidate) int { return l.order(x, y) })
		return out, nil
	}
	if sameState(a, b) {
		if enabled {
			return nil, fmt.Errorf("the counter model stutters (deadlock) but a process can move in the concrete configuration")
		}
		return []candidate{{step: -1}}, nil
	}
	return nil, fmt.Errorf("no step of the system leads to the next state of the trace from the concrete configuration " +
		"(the counter model allows it: it is not exact here)")
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// order compares candidates by the preference of Lift: by transition
// (rendezvous after every transition, in their order), then by the
// groups of the parts.
func (l *lifter) order(x, y candidate) int {
	key := func(c candidate) int {
		switch o := &l.steps[c.step].Origin; {
		case o.Rendezvous >= 0:
			return len(l.sys.Transitions) + o.Rendezvous
		case o.Environment >= 0:
			return len(l.sys.Transitions) + len(l.sys.Rendezvous) + o.Environment
		default:
			return o.Transition
		}
	}
	if kx, ky := key(x), key(y); kx != ky {
		return kx - ky
	}
	return slices.Compare(x.groups, y.groups)
}

// partsMatch reports whether moving one process per part changes the
// totals by diff.
func partsMatch(parts []gsst.Part, diff []int) bool {
	delta := make(map[int]int, 2*len(parts))
	for _, p := range parts {
		delta[p.From]--
		delta[p.To]++
	}
	for s, d := range diff {
		if delta[s] != d {
			return false
		}
	}
	return true
}

// leadsTo reports whether st, taken by processes of groups from conf
// with the shared values shared after it, reaches b: its counters, and
// its group counters and shared values as far as b has them.
func (l *lifter) leadsTo(st *gsst.Step, conf gsst.Config, groups, shared []int, b State) bool {
	if b.Shared != nil && !slices.Equal(b.Shared, shared) {
		return false
	}
	next := l.sys.After(st, conf, groups, shared)
	if !slices.Equal(next.Totals(len(l.sys.States)), b.Counters) {
		return false
	}
	if b.Groups != nil {
		for g := range b.Groups {
			if !slices.Equal(next.Counts[g], b.Groups[g]) {
				return false
			}
		}
	}
	return true
}

// sameState reports whether a and b have the same counters and shared
// values.
func sameState(a, b State) bool {
	if !slices.Equal(a.Counters, b.Counters) || !slices.Equal(a.Shared, b.Shared) || len(a.Groups) != len(b.Groups) {
		return false
	}
	for g := range a.Groups {
		if !slices.Equal(a.Groups[g], b.Groups[g]) {
			return false
		}
	}
	return true
}

// StepOf returns the step of sys that a lifted step takes and the
// processes that take its parts, as gsst names them: the rendezvous it
// names, or the block of its transition that the first mover's group
// belongs to.
func StepOf(sys *gsst.System, st Step) (*gsst.Step, []gsst.Mover, error) {
	if st.Stutter {
		return nil, nil, fmt.Errorf("a stutter step moves no process")
	}
	steps := sys.Steps()
	for i := range steps {
		s := &steps[i]
		o := &s.Origin
		switch {
		case st.Environment != nil:
			if o.Environment != *st.Environment {
				continue
			}
			return s, nil, nil
		case st.Rendezvous != nil && o.Rendezvous != *st.Rendezvous,
			st.Rendezvous == nil && (o.Transition != st.Transition || len(s.Parts) == 0 || !s.Parts[0].Allows(st.Group)):
			continue
		}
		movers := []gsst.Mover{{Group: st.Group, Process: st.Process, From: st.From, To: st.To}}
		for _, m := range st.Also {
			movers = append(movers, gsst.Mover{Group: m.Group, Process: m.Process, From: m.From, To: m.To})
		}
		return s, movers, nil
	}
	return nil, nil, fmt.Errorf("no step of the system is that transition or rendezvous for group %d", st.Group)
}

// SameMoves reports whether lifted step st says that it moves exactly
// transferred with its transfers and leaves the shared values shared.
func SameMoves(sys *gsst.System, st Step, transferred []gsst.Mover, shared []int) bool {
	if len(st.Transferred) != len(transferred) {
		return false
	}
	for i, m := range transferred {
		got := st.Transferred[i]
		if got.Group != m.Group || got.Process != m.Process || got.From != m.From || got.To != m.To {
			return false
		}
	}
	return len(sys.Shared) == 0 || slices.Equal(st.Shared, shared)
}

// Matches reports whether state s is configuration c of sys: the same
// total counters, and the same group counters and shared values as far
// as s has them.
func (s State) Matches(sys *gsst.System, c gsst.Config) bool {
	if !slices.Equal(s.Counters, c.Totals(len(sys.States))) || s.Shared != nil && !slices.Equal(s.Shared, c.Shared) {
		return false
	}
	for g := range s.Groups {
		if !slices.Equal(s.Groups[g], c.Counts[g]) {
			return false
		}
	}
	return true
}
