package detect

import (
	"context"
	"fmt"
	"slices"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Asymmetry returns the asymmetric configurations of item (a transition,
// or rendezvous item - len(Transitions): an index into Report.Results):
// those from which some configuration with the same total counters and
// shared values has a step of the item to an orbit that no step of
// theirs reaches. For a transition of the paper, those where no process
// can take it although a configuration with the same total counters
// lets one. The formula reads the system's group counters, total
// counters and shared variables (GroupVar, TotalVar, SharedVar). It is
// the item's certification query with its enabled side eliminated by p,
// so it is empty exactly when the item is certified.
//
// sys must have fixed sizes and parameters: the question is about one
// instance (gsst's Instantiate, InstantiateParams).
func Asymmetry(ctx context.Context, sys *gsst.System, item int, p presburger.Projector) (presburger.Formula, error) {
	if sys.Parametric() {
		return nil, errkind.Errorf(errkind.Input, "detect: Asymmetry needs an instance of fixed sizes and parameters")
	}
	if item < 0 || item >= len(sys.Transitions)+len(sys.Rendezvous)+len(sys.Environment) {
		return nil, errkind.Errorf(errkind.Input, "detect: no transition, rendezvous or environment step %d", item)
	}
	var steps []*gsst.Step
	all := sys.Steps()
	for k := range all {
		if itemOf(sys, &all[k]) == item {
			steps = append(steps, &all[k])
		}
	}
	if symmetric(sys, steps) {
		return presburger.False, nil
	}
	q := newQuery(sys, members(sys), item, map[[2]int]bool{}, false)
	f := q.formula([2]int{0, len(q.own)})
	if f == presburger.False {
		return presburger.False, nil
	}
	// Keep the disabled side: its group counters, the totals (shared by
	// both sides) and the shared values.
	back := map[presburger.Var]presburger.Var{}
	for c, s := range q.groupS {
		for g := range sys.Groups {
			back[q.groupVar(0, c, g)] = sys.GroupVar(s, g)
		}
	}
	for _, list := range [][]int{q.groupS, q.totalS} {
		for _, s := range list {
			back[q.totalVar(q.tvar[s])] = sys.TotalVar(s)
		}
	}
	for j := range sys.Shared {
		back[q.sharedVar(j)] = sys.SharedVar(j)
	}
	keep := make([]presburger.Var, 0, len(back))
	for v := range back {
		keep = append(keep, v)
	}
	slices.Sort(keep)
	g, res, err := p.Project(ctx, presburger.Problem{Bounds: q.bounds, F: f}, keep)
	switch {
	case err != nil:
		return nil, err
	case res == presburger.Unknown:
		return nil, errkind.Errorf(errkind.Unknown, "detect: the asymmetric configurations of %s could not be computed (the projection answered unknown)", itemName(sys, item))
	case res == presburger.Unsat:
		return presburger.False, nil
	}
	return presburger.Rename(g, func(v presburger.Var) presburger.Var {
		if w, ok := back[v]; ok {
			return w
		}
		panic(fmt.Sprintf("detect: the projection kept variable %d", v))
	}), nil
}
