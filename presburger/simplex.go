package presburger

import (
	"cmp"
	"slices"

	"github.com/vsym/vsym/internal/checked"
)

// The linear relaxation of a case of Quick: are its bounds on variables
// and forms satisfiable over the rationals? It is the general simplex of
// SMT solvers (Dutertre and de Moura, CAV 2006): a variable per form
// (its slack) stands for the form's value, a tableau keeps the basic
// variables as combinations of the others, and a variable out of its
// bounds is brought back by a pivot chosen by Bland's rule, which
// cannot cycle. Arithmetic is exact, in int64 fractions whose every
// operation is checked: a result beyond them stops the check with no
// answer. A relaxation with no solution proves the case has no integer
// one; a solution that is integral is a model of the case.

// rat is the fraction n/d in lowest terms, d > 0.
type rat struct{ n, d int64 }

func ratInt(x int64) rat { return rat{x, 1} }

func makeRat(n, d int64) (rat, bool) {
	if d == 0 {
		return rat{}, false
	}
	if d < 0 {
		n, d = -n, -d // |n|, |d| <= checked.Limit: no overflow
	}
	g := gcd(abs64(n), d)
	if g == 0 {
		return rat{}, false
	}
	return rat{n / g, d / g}, true
}

func (a rat) add(b rat) (rat, bool) {
	x, ok1 := checked.Mul(a.n, b.d)
	y, ok2 := checked.Mul(b.n, a.d)
	d, ok3 := checked.Mul(a.d, b.d)
	if !ok1 || !ok2 || !ok3 {
		return rat{}, false
	}
	n, ok := checked.Add(x, y)
	if !ok || n > checked.Limit || n < -checked.Limit {
		return rat{}, false
	}
	return makeRat(n, d)
}

func (a rat) mul(b rat) (rat, bool) {
	n, ok1 := checked.Mul(a.n, b.n)
	d, ok2 := checked.Mul(a.d, b.d)
	if !ok1 || !ok2 {
		return rat{}, false
	}
	return makeRat(n, d)
}

func (a rat) neg() rat { return rat{-a.n, a.d} }

func (a rat) inv() (rat, bool) { return makeRat(a.d, a.n) }

// cmp returns the sign of a - b, exactly.
func (a rat) cmp(b rat) int {
	var s sum
	s.addMul(a.n, b.d)
	s.addMul(-b.n, a.d)
	return s.sign()
}

// relaxation is the simplex tableau of one case: variables 0..n-1 are
// the case's, n.. the slacks of its bounded forms. The tableau is
// sparse: a row lists only its nonzero coefficients, by variable, so
// that a pivot costs the entries it changes, not rows times variables
// (the state equation of a net of a hundred places has rows of a few
// entries). It pivots as a dense tableau would, on the same variables
// in the same order, and computes the same fractions.
type relaxation struct {
	s          *search
	lo, hi     []rat
	noLo, noHi []bool
	val        []rat
	basic      []int     // row -> its basic variable
	row        [][]entry // row -> its nonzero coefficients, by variable (none at basic ones)
	rowOf      []int     // variable -> its row, -1 when nonbasic
	merged     []entry   // a buffer of pivot
}

// entry is the coefficient a of variable x in a row.
type entry struct {
	x int
	a rat
}

// coef returns the coefficient of x in row, zero when x is not in it.
func coef(row []entry, x int) rat {
	i, found := slices.BinarySearchFunc(row, x, func(e entry, x int) int { return cmp.Compare(e.x, x) })
	if !found {
		return rat{0, 1}
	}
	return row[i].a
}

// relax returns the relaxation of c; ok false beyond int64 fractions.
func (s *search) relax(c *cases) (*relaxation, bool) {
	n := len(c.v)
	var ids []int
	for id, sp := range c.f {
		if !sp.noLo || !sp.noHi {
			ids = append(ids, id)
		}
	}
	total := n + len(ids)
	r := &relaxation{s: s, lo: make([]rat, total), hi: make([]rat, total), noLo: make([]bool, total), noHi: make([]bool, total),
		val: make([]rat, total), rowOf: make([]int, total)}
	// Bounds beyond checked.Limit are refused: the fractions' checked
	// arithmetic (and negation) needs magnitudes within it.
	set := func(x int, sp span) bool {
		r.lo[x], r.hi[x], r.noLo[x], r.noHi[x] = ratInt(sp.lo), ratInt(sp.hi), sp.noLo, sp.noHi
		return (sp.noLo || -checked.Limit <= sp.lo && sp.lo <= checked.Limit) && (sp.noHi || -checked.Limit <= sp.hi && sp.hi <= checked.Limit)
	}
	for x, sp := range c.v {
		if !set(x, sp) {
			return nil, false
		}
		r.rowOf[x] = -1
		switch { // nonbasic: at a bound, or 0
		case !sp.noLo:
			r.val[x] = ratInt(sp.lo)
		case !sp.noHi:
			r.val[x] = ratInt(sp.hi)
		default:
			r.val[x] = ratInt(0)
		}
	}
	for k, id := range ids {
		x := n + k
		if !set(x, c.f[id]) {
			return nil, false
		}
		f := s.forms[id]
		row := make([]entry, len(f.x)) // f.x is sorted
		v := ratInt(0)
		for i, y := range f.x {
			row[i] = entry{y, ratInt(f.a[i])}
			p, ok := row[i].a.mul(r.val[y])
			if !ok {
				return nil, false
			}
			if v, ok = v.add(p); !ok {
				return nil, false
			}
		}
		s.steps += int64(len(f.x))
		r.val[x] = v
		r.rowOf[x] = len(r.row)
		r.basic = append(r.basic, x)
		r.row = append(r.row, row)
	}
	return r, true
}

