package presburger

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/vsym/vsym/internal/checked"
)

// Quick decides the easy Problems in plain Go, and declines the others
// (Unknown) for a Solver behind it in a Chain to answer. It is exact:
//
//   - Unsat only when proved: F, in negation normal form, is split on
//     its disjunctions, case by case, and in every case the integer
//     bounds that its atoms imply contradict one another, or its linear
//     relaxation has no rational solution;
//   - Sat only with a model that Eval confirms on F and that lies in
//     the Bounds;
//   - Unknown otherwise: a case that neither contradicts nor gives a
//     model, a problem with an Exists, or work beyond Steps.
//
// First the equalities among F's top-level conjuncts are solved for a
// variable of coefficient 1 or -1 each (eliminate.go), which the rest
// then reads as its solution. The bounds are intervals of the variables
// and of the linear forms the atoms compare (an atom c*u + k op 0, u a
// primitive form with its first coefficient positive, bounds u itself,
// rounded to the integers). An interval of a form narrows those of its
// variables and the other way round, each side rounded toward the
// integers, until nothing changes: so "x + y <= 1" and "x + y >= 2"
// contradict at once, whatever the ranges of x and y, and "2x + 2y = 1"
// has no integer solution. A case with no disjunction left is decided
// by branch and bound over its linear relaxation (simplex.go): no
// rational solution, an integral one (the model), or two cases split
// at a fractional value.
//
// Work is counted in steps (a monomial read or narrowed, an atom
// judged, a tableau entry updated), never time, so that the answer is
// the same on every machine. Arithmetic is int64 with every result
// checked: a deduction that would leave int64 is not made, which can
// only make Quick decline, never answer wrongly.
type Quick struct {
	// Steps bounds the work of one Solve call (0: DefaultQuickSteps);
	// a call that needs more answers Unknown.
	Steps int64
}

// DefaultQuickSteps is the work of a Quick call with no Steps: a few
// milliseconds, more than the queries of mist's suite that Quick decides
// need (the most, 54,547 steps, is a consecution query of
// german_protocol; the state equations of bingham h50 and mesh2x2 need
// 22,425 and 11,438), so that a query Quick declines costs little beside
// the solver behind it.
const DefaultQuickSteps = 60_000

// Solve implements Solver.
func (q Quick) Solve(ctx context.Context, p Problem) (Answer, error) {
	// What CheckBounds checks, but for the variables without a bound,
	// which compile finds as it reads the atoms (a walk of its own over
	// a formula of thousands of atoms cost as much as the rest).
	for _, b := range p.Bounds {
		if b.Empty() {
			return Answer{}, fmt.Errorf("presburger: empty range %d..%d for variable %d", b.Lo, b.Hi, b.Var)
		}
	}
	if p.F == nil {
		return Answer{}, fmt.Errorf("presburger: problem has no formula")
	}
	if err := ctx.Err(); err != nil {
		return Answer{Result: Unknown, Reason: err.Error(), Stopped: true}, nil
	}
	if !IsQuantifierFree(p.F) {
		return Answer{Result: Unknown, Reason: "quick: the problem has a quantifier"}, nil
	}
	budget := q.Steps
	if budget <= 0 {
		budget = DefaultQuickSteps
	}
	f, defs, bounds, unsat := eliminateIn(p)
	if unsat {
		return Answer{Result: Unsat}, nil
	}
	s := &search{budget: budget, index: map[Var]int{}, defs: defs, formID: map[string]int{}}
	root := &cases{}
	for _, b := range bounds {
		if _, solved := defs[b.Var]; solved {
			continue
		}
		s.index[b.Var] = len(s.vars)
		s.vars = append(s.vars, b.Var)
		root.v = append(root.v, span{lo: b.Lo, hi: b.Hi, noLo: b.NoLo, noHi: b.NoHi})
	}
	s.acc = make([]int64, len(s.vars))
	n := s.compile(f)
	if s.unbound {
		return Answer{}, fmt.Errorf("presburger: variable %d has no bound", s.missing)
	}
	r, m := s.solve(root, []*node{n})
	switch r {
	case Unsat:
		return Answer{Result: Unsat}, nil
	case Sat:
		// Labelling satisfied every atom of one case; Eval confirms
		// it on F as given.
		val := func(v Var) int64 { return m[v] }
		ok := true
		for x, def := range defs {
			m[x], ok = def.Value(val)
			if !ok {
				return Answer{Result: Unknown, Reason: "quick: a model beyond int64"}, nil
			}
		}
		ok = Eval(p.F, val)
		for _, b := range p.Bounds {
			ok = ok && b.Contains(m[b.Var])
		}
		if ok {
			return Answer{Result: Sat, Model: m}, nil
		}
		return Answer{Result: Unknown, Reason: "quick: a model failed its check"}, nil
	}
	reason := "quick: a case neither contradicts nor gives a model"
	if s.steps > s.budget {
		reason = fmt.Sprintf("quick: more than %d steps", s.budget)
	}
	return Answer{Result: Unknown, Reason: reason}, nil
}

