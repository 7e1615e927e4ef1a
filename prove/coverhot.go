package prove

import (
	"maps"
	"slices"

	"github.com/vsym/vsym/presburger"
)

// Program counters read one-hot in the backward search. A Petri net
// whose one-token place invariants are written as enumerations, "pc:
// {type: [X12, X8, X20], init: X12}" with guards "pc = X8" and updates
// "pc := X12", reads pc through its complement (complement.go) as an
// integer: "pc = X8" is pc >= 1 and hi - pc >= 1, "pc := X12" a reset.
// That is exact, but the place X8 is no linear term of the model's
// variables, so the place invariants that run through it (mist's
// manufacture: X22 + X24 + X23 + X25 = 1, with X23 and X25 values of an
// enumeration) are neither linear invariants of the model nor
// semi-positive invariants of the search, and a bad state's upper bound
// that they imply ("X24 = 1") is a cap the bad states cannot have; and
// the fusion of transient states (coverfuse.go) never applies to a
// value of pc (a hub translation's S -> ri -> S with the hub as an
// enumeration over S, r1, ..., r36).
//
// So a shared variable pc with values lo..hi (three at least, at most
// maxHotValues) that starts at one constant, that every step sets to a
// constant or leaves alone, and that every atom of the guards and of the
// bad states reads alone, is read one-hot: the search's vectors get a
// variable h_u per value u (after the complements), 1 where pc = u and 0
// elsewhere, as a Petri net has a place per value. An atom on pc is the
// set of values where it holds, and a clause's atoms on pc together a
// set U: "sum of h_u over U >= 1" (a lower bound). A step that sets pc
// to v from a value u that its guard allows is split by u: h_u >= 1,
// h_u - 1, h_v + 1 (a move, nothing when u = v). The vector's own entry
// for pc is left alone by every step (the search never asks for it above
// its least value); a run's states read pc from the h_u.
//
// The extended system is monotone over every vector; the vectors that
// matter, the initial ones (h at pc's initial value 1, the others 0) and
// those reached from them, have exactly one h_u at 1, the one of pc's
// value, and a step of the extended system from such a vector is the
// model's step (its guard reads pc through U, its update moves the one
// token). So a run from an initial state is a run of the model, replayed
// as every run is, and the fixpoint's complement, each h_u read as "pc =
// u" (entryFormula writes a sum of them by cases on pc's value), is an
// invariant of the model when no initial state is above the fixpoint,
// checked as every invariant is (presburger.CheckInvariant). The sum of
// the h_u is a semi-positive invariant (every move keeps it), and the
// model's linear invariants read pc as the sum of u*h_u (linearPruning).

// maxHotValues bounds the values of a variable read one-hot, and
// maxHotCases the steps one clause of a guard is split into.
const (
	maxHotValues = 64
	maxHotCases  = 256
)

// noOneHot turns the one-hot reading off (the tests compare the
// searches with and without it); brokenHot makes a step that sets a
// variable read one-hot leave a token at its old value, for the test
// that the cross-checks catch it.
var noOneHot, brokenHot bool

// hotCount is the number of variables read one-hot.
func (cs *coverSystem) hotCount() int {
	n := 0
	for i := range cs.hotFirst {
		if cs.hotFirst[i] >= 0 {
			n++
		}
	}
	return n
}

// chooseHot returns the state variables of cs.m that the search reads
// one-hot (see above), in increasing order; orig is the model's domain.
func (cs *coverSystem) chooseHot(orig map[presburger.Var]presburger.Bound) []int {
	if noOneHot {
		return nil
	}
	m := cs.m
	cand := map[int]bool{}
	index := map[presburger.Var]int{}
	for i := range m.NumState() {
		index[m.StateVar(i)] = i
		if i < len(m.Counters) {
			continue
		}
		sh := m.Shared[i-len(m.Counters)]
		b, ok := orig[m.StateVar(i)]
		if sh.Bool || sh.Unbounded || !ok || b.NoLo || b.NoHi || b.Hi-b.Lo < 2 || b.Hi-b.Lo >= maxHotValues {
			continue
		}
		if init, fixed := m.InitialValue(i); !fixed || !init.IsConst() {
			continue
		}
		cand[i] = true
	}
	if len(cand) == 0 {
		return nil
	}
	// Every atom that reads a candidate reads it alone.
	atoms := func(f presburger.Formula) {
		for c := range presburger.Atoms(f) {
			if len(c.T.Monos) > 1 {
				for _, mo := range c.T.Monos {
					if i, ok := index[mo.Var]; ok {
						delete(cand, i)
					}
				}
			}
		}
	}
	atoms(cs.ts.Bad)
	for ti := range m.Transitions {
		t := &m.Transitions[ti]
		atoms(t.Guard)
		for j, next := range m.StepTerms(t) {
			identity := len(next.Monos) == 1 && next.Monos[0].Coef == 1 && next.Monos[0].Var == m.StateVar(j) && next.Const == 0
			if cand[j] && !identity && !next.IsConst() {
				delete(cand, j)
			}
			if identity {
				continue
			}
			// No other variable's next value reads a candidate.
			for _, mo := range next.Monos {
				if i, ok := index[mo.Var]; ok {
					delete(cand, i)
				}
			}
		}
	}
	var out []int
	for i := range m.NumState() {
		if cand[i] {
			out = append(out, i)
		}
	}
	return out
}

