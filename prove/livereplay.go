package prove

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Refutations of liveness properties: a fair lasso found by explore's
// explicit engine at a small instance (parameter values and ranged sizes
// up to searchMax, in order of their sum, as for safety in search.go),
// replayed process by process on the instance by the language's
// semantics (execution), with the fairness constraints checked along its
// loop and the property's failure checked along the run.

// liveSearchInstances bounds the instances explored for a refutation.
const liveSearchInstances = 40

// refuteLive explores the small instances of m's system under fairness
// for the property name, and fills res with the first fair run that
// fails it (found). A run that does not replay is an internal error.
func refuteLive(ctx context.Context, cfg config, m *counterabs.ParamModel, name string, res *Result) (found bool, err error) {
	sys := m.System
	ps := m.TransitionSystem()
	ts := presburger.TransitionSystem{Vars: ps.Vars, Next: ps.Next, Params: ps.Params, Domain: ps.Domain, Init: ps.Init, Trans: ps.Trans}
	budget := int64(searchStates)
	for k, params := range smallInstances(m, ts) {
		if ctx.Err() != nil || budget <= 0 || k >= liveSearchInstances {
			return false, nil
		}
		sizes, pvals, err := instanceValues(m, presburger.Counterexample{Params: params})
		if err != nil {
			return false, err
		}
		inst, err := sys.InstantiateParams(pvals, sizes)
		if err != nil {
			return false, errkind.Errorf(errkind.Internal, "the instance %s: %w", sys.FormatSizes(sizes), err)
		}
		idx := slices.IndexFunc(inst.Properties, func(p gsst.Property) bool { return p.Name == name })
		if idx < 0 {
			return false, errkind.Errorf(errkind.Internal, "the instance has no property %s", name)
		}
		inst = inst.WithProperties(idx)
		gm, err := counterabs.BuildGroup(inst)
		if err != nil {
			return false, err
		}
		rep, err := explicit.Engine{}.Check(ctx, gm, explore.MaxStates(budget), explore.Traces(true))
		if err != nil {
			if k := errkind.Of(err); k == errkind.Limit || k == errkind.Unknown {
				return false, nil
			}
			return false, err
		}
		if rep.ReachableStates != nil {
			budget -= rep.ReachableStates.Int64()
		}
		pr := rep.Properties[0]
		if pr.Holds || pr.Vacuous {
			continue
		}
		at := sys.FormatSizes(sizes)
		if len(pvals) > 0 {
			at = formatParams(sys, pvals) + " (" + at + ")"
		}
		if err := replayLasso(inst, pr.Trace); err != nil {
			return false, errkind.Errorf(errkind.Internal, "the fair run found at %s does not replay on the instance: %w", at, err)
		}
		res.Verdict, res.Trace, res.Sizes, res.Params, res.Instance = Refuted, pr.Trace, sizes, pvals, inst
		res.Reason = fmt.Sprintf("a fair run that never meets the obligation, found by exploring the instance %s with the explicit engine and replayed on it process by process; its loop meets every fairness constraint", at)
		return true, nil
	}
	return false, nil
}

