package prove

import (
	"slices"

	"github.com/vsym/vsym/internal/checked"

	"github.com/vsym/vsym/presburger"
)

// Steps that never fire. A translation that lists every combination of
// a process's fields as a local state (Cubicle's germanish4 with all
// its 288 combinations, where 48 are reachable even with the guards
// ignored) has counters that no run raises, and steps out of their
// states that never fire. The backward search and the Farkas algorithm
// of semiPositiveInvariants (which reads the steps readDead leaves)
// spent over a minute on germanish4 so written. A step is live when every
// variable its guard (or a sum of it, or its own decrement) needs above
// the least value is live; a variable is live when it may start above
// its least value or a live step raises it; the least fixpoint leaves
// the others dead. Only live steps ever fire, so the invariants of the
// live steps are invariants of the model, and they include "x = its
// least value" for each dead variable, since no live step changes it.
// Stated together, as a proof that the search pruned with them states
// them, they are inductive for the dead steps too: each needs a dead
// variable above its least value. The minimal bad states and
// pre-images never ask for a dead variable above its least value
// either (minimal): germanish4 so written has 96 exclusive and 96
// shared local states, and its bad states' minimal elements were more
// than the search takes; a proof that dropped some states the dead
// variables' values (deadFacts).

// liveSteps says, for each step of cs, whether some run may take it,
// and for each variable whether some run may raise it above its least
// value. Complements and variables with a greatest value are taken as
// live.
func (cs *coverSystem) liveSteps() (fires, live []bool) {
	n := len(cs.lo)
	live = make([]bool, n)
	for j := range n {
		live[j] = j >= cs.k || cs.comp[j] >= 0 || cs.isHot(j) || cs.initSum[j] >= 0 || cs.initOpen[j] || cs.initHi[j] > cs.lo[j]
	}
	stepLive := func(s *coverStep) bool {
		for j, v := range s.need {
			if !live[j] && (v > cs.lo[j] || s.add[j] < 0) {
				return false
			}
		}
		for _, a := range s.sums {
			total, reach := int64(0), false
			for i, v := range a.vars {
				reach = reach || live[v]
				var ok bool
				if total, ok = combine(1, total, a.coef[i], cs.lo[v]); !ok {
					reach = true
				}
			}
			if !reach && total < a.bound {
				return false // every variable of the sum at its least value
			}
		}
		return true
	}
	fires = make([]bool, len(cs.steps))
	// Until nothing changes: a step that fires is read again when more
	// variables are live, since its transfers raise what their sums
	// read.
	for changed := true; changed; {
		changed = false
		for si := range cs.steps {
			s := &cs.steps[si]
			if !fires[si] && !stepLive(s) {
				continue
			}
			if !fires[si] {
				fires[si], changed = true, true
			}
			for j := range n {
				if live[j] {
					continue
				}
				raised := s.add[j] > 0 || s.reset[j] && s.set[j] > cs.lo[j]
				if s.moved != nil && s.moved[j] != nil {
					t := s.moved[j]
					raised = raised || t.c > cs.lo[j]
					for _, v := range t.vars {
						raised = raised || live[v] || cs.lo[v] > 0
					}
				}
				if raised {
					live[j], changed = true, true
				}
			}
		}
	}
	return fires, live
}

// readDead drops the steps of cs that never fire and marks its dead
// variables (cs.dead), once its steps are read: the bad states and the
// pre-images never ask for them above their least values (minimal), and
// a proof states them at those values (deadFacts) when that dropped a
// step or an element.
func (cs *coverSystem) readDead() {
	fires, live := cs.liveSteps()
	// The steps that never fire go: their pre-images ask for a dead
	// variable above its least value.
	steps := cs.steps[:0]
	for si, s := range cs.steps {
		if fires[si] {
			steps = append(steps, s)
		} else {
			cs.deadSkipped = true
		}
	}
	cs.steps = steps
	for j := range cs.k {
		if !live[j] {
			if cs.dead == nil {
				cs.dead = make([]bool, len(cs.lo))
			}
			cs.dead[j] = true
		}
	}
}