// span is an interval of integers, open on a side with noLo or noHi.
type span struct {
	lo, hi     int64
	noLo, noHi bool
}

func (a span) empty() bool { return !a.noLo && !a.noHi && a.lo > a.hi }

// atMost and atLeast narrow a to values <= x and >= x, and report
// whether it changed.
func (a *span) atMost(x int64) bool {
	if !a.noHi && a.hi <= x {
		return false
	}
	a.hi, a.noHi = x, false
	return true
}

func (a *span) atLeast(x int64) bool {
	if !a.noLo && a.lo >= x {
		return false
	}
	a.lo, a.noLo = x, false
	return true
}

// within reports whether every value of a lies in b.
func (a span) within(b span) bool {
	return (b.noLo || !a.noLo && a.lo >= b.lo) && (b.noHi || !a.noHi && a.hi <= b.hi)
}

// meet reports whether a and b have a value in common.
func (a span) meet(b span) bool {
	return (a.noLo || b.noHi || a.lo <= b.hi) && (b.noLo || a.noHi || b.lo <= a.hi)
}

// form is a primitive linear form: the gcd of its coefficients is 1, the
// first is positive, and it has at least two variables (indices into
// search.vars); an atom of one variable bounds the variable itself.
type form struct {
	x []int
	a []int64
}

// search is one Solve call: the variables, the forms met so far, and
// the work done.
type search struct {
	steps, budget int64
	vars          []Var
	index         map[Var]int
	defs          map[Var]Term // the solved variables' solutions (eliminate)
	forms         []form
	formID        map[string]int

	unbound bool // an atom reads missing, a variable without a bound
	missing Var

	// judging numbers the passes of solve over its disjunctions, each
	// on one case, and ranges holds the forms' ranges of the current
	// one (cachedRange).
	judging int64
	ranges  []cachedEnds

	// Buffers of read and linear.
	key     []byte
	acc     []int64
	touched []int
	mono    []Mono
}

// cases is the state of one case: the intervals of the variables and of
// the forms (a form beyond the end of f has no bounds yet).
type cases struct {
	v []span
	f []span
}

func (c *cases) clone() *cases {
	return &cases{v: append([]span(nil), c.v...), f: append([]span(nil), c.f...)}
}

func (c *cases) formSpan(id int) *span {
	for len(c.f) <= id {
		c.f = append(c.f, span{noLo: true, noHi: true})
	}
	return &c.f[id]
}

// out reports whether the budget is spent.
func (s *search) out() bool { return s.steps > s.budget }

// node is a formula of the search in negation normal form, lowered
// once: an atom is read into its bound when the formula is compiled,
// not at each case that judges it.
type node struct {
	kind  reading // an atom's reading; conj or disj for the others
	b     bound   // an atom's bound (kind bounds)
	kids  []*node // a conjunction's or disjunction's parts
	parts int     // a conjunction's parts as compiled (its residuals have fewer kids)
}

const (
	conj reading = unread + 1 + iota
	disj
)

// compile lowers f, quantifier-free and in negation normal form.
func (s *search) compile(f Formula) *node {
	switch f := f.(type) {
	case Bool:
		if f {
			return &node{kind: holds}
		}
		return &node{kind: fails}
	case Cmp:
		b, r := s.read(f)
		return &node{kind: r, b: b}
	case And:
		return s.compileAll(conj, f)
	case Or:
		return s.compileAll(disj, f)
	}
	// Not reach here from the NNF of a quantifier-free formula; read
	// as an atom left out, it would only weaken the case.
	return &node{kind: unread}
}

