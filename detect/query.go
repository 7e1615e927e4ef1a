package detect

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// The certification query of one item: a transition or a rendezvous, the
// steps gsst lowers it to (docs/certification.md, "The query").
//
// A step has an effect on the orbit of a concrete state (its total
// counters x and shared values v): the change z of the totals and the
// shared values w after it (gsst.Spec.Effect). The system is fully
// virtually symmetric when any two configurations y, y' with equal totals
// and the same v reach the same successor orbits, that is, when every
// effect some step has from (y', v) some step has from (y, v). The steps
// are compared as members (member): a step of the system, restricted to
// one group of a part where its effect depends on the mover's group. For
// a member M of the item the query is
//
//	base & En_M(y') & AND_N !(En_N(y) & Z_N(y) = Z_M(y') & W_N = W_M)
//
// over the members N whose effect can coincide with M's, the item's
// class (the others make their conjunct true): En is gsst's
// EnabledFormula, Z and W its Effect. The query of the item is the
// disjunction over its members. A conjunct whose effects are equal
// whatever the configuration (the same constant change of the totals and
// the same update: the equation folds to true) does not depend on M and
// is written once, outside the disjunction, as !phi(y). When the item's
// steps are the paper's (one process, no update, no transfer) and no
// step of another item can have their effect, every conjunct is of that
// kind and the query is Theorem 6's:
//
//	base & phi(y') & !phi(y)
//
// with phi the disjunction of the item's enabledness conditions.
//
// The states fall into three kinds, and only the first needs per-group
// variables:
//
//   - group states: the sources of the item's steps, and every state
//     whose group counter the query reads (a guard; the movers of a part
//     that leaves out some group; a transfer restricted to groups). Each
//     has a counter per group and side, and a total shared by both sides
//     (which makes the totals equal).
//   - total states: states whose total counter, and nothing else, the
//     query reads. Each has only its (shared) total.
//   - free states: all the others. The query does not read them, so they
//     have no variable at all; they hold whatever processes remain.
//
// This is exact. Given the group states' counters, group g has
// r[g] = size(g) - sum of its group-state counters processes left on each
// side, and the total and free states must hold them with the required
// totals. Nonnegative integers with row sums r[g] and column sums c[S]
// exist exactly when sum_g r[g] = sum_S c[S] (fill greedily, the
// "northwest corner rule"), so the query needs only r[g] >= 0 and the
// right grand total; witness expands a model back the same greedy way.
//
// For a parametric system the group sizes are variables too, one per
// group, shared by both sides and ranging over the group's range (open
// above for "N..") or, for a size over the parameters, that expression;
// n is their sum, and a family's free parameters are variables under its
// assumption. The argument above holds for each choice of sizes and
// parameters, so the query asks exactly whether some instance has two
// such configurations. Counters and totals then have no upper bound but
// their rows' sizes.
type query struct {
	sys   *gsst.System
	item  int
	own   []member // the item's members, taken on the enabled side y'
	class []member // the members whose effect can equal an own member's (own ones included)
	param bool     // sizes (and free parameters) are variables
	// nonneg: every variable is nonnegative (FoldNonnegative applies).
	nonneg bool
	// pin: pinned may be set (variables). pinned: the query has one
	// group state and neither total nor free states (the system has one
	// local state), so each group's counter on either side equals its
	// size: the counters are written as the sizes (counter), not as
	// variables (see variables).
	pin, pinned bool
	stateKinds
	size   []presburger.Term // per group, in query variables
	bounds []presburger.Bound
	base   presburger.Formula // configurations with equal totals, tightened
}

// member is one step of the system as the queries compare it: a step of
// gsst's Steps whose effect is exact (EffectFixed), or, where the number
// of processes a transfer moves depends on a mover's group, the step
// restricted to one group of that part (fixedEffect).
type member struct {
	item int // the transition (index in Transitions), rendezvous (len(Transitions) + its index) or environment step (after the rendezvous)
	step gsst.Step
	// z and w are the step's effect over the system's variables (the
	// change of each total counter, each shared value after it), and
	// effect identifies it: members with the same effect have the same
	// number (their effectKey's, numbered in order of appearance: the
	// keys are long on a system with many shared variables, and the
	// queries compare every pair of effects).
	z, w   []presburger.Term
	effect int
	// shift: the effect changes every total by a constant and every
	// shared variable by a constant (w[j] is its own variable plus a
	// constant, no assignment of another value). Two such effects can
	// be equal (canEqual) exactly when they are the same: each equation
	// of theirs is a constant, false unless both sides agree.
	shift bool
}

