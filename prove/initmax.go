package prove

import (
	"context"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// The monotone candidates w.x <= w.x0 (monotone.go) read x0 from the
// first initial state. Where the initial states are several, a
// candidate true of the first may be false of others, and the filter
// drops it, though w.x never grows past its greatest initial value:
// ByMC's nbacr at a fixed n = 1,000 with the premise "#NO >= 1" (the
// processes spread over NO and YES, at least one in NO) needs #YES +
// nsntYesCF <= 999, where the first initial state gives 0 and every
// process in YES 1,000; the prover ran out of work without it. With
// the parameters fixed, that greatest value is a number, found by
// asking the solver of the initial states (the premise included) alone.

// maxInitialQueries bounds the solver's queries of raiseToInitial.
const maxInitialQueries = 400

// raiseToInitial returns cands with each candidate "t <= 0" (t linear)
// that some initial state of ts violates rewritten as "t <= c" for the
// least c that every initial state satisfies, when ts's parameters are
// fixed and c is found within the queries; the others as they are.
// They stay candidates: the filter checks them.
func raiseToInitial(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem, cands []Lemma) []Lemma {
	if m.SingleInitial() {
		return cands
	}
	fixed := map[presburger.Var]int64{}
	// The fixed parameters, and every variable whose range is one value
	// (the sizes and n at fixed sizes, a shared variable that keeps one).
	sys := m.System
	for k := range sys.Params {
		if p := &sys.Params[k]; p.Fixed {
			fixed[m.ParamVar(k)] = int64(p.Value)
		}
	}
	for _, b := range ts.Domain {
		if b.Finite() && b.Lo == b.Hi {
			fixed[b.Var] = b.Lo
		}
	}
	for _, v := range ts.Params {
		if _, ok := fixed[v]; !ok {
			return cands
		}
	}
	queries := 0
	// exceeds reports whether some initial state has t > c (ok false
	// when the solver cannot tell or the queries are spent).
	exceeds := func(t presburger.Term, c int64) (yes, ok bool) {
		if queries++; queries > maxInitialQueries {
			return false, false
		}
		a, err := solver.Solve(ctx, presburger.Problem{Bounds: ts.Domain, F: presburger.Conj(ts.Init, presburger.Compare(t, presburger.Gt, presburger.ConstTerm(c)))})
		if err != nil || a.Result == presburger.Unknown {
			return false, false
		}
		return a.Result == presburger.Sat, true
	}
	out := make([]Lemma, len(cands))
	for i, l := range cands {
		out[i] = l
		c, isCmp := l.Formula.(presburger.Cmp)
		if !isCmp || c.Op != presburger.Le {
			continue
		}
		// t = the state part, k = the rest at the fixed parameters:
		// the candidate is t + k <= 0, t <= -k.
		var t presburger.Term
		k := c.T.Const
		for _, mo := range c.T.Monos {
			if v, isParam := fixed[mo.Var]; isParam {
				k += mo.Coef * v // sizes and parameters: small, no overflow
				continue
			}
			t = t.Add(presburger.Term{Monos: []presburger.Mono{mo}})
		}
		if len(t.Monos) == 0 {
			continue // a bound on the parameters alone
		}
		lo := -k // some initial state exceeds lo, or the candidate stays
		if yes, ok := exceeds(t, lo); !ok || !yes {
			continue
		}
		// Double the step until no initial state exceeds lo + step.
		hi, found := int64(0), false
		for step := int64(1); step <= 1<<40; step *= 2 {
			yes, ok := exceeds(t, lo+step)
			if !ok {
				break
			}
			if !yes {
				hi, found = lo+step, true
				break
			}
			lo += step
		}
		if !found {
			continue
		}
		// Some initial state exceeds lo, none exceeds hi.
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			yes, ok := exceeds(t, mid)
			if !ok {
				found = false
				break
			}
			if yes {
				lo = mid
			} else {
				hi = mid
			}
		}
		if !found {
			continue
		}
		f := presburger.Compare(t, presburger.Le, presburger.ConstTerm(hi))
		out[i] = Lemma{Kind: l.Kind, Formula: f, Text: FormatInvariant(f, m.VarName, m.TypedAtom)}
	}
	return out
}
