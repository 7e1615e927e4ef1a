package prove

import (
	"slices"

	"github.com/vsym/vsym/presburger"
)

// Fusing transient variables before the backward search. A Petri net
// written as one process that fires the net's rules (mist's nets in
// testdata/mist) goes from its hub state S to a state r_i with rule i's
// guard and update, and back from r_i to S with neither: a GSST
// transition must change the local state. Its counter model has a
// counter per r_i and twice the steps of the net, and the backward
// search pays for both (pncsacover.yaml: 134 million comparisons, 98,658
// with the fusion). Here such a counter is fused into where its
// processes return, in the search's view of the system only.
//
// A variable r of the monotone system is transient, returning to s,
// when:
//
//  1. exactly one step reads r, the return: its guard is x_r >= 1
//     alone, and it moves one unit from r to s (x_r - 1, x_s + 1, every
//     other variable kept);
//  2. no other step reads r: no lower bound on x_r above its least
//     value 0, no sum with x_r in a guard or a transfer, no decrement
//     of x_r (the domain would be a guard), no cap on x_r, and no step
//     sets x_r to a constant or a sum;
//  3. no step sets x_s to a constant or a sum, nor bounds it from above
//     (a cap, lossy.go; a step may read x_s by a lower bound, a sum or
//     a transfer's sum: those are monotone);
//  4. r starts at 0 in every initial state, and the bad states do not
//     read r (every minimal bad state has x_r = 0).
//
// The fused system has no return, and each step that adds a units to r
// adds them to s instead (it is the step followed by a returns), with
// what it takes from s, which the domain bounds, as a lower bound of its
// guard (x_s + add_s >= 0 before the returns give a back). P, the
// map that empties r into s (P(x)_s = x_s + x_r, P(x)_r = 0, the rest
// kept), is then a simulation of the original system by the fused one:
// a return does not change P(x); any other step t from x to y has a
// fused step from P(x) to P(y), or above it, because t reads neither
// x_r (2) nor the value x_s it would set (3), its guard holds at
// P(x) >= x off r (monotone, and its bound on r is 0), and its effect
// on x_s + x_r is the fused step's on x_s (a transfer that adds x_s to
// another variable adds x_s + x_r from P(x): above). The fused system
// is monotone, so a state above P(y) covers what P(y) covers. The
// initial states are fixed by P (4), and P maps a bad state to a bad
// state, since P(y) >= y off r and the bad states do not read r. So
// the original covers a bad state only if the fused one does, for every instance: this is the Lipton-style
// reduction of "each return right after its entry", since the return
// commutes with every other step (nothing reads r, and what reads s
// reads it upward). Conversely a run of the fused system is a run of
// the original once each fused step is followed by its returns (r is
// 0 in every state of the fused system, so the step leaves exactly a
// units there, and the returns are enabled), with the same states in
// between the expansions: both answers of the search carry over.
//
//   - A run of the fused system is expanded (expandRun) and replayed
//     like every run.
//   - A fixpoint U of the fused system (closed under its predecessors,
//     holding the bad states, no initial state) gives the invariant
//     "P(x) not in U" of the original: the set of x with P(x) in U is
//     upward closed, holds the bad states and no initial state, and is
//     closed under the original's predecessors by the simulation (a
//     step from x to y with P(y) in U has a fused step from P(x) to a
//     state above P(y), in U too, so that P(x) is in U). It is the
//     fixpoint's complement with each x_s read as x_s + x_r (the
//     upward closure of U under the returns' predecessors, whose
//     minimal elements would be one per split of m_s between s and r,
//     written as one sum), and it is checked as every invariant is
//     (presburger.CheckInvariant on the original model). The place
//     invariants y.x = c of the fused system that pruned the search
//     join it as y.P(x) = c: P(x) is reachable in the fused system
//     when x is in the original.
//
// Fusions compose: each is applied to the system the previous ones
// left, so a state that returns to a transient state is fused into
// where that one returns (root), and P is the composition.

// noFusion turns the fusion off (the tests compare the searches with
// and without it: WithoutFusion in export_test.go); brokenFusion
// drops condition 2 (a step that reads r is kept as it is), for the
// test that the cross-check catches a wrong fusion.
var noFusion, brokenFusion bool

// fuseTransients fuses the transient variables of cs, one at a time,
// until none is left.
func (cs *coverSystem) fuseTransients() {
	if noFusion {
		return
	}
	for {
		r, ret := cs.transient()
		if r < 0 {
			return
		}
		cs.fuse(r, ret)
	}
}