// compileAll lowers the parts of a conjunction or disjunction; past the
// budget it stops, and the search that follows answers Unknown at once.
func (s *search) compileAll(kind reading, fs []Formula) *node {
	n := &node{kind: kind, kids: make([]*node, len(fs)), parts: len(fs)}
	for i, g := range fs {
		if s.out() {
			n.kids[i] = &node{kind: unread}
			continue
		}
		n.kids[i] = s.compile(g)
	}
	return n
}

// solve decides the conjunction of c's bounds and ns, and returns Sat
// with a model, Unsat, or Unknown. It may change c.
func (s *search) solve(c *cases, ns []*node) (Result, Model) {
	var ors []*node
	for len(ns) > 0 {
		n := ns[len(ns)-1]
		ns = ns[:len(ns)-1]
		switch n.kind {
		case conj:
			ns = append(ns, n.kids...)
		case disj:
			ors = append(ors, n)
		default:
			if !s.assume(c, n) {
				return Unsat, nil
			}
		}
	}
	if !s.propagate(c) {
		return Unsat, nil
	}
	if s.out() {
		return Unknown, nil
	}
	// Drop the disjuncts c makes false and the disjunctions it makes
	// true; a disjunction with one disjunct left is a fact. c does not
	// change while they are judged: the range of a form is computed
	// once (rangeOf's cache), however many atoms compare it.
	// The disjuncts kept are their residuals (judge), which the cases
	// below judge at less cost.
	s.judging++
	var open []*node
	for _, or := range ors {
		var keep []*node
		holds, same := false, true
		for _, d := range or.kids {
			r, rest := s.judge(c, d)
			switch r {
			case Sat:
				holds = true
			case Unknown:
				keep = append(keep, rest)
				same = same && rest == d
			}
			if holds {
				break
			}
		}
		switch {
		case holds:
		case len(keep) == 0:
			return Unsat, nil
		case len(keep) == 1:
			ns = append(ns, keep[0])
		case len(keep) == len(or.kids) && same:
			open = append(open, or)
		default:
			open = append(open, &node{kind: disj, kids: keep})
		}
	}
	if len(ns) > 0 {
		return s.solve(c, append(ns, open...))
	}
	if len(open) == 0 {
		return s.label(c)
	}
	// Split on the disjunction with the fewest cases for what its least
	// case states: (x < 1 | y < 1) before a disjunction of whole states
	// (x = 1 & y = 0 | ...), and that before the negation of one (x != 1
	// | y != 0 | ...), since each of its cases fixes many variables and
	// decides the negations at once (the reachable states that explore
	// one instance of a system, read before and after a step).
	k := 0
	for i, or := range open {
		if splitsWorse(open[k], or) {
			k = i
		}
	}
	rest := make([]*node, 0, len(open))
	for i, or := range open {
		if i != k {
			rest = append(rest, or)
		}
	}
	result := Unsat
	for _, d := range open[k].kids {
		if s.out() {
			return Unknown, nil
		}
		r, m := s.solve(c.clone(), append([]*node{d}, rest...))
		switch r {
		case Sat:
			return Sat, m
		case Unknown:
			result = Unknown
		}
	}
	return result, nil
}

// splitsWorse reports whether splitting on disjunction a promises less
// than on b: more cases for each atom its least case states.
func splitsWorse(a, b *node) bool {
	least := func(n *node) int {
		m := 0
		for i, d := range n.kids {
			atoms := 1
			if d.kind == conj {
				atoms = d.parts
			}
			if i == 0 || atoms < m {
				m = atoms
			}
		}
		return m
	}
	// len(a)/least(a) > len(b)/least(b), without division.
	return len(a.kids)*least(b) > len(b.kids)*least(a)
}

// label looks for a model of c, a case without disjunctions left, by
// branch and bound: the linear relaxation of c (simplex.go) has no
// rational solution (Unsat), or an integral one (Sat, the model), or a
// variable with a fractional value v, and then the two cases x <=
// floor(v) and x >= ceil(v), which cover every integer, are labelled
// in turn.
func (s *search) label(c *cases) (Result, Model) {
	r, ok := s.relax(c)
	if !ok {
		return Unknown, nil
	}
	if res := r.check(); res != Sat {
		return res, nil
	}
	x, floor, ceil, frac := r.fractional(len(c.v))
	if !frac {
		m := make(Model, len(s.vars))
		for i, v := range s.vars {
			m[v] = r.val[i].n
		}
		return Sat, m
	}
	result := Unsat
	for _, side := range []span{{hi: floor, noLo: true}, {lo: ceil, noHi: true}} {
		if s.out() {
			return Unknown, nil
		}
		try := c.clone()
		if side.noLo {
			try.v[x].atMost(side.hi)
		} else {
			try.v[x].atLeast(side.lo)
		}
		if try.v[x].empty() || !s.propagate(try) {
			continue
		}
		switch r, m := s.label(try); r {
		case Sat:
			return Sat, m
		case Unknown:
			result = Unknown
		}
	}
	return result, nil
}

