package detect

import (
	"context"
	"slices"
	"time"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// The certification query of a system with constructs beyond the paper:
// shared variables and updates, broadcasts, rendezvous, parameters
// (docs/certification.md, "Shared variables, broadcast and rendezvous").
//
// A step has an effect on the orbit of a concrete state (its total
// counters x and shared values v): the change z of the totals and the
// shared values w after it. Full virtual symmetry asks that any two
// configurations y, y' with equal totals and the same v reach the same
// successor orbits, that is, that every effect some step has from
// (y', v) some step has from (y, v). The steps are grouped into members:
// a block of a local transition (one member per group of the block when
// the effect depends on the mover's group: a transfer restricted to
// groups from the transition's own source), or a rendezvous. For a
// member M the query is
//
//	base & En_M(y') & AND_{N} !(En_N(y) & Z_N(y) = Z_M(y') & W_N = W_M)
//
// over every member N whose effect can coincide with M's (the others
// make their conjunct true): En is enabledness (the mover exists, the
// guard holds, the update stays in the domains; for a rendezvous, the
// guard, the domains and Hall's condition for distinct processes), Z the
// change of the totals and W the shared values after the step. The query
// of a transition or rendezvous is the disjunction over its members;
// unsat for all of them is exactly full virtual symmetry.
//
// The states fall into group, total and free states as in query.go
// (kinds), and configurations are filled the same way (fill).

// extSystem is what the queries of one system share.
type extSystem struct {
	sys     *gsst.System
	param   bool // sizes or parameters are variables
	m, d    int
	size    []presburger.Term // per group, in query variables
	bounds  []presburger.Bound
	base    presburger.Formula
	members []member
	nonneg  bool // every variable is nonnegative (FoldNonnegative applies)

	// The kinds of states, as in query.go: group states (a counter per
	// group and side), total states (one total shared by both sides),
	// free states (no variable).
	stateKinds
}

// member is a set of steps with one enabledness condition and one effect
// as a function of the configuration: a block of a local transition (or
// one group of it), or a rendezvous.
type member struct {
	tr, rv int   // the transition or the rendezvous (the other -1)
	block  int   // the block of a local transition
	groups []int // the movers' groups of a local transition's member
}

// yVar is the counter of group g in group state s on a side.
func (q *extSystem) yVar(side, s, g int) presburger.Var {
	return presburger.Var((side*len(q.groupS)+q.col[s])*q.d + g)
}

// total is the total counter of a group or total state, shared by both
// sides.
func (q *extSystem) total(s int) presburger.Term {
	return presburger.VarTerm(presburger.Var(2*len(q.groupS)*q.d + q.tvar[s]))
}

// groupSum is the sum of the counters of groups on a side in state s: its
// total when groups holds every group.
func (q *extSystem) groupSum(side, s int, groups func(g int) bool) presburger.Term {
	var sum presburger.Term
	all := true
	for g := range q.d {
		if groups(g) {
			sum = sum.Add(presburger.VarTerm(q.yVar(side, s, g)))
		} else {
			all = false
		}
	}
	if all {
		return q.total(s)
	}
	return sum
}

func (q *extSystem) firstVar() int { return 2*len(q.groupS)*q.d + q.nt }

func (q *extSystem) sharedVar(j int) presburger.Var { return presburger.Var(q.firstVar() + j) }

func (q *extSystem) paramVar(k int) presburger.Var {
	return presburger.Var(q.firstVar() + len(q.sys.Shared) + k)
}

func (q *extSystem) sizeVar(g int) presburger.Var {
	return presburger.Var(q.firstVar() + len(q.sys.Shared) + len(q.sys.Params) + g)
}

// sub writes a variable of the system in query variables, on a side.
func (q *extSystem) sub(side int) func(presburger.Var) presburger.Term {
	sys := q.sys
	return func(v presburger.Var) presburger.Term {
		if s, g, ok := sys.Counter(v); ok {
			if g >= 0 {
				return presburger.VarTerm(q.yVar(side, s, g))
			}
			return q.total(s)
		}
		if g, ok := sys.Param(v); ok {
			if g >= 0 {
				return q.size[g]
			}
			var n presburger.Term
			for h := range q.d {
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

func newExtSystem(sys *gsst.System) *extSystem {
	q := &extSystem{sys: sys, param: sys.Parametric(), m: len(sys.States), d: len(sys.Groups), nonneg: true}
	q.kinds()
	sub := q.sub(0)
	var base []presburger.Formula
	for k := range sys.Params {
		if !sys.Params[k].Fixed {
			q.bounds = append(q.bounds, presburger.AtLeast(q.paramVar(k), 0))
		}
	}
	if f := sys.Assume.Formula; f != nil {
		base = append(base, presburger.Subst(f, sub))
	}
	q.size = make([]presburger.Term, q.d)
	upper := make([]int64, q.d) // -1: none
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		switch {
		case q.param && grp.OverParams():
			q.size[g] = grp.SizeTerm.Subst(sub)
			base = append(base, presburger.Compare(q.size[g], presburger.Ge, presburger.ConstTerm(1)))
			upper[g] = -1
		case q.param && grp.Ranged:
			b := sys.SizeBounds()[g]
			b.Var = q.sizeVar(g)
			q.bounds = append(q.bounds, b)
			q.size[g] = presburger.VarTerm(b.Var)
			upper[g] = b.Hi
			if b.NoHi {
				upper[g] = -1
			}
		default:
			q.size[g] = presburger.ConstTerm(int64(grp.Size))
			upper[g] = int64(grp.Size)
		}
	}
	for j := range sys.Shared {
		v := &sys.Shared[j]
		q.bounds = append(q.bounds, v.Bounds(q.sharedVar(j)))
		q.nonneg = q.nonneg && v.Lo >= 0
	}
	// Configurations, as in query.go: each side's group states hold at
	// most each group's size (exactly, without total and free states),
	// their counters add up to the totals, and the totals to at most n
	// (exactly, without free states). The rest fills the total and free
	// states (fill), so the totals agree on both sides by construction.
	var n presburger.Term
	nUpper := int64(0)
	for g := range q.d {
		n = n.Add(q.size[g])
		if nUpper >= 0 && upper[g] >= 0 {
			nUpper += upper[g]
		} else {
			nUpper = -1
		}
	}
	var all presburger.Term
	for _, list := range [][]int{q.groupS, q.totalS} {
		for _, s := range list {
			t := q.total(s)
			q.bounds = append(q.bounds, counterBound(t.Monos[0].Var, nUpper))
			all = all.Add(t)
		}
	}
	rowOp := presburger.Le
	if len(q.totalS) == 0 && len(q.freeS) == 0 {
		rowOp = presburger.Eq
	}
	for side := range 2 {
		for g := range q.d {
			var row presburger.Term
			for _, s := range q.groupS {
				v := q.yVar(side, s, g)
				q.bounds = append(q.bounds, counterBound(v, upper[g]))
				row = row.Add(presburger.VarTerm(v))
			}
			base = append(base, presburger.Compare(row, rowOp, q.size[g]))
		}
		for _, s := range q.groupS {
			var sum presburger.Term
			for g := range q.d {
				sum = sum.Add(presburger.VarTerm(q.yVar(side, s, g)))
			}
			base = append(base, presburger.Compare(sum, presburger.Eq, q.total(s)))
		}
	}
	allOp := presburger.Le
	if len(q.freeS) == 0 {
		allOp = presburger.Eq
	}
	base = append(base, presburger.Compare(all, allOp, n))
	q.base = q.tighten(presburger.Conj(base...))

	for r := range sys.Transitions {
		t := &sys.Transitions[r]
		perGroup := false
		for _, x := range t.Broadcast {
			perGroup = perGroup || x.From == t.From && restricted(sys, x.Groups)
		}
		for b := range t.Blocks {
			if perGroup {
				for _, g := range t.Blocks[b].Groups {
					q.members = append(q.members, member{tr: r, rv: -1, block: b, groups: []int{g}})
				}
				continue
			}
			q.members = append(q.members, member{tr: r, rv: -1, block: b, groups: t.Blocks[b].Groups})
		}
	}
	for k := range sys.Rendezvous {
		q.members = append(q.members, member{tr: -1, rv: k})
	}
	return q
}

// kinds sorts the states into group, total and free states: a group
// state is one whose group counters something reads (a guard; the
// movers of a block that leaves out some group, or of a member of one
// group; a transfer or a rendezvous part restricted to groups, at its
// source), a total state one whose total alone something reads (a
// guard; the movers of a block of every group; an unrestricted transfer
// or part, at its source), a free state any other. The query reads
// nothing else of a configuration.
func (q *extSystem) kinds() {
	sys := q.sys
	groupRead := make([]bool, q.m)
	totalRead := make([]bool, q.m)
	read := func(f presburger.Formula) {
		for _, v := range presburger.FreeVars(f) {
			if s, g, ok := sys.Counter(v); ok && g >= 0 {
				groupRead[s] = true
			} else if ok {
				totalRead[s] = true
			}
		}
	}
	mark := func(s int, groups []int) {
		if restricted(sys, groups) {
			groupRead[s] = true
		} else {
			totalRead[s] = true
		}
	}
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for _, b := range t.Blocks {
			read(b.Guard)
			mark(t.From, b.Groups)
		}
		for _, x := range t.Broadcast {
			mark(x.From, x.Groups)
		}
	}
	for i := range sys.Rendezvous {
		r := &sys.Rendezvous[i]
		read(r.Guard)
		for _, p := range r.Parts {
			mark(p.From, p.Groups)
		}
	}
	q.stateKinds = sortStates(groupRead, totalRead)
}

// restricted reports whether groups leaves out some group of sys.
func restricted(sys *gsst.System, groups []int) bool {
	return groups != nil && len(groups) < len(sys.Groups)
}

// tighten is query.tighten for the extended query.
func (q *extSystem) tighten(f presburger.Formula) presburger.Formula {
	f = presburger.FoldBounds(presburger.NNF(f), q.bounds)
	if q.param && q.nonneg {
		f = presburger.FoldNonnegative(f)
	}
	return f
}

// update returns the guard-side conditions of an update (every assigned
// value in its variable's domain) and the shared values after it, in
// query variables.
func (q *extSystem) update(u *gsst.Update) (presburger.Formula, []presburger.Term) {
	sub := q.sub(0) // updates read no counter: the side does not matter
	w := make([]presburger.Term, len(q.sys.Shared))
	for j := range w {
		w[j] = presburger.VarTerm(q.sharedVar(j))
	}
	var dom []presburger.Formula
	for _, a := range u.Assign {
		j, _ := q.sys.SharedOf(a.Var)
		v := &q.sys.Shared[j]
		val := a.Value.Subst(sub)
		w[j] = val
		dom = append(dom, presburger.Compare(val, presburger.Ge, presburger.ConstTerm(int64(v.Lo))))
		if !v.Unbounded {
			dom = append(dom, presburger.Compare(val, presburger.Le, presburger.ConstTerm(int64(v.Hi))))
		}
	}
	return presburger.Conj(dom...), w
}

// enabled returns En and the effect (Z, W) of a member on a side.
func (q *extSystem) enabled(mb member, side int) (en presburger.Formula, z, w []presburger.Term) {
	sys, sub := q.sys, q.sub(side)
	z = make([]presburger.Term, q.m)
	if mb.rv >= 0 {
		rv := &sys.Rendezvous[mb.rv]
		dom, w := q.update(&rv.Update)
		for _, p := range rv.Parts {
			z[p.From] = z[p.From].Add(presburger.ConstTerm(-1))
			z[p.To] = z[p.To].Add(presburger.ConstTerm(1))
		}
		return presburger.Conj(presburger.Subst(rv.Guard, sub), dom, q.hall(rv, side)), z, w
	}
	t := &sys.Transitions[mb.tr]
	b := &t.Blocks[mb.block]
	dom, w := q.update(&b.Update)
	movers := q.groupSum(side, t.From, func(g int) bool { return slices.Contains(mb.groups, g) })
	z[t.From] = presburger.ConstTerm(-1)
	z[t.To] = presburger.ConstTerm(1)
	for _, x := range t.Broadcast {
		k := q.groupSum(side, x.From, func(g int) bool { return x.Groups == nil || slices.Contains(x.Groups, g) })
		// The mover is not transferred. With a restriction to groups
		// the member has one group (newExtSystem), so this is exact.
		if x.From == t.From && (x.Groups == nil || slices.Contains(x.Groups, mb.groups[0])) {
			k = k.Add(presburger.ConstTerm(-1))
		}
		z[x.From] = z[x.From].Sub(k)
		z[x.To] = z[x.To].Add(k)
	}
	en = presburger.Conj(presburger.Compare(movers, presburger.Ge, presburger.ConstTerm(1)), presburger.Subst(b.Guard, sub), dom)
	return en, z, w
}

// hall says that distinct processes can take the parts of rv on a side:
// for the parts from each state S, Hall's condition for a system of
// distinct representatives (every set K of them has at least |K|
// processes in S of the groups some part of K allows).
func (q *extSystem) hall(rv *gsst.Rendezvous, side int) presburger.Formula {
	byState := map[int][]int{}
	var states []int
	for i, p := range rv.Parts {
		if _, ok := byState[p.From]; !ok {
			states = append(states, p.From)
		}
		byState[p.From] = append(byState[p.From], i)
	}
	var out []presburger.Formula
	for _, s := range states {
		parts := byState[s]
		for set := 1; set < 1<<len(parts); set++ {
			allowed := make([]bool, q.d)
			k := 0
			for i, p := range parts {
				if set&(1<<i) == 0 {
					continue
				}
				k++
				for g := range q.d {
					allowed[g] = allowed[g] || rv.Parts[p].Groups == nil || slices.Contains(rv.Parts[p].Groups, g)
				}
			}
			sum := q.groupSum(side, s, func(g int) bool { return allowed[g] })
			out = append(out, presburger.Compare(sum, presburger.Ge, presburger.ConstTerm(int64(k))))
		}
	}
	return presburger.Conj(out...)
}

// same returns the formula "the effects (z1, w1) and (z2, w2) are
// equal"; False when they can never be.
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

// extQuery is the query of one transition or rendezvous: the disjunction
// over its members (a part of it, with Split).
type extQuery struct {
	q       *extSystem
	tr, rv  int
	members []member
}

func (q *extSystem) queryOf(tr, rv int) *extQuery {
	out := &extQuery{q: q, tr: tr, rv: rv}
	for _, mb := range q.members {
		if mb.tr == tr && mb.rv == rv {
			out.members = append(out.members, mb)
		}
	}
	return out
}

// numParts is the number of members to split over.
func (e *extQuery) numParts() int { return len(e.members) }

// class returns the names of the transitions and rendezvous (other than
// e's own) with a member whose effect can coincide with a member of e:
// the class e's steps are compared with.
func (e *extQuery) class() []string {
	q := e.q
	var out []string
	seen := map[[2]int]bool{{e.tr, e.rv}: true}
	for _, mb := range e.members {
		_, z1, w1 := q.enabled(mb, 1)
		for _, nb := range q.members {
			key := [2]int{nb.tr, nb.rv}
			if seen[key] {
				continue
			}
			if _, z0, w0 := q.enabled(nb, 0); same(z0, w0, z1, w1) != presburger.False {
				seen[key] = true
				out = append(out, q.name(nb))
			}
		}
	}
	return out
}

func (q *extSystem) name(mb member) string {
	if mb.rv >= 0 {
		return q.sys.RendezvousName(&q.sys.Rendezvous[mb.rv])
	}
	return q.sys.TransitionName(&q.sys.Transitions[mb.tr])
}

// formula returns the query for members part[0]..part[1]-1. The
// conjunct of a member N whose effect equals that of every member of the
// part whatever the configuration (the same constant change of the
// totals and the same update: eq folds to true) does not depend on the
// member and is written once, outside the disjunction: for a system
// whose only coinciding effects are those of one transition's blocks,
// the query is then today's, phi(y') & !phi(y).
func (e *extQuery) formula(part [2]int) presburger.Formula {
	q := e.q
	members := e.members[part[0]:part[1]]
	type side1 struct {
		en   presburger.Formula
		z, w []presburger.Term
	}
	ms := make([]side1, len(members))
	for i, mb := range members {
		ms[i].en, ms[i].z, ms[i].w = q.enabled(mb, 1)
	}
	var common []presburger.Formula
	specific := make([][]presburger.Formula, len(members))
	for _, nb := range q.members {
		en0, z0, w0 := q.enabled(nb, 0)
		eqs := make([]presburger.Formula, len(members))
		always := true
		for i := range members {
			eqs[i] = same(z0, w0, ms[i].z, ms[i].w)
			always = always && eqs[i] == presburger.True
		}
		if always {
			common = append(common, presburger.Negation(en0))
			continue
		}
		for i, eq := range eqs {
			if eq != presburger.False {
				specific[i] = append(specific[i], presburger.Negation(presburger.Conj(en0, eq)))
			}
		}
	}
	dis := make([]presburger.Formula, len(members))
	for i := range members {
		dis[i] = presburger.Conj(append([]presburger.Formula{ms[i].en}, specific[i]...)...)
	}
	return presburger.Conj(q.base, q.tighten(presburger.Conj(presburger.Disj(dis...), presburger.Conj(common...))))
}

// run decides one part of the query, as query.run does.
func (e *extQuery) run(ctx context.Context, s presburger.Solver, part [2]int, timeout time.Duration) (*Witness, presburger.Answer, int, error) {
	q := e.q
	var smallest func(context.Context, presburger.Formula, presburger.Model) (presburger.Model, int, error)
	if q.param {
		smallest = func(ctx context.Context, f presburger.Formula, m presburger.Model) (presburger.Model, int, error) {
			var n presburger.Term
			lo := int64(0)
			for g := range q.d {
				n = n.Add(q.size[g])
				if q.sys.Groups[g].OverParams() {
					lo++ // a size over the parameters is at least 1
				} else {
					lo += int64(q.sys.Groups[g].Size)
				}
			}
			return smallestModel(ctx, s, q.bounds, f, n, lo, m)
		}
	}
	model, ans, calls, err := solvePart(ctx, s, q.bounds, func() presburger.Formula { return e.formula(part) }, timeout, smallest)
	if err != nil || ans.Result != presburger.Sat {
		return nil, ans, calls, err
	}
	return e.witness(model), ans, calls, nil
}

// witness reads the configurations, the shared values and (in a family)
// the parameters and sizes from a model, and picks a step of e from the
// enabled configuration whose orbit no step of the disabled one reaches
// (none when the model is no witness: VerifyWitness then fails).
func (e *extQuery) witness(m presburger.Model) *Witness {
	q, sys := e.q, e.q.sys
	val := func(v presburger.Var) int64 { return m[v] }
	w := &Witness{Sizes: make([]int, q.d), Shared: make([]int, len(sys.Shared)), Group: -1}
	n := 0
	for g := range q.d {
		w.Sizes[g] = valueOr(q.size[g], val, gsst.MaxProcesses+1)
		n += min(max(w.Sizes[g], 0), gsst.MaxProcesses+1)
	}
	if q.param {
		for k := range sys.Params {
			if w.Params == nil {
				w.Params = make([]int, len(sys.Params))
			}
			w.Params[k] = sys.Params[k].Value
			if !sys.Params[k].Fixed {
				w.Params[k] = int(m[q.paramVar(k)])
			}
		}
	}
	if n > gsst.MaxProcesses {
		return w
	}
	for j := range sys.Shared {
		w.Shared[j] = int(m[q.sharedVar(j)])
	}
	conf := func(side int) [][]int {
		return fill(q.d, q.m, n, w.Sizes, q.groupS, q.totalS, q.freeS,
			func(c, g int) int { return int(m[q.yVar(side, q.groupS[c], g)]) },
			func(s int) int { return valueOr(q.total(s), val, gsst.MaxProcesses+1) })
	}
	w.Disabled, w.Enabled = conf(0), conf(1)
	other := Successors(sys, w.Disabled, w.Shared, w.Params)
	for _, st := range Successors(sys, w.Enabled, w.Shared, w.Params) {
		if st.Transition != e.tr || st.Rendezvous != e.rv {
			continue
		}
		if !slices.ContainsFunc(other, func(o Step) bool { return o.sameOrbit(&st) }) {
			w.Step = &st
			w.Group = st.Groups[0]
			break
		}
	}
	return w
}

// symmetricExt reports whether a transition (rv < 0) or a rendezvous of a
// system with constructs beyond the paper is symmetric as written: its
// enabledness and effect read total counters and shared values only (one
// block of every group whose guard reads no group counter, no transfer
// restricted to groups; a rendezvous with no part restricted to groups
// and a guard without group counters). Its steps from one configuration
// are then steps from every configuration of the orbit.
func symmetricExt(sys *gsst.System, tr, rv int) bool {
	if rv >= 0 {
		r := &sys.Rendezvous[rv]
		for _, p := range r.Parts {
			if restricted(sys, p.Groups) {
				return false
			}
		}
		return sys.IsTotal(r.Guard)
	}
	t := &sys.Transitions[tr]
	for _, x := range t.Broadcast {
		if restricted(sys, x.Groups) {
			return false
		}
	}
	return !NeedsQuery(sys, t)
}

// valueOr returns the value of t under val, or bad when it is beyond
// ±gsst.MaxValue (a model no witness comes from: the witness built with
// bad fails its verification).
func valueOr(t presburger.Term, val func(presburger.Var) int64, bad int) int {
	x, ok := t.Value(val)
	if !ok || x > gsst.MaxValue || x < -gsst.MaxValue {
		return bad
	}
	return int(x)
}