// members returns the members of sys, in the order of sys.Steps().
func members(sys *gsst.System) []member {
	var out []member
	steps := sys.Steps()
	ids := map[string]int{}
	for i := range steps {
		for _, st := range fixedEffect(sys, steps[i]) {
			z, w := sys.Effect(&st)
			k := effectKey(z, w)
			id, ok := ids[k]
			if !ok {
				id = len(ids)
				ids[k] = id
			}
			out = append(out, member{item: itemOf(sys, &steps[i]), step: st, z: z, w: w, effect: id, shift: isShift(sys, z, w)})
		}
	}
	return out
}

// isShift reports whether the effect z, w changes every total and every
// shared variable by a constant (member.shift).
func isShift(sys *gsst.System, z, w []presburger.Term) bool {
	for _, t := range z {
		if !t.IsConst() {
			return false
		}
	}
	for j, t := range w {
		if len(t.Monos) != 1 || t.Monos[0] != (presburger.Mono{Var: sys.SharedVar(j), Coef: 1}) {
			return false
		}
	}
	return true
}

// effectKey writes the effect z, w as a string that two effects share
// exactly when they are equal: terms are in their canonical form
// (monomials sorted by variable, no zero coefficient), so their numbers
// in order, each list and term with its length first, say all of it.
// (fmt.Sprint wrote the same, in 6% of the CPU of vsym prove on
// testdata/mist/mesh2x2.yaml.)
func effectKey(z, w []presburger.Term) string {
	var b []byte
	for _, ts := range [][]presburger.Term{z, w} {
		b = strconv.AppendInt(b, int64(len(ts)), 10)
		for _, t := range ts {
			b = append(b, '|')
			b = strconv.AppendInt(b, int64(len(t.Monos)), 10)
			for _, mo := range t.Monos {
				b = append(b, ' ')
				b = strconv.AppendInt(b, int64(mo.Var), 10)
				b = append(b, '*')
				b = strconv.AppendInt(b, mo.Coef, 10)
			}
			b = append(b, '+')
			b = strconv.AppendInt(b, t.Const, 10)
		}
		b = append(b, ';')
	}
	return string(b)
}

// itemOf returns the item a step was lowered from: its transition, its
// rendezvous (after the transitions) or its environment step (after the
// rendezvous).
func itemOf(sys *gsst.System, st *gsst.Step) int {
	switch o := &st.Origin; {
	case o.Rendezvous >= 0:
		return len(sys.Transitions) + o.Rendezvous
	case o.Environment >= 0:
		return len(sys.Transitions) + len(sys.Rendezvous) + o.Environment
	}
	return st.Origin.Transition
}

// fixedEffect returns st when its effect is exact, and otherwise st
// restricted to each group of a part whose source a transfer empties
// (recursively, until every effect is exact): the effect then no longer
// depends on which group the mover belongs to.
func fixedEffect(sys *gsst.System, st gsst.Step) []gsst.Step {
	if sys.EffectFixed(&st) {
		return []gsst.Step{st}
	}
	for i, p := range st.Parts {
		if len(p.Groups) == 1 || !emptiedByTransfer(&st, p.From) {
			continue // one group already, or no transfer from its source
		}
		groups := allowedGroups(sys, &p)
		var out []gsst.Step
		for _, g := range groups {
			out = append(out, fixedEffect(sys, st.Restrict(i, []int{g}))...)
		}
		return out
	}
	panic("detect: a step whose effect is not exact has no part to restrict at a transfer's source")
}

// allowedGroups lists the groups part p allows, in increasing order.
func allowedGroups(sys *gsst.System, p *gsst.Part) []int {
	var out []int
	for g := range sys.Groups {
		if p.Allows(g) {
			out = append(out, g)
		}
	}
	return out
}

