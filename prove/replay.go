package prove

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// refute turns the prover's counterexample into a refutation of property
// name at the counterexample's sizes and parameter values: the states it
// passes through become a trace of that instance, lifted to processes by
// explore.Lift and executed again step by step on the instance by
// execute, which reads the meaning of each step off the system (gsst's
// CheckMovers) and must end where the property fails. Under justice
// conditions the refutation stands only once explore has found a fair
// path through a bad state there; weak fairness alone excludes no
// finite run. A counterexample that does not replay is an internal
// error.
func refute(ctx context.Context, cfg config, m *counterabs.ParamModel, name string, cex presburger.Counterexample, res *Result) error {
	sys := m.System
	sizes, params, err := instanceValues(m, cex)
	if err != nil {
		return err
	}
	at := sys.FormatSizes(sizes)
	if len(params) > 0 {
		at = formatParams(sys, params) + " (" + at + ")"
	}
	inst, err := sys.InstantiateParams(params, sizes)
	if err != nil {
		return errkind.Errorf(errkind.Internal, "the counterexample at %s: %w", at, err)
	}
	var premise, phi presburger.Formula
	var prop gsst.Property
	index := -1
	for i, p := range inst.Properties {
		if p.Name == name {
			premise, phi, _ = counterabs.PremisedSafety(p.Formula)
			prop, index = p, i
		}
	}
	if phi == nil {
		return errkind.Errorf(errkind.Internal, "the instance has no safety property %s", name)
	}
	cex, isShortest := shortest(ctx, m, name, cex)
	tr, err := counterTrace(m, inst, cex, prop, isShortest)
	if err != nil {
		return err
	}
	// A shared variable that may start at any value from its least up:
	// the instance's initial configurations up to the run's start, which
	// are finitely many and some of the instance's.
	if len(tr.States) > 0 {
		inst = inst.InitialsUpTo(slices.Max(append([]int{0}, tr.States[0].Shared...)))
	}
	tr.Lifted = explore.Lift(ctx, inst, tr)
	if tr.Lifted.Error != "" {
		return errkind.Errorf(errkind.Internal, "the counterexample at %s does not replay on the instance: %s", at, tr.Lifted.Error)
	}
	if err := execute(inst, tr, premise, phi); err != nil {
		return errkind.Errorf(errkind.Internal, "the counterexample at %s does not replay on the instance: %w", at, err)
	}
	res.Sizes, res.Instance = sizes, inst
	if len(sys.Params) > 0 {
		res.Params = params
	}
	if len(inst.Fairness.Justice) == 0 {
		// Weak fairness alone excludes no finite run: from any
		// configuration, a scheduler that takes, of the constraints
		// enabled, the one taken longest ago (and stutters in a
		// deadlock) continues the run fairly, so a fair run passes
		// through the bad state.
		res.Verdict, res.Trace = Refuted, tr
		if len(inst.Fairness.Weak) > 0 {
			res.Reason = "weak fairness alone excludes no finite run: the run continues as a fair one (docs/prove.md, Fairness)"
		}
		return nil
	}
	return fairRefute(ctx, cfg, inst.WithProperties(index), tr, res)
}

// shortenStates bounds the search of shortest for a shorter run: a
// few milliseconds each. With 20,000 states the search found two more
// of the 418 runs of the translations of mist's nets to be shortest,
// and mist's kanban took 0.12 s instead of 0.01 (the published time is
// 0.00 s): its run of 48 steps is searched in vain.
const shortenStates = 2_000

