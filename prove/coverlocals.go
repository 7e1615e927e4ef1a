package prove

import (
	"context"
	"maps"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// The backward search (cover.go) reads no guard with locals, and the
// total-counter model of a certified system whose guards count the
// processes of a group (readers and writers, or a Petri net written
// with a group per rule) has them: its guards quantify over the group
// counters. The group-counter model has those counters as variables and
// is exact for every GSST, so the search reads it in the total-counter
// model's place. Its fixpoint proves the property on the group-counter
// model, which the answer then names; its run, summed over the groups,
// is a run of the total-counter model (that model is the existential
// abstraction of the group counters, and certified exact), and is
// answered there, replayed on that model and then on the instance, as
// every run is.

// coverModel is a property on the model the backward search reads in
// place of the one proveOne is asked about (Check's coverGroup), with
// its premise and phi there.
type coverModel struct {
	m            *counterabs.ParamModel
	premise, phi presburger.Formula
}

// coverOnGroups is coverFirst on cover's model for the property of
// total (with ts its system), whose guards have locals. A run in an
// instance larger than the least is replaced by a shortest run in the
// smallest instance that has one, when the small-instance search on
// the group-counter model finds it: readers want the least instance,
// which the backward search does not look for (printers.yaml's run is
// at staff=3, guest=1 there, at staff=1, guest=2 so).
func coverOnGroups(ctx context.Context, cfg config, total *counterabs.ParamModel, ts presburger.TransitionSystem, cover *coverModel, name string, solver presburger.Solver, res *Result) (ok, lossyReach bool, err error) {
	m := cover.m
	gts := safetySystem(m, cover.premise, cover.phi)
	cs, monotone := monotoneSystem(m, gts, linearInvariants(m, varSet(cover.phi)))
	if !monotone {
		return false, false, nil
	}
	out := cs.backward(ctx, cfg.coverWork())
	switch {
	case out.invariant != nil:
		if ok, err = tryProof(ctx, cfg, m, gts, solver, res, ByCoverability, out.invariant, true); ok {
			res.Level, res.LevelReason = m.Level, m.Reason
		}
	case out.cex != nil:
		cex, method := *out.cex, ByCoverability
		if sizes, _, err := instanceValues(m, cex); err == nil && !cfg.joint && !leastSizes(m, sizes) {
			a, found, err := searchRun(ctx, m, gts, solver)
			if err != nil {
				return false, out.capped, err
			}
			if found {
				cex, method = *a.Counterexample, BySearch
			}
		}
		// The run summed over the groups, replayed on the total-counter
		// model here (refuteBy's replay, once), then on the instance.
		if run, projected := totalRun(m, total, cex); projected && presburger.Replay(ctx, solver, ts, run) == nil {
			res.Method = method
			return true, out.capped, answer(ctx, cfg, total, ts, presburger.SafetyAnswer{Verdict: presburger.Refuted, Counterexample: &run}, nil, name, solver, res)
		}
		// The run as it is, replayed on the group-counter model.
		if ok, err = refuteBy(ctx, cfg, m, gts, method, "the run of the backward coverability search", cex, name, solver, res); ok {
			res.Level, res.LevelReason = m.Level, m.Reason
		}
	}
	return ok, out.capped, err
}

// leastSizes says whether sizes are the least of m's groups.
func leastSizes(m *counterabs.ParamModel, sizes []int) bool {
	bounds := m.SizeBounds()
	for g, n := range sizes {
		if int64(n) > bounds[g].Lo {
			return false
		}
	}
	return true
}

// paramsOn returns the instance p of model from (its sizes, n and
// parameters) as the same instance of model to, a model of the same
// system at another level.
func paramsOn(from, to *counterabs.ParamModel, p presburger.Model) presburger.Model {
	out := presburger.Model{to.NVar(): p[from.NVar()]}
	for k := range from.System.Groups {
		out[to.SizeVar(k)] = p[from.SizeVar(k)]
	}
	for k := range from.System.Params {
		out[to.ParamVar(k)] = p[from.ParamVar(k)]
	}
	return out
}

// totalRun is cex, a run of the group-counter model g, as a run of the
// total-counter model t of the same system: each state's counters summed
// by state, the shared variables, sizes and parameters as they are, and
// each step the transition of t that has its step of the system.
// projected is false when some value or step has no counterpart in t
// (the caller replays the run on t all the same).
func totalRun(g, t *counterabs.ParamModel, cex presburger.Counterexample) (run presburger.Counterexample, projected bool) {
	counterOf := map[int]presburger.Var{} // state -> t's counter
	for i, c := range t.Counters {
		counterOf[c.State] = t.StateVar(i)
	}
	sharedOf := map[int]presburger.Var{} // system index -> t's variable
	for i := range t.Shared {
		sharedOf[t.SharedIndex(i)] = t.SharedVar(i)
	}
	state := func(x presburger.Model) (presburger.Model, bool) {
		y := presburger.Model{}
		for v := range counterOf {
			y[counterOf[v]] = 0
		}
		for i, c := range g.Counters {
			v, ok := counterOf[c.State]
			if !ok {
				if x[g.StateVar(i)] != 0 {
					return nil, false
				}
				continue
			}
			y[v] += x[g.StateVar(i)]
		}
		for i := range g.Shared {
			v, ok := sharedOf[g.SharedIndex(i)]
			if !ok {
				return nil, false
			}
			y[v] = x[g.SharedVar(i)]
		}
		return y, true
	}
	run.Params = paramsOn(g, t, cex.Params)
	for _, x := range cex.States {
		y, ok := state(x)
		if !ok {
			return run, false
		}
		run.States = append(run.States, y)
	}
	states := []presburger.Model{run.States[0]}
	for i, j := range cex.Steps {
		steps := g.Transitions[j].Steps
		k := slices.IndexFunc(t.Transitions, func(tr counterabs.ParamTransition) bool {
			return len(steps) > 0 && slices.Contains(tr.Steps, steps[0])
		})
		// A step that changes no total (a rendezvous whose parts trade
		// places across groups) is none of t, which firing leaves
		// without its stutters: the run of t stays where it is.
		switch {
		case k >= 0:
			run.Steps = append(run.Steps, k)
			states = append(states, run.States[i+1])
		case !maps.Equal(run.States[i], run.States[i+1]):
			return run, false
		}
	}
	run.States = states
	return run, true
}
