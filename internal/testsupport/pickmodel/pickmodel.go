// Package pickmodel picks the counter model that the exports' random
// cross-checks (nusmv and promela TestReducedExt, TestSpinExt) run for
// a system that may use every construct. It is apart from testsupport because it
// builds models: counterabs's own tests use testsupport.
package pickmodel

import (
	"context"
	"errors"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// Pick returns the counter model for instance i of a random sequence:
// for every other instance (i odd) the system takes its properties over
// totals only (testsupport.TotalProperties) and the model is the
// total-counter model (counterabs.Build, total true) when the system's
// broadcasts allow it and the solver certifies it; otherwise it is the
// group-counter model (counterabs.BuildGroup). sys is the system of the
// model, whose properties are the ones to check.
func Pick(sys *gsst.System, i int, solver interface {
	presburger.Solver
	presburger.Projector
}) (_ *gsst.System, m *counterabs.Model, total bool, err error) {
	if i%2 == 1 {
		sys = testsupport.TotalProperties(sys)
		if counterabs.GroupReason(sys, true) != "" {
			// A broadcast restricted to groups: the group-counter model only.
		} else if m, err = counterabs.Build(context.Background(), sys, solver, solver); err == nil {
			return sys, m, true, nil
		} else if _, ok := errors.AsType[*counterabs.NotCertifiedError](err); !ok {
			return sys, nil, false, err
		}
	}
	m, err = counterabs.BuildGroup(sys)
	return sys, m, false, err
}
