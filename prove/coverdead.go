package prove

import (
	"slices"

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
		facts = append(facts, presburger.Compare(presburger.VarTerm(cs.m.StateVar(j)), presburger.Eq, presburger.ConstTerm(cs.lo[j])))
	}
	return facts
}