// bound is what an atom says: the variable (x >= 0) or the form (id)
// it bounds, and the interval it bounds it to.
type bound struct {
	x, id int
	in    span
}

// reading is the kind of what read makes of an atom.
type reading int

const (
	bounds reading = iota // the atom is the bound
	holds                 // the atom is a true constant
	fails                 // the atom is a false constant
	unread                // the atom needs arithmetic beyond int64
)

// read turns the atom, with the solved variables replaced by their
// solutions, into a bound.
func (s *search) read(a Cmp) (bound, reading) {
	mono, k, ok := s.linear(a.T)
	if !ok {
		return bound{}, unread
	}
	if len(mono) == 0 {
		if a.Op.Holds(k) {
			return bound{}, holds
		}
		return bound{}, fails
	}
	op := a.Op
	switch op { // t < 0 is t + 1 <= 0, t > 0 is t - 1 >= 0
	case Lt:
		k, ok = checked.Add(k, 1)
		op = Le
	case Gt:
		k, ok = checked.Add(k, -1)
		op = Ge
	}
	if !ok || k == -1<<63 || op == Ne {
		return bound{}, unread
	}
	// t = g*u + k with u primitive, its first coefficient positive.
	var g int64
	for _, m := range mono {
		g = gcd(g, abs64(m.Coef))
	}
	if mono[0].Coef < 0 {
		g = -g
	}
	// g*u + k op 0: with g > 0, u op -k/g; with g < 0, u op' k/|g|.
	var in span
	le := func() { // g*u <= -k
		if g > 0 {
			in = span{hi: checked.FloorDiv(-k, g), noLo: true}
		} else {
			in = span{lo: checked.CeilDiv(k, -g), noHi: true}
		}
	}
	ge := func() { // g*u >= -k
		if g > 0 {
			in = span{lo: checked.CeilDiv(-k, g), noHi: true}
		} else {
			in = span{hi: checked.FloorDiv(k, -g), noLo: true}
		}
	}
	switch op {
	case Le:
		le()
	case Ge:
		ge()
	case Eq:
		le()
		first := in
		ge()
		if g > 0 {
			in.hi, in.noHi = first.hi, false
		} else {
			in.lo, in.noLo = first.lo, false
		}
	}
	if len(mono) == 1 {
		return bound{x: int(mono[0].Var), id: -1, in: in}, bounds
	}
	s.key = s.key[:0]
	for _, m := range mono {
		s.key = binary.AppendVarint(s.key, int64(m.Var))
		s.key = binary.AppendVarint(s.key, m.Coef/g)
	}
	id, seen := s.formID[string(s.key)]
	if !seen {
		f := form{x: make([]int, len(mono)), a: make([]int64, len(mono))}
		for i, m := range mono {
			f.x[i], f.a[i] = int(m.Var), m.Coef/g
		}
		id = len(s.forms)
		s.forms = append(s.forms, f)
		s.formID[string(s.key)] = id
	}
	return bound{x: -1, id: id, in: in}, bounds
}

// linear returns t, with every solved variable replaced by its
// solution, as monomials over variable indices (sorted, in a buffer
// that the next call reuses) and a constant; ok false beyond int64.
func (s *search) linear(t Term) (mono []Mono, k int64, ok bool) {
	s.touched = s.touched[:0]
	add := func(v Var, c int64) bool {
		x, in := s.index[v]
		if !in {
			s.unbound, s.missing = true, v
			return false
		}
		if s.acc[x] == 0 {
			s.touched = append(s.touched, x)
		}
		s.acc[x], ok = checked.Add(s.acc[x], c)
		return ok && s.acc[x] >= -checked.Limit && s.acc[x] <= checked.Limit
	}
	k, ok = t.Const, true
	for _, m := range t.Monos {
		s.steps++
		def, solved := s.defs[m.Var]
		if !solved {
			if ok = add(m.Var, m.Coef); !ok {
				break
			}
			continue
		}
		var p int64
		if p, ok = checked.Mul(m.Coef, def.Const); ok {
			k, ok = checked.Add(k, p)
		}
		for _, n := range def.Monos {
			if !ok {
				break
			}
			s.steps++
			if p, ok = checked.Mul(m.Coef, n.Coef); ok {
				ok = add(n.Var, p)
			}
		}
		if !ok {
			break
		}
	}
	slices.Sort(s.touched)
	s.mono = s.mono[:0]
	for _, x := range s.touched {
		if c := s.acc[x]; c != 0 {
			s.mono = append(s.mono, Mono{Var(x), c})
		}
		s.acc[x] = 0
	}
	return s.mono, k, ok
}

