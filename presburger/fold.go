package presburger

// FoldBounds replaces every atom of f whose truth the bounds decide (the
// term's range over the box lies wholly on one side of zero) by true or
// false. The result is equivalent to f for every assignment inside the box
// (a variable bounded more than once lies in the intersection). An atom
// over a variable without a bound or with an open range, or whose range
// would overflow int64, is left as it is, and so is an Exists (its body may rebind box variables).
//
// The point is atoms such as "x < 0" for a counter x in 0..n, which arise
// from negated equalities ("x != 0" as "x < 0 | x > 0") and from the copies
// of the bounds that quantifier elimination leaves: they would enlarge a
// solver's case splits for nothing.
func FoldBounds(f Formula, bounds []Bound) Formula {
	box := make(map[Var]Bound, len(bounds))
	for _, b := range Intersect(bounds) {
		box[b.Var] = b
	}
	return foldBounds(f, box)
}

func foldBounds(f Formula, box map[Var]Bound) Formula {
	return foldAtoms(f, func(t Term) (int64, int64, bool) { return termRange(t, box) })
}

// foldAtoms replaces every atom "t op 0" of f by true or false when op
// holds, or fails, on the whole range lo..hi that rng gives for t (ok
// false: no range known). Exists is left as it is.
func foldAtoms(f Formula, rng func(Term) (lo, hi int64, ok bool)) Formula {
	switch f := f.(type) {
	case Cmp:
		lo, hi, ok := rng(f.T)
		if !ok {
			return f
		}
		switch {
		case holdsOn(f.Op, lo, hi):
			return True
		case holdsOn(f.Op.Negate(), lo, hi):
			return False
		}
		return f
	case Not:
		return Negation(foldAtoms(f.F, rng))
	case And:
		out := make([]Formula, len(f))
		for i, g := range f {
			out[i] = foldAtoms(g, rng)
		}
		return Conj(out...)
	case Or:
		out := make([]Formula, len(f))
		for i, g := range f {
			out[i] = foldAtoms(g, rng)
		}
		return Disj(out...)
	}
	return f // Bool, Exists
}

// termRange returns the least and greatest value of t over the box. Each
// variable occurs once in a canonical term, so the range is exact when the
// box is not empty. ok is false when a variable of t has no bound or a
// value of the range does not fit in int64.
func termRange(t Term, box map[Var]Bound) (lo, hi int64, ok bool) {
	for _, m := range t.Monos {
		if b, in := box[m.Var]; !in || !b.Finite() {
			return 0, 0, false
		}
	}
	r := t.Range(func(v Var) (Bound, bool) { b, ok := box[v]; return b, ok })
	return r.Lo, r.Hi, r.Finite()
}

// holdsOn reports whether "x op 0" holds for every x in lo..hi.
func holdsOn(op Op, lo, hi int64) bool {
	switch op {
	case Eq:
		return lo == 0 && hi == 0
	case Ne:
		return hi < 0 || lo > 0
	case Lt:
		return hi < 0
	case Le:
		return hi <= 0
	case Gt:
		return lo > 0
	}
	return lo >= 0 // Ge
}

// IsQuantifierFree reports whether f contains no Exists.
func IsQuantifierFree(f Formula) bool {
	switch f := f.(type) {
	case Exists:
		return false
	case Not:
		return IsQuantifierFree(f.F)
	case And:
		for _, g := range f {
			if !IsQuantifierFree(g) {
				return false
			}
		}
	case Or:
		for _, g := range f {
			if !IsQuantifierFree(g) {
				return false
			}
		}
	}
	return true
}
