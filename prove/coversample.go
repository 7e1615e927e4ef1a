package prove

import (
	"context"
	"encoding/binary"
	"slices"
)

// Generalizing the backward search by a sample of reachable states.
// Where the plain search runs out of work (mist's delegatebuffer: more
// than 8,000 minimal elements after 100 million comparisons, each a
// whole configuration of a bounded buffer's two monitors, its flags and
// its threads, and still growing), the elements it needs are
// unreachable ones that the place invariants do not rule out. The
// reachable states of the small instances say which parts of an
// element make it unreachable: the search keeps, instead of each new
// element, a least vector below it, found greedily one unit at a time,
// that no sampled state covers and no initial state lies above (the
// generalization of Kloos, Majumdar, Niksic and Piskac's incremental,
// inductive coverability, with the sample as the judge where they ask
// a solver). Such a vector is a guess: the states above it may be
// reachable in a larger instance. The search goes on from it as from
// any element, so its fixpoint is closed under predecessors all the
// same, and its complement, checked as every invariant is
// (presburger.CheckInvariant), is a proof. A guess that was wrong shows
// as a chain of steps from an initial state through it: the states of
// the chain up to the guess are reachable, the last one above the
// guess; they join the sample (with more states explored from them),
// and the search starts again, so each wrong guess is made once. On
// delegatebuffer the search with the 5,000 states of the instances of
// one and two putters and takers ends, with no wrong guess, at 469
// elements of at most four units each (the putter and the taker never
// assign the same slot: "not Passign and Tassign with both pointers at
// 0", and what leads there).

// sampleExtra is how many processes beyond its least size each group
// gets in the largest instance of the sample; sampleStates bounds the
// states explored for it, over all the instances, except that the
// least instance is explored whole up to sampleLeast states. With 5,000
// states in all, a group of at least two processes left the sample a
// breadth-first part of its least instance, whose shallow states made
// poor judges: queuedbusyflag with two or more other threads took 378
// million comparisons and three wrong guesses; with its least instance
// whole (12,296 states) it takes 60 million, as with one or more.
const (
	sampleExtra  = 1
	sampleStates = 5000
	sampleLeast  = 20_000
)

// brokenInitial and brokenChains break the generalization for the
// tests (BreakGeneralization in export_test.go): never set otherwise.
var brokenInitial, brokenChains bool

// maxSampleLevel bounds the levels of a variable that the sample
// indexes (a vector that asks more of a variable is compared with the
// states one by one).
const maxSampleLevel = 16

// coverSample is a set of reachable states, indexed for the question
// whether some state is at least a vector.
type coverSample struct {
	lo     []int64
	states [][]int64
	seen   map[string]bool // the states' vectorKey
	// above[j][u-1] is the bit set of the states whose variable j is at
	// least lo[j]+u.
	above [][][]uint64
}

func newCoverSample(lo []int64) *coverSample {
	return &coverSample{lo: lo, seen: map[string]bool{}, above: make([][][]uint64, len(lo))}
}

// add puts the state y in the sample.
func (s *coverSample) add(y []int64) {
	n := len(s.states)
	s.states = append(s.states, y)
	w, bit := n/64, uint64(1)<<(n%64)
	for j, v := range y {
		for u := int64(1); u <= min(v-s.lo[j], maxSampleLevel); u++ {
			if int64(len(s.above[j])) < u {
				s.above[j] = append(s.above[j], nil)
			}
			bs := s.above[j][u-1]
			for len(bs) <= w {
				bs = append(bs, 0)
			}
			bs[w] |= bit
			s.above[j][u-1] = bs
		}
	}
}