// shortest returns a shortest run into a state where name's phi fails
// (from an initial state where its premise holds) in the instance of
// cex, a run of m, and true, when a breadth-first search of that
// instance (bfsWithin) for a shorter run than cex, within shortenStates
// states, finds one or visits every state within fewer steps than cex
// has. The runs of the backward search, of Spacer and of a joint
// question are runs, not always shortest ones (mist's simplejavaexample
// as a counter system: 15 steps where 10 reach the bad states at the
// same sizes), and the report says "a shortest path" only where it is
// one. Otherwise it returns cex, or a shorter run found from cex's
// initial state when a shared variable starts in a range (the search
// then starts where cex starts, and no shorter run from there shows
// nothing about the instance's other initial states), and false. The
// guards of m may read locals (group counters under a quantifier, which
// the search does not evaluate): the search then reads the group-counter
// model of the same system, and its run is summed over the groups.
func shortest(ctx context.Context, m *counterabs.ParamModel, name string, cex presburger.Counterexample) (presburger.Counterexample, bool) {
	if len(cex.Steps) == 0 {
		return cex, len(cex.States) == 1 // no run is shorter
	}
	on, params := m, presburger.Model{} // the model searched, and the instance there
	maps.Copy(params, cex.Params)
	if readsLocals(m) {
		g, err := counterabs.BuildParamGroup(m.System)
		if err != nil || len(rangedStarts(g)) > 0 {
			return cex, false
		}
		on, params = g, paramsOn(m, g, cex.Params)
	}
	ranged := rangedStarts(on)
	for _, i := range ranged {
		v := on.StateVar(i)
		params[v] = cex.States[0][v]
	}
	premise, phi := premisedSafetyOf(on, name)
	if phi == nil {
		return cex, false
	}
	budget := shortenStates
	found := bfsWithin(ctx, on, safetySystem(on, premise, phi), params, &budget, len(cex.Steps)-1, -1)
	switch {
	case found.cex != nil && on != m:
		run, projected := totalRun(on, m, *found.cex)
		if !projected {
			return cex, false
		}
		return run, len(ranged) == 0
	case found.cex != nil:
		return *found.cex, len(ranged) == 0
	case found.complete:
		return cex, len(ranged) == 0
	}
	return cex, false
}

// counterTrace writes the counterexample's states as a trace of the
// instance: totals, group counters for a group-counter model, and shared
// values; its one segment is a path into a state where p fails, a
// shortest one when isShortest says so.
func counterTrace(m *counterabs.ParamModel, inst *gsst.System, cex presburger.Counterexample, p gsst.Property, isShortest bool) (*explore.Trace, error) {
	tr := &explore.Trace{Kind: explore.Counterexample, Loop: -1}
	for j, st := range cex.States {
		totals := make([]int, len(inst.States))
		var groups [][]int
		if m.Level == counterabs.GroupLevel {
			groups = make([][]int, len(inst.Groups))
			for g := range groups {
				groups[g] = make([]int, len(inst.States))
			}
		}
		for i, c := range m.Counters {
			x := st[m.StateVar(i)]
			if x < 0 || x > gsst.MaxProcesses {
				return nil, errkind.Errorf(errkind.Internal, "counterexample state %d has %s = %d", j, m.VarName(m.StateVar(i)), x)
			}
			totals[c.State] += int(x)
			if groups != nil {
				groups[c.Group][c.State] = int(x)
			}
		}
		state := explore.SystemState(inst, totals, groups)
		if len(inst.Shared) > 0 {
			// A shared variable no step assigns is no state variable of
			// the model: it keeps its initial value.
			shared := inst.InitShared()
			for i := range m.Shared {
				k := m.SharedIndex(i)
				x := st[m.SharedVar(i)]
				v := &inst.Shared[k]
				if x < int64(v.Lo) || !v.Unbounded && x > int64(v.Hi) {
					return nil, errkind.Errorf(errkind.Internal, "counterexample state %d has %s = %d, outside its domain", j, v.Name, x)
				}
				if x > gsst.MaxValue || x < -gsst.MaxValue {
					// A run of the model past the integers vsym
					// represents (a premise "x > 10^9"): a limit of
					// vsym, not a defect.
					return nil, errkind.Errorf(errkind.Limit, "the run found has %s = %d in state %d, beyond the limit of %d that vsym's runs keep to", v.Name, x, j, gsst.MaxValue)
				}
				shared[k] = int(x)
			}
			state = state.WithShared(shared)
		}
		tr.States = append(tr.States, state)
	}
	last := len(tr.States) - 1
	target := p.Text
	if _, phi, ok := counterabs.PremisedSafety(p.Formula); ok {
		target = inst.FormatFormula(phi)
	}
	kind := explore.PathSegment
	if !isShortest {
		kind = explore.RunSegment
	}
	tr.Segments = []explore.Segment{{
		Formula: p.Text, Kind: kind, Start: 0, End: last, Target: target,
	}}
	return tr, nil
}

