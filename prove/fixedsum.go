package prove

import (
	"context"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// Upper bounds that a fixed sum makes lower bounds. The counters of a
// group of one process sum to 1 in every state: "#flag_true = 0" then
// says "#flag_false >= 1", a guard the backward search reads exactly,
// where it reads "#flag_true <= 0" lossily (lossy.go) and may end on a
// chain through a step whose cap fails. A translation that writes a
// shared variable as such a group, "!(#Exgntd_true = 1)" for
// "!Exgntd" (Cubicle's germanish3, 4 and 5 so written: unknown after 11
// to 20 s), has such guards. In general, a linear invariant y.x = c
// with every weight at least 0 and c a constant at every instance (its
// parameters of one value each: a fixed size, n of fixed groups) adds
// to an atom t >= 0 that bounds some of its variables from above,
// lambda*(y.x - c), which is 0 in every reachable state, with lambda
// the least that leaves every weight of t nonnegative: the same atom
// on the states of the model, read from below. The search's runs go
// through reachable states only, where the two agree; its fixpoint is
// an invariant together with y.x = c, which the proof states
// (poolFacts) and the check of every proof checks. The search reads so
// after the lossy reading ended capped (againWithSums).

// noFixedSums turns the reading off, for the test that shows what it
// reads (NoFixedSums).
var noFixedSums = false

// againWithSums is the backward search again, after out, the search of
// the lossy reading, ended on a chain through a step whose caps fail
// (capped): on the reading with the fixed sums, when it reads some bound
// from below, and its answer when it has one, else out. The lossy
// reading comes first: where it answers, it costs less (ByMC's bosco at
// a fixed instance, n = 4: its bounds read from below are sums of nine
// counters at least 12, whose many ways to be met end the search, 0.28
// s, where the caps prove the properties in 0.02 s).
func againWithSums(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, lis []linearInvariant, out coverOutcome, work int64) coverOutcome {
	if !out.capped || noFixedSums {
		return out
	}
	cs, ok := monotoneAs(m, ts, lis, reading{fixed: true})
	if !ok || !slices.ContainsFunc(cs.fixed, func(fs fixedSum) bool { return fs.used }) {
		return out
	}
	if again := cs.backward(ctx, work); again.cex != nil || again.invariant != nil {
		return again
	}
	return out
}

// fixedSum is a linear invariant y.x = c with y >= 0 and c a constant:
// weight holds y by state variable.
type fixedSum struct {
	weight map[presburger.Var]int64
	c      int64
	fact   presburger.Formula
	used   bool
}

// fixedSums returns those of lis with every weight at least 0 and a
// right-hand side whose variables (the parameters) dom gives one value
// each.
func fixedSums(m *counterabs.ParamModel, lis []linearInvariant, dom map[presburger.Var]presburger.Bound) []fixedSum {
	single := func(v presburger.Var) bool {
		b, has := dom[v]
		return has && !b.NoLo && !b.NoHi && b.Lo == b.Hi
	}
	var out []fixedSum
	for _, li := range lis {
		if slices.ContainsFunc(li.coef, func(c int64) bool { return c < 0 }) ||
			slices.ContainsFunc(li.rhs.Monos, func(mo presburger.Mono) bool { return !single(mo.Var) }) {
			continue
		}
		c, ok := li.rhs.Value(func(v presburger.Var) int64 { return dom[v].Lo })
		if !ok {
			continue
		}
		fs := fixedSum{weight: map[presburger.Var]int64{}, c: c, fact: li.formula(m)}
		for i, w := range li.coef {
			if w > 0 {
				fs.weight[m.StateVar(i)] = w
			}
		}
		out = append(out, fs)
	}
	return out
}

// complemented reads t >= 0 (t > 0 when strict), which atLeast does not,
// as t + lambda*(y.x - c) >= 0 for the first fixed sum y.x = c that
// has a weight at every variable t bounds from above (but those with a
// complement of their own, which atLeast reads), and states that sum in
// the proofs. ok is false when none does, or the sum then is no lower
// bound either.
func (cs *coverSystem) complemented(index map[presburger.Var]int, t presburger.Term, strict bool) (a sumAtom, ok bool) {
	for k := range cs.fixed {
		fs := &cs.fixed[k]
		lambda, covered := int64(0), true
		for _, mo := range t.Monos {
			if j, isState := index[mo.Var]; mo.Coef >= 0 || isState && cs.comp[j] >= 0 {
				continue
			}
			w := fs.weight[mo.Var]
			if w <= 0 {
				covered = false
				break
			}
			lambda = max(lambda, checked.CeilDiv(-mo.Coef, w))
		}
		if !covered || lambda == 0 {
			continue
		}
		// u = t + lambda*(y.x - c)
		y := presburger.ConstTerm(-fs.c)
		fits := true
		for v, w := range fs.weight {
			if y, fits = y.AddExact(presburger.Term{Monos: []presburger.Mono{{Var: v, Coef: w}}}); !fits {
				break
			}
		}
		var u presburger.Term
		if fits {
			if y, fits = y.ScaleExact(lambda); fits {
				u, fits = t.AddExact(y)
			}
		}
		if !fits {
			continue
		}
		if a, ok = cs.atLeast(index, u, strict); ok {
			if !fs.used {
				fs.used = true
				cs.poolFacts = append(cs.poolFacts, fs.fact)
			}
			return a, true
		}
	}
	return sumAtom{}, false
}
