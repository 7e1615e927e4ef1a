package presburger

import (
	"cmp"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
)

// Exact arithmetic. Coefficients, constants and values are int64, and
// nothing in this package wraps around: a value is computed exactly (a
// sum of products in 128 bits, moving to big.Int in the rare case that
// overflows too) and then either fits in int64 or is reported as not
// fitting. The comparison of an atom (Eval) needs only the sign of the
// term's value, which is always exact. Term arithmetic comes in two
// forms: AddExact, ScaleExact, SubExact and SubstExact report a result
// that does not fit with ok false, for callers that fold values they do
// not bound themselves (parameter values into guards, say); Add, Scale,
// Sub and Subst panic on such a result, for callers whose operands are
// bounded so that it cannot arise (a panic there is a bug in the
// caller's bound, never a silently wrong number).

// sum is an exact integer accumulator: a 128-bit two's complement value
// hi:lo, or, once a sum has left 128 bits, a big.Int. The zero value is
// zero.
type sum struct {
	hi, lo uint64
	big    *big.Int
}

// addMul adds c*x.
func (s *sum) addMul(c, x int64) { s.addProduct(magnitude(c), magnitude(x), (c < 0) != (x < 0)) }

// addProduct adds a*b, or -(a*b) when negative.
func (s *sum) addProduct(a, b uint64, negative bool) {
	if s.big == nil {
		ph, pl := bits.Mul64(a, b) // at most 2^126
		if negative {
			ph, pl = neg128(ph, pl)
		}
		lo, carry := bits.Add64(s.lo, pl, 0)
		hi, _ := bits.Add64(s.hi, ph, carry)
		// Signed overflow: both operands of one sign, the sum of the other.
		if s.hi>>63 != ph>>63 || hi>>63 == s.hi>>63 {
			s.hi, s.lo = hi, lo
			return
		}
		s.big = s.toBig()
	}
	p := new(big.Int).Mul(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b))
	if negative {
		p.Neg(p)
	}
	s.big.Add(s.big, p)
}

// add adds c.
func (s *sum) add(c int64) { s.addMul(c, 1) }

// clone returns a copy of s that shares nothing with it.
func (s sum) clone() sum {
	if s.big != nil {
		s.big = new(big.Int).Set(s.big)
	}
	return s
}

// sign returns -1, 0 or +1 as the sum is negative, zero or positive.
func (s *sum) sign() int {
	switch {
	case s.big != nil:
		return s.big.Sign()
	case s.hi>>63 == 1:
		return -1
	case s.hi|s.lo == 0:
		return 0
	}
	return 1
}

// int64 returns the sum, and ok false when it does not fit in int64.
func (s *sum) int64() (int64, bool) {
	if s.big != nil {
		return s.big.Int64(), s.big.IsInt64()
	}
	// It fits when hi is the sign extension of lo.
	return int64(s.lo), s.hi == uint64(int64(s.lo)>>63)
}

// toBig returns the 128-bit sum as a big.Int.
func (s *sum) toBig() *big.Int {
	h, l := s.hi, s.lo
	negative := h>>63 == 1
	if negative {
		h, l = neg128(h, l)
	}
	b := new(big.Int).SetUint64(h)
	b.Lsh(b, 64)
	b.Or(b, new(big.Int).SetUint64(l))
	if negative {
		b.Neg(b)
	}
	return b
}

// magnitude returns |x| as a uint64 (2^63 for MinInt64).
func magnitude(x int64) uint64 {
	if x < 0 {
		return -uint64(x)
	}
	return uint64(x)
}

// neg128 returns the two's complement negation of hi:lo.
func neg128(hi, lo uint64) (uint64, uint64) {
	if lo == 0 {
		return -hi, 0
	}
	return ^hi, -lo
}

// addExact returns a+b, ok false when it does not fit in int64.
func addExact(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0)
}

// mulExact returns a*b, ok false when it does not fit in int64.
func mulExact(a, b int64) (int64, bool) {
	var s sum
	s.addMul(a, b)
	return s.int64()
}

// Value returns the value of t under the assignment val, computed
// exactly; ok is false when it does not fit in int64.
func (t Term) Value(val func(Var) int64) (x int64, ok bool) {
	s := t.valueSum(val)
	return s.int64()
}

// Sign returns the sign of t's value under the assignment val (-1, 0 or
// +1), exactly, whatever the magnitude of the value.
func (t Term) Sign(val func(Var) int64) int {
	s := t.valueSum(val)
	return s.sign()
}

// BigValue returns t's value under val, exactly, however large: for
// messages and errors that name a value beyond a limit.
func (t Term) BigValue(val func(Var) int64) *big.Int {
	s := t.valueSum(val)
	if s.big != nil {
		return s.big
	}
	return s.toBig()
}

