package prove

import (
	"context"
	"maps"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// The state equation of a counter system, as Petrinizer uses it for
// Petri nets (Esparza et al., CAV 2014): a reachable state is the
// initial one plus a nonnegative combination of the steps' effects,
// x = x0 + C.s with s >= 0, whatever the order of the steps and their
// guards. When no such x is bad, no reachable state is. Here a step's
// effect may read the state (a broadcast moves all of a state's
// processes, an assignment replaces a value): a step adds its constant
// part, once per firing, and, for each variable w its effect reads, the
// column of w's coefficients, w's value at that firing times, so any
// nonnegative multiple of it when w is never negative (any multiple
// otherwise). That over-approximates the reachable states again.
//
// A proof by the state equation is a certificate the solver can find and
// anybody can check: by Farkas' lemma, when the relaxation over the
// rationals has no bad solution, some weights u make u.x <= u.x0 an
// invariant (u.c <= 0 for every column c, so no step increases u.x),
// which, with the domains, the assumption on the parameters and one
// disjunct of the bad states, sums to a contradiction. Those weights
// and the multipliers of the sum solve a linear system, which the
// Solver solves over the integers (it is homogeneous but for the
// contradiction's constant, so a rational solution scales to an integer
// one). Each disjunct of the bad states gets its inequality; their
// conjunction is re-checked as any invariant. On mist's bingham nets the
// inequality is "the processes past the door are at most the lock":
// the argument of the proof in one linear form.

// maxBadDisjuncts bounds the disjuncts of the bad states the state
// equation is asked about. A disjunct that an inequality found for
// another already excludes is not asked about (excludes): mist's
// ME_250_bigtarget has 8,990 disjuncts, "two processes past the door"
// for each pair of places, and one inequality excludes them all.
const maxBadDisjuncts = 16

// maxClauses bounds the clauses of a disjunctive normal form that a
// cheap method builds (of the bad states, of a guard): beyond it the
// method does not apply and the prover gets the formula as it is. The
// normal form can be exponential in the formula: the bad states of a
// settled runs' question (settle.go) conjoin a negated guard per
// transition, 2^20 clauses for twenty transitions and gigabytes to
// build them, where ME_250_bigtarget's have 8,990.
const maxClauses = 1 << 15

// stateEquation returns invariants u.x <= u.x0, one per disjunct of
// ts.Bad, and the conditions on the parameters they rely on, which
// together with the domains exclude the bad states; nil when some
// disjunct has none (or the solver cannot tell).
func stateEquation(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem) []presburger.Formula {
	disjuncts, ok := presburger.DNFWithin(ts.Bad, maxClauses)
	if !ok || len(disjuncts) == 0 {
		return nil
	}
	// u.x <= u.x0 reads one initial state x0 per choice of the
	// parameters: with a set of them it would need the greatest u.x0
	// over the set, which is no term. The other methods take it, but
	// for a shared variable that starts anywhere from a least value up
	// (a Petri net's place that starts with "x >= 1" tokens, written as
	// a shared integer): its weight u_i is then at most 0, and the
	// greatest u_i.x0_i is u_i times that least value, InitialValue;
	// and for a group spread over several states (spreadSets): one
	// weight on them all makes u.x0 the same over the set.
	k := m.NumState()
	ranged, spread, ok := rangedInitials(m)
	if !ok {
		return nil
	}
	state := make([]presburger.Var, k)
	index := map[presburger.Var]int{}
	for i := range k {
		state[i] = m.StateVar(i)
		index[state[i]] = i
	}
	dom := domainBounds(ts.Domain)
	params := map[presburger.Var]bool{}
	for _, v := range ts.Params {
		params[v] = true
	}
	columns, ok := effectColumns(m, dom, index, params)
	if !ok {
		return nil
	}
	// Fresh variables for the weights u and the multipliers, after every
	// variable ts uses.
	next := presburger.Var(m.NumVars() + k)
	fresh := func() presburger.Var { next++; return next - 1 }
	u := make([]presburger.Var, k)
	var bounds []presburger.Bound
	for i := range u {
		u[i] = fresh()
		if ranged[i] {
			bounds = append(bounds, presburger.Bound{Var: u[i], NoLo: true, Hi: 0})
		} else {
			bounds = append(bounds, presburger.AnyInt(u[i]))
		}
	}
	// base: no step increases u.x, and u weighs the variables of each
	// spread set alike.
	var base []presburger.Formula
	for _, set := range spread {
		for _, i := range set[1:] {
			base = append(base, presburger.Compare(presburger.VarTerm(u[i]), presburger.Eq, presburger.VarTerm(u[set[0]])))
		}
	}
	for _, col := range columns {
		var t presburger.Term
		for i, c := range col.coef {
			if c != 0 {
				t = t.Add(presburger.VarTerm(u[i]).Scale(c))
			}
		}
		op := presburger.Le
		if col.signed {
			op = presburger.Eq
		}
		base = append(base, presburger.Compare(t, op, presburger.ConstTerm(0)))
	}
	init := initTerms(m)
	// rows that hold in every reachable state besides u.x <= u.x0: the
	// domains and the top-level atoms of the assumption, as t >= 0.
	var valid []presburger.Term
	for _, b := range presburger.Intersect(ts.Domain) {
		if !b.NoLo {
			valid = append(valid, presburger.VarTerm(b.Var).Sub(presburger.ConstTerm(b.Lo)))
		}
		if !b.NoHi {
			valid = append(valid, presburger.ConstTerm(b.Hi).Sub(presburger.VarTerm(b.Var)))
		}
	}
	// The invariant states what it assumes of the parameters, which the
	// check of its safety reads in no other place: atomOf gives the atom
	// of the assumption of a row, used when its multiplier is not 0.
	assumed := topAtoms(paramPart(ts))
	atomOf := map[int]int{}
	for i, a := range assumed {
		for _, row := range nonnegRows(a) {
			atomOf[len(valid)] = i
			valid = append(valid, row)
		}
	}
	used := make([]bool, len(assumed))
	var out []presburger.Formula
	var found []*weights // the inequalities of out
	asked := 0
	for _, d := range disjuncts {
		if slices.ContainsFunc(found, func(w *weights) bool { return w.excludes(d, index, state, dom) }) {
			continue
		}
		if asked++; asked > maxBadDisjuncts {
			return nil
		}
		rows := append([]presburger.Term(nil), valid...)
		for _, a := range d {
			c, ok := a.(presburger.Cmp)
			if !ok {
				return nil
			}
			rows = append(rows, nonnegRows(c)...)
		}
		// The sum -u.x + u.x0(p) + sum_r w_r * row_r has no variable
		// left and a negative constant.
		w := make([]presburger.Var, len(rows))
		fs := append([]presburger.Formula(nil), base...)
		bs := append([]presburger.Bound(nil), bounds...)
		coef := map[presburger.Var]presburger.Term{}
		var constant presburger.Term
		addTo := func(v presburger.Var, t presburger.Term) { coef[v] = coef[v].Add(t) }
		for i := range k {
			addTo(state[i], presburger.VarTerm(u[i]).Scale(-1))
			for _, mo := range init[i].Monos {
				addTo(mo.Var, presburger.VarTerm(u[i]).Scale(mo.Coef))
			}
			constant = constant.Add(presburger.VarTerm(u[i]).Scale(init[i].Const))
		}
		for r, row := range rows {
			w[r] = fresh()
			bs = append(bs, presburger.AtLeast(w[r], 0))
			for _, mo := range row.Monos {
				addTo(mo.Var, presburger.VarTerm(w[r]).Scale(mo.Coef))
			}
			constant = constant.Add(presburger.VarTerm(w[r]).Scale(row.Const))
		}
		for _, v := range slices.Sorted(maps.Keys(coef)) {
			fs = append(fs, presburger.Compare(coef[v], presburger.Eq, presburger.ConstTerm(0)))
		}
		fs = append(fs, presburger.Compare(constant, presburger.Le, presburger.ConstTerm(-1)))
		a, err := solver.Solve(ctx, presburger.Problem{Bounds: bs, F: presburger.Conj(fs...)})
		if err != nil || a.Result != presburger.Sat {
			return nil
		}
		for r, i := range atomOf {
			if a.Model[w[r]] != 0 {
				used[i] = true
			}
		}
		var lhs, rhs presburger.Term
		ws := weights{u: make([]int64, k)}
		for i := range k {
			c := a.Model[u[i]]
			if c == 0 {
				continue
			}
			if !inLimit(c) {
				return nil
			}
			ws.u[i] = c
			lhs = lhs.Add(presburger.VarTerm(state[i]).Scale(c))
			rhs = rhs.Add(init[i].Scale(c))
		}
		ws.rhs = rhs
		found = append(found, &ws)
		out = append(out, presburger.Compare(lhs, presburger.Le, rhs))
	}
	for i, a := range assumed {
		if used[i] {
			out = append(out, a)
		}
	}
	return out
}

// rangedInitials returns, for each state variable of m, whether it
// starts in a range of values from its InitialValue up (rangedStarts),
// and the groups of variables that a group spread over several states
// starts in (spreadSets); ok is false when some other variable has
// several initial values.
func rangedInitials(m *counterabs.ParamModel) (ranged []bool, spread [][]int, ok bool) {
	ranged = make([]bool, m.NumState())
	for _, i := range rangedStarts(m) {
		ranged[i] = true
	}
	spread = spreadSets(m)
	inSpread := make([]bool, m.NumState())
	for _, set := range spread {
		for _, i := range set {
			if inSpread[i] {
				return nil, nil, false // sets that overlap sum to no constant
			}
			inSpread[i] = true
		}
	}
	for i := range ranged {
		if _, fixed := m.InitialValue(i); !fixed && !ranged[i] && !inSpread[i] {
			return nil, nil, false
		}
	}
	return ranged, spread, true
}

// spreadSets returns the sets of state variables whose initial values
// m's initial set sums to a term over the parameters ("#A + #B = |p|",
// a group spread over A and B; "#A + #B = 10" at a fixed size), each
// with two variables or more. With the same weight on every variable
// of a set, u.x0 is the same at every initial state: the weight times
// that sum, which the first initial configuration (InitialValue, all
// of a group's processes in its first state) gives as well.
func spreadSets(m *counterabs.ParamModel) [][]int {
	index := map[presburger.Var]int{}
	for i := range m.NumState() {
		index[m.StateVar(i)] = i
	}
	var out [][]int
	for _, f := range presburger.Conjuncts(m.Initial) {
		c, ok := f.(presburger.Cmp)
		if !ok || c.Op != presburger.Eq {
			continue
		}
		var set []int
		sign := int64(0)
		for _, mo := range c.T.Monos {
			i, isState := index[mo.Var]
			if !isState {
				continue
			}
			if sign == 0 {
				sign = mo.Coef
			}
			if mo.Coef != sign || sign != 1 && sign != -1 {
				set = nil
				break
			}
			set = append(set, i)
		}
		if len(set) >= 2 {
			out = append(out, set)
		}
	}
	return out
}

// weights is an inequality u.x <= rhs of the state equation, u over the
// state variables (in StateVar order).
type weights struct {
	u   []int64
	rhs presburger.Term
	// What excludes reads, computed once (prepare).
	prepared bool
	unusable bool  // a weight or bound too large to reason about
	least0   int64 // the least value of u.x over the domains, open variables aside
	open     int   // variables of nonzero weight whose domain leaves u.x unbounded below
}

// excludes reports whether no state of the disjunct d (a conjunction of
// atoms over the variables state, index their inverse) within the
// domains dom satisfies w, by the least value of u.x there, with rhs
// constant: a variable of positive weight at its least value, one of
// negative weight at its greatest (a lock written as a bool, in
// "#X1 + ... + #X250 <= in", at 1, or at 0 where d says in = 0), each
// from its domain narrowed by d's atoms on that variable alone, and
// then a lower bound on a sum of other variables read as the growth it
// asks at their least weight (sumExtra); d's other atoms are set aside
// (they only make d smaller). False when it
// cannot tell. Only a shortcut: the conjunction of the inequalities is
// checked as any invariant, safety included. The least value over the
// domains alone is computed once (least0), and each disjunct adjusts it
// at the few variables it bounds: ME_250_bigtarget asks it of 8,990
// disjuncts, with u over 250 places.
func (w *weights) excludes(d []presburger.Formula, index map[presburger.Var]int, state []presburger.Var, dom map[presburger.Var]presburger.Bound) bool {
	if !w.rhs.IsConst() {
		return false
	}
	if !w.prepared {
		w.prepare(state, dom)
	}
	if w.unusable {
		return false
	}
	// narrowed holds the interval d's atoms give each variable of
	// nonzero weight that they bound; the domain is met below.
	type narrowed struct {
		i            int
		lo, hi       int64
		hasLo, hasHi bool
	}
	var bounds []narrowed
	for _, a := range d {
		c, ok := a.(presburger.Cmp)
		if !ok || len(c.T.Monos) != 1 {
			continue
		}
		i, isState := index[c.T.Monos[0].Var]
		if !isState || w.u[i] == 0 {
			continue
		}
		lo, hasLo, hi, hasHi := atomInterval(c)
		k := slices.IndexFunc(bounds, func(n narrowed) bool { return n.i == i })
		if k < 0 {
			bounds = append(bounds, narrowed{i: i})
			k = len(bounds) - 1
		}
		n := &bounds[k]
		if hasLo && (!n.hasLo || lo > n.lo) {
			n.lo, n.hasLo = lo, true
		}
		if hasHi && (!n.hasHi || hi < n.hi) {
			n.hi, n.hasHi = hi, true
		}
	}
	least, open := w.least0, w.open
	for _, n := range bounds {
		v := state[n.i]
		if b, ok := dom[v]; ok {
			// The interval within the domain: empty (d has no state
			// there: a bool's "in > 1", half of the normal form of
			// "in != 1") or narrowed on the side the weight reads.
			if !b.NoLo && (!n.hasLo || b.Lo > n.lo) {
				n.lo, n.hasLo = b.Lo, true
			}
			if !b.NoHi && (!n.hasHi || b.Hi < n.hi) {
				n.hi, n.hasHi = b.Hi, true
			}
		}
		if n.hasLo && n.hasHi && n.lo > n.hi {
			return true
		}
		ui := w.u[n.i]
		bound, has := n.lo, n.hasLo
		if ui < 0 {
			bound, has = n.hi, n.hasHi
		}
		if !has {
			continue // open before, open still
		}
		if !inLimit(bound) {
			return false
		}
		from, ok := domainSide(dom, v, ui)
		var fits bool
		if ok {
			least, fits = combine(1, least, ui, bound-from)
		} else {
			open--
			least, fits = combine(1, least, ui, bound)
		}
		if !fits {
			return false
		}
	}
	// A lower bound on a sum of variables of weight at least 0, none
	// of which d bounds alone ("#x2 + #x2_b >= 2", a state written as
	// two copies): u.x grows by what the sum asks beyond the least
	// values, at the least weight among them, at least.
	seen := map[int]bool{}
	for _, n := range bounds {
		seen[n.i] = true
	}
	for _, a := range d {
		extra, ok := w.sumExtra(a, index, state, dom, seen)
		if !ok {
			continue
		}
		var fits bool
		if least, fits = combine(1, least, 1, extra); !fits {
			return false
		}
	}
	return open == 0 && least > w.rhs.Const
}

// sumExtra returns, for a, "x_1 + ... + x_k >= b" (k >= 2, or > b-1),
// over state variables of weight at least 0 in w.u that each have a
// least value in dom and none of which seen holds, how much u.x grows
// above its least value over the domains where a holds: what the sum
// asks beyond the least values, at the least weight among them. ok is
// false for any other atom, and the variables of one it reads go to
// seen.
func (w *weights) sumExtra(a presburger.Formula, index map[presburger.Var]int, state []presburger.Var, dom map[presburger.Var]presburger.Bound, seen map[int]bool) (extra int64, ok bool) {
	c, isCmp := a.(presburger.Cmp)
	if !isCmp || len(c.T.Monos) < 2 || c.Op != presburger.Ge && c.Op != presburger.Gt || !inLimit(c.T.Const) {
		return 0, false
	}
	need := -c.T.Const
	if c.Op == presburger.Gt {
		need++
	}
	var vars []int
	least := int64(-1)
	for _, mo := range c.T.Monos {
		i, isState := index[mo.Var]
		if !isState || mo.Coef != 1 || seen[i] || w.u[i] < 0 {
			return 0, false
		}
		b, has := dom[state[i]]
		if !has || b.NoLo || !inLimit(b.Lo) {
			return 0, false
		}
		need -= b.Lo
		if least < 0 || w.u[i] < least {
			least = w.u[i]
		}
		vars = append(vars, i)
	}
	for _, i := range vars {
		seen[i] = true
	}
	if need <= 0 || !inLimit(need) {
		return 0, need <= 0
	}
	extra, fits := checked.Mul(need, least)
	return extra, fits
}

// prepare computes what excludes reads of every disjunct: the least
// value of u.x over the domains (least0), from the lower bounds of the
// variables of positive weight and the upper bounds of those of
// negative weight, and how many of them have no such bound (open).
func (w *weights) prepare(state []presburger.Var, dom map[presburger.Var]presburger.Bound) {
	w.prepared = true
	for i, ui := range w.u {
		if ui == 0 {
			continue
		}
		b, ok := domainSide(dom, state[i], ui)
		if !ok {
			w.open++
			continue
		}
		var fits bool
		if w.least0, fits = combine(1, w.least0, ui, b); !fits || !inLimit(b) {
			w.unusable = true
			return
		}
	}
}

// domainSide returns the bound of v's domain where a term of weight u
// in v is least: the lower bound for u > 0, the upper one for u < 0.
func domainSide(dom map[presburger.Var]presburger.Bound, v presburger.Var, u int64) (int64, bool) {
	b, ok := dom[v]
	switch {
	case !ok:
		return 0, false
	case u > 0:
		return b.Lo, !b.NoLo
	default:
		return b.Hi, !b.NoHi
	}
}

// atomInterval returns the bounds that c, a comparison coef*x + k op 0
// of one variable x, puts on x (Ne puts none, nor does an atom with a
// coefficient or constant beyond inLimit).
func atomInterval(c presburger.Cmp) (lo int64, hasLo bool, hi int64, hasHi bool) {
	coef, k, op := c.T.Monos[0].Coef, c.T.Const, c.Op
	if !inLimit(coef) || !inLimit(k) {
		return 0, false, 0, false
	}
	if coef < 0 {
		// -coef*x - k converse-op 0
		coef, k, op = -coef, -k, op.Converse()
	}
	// coef > 0: x op' -k/coef, with the strict forms one unit tighter.
	switch op {
	case presburger.Ge:
		return checked.CeilDiv(-k, coef), true, 0, false
	case presburger.Gt:
		return checked.FloorDiv(-k, coef) + 1, true, 0, false
	case presburger.Le:
		return 0, false, checked.FloorDiv(-k, coef), true
	case presburger.Lt:
		return 0, false, checked.CeilDiv(-k, coef) - 1, true
	case presburger.Eq:
		return checked.CeilDiv(-k, coef), true, checked.FloorDiv(-k, coef), true
	}
	return 0, false, 0, false
}

// column is the effect of some steps on the state variables, taken any
// nonnegative number of times, or any number when signed.
type column struct {
	coef   []int64
	signed bool
}

// effectColumns returns the columns of m's state equation: for each case
// of each transition (stepCases) its constant effect, and for each
// variable its effect reads, that variable's coefficients, signed
// unless the variable is never negative. ok is
// false when an effect reads a variable other than a state variable or a
// parameter (a local).
func effectColumns(m *counterabs.ParamModel, dom map[presburger.Var]presburger.Bound, index map[presburger.Var]int, params map[presburger.Var]bool) ([]column, bool) {
	k := m.NumState()
	var out []column
	for i := range m.Transitions {
		for _, c := range stepCases(m, &m.Transitions[i], dom, nil) {
			delta := c.delta
			constant := make([]int64, k)
			byVar := map[presburger.Var][]int64{}
			for v, d := range delta {
				constant[v] = d.Const
				for _, mo := range d.Monos {
					if _, ok := index[mo.Var]; !ok && !params[mo.Var] {
						return nil, false
					}
					if byVar[mo.Var] == nil {
						byVar[mo.Var] = make([]int64, k)
					}
					byVar[mo.Var][v] = mo.Coef
				}
			}
			out = append(out, column{coef: constant})
			for _, w := range slices.Sorted(maps.Keys(byVar)) {
				b, ok := dom[w]
				out = append(out, column{coef: byVar[w], signed: !ok || b.NoLo || b.Lo < 0})
			}
		}
	}
	return out, true
}

// topAtoms returns the comparisons among the top-level conjuncts of f.
func topAtoms(f presburger.Formula) []presburger.Cmp {
	switch f := f.(type) {
	case presburger.And:
		var out []presburger.Cmp
		for _, g := range f {
			out = append(out, topAtoms(g)...)
		}
		return out
	case presburger.Cmp:
		return []presburger.Cmp{f}
	}
	return nil
}

// nonnegRows returns terms t_i with c equivalent to all t_i >= 0 over the
// integers (none for a disequality, which it does not express).
func nonnegRows(c presburger.Cmp) []presburger.Term {
	one := presburger.ConstTerm(1)
	switch c.Op {
	case presburger.Ge:
		return []presburger.Term{c.T}
	case presburger.Gt:
		return []presburger.Term{c.T.Sub(one)}
	case presburger.Le:
		return []presburger.Term{c.T.Scale(-1)}
	case presburger.Lt:
		return []presburger.Term{c.T.Scale(-1).Sub(one)}
	case presburger.Eq:
		return []presburger.Term{c.T, c.T.Scale(-1)}
	}
	return nil
}
