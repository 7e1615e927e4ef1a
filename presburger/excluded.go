package presburger

// dropExcluded returns bad without the disjuncts of its top-level Or
// (of a negated conjunction, the disjunction it is with its negations
// pushed to the atoms) that inv excludes by bounds alone: those whose comparisons of one
// variable with a constant, within the domain, put the term of some
// comparison among inv's top-level conjuncts wholly on its false side
// (or are empty themselves). Inside the domain, inv & bad and inv &
// dropExcluded(inv, bad, domain) have the same solutions: a disjunct
// left out has none with inv.
//
// It keeps the solver from refuting, one case split at a time, what
// interval arithmetic refutes at once: the safety query of mist's
// ME_250_bigtarget has 8,990 disjuncts (two processes past the door, for
// each pair of places), which the state equation's invariant "at most
// one is past the door" excludes, and Z3 took 0.7 s of the whole proof's
// 1.1 s to go through them.
func dropExcluded(inv, bad Formula, domain []Bound) Formula {
	or, ok := bad.(Or)
	if n, isNot := bad.(Not); isNot {
		// The bad states of a property written as a conjunction of
		// negations, "AG (!c1 & ... & !ck)", are the negation of that
		// conjunction: the disjunction of the ci once the negations
		// are pushed to the atoms. ME_250_bigtarget so written (8,990
		// targets) asked Z3 about all of them, 2 s.
		or, ok = PushNegations(n).(Or)
	}
	if !ok {
		return bad
	}
	box := map[Var]Bound{}
	for _, b := range Intersect(domain) {
		box[b.Var] = b
	}
	conj := Conjuncts(inv)
	for _, a := range conj {
		if c, ok := a.(Cmp); ok && len(c.T.Monos) == 1 {
			tighten(box, c.T.Monos[0], c.T.Const, c.Op)
		}
	}
	for _, a := range conj {
		if c, ok := a.(Cmp); ok && len(c.T.Monos) > 1 {
			boundEach(box, c)
		}
	}
	var ineqs []*boxRange
	for _, a := range conj {
		if c, ok := a.(Cmp); ok {
			ineqs = append(ineqs, newBoxRange(c, box))
		}
	}
	if len(ineqs) == 0 {
		return bad
	}
	out := make([]Formula, 0, len(or))
	for _, d := range or {
		if !excludedBy(ineqs, d, box) {
			out = append(out, d)
		}
	}
	if len(out) == len(or) {
		return bad
	}
	return Disj(out...)
}

// excludedBy reports whether no point of the box satisfies both d and
// every comparison of ineqs, by the bounds d's comparisons of one
// variable set: d is empty there, or some comparison is false over the
// range of its term.
func excludedBy(ineqs []*boxRange, d Formula, box map[Var]Bound) bool {
	local := map[Var]Bound{}
	for _, a := range Conjuncts(d) {
		c, ok := a.(Cmp)
		if !ok {
			continue
		}
		m, ok := soleFree(c.T, box)
		if !ok {
			continue
		}
		v := m.Var
		b, ok := local[v]
		if !ok {
			if b, ok = box[v]; !ok {
				b = AnyInt(v)
			}
		}
		if b = b.Tighten(m.Coef, c.T.Const, c.Op); b.Empty() {
			return true
		}
		local[v] = b
	}
	if len(local) == 0 {
		return false
	}
	for _, r := range ineqs {
		if r.falseWith(local, box) {
			return true
		}
	}
	return false
}

// boxRange is the range of the term of a comparison over a box, as the
// exact sums of its ends' closed parts and the count of its monomials
// that open each end, so that the range with a few variables' bounds
// changed costs those variables only (a term of 250 counters, against
// thousands of disjuncts that each bound two or three).
type boxRange struct {
	c              Cmp
	coef           map[Var]int64
	lo, hi         sum
	loOpen, hiOpen int
}

func newBoxRange(c Cmp, box map[Var]Bound) *boxRange {
	r := &boxRange{c: c, coef: make(map[Var]int64, len(c.T.Monos))}
	r.lo.add(c.T.Const)
	r.hi.add(c.T.Const)
	for _, m := range c.T.Monos {
		r.coef[m.Var] = m.Coef
		b, ok := box[m.Var]
		if !ok {
			b = AnyInt(m.Var)
		}
		r.addVar(&r.lo, &r.loOpen, &r.hi, &r.hiOpen, m.Coef, b, false)
	}
	return r
}

