package presburger

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/vsym/vsym/internal/checked"
)

// Quick decides the easy Problems in plain Go, and declines the others
// (Unknown) for a Solver behind it in a Chain to answer. It is exact:
//
//   - Unsat only when proved: F, in negation normal form, is split on
//     its disjunctions, case by case, and in every case the integer
//     bounds that its atoms imply contradict one another;
//   - Sat only with a model that Eval confirms on F and that lies in
//     the Bounds;
//   - Unknown otherwise: a case whose bounds neither contradict nor
//     give a model, a problem with an Exists, or work beyond Steps.
//
// The bounds are intervals of the variables and of the linear forms the
// atoms compare (an atom c*u + k op 0, u a primitive form with its first
// coefficient positive, bounds u itself, rounded to the integers). An
// interval of a form narrows those of its variables and the other way
// round, each side rounded toward the integers, until nothing changes:
// so "x + y <= 1" and "x + y >= 2" contradict at once, whatever the
// ranges of x and y, and "2x + 2y = 1" has no integer solution. Work is
// counted in steps (a monomial read by propagation, an atom judged, a
// variable labelled), never time, so that the answer is the same on
// every machine. Arithmetic is int64 with every result checked: a
// deduction that would leave int64 is not made, which can only make
// Quick decline, never answer wrongly.
//
// A model is found by labelling: each variable in turn takes the least
// value of its interval (the greatest when it has no least, zero when
// neither), and propagation follows; a contradiction there is no proof
// of anything, and the case is left undecided.
type Quick struct {
	// Steps bounds the work of one Solve call (0: 200,000 steps, a few
	// milliseconds); a call that needs more answers Unknown.
	Steps int64
}

