package analysis

import (
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// A brute-force oracle for the reachability questions of reach.go, over
// the process-indexed configurations of internal/testsupport (Definition
// 3 of Wei, Gurfinkel and Chechik), independently of the counter models
// and the engines.

// oracle holds the process-indexed configurations of a system reachable
// from its initial one (testsupport.Unreduced), with their breadth-first
// distances, and the brute-force abstraction (testsupport.BruteForce),
// which says where some configuration enables a transition.
type oracle struct {
	sp    *testsupport.Space
	brute *testsupport.Brute
	dist  map[int]int // reachable configuration -> distance
}

func newOracle(sys *gsst.System) *oracle {
	o := &oracle{sp: testsupport.Unreduced(sys), brute: testsupport.BruteForce(sys), dist: map[int]int{}}
	for i, d := range o.sp.Distances(nil) {
		o.dist[i] = d
	}
	return o
}

// decode returns the configuration c (st[p] = local state of process p).
func (o *oracle) decode(c int) []int { return o.sp.Confs[c] }

// groupCounts returns st's group counters [group][state].
func (o *oracle) groupCounts(st []int) [][]int {
	out := make([][]int, len(o.sp.Sys.Groups))
	for g := range out {
		out[g] = make([]int, len(o.sp.Sys.States))
	}
	for p, s := range st {
		out[o.sp.Owner[p]][s]++
	}
	return out
}

// nearest returns the distance of the nearest reachable configuration
// satisfying f, and false when none is reachable.
func (o *oracle) nearest(f func(st []int) bool) (int, bool) {
	best, found := 0, false
	for c, d := range o.dist {
		if (!found || d < best) && f(o.decode(c)) {
			best, found = d, true
		}
	}
	return best, found
}

// asymmetric returns the test for Asym_r: no process can take t in st,
// while some configuration (reachable or not) with the same total
// counters lets one.
func (o *oracle) asymmetric(t *gsst.Transition) func(st []int) bool {
	sys := o.sp.Sys
	r := -1
	for i := range sys.Transitions {
		if &sys.Transitions[i] == t {
			r = i
		}
	}
	if r < 0 {
		panic("oracle: a transition of another system")
	}
	return func(st []int) bool {
		for p := range st {
			if testsupport.Enabled(sys, t, o.sp.Owner, st, p) {
				return false
			}
		}
		return o.brute.EnabledAt(r, testsupport.Totals(o.groupCounts(st)))
	}
}
