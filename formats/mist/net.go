package mist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/gsst"
)

// This file resolves a File into a Net: places by index, every rule as
// the affine map its equations state, the initial and target markings as
// intervals per place. It reports what the syntax allows but the
// language does not: unknown or repeated places, a place constrained
// twice in one conjunction, an empty interval, a place assigned twice in
// one rule, a place subtracted, and a rule that mist would read
// differently from its equations.

// Net is a resolved mist file.
type Net struct {
	File   *File
	Places []string
	index  map[string]int
	Rules  []*NetRule
	// Init[p] is the interval of initial tokens of place p; InitAt[p] the
	// constraint that gave it (nil: the place is not constrained, any
	// number of tokens).
	Init   []Interval
	InitAt []*Constraint
	// Target is the disjunction of conjunctions of the target section.
	Target [][]Bound
}

// Interval is a set of token counts: Lo to Hi, or Lo and up when NoHi.
type Interval struct {
	Lo, Hi int64
	NoHi   bool
}

// Contains reports whether k is in the interval.
func (iv Interval) Contains(k int64) bool { return k >= iv.Lo && (iv.NoHi || k <= iv.Hi) }

// Bound is a constraint resolved: place Place in Interval.
type Bound struct {
	Place int
	Interval
	Src *Constraint
}

// NetRule is a rule as the affine map its equations state: after the
// step, a place p with an equation holds the tokens of the places its
// right side names (as many times as it names them) before the step,
// plus its integer; a place without an equation keeps its tokens. The
// rule may fire when every bound of Guard holds and the marking after
// it is nonnegative.
type NetRule struct {
	Rule  *Rule
	Guard []Bound
	// Eqs holds the equation of each place that has one.
	Eqs map[int]*Equation
	// MistRead says that the rule assigns a place twice, which only
	// mist's own reading gives a meaning: Eqs is that reading.
	MistRead bool
	// dest[q] lists the places that receive the tokens of q, for every
	// place q that has an equation or appears in one.
	dest map[int][]int
}

// Equation is "place' = q1 + q2 + ... + Add".
type Equation struct {
	Places []int // the places of the right side, in order, with repetition
	Add    int64
	Src    *Assign
}

// Add returns the integer of p's equation (0 without one).
func (r *NetRule) Add(p int) int64 {
	if e := r.Eqs[p]; e != nil {
		return e.Add
	}
	return 0
}

// Identity reports whether p keeps exactly its own tokens.
func (r *NetRule) Identity(p int) bool {
	e := r.Eqs[p]
	return e == nil || e.Add == 0 && len(e.Places) == 1 && e.Places[0] == p
}

// Dest returns the places that receive the tokens of place q, each as
// many times as q is named: one place when the rule moves q's tokens to
// one place (q itself when it keeps them), none when they vanish,
// several when they are copied.
func (r *NetRule) Dest(q int) []int {
	if d, ok := r.dest[q]; ok {
		return d
	}
	return []int{q}
}

// Touched lists, in order, the places that have an equation or appear
// in one: Dest is [q] and Identity holds for every other place.
func (r *NetRule) Touched() []int {
	out := make([]int, 0, len(r.dest))
	for q := range r.dest {
		out = append(out, q)
	}
	slices.Sort(out)
	return out
}

// Coef returns how many times p's tokens after the step count q's
// before it.
func (r *NetRule) Coef(p, q int) int64 {
	e := r.Eqs[p]
	if e == nil {
		if p == q {
			return 1
		}
		return 0
	}
	var k int64
	for _, x := range e.Places {
		if x == q {
			k++
		}
	}
	return k
}

// Resolve checks f and returns its Net. Errors are positioned at the
// source.
func Resolve(f *File) (*Net, gsst.ErrorList) {
	var errs gsst.ErrorList
	n := &Net{File: f, index: map[string]int{}}
	for _, v := range f.Vars {
		if prev, dup := n.index[v.Name]; dup {
			errs.Add(v.Pos, "place %s declared twice (first at %s)", v.Name, f.Vars[prev].Pos)
			continue
		}
		n.index[v.Name] = len(n.Places)
		n.Places = append(n.Places, v.Name)
	}
	m := len(n.Places)
	accepts := mistAccepts(f)
	for _, r := range f.Rules {
		if nr := n.rule(r, accepts, &errs); nr != nil {
			n.Rules = append(n.Rules, nr)
		}
	}
	n.Init = make([]Interval, m)
	n.InitAt = make([]*Constraint, m)
	for p := range n.Init {
		n.Init[p] = Interval{NoHi: true}
	}
	for _, b := range n.conj(f.Init, "init", &errs) {
		n.Init[b.Place] = b.Interval
		n.InitAt[b.Place] = b.Src
	}
	for _, c := range f.Target {
		n.Target = append(n.Target, n.conj(c, "target", &errs))
	}
	for _, c := range f.Invariants {
		n.conj(c, "invariant", &errs)
	}
	return n, errs
}

// place resolves a place name.
func (n *Net) place(id *Ident, errs *gsst.ErrorList) (int, bool) {
	p, ok := n.index[id.Name]
	if !ok {
		errs.Add(id.Pos, "unknown place %s (the vars section declares %s)", id.Name, declared(n.Places))
	}
	return p, ok
}