// deadFacts is "x_j = lo_j" for each dead variable j: inductive on its
// own, since no live step raises a dead variable and every dead step
// needs one above its least value. With stated, the semi-positive
// invariants are in the proof already, and those among them are left
// out.
func (cs *coverSystem) deadFacts(stated bool) []presburger.Formula {
	var facts []presburger.Formula
	for j, d := range cs.dead {
		if !d || stated && slices.ContainsFunc(cs.invs[:cs.semi], func(inv coverInvariant) bool {
			return len(inv.support) == 1 && inv.support[0] == j && inv.y[j] == 1 && inv.c == cs.lo[j]
		}) {
			continue
		}
		facts = append(facts, presburger.Compare(presburger.VarTerm(cs.stateVar(j)), presburger.Eq, presburger.ConstTerm(cs.lo[j])))
	}
	for i, j := range cs.projected {
		if brokenProjection {
			break
		}
		facts = append(facts, presburger.Compare(presburger.VarTerm(cs.m.StateVar(j)), presburger.Eq, presburger.ConstTerm(cs.projectedLo[i])))
	}
	return facts
}

// Projection. Dead variables stay at their least values in every
// vector of the search (the bad states and the pre-images never ask for
// more, and no step kept changes them), so the search carries them for
// nothing: germanish4 with all its local states has 594 entries to a
// vector, 54 of them live, and its search compared, copied and pruned
// vectors ten times as long as it needed. project drops them from the
// vectors once the steps are read: the entries are renumbered (svar
// maps an entry below k to its model variable), each sum of a guard, a
// cap or a transfer that reads a dead variable reads its least value
// instead, and a step that would move one off it is dropped (it never
// fires from a state where the dead variables are at their least
// values). The bad states are read then, with the dead variables at
// their least values (deadClause): a clause that asks for one above it
// is dropped, an atom that then holds everywhere left out. Runs are
// written back with the dead variables at their least values, which are
// their initial values, and a proof states them there (deadFacts): the
// states above no element whose dead variables are at their least
// values are inductive for the live steps, and the dead steps need a
// dead variable above its least value. Both are checked on the model as
// ever (replay, CheckInvariant).

// noProjection turns the projection off (the tests compare the
// searches with and without it); brokenProjection makes it wrong: the
// proof leaves the values of the variables projected out unstated.
var noProjection, brokenProjection bool

// stateVar is the model's variable of entry j (below k) of the vectors.
func (cs *coverSystem) stateVar(j int) presburger.Var {
	if cs.svar != nil {
		return cs.m.StateVar(cs.svar[j])
	}
	return cs.m.StateVar(j)
}

// entryOf returns the entry of model state variable i in the vectors,
// -1 for one projected out.
func (cs *coverSystem) entryOf(i int) int {
	if cs.svar == nil {
		return i
	}
	return cs.entry[i]
}

