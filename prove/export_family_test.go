package prove

import (
	"context"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// ProveOnFamily answers sys's first property, a safety property over
// total counters, by the cheap steps on the family of sys alone
// (proveOnFamily), as Check does once they fail on the instance: ok
// says that sys has a family of the instance's level to try.
func ProveOnFamily(ctx context.Context, sys *gsst.System, solver presburger.Solver) (res Result, ok bool, err error) {
	m, err := counterabs.BuildParam(ctx, sys.WithProperties(0), solver)
	if err != nil {
		return res, false, err
	}
	if m, err = firing(ctx, solver, m); err != nil {
		return res, false, err
	}
	fm, err := familyModelOf(ctx, sys, m, m, []int{0}, nil, solver, solver)
	if err != nil || fm == nil {
		return res, false, err
	}
	name := sys.Properties[0].Name
	premise, phi := premisedSafetyOf(m, name)
	fpremise, fphi := premisedSafetyOf(fm, name)
	if phi == nil || fphi == nil {
		return res, false, nil
	}
	cfg := config{maxStates: 1_000_000, maxWork: lastWork}
	res.Level, res.LevelReason = m.Level, m.Reason
	_, err = proveOnFamily(ctx, cfg, m, safetySystem(m, premise, phi), &familyModel{m: fm, premise: fpremise, phi: fphi}, name, nil, solver, &res)
	return res, true, err
}