// assume adds the atom n to c; false when c then has an empty
// interval. An atom read gives no bound for is left out: the case gets
// weaker, which a contradiction survives, and a model is checked
// against F.
func (s *search) assume(c *cases, n *node) bool {
	s.steps++
	switch n.kind {
	case fails:
		return false
	case holds, unread:
		return true
	}
	b := n.b
	var sp *span
	if b.x < 0 {
		sp = c.formSpan(b.id)
	} else {
		sp = &c.v[b.x]
	}
	if !b.in.noLo {
		sp.atLeast(b.in.lo)
	}
	if !b.in.noHi {
		sp.atMost(b.in.hi)
	}
	return !sp.empty()
}

// judge returns Sat when c makes n true, Unsat when it makes n false,
// Unknown when it does not tell, and then n's residual under c: n
// without what every case narrower than c would skip, which is the
// parts of a disjunction c makes false, and the parts of a conjunction
// c makes true but for atoms on forms (assuming one bounds its form,
// which then has a row in the relaxation). A case that assumes or
// judges the residual does what it would with n.
func (s *search) judge(c *cases, n *node) (Result, *node) {
	s.steps++
	switch n.kind {
	case unread:
		return Unknown, n
	case holds:
		return Sat, n
	case fails:
		return Unsat, n
	case conj, disj:
		// A false part decides a conjunction, a true one a disjunction.
		decisive, out := Unsat, Sat
		if n.kind == disj {
			decisive, out = Sat, Unsat
		}
		// Atoms first, then the nested parts: an atom decides at the
		// cost of a step where a nested part costs all of its own,
		// and the answer does not depend on the order.
		var rest []*node // by part, nil for one left out; nil while n is its own residual
		for _, nested := range []bool{false, true} {
			for i, g := range n.kids {
				if (g.kind == conj || g.kind == disj) != nested {
					continue
				}
				r, residual := s.judge(c, g)
				if r == decisive {
					return decisive, nil
				}
				if r == Unknown {
					out = Unknown
				}
				keep := r == Unknown || n.kind == conj && (g.kind == bounds && g.b.x < 0 || g.kind == conj)
				if (!keep || residual != g) && rest == nil {
					rest = slices.Clone(n.kids)
				}
				if rest != nil {
					rest[i] = nil
					if keep {
						rest[i] = residual
					}
				}
			}
		}
		if out != Unknown || rest == nil {
			return out, n
		}
		return out, &node{kind: n.kind, kids: slices.DeleteFunc(rest, func(g *node) bool { return g == nil }), parts: n.parts}
	}
	b := n.b
	have := span{noLo: true, noHi: true}
	if b.x >= 0 {
		have = c.v[b.x]
	} else {
		if b.id < len(c.f) {
			have = c.f[b.id]
		}
		if e, ok := s.cachedRange(c, b.id); ok {
			r := e.span()
			if !r.noLo {
				have.atLeast(r.lo)
			}
			if !r.noHi {
				have.atMost(r.hi)
			}
		}
	}
	switch {
	case have.within(b.in):
		return Sat, n
	case !have.meet(b.in):
		return Unsat, n
	}
	return Unknown, n
}

// ends is the range of a form over intervals of its variables: the sums
// of the closed ends of its monomials' ranges, and how many are open.
type ends struct {
	lo, hi         int64
	loOpen, hiOpen int
}

func (e ends) span() span {
	return span{lo: e.lo, hi: e.hi, noLo: e.loOpen > 0, noHi: e.hiOpen > 0}
}

// cachedRange is rangeOf in judge: the range computed for the form
// since the current judging pass began, or rangeOf's.
func (s *search) cachedRange(c *cases, id int) (ends, bool) {
	for len(s.ranges) <= id {
		s.ranges = append(s.ranges, cachedEnds{})
	}
	r := &s.ranges[id]
	if r.pass != s.judging {
		r.e, r.ok = s.rangeOf(c, id)
		r.pass = s.judging
	}
	return r.e, r.ok
}