// emptiedByTransfer reports whether a transfer of st starts at state s.
func emptiedByTransfer(st *gsst.Step, s int) bool {
	for _, x := range st.Transfers {
		if x.From == s {
			return true
		}
	}
	return false
}

// newQuery builds the query of item over all, the members of sys. can
// holds, for pairs of effects (a member's of all, then one of item's),
// whether they can be equal, as the queries of one system find them:
// they depend on the effects alone (a system of a Petri net written with
// a group per rule has as many effects as rules, and each query asked
// it of each of them again).
//
// pin lets the query write the group counters as the group sizes where
// they must equal them (query.pinned); Asymmetry, which projects the
// query onto the system's counters, keeps them as variables.
func newQuery(sys *gsst.System, all []member, item int, can map[[2]int]bool, pin bool) *query {
	q := &query{sys: sys, item: item, param: sys.Parametric(), nonneg: true, pin: pin}
	for _, mb := range all {
		if mb.item == item {
			q.own = append(q.own, mb)
		}
	}
	// The class: members with an effect that some own member's can
	// equal. The equations are decided here over the system's variables,
	// the enabled side's group counters renamed apart (sideApart), once
	// per pair of effects.
	var ownEffects []*member // one own member per effect
	for i := range q.own {
		if !slices.ContainsFunc(ownEffects, func(m *member) bool { return m.effect == q.own[i].effect }) {
			ownEffects = append(ownEffects, &q.own[i])
		}
	}
	// The own effects with the group counters renamed apart, each
	// when first needed.
	apart := make([][2][]presburger.Term, len(ownEffects))
	for _, nb := range all {
		for e, mb := range ownEffects {
			if constantTotals(&nb) && constantTotals(mb) && !slices.EqualFunc(nb.z, mb.z, presburger.Term.Equal) {
				continue // different constant changes of the totals: never equal
			}
			if nb.shift && mb.shift {
				// canEqual without comparing them term by term, and
				// without a pair to remember: a net written with a
				// group per rule has as many effects as rules, each
				// a shift, and each query compared it with all.
				if nb.effect == mb.effect {
					q.class = append(q.class, nb)
					break
				}
				continue
			}
			k := [2]int{nb.effect, mb.effect}
			c, ok := can[k]
			if !ok {
				if apart[e][0] == nil {
					apart[e] = [2][]presburger.Term{renameTerms(mb.z, q.sideApart), renameTerms(mb.w, q.sideApart)}
				}
				c = canEqual(nb.z, nb.w, apart[e][0], apart[e][1])
				can[k] = c
			}
			if c {
				q.class = append(q.class, nb)
				break
			}
		}
	}
	q.kinds()
	q.variables()
	return q
}

// constantTotals reports whether the change of the totals mb makes is
// a constant (it has no transfer).
func constantTotals(mb *member) bool { return len(mb.step.Transfers) == 0 }

// sideApart renames a group counter to a variable above every variable
// of the system: the enabled side's, for deciding equations of effects.
// Every other variable (totals, shared variables, parameters, sizes) is
// the same on both sides.
func (q *query) sideApart(v presburger.Var) presburger.Term {
	if _, g, ok := q.sys.Counter(v); ok && g >= 0 {
		return presburger.VarTerm(q.sys.ParamVar(len(q.sys.Params)) + v)
	}
	return presburger.VarTerm(v)
}

func renameTerms(ts []presburger.Term, sub func(presburger.Var) presburger.Term) []presburger.Term {
	out := make([]presburger.Term, len(ts))
	for i, t := range ts {
		out[i] = t.Subst(sub)
	}
	return out
}

// paperForm reports whether the query is Theorem 6's: every step of the
// item is the paper's (Simple), and no step of another item can have its
// effect. Its witness is then one of enabledness: the item can be taken
// in one configuration and not at all in the other.
func (q *query) paperForm() bool {
	for _, mb := range q.own {
		if !mb.step.Simple() {
			return false
		}
	}
	for _, nb := range q.class {
		if nb.item != q.item {
			return false
		}
	}
	return true
}

