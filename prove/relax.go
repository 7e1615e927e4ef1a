package prove

import (
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// relaxed returns ts with every guard weakened so that it no longer reads
// the model's local variables, or ok false when no guard has any (then
// the relaxed system would be ts itself).
//
// The total-counter model of a certified system guards a transition with
// "some split of the totals into group counters lets a process move":
// local variables for the group counters, one disjunct per group, and
// constraints tying them to the totals. Spacer and the affine hull carry
// all of that into every query; on GR&W with d groups it is d locals and
// O(d²) zero tests per guard, and d=100 costs seconds. Most safety
// properties follow from the part of each guard over totals and sizes
// alone (GR&W's mutual exclusion from "#Lm = 0"), so the relaxed system
// is tried first. Its runs include every run of ts (each relaxed guard is
// implied by the original: atoms reading locals become true in positive
// positions only), so an inductive invariant of the relaxed system is
// one of ts, and the caller re-checks it on ts to be sure. A refutation
// on the relaxed system proves nothing; the caller then asks ts.
func relaxed(m *counterabs.ParamModel, ts presburger.TransitionSystem) (presburger.TransitionSystem, bool) {
	local := map[presburger.Var]bool{}
	for _, t := range m.Transitions {
		for _, v := range t.Locals {
			local[v] = true
		}
	}
	if len(local) == 0 {
		return ts, false
	}
	out := ts
	out.Trans = make([]presburger.Formula, len(ts.Trans))
	for i, f := range ts.Trans {
		out.Trans[i] = weaken(f, local)
	}
	return out, true
}

// weaken replaces by true each maximal subformula of f that reads a
// variable of drop and is not a conjunction or disjunction: a formula f
// implies. Negations and quantifiers are kept whole or dropped whole,
// since weakening under a negation would strengthen.
func weaken(f presburger.Formula, drop map[presburger.Var]bool) presburger.Formula {
	switch f := f.(type) {
	case presburger.And:
		parts := make([]presburger.Formula, len(f))
		for i, g := range f {
			parts[i] = weaken(g, drop)
		}
		return presburger.Conj(parts...)
	case presburger.Or:
		parts := make([]presburger.Formula, len(f))
		for i, g := range f {
			parts[i] = weaken(g, drop)
		}
		return presburger.Disj(parts...)
	}
	for _, v := range presburger.FreeVars(f) {
		if drop[v] {
			return presburger.True
		}
	}
	return f
}