// addVar adds the contribution of a*x, x in b, to the ends lo and hi
// (their sums and open counts), or takes it away (remove).
func (r *boxRange) addVar(lo *sum, loOpen *int, hi *sum, hiOpen *int, a int64, b Bound, remove bool) {
	least, leastOpen, most, mostOpen := b.Lo, b.NoLo, b.Hi, b.NoHi
	if a < 0 {
		least, leastOpen, most, mostOpen = b.Hi, b.NoHi, b.Lo, b.NoLo
	}
	end := func(s *sum, open *int, x int64, isOpen bool) {
		switch {
		case isOpen && remove:
			*open--
		case isOpen:
			*open++
		default:
			negative := (a < 0) != (x < 0)
			if remove {
				negative = !negative
			}
			s.addProduct(magnitude(a), magnitude(x), negative)
		}
	}
	end(lo, loOpen, least, leastOpen)
	end(hi, hiOpen, most, mostOpen)
}

// falseWith reports whether the comparison fails over the whole box
// with the bounds of local in place of the box's.
func (r *boxRange) falseWith(local map[Var]Bound, box map[Var]Bound) bool {
	lo, hi := r.lo.clone(), r.hi.clone()
	loOpen, hiOpen := r.loOpen, r.hiOpen
	for v, b := range local {
		a, ok := r.coef[v]
		if !ok {
			continue
		}
		old, ok := box[v]
		if !ok {
			old = AnyInt(v)
		}
		r.addVar(&lo, &loOpen, &hi, &hiOpen, a, old, true)
		r.addVar(&lo, &loOpen, &hi, &hiOpen, a, b, false)
	}
	above := loOpen == 0 && lo.sign() > 0 // every value > 0
	below := hiOpen == 0 && hi.sign() < 0 // every value < 0
	switch r.c.Op {
	case Le:
		return above
	case Lt:
		return loOpen == 0 && lo.sign() >= 0
	case Ge:
		return below
	case Gt:
		return hiOpen == 0 && hi.sign() <= 0
	case Eq:
		return above || below
	}
	return loOpen == 0 && hiOpen == 0 && lo.sign() == 0 && hi.sign() == 0 // Ne
}

// tighten narrows v's range in box by a*v + k op 0 (m is a*v).
func tighten(box map[Var]Bound, m Mono, k int64, op Op) {
	b, ok := box[m.Var]
	if !ok {
		b = AnyInt(m.Var)
	}
	box[m.Var] = b.Tighten(m.Coef, k, op)
}

// boundEach narrows the box by a comparison of a sum whose monomials
// all push one way against a bound: with a_i > 0 and each v_i at least
// lo_i, Σ a_i*v_i + k <= 0 bounds each v_j above by what the others
// leave it (#L0[lk] + #L1[lk] = 1 puts both in 0..1), and likewise
// below for a_i < 0. A comparison of another shape, or a variable with
// no bound on the side it needs, leaves the box as it is.
func boundEach(box map[Var]Bound, c Cmp) {
	t, op := c.T, c.Op
	if op == Ge || op == Gt || (op == Eq && t.Monos[0].Coef < 0) {
		neg, ok := t.ScaleExact(-1)
		if !ok {
			return
		}
		t, op = neg, op.Converse()
	}
	if op != Le && op != Lt && op != Eq {
		return
	}
	var total sum // k + Σ a_i*lo_i
	total.add(t.Const)
	for _, m := range t.Monos {
		b, ok := box[m.Var]
		if m.Coef <= 0 || !ok || b.NoLo {
			return
		}
		total.addMul(m.Coef, b.Lo)
	}
	for _, m := range t.Monos {
		rest := total.clone() // k + Σ_{i≠j} a_i*lo_i
		rest.addMul(-m.Coef, box[m.Var].Lo)
		if k, ok := rest.int64(); ok {
			tighten(box, m, k, Le)
		}
	}
}

// soleFree returns the one monomial of t whose variable the box does not
// fix at 0, when there is exactly one: t is then that monomial plus its
// constant everywhere in the box.
func soleFree(t Term, box map[Var]Bound) (Mono, bool) {
	var sole Mono
	n := 0
	for _, m := range t.Monos {
		if b, ok := box[m.Var]; ok && b.Finite() && b.Lo == 0 && b.Hi == 0 {
			continue
		}
		sole = m
		n++
	}
	return sole, n == 1
}