// others returns the names of the transitions and rendezvous, other than
// the item, with a member in its class.
func (q *query) others() []string {
	var out []string
	seen := map[int]bool{q.item: true}
	for _, nb := range q.class {
		if !seen[nb.item] {
			seen[nb.item] = true
			out = append(out, itemName(q.sys, nb.item))
		}
	}
	return out
}

// kinds sorts the states into group, total and free states (see query):
// the sources of the item's steps are group states, and the reads of the
// enabledness and effect of every own and class member decide the rest.
func (q *query) kinds() {
	sys := q.sys
	m := len(sys.States)
	groupRead := make([]bool, m)
	totalRead := make([]bool, m)
	read := func(v presburger.Var) {
		if s, g, ok := sys.Counter(v); ok && g >= 0 {
			groupRead[s] = true
		} else if ok {
			totalRead[s] = true
		}
	}
	for _, mb := range q.own {
		for _, p := range mb.step.Parts {
			groupRead[p.From] = true
		}
	}
	for _, list := range [][]member{q.own, q.class} {
		for _, mb := range list {
			for _, v := range presburger.FreeVars(sys.EnabledFormula(&mb.step)) {
				read(v)
			}
			for _, t := range mb.z {
				for _, mono := range t.Monos {
					read(mono.Var)
				}
			}
		}
	}
	q.stateKinds = sortStates(groupRead, totalRead)
}

// stateKinds sorts the states of a query into group, total and free
// states (see query).
type stateKinds struct {
	groupS []int // group states, increasing
	totalS []int // total states, increasing
	freeS  []int // free states, increasing
	col    []int // state -> index in groupS or totalS, or -1 for a free state
	tvar   []int // state -> index of its total variable, or -1
	nt     int   // number of total variables
}

// sortStates returns the kinds of states: group states where groupRead,
// total states where only totalRead, free states elsewhere.
func sortStates(groupRead, totalRead []bool) stateKinds {
	var k stateKinds
	m := len(groupRead)
	k.col, k.tvar = make([]int, m), make([]int, m)
	for s := range m {
		k.col[s], k.tvar[s] = -1, -1
		switch {
		case groupRead[s]:
			k.col[s] = len(k.groupS)
			k.groupS = append(k.groupS, s)
		case totalRead[s]:
			k.col[s] = len(k.totalS)
			k.totalS = append(k.totalS, s)
		default:
			k.freeS = append(k.freeS, s)
		}
	}
	for _, list := range [][]int{k.groupS, k.totalS} {
		for _, s := range list {
			k.tvar[s] = k.nt
			k.nt++
		}
	}
	return k
}

// The variables of a query: the group counters of the group states per
// side, then the totals, then the shared variables, the free parameters
// and the sizes.

// groupVar is the counter of group g in group state number c on a side.
func (q *query) groupVar(side, c, g int) presburger.Var {
	return presburger.Var((side*len(q.groupS)+c)*len(q.sys.Groups) + g)
}

// counter is the counter of group g in group state number c on a side,
// as the query writes it: the group's size when pinned, else groupVar.
func (q *query) counter(side, c, g int) presburger.Term {
	if q.pinned {
		return q.size[g]
	}
	return presburger.VarTerm(q.groupVar(side, c, g))
}

// totalVar is the total of the i-th group or total state, shared by both
// sides.
func (q *query) totalVar(i int) presburger.Var {
	return presburger.Var(2*len(q.groupS)*len(q.sys.Groups) + i)
}

func (q *query) sharedVar(j int) presburger.Var { return q.totalVar(q.nt + j) }

func (q *query) paramVar(k int) presburger.Var { return q.totalVar(q.nt + len(q.sys.Shared) + k) }

// sizeVar is the size of group g, shared by both sides (parametric
// systems only).
func (q *query) sizeVar(g int) presburger.Var {
	return q.totalVar(q.nt + len(q.sys.Shared) + len(q.sys.Params) + g)
}