// check brings every variable within its bounds: Sat with the values
// in r.val, Unsat when the bounds have no rational solution, Unknown
// when the budget or int64 fractions run out.
func (r *relaxation) check() Result {
	for {
		if r.s.out() {
			return Unknown
		}
		// The least basic variable out of its bounds (Bland).
		b, below := -1, false
		for x, k := range r.rowOf {
			if k < 0 {
				continue
			}
			if !r.noLo[x] && r.val[x].cmp(r.lo[x]) < 0 {
				b, below = x, true
				break
			}
			if !r.noHi[x] && r.val[x].cmp(r.hi[x]) > 0 {
				b = x
				break
			}
		}
		if b < 0 {
			return Sat
		}
		// The least nonbasic variable that can move b toward its bound.
		row := r.row[r.rowOf[b]]
		r.s.steps += int64(len(row))
		j := -1
		for _, e := range row {
			y := e.x
			up := (e.a.n > 0) == below // y must increase
			if up && (r.noHi[y] || r.val[y].cmp(r.hi[y]) < 0) || !up && (r.noLo[y] || r.val[y].cmp(r.lo[y]) > 0) {
				j = y
				break
			}
		}
		if j < 0 {
			return Unsat // b = row, and every variable of row is at the bound that keeps b away
		}
		target := r.hi[b]
		if below {
			target = r.lo[b]
		}
		if !r.pivot(b, j, target) {
			return Unknown
		}
	}
}

// pivot sets basic variable b to v by moving nonbasic j, then makes j
// basic in b's row and b nonbasic; false beyond int64 fractions.
func (r *relaxation) pivot(b, j int, v rat) bool {
	k := r.rowOf[b]
	row := r.row[k]
	a := coef(row, j)
	// theta = (v - val[b]) / a
	d, ok := v.add(r.val[b].neg())
	if !ok {
		return false
	}
	ia, ok := a.inv()
	if !ok {
		return false
	}
	theta, ok := d.mul(ia)
	if !ok {
		return false
	}
	r.val[b] = v
	if r.val[j], ok = r.val[j].add(theta); !ok {
		return false
	}
	// The rows that read j, with j's coefficient in each.
	r.s.steps += int64(len(r.row))
	type reader struct {
		i int
		c rat
	}
	var readers []reader
	for i, other := range r.row {
		if i == k {
			continue
		}
		if c := coef(other, j); c.n != 0 {
			readers = append(readers, reader{i, c})
		}
	}
	for _, rd := range readers {
		p, ok := rd.c.mul(theta)
		if !ok {
			return false
		}
		x := r.basic[rd.i]
		if r.val[x], ok = r.val[x].add(p); !ok {
			return false
		}
	}
	// b = a*j + rest, so j = b/a - rest/a.
	next := make([]entry, 0, len(row))
	for _, e := range row {
		if e.x == j {
			continue
		}
		if e.x > b && (len(next) == 0 || next[len(next)-1].x < b) {
			next = append(next, entry{b, ia})
		}
		c, ok := e.a.mul(ia)
		if !ok {
			return false
		}
		next = append(next, entry{e.x, c.neg()})
	}
	if len(next) == 0 || next[len(next)-1].x < b {
		next = append(next, entry{b, ia})
	}
	r.s.steps += int64(len(row))
	for _, rd := range readers {
		other := r.row[rd.i]
		// other - c*j + c*next, merged by variable.
		merged := r.merged[:0]
		p, q := 0, 0
		for p < len(other) || q < len(next) {
			switch {
			case q == len(next) || p < len(other) && other[p].x < next[q].x:
				if other[p].x != j {
					merged = append(merged, other[p])
				}
				p++
			case p == len(other) || next[q].x < other[p].x:
				e, ok := rd.c.mul(next[q].a)
				if !ok {
					return false
				}
				merged = append(merged, entry{next[q].x, e})
				q++
			default:
				e, ok := rd.c.mul(next[q].a)
				if !ok {
					return false
				}
				if e, ok = other[p].a.add(e); !ok {
					return false
				}
				if e.n != 0 {
					merged = append(merged, entry{other[p].x, e})
				}
				p++
				q++
			}
		}
		r.s.steps += int64(len(other) + len(next))
		// The merge is the row, and the row's old array the next buffer.
		r.row[rd.i], r.merged = merged, other[:0]
	}
	r.row[k] = next
	r.basic[k] = j
	r.rowOf[j], r.rowOf[b] = k, -1
	return true
}

// fractional returns the first of the case's variables whose value is
// not an integer, with the integers below and above it; ok false when
// every one is an integer.
func (r *relaxation) fractional(n int) (x int, floor, ceil int64, ok bool) {
	for x := 0; x < n; x++ {
		v := r.val[x]
		if v.d != 1 {
			q := checked.FloorDiv(v.n, v.d)
			return x, q, q + 1, true
		}
	}
	return 0, 0, 0, false
}
