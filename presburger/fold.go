package presburger

import (
	"math"
	"strconv"
)

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

// A Box is the range of each of some variables, the intersection of
// its bounds, for rewriting formulas within those ranges
// (FoldRangesIn, SharpenEndsIn): a model rewrites each of hundreds of
// guards within the ranges of hundreds of counters, and intersecting
// them once for each guard cost more than the rewriting.
type Box map[Var]Bound

// NewBox returns the Box of bounds.
func NewBox(bounds []Bound) Box {
	box := make(Box, len(bounds))
	for _, b := range Intersect(bounds) {
		box[b.Var] = b
	}
	return box
}

// FoldRanges is FoldBounds for ranges that may be open on a side (a
// counter's 0.., a group's size 1..): an atom is replaced by true or
// false when it holds, or fails, wherever its term's range lies, a
// half-line included. The result is equivalent to f within the ranges.
func FoldRanges(f Formula, bounds []Bound) Formula {
	return FoldRangesIn(f, NewBox(bounds))
}

// FoldRangesIn is FoldRanges within the ranges of box.
func FoldRangesIn(f Formula, box Box) Formula {
	return foldAtoms(f, func(t Term) (int64, int64, bool) {
		r := t.Range(func(v Var) (Bound, bool) { b, ok := box[v]; return b, ok })
		lo, hi := r.Lo, r.Hi
		if r.NoLo {
			lo = math.MinInt64 // holdsOn compares the ends with 0 only
		}
		if r.NoHi {
			hi = math.MaxInt64
		}
		return lo, hi, true
	})
}

func foldBounds(f Formula, box map[Var]Bound) Formula {
	return foldAtoms(f, func(t Term) (int64, int64, bool) { return termRange(t, box) })
}

// foldAtoms replaces every atom "t op 0" of f by true or false when op
// holds, or fails, on the whole range lo..hi that rng gives for t (ok
// false: no range known). Exists is left as it is.
func foldAtoms(f Formula, rng func(Term) (lo, hi int64, ok bool)) Formula {
	return MapAtoms(f, func(a Cmp) Formula {
		lo, hi, ok := rng(a.T)
		switch {
		case !ok:
			return a
		case holdsOn(a.Op, lo, hi):
			return True
		case holdsOn(a.Op.Negate(), lo, hi):
			return False
		}
		return a
	})
}