// sub writes a variable of the system in query variables, on a side:
// counters as the kinds say, sizes and n in terms of the sizes, shared
// variables and free parameters as themselves, fixed parameters as their
// values.
func (q *query) sub(side int) func(presburger.Var) presburger.Term {
	sys := q.sys
	return func(v presburger.Var) presburger.Term {
		if s, g, ok := sys.Counter(v); ok {
			switch {
			case g >= 0 && (q.col[s] < 0 || q.tvar[s] >= len(q.groupS)):
				panic("detect: the query reads a group counter of a state that is not a group state")
			case g >= 0:
				return q.counter(side, q.col[s], g)
			case q.tvar[s] < 0:
				panic("detect: the query reads the total of a free state")
			}
			return presburger.VarTerm(q.totalVar(q.tvar[s]))
		}
		if g, ok := sys.Param(v); ok {
			if g >= 0 {
				return q.size[g]
			}
			var n presburger.Term
			for h := range sys.Groups {
				n = n.Add(q.size[h])
			}
			return n
		}
		if j, ok := sys.SharedOf(v); ok {
			return presburger.VarTerm(q.sharedVar(j))
		}
		if k, ok := sys.ParamOf(v); ok {
			if sys.Params[k].Fixed {
				return presburger.ConstTerm(int64(sys.Params[k].Value))
			}
			return presburger.VarTerm(q.paramVar(k))
		}
		return presburger.VarTerm(v)
	}
}

// variables sets the sizes, the bounds of every variable and base: each
// side is a configuration of the instance (its group states hold at most
// each group's size, exactly so without total and free states), the
// group states' counters add up to their totals, and the totals to at
// most n (exactly without free states); the total and free states take
// the rest (fill), so the totals agree on both sides by construction. In
// a family, the parameters satisfy the assumption and give every group
// sized over them at least one process.
func (q *query) variables() {
	sys := q.sys
	d := len(sys.Groups)
	var base []presburger.Formula
	for k := range sys.Params {
		if !sys.Params[k].Fixed {
			q.bounds = append(q.bounds, presburger.AtLeast(q.paramVar(k), 0))
		}
	}
	sub := q.sub(0) // the assumption and sizes read no counter
	if f := sys.Assume.Formula; f != nil {
		base = append(base, presburger.Subst(f, sub))
	}
	// The size of each group: a constant, an expression over the
	// parameters, or a variable within the group's range. upper[g]
	// bounds a counter of group g (open: -1).
	q.size = make([]presburger.Term, d)
	upper := make([]int64, d)
	for g, b := range sys.SizeBounds()[:d] {
		grp := &sys.Groups[g]
		switch {
		case q.param && grp.OverParams():
			q.size[g] = grp.SizeTerm.Subst(sub)
			base = append(base, presburger.Compare(q.size[g], presburger.Ge, presburger.ConstTerm(1)))
		case q.param:
			b.Var = q.sizeVar(g)
			q.bounds = append(q.bounds, b)
			q.size[g] = presburger.VarTerm(b.Var)
		default:
			q.size[g] = presburger.ConstTerm(int64(grp.Size))
		}
		upper[g] = b.Hi
		if b.NoHi {
			upper[g] = -1
		}
	}
	for j := range sys.Shared {
		v := &sys.Shared[j]
		q.bounds = append(q.bounds, v.Bounds(q.sharedVar(j)))
		q.nonneg = q.nonneg && v.Lo >= 0
	}
	var n presburger.Term
	nUpper := int64(0)
	for g := range d {
		n = n.Add(q.size[g])
		if nUpper >= 0 && upper[g] >= 0 {
			nUpper += upper[g]
		} else {
			nUpper = -1
		}
	}
	var all presburger.Term // sum of every total variable
	for i := range q.nt {
		v := q.totalVar(i)
		q.bounds = append(q.bounds, counterBound(v, nUpper))
		all = all.Add(presburger.VarTerm(v))
	}
	// Every process in a group or total state: rows must be exact.
	rowOp := presburger.Le
	if len(q.freeS) == 0 && len(q.totalS) == 0 {
		rowOp = presburger.Eq
	}
	// One group state holding every process: each row is one counter
	// equal to its group's size, on both sides. Substituting the size
	// for the counter is exact: (x = size & 0 <= x <= upper & F(x)) has
	// the models of (0 <= size <= upper & F(size)), and those atoms are
	// kept (they fold to true for a constant size within its range). The
	// counter's row is then size = size, and its column says the state's
	// total is n. A system of a Petri net written with a group per rule
	// (one local state, a group of one process per transition) has as
	// many group counters per side as transitions, which the solver then
	// no longer sees: each query reads only the shared values and totals.
	q.pinned = q.pin && rowOp == presburger.Eq && len(q.groupS) == 1
	for side := range 2 {
		if q.pinned {
			if side == 0 {
				for g := range d {
					base = append(base, presburger.Compare(q.size[g], presburger.Ge, presburger.ConstTerm(0)))
					if upper[g] >= 0 {
						base = append(base, presburger.Compare(q.size[g], presburger.Le, presburger.ConstTerm(upper[g])))
					}
				}
				base = append(base, presburger.Compare(n, presburger.Eq, presburger.VarTerm(q.totalVar(q.tvar[q.groupS[0]]))))
			}
			continue
		}
		for g := range d {
			vs := make([]presburger.Var, len(q.groupS))
			for c := range q.groupS {
				vs[c] = q.groupVar(side, c, g)
				q.bounds = append(q.bounds, counterBound(vs[c], upper[g]))
			}
			base = append(base, presburger.Compare(sumOf(vs), rowOp, q.size[g]))
		}
		for c, s := range q.groupS {
			vs := make([]presburger.Var, d)
			for g := range d {
				vs[g] = q.groupVar(side, c, g)
			}
			base = append(base, presburger.Compare(sumOf(vs), presburger.Eq, presburger.VarTerm(q.totalVar(q.tvar[s]))))
		}
	}
	// Free states take up the rest; without them the totals must add up
	// to n exactly.
	allOp := presburger.Le
	if len(q.freeS) == 0 {
		allOp = presburger.Eq
	}
	base = append(base, presburger.Compare(all, allOp, n))
	// Shared by every part of a split query: simplify it once.
	q.base = q.tighten(presburger.Conj(base...))
}

