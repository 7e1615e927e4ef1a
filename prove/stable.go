package prove

import (
	"context"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Invariance after a stable premise: AG (p -> AG q).
//
// ByMC's specifications write "once the processes have chosen, ...
// forever" as p -> [](q), which translates as AG (p -> AG q) (or AG (p
// -> !EF r), AG !(p & EF r), !EF (p & EF r)). When p is stable, no step
// leading from a state where it holds to one where it does not, the
// property is the safety property AG (p -> q): a state reached from a
// reachable p-state is reachable and satisfies p, hence q; the other
// way, AG q at a state includes the state itself. stableProperties asks
// it so, once one query has shown p stable under every step of the
// group-counter model that a run may take (from any state, reachable or
// not; the steps no run takes are left out as for safety: stableUnder);
// otherwise the property stays as written, and skipped.

// stableProperties returns sys with each property AG (p -> AG q) whose
// p is stable asked as AG (p -> q), under the same name, and stable[i]
// true for each such property i; sys itself and nil when there is none.
func stableProperties(ctx context.Context, sys *gsst.System, solver presburger.Solver) (asked *gsst.System, stable []bool, err error) {
	props := append([]gsst.Property(nil), sys.Properties...)
	stable = make([]bool, len(props))
	some := false
	for i, p := range sys.Properties {
		if _, _, ok := counterabs.PremisedSafety(p.Formula); ok {
			continue
		}
		premise, g := counterabs.Premise(p.Formula)
		pre, q, ok := counterabs.PremisedInvariance(g)
		if !ok {
			continue
		}
		ok, err := stableUnder(ctx, sys, p, pre, solver)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			continue
		}
		f := ctl.Formula(ctl.Unary{Op: ctl.AG, X: ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: pre}, R: ctl.Atom{P: q}}})
		if premise != presburger.True {
			f = ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: premise}, R: f}
		}
		props[i].Formula, stable[i], some = f, true, true
	}
	if !some {
		return sys, nil, nil
	}
	asked, err = sys.WithDerivedProperties(props)
	if err != nil {
		return nil, nil, errkind.Errorf(errkind.Internal, "a property asked after its stable premise breaks the rules of properties: %w", err)
	}
	return asked, stable, nil
}

// foldStable gives the results of rep, asked on stableProperties'
// system, sys's properties, and says of each property asked as AG (p
// -> q) why in its model's reason.
func foldStable(rep *Report, sys *gsst.System, stable []bool) {
	rep.System = sys
	for i := range rep.Results {
		r := &rep.Results[i]
		r.Property = &sys.Properties[i]
		if stable[i] && r.Verdict != Skipped {
			r.LevelReason += "; asked as AG (p -> q), since no step leads from a state where its premise p holds to one where it does not"
		}
	}
}

// stableUnder reports whether no step of sys's group-counter model
// that a run may take leads from a state where pre holds to one where
// it does not (unknown counts as no). The model is built with the property AG pre alone, p's
// name and place, whose formula the model translates onto its
// variables.
func stableUnder(ctx context.Context, sys *gsst.System, p gsst.Property, pre presburger.Formula, solver presburger.Solver) (bool, error) {
	p.Formula = ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: pre}}
	one, err := sys.WithDerivedProperties([]gsst.Property{p})
	if err != nil {
		return false, errkind.Errorf(errkind.Internal, "the premise of %s as a property: %w", p.Name, err)
	}
	// Only the steps a run may take matter: p must hold after each
	// step taken from a reachable p-state. So the model is read as the
	// safety questions read theirs, without the steps out of states no
	// process of the step's group can ever be in (RunSteps: gsst's
	// MayOccupy) and, through firing, without the steps out of counters
	// no run raises or guarded by values no run gives, once checkCut
	// has checked on the whole model that those stay 0 and that no
	// such step is enabled there. A translation that lists a location
	// no process enters, with a step out of it into p's complement
	// (ByMC's frb with an unused state and a step from it into I: "#I
	// = 0 & chose0 = n" then looked unstable), states the same runs.
	m, err := counterabs.BuildParamGroup(one, counterabs.RunSteps())
	if err != nil {
		return false, err
	}
	if m, err = firing(ctx, solver, m); err != nil {
		return false, err
	}
	fp, ok := counterabs.SafetyFormula(m.Properties[0].Formula)
	if !ok {
		return false, nil
	}
	ts := m.TransitionSystem().Question(nil)
	step, bounds := ts.AnyStep()
	a, err := solver.Solve(ctx, presburger.Problem{Bounds: bounds, F: presburger.Conj(paramPart(ts), fp, step, presburger.Negation(ts.Prime(fp)))})
	if err != nil {
		return false, err
	}
	return a.Result == presburger.Unsat, nil
}
