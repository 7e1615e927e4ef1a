package prove

import (
	"encoding/binary"
	"maps"
	"slices"
	"strings"
)

// Twin variables, merged before the fusion. A translation may write a
// local state S as two, S and S2, that behave alike: a Petri net's hub
// split in two (testdata/styles/pncsacover-stsplit.yaml), every rule
// written once from S and once from S2, the rules' returns going to
// either or to both. Nothing then reads S or S2 but the steps that take
// a process from it, and the two take alike. The fusion of the rule
// states into the hub (coverfuse.go) needs one return per rule state,
// where the split has two: the search saw 144 steps where the base has
// 36, and took 1.1 s of CPU where the base takes 0.1.
//
// Two variables u and v of the monotone system are twins, v to be
// merged into u, when
//
//  1. each is read only by the steps that take from it: its least
//     value is 0, it has no greatest value, no step sets it or moves it
//     (a transfer), no sum of a guard, a transfer or a cap has it, no
//     step takes more than one unit from it, and a step's lower bound
//     on it is that of its take alone (need = 1 where the step takes
//     one, 0 elsewhere);
//  2. the steps that take from u are the steps that take from v: for
//     each step taking one unit from v there is one with the same
//     guard, effect and take on every other variable that takes one
//     unit from u instead, and conversely (the keys of twinKeys, a
//     step with its take of the variable left out, are the same sets).
//     So no step takes from both: its key among u's would ask for a
//     unit of v, which no key among v's does;
//  3. v starts at 0 in every initial state, and the bad states read
//     neither (every minimal bad state has both at 0).
//
// The merged system has each step's effect and take on v moved to u
// (the twins' steps become one), and v stays 0. P, the map that empties
// v into u (P(x)_u = x_u + x_v, P(x)_v = 0, the rest kept), is then a
// simulation of the system by the merged one: a step t from x to y
// takes at most one unit from u and v together (1, 2), so its merged
// step, whose guard differs from t's only in asking P(x)_u for what t
// takes from either, is enabled at P(x) and leads to P(y). P fixes the
// initial states and maps bad states to bad states (3). So the system
// covers a bad state only if the merged one does, and a fixpoint U of
// the merged search gives the invariant "P(x) not in U" of the system,
// read with x_u as x_u + x_v (countTerm, as for a fused variable) and
// checked on the model as every invariant is. Conversely a run of the
// merged system is a run of the system once each step is taken by the
// copy that the configuration enables (expandRun: the one that takes
// from the twin holding the process, which one of them does by 2; a
// step that adds to u stands for its copies that add to v, which
// nothing bounds), with the same states up to where the twins' units
// are: the run reaches a bad state as the merged one does (3), and it
// is replayed like every run. Twins merge one pair at a time until none
// is left, then the fusion reads the merged system: the rules' returns
// to S and to S2 are one step each, and the rule states fuse into S.

// noTwins turns the merging of twins off (the tests compare the
// searches with and without it: WithoutTwins in export_test.go);
// brokenTwins drops condition 2 (a step that takes from v need not
// have a copy that takes from u), for the test that the cross-check
// catches a wrong merge.
var noTwins, brokenTwins bool

// mergeTwins merges the twin variables of cs, a class of them at a
// time, until none is left.
func (cs *coverSystem) mergeTwins() {
	if noTwins {
		return
	}
	for {
		merged := false
		for _, class := range cs.twins() {
			merged = cs.mergeTwin(class) || merged
		}
		if !merged {
			return
		}
	}
}

// twins returns the classes of twin variables of cs, each with the
// variable the others are to be merged into first. The variables that
// some step takes from and that are read no other way go by the set
// of their keys: twins have the same. Of a class, one variable may
// start other than at 0, and goes first; the others that do are left
// out.
//
// The classes may be merged one after the other: merging one moves
// its variables' units to one of them in every step, which maps the
// keys of every other variable through one function, so that equal
// sets stay equal, and leaves the other variables' own takes, bounds
// and starts as they are.
func (cs *coverSystem) twins() [][]int {
	var classes [][]int
	sets := map[string]int{} // a set of keys: its class
	empty := func(j int) bool { return cs.exactInit(j) && cs.initConst[j] == 0 }
	for j := range cs.k {
		keys := cs.twinKeys(j)
		if len(keys) == 0 {
			continue // read otherwise, or never taken from: nothing to merge
		}
		set := strings.Join(slices.Sorted(maps.Keys(keys)), "\n")
		if brokenTwins {
			set = ""
		}
		at, seen := sets[set]
		switch {
		case !seen:
			sets[set] = len(classes)
			classes = append(classes, []int{j})
		case empty(j):
			classes[at] = append(classes[at], j)
		case empty(classes[at][0]):
			classes[at] = append([]int{j}, classes[at]...)
		}
	}
	return slices.DeleteFunc(classes, func(c []int) bool { return len(c) < 2 })
}