// sumOf is the sum of distinct variables vs, given in increasing order,
// built at once (adding them one by one copies the sum each time, which
// is quadratic in the number of groups).
func sumOf(vs []presburger.Var) presburger.Term {
	t := presburger.Term{Monos: make([]presburger.Mono, len(vs))}
	for i, v := range vs {
		if i > 0 && vs[i-1] >= v {
			panic("detect: sumOf needs distinct variables in increasing order")
		}
		t.Monos[i] = presburger.Mono{Var: v, Coef: 1}
	}
	return t
}

// counterBound is the range of a counter: 0..hi, or 0.. when hi < 0.
func counterBound(v presburger.Var, hi int64) presburger.Bound {
	if hi < 0 {
		return presburger.AtLeast(v, 0)
	}
	return presburger.Bound{Var: v, Lo: 0, Hi: hi}
}

// enabled returns a member's enabledness on a side, in query variables.
func (q *query) enabled(mb *member, side int) presburger.Formula {
	return presburger.Subst(q.sys.EnabledFormula(&mb.step), q.sub(side))
}

// same returns the formula "the effects (z1, w1) and (z2, w2) are
// equal"; False when they can never be, True when they always are.
func same(z1, w1, z2, w2 []presburger.Term) presburger.Formula {
	var eq []presburger.Formula
	for s := range z1 {
		eq = append(eq, presburger.Compare(z1[s], presburger.Eq, z2[s]))
	}
	for j := range w1 {
		eq = append(eq, presburger.Compare(w1[j], presburger.Eq, w2[j]))
	}
	return presburger.Conj(eq...)
}

// canEqual says whether same(z1, w1, z2, w2) is not false: whether no
// equation of it is false by itself (it stops at the first).
func canEqual(z1, w1, z2, w2 []presburger.Term) bool {
	for _, p := range [2][2][]presburger.Term{{z1, z2}, {w1, w2}} {
		for i, a := range p[0] {
			if b := p[1][i]; !a.Equal(b) && presburger.Compare(a, presburger.Eq, b) == presburger.False {
				return false
			}
		}
	}
	return true
}

