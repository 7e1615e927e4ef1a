package prove

import "github.com/vsym/vsym/presburger"

// Variables with a greatest value in the backward search. A lock written
// as a boolean shared variable (`lock: bool`, guards `!lock`, updates
// `lock := true`), or a counter of a bounded range, is not monotone: the
// guard `!lock` is x_lock <= 0, which holds below a state and not above
// it. A Petri net writes such a lock as two places, lock and notlock,
// with one token between them, and the guard as "notlock >= 1"; the
// search does the same (Abdulla et al.'s complement places): each
// variable x_i whose domain is lo_i..hi_i gets a complement variable
// c_i, read as hi_i - x_i, after the model's variables in the search's
// vectors. An upper bound on x_i is a lower bound on c_i (upwardClause),
// a step that adds a to x_i adds -a to c_i, one that sets x_i to v sets
// c_i to hi_i - v (a reset, which is monotone), and the domain's bound
// x_i <= hi_i after a step is c_i >= 0 after it, which the pre-image asks
// as it asks every domain's least value. A step that sets x_i to a sum
// is refused (monotoneSystem).
//
// The extended system is a monotone system over every vector, most of
// which have c_i != hi_i - x_i; the search computes the exact pre-images
// of its upward-closed sets all the same, and the states that matter,
// the initial ones and those reached from them, keep c_i = hi_i - x_i
// (initialAbove builds them so, and every step keeps it): a run of the
// extended system from an initial state is a run of the model, and the
// fixpoint's complement, read with c_i as hi_i - x_i (countTerm), is an
// invariant of the model when no initial state lies above the fixpoint.
// Both answers are checked as every other is (replay, CheckInvariant).
// Neither a variable with a complement nor a complement is fused
// (coverfuse.go): a complement is never 0 throughout, and a step may set
// a bounded variable to a constant.

// complementInitial reads the initial values of each complement from
// its variable's, which readInitial read: x_i starting in a..b, its
// complement starts in hi-b..hi-a (initialAbove picks both together).
// False when a bounded variable is part of a group's sum.
func (cs *coverSystem) complementInitial() bool {
	for i := range cs.k {
		c := cs.comp[i]
		if c < 0 {
			continue
		}
		if cs.initSum[i] >= 0 {
			return false
		}
		if cs.initOpen[i] || cs.initHi[i] > cs.hi[i] {
			cs.initHi[i], cs.initOpen[i] = cs.hi[i], false
		}
		if cs.initHi[i] < cs.initConst[i] {
			return false // no initial state
		}
		cs.initSum[c], cs.initOpen[c] = -1, false
		cs.initConst[c], cs.initHi[c] = cs.hi[i]-cs.initHi[i], cs.hi[i]-cs.initConst[i]
	}
	return true
}

// complementSum returns the sum that a step sets the complement of
// variable j to when it sets x_j to t, a sum of variables with a
// greatest value each: hi_j - t, which is hi_j - t.c - sum a*hi_y plus
// the sum of a*c_y over t's variables y; ok is false when some variable
// of t has no greatest value or the constant leaves int64.
func (cs *coverSystem) complementSum(j int, t *sumTerm) (*sumTerm, bool) {
	ct := &sumTerm{c: cs.hi[j]}
	var ok bool
	if ct.c, ok = combine(1, ct.c, -1, t.c); !ok {
		return nil, false
	}
	for n, y := range t.vars {
		if y >= cs.k || cs.comp[y] < 0 {
			if y < cs.k && cs.unbounded[y] {
				cs.wantBound = append(cs.wantBound, cs.stateVar(y))
			}
			return nil, false
		}
		if ct.c, ok = combine(1, ct.c, -t.coef[n], cs.hi[y]); !ok {
			return nil, false
		}
		ct.vars = append(ct.vars, cs.comp[y])
		ct.coef = append(ct.coef, t.coef[n])
	}
	return ct, true
}

// bounded reports whether variable j of the search's vectors is a
// variable with a complement or a complement.
func (cs *coverSystem) bounded(j int) bool {
	return j >= cs.k && !cs.isHotEntry(j) || j < cs.k && cs.comp[j] >= 0
}

// complementTerm is hi_i - x_i, for the complement j of variable i.
func (cs *coverSystem) complementTerm(j int) presburger.Term {
	i := cs.compOf[j-cs.k]
	return presburger.ConstTerm(cs.hi[i]).Add(presburger.VarTerm(cs.stateVar(i)).Scale(-1))
}