// project drops the dead variables from the vectors of cs (see above),
// once its steps are read and before its bad states are (deadClause
// reads them), and says whether it did: not when some dead variable
// does not start at its least value alone.
func (cs *coverSystem) project() bool {
	if cs.dead == nil || noProjection || cs.svar != nil {
		return false
	}
	n := len(cs.lo)
	pos := make([]int, n)
	var keep []int
	for j := range n {
		if j < cs.k && cs.dead[j] {
			if !cs.exactInit(j) || cs.initConst[j] != cs.lo[j] || cs.comp[j] >= 0 || cs.isHot(j) {
				return false
			}
			pos[j] = -1
			continue
		}
		pos[j] = len(keep)
		keep = append(keep, j)
	}
	k := 0
	for j := range cs.k {
		if pos[j] >= 0 {
			k++
		}
	}
	lo := cs.lo
	ints := func(x []int64) []int64 {
		y := make([]int64, len(keep))
		for i, j := range keep {
			y[i] = x[j]
		}
		return y
	}
	// sum is the sum atom a with each dead variable at its least value:
	// the variables kept, renumbered, and the constant rest, the dead
	// variables' part.
	sum := func(vars []int, coef []int64) (nv []int, nc []int64, rest int64, ok bool) {
		ok = true
		for i, v := range vars {
			if pos[v] >= 0 {
				nv, nc = append(nv, pos[v]), append(nc, coef[i])
				continue
			}
			if rest, ok = combine(1, rest, coef[i], lo[v]); !ok {
				return nil, nil, 0, false
			}
		}
		return nv, nc, rest, true
	}
	var steps []coverStep
	for _, s := range cs.steps {
		ns, ok := cs.projectStep(s, pos, keep, lo, sum, ints)
		if ok {
			steps = append(steps, ns)
		} else {
			cs.deadSkipped = true
		}
	}
	// The model's variables of the entries, and the dead ones.
	svar := make([]int, 0, k)
	entry := make([]int, cs.k)
	for j := range cs.k {
		entry[j] = pos[j]
		if pos[j] >= 0 {
			svar = append(svar, j)
		} else {
			cs.projected = append(cs.projected, j)
			cs.projectedLo = append(cs.projectedLo, lo[j])
		}
	}
	remap := func(js []int) []int {
		out := make([]int, len(js))
		for i, j := range js {
			out[i] = pos[j]
		}
		return out
	}
	comp := make([]int, 0, k)
	hi := make([]int64, 0, k)
	hotFirst := []int(nil)
	if cs.hotFirst != nil {
		hotFirst = make([]int, 0, k)
	}
	for _, j := range svar {
		c := cs.comp[j]
		if c >= 0 {
			c = pos[c]
		}
		comp, hi = append(comp, c), append(hi, cs.hi[j])
		if cs.hotFirst != nil {
			h := cs.hotFirst[j]
			if h >= 0 {
				h = pos[h]
			}
			hotFirst = append(hotFirst, h)
		}
	}
	initSum := make([]int, len(keep))
	initOpen := make([]bool, len(keep))
	for i, j := range keep {
		initSum[i], initOpen[i] = cs.initSum[j], cs.initOpen[j]
	}
	starts := make([]initialSum, len(cs.starts))
	for i, st := range cs.starts {
		starts[i] = initialSum{vars: remap(st.vars), sizes: st.sizes, total: st.total}
	}
	var unbounded map[int]bool
	for j := range cs.unbounded {
		if pos[j] >= 0 {
			if unbounded == nil {
				unbounded = map[int]bool{}
			}
			unbounded[pos[j]] = true
		}
	}
	cs.lo, cs.initConst, cs.initHi = ints(cs.lo), ints(cs.initConst), ints(cs.initHi)
	cs.initSum, cs.initOpen, cs.starts = initSum, initOpen, starts
	cs.comp, cs.hi, cs.compOf = comp, hi, remap(cs.compOf)
	cs.hot0 -= cs.k - k
	cs.hotFirst, cs.hotVar = hotFirst, remap(cs.hotVar)
	if len(cs.hotVar) == 0 {
		cs.hotVar, cs.hotVal = nil, nil
	}
	cs.unbounded = unbounded
	cs.steps = steps
	cs.k, cs.svar, cs.entry = k, svar, entry
	cs.dead, cs.hotInvs, cs.scratch = nil, nil, nil
	return true
}