// formula returns the query restricted to the item's members
// part[0]..part[1]-1 on the enabled side: the disjunction over them of
// En_M(y') and the conjuncts of the members N whose effect equals M's
// only in some configurations, and once for all of them !phi(y), phi the
// disjunction of En_N over the members whose effect always equals theirs.
func (q *query) formula(part [2]int) presburger.Formula {
	own := q.own[part[0]:part[1]]
	// The equation of the effects of N (disabled side) and M (enabled
	// side), once per pair of effects.
	type sideEffect struct{ z, w []presburger.Term }
	onSide := [2]map[int]sideEffect{{}, {}}
	effectOn := func(mb *member, side int) sideEffect {
		e, ok := onSide[side][mb.effect]
		if !ok {
			sub := q.sub(side)
			e = sideEffect{renameTerms(mb.z, sub), renameTerms(mb.w, sub)}
			onSide[side][mb.effect] = e
		}
		return e
	}
	eqs := map[[2]int]presburger.Formula{}
	equal := func(n, m *member) presburger.Formula {
		k := [2]int{n.effect, m.effect}
		eq, ok := eqs[k]
		if !ok {
			a, b := effectOn(n, 0), effectOn(m, 1)
			eq = same(a.z, a.w, b.z, b.w)
			eqs[k] = eq
		}
		return eq
	}
	var common []presburger.Formula
	specific := make([][]presburger.Formula, len(own))
	for k := range q.class {
		n := &q.class[k]
		always := true
		for i := range own {
			always = always && equal(n, &own[i]) == presburger.True
		}
		en := q.enabled(n, 0)
		if always {
			common = append(common, en)
			continue
		}
		for i := range own {
			if eq := equal(n, &own[i]); eq != presburger.False {
				specific[i] = append(specific[i], presburger.Negation(presburger.Conj(en, eq)))
			}
		}
	}
	dis := make([]presburger.Formula, len(own))
	for i := range own {
		dis[i] = presburger.Conj(append([]presburger.Formula{q.enabled(&own[i], 1)}, specific[i]...)...)
	}
	return presburger.Conj(q.base, q.tighten(presburger.Disj(dis...)), q.tighten(presburger.Negation(presburger.Disj(common...))))
}

// run decides one (part of a) query; calls is the number of solver calls
// it made (0 when the formula folded to false). On Sat the witness is
// returned unverified; for a parametric system it is one of the smallest
// instance that has one (smallestModel).
func (q *query) run(ctx context.Context, s presburger.Solver, part [2]int, timeout time.Duration) (*Witness, presburger.Answer, int, error) {
	var smallest func(context.Context, presburger.Formula, []presburger.Bound, presburger.Model) (presburger.Model, int, error)
	if q.param {
		smallest = func(ctx context.Context, f presburger.Formula, bounds []presburger.Bound, m presburger.Model) (presburger.Model, int, error) {
			var n presburger.Term
			lo := int64(0)
			for g := range q.sys.Groups {
				n = n.Add(q.size[g])
				if q.sys.Groups[g].OverParams() {
					lo++ // a size over the parameters is at least 1
				} else {
					lo += int64(q.sys.Groups[g].Size)
				}
			}
			return smallestModel(ctx, s, bounds, f, n, lo, m)
		}
	}
	var f presburger.Formula
	model, ans, calls, err := solvePart(ctx, s, func() (presburger.Formula, []presburger.Bound) {
		f = q.formula(part)
		return f, q.boundsOf(f)
	}, timeout, smallest)
	if err != nil || ans.Result != presburger.Sat {
		return nil, ans, calls, err
	}
	return q.witness(model, f), ans, calls, nil
}

// boundsOf returns the bounds of the query f needs: every bound but
// those of the shared variables f does not read. A variable that nothing
// reads is left out of the problem altogether, so that it cannot change
// the solver's model (and with it the witness).
func (q *query) boundsOf(f presburger.Formula) []presburger.Bound {
	if len(q.sys.Shared) == 0 {
		return q.bounds
	}
	read := map[presburger.Var]bool{}
	for _, v := range presburger.FreeVars(f) {
		read[v] = true
	}
	out := make([]presburger.Bound, 0, len(q.bounds))
	for _, b := range q.bounds {
		if j := int(b.Var - q.sharedVar(0)); j >= 0 && j < len(q.sys.Shared) && !read[b.Var] {
			continue
		}
		out = append(out, b)
	}
	return out
}

