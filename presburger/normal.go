package presburger

import "fmt"

// NNF returns f in negation normal form without Ne: negations are pushed
// into the atoms and "t != 0" becomes "t < 0 | t > 0". Exists is kept as
// an opaque subformula (a negated Exists stays a Not).
func NNF(f Formula) Formula { return pushNot(f, false, true) }

// PushNegations returns f with every negation pushed down to its atoms,
// by De Morgan's laws: a negated comparison becomes the comparison with
// the negated operator ("!(x < 1 | b)" is "x >= 1 & !b"). Unlike NNF it
// keeps "t != 0" as it is written. Exists is kept as NNF keeps it.
func PushNegations(f Formula) Formula { return pushNot(f, false, false) }

// pushNot returns f, negated when neg, with the negations pushed into
// the atoms, and "t != 0" split into "t < 0 | t > 0" when splitNe.
func pushNot(f Formula, neg, splitNe bool) Formula {
	switch f := f.(type) {
	case nil:
		return nil // no formula, as a caller's optional part may be
	case Bool:
		return Bool(bool(f) != neg)
	case Cmp:
		op := f.Op
		if neg {
			op = op.Negate()
		}
		if op == Ne && splitNe {
			return Disj(Cmp{Lt, f.T}, Cmp{Gt, f.T})
		}
		return Cmp{op, f.T}
	case Not:
		return pushNot(f.F, !neg, splitNe)
	case And:
		return pushNotAll(f, true, neg, splitNe)
	case Or:
		return pushNotAll(f, false, neg, splitNe)
	case Exists:
		e := Exists{f.Vars, pushNot(f.Body, false, splitNe)}
		if neg {
			return Not{e}
		}
		return e
	}
	panic(fmt.Sprintf("presburger: unknown formula %T", f))
}

// pushNotAll is pushNot of a conjunction (and) or disjunction of parts:
// negated, the other one of the parts negated.
func pushNotAll(parts []Formula, and, neg, splitNe bool) Formula {
	out := make([]Formula, len(parts))
	for i, g := range parts {
		out[i] = pushNot(g, neg, splitNe)
	}
	if and != neg {
		return Conj(out...)
	}
	return Disj(out...)
}

// DNF returns f as a disjunction of conjunctions of atoms (Cmp without Ne,
// or opaque Exists / Not Exists subformulas). An empty result is false; a
// clause with no atoms is true. Clauses that are syntactically false are
// dropped. The result may be exponentially larger than f.
func DNF(f Formula) [][]Formula {
	switch f := NNF(f).(type) {
	case Bool:
		if f {
			return [][]Formula{{}}
		}
		return nil
	case Or:
		var out [][]Formula
		for _, g := range f {
			out = append(out, DNF(g)...)
		}
		return out
	case And:
		out := [][]Formula{{}}
		for _, g := range f {
			var next [][]Formula
			for _, c := range DNF(g) {
				for _, d := range out {
					clause := append(append([]Formula(nil), d...), c...)
					next = append(next, clause)
				}
			}
			out = next
		}
		return out
	default:
		return [][]Formula{{f}}
	}
}

// DNFSize returns the number of clauses DNF(f) has, or limit+1 when it
// has more, counted without building them (in time linear in f): a DNF
// may be exponentially larger than f, so a caller that can do without
// one asks first.
func DNFSize(f Formula, limit int) int { return dnfSize(NNF(f), max(limit, 0)) }

// DNFWithin returns DNF(f) when it has at most limit clauses, and
// ok false (and no clauses) otherwise.
func DNFWithin(f Formula, limit int) (clauses [][]Formula, ok bool) {
	if DNFSize(f, limit) > limit {
		return nil, false
	}
	return DNF(f), true
}

// dnfSize is DNFSize of f in negation normal form, saturating at
// limit+1: DNF sums the clauses of a disjunction's parts and multiplies
// those of a conjunction's.
func dnfSize(f Formula, limit int) int {
	switch f := f.(type) {
	case Bool:
		if f {
			return 1
		}
		return 0
	case Or:
		n := 0
		for _, g := range f {
			if n += dnfSize(g, limit); n > limit {
				return limit + 1
			}
		}
		return n
	case And:
		n := 1
		for _, g := range f {
			k := dnfSize(g, limit)
			switch {
			case k == 0:
				return 0 // a part without clauses: none, whatever the others
			case n > limit/k:
				n = limit + 1
			default:
				n *= k
			}
		}
		return n
	default:
		return 1
	}
}

// Expand returns a formula without the outer quantifier of f, equivalent
// to it: the disjunction of f's body over every assignment of its
// variables in their ranges (false when a range is empty). It is an error
// when a range is open, there are more than limit assignments, or a
// value substituted gives a constant beyond int64; the
// body may still hold Exists of its own.
func Expand(f Exists, limit int64) (Formula, error) {
	n := int64(1)
	for _, b := range f.Vars {
		if !b.Finite() {
			return nil, fmt.Errorf("presburger: cannot expand an Exists over the open range %s", b.Range())
		}
		if b.Lo > b.Hi {
			return False, nil
		}
	}
	for _, b := range f.Vars {
		// Hi - Lo in uint64, where it cannot overflow.
		w := uint64(b.Hi) - uint64(b.Lo)
		if w >= uint64(limit) || n > limit/(int64(w)+1) {
			return nil, fmt.Errorf("presburger: cannot expand an Exists over more than %d assignments", limit)
		}
		n *= int64(w) + 1
	}
	val := make(map[Var]int64, len(f.Vars))
	var out []Formula
	var overflow error
	var rec func(i int)
	rec = func(i int) {
		if i == len(f.Vars) {
			g, err := subst(f.Body, func(v Var) Term {
				if x, ok := val[v]; ok {
					return ConstTerm(x)
				}
				return VarTerm(v)
			})
			if err != nil && overflow == nil {
				overflow = err
			}
			out = append(out, g)
			return
		}
		b := f.Vars[i]
		// Stop at Hi rather than after it: x++ past MaxInt64 wraps.
		for x := b.Lo; ; x++ {
			val[b.Var] = x
			rec(i + 1)
			if x == b.Hi {
				break
			}
		}
		delete(val, b.Var)
	}
	rec(0)
	if overflow != nil {
		return nil, overflow
	}
	return Disj(out...), nil
}