// covers reports whether some state of the sample is at least x,
// counting the words compared in work.
func (s *coverSample) covers(x []int64, work *int64) bool {
	var sets [][]uint64
	for j, v := range x {
		u := v - s.lo[j]
		switch {
		case u <= 0:
			continue
		case u > maxSampleLevel:
			*work += int64(len(s.states))
			return slices.ContainsFunc(s.states, func(y []int64) bool { return leq(x, y) })
		case u > int64(len(s.above[j])):
			return false
		}
		sets = append(sets, s.above[j][u-1])
	}
	if len(sets) == 0 {
		return len(s.states) > 0
	}
	words := len(sets[0])
	for _, bs := range sets[1:] {
		words = min(words, len(bs))
	}
	*work += int64(words * len(sets))
	for w := range words {
		acc := sets[0][w]
		for _, bs := range sets[1:] {
			acc &= bs[w]
		}
		if acc != 0 {
			return true
		}
	}
	return false
}

// generalize returns a least vector g at most x, found one unit at a
// time in the order of generalizeOrder, that no state of smp covers and
// no initial state lies above; generalized false when g is x (then
// some sampled state covers x, or nothing of it can go).
func (cs *coverSystem) generalize(x []int64, smp *coverSample, work *int64) (g []int64, generalized bool) {
	if smp.covers(x, work) {
		return x, false
	}
	g = slices.Clone(x)
	fits := func() bool {
		if smp.covers(g, work) {
			return false
		}
		if brokenInitial {
			return true
		}
		_, _, below, exact := cs.initialAbove(g)
		return !below && exact
	}
	for _, j := range cs.generalizeOrder() {
		if g[j] <= cs.lo[j] {
			continue
		}
		// The whole variable first, then one unit at a time: the
		// values that fit are those from some least one up to x_j.
		v := g[j]
		if g[j] = cs.lo[j]; fits() {
			generalized = true
			continue
		}
		g[j] = v
		for g[j] > cs.lo[j]+1 {
			g[j]--
			if !fits() {
				g[j]++
				break
			}
			generalized = true
		}
	}
	return g, generalized
}

// generalizeOrder returns the variables in the order generalize tries
// them: those that more steps need (a lower bound of a step's guard)
// first, the order of the variables between equals. The greedy choice
// keeps what it cannot drop of the variables tried last, so the order
// decides which guesses the search makes and how much work it needs;
// in declaration order, it depended on how the spec lists its states
// (mist's queuedbusyflag with its states, groups and transitions
// listed in reverse: 118 million comparisons and two wrong guesses,
// where the spec as written needs 26 million; both need about 26
// million in this order).
func (cs *coverSystem) generalizeOrder() []int {
	if len(cs.genOrder) != len(cs.lo) {
		needs := make([]int, len(cs.lo))
		for i := range cs.steps {
			for j, v := range cs.steps[i].need {
				if v > 0 {
					needs[j]++
				}
			}
		}
		cs.genOrder = make([]int, len(cs.lo))
		for j := range cs.genOrder {
			cs.genOrder[j] = j
		}
		slices.SortStableFunc(cs.genOrder, func(a, b int) int { return needs[b] - needs[a] })
	}
	return cs.genOrder
}

// sample returns the sample of the reachable states of the small
// instances, each group at its least size and up to extra more (a fixed
// size stays), and so each variable that starts in a range (up to its
// greatest value), explored one instance after the other, breadth first,
// limit states at most over all but the least instance's, which may
// take up to least, counting its work in work; nil when ctx ends first.
func (cs *coverSystem) sample(ctx context.Context, extra int64, least, limit int, work *int64) *coverSample {
	smp := newCoverSample(cs.lo)
	for e := int64(0); e <= extra; e++ {
		most := limit
		if e == 0 {
			most = max(limit, least)
		}
		if len(smp.states) >= most {
			break
		}
		x := slices.Clone(cs.lo)
		for j := range x {
			switch {
			case cs.initSum[j] >= 0 || cs.exactInit(j) || j >= cs.k:
			case cs.initOpen[j]:
				x[j] = cs.initConst[j] + e
			default:
				x[j] = min(cs.initConst[j]+e, cs.initHi[j])
			}
		}
		for _, st := range cs.starts {
			b := cs.sumBound(st)
			n := b.Lo + e
			if !b.NoHi {
				n = min(n, b.Hi) // a fixed size stays
			}
			x[st.vars[0]] = max(x[st.vars[0]], n)
		}
		if _, start, ok, _ := cs.initialAbove(x); ok {
			if !cs.explore(ctx, smp, [][]int64{start}, most-len(smp.states), work) {
				return nil
			}
		}
	}
	return smp
}

