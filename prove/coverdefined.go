package prove

import (
	"context"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// A shared variable may count what the counters already count: Cubicle's
// array Shrset written as a shared integer nshr that every step setting
// or clearing a process's flag moves, with the guard "forall j.
// Shrset[j] = False" read as "nshr = 0". A linear invariant then defines
// it (nshr = the sum of the counters of the states with the flag set),
// and the backward search, which reads "nshr = 0" lossily as a bound on
// a variable of its own, loses what the sum says: germanish3 so written
// was unknown after 14 s, where its guards over the counters are proved
// in 0.04 s. So when the search fails, it runs again on the model whose
// guards read, in place of each shared variable a linear invariant
// defines, its value by that invariant. Its runs are those of the model
// (the invariants hold in every reachable state, where the guards agree),
// so a run it finds is a run of the system, replayed as any; and an
// invariant I it proves, with the linear invariants, is an inductive
// invariant of the model (a step from a state of I where the invariants
// hold is a step of both), which is checked again on the model itself.

// definedShared returns m with its guards reading, in place of each
// shared variable that one of lis defines (coefficient 1 or -1), its
// value by that invariant, and the definitions with the linear
// invariants (a step preserves them all from a state where they all
// hold: linearInvariants leaves out only steps that none such takes);
// ok is false when no guard reads such a variable.
func definedShared(m *counterabs.ParamModel, lis []linearInvariant) (defined *counterabs.ParamModel, facts presburger.Formula, ok bool) {
	def := map[presburger.Var]presburger.Term{}
	var used []presburger.Formula
	for _, li := range lis {
		for j := range m.Shared {
			i := len(m.Counters) + j
			v := m.StateVar(i)
			c := li.coef[i]
			if _, done := def[v]; done || c != 1 && c != -1 {
				continue
			}
			// c*v + sum of the others = rhs.
			t := li.rhs
			for k, ck := range li.coef {
				if k != i && ck != 0 {
					t = t.Sub(presburger.VarTerm(m.StateVar(k)).Scale(ck))
				}
			}
			def[v] = inCounters(m, t.Scale(c))
			used = append(used, presburger.Compare(presburger.VarTerm(v), presburger.Eq, def[v]))
			break
		}
	}
	if len(def) == 0 {
		return nil, nil, false
	}
	g := *m
	g.Transitions = slices.Clone(m.Transitions)
	for i := range g.Transitions {
		t := &g.Transitions[i]
		if !slices.ContainsFunc(presburger.FreeVars(t.Guard), func(v presburger.Var) bool { _, ok := def[v]; return ok }) {
			continue
		}
		t.Guard = presburger.Subst(t.Guard, func(v presburger.Var) presburger.Term {
			if x, ok := def[v]; ok {
				return x
			}
			return presburger.VarTerm(v)
		})
		ok = true
	}
	return &g, presburger.Conj(append(used, linearConj(m, lis))...), ok
}

// inCounters returns t, a shared variable's value by a linear
// invariant, with each pool's sum added to it as many times as makes
// the pool's counters' coefficients nonnegative (the least of them
// zero), then n written as the sum of the sizes and each fixed size as
// its value: the elimination gives "nshr = |proc| - (the counters
// without the flag)", which the search reads as a bound on those, where
// the same value is "the counters with the flag", a bound the guard
// puts on them.
func inCounters(m *counterabs.ParamModel, t presburger.Term) presburger.Term {
	coef := func(v presburger.Var) int64 {
		for _, mo := range t.Monos {
			if mo.Var == v {
				return mo.Coef
			}
		}
		return 0
	}
	for _, p := range m.Pools {
		least := int64(0)
		for _, c := range p.Counters {
			least = min(least, coef(m.StateVar(c)))
		}
		if least == 0 {
			continue
		}
		// t - least * (sum of the counters - Sum), the same value.
		for _, c := range p.Counters {
			t = t.Sub(presburger.VarTerm(m.StateVar(c)).Scale(least))
		}
		t = t.Add(p.Sum.Scale(least))
	}
	// n is the sum of the sizes, and a fixed size is its value: the
	// pools' sums read them, the invariants their values.
	sys := m.System
	size := func(g int) presburger.Term {
		if grp := &sys.Groups[g]; !grp.Ranged && !grp.OverParams() {
			return presburger.ConstTerm(int64(grp.Size))
		}
		return presburger.VarTerm(m.SizeVar(g))
	}
	return t.Subst(func(v presburger.Var) presburger.Term {
		if v == m.NVar() {
			var n presburger.Term
			for g := range sys.Groups {
				n = n.Add(size(g))
			}
			return n
		}
		for g := range sys.Groups {
			if v == m.SizeVar(g) {
				return size(g)
			}
		}
		return presburger.VarTerm(v)
	})
}

// coverDefined is coverFirst on definedShared's model of m, the proof
// checked again on m (ts) with the invariants used; ok is false when
// no guard reads a shared variable that lis define, or the search
// decides nothing.
func coverDefined(ctx context.Context, cfg config, m *counterabs.ParamModel, ts presburger.TransitionSystem, premise, phi presburger.Formula, lis []linearInvariant, name string, solver presburger.Solver, res *Result) (ok, lossyReach bool, err error) {
	g, facts, defined := definedShared(m, lis)
	if !defined {
		return false, false, nil
	}
	on := *res
	ok, lossyReach, err = coverFirst(ctx, cfg, g, safetySystem(g, premise, phi), lis, name, solver, &on)
	if !ok || err != nil || on.Verdict != Proved {
		if ok && err == nil {
			*res = on // a refutation, replayed on the system
		}
		return ok, lossyReach, err
	}
	ok, err = tryProof(ctx, cfg, m, ts, solver, res, ByCoverability, presburger.Conj(on.Invariant, facts), true)
	return ok, lossyReach, err
}