// transient returns a transient variable of cs and the index of its
// return in cs.steps, or -1.
func (cs *coverSystem) transient() (r, ret int) {
	k := len(cs.lo)
	// The variables no step sets: condition 3 for s. A variable a cap
	// reads (lossy.go) counts as set: the guard reads it from above,
	// and x_s + x_r may exceed the cap where x_s does not.
	set := make([]bool, k)
	for si := range cs.steps {
		s := &cs.steps[si]
		for j := range k {
			set[j] = set[j] || s.reset[j] || s.moved != nil && s.moved[j] != nil
		}
		for _, a := range s.caps {
			for _, j := range a.vars {
				set[j] = true
			}
		}
	}
	for j, d := range cs.dead {
		set[j] = set[j] || d // a dead variable keeps its own name (coverdead.go)
	}
	for r := range k {
		if cs.root != nil && cs.root[r] != r || cs.bounded(r) || cs.lo[r] != 0 || !cs.exactInit(r) || cs.initConst[r] != 0 || set[r] {
			continue
		}
		if slices.ContainsFunc(cs.bad, func(b []int64) bool { return b[r] != 0 }) {
			continue
		}
		ret, ok := -1, true
		for si := range cs.steps {
			s := &cs.steps[si]
			switch {
			case !cs.readsVar(s, r):
			case ret < 0 && cs.isReturn(s, r):
				ret = si
			case !brokenFusion:
				ok = false
			}
		}
		if !ok || ret < 0 {
			continue
		}
		if s := cs.returnTarget(&cs.steps[ret], r); !set[s] && !cs.bounded(s) {
			return r, ret
		}
	}
	return -1, -1
}

// readsVar reports whether the step s reads x_r: its guard bounds x_r
// from below beyond 0, a sum of its guard or of a transfer has x_r, or
// it takes from x_r (which the domain's bound makes a guard).
func (cs *coverSystem) readsVar(s *coverStep, r int) bool {
	if s.need[r] > cs.lo[r] || s.add[r] < 0 {
		return true
	}
	for _, a := range s.sums {
		if slices.Contains(a.vars, r) {
			return true
		}
	}
	for _, t := range s.moved {
		if t != nil && slices.Contains(t.vars, r) {
			return true
		}
	}
	return false
}

// isReturn reports whether s is "x_r >= 1: x_r - 1, x_s + 1" for some
// s other than r, every other variable kept. Its guard may also ask
// for a variable that holds as much in every reachable state (steady):
// the one process of a net whose hub is an enumeration (coverhot.go)
// stays in its state S, and every step asks "#S >= 1".
func (cs *coverSystem) isReturn(s *coverStep, r int) bool {
	if len(s.sums) > 0 || len(s.caps) > 0 || s.moved != nil || slices.Contains(s.reset, true) {
		return false
	}
	up := 0
	for j := range s.need {
		switch {
		case j == r:
			if s.need[j] != cs.lo[j]+1 || s.add[j] != -1 {
				return false
			}
		case s.need[j] != cs.lo[j] && (s.add[j] != 0 || s.need[j] > cs.steadyLeast(j)):
			return false
		case s.add[j] == 1:
			up++
		case s.add[j] != 0:
			return false
		}
	}
	return up == 1
}

// returnTarget is the variable the return ret of r adds to.
func (cs *coverSystem) returnTarget(ret *coverStep, r int) int {
	for j, a := range ret.add {
		if a == 1 && j != r {
			return j
		}
	}
	panic("returnTarget: no return")
}

// fuse fuses r, whose return is the step ret, into the variable the
// return adds to: the return goes, and each step that adds a to r adds
// it to s instead and is followed, in a run, by a returns.
func (cs *coverSystem) fuse(r, ret int) {
	k := len(cs.lo)
	cs.keepOriginal()
	back := cs.steps[ret]
	s := cs.returnTarget(&back, r)
	var steps []coverStep
	for si, st := range cs.steps {
		if si == ret {
			continue
		}
		if a := st.add[r]; a > 0 {
			// What the step takes from s, the domain's bound made a
			// guard: it stays one when the returns give a back. (The
			// counter models write it in the guard already.)
			st.need = slices.Clone(st.need)
			st.need[s] = max(st.need[s], cs.lo[s]-st.add[s])
			st.add = slices.Clone(st.add)
			st.add[r] = 0
			st.add[s] += a
			st.expand = slices.Clone(st.expand)
			for range a {
				st.expand = append(st.expand, back.expand...)
			}
		}
		steps = append(steps, st)
	}
	cs.steps = steps
	for j := range k {
		if cs.root[j] == r {
			cs.root[j] = s
		}
	}
	cs.fused++
}