func declared(places []string) string {
	switch {
	case len(places) == 0:
		return "none"
	case len(places) <= 8:
		return strings.Join(places, ", ")
	}
	return strings.Join(places[:8], ", ") + fmt.Sprintf(" and %d more", len(places)-8)
}

// conj resolves a conjunction, in which every place appears at most
// once (as mist requires).
func (n *Net) conj(cs []*Constraint, where string, errs *gsst.ErrorList) []Bound {
	var out []Bound
	seen := map[int]*Constraint{}
	for _, c := range cs {
		p, ok := n.place(c.Place, errs)
		if !ok {
			continue
		}
		if prev, dup := seen[p]; dup {
			errs.Add(c.Place.Pos, "place %s is constrained twice in one %s conjunction (first at %s)", c.Place.Name, where, prev.Place.Pos)
			continue
		}
		seen[p] = c
		iv := Interval{Lo: c.K, NoHi: true}
		switch c.Op {
		case Eq:
			iv = Interval{Lo: c.K, Hi: c.K}
		case In:
			iv = Interval{Lo: c.K, Hi: c.Hi}
			if c.Hi < c.K {
				errs.Add(c.Place.Pos, "empty interval [%d, %d] for place %s", c.K, c.Hi, c.Place.Name)
				continue
			}
		}
		out = append(out, Bound{Place: p, Interval: iv, Src: c})
	}
	return out
}

// rule resolves one rule and its equations.
func (n *Net) rule(r *Rule, mistReads bool, errs *gsst.ErrorList) *NetRule {
	nr := &NetRule{Rule: r, Eqs: map[int]*Equation{}, dest: map[int][]int{}}
	nerr := len(*errs)
	twice := false // a place has two equations
	nr.Guard = n.conj(r.Guard, "guard", errs)
	for _, a := range r.Assigns {
		p, ok := n.place(a.Place, errs)
		if !ok {
			continue
		}
		if prev := nr.Eqs[p]; prev != nil {
			// In a file mist reads, mist's reading is the only one: the
			// rule is its reading (below). Elsewhere two equations for
			// one place contradict each other.
			if !mistReads {
				errs.Add(a.Place.Pos, "rule %d assigns %s twice (first at %s); give each place one equation", r.Index, a.Place.Name, prev.Src.Place.Pos)
			}
			twice = true
			continue
		}
		e := &Equation{Src: a}
		nr.Eqs[p] = e
		for _, t := range a.Terms {
			switch {
			case t.Place != nil && t.Neg:
				errs.Add(t.Pos, "rule %d subtracts place %s: mist's equations add places and add or subtract integers", r.Index, t.Place.Name)
			case t.Place != nil:
				if q, ok := n.place(t.Place, errs); ok {
					e.Places = append(e.Places, q)
				}
			case t.Neg:
				e.Add -= t.Value
			default:
				e.Add += t.Value
			}
		}
		if e.Add > gsst.MaxConstant || e.Add < -gsst.MaxConstant {
			errs.Add(a.Place.Pos, "rule %d adds %d to %s, beyond the limit of %d", r.Index, e.Add, a.Place.Name, gsst.MaxConstant)
		}
	}
	if len(*errs) > nerr {
		return nil
	}
	if twice {
		nr.Eqs = n.mistEquations(r)
		nr.MistRead = true
	}
	for p := range nr.Eqs {
		nr.dest[p] = nil
	}
	for _, p := range sortedKeys(nr.Eqs) {
		for _, q := range nr.Eqs[p].Places {
			if _, ok := nr.dest[q]; !ok {
				nr.dest[q] = []int{q} // q keeps its tokens, and gives them to p as well
			}
			nr.dest[q] = append(nr.dest[q], p)
		}
	}
	for q, d := range nr.dest {
		slices.Sort(d)
		nr.dest[q] = d
	}
	if !mistReads {
		return nr
	}
	if msg := n.mistReading(nr); msg != "" {
		errs.Add(r.Pos, "rule %d: %s", r.Index, msg)
		return nil
	}
	return nr
}

func sortedKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// mistAccepts reports whether mist itself reads f: every right side is
// in mist's grammar (places added, then at most one integer added or
// subtracted, or one integer alone) and no equation sets a place to an
// integer other than 0 (which mist refuses, its "x' = c"). When it
// does not, the file has no other reading than its equations.
func mistAccepts(f *File) bool {
	for _, r := range f.Rules {
		for _, a := range r.Assigns {
			hasPlace := false
			for i, t := range a.Terms {
				if t.Place == nil && i != len(a.Terms)-1 {
					return false
				}
				hasPlace = hasPlace || t.Place != nil
			}
			if last := a.Terms[len(a.Terms)-1]; !hasPlace && last.Value != 0 {
				return false
			}
		}
	}
	return true
}