// addHot gives each variable of hot its one-hot variables, after those
// the vectors have (the model's and the complements).
func (cs *coverSystem) addHot(hot []int, dom map[presburger.Var]presburger.Bound) {
	cs.hot0 = len(cs.lo)
	cs.hotFirst = make([]int, cs.k)
	for i := range cs.hotFirst {
		cs.hotFirst[i] = -1
	}
	for _, i := range hot {
		b := dom[cs.m.StateVar(i)]
		cs.hotFirst[i] = len(cs.lo)
		for u := b.Lo; u <= b.Hi; u++ {
			cs.lo = append(cs.lo, 0)
			cs.hotVar = append(cs.hotVar, i)
			cs.hotVal = append(cs.hotVal, u)
		}
	}
}

// isHot reports whether model variable i is read one-hot.
func (cs *coverSystem) isHot(i int) bool {
	return cs.hotFirst != nil && i < cs.k && cs.hotFirst[i] >= 0
}

// isHotEntry reports whether entry j of the vectors is a one-hot
// variable h_u.
func (cs *coverSystem) isHotEntry(j int) bool {
	return cs.hotVar != nil && j >= cs.hot0
}

// hotEntry is the entry of h_u for variable i and value u.
func (cs *coverSystem) hotEntry(i int, u int64) int {
	return cs.hotFirst[i] + int(u-cs.hotVal[cs.hotFirst[i]-cs.hot0])
}

// hotValues returns the values of variable i.
func (cs *coverSystem) hotValues(i int) []int64 {
	var out []int64
	for j := cs.hotFirst[i]; j < len(cs.lo) && cs.hotVar[j-cs.hot0] == i; j++ {
		out = append(out, cs.hotVal[j-cs.hot0])
	}
	return out
}

// hotInitial sets the initial values of the one-hot variables from
// their variable's, a constant (chooseHot); false when it is not one.
func (cs *coverSystem) hotInitial() bool {
	for j := cs.hot0; j < len(cs.lo) && cs.hotVar != nil; j++ {
		i := cs.hotVar[j-cs.hot0]
		if !cs.exactInit(i) {
			return false
		}
		v := int64(0)
		if cs.hotVal[j-cs.hot0] == cs.initConst[i] {
			v = 1
		}
		cs.initSum[j], cs.initOpen[j] = -1, false
		cs.initConst[j], cs.initHi[j] = v, v
	}
	return true
}

// hotClause splits clause into the atoms that read no variable read
// one-hot (rest) and, for each such variable that some atom reads, the
// values where all of them hold (an empty list: the clause never
// holds).
func (cs *coverSystem) hotClause(index map[presburger.Var]int, clause []presburger.Formula) (rest []presburger.Formula, allowed map[int][]int64) {
	if cs.hotVar == nil {
		return clause, nil
	}
	for _, f := range clause {
		c, ok := f.(presburger.Cmp)
		if !ok || len(c.T.Monos) != 1 {
			rest = append(rest, f)
			continue
		}
		i, isState := index[c.T.Monos[0].Var]
		if !isState || !cs.isHot(i) {
			rest = append(rest, f)
			continue
		}
		if allowed == nil {
			allowed = map[int][]int64{}
		}
		vals, seen := allowed[i]
		if !seen {
			vals = cs.hotValues(i)
		}
		var keep []int64
		for _, u := range vals {
			if v, fits := combine(c.T.Monos[0].Coef, u, 1, c.T.Const); fits && c.Op.Holds(v) {
				keep = append(keep, u)
			}
		}
		allowed[i] = keep
	}
	return rest, allowed
}