// keepOriginal keeps the steps as they are before the first fusion or
// merge of twins (covertwins.go) in cs.orig, each step standing for
// itself, every variable its own root.
func (cs *coverSystem) keepOriginal() {
	if cs.orig != nil {
		return
	}
	k := len(cs.lo)
	cs.orig = cs.steps
	cs.steps = slices.Clone(cs.orig)
	cs.root = make([]int, k)
	for j := range k {
		cs.root[j] = j
	}
	for si := range cs.steps {
		cs.steps[si].expand = []int{si}
	}
}

// onFused reports whether the weights y are on fused variables only.
func (cs *coverSystem) onFused(y []int64) bool {
	for j, w := range y {
		if w != 0 && (cs.root == nil || cs.root[j] == j) {
			return false
		}
	}
	return cs.root != nil
}

// countTerm is the term of variable j in the invariants the search
// offers: x_j, plus the variables fused into j (P(x)_j); a fused
// variable itself is never asked for (its count is 0 in every state of
// the fused system).
func (cs *coverSystem) countTerm(j int) presburger.Term {
	if j >= cs.k {
		return cs.complementTerm(j)
	}
	t := presburger.VarTerm(cs.stateVar(j))
	for i, root := range cs.root {
		if root == j && i != j {
			t = t.Add(presburger.VarTerm(cs.stateVar(i)))
		}
	}
	return t
}

// leastCount returns a value that countTerm(j) is at least in every
// state of the model: the least sum of a pool of counters (a group's,
// whose processes are all somewhere) fused whole into j, else 0. A
// hub translation's one process is always in its hub S once its rule
// states are fused there, and the atom "#S + #r1 + ... < 1" that every
// element of its fixpoint would write is false: search leaves it out.
func (cs *coverSystem) leastCount(j int) int64 {
	least := int64(0)
	for _, pool := range cs.m.Pools {
		within := true
		for _, c := range pool.Counters {
			e := cs.entryOf(c) // -1 for a variable projected out
			within = within && (e == j || e >= 0 && cs.root != nil && cs.root[e] == j)
		}
		if !within {
			continue
		}
		if v, ok := cs.leastValue(pool.Sum); ok {
			least = max(least, v)
		}
	}
	return least
}

// leastValue returns the least value of t over the domain's bounds
// (cs.dom), ok false when some variable of t has no bound on the side
// its coefficient asks or the value leaves int64.
func (cs *coverSystem) leastValue(t presburger.Term) (int64, bool) {
	v := t.Const
	for _, mo := range t.Monos {
		b, ok := cs.dom[mo.Var]
		var x int64
		switch {
		case !ok:
			return 0, false
		case mo.Coef > 0 && !b.NoLo:
			x = b.Lo
		case mo.Coef < 0 && !b.NoHi:
			x = b.Hi
		default:
			return 0, false
		}
		if v, ok = combine(1, v, mo.Coef, x); !ok {
			return 0, false
		}
	}
	return v, true
}

// expandRun turns a chain of the fused system, its states and steps
// (indices in cs.steps), into a run of the original: the states after
// each original step of every fused step's expansion, each taken by
// its copy that the state enables (a step of merged twins,
// covertwins.go), and the model's transitions taken.
func (cs *coverSystem) expandRun(states [][]int64, steps []int) (out [][]int64, trans []int) {
	out = append(out, states[0])
	if cs.orig == nil {
		for _, si := range steps {
			trans = append(trans, cs.steps[si].trans)
		}
		return states, trans
	}
	x := states[0]
	for _, si := range steps {
		for _, o := range cs.steps[si].expand {
			o = cs.enabledCopy(o, x)
			x = cs.apply(&cs.orig[o], x)
			out = append(out, x)
			trans = append(trans, cs.orig[o].trans)
		}
	}
	return out, trans
}

// steadyLeast returns a value that variable j is at least in every
// reachable state when no step changes it (its least initial value: a
// constant's, or the least size of a group that starts all in j), and
// its domain's least value otherwise.
func (cs *coverSystem) steadyLeast(j int) int64 {
	for si := range cs.steps {
		s := &cs.steps[si]
		if s.add[j] != 0 || s.reset[j] || s.moved != nil && s.moved[j] != nil {
			return cs.lo[j]
		}
	}
	switch {
	case cs.initSum[j] >= 0:
		st := cs.starts[cs.initSum[j]]
		if b := cs.sumBound(st); len(st.vars) == 1 && !b.NoLo {
			return max(cs.lo[j], b.Lo)
		}
		return cs.lo[j]
	}
	return max(cs.lo[j], cs.initConst[j]) // the least initial value
}