// execute runs the lifted steps of tr on inst from its initial
// configuration, checking each against the meaning of the system's steps
// (explore.StepOf names the step and its movers, gsst's CheckMovers
// decides whether they can take it and what else moves), and checks that
// the configurations are the trace's, that the premise holds at the
// start and that phi fails at the end: the refutation itself,
// independent of how the steps were chosen.
func execute(inst *gsst.System, tr *explore.Trace, premise, phi presburger.Formula) error {
	start, err := startOf(inst, tr)
	if err != nil {
		return err
	}
	p := inst.NewProcs(start)
	if len(tr.States) > 0 && !tr.States[0].Matches(inst, p.View()) {
		return errors.New("the run does not start in the trace's first state")
	}
	if !presburger.Eval(premise, inst.ValuationOf(p.View())) {
		return errors.New("the property's premise is false in the initial configuration of the run")
	}
	for i, st := range tr.Lifted.Steps {
		step, movers, err := explore.StepOf(inst, st)
		if err != nil {
			return fmt.Errorf("step %d (%s): %v", i+1, st, err)
		}
		transferred, shared, err := inst.CheckMovers(step, p, movers)
		if err != nil {
			return fmt.Errorf("step %d (%s): %v", i+1, st, err)
		}
		if !explore.SameMoves(inst, st, transferred, shared) {
			return fmt.Errorf("step %d (%s) does not say what the step moves and writes", i+1, st)
		}
		p.Take(movers, transferred, shared)
		if i+1 < len(tr.States) && !tr.States[i+1].Matches(inst, p.View()) {
			return fmt.Errorf("after step %d the configuration is not the trace's state %d", i+1, i+1)
		}
	}
	if presburger.Eval(phi, inst.ValuationOf(p.View())) {
		return errors.New("the property's condition holds at the end of the run")
	}
	return nil
}

// startOf returns the configuration the lifted run of tr starts from,
// checked to be an initial configuration of inst: its initial
// configurations' formula (gsst's InitialFormula, the one meaning of
// initial sets) holds there. With one initial configuration it is that
// one.
func startOf(inst *gsst.System, tr *explore.Trace) (gsst.Config, error) {
	if inst.SingleInitial() {
		return inst.InitConfig(), nil
	}
	if tr.Lifted == nil || tr.Lifted.Start.Counts == nil {
		return gsst.Config{}, errors.New("the run has no initial configuration")
	}
	start := tr.Lifted.Start.Clone()
	if !presburger.Eval(inst.InitialFormula(), inst.ValuationOf(start)) {
		return gsst.Config{}, errors.New("the run starts in a configuration that is not initial")
	}
	return start, nil
}

// fairRefute decides, by exploring the instance under its fairness
// constraints, whether AG phi, the one property of inst, fails there on
// a fair path. The prover's run reaches a bad state, but fair paths are
// fewer: explore's counterexample then shows a fair one.
func fairRefute(ctx context.Context, cfg config, inst *gsst.System, tr *explore.Trace, res *Result) error {
	gm, err := counterabs.BuildGroup(inst, counterabs.RunSteps())
	if err != nil {
		return err
	}
	at := inst.FormatSizes(res.Sizes)
	rep, err := explicit.Engine{}.Check(ctx, gm, explore.MaxStates(cfg.maxStates), explore.Traces(true))
	if err != nil {
		switch k := errkind.Of(err); {
		case k == errkind.Limit, k == errkind.Unknown:
			res.Verdict, res.Trace = Unknown, tr
			res.Reason = fmt.Sprintf("a state violating the property is reachable at %s, but whether a fair path passes through one is not known: exploring that instance stopped: %v", at, err)
			var lim *explore.LimitError
			if errors.As(err, &lim) && lim.Kind == "states" {
				res.Exhausted = StateBudget
			}
			return nil
		}
		return err
	}
	pr := rep.Properties[0]
	if !pr.Holds && !pr.Vacuous {
		res.Verdict, res.Trace = Refuted, pr.Trace
		res.Reason = fmt.Sprintf("a fair run (it meets every fairness constraint infinitely often), found by exploring the instance %s with the explicit engine", at)
		return nil
	}
	res.Verdict, res.Trace = Unknown, tr
	res.Reason = fmt.Sprintf("a state violating the property is reachable at %s, but no fair path passes through one there (the property holds under fairness at these sizes); other sizes were not examined", at)
	if pr.Vacuous {
		res.Reason = fmt.Sprintf("a state violating the property is reachable at %s, but no fair run from the initial state exists there (the fairness constraints exclude every run, so the property holds vacuously at these sizes); other sizes were not examined", at)
	}
	return nil
}