// hotNeed adds to need and sums what allowed asks of the one-hot
// variables of each variable but those of skip: nothing when every
// value is allowed, h_u >= 1 for one value, and the sum of the h_u over
// several. False when some variable has no value allowed.
func (cs *coverSystem) hotNeed(need []int64, sums []sumAtom, allowed map[int][]int64, skip map[int]int64) ([]sumAtom, bool) {
	for _, i := range slices.Sorted(maps.Keys(allowed)) {
		vals := allowed[i]
		switch _, skipped := skip[i]; {
		case len(vals) == 0:
			return nil, false
		case skipped:
		case len(vals) == 1:
			j := cs.hotEntry(i, vals[0])
			need[j] = max(need[j], 1)
		case len(vals) < len(cs.hotValues(i)):
			a := sumAtom{bound: 1}
			for _, u := range vals {
				a.vars = append(a.vars, cs.hotEntry(i, u))
				a.coef = append(a.coef, 1)
			}
			sums = append(sums, a)
		}
	}
	return sums, true
}

// hotCases returns the steps that one clause of a guard (need, sums,
// with allowed the values of the variables read one-hot) makes of a step
// that sets the variables of assigned (read one-hot) to constants: one
// per combination of their values before the step, each moving the
// token; nil, false when there would be more than maxHotCases.
func (cs *coverSystem) hotCases(base coverStep, allowed map[int][]int64, assigned map[int]int64) ([]coverStep, bool) {
	need := slices.Clone(base.need)
	sums, ok := cs.hotNeed(need, slices.Clone(base.sums), allowed, assigned)
	if !ok {
		return nil, true // a clause that never holds
	}
	base.need, base.sums = need, sums
	out := []coverStep{base}
	for _, i := range slices.Sorted(maps.Keys(assigned)) {
		vals, ok := allowed[i]
		if !ok {
			vals = cs.hotValues(i)
		}
		if len(out)*len(vals) > maxHotCases {
			return nil, false
		}
		v := assigned[i]
		var next []coverStep
		for _, s := range out {
			for _, u := range vals {
				c := s
				c.need, c.add = slices.Clone(s.need), slices.Clone(s.add)
				from := cs.hotEntry(i, u)
				c.need[from] = max(c.need[from], 1)
				if u != v {
					if !brokenHot {
						c.add[from]--
					}
					c.add[cs.hotEntry(i, v)]++
				}
				next = append(next, c)
			}
		}
		out = next
	}
	return out, true
}

// hotState writes into st the value of each variable read one-hot, from
// its h_u in the vector x.
func (cs *coverSystem) hotState(st presburger.Model, x []int64) {
	for j := cs.hot0; j < len(x) && cs.hotVar != nil; j++ {
		if x[j] > 0 {
			i := cs.hotVar[j-cs.hot0]
			st[cs.stateVar(i)] = cs.hotVal[j-cs.hot0]
		}
	}
}

// entryFormula returns "sum over j of y_j * count(j) op c" over the
// model's variables: count(j) is entry j's term (countTerm: a variable,
// with those fused into it, or a complement), where the entries read
// one-hot, h_u standing for "pc = u", are written by cases on pc's
// value.
func (cs *coverSystem) entryFormula(y map[int]int64, op presburger.Op, c int64) presburger.Formula {
	var lin presburger.Term
	hot := map[int]map[int64]int64{}
	for _, j := range slices.Sorted(maps.Keys(y)) {
		w := y[j]
		if w == 0 {
			continue
		}
		parts := []int{j}
		if cs.root != nil {
			parts = parts[:0]
			for i, r := range cs.root {
				if r == j {
					parts = append(parts, i)
				}
			}
		}
		for _, i := range parts {
			switch {
			case cs.isHotEntry(i):
				v := cs.hotVar[i-cs.hot0]
				if hot[v] == nil {
					hot[v] = map[int64]int64{}
				}
				hot[v][cs.hotVal[i-cs.hot0]] += w
			case i >= cs.k:
				lin = lin.Add(cs.complementTerm(i).Scale(w))
			default:
				lin = lin.Add(presburger.VarTerm(cs.stateVar(i)).Scale(w))
			}
		}
	}
	var vars []int
	for v := range hot {
		vars = append(vars, v)
	}
	slices.Sort(vars)
	return cs.byCases(lin, vars, hot, op, c)
}

// byCases is entryFormula's "lin + sum of the weights of the values of
// vars op c", by cases on the values of vars, the values of equal
// weight together.
func (cs *coverSystem) byCases(lin presburger.Term, vars []int, hot map[int]map[int64]int64, op presburger.Op, c int64) presburger.Formula {
	if len(vars) == 0 {
		return presburger.Compare(lin, op, presburger.ConstTerm(c))
	}
	i := vars[0]
	vals := cs.hotValues(i)
	byWeight := map[int64][]int64{}
	for _, u := range vals {
		w := hot[i][u]
		byWeight[w] = append(byWeight[w], u)
	}
	var weights []int64
	for w := range byWeight {
		weights = append(weights, w)
	}
	slices.Sort(weights)
	var parts []presburger.Formula
	for _, w := range weights {
		rest, ok := combine(1, c, -1, w)
		if !ok {
			// Out of int64: no case is dropped, the check decides.
			return presburger.Compare(lin, op, presburger.ConstTerm(c))
		}
		parts = append(parts, presburger.Conj(cs.valueIn(i, byWeight[w], len(vals)), cs.byCases(lin, vars[1:], hot, op, rest)))
	}
	return presburger.Disj(parts...)
}

