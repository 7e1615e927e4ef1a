package prove

import (
	"context"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// A system whose group has one fixed size of many processes (Cubicle's
// crash as one instance of 1,000) is an instance of the family where
// that group has any size from 1 (gsst's WithRangedSizes), and what
// holds for every size holds there. The family's model is often the
// easier one: its initial states are upward closed where the instance
// fixes a sum at 1,000, which the backward search cannot count up to
// (cover.go, maxFixedTotal). So when the cheap steps fail on the
// instance, they are tried on the family (proveOnFamily), and an
// invariant found there is checked on the instance's own model like
// every invariant: nothing of the family is taken on trust. Crash at
// 1,000 ended unknown after 22 s and is proved in 0.2 s.

// familyModel is the model of that family, with a property's premise
// and phi there.
type familyModel struct {
	m            *counterabs.ParamModel
	premise, phi presburger.Formula
}

// familyModelOf returns the model of the family of sys (WithRangedSizes
// beyond searchMax) at the level of m (total, the total-counter model
// of the properties totalProps, or the group-counter model of
// groupProps), nil when sys has no such group or the family's model is
// of another level (its variables would not be the instance's).
func familyModelOf(ctx context.Context, sys *gsst.System, m, total *counterabs.ParamModel, totalProps, groupProps []int, solver, checker presburger.Solver) (*counterabs.ParamModel, error) {
	family, ok, err := sys.WithRangedSizes(searchMax)
	if err != nil || !ok {
		return nil, err
	}
	var fm *counterabs.ParamModel
	if m == total {
		fm, err = counterabs.BuildParam(ctx, family.WithProperties(totalProps...), solver)
	} else {
		fm, err = counterabs.BuildParamGroup(family.WithProperties(groupProps...))
	}
	if err != nil {
		return nil, err
	}
	if fm.Level != m.Level || fm.NumVars() != m.NumVars() {
		return nil, nil
	}
	return firing(ctx, checker, fm)
}

// proveOnFamily tries the cheap steps of proveOne (cfg.linearOnly) on
// the family f of m's system, and checks an invariant they find on ts,
// m's own transition system (tryProof): ok when it holds there.
func proveOnFamily(ctx context.Context, cfg config, m *counterabs.ParamModel, ts presburger.TransitionSystem, f *familyModel, name string, prover presburger.Prover, solver presburger.Solver, res *Result) (ok bool, err error) {
	fcfg := cfg
	fcfg.linearOnly, fcfg.timeout = true, 0
	var fres Result
	if err := proveOne(ctx, fcfg, f.m, f.premise, f.phi, name, nil, nil, prover, solver, &fres); err != nil {
		return false, err
	}
	if fres.Verdict != Proved || fres.Invariant == nil {
		return false, nil
	}
	ok, err = tryProof(ctx, cfg, m, ts, solver, res, fres.Method, fres.Invariant, false)
	if ok {
		res.LevelReason += "; the invariant was found on the family where the groups of a fixed size have any size from 1, and checked on this model"
	}
	return ok, err
}