// cachedEnds is a form's range computed in judging pass pass.
type cachedEnds struct {
	e    ends
	ok   bool
	pass int64
}

// rangeOf returns the range of form id over c's variable intervals; ok
// false when a sum does not fit in int64.
func (s *search) rangeOf(c *cases, id int) (e ends, ok bool) {
	f := s.forms[id]
	s.steps += int64(len(f.x))
	for i, x := range f.x {
		lo, noLo, hi, noHi, ok := term(f.a[i], c.v[x])
		if !ok {
			return ends{}, false
		}
		if noLo {
			e.loOpen++
		} else if e.lo, ok = checked.Add(e.lo, lo); !ok {
			return ends{}, false
		}
		if noHi {
			e.hiOpen++
		} else if e.hi, ok = checked.Add(e.hi, hi); !ok {
			return ends{}, false
		}
	}
	return e, true
}

// term returns the range of a*x for x in sp; ok false when an end does
// not fit in int64.
func term(a int64, sp span) (lo int64, noLo bool, hi int64, noHi bool, ok bool) {
	l, nl, h, nh := sp.lo, sp.noLo, sp.hi, sp.noHi
	if a < 0 {
		l, nl, h, nh = h, nh, l, nl
	}
	if !nl {
		if lo, ok = checked.Mul(a, l); !ok {
			return
		}
	}
	if !nh {
		if hi, ok = checked.Mul(a, h); !ok {
			return
		}
	}
	return lo, nl, hi, nh, true
}

// without returns the sum of the closed ends of e but one monomial's,
// whose end is end (open: isOpen); ok false when another end is open or
// the difference does not fit in int64.
func without(sum int64, open int, end int64, isOpen bool) (int64, bool) {
	if isOpen {
		return sum, open == 1
	}
	if open > 0 {
		return 0, false
	}
	return checked.Add(sum, -end)
}

// propagate narrows c's intervals until nothing changes, at most
// maxRounds times over every bounded form; false when an interval
// becomes empty.
func (s *search) propagate(c *cases) bool {
	const maxRounds = 64
	for round := 0; round < maxRounds && !s.out(); round++ {
		changed := false
		for id := range c.f {
			sp := c.f[id]
			if sp.noLo && sp.noHi {
				continue
			}
			ok, ch := s.narrow(c, id)
			if !ok {
				return false
			}
			changed = changed || ch
		}
		if !changed {
			break
		}
	}
	return true
}

// narrow narrows the form id's interval by its variables' and theirs
// by the form's: with u = a*x + rest, a*x <= u.hi - least(rest) and
// a*x >= u.lo - greatest(rest), divided by a and rounded inward. ok is
// false on a contradiction; changed when a variable's interval
// narrowed.
func (s *search) narrow(c *cases, id int) (ok, changed bool) {
	e, fits := s.rangeOf(c, id)
	if !fits {
		return true, false
	}
	sp := &c.f[id]
	r := e.span()
	if !r.noLo {
		sp.atLeast(r.lo)
	}
	if !r.noHi {
		sp.atMost(r.hi)
	}
	if sp.empty() {
		return false, false
	}
	f := s.forms[id]
	for i, x := range f.x {
		a := f.a[i]
		lo, noLo, hi, noHi, _ := term(a, c.v[x]) // fits: rangeOf read it
		v := &c.v[x]
		if rest, ok := without(e.lo, e.loOpen, lo, noLo); ok && !sp.noHi {
			if most, ok := checked.Add(sp.hi, -rest); ok { // a*x <= most
				if a > 0 {
					changed = v.atMost(checked.FloorDiv(most, a)) || changed
				} else if most != -1<<63 {
					changed = v.atLeast(checked.CeilDiv(-most, -a)) || changed
				}
			}
		}
		if rest, ok := without(e.hi, e.hiOpen, hi, noHi); ok && !sp.noLo {
			if least, ok := checked.Add(sp.lo, -rest); ok { // a*x >= least
				if a > 0 {
					changed = v.atLeast(checked.CeilDiv(least, a)) || changed
				} else if least != -1<<63 {
					changed = v.atMost(checked.FloorDiv(-least, -a)) || changed
				}
			}
		}
		if v.empty() {
			return false, changed
		}
	}
	return true, changed
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}
