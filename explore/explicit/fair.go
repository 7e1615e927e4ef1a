package explicit

import (
	"slices"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// Fairness in the explicit engine. A justice constraint is a set of edges
// (counterabs.Justice); a fair path takes an edge of every constraint
// infinitely often. CTL is evaluated over fair paths as NuSMV 2.6 does:
//
//	fair      = EG true (the states where a fair path starts)
//	EX p      = EX (p & fair)
//	E[p U q]  = E[p U (q & fair)]
//	EG p      = the greatest Z inside p such that every state of Z has,
//	            for each constraint j, a path inside p to an edge of j
//	            that leads into Z (Emerson-Lei)
//
// and the universal operators by their duals. Without constraints fair is
// every state and these are the plain operators.

// ejustice is one justice constraint over the explored states.
type ejustice struct {
	state bitset // a justice condition: its states (nil for weak fairness)
	takes []bool // weak fairness: the moves that take the transition
	notEn bitset // weak fairness: the states where none of them is enabled
}

// prepareJustice evaluates the model's justice constraints on the
// explored states.
func (e *engine) prepareJustice() error {
	m := e.sp.model
	n := e.st.n
	vals := make([]int64, e.sp.nvals)
	for _, j := range m.Justice {
		var ej ejustice
		if !j.Weak {
			g, err := compileGuard(j.State, e.sp.nvals)
			if err != nil {
				return err
			}
			ej.state = newBitset(n)
			for i := 0; i < n; i++ {
				if err := e.tick(); err != nil {
					return err
				}
				e.decodeState(i, vals)
				if g.eval(vals) {
					ej.state.set(i)
				}
			}
			e.justice = append(e.justice, ej)
			continue
		}
		ej.takes = make([]bool, len(e.sp.moves))
		for mi := range e.sp.moves {
			ej.takes[mi] = slices.Contains(j.Transitions, e.sp.moves[mi].trans)
		}
		ej.notEn = newBitset(n)
		for i := 0; i < n; i++ {
			if err := e.tick(); err != nil {
				return err
			}
			e.decodeState(i, vals)
			enabled := false
			for mi := range e.sp.moves {
				mv := &e.sp.moves[mi]
				if ej.takes[mi] && (mv.src < 0 || vals[mv.src] > 0) && mv.guard.eval(vals) {
					enabled = true
					break
				}
			}
			if !enabled {
				ej.notEn.set(i)
			}
		}
		e.justice = append(e.justice, ej)
	}
	return nil
}

// meets reports whether the edge from state i by move mi (-1: the
// stutter step) meets justice constraint j; every edge meets j = -1.
func (e *engine) meets(j, i, mi int) bool {
	if j < 0 {
		return true
	}
	ej := &e.justice[j]
	if ej.state != nil {
		return ej.state.has(i)
	}
	return mi < 0 || ej.takes[mi] || ej.notEn.has(i)
}

// eachSucc calls fn(k, mi) for every successor k of state i by move mi
// (mi = -1 for the stutter step), until fn returns false.
func (e *engine) eachSucc(i int, vals []int64, key []uint64, fn func(k, mi int) bool) {
	sp, st := e.sp, e.st
	if e.deadlock.has(i) {
		if !fn(i, -1) {
			return
		}
	}
	copy(key, st.key(i))
	sp.decode(key, vals)
	for mi := range sp.moves {
		mv := &sp.moves[mi]
		if mv.src >= 0 && vals[mv.src] == 0 || !mv.guard.eval(vals) {
			continue
		}
		if sp.general {
			// The search computed every successor of a reachable
			// state without error, so this one is stored.
			if sp.generalSucc(mv, vals, key) != nil {
				continue
			}
			k := st.lookup(key)
			copy(key, st.key(i))
			if k >= 0 && !fn(k, mi) {
				return
			}
			continue
		}
		key[mv.subWord] -= mv.sub
		key[mv.addWord] += mv.add
		k := st.lookup(key)
		key[mv.addWord] -= mv.add
		key[mv.subWord] += mv.sub
		if k >= 0 && !fn(k, mi) {
			return
		}
	}
}

// preJustice returns the states with an edge meeting constraint j (-1:
// any edge) into z.
func (e *engine) preJustice(j int, z bitset) (bitset, error) {
	n := e.st.n
	out := newBitset(n)
	vals, key := e.scratch()
	for i := 0; i < n; i++ {
		if err := e.tick(); err != nil {
			return nil, err
		}
		e.eachSucc(i, vals, key, func(k, mi int) bool {
			if z.has(k) && e.meets(j, i, mi) {
				out.set(i)
				return false
			}
			return true
		})
	}
	return out, nil
}

// fairStates returns the states where a fair path starts (EG true).
func (e *engine) fairStates() (bitset, error) {
	if len(e.justice) == 0 {
		return e.all(), nil
	}
	return e.sat(fairF)
}

// fairF holds exactly in the states where a fair path starts: EG true.
var fairF = ctl.Unary{Op: ctl.EG, X: ctl.Atom{P: presburger.True}}

// andFair returns x restricted to the fair states.
func (e *engine) andFair(x bitset) (bitset, error) {
	if len(e.justice) == 0 {
		return x, nil
	}
	f, err := e.fairStates()
	if err != nil {
		return nil, err
	}
	return x.and(f), nil
}

// egFair returns EG p over fair paths (Emerson-Lei): starting from the
// plain EG p, it keeps the states that can reach, inside p, an edge of
// every constraint leading back into the set, until nothing changes.
func (e *engine) egFair(p bitset) (bitset, error) {
	z, err := e.eg(p)
	if err != nil || len(e.justice) == 0 {
		return z, err
	}
	for {
		next := z
		for j := range e.justice {
			pre, err := e.preJustice(j, z)
			if err != nil {
				return nil, err
			}
			y, err := e.eu(p, pre.and(p))
			if err != nil {
				return nil, err
			}
			next = next.and(y)
		}
		if slices.Equal(next, z) {
			return z, nil
		}
		z = next
	}
}