// instanceValues returns the group sizes and parameter values of a
// counterexample of m, checked against the system itself: each size in
// its group's range or equal to its term over the parameters and at
// least 1, every parameter nonnegative, the assumption true.
func instanceValues(m *counterabs.ParamModel, cex presburger.Counterexample) (sizes, params []int, err error) {
	sys := m.System
	params = make([]int, len(sys.Params))
	for k := range sys.Params {
		v, ok := cex.Params[m.ParamVar(k)]
		if !ok || v < 0 || v > gsst.MaxConstant {
			return nil, nil, errkind.Errorf(errkind.Internal, "counterexample with %s = %d", sys.Params[k].Name, v)
		}
		params[k] = int(v)
	}
	val := paramValuation(sys, params)
	if sys.Assume.Formula != nil && !presburger.Eval(sys.Assume.Formula, val) {
		return nil, nil, errkind.Errorf(errkind.Internal, "counterexample with parameters %s, where the assumption %s is false", formatParams(sys, params), sys.Assume.Text)
	}
	sizes = make([]int, len(sys.Groups))
	n := int64(0)
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		k, ok := cex.Params[m.SizeVar(g)]
		switch {
		case !ok || k < 1 && hasSizeTerm(grp) || k < 0 || k > gsst.MaxProcesses:
			return nil, nil, errkind.Errorf(errkind.Internal, "counterexample with size %d for group %s", k, grp.Name)
		case hasSizeTerm(grp) && grp.SizeTerm.Sub(presburger.ConstTerm(k)).Sign(val) != 0:
			return nil, nil, errkind.Errorf(errkind.Internal, "counterexample with size %d for group %s, whose size is %s = %s there", k, grp.Name, grp.SizeTermText, grp.SizeTerm.BigValue(val))
		case !hasSizeTerm(grp) && !grp.Allows(int(k)):
			return nil, nil, errkind.Errorf(errkind.Internal, "counterexample with size %d for group %s, outside its range %s", k, grp.Name, grp.SizeText())
		}
		sizes[g] = int(k)
		n += k
	}
	if got := cex.Params[m.NVar()]; got != n {
		return nil, nil, errkind.Errorf(errkind.Internal, "counterexample with n = %d, but its sizes sum to %d", got, n)
	}
	return sizes, params, nil
}

// hasSizeTerm reports whether g's size is a term over the parameters.
func hasSizeTerm(g *gsst.Group) bool { return g.OverParams() }

// paramValuation reads the parameters of sys at values params (any
// other variable reads 0).
func paramValuation(sys *gsst.System, params []int) func(presburger.Var) int64 {
	return func(v presburger.Var) int64 {
		if k, ok := sys.ParamOf(v); ok {
			return int64(params[k])
		}
		return 0
	}
}

// formatParams writes parameter values as "n=4, t=1".
func formatParams(sys *gsst.System, params []int) string {
	var out []string
	for k, p := range sys.Params {
		out = append(out, fmt.Sprintf("%s=%d", p.Name, params[k]))
	}
	return strings.Join(out, ", ")
}
