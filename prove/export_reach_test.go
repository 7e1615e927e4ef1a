package prove

import (
	"context"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// EquationAdmits says whether some bad state of ts solves the state
// equation of m (reachsearch.go) at the instance of the parameter
// values params and group sizes sizes; applies is false when the
// equation is not built for m, or the solver cannot tell.
func EquationAdmits(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem, params, sizes []int) (admits, applies bool) {
	q, ok := newReachEquation(m, ts)
	if !ok {
		return false, false
	}
	var vals []int64
	for _, v := range q.free {
		if k, ok := paramIndex(m, v); ok {
			vals = append(vals, int64(params[k]))
			continue
		}
		for g := range sizes {
			if m.SizeVar(g) == v {
				vals = append(vals, int64(sizes[g]))
			}
		}
	}
	return q.admits(ctx, solver, vals)
}

func paramIndex(m *counterabs.ParamModel, v presburger.Var) (int, bool) {
	for k := range m.System.Params {
		if m.ParamVar(k) == v {
			return k, true
		}
	}
	return 0, false
}

// SearchByEquation runs the search of the instances the state equation
// proposes, all of them (none counts as explored already).
func SearchByEquation(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem) *presburger.Counterexample {
	budget := searchStates
	return searchByEquation(ctx, solver, m, ts, -1, &budget)
}