// valueIn is "variable i has one of the values us" (of n values).
func (cs *coverSystem) valueIn(i int, us []int64, n int) presburger.Formula {
	x := presburger.VarTerm(cs.stateVar(i))
	if len(us) == n {
		return presburger.True
	}
	if 2*len(us) <= n {
		var parts []presburger.Formula
		for _, u := range us {
			parts = append(parts, presburger.Compare(x, presburger.Eq, presburger.ConstTerm(u)))
		}
		return presburger.Disj(parts...)
	}
	var parts []presburger.Formula
	for _, u := range cs.hotValues(i) {
		if !slices.Contains(us, u) {
			parts = append(parts, presburger.Compare(x, presburger.Ne, presburger.ConstTerm(u)))
		}
	}
	return presburger.Conj(parts...)
}

// hotPrune returns the atoms of clause, a bad state's, but the upper
// bounds on variables with no greatest value that the semi-positive
// invariants of the one-hot system imply with the least values the
// clause's other atoms set (allowed: those on the variables read
// one-hot). mist's manufacture with its places as enumerations: "X24 =
// 1" is "X24 >= 1" where X22 + X24 + h_X23 + h_X25 = 1. Within the
// reachable states, which satisfy the invariants, the clause is the
// atoms kept; the search, which takes the larger set for the bad
// states, answers the same, and its answers are checked on the model.
func (cs *coverSystem) hotPrune(index map[presburger.Var]int, clause []presburger.Formula, allowed map[int][]int64) []presburger.Formula {
	if cs.hotVar == nil {
		return clause
	}
	if cs.hotInvs == nil {
		cs.hotInvs = cs.semiPositiveInvariants()
		if cs.hotInvs == nil {
			cs.hotInvs = []coverInvariant{}
		}
	}
	if len(cs.hotInvs) == 0 {
		return clause
	}
	// The atoms, an equation as its two halves.
	atoms := halves(clause)
	// The least values: the domain's, raised by the atoms on one
	// variable and by the values allowed.
	least := slices.Clone(cs.lo)
	for _, f := range atoms {
		if c, ok := f.(presburger.Cmp); ok && len(c.T.Monos) == 1 {
			if j, isState := index[c.T.Monos[0].Var]; isState && !cs.isHot(j) && (c.Op == presburger.Ge || c.Op == presburger.Gt) && c.T.Monos[0].Coef > 0 {
				bound := -c.T.Const
				if c.Op == presburger.Gt {
					bound++
				}
				least[j] = max(least[j], checkedCeil(bound, c.T.Monos[0].Coef))
			}
		}
	}
	for i, vals := range allowed {
		if len(vals) == 1 {
			least[cs.hotEntry(i, vals[0])] = 1
		}
	}
	var kept []presburger.Formula
	for _, f := range atoms {
		if !cs.hotImplied(index, f, least) {
			kept = append(kept, f)
		}
	}
	return kept
}

func checkedCeil(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a > 0) == (b > 0) {
		q++
	}
	return q
}

// hotImplied reports whether f is "sum of a_j*x_j <= b" with every a_j
// positive on variables with no greatest value, not read one-hot, and
// some invariant y.x = c of cs.hotInvs has y >= a and c - (y-a).least
// <= b.
func (cs *coverSystem) hotImplied(index map[presburger.Var]int, f presburger.Formula, least []int64) bool {
	t, b, ok := upperBound(f)
	if !ok || len(t.Monos) == 0 {
		return false
	}
	a := map[int]int64{}
	for _, mo := range t.Monos {
		j, isState := index[mo.Var]
		if !isState || mo.Coef <= 0 || cs.isHot(j) || cs.comp[j] >= 0 {
			return false
		}
		a[j] = mo.Coef
	}
	for _, inv := range cs.hotInvs {
		rest, fits := int64(0), true
		for j, y := range inv.y {
			d := y - a[j]
			if d < 0 {
				fits = false
				break
			}
			if d != 0 {
				if rest, fits = combine(1, rest, d, least[j]); !fits {
					break
				}
			}
		}
		if fits && inv.c-rest <= b {
			return true
		}
	}
	return false
}