// deadClause returns clause, a conjunction of atoms over the model's
// variables, with each variable projected out at its least value: the
// atoms that then hold in every state are left out, and ok is false
// when one holds in none (or a value leaves int64: the clause is kept
// whole, and the reading refuses it as ever).
func (cs *coverSystem) deadClause(clause []presburger.Formula) (out []presburger.Formula, ok bool) {
	if cs.projected == nil {
		return clause, true
	}
	at := map[presburger.Var]int64{}
	for i, j := range cs.projected {
		at[cs.m.StateVar(j)] = cs.projectedLo[i]
	}
	for _, f := range clause {
		g, exact := presburger.SubstExact(f, func(v presburger.Var) presburger.Term {
			if c, dead := at[v]; dead {
				return presburger.ConstTerm(c)
			}
			return presburger.VarTerm(v)
		})
		switch {
		case !exact:
			out = append(out, f)
		case g == presburger.True:
			continue
		case g == presburger.False:
			return nil, false
		default:
			out = append(out, g)
		}
	}
	return out, true
}

// projectStep is s in the vectors without the dead variables (pos[j]
// < 0), ok false when s needs a dead variable above its least value
// or would move one off it, or when a sum or a cap it reads never holds
// with the dead variables at their least values.
func (cs *coverSystem) projectStep(s coverStep, pos, keep []int, lo []int64, sum func([]int, []int64) ([]int, []int64, int64, bool), ints func([]int64) []int64) (coverStep, bool) {
	for j, p := range pos {
		if p >= 0 {
			continue
		}
		switch {
		case s.need[j] > lo[j]:
			return s, false
		case s.moved != nil && s.moved[j] != nil:
			v, ok := s.moved[j].value(lo)
			if !ok || v != lo[j] || slices.ContainsFunc(s.moved[j].vars, func(v int) bool { return pos[v] >= 0 }) {
				return s, false
			}
		case s.reset[j]:
			if s.set[j] != lo[j] {
				return s, false
			}
		case s.add[j] != 0:
			return s, false
		}
	}
	ns := coverStep{trans: s.trans, need: ints(s.need), add: ints(s.add), set: ints(s.set), expand: s.expand}
	ns.reset = make([]bool, len(keep))
	for i, j := range keep {
		ns.reset[i] = s.reset[j]
	}
	for _, a := range s.sums {
		vars, coef, rest, ok := sum(a.vars, a.coef)
		if !ok {
			return s, false
		}
		bound, ok := combine(1, a.bound, -1, rest)
		switch {
		case !ok:
			return s, false
		case bound <= 0:
			continue // holds in every state
		case len(vars) == 0:
			return s, false // holds in none
		}
		ns.sums = append(ns.sums, sumAtom{vars: vars, coef: coef, bound: bound})
	}
	for _, a := range s.caps {
		vars, coef, rest, ok := sum(a.vars, a.coef)
		if !ok {
			return s, false
		}
		bound, ok := combine(1, a.bound, -1, rest)
		switch {
		case !ok:
			return s, false
		case bound < 0:
			return s, false // holds in no state
		case len(vars) == 0:
			continue
		}
		ns.caps = append(ns.caps, sumAtom{vars: vars, coef: coef, bound: bound})
	}
	if s.moved != nil {
		ns.moved = make([]*sumTerm, len(keep))
		for i, j := range keep {
			t := s.moved[j]
			if t == nil {
				continue
			}
			vars, coef, rest, ok := sum(t.vars, t.coef)
			if !ok {
				return s, false
			}
			c, ok := checked.Add(t.c, rest)
			if !ok {
				return s, false
			}
			ns.moved[i] = &sumTerm{vars: vars, coef: coef, c: c}
		}
	}
	return ns, true
}

// entryWeights returns the weights coef, over the model's state
// variables, as weights over the entries of the vectors; whole is false
// when some weight is on a variable projected out.
func (cs *coverSystem) entryWeights(coef []int64) (y []int64, whole bool) {
	y = make([]int64, len(cs.lo))
	for i, w := range coef {
		switch j := cs.entryOf(i); {
		case j >= 0:
			y[j] = w
		case w != 0:
			return nil, false
		}
	}
	return y, true
}
