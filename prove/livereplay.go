package prove

import (
	"context"
	"fmt"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
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

// liveQuickStates bounds the states of the search for a refutation
// that proveSettled runs before its prover (refuteLiveWithin), the
// whole search (searchStates) coming after the prover when it does not
// prove the property: the runs that refute the suites' properties are
// found within a few hundred states, where the search on an instance
// whose property holds explores it all (c1cs's tokens at n = 10:
// 102,395 states, 3.5 s).
const liveQuickStates = 5_000

// refuteLive explores the small instances of m's system under fairness
// for the property name, and fills res with the first fair run that
// fails it (found). A run that does not replay is an internal error.
func refuteLive(ctx context.Context, cfg config, m *counterabs.ParamModel, name string, res *Result) (found bool, err error) {
	return refuteLiveWithin(ctx, cfg, m, name, searchStates, res)
}

// refuteLiveWithin is refuteLive within states states in all: the same
// instances in the same order, each explored whole or not at all (an
// instance beyond what is left ends the search), so that what it finds
// is what refuteLive finds, and it finds nothing only where refuteLive
// finds nothing or explores more.
func refuteLiveWithin(ctx context.Context, cfg config, m *counterabs.ParamModel, name string, states int64, res *Result) (found bool, err error) {
	ts := m.TransitionSystem().Question(nil)
	budget := states
	// A family of one instance with finitely many initial
	// configurations is decided by exploring that instance whole.
	_, whole := oneInstance(m, ts)
	whole = whole && m.System.FiniteInitial() == nil
	insts := smallInstances(m, ts)
	res.noLasso = noLassoText
	if len(insts) == 0 {
		res.noLasso = noInstanceText
	}
	for k, params := range insts {
		if ctx.Err() != nil || budget <= 0 || k >= liveSearchInstances {
			return false, nil
		}
		if found, err := lassoAt(ctx, m, name, presburger.Counterexample{Params: params}, &budget, whole, res); err != nil || found {
			return found, err
		}
	}
	return false, nil
}

// What an unknown liveness verdict says of refuteLive's search: it
// explored instances and found no fair run that fails, or it had no
// instance to explore (smallInstances).
const (
	noLassoText    = "exploring the small instances found no fair run that fails"
	noInstanceText = "no instance with small parameter values and sizes meets the conditions of the property's premise on them, so none was explored for a fair run that fails"
)

// exploredInstance is the one instance of a family, as the group-counter
// model of its one property, whose reachable states (states of them)
// the explicit engine explored whole, the property holding on every
// fair run.
type exploredInstance struct {
	model  *counterabs.Model
	states int64
	// vacuous: no fair run starts in the initial state, so every
	// liveness property holds there.
	vacuous bool
}

// exploredWork bounds the symbolic engine's re-check of an explored
// instance, in decision-diagram nodes (a few seconds of work).
const exploredWork = 10_000_000

// exploredProof proves the liveness property of res, which the ranking
// argument left unknown, on a family of one instance that lassoAt
// explored whole: the symbolic engine decides the instance again,
// independently of the explicit engine, and the two agreeing that every
// fair run satisfies the property is the proof. A 3-process mutex whose
// response property holds with no fairness at all (every run must enter
// a trying state, and then the critical one) has 7 states, where the
// rank found does not decrease in every reachable pending state.
func exploredProof(ctx context.Context, name string, res *Result) error {
	e := res.explored
	res.explored = nil
	if res.Verdict != Unknown || res.Stopped || e == nil || ctx.Err() != nil {
		return nil
	}
	rep, err := symbolic.DefaultBDD().Check(ctx, e.model, explore.MaxWork(exploredWork), explore.Traces(false), explore.CountConcrete(false))
	if err != nil {
		if k := errkind.Of(err); k == errkind.Limit || k == errkind.Unknown {
			res.Reason += fmt.Sprintf("; the explicit engine explored the one instance (%d states) and found that the property holds, but the symbolic engine's re-check ran out of work", e.states)
			return nil
		}
		return err
	}
	pr := rep.Properties[0]
	if !pr.Holds || pr.Vacuous != e.vacuous || rep.ReachableStates == nil || rep.ReachableStates.Int64() != e.states {
		return errkind.Errorf(errkind.Internal, "on the one instance, the explicit engine finds that %s holds (vacuously: %v) in %d states, the symbolic engine that it holds: %v (vacuously: %v), in %v states", name, e.vacuous, e.states, pr.Holds, pr.Vacuous, rep.ReachableStates)
	}
	res.Verdict, res.Method, res.Exhausted = Proved, ByExploration, ""
	res.Reason = fmt.Sprintf("the family has one instance, and every fair run of it satisfies the property: its %d reachable states explored under fairness by the explicit engine, and again by the symbolic one", e.states)
	if e.vacuous {
		res.Reason = fmt.Sprintf("the family has one instance, and it has no fair run at all, so the property holds vacuously (the fairness constraints exclude every run): its %d reachable states explored under fairness by the explicit engine, and again by the symbolic one", e.states)
	}
	return nil
}

// refuteLiveAt explores the instance of cex (a run of the prover) as
// refuteLive explores each small one.
func refuteLiveAt(ctx context.Context, cfg config, m *counterabs.ParamModel, name string, cex presburger.Counterexample, res *Result) (found bool, err error) {
	budget := cfg.maxStates
	return lassoAt(ctx, m, name, cex, &budget, false, res)
}

// lassoAt explores the instance of cex's parameters under fairness for
// the property name, within *budget states (less what it visits), and
// fills res with the fair run that fails it, replayed (found). When the
// instance is the whole family (whole) and the property holds on every
// fair run of it, res.explored records the instance and its states
// (exploredProof turns that into a proof once the prover has none).
func lassoAt(ctx context.Context, m *counterabs.ParamModel, name string, cex presburger.Counterexample, budget *int64, whole bool, res *Result) (found bool, err error) {
	sys := m.System
	sizes, pvals, err := instanceValues(m, cex)
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
	// A shared variable that may start at any value from its least up:
	// the initial values up to the number of processes, some of the
	// instance's, where a fair run found is one of the instance's.
	inst = inst.WithProperties(idx).InitialsUpTo(inst.N())
	gm, err := counterabs.BuildGroup(inst, counterabs.RunSteps())
	if err != nil {
		return false, err
	}
	rep, err := explicit.Engine{}.Check(ctx, gm, explore.MaxStates(*budget), explore.Traces(true))
	if err != nil {
		if k := errkind.Of(err); k == errkind.Limit || k == errkind.Unknown {
			*budget = 0
			return false, nil
		}
		return false, err
	}
	if rep.ReachableStates != nil {
		*budget -= rep.ReachableStates.Int64()
	}
	pr := rep.Properties[0]
	if whole && pr.Holds && rep.ReachableStates != nil {
		res.explored = &exploredInstance{model: gm, states: rep.ReachableStates.Int64(), vacuous: pr.Vacuous}
	}
	if pr.Holds || pr.Vacuous {
		return false, nil
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

// replayLasso checks that tr's lifted run is a fair lasso of inst that
// fails inst's one property, a response property: every step is a step
// of the instance (explore.StepOf names it and its movers, gsst's
// CheckMovers decides whether they can take it; a stutter step only at a
// deadlock), the loop returns to the configuration it started from
// (every process in the same state, the same shared values), every
// justice condition holds in some configuration of the loop, every weak
// fairness constraint is taken or not enabled in some configuration of
// the loop (or the loop stutters), and after some point where the
// obligation opens (the initial configuration for AF q) no
// configuration of the run satisfies q.
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
	premise, start, trigger, q, j, _, ok := liveShape(inst.Properties[0].Formula)
	if !ok {
		return fmt.Errorf("the property is no liveness property prove decides")
	}
	startConf, err := startOf(inst, tr)
	if err != nil {
		return err
	}
	if !presburger.Eval(premise, inst.ValuationOf(startConf)) {
		return fmt.Errorf("the property's premise is false in the initial configuration of the run")
	}
	p := inst.NewProcs(startConf)
	fair := &inst.Fairness
	var vals []func(presburger.Var) int64
	var keys []string
	var enabled [][]bool // enabled[k][w]: weak constraint w can be taken in configuration k
	// idle[k][w]: a step by weak constraint w that leaves configuration
	// k as it is, when step k does too (else nil).
	var idle [][]*explore.Step
	for i := 0; ; i++ {
		c := p.Config()
		vals = append(vals, inst.ValuationOf(c))
		keys = append(keys, p.Key())
		if i == len(l.Steps) {
			break
		}
		en := make([]bool, len(fair.Weak))
		for w := range fair.Weak {
			e, err := canTake(inst, c, &fair.Weak[w])
			if err != nil {
				return err
			}
			en[w] = e
		}
		enabled = append(enabled, en)
		idle = append(idle, nil)
		st := l.Steps[i]
		if st.Stutter {
			succ, err := inst.Successors(c)
			if err != nil {
				return err
			}
			if len(succ) > 0 {
				return fmt.Errorf("step %d stutters where a process can move", i+1)
			}
			continue
		}
		step, movers, err := explore.StepOf(inst, st)
		if err != nil {
			return fmt.Errorf("step %d (%s): %v", i+1, st, err)
		}
		transferred, shared, err := inst.CheckMovers(step, p, movers)
		if err != nil {
			return fmt.Errorf("step %d (%s): %v", i+1, st, err)
		}
		p.Take(movers, transferred, shared)
		if p.Key() == keys[i] {
			idle[i] = make([]*explore.Step, len(fair.Weak))
			for w := range fair.Weak {
				idle[i][w] = idleStep(inst, p, st, &fair.Weak[w])
			}
		}
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
	// The property's own justice condition (liveShape) holds on the
	// whole loop: the run stays in it from some point on.
	for k := l.Loop; k <= end; k++ {
		if !presburger.Eval(j, vals[k]) {
			return fmt.Errorf("the property's fairness premise fails in configuration %d of the loop", k)
		}
	}
	meets := func(w int) bool {
		c := &fair.Weak[w]
		for k := l.Loop; k < end; k++ {
			st := l.Steps[k]
			if st.Stutter || !enabled[k][w] ||
				st.Transition == c.Transition && st.Rendezvous == nil && (c.Group < 0 || st.Group == c.Group) {
				return true
			}
		}
		return false
	}
	// The counters do not say which step an identity step of the model
	// was: lifting takes the first that leaves the configuration as it
	// is, and the loop may need another (t2 by a process of group g2
	// where lifting took t2 by one of g0). Such a step takes the place
	// of an identity step no other constraint needs, and then every
	// constraint is checked again on the loop as it is now.
	swapped := map[int]bool{}
	for w := range fair.Weak {
		for k := l.Loop; k < end && !meets(w); k++ {
			if idle[k] != nil && idle[k][w] != nil && !swapped[k] {
				l.Steps[k], swapped[k] = *idle[k][w], true
			}
		}
	}
	for w := range fair.Weak {
		if !meets(w) {
			return fmt.Errorf("the loop never meets weak fairness of %s", inst.WeakName(&fair.Weak[w]))
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

// idleStep returns a step by weak fairness constraint w that leaves
// configuration p as it is, written as the identity step st of the
// lifted run (which leaves p as it is too) with its mover changed; nil
// when w has no such step at p. Only local transitions that stay where
// they are, without transfers, qualify: they move no process.
func idleStep(inst *gsst.System, p *gsst.Procs, st explore.Step, w *gsst.Weak) *explore.Step {
	steps := inst.Steps()
	for i := range steps {
		step := &steps[i]
		if step.Origin.Transition != w.Transition || len(step.Parts) != 1 || len(step.Transfers) > 0 {
			continue
		}
		part := &step.Parts[0]
		if part.From != part.To {
			continue
		}
		for g := range inst.Groups {
			if !part.Allows(g) || w.Group >= 0 && g != w.Group {
				continue
			}
			for k := range p.Size(g) {
				if p.State(g, k) != part.From {
					continue
				}
				m := []gsst.Mover{{Group: g, Process: k, From: part.From, To: part.To}}
				transferred, shared, err := inst.CheckMovers(step, p, m)
				if err != nil || len(transferred) > 0 || !slices.Equal(shared, p.Shared) {
					break // every process of g in part.From alike
				}
				out := st
				out.Transition, out.Rendezvous, out.Environment, out.EnvironmentName = w.Transition, nil, nil, ""
				out.Group, out.GroupName, out.Process = g, inst.Groups[g].Name, k
				out.From, out.To, out.FromName, out.ToName = part.From, part.To, inst.States[part.From], inst.States[part.To]
				out.Also, out.Transferred = nil, nil
				return &out
			}
		}
	}
	return nil
}

// canTake reports whether some process (of the constraint's group, or
// of any group) can take the local transition of weak fairness
// constraint w in configuration c: whether one of the transition's steps
// is enabled there, its first part restricted to the group.
func canTake(inst *gsst.System, c gsst.Config, w *gsst.Weak) (bool, error) {
	steps := inst.Steps()
	for i := range steps {
		st := &steps[i]
		if st.Origin.Transition != w.Transition || len(st.Parts) == 0 {
			continue
		}
		if w.Group >= 0 {
			if !st.Parts[0].Allows(w.Group) {
				continue
			}
			r := st.Restrict(0, []int{w.Group})
			st = &r
		}
		ok, err := inst.Enabled(st, c)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}
