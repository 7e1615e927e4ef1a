package z3

import "github.com/vsym/vsym/presburger"

// foldBounds replaces every atom of f whose truth the box decides (the
// term's range over the box lies wholly on one side) by true or false.
// The result is equivalent to f for every assignment inside the box; it
// removes the copies of the keep bounds that quantifier elimination
// leaves in a projection. An atom over a variable the box does not cover,
// or whose range would overflow, is left alone.
func foldBounds(f presburger.Formula, box map[presburger.Var]presburger.Bound) presburger.Formula {
	switch f := f.(type) {
	case presburger.Cmp:
		lo, hi, ok := termRange(f.T, box)
		if !ok {
			return f
		}
		switch {
		case always(f.Op, lo, hi):
			return presburger.True
		case always(f.Op.Negate(), lo, hi):
			return presburger.False
		}
		return f
	case presburger.Not:
		return presburger.Negation(foldBounds(f.F, box))
	case presburger.And:
		out := make([]presburger.Formula, len(f))
		for i, g := range f {
			out[i] = foldBounds(g, box)
		}
		return presburger.Conj(out...)
	case presburger.Or:
		out := make([]presburger.Formula, len(f))
		for i, g := range f {
			out[i] = foldBounds(g, box)
		}
		return presburger.Disj(out...)
	}
	// Bool needs nothing; Exists is left alone (its body may shadow box
	// variables), though projections never contain one.
	return f
}

// termRange returns the least and greatest value of t over the box. Each
// variable occurs once in a canonical term, so the bounds are exact.
func termRange(t presburger.Term, box map[presburger.Var]presburger.Bound) (lo, hi int64, ok bool) {
	lo, hi = t.Const, t.Const
	for _, m := range t.Monos {
		b, in := box[m.Var]
		if !in {
			return 0, 0, false
		}
		a, err1 := mulInt(m.Coef, b.Lo)
		c, err2 := mulInt(m.Coef, b.Hi)
		if err1 != nil || err2 != nil {
			return 0, 0, false
		}
		if a > c {
			a, c = c, a
		}
		var err3, err4 error
		lo, err3 = addInt(lo, a)
		hi, err4 = addInt(hi, c)
		if err3 != nil || err4 != nil {
			return 0, 0, false
		}
	}
	return lo, hi, true
}

// always reports whether "x op 0" holds for every x in lo..hi.
func always(op presburger.Op, lo, hi int64) bool {
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
	case presburger.Ge:
		return lo >= 0
	}
	return false
}
