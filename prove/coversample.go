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
// guess; they join the sample, and the search starts again, so each
// wrong guess is made once. On delegatebuffer the search with the
// states of the instances of up to three putters and three takers
// ends with about 600 elements of at most four units each (the putter
// and the taker never assign the same slot: "not Passign and Tassign
// with both pointers at 0", and what leads there).

// sampleExtra is how many processes beyond its least size each group
// gets in the largest instance of the sample; sampleStates bounds the
// states explored for it, over all the instances.
const (
	sampleExtra  = 1
	sampleStates = 20_000
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
	// above[j][u-1] is the bit set of the states whose variable j is at
	// least lo[j]+u.
	above [][][]uint64
}

func newCoverSample(lo []int64) *coverSample {
	return &coverSample{lo: lo, above: make([][][]uint64, len(lo))}
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
// time in the order of the variables, that no state of smp covers and
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
	for j := range g {
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

// generalizedSearch runs the search with generalization (see search)
// within budget comparisons, the sample made of the small instances'
// reachable states (smallStates) and, after each wrong guess, of the
// states of the chain that showed it.
func (cs *coverSystem) generalizedSearch(ctx context.Context, budget int64, extra int64, limit int) coverOutcome {
	states, ok := cs.smallStates(ctx, extra, limit)
	if !ok {
		return coverOutcome{exhausted: true}
	}
	smp := newCoverSample(cs.lo)
	for _, y := range states {
		smp.add(y)
	}
	work := int64(len(states))
	generalized := 0
	for restarts := 0; work < budget; restarts++ {
		out := cs.search(ctx, budget-work, smp)
		work += out.work
		generalized += out.generalized
		out.work, out.restarts, out.generalized = work, restarts, generalized
		if out.spurious == nil || ctx.Err() != nil {
			return out
		}
		for _, y := range out.spurious {
			smp.add(y)
		}
	}
	return coverOutcome{exhausted: true, work: work}
}

// smallStates returns the reachable states of the small instances:
// each group at its least size and up to guessExtra more (a fixed size
// stays), breadth first, guessStates states at most over all; ok false
// when ctx ends first.
func (cs *coverSystem) smallStates(ctx context.Context, extraMax int64, limit int) (states [][]int64, ok bool) {
	seen := map[string]bool{}
	visit := func(y []int64) {
		key := vectorKey(y)
		if seen[key] || len(seen) >= limit {
			return
		}
		seen[key] = true
		states = append(states, y)
	}
	for extra := int64(0); extra <= extraMax; extra++ {
		x := slices.Clone(cs.lo)
		for _, st := range cs.starts {
			n := cs.dom[st.size].Lo + extra
			if b := cs.dom[st.size]; !b.NoHi {
				n = min(n, b.Hi) // a fixed size stays
			}
			x[st.vars[0]] = max(x[st.vars[0]], n)
		}
		if _, start, ok, _ := cs.initialAbove(x); ok {
			visit(start)
		}
	}
	for i := 0; i < len(states); i++ {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, false
		}
		for si := range cs.steps {
			if y, ok := cs.post(&cs.steps[si], states[i]); ok {
				visit(y)
			}
		}
	}
	return states, true
}

// vectorKey is x as a map key.
func vectorKey(x []int64) string {
	b := make([]byte, 0, 2*len(x))
	for _, v := range x {
		b = binary.AppendVarint(b, v)
	}
	return string(b)
}