func (t Term) valueSum(val func(Var) int64) sum {
	var s sum
	s.add(t.Const)
	for _, m := range t.Monos {
		s.addMul(m.Coef, val(m.Var))
	}
	return s
}

// Eval returns the value of t under the assignment val. It panics when
// the value does not fit in int64: callers whose values are not bounded
// use Value, which reports it.
func (t Term) Eval(val func(Var) int64) int64 {
	x, ok := t.Value(val)
	if !ok {
		panic(fmt.Sprintf("presburger: the value %s of a term does not fit in int64 (use Term.Value)", t.BigValue(val)))
	}
	return x
}

// AddExact returns t + u, or ok false when a coefficient or the constant
// of the sum does not fit in int64.
func (t Term) AddExact(u Term) (Term, bool) {
	k, ok := addExact(t.Const, u.Const)
	if !ok {
		return Term{}, false
	}
	out := Term{Const: k}
	i, j := 0, 0
	for i < len(t.Monos) || j < len(u.Monos) {
		switch {
		case j == len(u.Monos) || i < len(t.Monos) && t.Monos[i].Var < u.Monos[j].Var:
			out.Monos = append(out.Monos, t.Monos[i])
			i++
		case i == len(t.Monos) || u.Monos[j].Var < t.Monos[i].Var:
			out.Monos = append(out.Monos, u.Monos[j])
			j++
		default:
			c, ok := addExact(t.Monos[i].Coef, u.Monos[j].Coef)
			if !ok {
				return Term{}, false
			}
			if c != 0 {
				out.Monos = append(out.Monos, Mono{t.Monos[i].Var, c})
			}
			i++
			j++
		}
	}
	return out, true
}

// ScaleExact returns k*t, or ok false when a coefficient or the constant
// of the product does not fit in int64.
func (t Term) ScaleExact(k int64) (Term, bool) {
	if k == 0 {
		return Term{}, true
	}
	c, ok := mulExact(t.Const, k)
	if !ok {
		return Term{}, false
	}
	out := Term{Const: c, Monos: make([]Mono, len(t.Monos))}
	for i, m := range t.Monos {
		if out.Monos[i].Coef, ok = mulExact(m.Coef, k); !ok {
			return Term{}, false
		}
		out.Monos[i].Var = m.Var
	}
	return out, true
}

// SubExact returns t - u, or ok false when the difference does not fit
// in int64.
func (t Term) SubExact(u Term) (Term, bool) {
	nu, ok := u.ScaleExact(-1)
	if !ok {
		return Term{}, false
	}
	return t.AddExact(nu)
}

// SolveFor returns the term x that t = 0 gives v, when v's coefficient
// in t is 1 or -1 (c*v + r = 0, so v = -c*r, exact over the integers);
// ok is false for another coefficient, a v that t does not read, or a
// solution that does not fit in int64.
func (t Term) SolveFor(v Var) (x Term, ok bool) {
	var c int64
	for _, m := range t.Monos {
		if m.Var == v {
			c = m.Coef
		}
	}
	if c != 1 && c != -1 {
		return Term{}, false
	}
	// t = c*v + r, so v = -c*r: r with its signs flipped when c = 1,
	// built in one allocation (images solve every frame atom x' = x of
	// every step for x').
	if len(t.Monos) > 1 {
		x.Monos = make([]Mono, 0, len(t.Monos)-1)
	}
	for _, m := range t.Monos {
		if m.Var == v {
			continue
		}
		k, ok := mulExact(m.Coef, -c)
		if !ok {
			return Term{}, false
		}
		x.Monos = append(x.Monos, Mono{m.Var, k})
	}
	if x.Const, ok = mulExact(t.Const, -c); !ok {
		return Term{}, false
	}
	return x, true
}

// SubstExact replaces every variable v of t by sub(v). Every coefficient
// and the constant of the result are computed exactly, whatever the
// partial sums on the way; ok is false when one of them does not fit in
// int64.
func (t Term) SubstExact(sub func(Var) Term) (Term, bool) {
	konst, coef := t.substSums(sub)
	return termOf(&konst, coef)
}

// substSums returns the constant and the coefficients of t with every
// variable v replaced by sub(v), as exact sums.
func (t Term) substSums(sub func(Var) Term) (konst sum, coef []varSum) {
	images := make([]Term, len(t.Monos))
	for i, m := range t.Monos {
		images[i] = sub(m.Var)
	}
	return t.sumsOf(images)
}

// varSum is the exact coefficient s of variable v.
type varSum struct {
	v Var
	s sum
}