// solvePart decides one part of a query, its formula and bounds given by
// build. A context that has ended answers Unknown before the formula is
// built: building it takes long for large guards, and the run that ended
// the context should end right away. A false formula is Unsat without a
// solver. On Sat, smallest (when not nil: a parametric query) looks for a
// model whose instance has as few processes as possible; the model
// returned is the one to read the witness from.
func solvePart(ctx context.Context, s presburger.Solver, build func() (presburger.Formula, []presburger.Bound), timeout time.Duration,
	smallest func(context.Context, presburger.Formula, []presburger.Bound, presburger.Model) (presburger.Model, int, error)) (presburger.Model, presburger.Answer, int, error) {
	if err := ctx.Err(); err != nil {
		return nil, presburger.Answer{Result: presburger.Unknown, Reason: err.Error(), Stopped: true}, 0, nil
	}
	f, bounds := build()
	if f == presburger.False {
		return nil, presburger.Answer{Result: presburger.Unsat}, 0, nil
	}
	if s == nil {
		return nil, presburger.Answer{}, 0, errNoSolver
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	ans, err := s.Solve(ctx, presburger.Problem{Bounds: bounds, F: f})
	calls := 1
	if err != nil || ans.Result != presburger.Sat {
		return nil, ans, calls, err
	}
	model := ans.Model
	if smallest != nil {
		var more int
		model, more, err = smallest(ctx, f, bounds, model)
		calls += more
		if err != nil {
			return nil, ans, calls, err
		}
	}
	return model, ans, calls, nil
}

// smallestModel looks for a model of f under bounds with n (the number
// of processes, a term over f's variables; lo at least) as small as
// possible, starting from model m: a binary search on the bound
// "n <= k", monotone in k, so the result has the least n of all models.
// It stops early, keeping the best model so far, when the solver answers
// Unknown (a smaller witness is a convenience, not a verdict).
func smallestModel(ctx context.Context, s presburger.Solver, bounds []presburger.Bound, f presburger.Formula, n presburger.Term, lo int64, m presburger.Model) (presburger.Model, int, error) {
	best, ok := n.Value(func(v presburger.Var) int64 { return m[v] })
	if !ok {
		return m, 0, nil // no n to bisect on; m is a model all the same
	}
	calls := 0
	for lo < best {
		mid := lo + (best-lo)/2
		ans, err := s.Solve(ctx, presburger.Problem{Bounds: bounds,
			F: presburger.Conj(f, presburger.Compare(n, presburger.Le, presburger.ConstTerm(mid)))})
		calls++
		switch {
		case err != nil:
			return nil, calls, err
		case ans.Result == presburger.Sat:
			k, ok := n.Value(func(v presburger.Var) int64 { return ans.Model[v] })
			if !ok || k > mid {
				return nil, calls, errkind.Errorf(errkind.Internal, "a model of n <= %d has n = %s", mid, n.BigValue(func(v presburger.Var) int64 { return ans.Model[v] }))
			}
			m, best = ans.Model, k
		case ans.Result == presburger.Unsat:
			lo = mid + 1
		default:
			return m, calls, nil
		}
	}
	return m, calls, nil
}

// tighten rewrites f into negation normal form without != and folds the
// atoms the query's variable bounds decide (presburger.FoldBounds). The
// point is the guards' "#S[g] = 0": negated in !phi(y) it becomes
// "#S[g] < 0 | #S[g] > 0", whose first half the bounds refute. Leaving
// such disjunctions to the solver makes its case splits much larger.
// FoldBounds leaves atoms over variables without an upper bound alone;
// when every variable of the query is nonnegative, that decides those
// (presburger.FoldNonnegative).
func (q *query) tighten(f presburger.Formula) presburger.Formula {
	f = presburger.FoldBounds(presburger.NNF(f), q.bounds)
	if q.param && q.nonneg {
		f = presburger.FoldNonnegative(f)
	}
	return f
}
