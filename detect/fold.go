package detect

import "github.com/vsym/vsym/presburger"

// tighten rewrites f into negation normal form without != (presburger.NNF)
// and replaces each atom whose truth the variable bounds decide by true or
// false. Query variables are small nonnegative counters, so the ranges
// computed here never overflow (counters are at most gsst.MaxProcesses and
// guard coefficients at most gsst.MaxConstant).
//
// The point is the guards' "#S[g] = 0": negated in !phi_r(y) it becomes
// "#S[g] < 0 | #S[g] > 0", whose first half the bounds refute. Leaving
// such disjunctions to the solver makes its case splits much larger.
func tighten(f presburger.Formula, bounds []presburger.Bound) presburger.Formula {
	box := make(map[presburger.Var]presburger.Bound, len(bounds))
	for _, b := range bounds {
		box[b.Var] = b
	}
	return fold(presburger.NNF(f), box)
}

func fold(f presburger.Formula, box map[presburger.Var]presburger.Bound) presburger.Formula {
	switch f := f.(type) {
	case presburger.Cmp:
		lo, hi, ok := termRange(f.T, box)
		if !ok {
			return f
		}
		switch {
		case holdsOn(f.Op, lo, hi):
			return presburger.True
		case holdsOn(f.Op.Negate(), lo, hi):
			return presburger.False
		}
		return f
	case presburger.And:
		out := make([]presburger.Formula, len(f))
		for i, g := range f {
			out[i] = fold(g, box)
		}
		return presburger.Conj(out...)
	case presburger.Or:
		out := make([]presburger.Formula, len(f))
		for i, g := range f {
			out[i] = fold(g, box)
		}
		return presburger.Disj(out...)
	}
	// Bool, and Exists or Not Exists left opaque by NNF.
	return f
}

// termRange returns the least and greatest value of t over the box (exact:
// each variable occurs once in a canonical term). ok is false when a
// variable has no bound.
func termRange(t presburger.Term, box map[presburger.Var]presburger.Bound) (lo, hi int64, ok bool) {
	lo, hi = t.Const, t.Const
	for _, m := range t.Monos {
		b, in := box[m.Var]
		if !in {
			return 0, 0, false
		}
		a, c := m.Coef*b.Lo, m.Coef*b.Hi
		if a > c {
			a, c = c, a
		}
		lo += a
		hi += c
	}
	return lo, hi, true
}

// holdsOn reports whether "x op 0" holds for every x in lo..hi.
func holdsOn(op presburger.Op, lo, hi int64) bool {
	switch op {
	case presburger.Eq:
		return lo == 0 && hi == 0
	case presburger.Ne:
		return hi < 0 || lo > 0
	case presburger.Lt:
		return hi < 0
	case presburger.Le:
		return hi <= 0
	case presburger.Gt:
		return lo > 0
	}
	return lo >= 0 // Ge
}
