package presburger

import (
	"cmp"
	"maps"
	"slices"
)

// eliminate solves the equalities among the top-level conjuncts of f
// (in negation normal form) for a variable of coefficient 1 or -1 each,
// in turn: it returns the other conjuncts, each variable's solution
// over the variables left (to be substituted where the rest reads the
// variable), and, for each variable solved for, its range in box as
// atoms. The result and f have the same models
// once each variable solved for takes its solution's value: Gaussian
// elimination, exact over the integers since each coefficient solved
// for is a unit. A variable with an open range is solved for first (its
// range adds no atom). unsat is true when an equality reduces to a
// false constant; an equality whose substitution would leave int64 is
// kept as it is.
func eliminate(f Formula, box map[Var]Bound) (rest Formula, defs map[Var]Term, unsat bool) {
	var eqs, others []Formula
	for _, g := range Conjuncts(f) {
		if c, ok := g.(Cmp); ok && c.Op == Eq {
			eqs = append(eqs, g)
		} else {
			others = append(others, g)
		}
	}
	defs = map[Var]Term{}
	sub := func(v Var) Term {
		if t, ok := defs[v]; ok {
			return t
		}
		return VarTerm(v)
	}
	for _, e := range eqs {
		t, ok := e.(Cmp).T.SubstExact(sub)
		if !ok {
			others = append(others, e)
			continue
		}
		if t.IsConst() {
			if t.Const != 0 {
				return False, nil, true
			}
			continue
		}
		x, def, ok := solveUnit(t, box)
		if !ok {
			others = append(others, Cmp{Eq, t})
			continue
		}
		// Earlier solutions may read x: put def in those that do (the
		// others stay as they are, and most do in a long chain of
		// equalities such as a net's state equation).
		at := func(v Var) Term {
			if v == x {
				return def
			}
			return VarTerm(v)
		}
		var readers []Var
		var resolved []Term
		for v, d := range defs { // all or none: the order does not matter
			if !reads(d, x) {
				continue
			}
			var r Term
			if r, ok = d.SubstExact(at); !ok {
				break
			}
			readers, resolved = append(readers, v), append(resolved, r)
		}
		if !ok {
			others = append(others, Cmp{Eq, t})
			continue
		}
		for i, v := range readers {
			defs[v] = resolved[i]
		}
		defs[x] = def
	}
	// The other conjuncts read the solved variables, which the search
	// replaces by their solutions; their ranges become atoms on them.
	for _, x := range slices.Sorted(maps.Keys(defs)) {
		// x >= lo as x - lo >= 0 (left out for lo = MinInt64, whose
		// negation does not fit: the model is checked in range).
		b := box[x]
		if !b.NoLo && b.Lo != -1<<63 {
			others = append(others, Cmp{Ge, Term{Monos: []Mono{{x, 1}}, Const: -b.Lo}})
		}
		if !b.NoHi && b.Hi != -1<<63 {
			others = append(others, Cmp{Le, Term{Monos: []Mono{{x, 1}}, Const: -b.Hi}})
		}
	}
	return Conj(others...), defs, false
}

// eliminateIn is eliminate on a problem's formula, in the box of its
// bounds (intersected: bounds, in order): unsat when a range is empty
// or an equality reduces to a false constant. Quick and SolveEqs start
// so.
func eliminateIn(p Problem) (rest Formula, defs map[Var]Term, bounds []Bound, unsat bool) {
	bounds = Intersect(p.Bounds)
	box := make(map[Var]Bound, len(bounds))
	for _, b := range bounds {
		if b.Empty() {
			return nil, nil, nil, true
		}
		box[b.Var] = b
	}
	rest, defs, unsat = eliminate(NNF(p.F), box)
	return rest, defs, bounds, unsat
}

// solveUnit picks a variable x of t = 0 with coefficient 1 or -1,
// preferring one whose range in box is open on both sides, and returns
// it with t solved for it.
func solveUnit(t Term, box map[Var]Bound) (x Var, def Term, ok bool) {
	best := -1
	for i, m := range t.Monos {
		b, in := box[m.Var]
		if !in {
			return 0, Term{}, false // no bound: the search reports it
		}
		if m.Coef != 1 && m.Coef != -1 {
			continue
		}
		if best < 0 || b.NoLo && b.NoHi {
			best = i
		}
	}
	if best < 0 {
		return 0, Term{}, false
	}
	x = t.Monos[best].Var
	def, ok = t.SolveFor(x)
	return x, def, ok
}

// reads reports whether t has a monomial of x.
func reads(t Term, x Var) bool {
	_, found := slices.BinarySearchFunc(t.Monos, x, func(m Mono, x Var) int { return cmp.Compare(m.Var, x) })
	return found
}
