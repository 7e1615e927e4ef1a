package prove

import (
	"context"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// SearchSmall runs the explicit search of small instances and of those
// the state equation proposes (search.go, reachsearch.go).
func SearchSmall(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem) *presburger.Counterexample {
	return searchSmall(ctx, solver, m, ts)
}

// SearchInstances returns the first n instances that SearchSmall
// explores, in its order (searchInstances).
func SearchInstances(m *counterabs.ParamModel, ts presburger.TransitionSystem, n int) []presburger.Model {
	var out []presburger.Model
	for p := range searchInstances(m, ts) {
		if len(out) == n {
			break
		}
		out = append(out, p)
	}
	return out
}

// SearchReached is the number of instances SearchSmall always reaches:
// each may visit instanceStates states of searchStates in all.
const SearchReached = searchStates / instanceStates

// SearchMax is the greatest parameter value, size and initial value
// (from the least up) of the small instances.
const SearchMax = searchMax

// InstanceStates is the budget of states of one instance of the
// small-instance search.
const InstanceStates = instanceStates