// Solve implements Solver.
func (q Quick) Solve(ctx context.Context, p Problem) (Answer, error) {
	if err := p.CheckBounds(); err != nil {
		return Answer{}, err
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
		budget = 200_000
	}
	s := &search{budget: budget, index: map[Var]int{}, formID: map[string]int{}}
	root := &cases{}
	for _, b := range Intersect(p.Bounds) {
		s.index[b.Var] = len(s.vars)
		s.vars = append(s.vars, b.Var)
		root.v = append(root.v, span{lo: b.Lo, hi: b.Hi, noLo: b.NoLo, noHi: b.NoHi})
	}
	for _, sp := range root.v {
		if sp.empty() {
			return Answer{Result: Unsat}, nil
		}
	}
	r, m := s.solve(root, []Formula{NNF(p.F)})
	switch r {
	case Unsat:
		return Answer{Result: Unsat}, nil
	case Sat:
		// Labelling satisfied every atom of one case; Eval confirms
		// it on F as given.
		val := func(v Var) int64 { return m[v] }
		ok := Eval(p.F, val)
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
	forms         []form
	formID        map[string]int
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

// solve decides the conjunction of c's bounds and fs, formulas in
// negation normal form, and returns Sat with a model, Unsat, or
// Unknown. It may change c.
func (s *search) solve(c *cases, fs []Formula) (Result, Model) {
	var ors []Or
	for len(fs) > 0 {
		f := fs[len(fs)-1]
		fs = fs[:len(fs)-1]
		switch f := f.(type) {
		case Bool:
			if !f {
				return Unsat, nil
			}
		case And:
			fs = append(fs, f...)
		case Or:
			ors = append(ors, f)
		case Cmp:
			if !s.assume(c, f) {
				return Unsat, nil
			}
		default: // Not of an Exists: Solve declines quantifiers before
			return Unknown, nil
		}
	}
	if !s.propagate(c) {
		return Unsat, nil
	}
	if s.out() {
		return Unknown, nil
	}
	// Drop the disjuncts c makes false and the disjunctions it makes
	// true; a disjunction with one disjunct left is a fact.
	var open []Or
	for _, or := range ors {
		var keep Or
		holds := false
		for _, d := range or {
			switch s.judge(c, d) {
			case Sat:
				holds = true
			case Unknown:
				keep = append(keep, d)
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
			fs = append(fs, keep[0])
		default:
			open = append(open, keep)
		}
	}
	if len(fs) > 0 {
		for _, or := range open {
			fs = append(fs, or)
		}
		return s.solve(c, fs)
	}
	if len(open) == 0 {
		return s.label(c)
	}
	// Split on the disjunction with the fewest disjuncts.
	k := 0
	for i, or := range open {
		if len(or) < len(open[k]) {
			k = i
		}
	}
	rest := make([]Formula, 0, len(open))
	for i, or := range open {
		if i != k {
			rest = append(rest, or)
		}
	}
	result := Unsat
	for _, d := range open[k] {
		if s.out() {
			return Unknown, nil
		}
		r, m := s.solve(c.clone(), append([]Formula{d}, rest...))
		switch r {
		case Sat:
			return Sat, m
		case Unknown:
			result = Unknown
		}
	}
	return result, nil
}

// label gives each variable of c a value in turn, propagating after
// each, and returns the model, or Unknown when labelling runs into a
// contradiction (which proves nothing: another value might have done).
func (s *search) label(c *cases) (Result, Model) {
	m := make(Model, len(s.vars))
	for i, v := range s.vars {
		s.steps++
		sp := &c.v[i]
		x := int64(0)
		switch {
		case !sp.noLo:
			x = sp.lo
		case !sp.noHi:
			x = sp.hi
		}
		*sp = span{lo: x, hi: x}
		if !s.propagate(c) || s.out() {
			return Unknown, nil
		}
		m[v] = x
	}
	return Sat, m
}

// bound is what an atom says: the variable (x >= 0) or the form (id)
// it bounds, and the interval it bounds it to; ok false when the atom
// is a constant (holds says its truth) or needs arithmetic beyond int64.
type bound struct {
	x, id int
	in    span
}

// read turns the atom into a bound.
func (s *search) read(a Cmp) (b bound, holds, ok bool) {
	t := a.T
	if len(t.Monos) == 0 {
		return bound{}, a.Op.Holds(t.Const), false
	}
	k := t.Const
	op := a.Op
	switch op { // t < 0 is t + 1 <= 0, t > 0 is t - 1 >= 0
	case Lt:
		k, ok = checked.Add(k, 1)
		op = Le
	case Gt:
		k, ok = checked.Add(k, -1)
		op = Ge
	default:
		ok = true
	}
	if !ok || k == -1<<63 || op == Ne {
		return bound{}, false, false
	}
	// t = sign*g*u + k with u primitive, its first coefficient positive.
	var g int64
	for _, m := range t.Monos {
		if m.Coef == -1<<63 {
			return bound{}, false, false
		}
		g = gcd(g, abs64(m.Coef))
	}
	if t.Monos[0].Coef < 0 {
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
	if len(t.Monos) == 1 {
		return bound{x: s.index[t.Monos[0].Var], id: -1, in: in}, false, true
	}
	key := make([]byte, 0, 8*len(t.Monos))
	for _, m := range t.Monos {
		key = binary.AppendVarint(key, int64(m.Var))
		key = binary.AppendVarint(key, m.Coef/g)
	}
	id, seen := s.formID[string(key)]
	if !seen {
		f := form{x: make([]int, len(t.Monos)), a: make([]int64, len(t.Monos))}
		for i, m := range t.Monos {
			f.x[i], f.a[i] = s.index[m.Var], m.Coef/g
		}
		id = len(s.forms)
		s.forms = append(s.forms, f)
		s.formID[string(key)] = id
	}
	return bound{x: -1, id: id, in: in}, false, true
}

// assume adds the atom to c; false when c then has an empty interval.
// An atom read gives no bound for is left out: the case gets weaker,
// which a contradiction survives, and a model is checked against F.
func (s *search) assume(c *cases, a Cmp) bool {
	s.steps++
	b, holds, ok := s.read(a)
	if !ok {
		return holds || len(a.T.Monos) > 0
	}
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

// judge returns Sat when c makes f true, Unsat when it makes f false,
// Unknown when it does not tell.
func (s *search) judge(c *cases, f Formula) Result {
	s.steps++
	switch f := f.(type) {
	case Bool:
		if f {
			return Sat
		}
		return Unsat
	case Cmp:
		b, holds, ok := s.read(f)
		switch {
		case !ok && len(f.T.Monos) > 0:
			return Unknown
		case !ok && holds:
			return Sat
		case !ok:
			return Unsat
		}
		have := span{noLo: true, noHi: true}
		if b.x >= 0 {
			have = c.v[b.x]
		} else {
			if b.id < len(c.f) {
				have = c.f[b.id]
			}
			if e, ok := s.rangeOf(c, b.id); ok {
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
			return Sat
		case !have.meet(b.in):
			return Unsat
		}
		return Unknown
	case And:
		out := Sat
		for _, g := range f {
			switch s.judge(c, g) {
			case Unsat:
				return Unsat
			case Unknown:
				out = Unknown
			}
		}
		return out
	case Or:
		out := Unsat
		for _, g := range f {
			switch s.judge(c, g) {
			case Sat:
				return Sat
			case Unknown:
				out = Unknown
			}
		}
		return out
	}
	return Unknown
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
