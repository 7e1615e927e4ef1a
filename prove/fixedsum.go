package prove

import (
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// Upper bounds that a fixed sum makes lower bounds. A group of a fixed
// size has its processes' counters sum to that size in every state:
// "#X = 0" then says that the others hold them all, "#X' + #X'' >= 10"
// with ten processes, a guard the backward search reads exactly, where
// it reads "#X <= 0" lossily (lossy.go). A translation that fixes the
// size (Cubicle's crash with "proc: 10", ended unknown while "proc: 1.."
// was proved in 0.3 s), or that writes a flag as a group of one process
// in two states, "!(#flag_true = 1)" (germanish3 so written: unknown at
// 16 s), has such guards. In general, a linear invariant y.x = c with
// every weight at least 0 and c a constant at every instance (its
// parameters of one value each: a fixed size, n of fixed groups) adds
// to an atom t >= 0 that bounds some of its variables from above,
// lambda*(y.x - c), which is 0 in every reachable state, with lambda
// the least that leaves every weight of t nonnegative: the same atom
// on the states of the model, read from below. The search's runs go
// through reachable states only, where the two agree; its fixpoint is
// an invariant together with y.x = c, which the proof states
// (poolFacts) and the check of every proof checks.

// maxFixedSplits bounds the ways to meet a sum that complemented
// reads (splits): a bound on the few counters of a one-process group
// becomes "#flag_false >= 1", one way, but "#X = 0" over a fixed group
// of ten in thirty states becomes a sum of twenty-nine counters at
// least 10, millions of minimal states, where the lossy reading of the
// cap (lossy.go) costs nothing (ByMC's bosco at n = 4, t = 1, f = 1:
// 0.02 s so, 0.28 s with the sums).
const maxFixedSplits = 16

// splits returns the number of minimal ways to meet a: the
// distributions of its bound over its variables when their weights are
// 1, or more than maxFixedSplits.
func splits(a sumAtom) int64 {
	if a.bound <= 0 || len(a.vars) <= 1 {
		return 1
	}
	// C(bound + v - 1, v - 1), stopped past the bound.
	ways := int64(1)
	for i := int64(1); i < int64(len(a.vars)); i++ {
		ways = ways * (a.bound + i) / i
		if ways > maxFixedSplits {
			return ways
		}
	}
	return ways
}

// noFixedSums turns the reading off, for the test that shows what it
// reads (NoFixedSums).
var noFixedSums = false

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
		if a, ok = cs.atLeast(index, u, strict); ok && splits(a) <= maxFixedSplits {
			if !fs.used {
				fs.used = true
				cs.poolFacts = append(cs.poolFacts, fs.fact)
			}
			return a, true
		}
	}
	return sumAtom{}, false
}
