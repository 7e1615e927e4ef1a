package presburger

import "iter"

// Atoms returns an iterator over the comparisons of f, left to right,
// those under a quantifier included (a bound variable reads as any
// other). It is for the questions asked of every atom (is a constant
// too large, which variables does an atom read together); a rewrite of
// the atoms goes through the formula's own structure instead.
func Atoms(f Formula) iter.Seq[Cmp] {
	return func(yield func(Cmp) bool) { eachAtom(f, yield) }
}

// eachAtom yields f's comparisons and reports whether every yield asked
// for more.
func eachAtom(f Formula, yield func(Cmp) bool) bool {
	switch f := f.(type) {
	case Cmp:
		return yield(f)
	case Not:
		return eachAtom(f.F, yield)
	case And:
		return eachOf(f, yield)
	case Or:
		return eachOf(f, yield)
	case Exists:
		return eachAtom(f.Body, yield)
	}
	return true
}

func eachOf(fs []Formula, yield func(Cmp) bool) bool {
	for _, g := range fs {
		if !eachAtom(g, yield) {
			return false
		}
	}
	return true
}
