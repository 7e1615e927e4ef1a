package prove

import (
	"context"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// Upper bounds in guards: the lossy reading of the backward search.
// A guard that counts processes from above ("#X = 0": no process in X;
// "#X + #Y <= 1") is not monotone: a step enabled in a state may be
// disabled in a larger one. Cubicle's "forall_other j. ..." guards and
// mist's zero tests are of that kind, and so are Cubicle's germanish
// and Chandra-Toueg examples as GSSTs, and their counter models are no
// well-structured systems. Abdulla, Delzanno, Ben Henda and Rezine's
// monotonic abstraction (TACAS 2007) reads such a system as a lossy one:
// a step may fire from a state x by first taking processes away from
// the variables its upper bounds read, down to a state x0 <= x that
// meets them, and then moving from x0 as the step does. The lossy
// system is monotone, it has every run of the model (take nothing
// away), and the backward search computes its pre-images exactly:
//
//   - The states from which step s leads above m, in the lossy system,
//     are those above some x0 that meets s's guard, caps included, with
//     s(x0) >= m. Without the caps those x0 form an upward-closed set
//     with minimal elements P (pre); the caps hold in a downward-closed
//     set, so the minimal x0 are the elements of P that meet the caps,
//     and the lossy pre-image is their upward closure (an x0 that meets
//     the caps is above some p in P, which meets them too).
//   - A fixpoint U of the lossy search is closed under the model's
//     pre-images as well, each a subset of the lossy one: the states
//     above no element are an inductive invariant of the model when no
//     initial state is in U. It is checked as every invariant is.
//   - A chain of elements from an initial state to a bad one is a run
//     of the model when each step's caps hold in the state the chain
//     passes through (walk checks them). Otherwise the lossy system
//     reaches a bad state that the model may not: the fixpoint would
//     hold an initial state, so the search ends with neither answer
//     (capped), and the prover goes on (Spacer, the lemmas, the small
//     instances), as it did before it read caps. A chain on its way to
//     a generalized element (coversample.go) whose caps fail ends the
//     search too: its states are reachable up to that step only, and
//     would not teach the sample to drop the guess.
//
// A cap reads a variable that has no greatest value (one with a bound
// is read exactly through its complement: complement.go), and not one
// that the linear invariants loosened (looseDomain): that one gets its
// bound back, exact again. The fusion of transient variables
// (coverfuse.go) leaves a capped variable alone, and the sample of
// reachable states (coversample.go) follows the model, caps included.
// Cubicle proves its germanish examples by the same abstraction of its
// universal guards; vsym's translations of them take 0.1-0.4 s.

// brokenCaps takes a chain through a step whose caps fail for a run,
// and brokenPreCaps reads the caps after the step instead of before it,
// for the tests that the cross-checks catch both (BreakCaps).
var brokenCaps, brokenPreCaps bool

// atMost reads t >= 0 (t > 0 when strict) as a cap, "sum of a*x <=
// bound" with every a positive, every x a state variable whose least
// value is at least 0 and that has neither a greatest value nor one the
// linear invariants dropped (the variable then wants its bound back:
// wantBound). ok is false for any other shape. A bound below 0 is a cap
// no state meets ("#B < 0", half of "#B != 0"), for the caller to read
// as a clause that never holds.
func (cs *coverSystem) atMost(index map[presburger.Var]int, t presburger.Term, strict bool) (a sumAtom, ok bool) {
	a.bound = t.Const
	if strict {
		a.bound--
	}
	if len(t.Monos) == 0 {
		return sumAtom{}, false
	}
	for _, mo := range t.Monos {
		j, isState := index[mo.Var]
		switch {
		case !isState || mo.Coef >= 0 || cs.comp[j] >= 0 || cs.lo[j] < 0:
			return sumAtom{}, false
		case cs.unbounded[j]:
			cs.wantBound = append(cs.wantBound, mo.Var)
			return sumAtom{}, false
		}
		a.vars = append(a.vars, j)
		a.coef = append(a.coef, -mo.Coef)
	}
	return a, true
}

// preCaps drops from ps, the minimal states from which step s leads
// above some vector (pre), those that do not meet s's caps.
func (cs *coverSystem) preCaps(s *coverStep, ps [][]int64) [][]int64 {
	if len(s.caps) == 0 {
		return ps
	}
	return slices.DeleteFunc(ps, func(x []int64) bool {
		if brokenPreCaps {
			return !withinCaps(s.caps, cs.apply(s, x))
		}
		return !withinCaps(s.caps, x)
	})
}

// withinCaps reports whether x meets every cap (a cap's variables are
// at least 0, so a sum beyond int64 is beyond the bound).
func withinCaps(caps []sumAtom, x []int64) bool {
	for _, a := range caps {
		s := int64(0)
		for j, v := range a.vars {
			var ok bool
			if s, ok = combine(1, s, a.coef[j], x[v]); !ok || s > a.bound {
				return false
			}
		}
	}
	return true
}

// Greatest values as caps (reading.ranged). A variable with a greatest
// value is read exactly through its complement (complement.go), but a
// transfer into it, "Oafterwait := Oafterwait + Owait" with both
// 0..1000, sets the complement to a sum less a constant, which the
// search meets only by splitting a deficit of a thousand over several
// variables (maxSumDeficit): mist's queuedbusyflag with its unbounded
// places written 0..1000 ended there at once, and was unknown after
// Spacer's 40 s. A step's guard checks that its update keeps every
// variable in its range (gsst's InDomain: "Oafterwait + Owait <= 1000",
// "Owait <= 999" for "Owait := Owait + 1"), so when a search of the
// exact reading ends with no answer, coverFirst reads the model again
// with the greatest values of the variables that may hold more than
// one dropped from the domain (a flag's, 0..1, stays exact): the range
// checks are then upper bounds in guards on variables with no greatest
// value, caps, read lossily as above, and what the lossy reading
// guarantees holds (every run of the model is one of the lossy system,
// the fixpoint's complement is an invariant of the model, checked as
// every one, and a chain through a step whose caps fail is no answer).

// rangedSystem is monotoneSystem with greatest values read as caps
// (reading.ranged); ok is false when the reading is not monotone or
// reads no variable so.
func rangedSystem(m *counterabs.ParamModel, ts presburger.TransitionSystem, lis []linearInvariant) (cs *coverSystem, ok bool) {
	cs, ok = monotoneAs(m, ts, lis, reading{ranged: true})
	return cs, ok && cs.ranged > 0
}

// againRanged is the backward search again, after out, the search of
// the exact reading, ended with no answer (out of work, or a sum with
// too many ways to be met): on the reading with greatest values as
// caps, when it reads some variable so, and its outcome when it
// answers or ends capped, else out.
func againRanged(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, lis []linearInvariant, out coverOutcome, work int64) coverOutcome {
	if out.cex != nil || out.invariant != nil || out.capped {
		return out
	}
	cs, ok := rangedSystem(m, ts, lis)
	if !ok {
		return out
	}
	if again := cs.backward(ctx, work); again.cex != nil || again.invariant != nil || again.capped {
		return again
	}
	return out
}
