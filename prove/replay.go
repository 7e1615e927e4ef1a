package prove

import (
	"context"
	"errors"
	"fmt"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// refute turns the prover's counterexample into a refutation of property
// name at the counterexample's sizes, replayed on the instance of those
// sizes; under fairness, only once explore has found a fair path through
// a bad state there. A counterexample that does not replay is an
// internal error.
func refute(ctx context.Context, cfg config, m *counterabs.ParamModel, name string, cex presburger.Counterexample, res *Result) error {
	sys := m.System
	sizes := make([]int, len(sys.Groups))
	n := int64(0)
	for g := range sys.Groups {
		k, ok := cex.Params[m.SizeVar(g)]
		if !ok || k < 0 || k > gsst.MaxProcesses {
			return errkind.Errorf(errkind.Internal, "counterexample with size %d for group %s", k, sys.Groups[g].Name)
		}
		sizes[g] = int(k)
		n += k
	}
	if got := cex.Params[m.NVar()]; got != n {
		return errkind.Errorf(errkind.Internal, "counterexample with n = %d, but its sizes sum to %d", got, n)
	}
	inst, err := sys.Instantiate(sizes)
	if err != nil {
		return errkind.Errorf(errkind.Internal, "counterexample at sizes %s: %w", sys.FormatSizes(sizes), err)
	}
	var phi presburger.Formula
	var prop gsst.Property
	at := -1
	for i, p := range inst.Properties {
		if p.Name == name {
			phi, _ = counterabs.SafetyFormula(p.Formula)
			prop, at = p, i
		}
	}
	if phi == nil {
		return errkind.Errorf(errkind.Internal, "the instance has no safety property %s", name)
	}
	tr, err := counterTrace(m, inst, cex, prop)
	if err != nil {
		return err
	}
	tr.Lifted = explore.Lift(inst, tr)
	if tr.Lifted.Error != "" {
		return errkind.Errorf(errkind.Internal, "the counterexample at sizes %s does not replay on the instance: %s", sys.FormatSizes(sizes), tr.Lifted.Error)
	}
	if err := execute(inst, tr.Lifted.Steps, phi); err != nil {
		return errkind.Errorf(errkind.Internal, "the counterexample at sizes %s does not replay on the instance: %w", sys.FormatSizes(sizes), err)
	}
	res.Sizes, res.Instance = sizes, inst
	if inst.Fairness.Empty() {
		res.Verdict, res.Trace = Refuted, tr
		return nil
	}
	return fairRefute(ctx, cfg, inst.WithProperties(at), tr, res)
}

// counterTrace writes the counterexample's states as a trace of the
// instance: totals, and group counters for a group-counter model.
func counterTrace(m *counterabs.ParamModel, inst *gsst.System, cex presburger.Counterexample, p gsst.Property) (*explore.Trace, error) {
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
			x := st[presburger.Var(i)]
			if x < 0 || x > gsst.MaxProcesses {
				return nil, errkind.Errorf(errkind.Internal, "counterexample state %d has %s = %d", j, m.VarName(presburger.Var(i)), x)
			}
			totals[c.State] += int(x)
			if groups != nil {
				groups[c.Group][c.State] = int(x)
			}
		}
		tr.States = append(tr.States, explore.SystemState(inst, totals, groups))
	}
	last := len(tr.States) - 1
	target := p.Text
	if phi, ok := counterabs.SafetyFormula(p.Formula); ok {
		target = presburger.Format(phi, inst.VarName)
	}
	tr.Segments = []explore.Segment{{
		Formula: p.Text, Kind: explore.PathSegment, Start: 0, End: last, Target: target,
	}}
	return tr, nil
}

// execute runs the process moves steps from the initial configuration
// of inst, checking each (the process is in the move's source state and
// its group's guard holds), and checks that phi fails at the end: the
// refutation itself, independent of how the moves were found.
func execute(inst *gsst.System, steps []explore.Step, phi presburger.Formula) error {
	proc := make([][]int, len(inst.Groups))
	vals := make([]int64, inst.NumVars())
	val := func(v presburger.Var) int64 {
		if v < 0 || int(v) >= len(vals) {
			return 0
		}
		return vals[v]
	}
	for g := range inst.Groups {
		for s, k := range inst.Init[g] {
			for range k {
				proc[g] = append(proc[g], s)
				vals[s]++
				vals[inst.GroupVar(s, g)]++
			}
		}
	}
	for i, st := range steps {
		if st.Stutter || st.Transition < 0 || st.Transition >= len(inst.Transitions) ||
			st.Group < 0 || st.Group >= len(proc) || st.Process < 0 || st.Process >= len(proc[st.Group]) {
			return fmt.Errorf("step %d (%s) is no move of the instance", i+1, st)
		}
		t := &inst.Transitions[st.Transition]
		b := t.BlockOf(st.Group)
		switch {
		case t.From != st.From || t.To != st.To:
			return fmt.Errorf("step %d (%s) names transition %s", i+1, st, inst.TransitionName(t))
		case proc[st.Group][st.Process] != t.From:
			return fmt.Errorf("step %d (%s): the process is in %s", i+1, st, inst.States[proc[st.Group][st.Process]])
		case b == nil || !presburger.Eval(b.Guard, val):
			return fmt.Errorf("step %d (%s): the guard of group %s is false", i+1, st, inst.Groups[st.Group].Name)
		}
		proc[st.Group][st.Process] = t.To
		vals[t.From]--
		vals[t.To]++
		vals[inst.GroupVar(t.From, st.Group)]--
		vals[inst.GroupVar(t.To, st.Group)]++
	}
	if presburger.Eval(phi, val) {
		return errors.New("the property's condition holds at the end of the run")
	}
	return nil
}

// fairRefute decides, by exploring the instance under its fairness
// constraints, whether AG phi, the one property of inst, fails there on
// a fair path. The prover's run reaches a bad state, but fair paths are
// fewer: explore's counterexample then shows a fair one.
func fairRefute(ctx context.Context, cfg config, inst *gsst.System, tr *explore.Trace, res *Result) error {
	gm, err := counterabs.BuildGroup(inst)
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