// MapAtoms returns f with every comparison outside an Exists replaced
// by what rewrite returns for it, the connectives rebuilt with Conj,
// Disj and Negation (which fold the constants true and false). An
// Exists is left as it is: its body may read the bound variable.
func MapAtoms(f Formula, rewrite func(Cmp) Formula) Formula {
	switch f := f.(type) {
	case Cmp:
		return rewrite(f)
	case Not:
		return Negation(MapAtoms(f.F, rewrite))
	case And:
		out := make([]Formula, len(f))
		for i, g := range f {
			out[i] = MapAtoms(g, rewrite)
		}
		return Conj(out...)
	case Or:
		out := make([]Formula, len(f))
		for i, g := range f {
			out[i] = MapAtoms(g, rewrite)
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

// formRange is what the atoms of a conjunction say about one linear form
// (a term without its constant): lo <= form when hasLo, form <= hi when
// hasHi.
type formRange struct {
	lo, hi       int64
	hasLo, hasHi bool
	first        Var // the form's first variable
}

// formKey names the linear form s*monos (s = 1 or -1), so that a form
// and its negation are told apart and found again; ok is false when a
// coefficient times s does not fit in int64.
func formKey(monos []Mono, s int64) (key string, ok bool) {
	b := make([]byte, 0, 12*len(monos))
	for _, m := range monos {
		c, ok := mulExact(m.Coef, s)
		if !ok {
			return "", false
		}
		b = strconv.AppendInt(b, int64(m.Var), 10)
		b = append(b, '*')
		b = strconv.AppendInt(b, c, 10)
		b = append(b, ' ')
	}
	return string(b), true
}

// sign is the sign that makes the first coefficient of a form positive.
func sign(monos []Mono) int64 {
	if monos[0].Coef < 0 {
		return -1
	}
	return 1
}

// conjunctFacts returns the ranges that the atoms among the top-level
// conjuncts of f put on their linear forms (f & g is then equivalent to
// f & foldUnder(g, facts)). An atom whose bound does not fit in int64
// says nothing; a conjunct that is no atom (a disjunction, an Exists)
// says nothing either.
func conjunctFacts(f Formula) map[string]formRange {
	facts := map[string]formRange{}
	for _, g := range Conjuncts(NNF(f)) {
		c, ok := g.(Cmp)
		if !ok || len(c.T.Monos) == 0 || c.Op == Ne {
			continue
		}
		// m + k op 0: m op -k, then the form s*m.
		if c.T.Const == -1<<63 {
			continue
		}
		b := -c.T.Const
		var r formRange
		switch c.Op {
		case Eq:
			r = formRange{lo: b, hi: b, hasLo: true, hasHi: true}
		case Le:
			r = formRange{hi: b, hasHi: true}
		case Ge:
			r = formRange{lo: b, hasLo: true}
		case Lt:
			if b == -(1<<63 - 1) {
				continue // b - 1 is MinInt64, whose negation does not fit
			}
			r = formRange{hi: b - 1, hasHi: true}
		case Gt:
			if b == 1<<63-1 {
				continue
			}
			r = formRange{lo: b + 1, hasLo: true}
		}
		s := sign(c.T.Monos)
		key, ok := formKey(c.T.Monos, s)
		if !ok {
			continue
		}
		if s < 0 { // the form is -m: negate the range (no end is MinInt64 here)
			r = formRange{lo: -r.hi, hi: -r.lo, hasLo: r.hasHi, hasHi: r.hasLo}
		}
		r.first = c.T.Monos[0].Var
		old, seen := facts[key]
		if seen {
			if old.hasLo && (!r.hasLo || old.lo > r.lo) {
				r.lo, r.hasLo = old.lo, true
			}
			if old.hasHi && (!r.hasHi || old.hi < r.hi) {
				r.hi, r.hasHi = old.hi, true
			}
		}
		facts[key] = r
	}
	return facts
}

// foldUnder replaces every atom of g that facts (conjunctFacts of some
// f) decide by true or false: the result is equivalent to g wherever f
// holds, so f & g and f & foldUnder(g, facts) have the same models.
// The point is a consecution query inv & step & !inv': for a step that
// leaves a linear form of inv unchanged or moves it the right way, the
// atom of !inv' contradicts the atom of inv and the whole step drops out
// (a Petri net's conservation law, "x1 + ... + xk <= 1", checked against
// hundreds of transitions each of which a solver was given before).
// Atoms inside an Exists are left alone, as in FoldBounds.
func foldUnder(g Formula, facts map[string]formRange) Formula {
	if len(facts) == 0 {
		return g
	}
	const minI, maxI = -1 << 63, 1<<63 - 1
	// The first variable of each form: an atom whose first variable is
	// none of them (most atoms of a guard) is passed over without
	// writing its key.
	first := make(map[Var]bool, len(facts))
	for _, f := range facts {
		first[f.first] = true
	}
	return foldAtoms(g, func(t Term) (lo, hi int64, ok bool) {
		if len(t.Monos) == 0 {
			return t.Const, t.Const, true
		}
		if !first[t.Monos[0].Var] {
			return 0, 0, false
		}
		s := sign(t.Monos)
		key, ok := formKey(t.Monos, s)
		if !ok {
			return 0, 0, false
		}
		r, ok := facts[key]
		if !ok {
			return 0, 0, false
		}
		if s < 0 {
			r = formRange{lo: -r.hi, hi: -r.lo, hasLo: r.hasHi, hasHi: r.hasLo}
		}
		// t = m + k over m's range; an end that is unknown, or does
		// not fit, is left at the extreme value, which decides no
		// atom (holdsOn compares the ends with 0 alone).
		lo, hi = minI, maxI
		if r.hasLo {
			if x, fits := addExact(r.lo, t.Const); fits && x != minI {
				lo = x
			}
		}
		if r.hasHi {
			if x, fits := addExact(r.hi, t.Const); fits && x != maxI {
				hi = x
			}
		}
		return lo, hi, lo != minI || hi != maxI
	})
}