// twinKeys returns the keys of the steps that take from variable j (a
// step with its take of j left out, written as text), or nil when j is
// read otherwise (condition 1 of the twins) or a bad state reads it:
// then j has no twin. A variable no step takes from has the empty set.
func (cs *coverSystem) twinKeys(j int) map[string]bool {
	if cs.lo[j] != 0 || cs.bounded(j) || cs.isHotEntry(j) || cs.root != nil && cs.root[j] != j || cs.dead != nil && cs.dead[j] {
		return nil
	}
	if slices.ContainsFunc(cs.bad, func(b []int64) bool { return b[j] != 0 }) {
		return nil
	}
	keys := map[string]bool{}
	for si := range cs.steps {
		s := &cs.steps[si]
		if s.reset[j] || s.moved != nil && s.moved[j] != nil {
			return nil
		}
		for _, t := range s.moved {
			if t != nil && slices.Contains(t.vars, j) {
				return nil
			}
		}
		for _, as := range [][]sumAtom{s.sums, s.caps} {
			for _, a := range as {
				if slices.Contains(a.vars, j) {
					return nil
				}
			}
		}
		take := max(0, -s.add[j])
		if take > 1 || s.need[j] != take {
			return nil
		}
		if take == 1 {
			keys[cs.twinKey(s, j)] = true
		}
	}
	return keys
}

// twinKey writes the step s with its take of one unit from j left out
// (none for j < 0): its guard, effect and takes on every other
// variable, in bytes.
func (cs *coverSystem) twinKey(s *coverStep, j int) string {
	var b []byte
	for i := range s.need {
		need, add := s.need[i], s.add[i]
		if i == j {
			need, add = 0, 0
		}
		b = binary.AppendVarint(binary.AppendVarint(b, need), add)
	}
	for i, r := range s.reset {
		if r {
			b = binary.AppendVarint(binary.AppendUvarint(b, uint64(i)), s.set[i])
		}
	}
	sum := func(vars []int, coef []int64, c int64) {
		b = binary.AppendUvarint(b, uint64(len(vars)))
		for n, v := range vars {
			b = binary.AppendVarint(binary.AppendUvarint(b, uint64(v)), coef[n])
		}
		b = binary.AppendVarint(b, c)
	}
	for _, as := range [][]sumAtom{s.sums, s.caps} {
		b = append(b, '|')
		for _, a := range as {
			sum(a.vars, a.coef, a.bound)
		}
	}
	for i, t := range s.moved {
		if t != nil {
			b = binary.AppendUvarint(b, uint64(i))
			sum(t.vars, t.coef, t.c)
		}
	}
	return string(b)
}

// mergeTwin merges the variables of class into the first, u: each
// step's takes and effects on them are u's, and the steps that have
// become the same are one, standing for their copies (cs.copies), of
// which a run takes the one the configuration enables. It merges
// nothing, and says so, when two steps that become the same are not
// each one original step (a step the fusion made of a step and its
// returns: its copy would have to be chosen step by step).
func (cs *coverSystem) mergeTwin(class []int) bool {
	cs.keepOriginal()
	u := class[0]
	var steps []coverStep
	var joins [][2]int
	seen := map[string]int{} // a merged step's key: its index in steps
	for _, s := range cs.steps {
		s.need, s.add = slices.Clone(s.need), slices.Clone(s.add)
		for _, v := range class[1:] {
			s.need[u] += s.need[v]
			s.add[u] += s.add[v]
			s.need[v], s.add[v] = 0, 0
		}
		key := cs.twinKey(&s, -1)
		if at, ok := seen[key]; ok {
			if len(steps[at].expand) != 1 || len(s.expand) != 1 {
				return false
			}
			joins = append(joins, [2]int{steps[at].expand[0], s.expand[0]})
			continue
		}
		seen[key] = len(steps)
		steps = append(steps, s)
	}
	for _, j := range joins {
		cs.joinCopies(j[0], j[1])
	}
	cs.steps = steps
	for j := range cs.root {
		if slices.Contains(class[1:], cs.root[j]) {
			cs.root[j] = u
		}
	}
	cs.twinned += len(class) - 1
	return true
}

// joinCopies makes the original steps a and b copies of one another
// (and of those each has already).
func (cs *coverSystem) joinCopies(a, b int) {
	if cs.copies == nil {
		cs.copies = make([][]int, len(cs.orig))
	}
	ca, cb := cs.copies[a], cs.copies[b]
	if ca == nil {
		ca = []int{a}
	}
	if cb == nil {
		cb = []int{b}
	}
	all := append(slices.Clone(ca), cb...)
	for _, o := range all {
		cs.copies[o] = all
	}
}

// enabledCopy returns the copy of original step o (o itself when it has
// none) that is enabled at x, the first in their order; o when none is.
func (cs *coverSystem) enabledCopy(o int, x []int64) int {
	if cs.copies == nil || cs.copies[o] == nil {
		return o
	}
	y := make([]int64, len(x))
	for _, c := range cs.copies[o] {
		if cs.postInto(y, &cs.orig[c], x) {
			return c
		}
	}
	return o
}
