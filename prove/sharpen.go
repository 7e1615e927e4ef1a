package prove

import (
	"context"
	"slices"

	"github.com/vsym/vsym/presburger"
)

// A guard "x = n" that can only be reached from below is read by the
// prover as "x >= n" when the steps' own conjuncts settle x <= n (ByMC's
// nbacr with its commit threshold nsntYesCF >= N written
// nsntYesCF = n: unknown after 14 s of CPU, proved in 0.2 s when so
// read, as it is when written >= n). The lemmas given to the prover are
// conjuncts of every step, and so are the linear invariants, by the
// variables they define being eliminated; with the eliminated
// variables' ranges, they state the bound: the count
// nsntYesCF <= #SE + ... + #CR and the processes summing to n.

// sharpenEqualities returns ts with each comparison "t = 0" (or
// "t != 0") of its steps that the conjuncts common to every step,
// with facts, settle half of written as its other half: "t >= 0" where
// they imply t <= 0, "t <= 0" where they imply t >= 0 ("t < 0", "t > 0"
// for "t != 0"). A common conjunct holds wherever a step does, and
// facts must hold in every reachable state of ts, so each step relates
// the same reachable states as before: only the atom's form changes,
// and an invariant of the result, with facts, is one of ts. The terms
// are taken one at a time, each asked of the steps as the ones before
// it left them, and a conjunct that reads the comparison is no part of
// its own evidence. Only terms that read a variable of shared are
// rewritten: a one-process group's "#Live = 1" read as "#Live >= 1"
// cost Spacer its proof of mesh3x2 written with token processes
// (proved after 20 s of CPU as written, unknown after 66 s so). A term
// whose sign the domain alone settles on either side, or that reads a
// next-state variable (an update), is left as it is. ok is false when
// nothing changed.
func sharpenEqualities(ctx context.Context, solver presburger.Solver, ts presburger.TransitionSystem, facts presburger.Formula, shared map[presburger.Var]bool) (out presburger.TransitionSystem, ok bool) {
	if len(ts.Trans) == 0 {
		return ts, false
	}
	next := map[presburger.Var]bool{}
	for _, v := range ts.Next {
		next[v] = true
	}
	box := presburger.NewBox(ts.Domain)
	inBox := func(v presburger.Var) (presburger.Bound, bool) { b, ok := box[v]; return b, ok }
	var terms []presburger.Term
	for _, tr := range ts.Trans {
		for a := range presburger.Atoms(tr) {
			if a.Op != presburger.Eq && a.Op != presburger.Ne || readsAny(a.T, next) || !readsAny(a.T, shared) {
				continue
			}
			if r := a.T.Range(inBox); !r.NoHi && r.Hi <= 0 || !r.NoLo && r.Lo >= 0 {
				continue
			}
			if !slices.ContainsFunc(terms, a.T.Equal) {
				terms = append(terms, a.T)
			}
		}
	}
	_, bounds := ts.AnyStep()
	out = ts
	out.Trans = slices.Clone(ts.Trans)
	for _, t := range terms {
		reads := func(f presburger.Formula) bool {
			for a := range presburger.Atoms(f) {
				if (a.Op == presburger.Eq || a.Op == presburger.Ne) && a.T.Equal(t) {
					return true
				}
			}
			return false
		}
		evidence := append(slices.DeleteFunc(commonConjuncts(out.Trans), reads), facts)
		implied := func(op presburger.Op) bool {
			a, err := solver.Solve(ctx, presburger.Problem{Bounds: bounds,
				F: presburger.Conj(append(slices.Clip(evidence), presburger.Cmp{Op: op.Negate(), T: t})...)})
			return err == nil && a.Result == presburger.Unsat
		}
		var eq, ne presburger.Op
		switch {
		case implied(presburger.Le):
			eq, ne = presburger.Ge, presburger.Lt
		case implied(presburger.Ge):
			eq, ne = presburger.Le, presburger.Gt
		default:
			continue
		}
		for i, tr := range out.Trans {
			out.Trans[i] = presburger.MapAtoms(tr, func(a presburger.Cmp) presburger.Formula {
				switch {
				case !a.T.Equal(t):
				case a.Op == presburger.Eq:
					return presburger.Cmp{Op: eq, T: t}
				case a.Op == presburger.Ne:
					return presburger.Cmp{Op: ne, T: t}
				}
				return a
			})
		}
		ok = true
	}
	return out, ok
}

// commonConjuncts returns the top-level conjuncts that every formula of
// fs has, in the order of the first.
func commonConjuncts(fs []presburger.Formula) []presburger.Formula {
	key := func(f presburger.Formula) string { return presburger.Format(f, numbered) }
	count := map[string]int{}
	for _, f := range fs {
		seen := map[string]bool{}
		for _, c := range presburger.Conjuncts(f) {
			if k := key(c); !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	var out []presburger.Formula
	for _, c := range presburger.Conjuncts(fs[0]) {
		if k := key(c); count[k] == len(fs) {
			out = append(out, c)
			count[k] = 0 // once
		}
	}
	return out
}

// readsAny reports whether t reads a variable of vs.
func readsAny(t presburger.Term, vs map[presburger.Var]bool) bool {
	for _, m := range t.Monos {
		if vs[m.Var] {
			return true
		}
	}
	return false
}
