package explore

import (
	"fmt"

	"slices"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Limits on unrolling a loop while lifting a lasso.
const (
	maxLiftUnroll = 1000
	maxLiftSteps  = 20_000
)

// LiftTrace lifts a trace (nil: nothing) and its branches to the
// unreduced system sys, setting their Lifted fields.
func LiftTrace(sys *gsst.System, tr *Trace) {
	if tr == nil {
		return
	}
	tr.Lifted = Lift(sys, tr)
	for _, b := range tr.Branches {
		LiftTrace(sys, b)
	}
}

// Lift replays tr on the unreduced system sys, one process move per step,
// tracking the concrete configuration from the initial one (processes of
// each group placed in state order, see Lifted). For each step it picks
// the first transition with the step's source and target states, the
// first group (the one named by the trace's group counters, when present)
// whose block guard holds in the current configuration and that has a
// process in the source state, and that group's lowest-numbered such
// process. The choice depends only on the configuration, so a loop is
// unrolled until a configuration at the loop's start repeats.
//
// Lifting always succeeds for a trace of a certified model: full virtual
// symmetry means a move enabled for one configuration with given total
// counters is enabled for all of them. On an uncertified model the path
// to the loop is searched depth first over the other choices of group;
// when no choice works, Lift returns the steps that got furthest and says
// why in Error.
func Lift(sys *gsst.System, tr *Trace) *Lifted {
	out := &Lifted{Steps: []Step{}, Loop: -1}
	if tr == nil || len(tr.States) == 0 {
		return out
	}
	l := newLifter(sys)
	if err := l.checkStart(tr.States[0]); err != nil {
		out.Error = err.Error()
		return out
	}
	// Stem: every step of the trace. The first choice at each step is the
	// one documented above; should it lead to a step with no matching
	// move (only possible on an uncertified model), other groups are
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
	first := newLifter(sys)
	for i := 0; i < tr.Loop; i++ {
		first.apply(out.Steps[i])
	}
	seen := map[string]int{first.confKey(): tr.Loop}
	for iter := 0; ; iter++ {
		// Close the loop: last state back to States[Loop].
		st, err := l.step(tr.States[len(tr.States)-1], tr.States[tr.Loop])
		if err != nil {
			out.Error = fmt.Sprintf("loop step: %v", err)
			return out
		}
		out.Steps = append(out.Steps, st)
		key := l.confKey()
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

// lifter tracks a concrete configuration: proc[g][k] is the local state
// of process k of group g, and vals the counter valuation (totals and
// group counters) for guard evaluation.
type lifter struct {
	sys  *gsst.System
	proc [][]int
	vals []int64
	// Beyond the paper (lift_ext.go): ext is set for a system with
	// constructs beyond it, and shared holds the shared values (also in
	// vals, at their variables); nil when the system has none.
	ext    bool
	shared []int
}

func newLifter(sys *gsst.System) *lifter {
	l := &lifter{sys: sys, proc: make([][]int, len(sys.Groups)), vals: make([]int64, sharedLen(sys)), ext: sys.Extensions() != 0}
	if len(sys.Shared) > 0 {
		l.shared = make([]int, len(sys.Shared))
		l.setShared(sys.InitShared())
	}
	for g := range sys.Groups {
		for s := range sys.States {
			if g < len(sys.Init) && s < len(sys.Init[g]) {
				for k := 0; k < sys.Init[g][s]; k++ {
					l.proc[g] = append(l.proc[g], s)
					l.vals[s]++
					l.vals[sys.GroupVar(s, g)]++
				}
			}
		}
	}
	return l
}

func (l *lifter) checkStart(st State) error {
	for s := range l.sys.States {
		if s >= len(st.Counters) || int64(st.Counters[s]) != l.vals[s] {
			return fmt.Errorf("the trace does not start in the initial configuration")
		}
	}
	if st.Shared != nil && !slices.Equal(st.Shared, l.shared) {
		return fmt.Errorf("the trace does not start with the initial shared values")
	}
	return nil
}

func (l *lifter) val(v presburger.Var) int64 {
	if v < 0 || int(v) >= len(l.vals) {
		return 0
	}
	return l.vals[v]
}

// holds evaluates a block guard in the configuration; a missing guard
// (never produced by the GSST checker) counts as false.
func (l *lifter) holds(f presburger.Formula) bool {
	return f != nil && presburger.Eval(f, l.val)
}

func (l *lifter) confKey() string {
	var b []byte
	for _, ps := range l.proc {
		for _, s := range ps {
			b = append(b, byte(s), byte(s>>8), byte(s>>16))
		}
	}
	for _, v := range l.shared {
		b = fmt.Appendf(b, ",%d", v)
	}
	return string(b)
}

func (l *lifter) apply(st Step) {
	if st.Stutter {
		return
	}
	l.proc[st.Group][st.Process] = st.To
	l.vals[st.From]--
	l.vals[st.To]++
	l.vals[l.sys.GroupVar(st.From, st.Group)]--
	l.vals[l.sys.GroupVar(st.To, st.Group)]++
	if l.ext {
		l.applyExt(st)
	}
}

// enabled reports whether some process can move in the configuration.
func (l *lifter) enabled() bool {
	if l.ext {
		return l.extEnabled()
	}
	sys := l.sys
	for ti := range sys.Transitions {
		t := &sys.Transitions[ti]
		for g := range sys.Groups {
			b := t.BlockOf(g)
			if b != nil && l.vals[sys.GroupVar(t.From, g)] > 0 && l.holds(b.Guard) {
				return true
			}
		}
	}
	return false
}

// maxLiftSearch bounds the choices tried when lifting a path.
const maxLiftSearch = 100_000

// liftPath lifts the path states[0] ... states[last] from the current
// configuration, leaving the lifter at its end. On failure it returns the
// steps of the first attempt up to the step that failed furthest along.
func (l *lifter) liftPath(states []State) ([]Step, error) {
	var steps, best []Step
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
				best, bestErr = append([]Step(nil), steps...), fmt.Errorf("step %d: %v", i+1, err)
			}
			return false
		}
		for _, c := range cands {
			if budget--; budget < 0 {
				return false
			}
			l.apply(c)
			steps = append(steps, c)
			if rec(i + 1) {
				return true
			}
			steps = steps[:len(steps)-1]
			l.undo(c)
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
	for _, c := range best {
		l.apply(c)
	}
	return best, bestErr
}

// step applies the first candidate move from a to b.
func (l *lifter) step(a, b State) (Step, error) {
	cands, err := l.candidates(a, b)
	if err != nil {
		return Step{}, err
	}
	l.apply(cands[0])
	return cands[0], nil
}

func (l *lifter) undo(st Step) {
	if st.Stutter {
		return
	}
	if l.ext {
		l.undoExt(st)
		l.move(st.Group, st.Process, st.To, st.From)
		return
	}
	l.apply(Step{Group: st.Group, Process: st.Process, From: st.To, To: st.From})
}

// candidates lists the process moves taking the configuration's counters
// from a to b, in order of preference: by transition, then group, each
// with the group's lowest-numbered process in the source state (the
// processes of a group in one state are interchangeable).
func (l *lifter) candidates(a, b State) ([]Step, error) {
	if l.ext {
		return l.extCandidates(a, b)
	}
	sys := l.sys
	from, to := -1, -1
	for s := range sys.States {
		if s >= len(a.Counters) || s >= len(b.Counters) {
			return nil, fmt.Errorf("malformed trace state")
		}
		switch b.Counters[s] - a.Counters[s] {
		case 0:
		case -1:
			if from >= 0 {
				return nil, fmt.Errorf("counters change by more than one move")
			}
			from = s
		case 1:
			if to >= 0 {
				return nil, fmt.Errorf("counters change by more than one move")
			}
			to = s
		default:
			return nil, fmt.Errorf("counters change by more than one move")
		}
	}
	if from < 0 && to < 0 {
		if hint := groupDiff(a, b); hint != -2 && hint != -1 {
			return nil, fmt.Errorf("group counters change without a move")
		}
		if l.enabled() {
			return nil, fmt.Errorf("the counter model stutters (deadlock) but a process can move in the concrete configuration")
		}
		return []Step{{Stutter: true, Transition: -1, Group: -1, Process: -1, From: -1, To: -1}}, nil
	}
	if from < 0 || to < 0 {
		return nil, fmt.Errorf("counters do not sum up")
	}
	hint := groupDiff(a, b)
	var out []Step
	for ti := range sys.Transitions {
		t := &sys.Transitions[ti]
		if t.From != from || t.To != to {
			continue
		}
		for g := range sys.Groups {
			if hint >= 0 && g != hint {
				continue
			}
			blk := t.BlockOf(g)
			if blk == nil || l.vals[sys.GroupVar(from, g)] == 0 || !l.holds(blk.Guard) {
				continue
			}
			for k, s := range l.proc[g] {
				if s == from {
					out = append(out, Step{Transition: ti, Group: g, GroupName: sys.Groups[g].Name, Process: k,
						From: from, To: to, FromName: sys.States[from], ToName: sys.States[to]})
					break
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no process can move from %s to %s in the concrete configuration "+
			"(the counter model allows it: it is not exact here)", sys.States[from], sys.States[to])
	}
	return out, nil
}

// groupDiff returns the group whose counters differ between a and b, -1
// when the states carry no group counters, or -2 when none differ.
func groupDiff(a, b State) int {
	if a.Groups == nil || b.Groups == nil || len(a.Groups) != len(b.Groups) {
		return -1
	}
	for g := range a.Groups {
		for s := range a.Groups[g] {
			if s < len(b.Groups[g]) && a.Groups[g][s] != b.Groups[g][s] {
				return g
			}
		}
	}
	return -2
}