// generalizedSearch runs the search with generalization (see search)
// within budget comparisons, with the sample smp. After each wrong
// guess the states of the chain that showed it join the sample, and so
// do as many states again as the sample has (at least growStates, at
// most maxSampleStates in all), explored breadth first from them: the
// guesses of a sample of shallow states are often wrong, and a few
// states at a time would make as many searches. *last is the search on
// the sample as it is, which a later call (backward's next round) goes
// on with, as it would do again from the start: the budget counts its
// work from its start (coverSearch). The outcome's work is what this
// call did.
func (cs *coverSystem) generalizedSearch(ctx context.Context, budget int64, smp *coverSample, last **coverSearch) coverOutcome {
	work, done := int64(0), int64(0)
	generalized := 0
	for restarts := 0; work < budget; restarts++ {
		if *last == nil {
			*last = cs.newSearch(smp)
		}
		srch := *last
		out := srch.run(ctx, budget-work)
		work += srch.used
		done += out.work
		generalized += out.generalized
		out.work, out.restarts, out.generalized = done, restarts, generalized
		if out.spurious == nil || ctx.Err() != nil {
			return out
		}
		*last = nil // the sample grows: a search on it starts again
		grow := min(max(len(smp.states), growStates), maxSampleStates-len(smp.states))
		before := work
		if !cs.explore(ctx, smp, out.spurious, max(grow, len(out.spurious)), &work) {
			return coverOutcome{exhausted: true, work: done + work - before}
		}
		done += work - before
	}
	return coverOutcome{exhausted: true, work: done}
}

// Bounds of the sample's growth after a wrong guess (generalizedSearch).
const (
	growStates      = 1000
	maxSampleStates = 200_000
)

// explore adds to smp the states from, which are reachable, and the
// states reachable from them, breadth first, limit new states at most;
// it counts a step tried as a unit of work, and returns false when ctx
// ends first.
func (cs *coverSystem) explore(ctx context.Context, smp *coverSample, from [][]int64, limit int, work *int64) bool {
	first := len(smp.states)
	var key []byte // the key of the state visited, kept as a string only when new
	visit := func(y []int64) bool {
		if len(smp.states)-first >= limit {
			return false
		}
		key = appendVectorKey(key[:0], y)
		if smp.seen[string(key)] { // no string is made for the lookup
			return false
		}
		smp.seen[string(key)] = true
		smp.add(y)
		return true
	}
	queue := slices.Clone(from)
	var fresh []int64 // a buffer for the next state, kept when it is new
	for _, y := range from {
		visit(y)
	}
	for i := 0; i < len(queue) && len(smp.states)-first < limit; i++ {
		if i%256 == 0 && ctx.Err() != nil {
			return false
		}
		for si := range cs.steps {
			*work++
			if fresh == nil {
				fresh = make([]int64, len(cs.lo))
			}
			if cs.postInto(fresh, &cs.steps[si], queue[i]) && visit(fresh) {
				queue = append(queue, fresh)
				fresh = nil
			}
		}
	}
	return true
}

// vectorKey is x as a map key.
func vectorKey(x []int64) string {
	return string(appendVectorKey(make([]byte, 0, 2*len(x)), x))
}

// appendVectorKey appends x's key (vectorKey) to b.
func appendVectorKey(b []byte, x []int64) []byte {
	for _, v := range x {
		b = binary.AppendVarint(b, v)
	}
	return b
}