// replayLasso checks that tr's lifted run is a fair lasso of inst that
// fails inst's one property, a response property: every step is a step
// of the instance (run's semantics; a stutter step only at a deadlock),
// the loop returns to the configuration it started from (every process
// in the same state, the same shared values), every justice condition
// holds in some configuration of the loop, every weak fairness
// constraint is taken or not enabled in some configuration of the loop
// (or the loop stutters), and after some point where the obligation
// opens (the initial configuration for AF q) no configuration of the run
// satisfies q.
func replayLasso(inst *gsst.System, tr *explore.Trace) error {
	if tr == nil || tr.Lifted == nil {
		return fmt.Errorf("no lifted run")
	}
	l := tr.Lifted
	if l.Error != "" {
		return fmt.Errorf("lifting: %s", l.Error)
	}
	if l.Loop < 0 || l.Loop >= len(l.Steps) {
		return fmt.Errorf("the run is no lasso (loop %d of %d steps)", l.Loop, len(l.Steps))
	}
	start, trigger, q, ok := counterabs.LivenessFormula(inst.Properties[0].Formula)
	if !ok {
		return fmt.Errorf("the property is no response property")
	}
	sizes := make([]int, len(inst.Groups))
	for g := range inst.Groups {
		sizes[g] = inst.Groups[g].Size
	}
	x, err := newExecution(inst, sizes, nil)
	if err != nil {
		return err
	}
	vals := []func(presburger.Var) int64{x.valuation()}
	keys := []string{x.key()}
	var canTake [][]bool // canTake[k][w]: weak constraint w enabled in configuration k
	fair := &inst.Fairness
	enabledWeak := func() []bool {
		out := make([]bool, len(fair.Weak))
		for w, c := range fair.Weak {
			out[w] = x.canTake(c.Transition, c.Group)
		}
		return out
	}
	for i, st := range l.Steps {
		canTake = append(canTake, enabledWeak())
		if st.Stutter {
			if !x.deadlocked() {
				return fmt.Errorf("step %d stutters where a process can move", i+1)
			}
		} else {
			mv := moveOf(inst, st)
			if err := x.step(i, &mv); err != nil {
				return err
			}
		}
		vals = append(vals, x.valuation())
		keys = append(keys, x.key())
	}
	end := len(l.Steps)
	if keys[end] != keys[l.Loop] {
		return fmt.Errorf("the loop does not return to configuration %d", l.Loop)
	}
	for _, c := range fair.Justice {
		met := false
		for k := l.Loop; k < end && !met; k++ {
			met = presburger.Eval(c.Formula, vals[k])
		}
		if !met {
			return fmt.Errorf("the loop never meets justice condition %s", c.Text)
		}
	}
	for w := range fair.Weak {
		c := &fair.Weak[w]
		met := false
		for k := l.Loop; k < end && !met; k++ {
			st := l.Steps[k]
			met = st.Stutter || !canTake[k][w] ||
				st.Transition == c.Transition && st.Rendezvous == nil && (c.Group < 0 || st.Group == c.Group)
		}
		if !met {
			return fmt.Errorf("the loop never meets weak fairness of %s", inst.WeakName(c))
		}
	}
	// The obligation opens at some configuration (only the first for
	// AF q) and q fails from there on, the loop included.
	for i := 0; i <= l.Loop; i++ {
		open := trigger
		if i == 0 {
			open = start
		}
		if !presburger.Eval(open, vals[i]) {
			continue
		}
		fails := true
		for k := i; k <= end && fails; k++ {
			fails = !presburger.Eval(q, vals[k])
		}
		if fails {
			return nil
		}
	}
	return fmt.Errorf("no configuration of the run opens an obligation that q never meets")
}

// moveOf turns a lifted step into the move run executes.
func moveOf(sys *gsst.System, st explore.Step) Move {
	mv := Move{Transition: st.Transition, Rendezvous: -1, sys: sys}
	first := st
	first.Also, first.Transferred = nil, nil
	mv.Movers = []explore.Step{first}
	if st.Rendezvous != nil {
		mv.Transition, mv.Rendezvous = -1, *st.Rendezvous
		for _, a := range st.Also {
			mv.Movers = append(mv.Movers, processStep(sys, -1, a.Group, a.Process, a.From, a.To))
		}
	}
	return mv
}

// canTake reports whether some process (of group g, any group when g is
// -1) can take local transition t in the configuration: it is in the
// source state, its block's guard holds, and every value the update
// assigns lies in its domain.
func (x *execution) canTake(t, g int) bool {
	tr := &x.sys.Transitions[t]
	val := x.valuation()
	for h := range x.sys.Groups {
		if g >= 0 && h != g {
			continue
		}
		b := tr.BlockOf(h)
		if b == nil || !slices.Contains(x.procs[h], tr.From) {
			continue
		}
		if presburger.Eval(b.Guard, val) && x.inDomain(&b.Update, val) {
			return true
		}
	}
	return false
}

// inDomain reports whether every value u assigns lies in its domain.
func (x *execution) inDomain(u *gsst.Update, val func(presburger.Var) int64) bool {
	for _, a := range u.Assign {
		j, ok := x.sys.SharedOf(a.Var)
		k := a.Value.Eval(val)
		if !ok || k < math.MinInt32 || k > math.MaxInt32 || !x.sys.Shared[j].Contains(int(k)) {
			return false
		}
	}
	return true
}

// deadlocked reports whether no step is possible: no process can take a
// local transition and no rendezvous finds its processes (distinct, of
// its parts' groups, in its parts' sources) with its guard true and its
// update in its domain.
func (x *execution) deadlocked() bool {
	for t := range x.sys.Transitions {
		if x.canTake(t, -1) {
			return false
		}
	}
	val := x.valuation()
	counts := x.counts()
	for ri := range x.sys.Rendezvous {
		r := &x.sys.Rendezvous[ri]
		if !presburger.Eval(r.Guard, val) || !x.inDomain(&r.Update, val) {
			continue
		}
		// Some choice of a group per part with enough processes.
		used := map[[2]int]int{}
		var fits func(k int) bool
		fits = func(k int) bool {
			if k == len(r.Parts) {
				return true
			}
			p := r.Parts[k]
			for g := range x.sys.Groups {
				if p.Groups != nil && !slices.Contains(p.Groups, g) {
					continue
				}
				key := [2]int{g, p.From}
				if counts[g][p.From] > used[key] {
					used[key]++
					ok := fits(k + 1)
					used[key]--
					if ok {
						return true
					}
				}
			}
			return false
		}
		if fits(0) {
			return false
		}
	}
	return true
}