// mistReading compares the equations of r with the way mist's own
// translation reads them (its codegenrules.c), in a file mist reads: the
// integer of each equation is added to its place, then each equation
// that names other places moves all their tokens (as they are after the
// additions and the earlier moves) into its place and empties them. It
// returns "" when the two agree, and otherwise a message that gives both
// readings.
func (n *Net) mistReading(r *NetRule) string {
	tuple := n.mistTuples(r.Rule)
	get := func(p int) map[int]int64 {
		if tuple[p] == nil {
			tuple[p] = map[int]int64{p: 1}
		}
		return tuple[p]
	}
	for _, p := range r.Touched() {
		mine := get(p)
		same := mine[-1] == r.Add(p)
		for q, c := range mine {
			same = same && (q < 0 || c == r.Coef(p, q))
		}
		if e := r.Eqs[p]; e != nil {
			for _, q := range e.Places {
				same = same && mine[q] == r.Coef(p, q)
			}
		} else {
			same = same && mine[p] == 1
		}
		if !same {
			return fmt.Sprintf("mist reads this rule as %s' = %s, where its equations say %s' = %s; write the equations so that both agree",
				n.Places[p], n.affineMap(mine), n.Places[p], n.equation(r, p))
		}
	}
	return ""
}

// mistTuples is rule r as mist's translation reads it
// (codegenrules.c): each equation sets its place's integer (a later
// equation of the same place replaces it) and, when it names other
// places, is a transfer of their tokens into its place; the integers
// are added, then the transfers move, in order, all the tokens of their
// sources (as they are by then) and empty them. tuple[p] is the affine
// map of place p over the marking before the step (the key -1 holds the
// integer), for the places the rule touches; every other place keeps
// its tokens.
func (n *Net) mistTuples(r *Rule) map[int]map[int]int64 {
	tuple := map[int]map[int]int64{}
	get := func(p int) map[int]int64 {
		if tuple[p] == nil {
			tuple[p] = map[int]int64{p: 1}
		}
		return tuple[p]
	}
	type transfer struct {
		from []int
		to   int
	}
	var transfers []transfer
	delta := map[int]int64{}
	var order []int
	for _, a := range r.Assigns {
		p := n.index[a.Place.Name]
		get(p)
		if _, ok := delta[p]; !ok {
			order = append(order, p)
			delta[p] = 0
		}
		var from []int
		for _, t := range a.Terms {
			switch {
			case t.Place == nil && t.Neg:
				delta[p] = -t.Value
			case t.Place == nil:
				delta[p] = t.Value
			default:
				if q := n.index[t.Place.Name]; q != p && !containsInt(from, q) {
					from = append(from, q)
				}
			}
		}
		if len(from) > 0 {
			transfers = append(transfers, transfer{from, p})
		}
	}
	for _, p := range order {
		tuple[p][-1] += delta[p]
	}
	for _, t := range transfers {
		moved := map[int]int64{}
		for _, q := range t.from {
			for i, c := range get(q) {
				moved[i] += c
			}
			tuple[q] = map[int]int64{}
		}
		to := get(t.to)
		for i, c := range moved {
			to[i] += c
		}
	}
	return tuple
}

// mistEquations is rule r as mist reads it (mistTuples), written as
// one equation per place it touches: a place it empties gets "p' = 0".
// Each equation's source is the last that assigns its place, or, for a
// place only emptied, the first that names it.
func (n *Net) mistEquations(r *Rule) map[int]*Equation {
	src := map[int]*Assign{}
	for _, a := range r.Assigns {
		src[n.index[a.Place.Name]] = a
	}
	for _, a := range r.Assigns {
		for _, t := range a.Terms {
			if t.Place != nil {
				if q := n.index[t.Place.Name]; src[q] == nil {
					src[q] = a
				}
			}
		}
	}
	eqs := map[int]*Equation{}
	for p, m := range n.mistTuples(r) {
		e := &Equation{Add: m[-1], Src: src[p]}
		for _, q := range sortedKeys(m) {
			for c := m[q]; q >= 0 && c > 0; c-- {
				e.Places = append(e.Places, q)
			}
		}
		eqs[p] = e
	}
	return eqs
}

// affineMap writes an affine map (key -1: the constant) with the
// places' names, in place order: "x + y - 1", "0".
func (n *Net) affineMap(a map[int]int64) string {
	var places []int
	for q, c := range a {
		for q >= 0 && c > 0 {
			places = append(places, q)
			c--
		}
	}
	slices.Sort(places)
	return n.sum(places, a[-1])
}

// equation writes the right side of p's equation in r ("p" without one).
func (n *Net) equation(r *NetRule, p int) string {
	if e := r.Eqs[p]; e != nil {
		return n.sum(e.Places, e.Add)
	}
	return n.Places[p]
}

// sum writes places and an integer: "x + y - 1", "0".
func (n *Net) sum(places []int, k int64) string {
	var parts []string
	for _, q := range places {
		parts = append(parts, n.Places[q])
	}
	s := strings.Join(parts, " + ")
	switch {
	case s == "":
		return fmt.Sprint(k)
	case k > 0:
		return fmt.Sprintf("%s + %d", s, k)
	case k < 0:
		return fmt.Sprintf("%s - %d", s, -k)
	}
	return s
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