// sumsOf is substSums given the image of each monomial's variable: the
// coefficients in increasing order of their variables, each once. The
// products are sorted by variable and each run summed: a map per term
// cost more than the substitution itself in a system's images, where
// an invariant over hundreds of counters is substituted at every
// transition.
func (t Term) sumsOf(images []Term) (konst sum, coef []varSum) {
	konst.add(t.Const)
	type product struct {
		v    Var
		a, b int64
	}
	n := 0
	for i := range images {
		n += len(images[i].Monos)
	}
	ps := make([]product, 0, n)
	sorted := true
	for i, m := range t.Monos {
		s := images[i]
		konst.addMul(m.Coef, s.Const)
		for _, x := range s.Monos {
			if len(ps) > 0 && ps[len(ps)-1].v >= x.Var {
				sorted = false
			}
			ps = append(ps, product{x.Var, m.Coef, x.Coef})
		}
	}
	if !sorted {
		slices.SortStableFunc(ps, func(p, q product) int { return cmp.Compare(p.v, q.v) })
	}
	coef = make([]varSum, 0, len(ps))
	for _, p := range ps {
		if k := len(coef); k > 0 && coef[k-1].v == p.v {
			coef[k-1].s.addMul(p.a, p.b)
			continue
		}
		var c sum
		c.addMul(p.a, p.b)
		coef = append(coef, varSum{p.v, c})
	}
	return konst, coef
}

// termOf returns the canonical term of exact sums (coef in increasing
// order of variables, each once), ok false when one does not fit in
// int64.
func termOf(konst *sum, coef []varSum) (Term, bool) {
	k, ok := konst.int64()
	if !ok {
		return Term{}, false
	}
	out := Term{Const: k}
	for i := range coef {
		x, ok := coef[i].s.int64()
		if !ok {
			return Term{}, false
		}
		if x != 0 {
			out.Monos = append(out.Monos, Mono{coef[i].v, x})
		}
	}
	return out, true
}

// constSign reports whether every coefficient sum is zero (the term is
// a constant), and then the exact sign of the constant.
func constSign(konst *sum, coef []varSum) (sign int, isConst bool) {
	for i := range coef {
		if coef[i].s.sign() != 0 {
			return 0, false
		}
	}
	return konst.sign(), true
}

// Range returns the least and greatest value of t when each variable v
// of t ranges over the bound of(v) (ok false: over every integer), as a
// Bound whose Var is 0. A side is open (NoLo, NoHi) when some variable's
// range is open on the side it needs, or when the value of that side does
// not fit in int64: an open side bounds nothing. Each variable occurs
// once in a canonical term, so a closed side is the exact extreme when
// every range is non-empty.
func (t Term) Range(of func(Var) (Bound, bool)) Bound {
	var lo, hi sum
	lo.add(t.Const)
	hi.add(t.Const)
	noLo, noHi := false, false
	for _, m := range t.Monos {
		b, ok := of(m.Var)
		if !ok {
			b = AnyInt(m.Var)
		}
		// The side of b that gives t's least value, and the greatest.
		least, leastOpen, most, mostOpen := b.Lo, b.NoLo, b.Hi, b.NoHi
		if m.Coef < 0 {
			least, leastOpen, most, mostOpen = b.Hi, b.NoHi, b.Lo, b.NoLo
		}
		if leastOpen {
			noLo = true
		} else {
			lo.addMul(m.Coef, least)
		}
		if mostOpen {
			noHi = true
		} else {
			hi.addMul(m.Coef, most)
		}
	}
	out := Bound{NoLo: noLo, NoHi: noHi}
	if !noLo {
		var ok bool
		if out.Lo, ok = lo.int64(); !ok {
			out.Lo, out.NoLo = 0, true
		}
	}
	if !noHi {
		var ok bool
		if out.Hi, ok = hi.int64(); !ok {
			out.Hi, out.NoHi = 0, true
		}
	}
	return out
}

// Magnitude returns the largest magnitude that t's constant, a product
// Coef*x of one of its monomials, or a partial sum of them (in any
// order) can take when each variable x lies in of(x): |Const| plus the
// sum of |Coef|*max(|Lo|, |Hi|). A machine that evaluates t monomial by
// monomial in integers of a given width cannot overflow when it is
// within that width. ok is false when a variable's range is open (or
// of gives none) or the magnitude does not fit in int64.
func (t Term) Magnitude(of func(Var) (Bound, bool)) (int64, bool) {
	var s sum
	s.addProduct(magnitude(t.Const), 1, false)
	for _, m := range t.Monos {
		b, ok := of(m.Var)
		if !ok || !b.Finite() {
			return 0, false
		}
		s.addProduct(magnitude(m.Coef), max(magnitude(b.Lo), magnitude(b.Hi)), false)
	}
	return s.int64()
}

// SubstExact replaces every free variable v of f by the term sub(v), as
// Subst does, computing every coefficient and constant exactly. An atom
// left without variables is decided by the exact sign of its constant,
// however large; ok is false when a coefficient or the constant of an
// atom that keeps a variable does not fit in int64.
func SubstExact(f Formula, sub func(Var) Term) (Formula, bool) {
	out, err := subst(f, sub)
	return out, err == nil
}
