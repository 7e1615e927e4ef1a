package analysis

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// A brute-force oracle for the reachability questions of reach.go, over
// the process-indexed configurations of internal/testsupport (Definition
// 3 of Wei, Gurfinkel and Chechik), independently of the counter models
// and the engines.

// randomSpec returns the YAML text of a random small GSST: 2-4 states,
// 1-3 groups of 1-2 processes (at most 4096 process-indexed
// configurations), each group starting in one state, 2-4 transitions
// with shared, per-group or no guards over total and group counters.
func randomSpec(r *rand.Rand) string {
	for {
		m := 2 + r.Intn(3)
		d := 1 + r.Intn(3)
		sizes := make([]int, d)
		n := 0
		for g := range sizes {
			sizes[g] = 1 + r.Intn(2)
			n += sizes[g]
		}
		space := 1
		for range n {
			space *= m
		}
		if space > 4096 {
			continue
		}
		var b strings.Builder
		b.WriteString("name: random\nstates: [")
		for s := range m {
			if s > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "S%d", s)
		}
		b.WriteString("]\ngroups:\n")
		for g, k := range sizes {
			fmt.Fprintf(&b, "  g%d: %d\n", g, k)
		}
		b.WriteString("init:\n")
		for g := range sizes {
			fmt.Fprintf(&b, "  g%d: S%d\n", g, r.Intn(m))
		}
		b.WriteString("transitions:\n")
		seen := map[[2]int]bool{}
		for range 2 + r.Intn(3) {
			from := r.Intn(m)
			to := (from + 1 + r.Intn(m-1)) % m
			if seen[[2]int{from, to}] {
				continue
			}
			seen[[2]int{from, to}] = true
			fmt.Fprintf(&b, "  - from: S%d\n    to: S%d\n", from, to)
			switch r.Intn(3) {
			case 0: // unguarded
			case 1:
				fmt.Fprintf(&b, "    guard: %q\n", randomGuard(r, m, d))
			default:
				b.WriteString("    guard:\n")
				groups := r.Perm(d)[:1+r.Intn(d)]
				slices.Sort(groups)
				for _, g := range groups {
					fmt.Fprintf(&b, "      g%d: %q\n", g, randomGuard(r, m, d))
				}
			}
		}
		return b.String()
	}
}

// randomFairness returns a fairness key for sys (parsed from a
// randomSpec), or "" for none: with equal chances none, justice
// conditions only, weak fairness only, or both. Justice conditions are
// random guards (some no run can meet, so that no fair run exists);
// weak entries are per transition or per group, one at a time or all.
func randomFairness(r *rand.Rand, sys *gsst.System) (text, kind string) {
	kind = []string{"none", "justice", "weak", "justice+weak"}[r.Intn(4)]
	if kind == "none" {
		return "", kind
	}
	var b strings.Builder
	b.WriteString("fairness:\n")
	if strings.HasPrefix(kind, "justice") {
		b.WriteString("  justice:\n")
		for range 1 + r.Intn(2) {
			fmt.Fprintf(&b, "    - %q\n", randomGuard(r, len(sys.States), len(sys.Groups)))
		}
	}
	if strings.HasSuffix(kind, "weak") {
		b.WriteString("  weak:\n")
		for range 1 + r.Intn(2) {
			t := &sys.Transitions[r.Intn(len(sys.Transitions))]
			name := sys.TransitionName(t)
			switch r.Intn(5) {
			case 0:
				fmt.Fprintf(&b, "    - %q\n", "all")
			case 1:
				fmt.Fprintf(&b, "    - %q\n", "all [*]")
			case 2:
				fmt.Fprintf(&b, "    - %q\n", name)
			case 3:
				fmt.Fprintf(&b, "    - %q\n", name+" [*]")
			default:
				bl := t.Blocks[r.Intn(len(t.Blocks))]
				g := bl.Groups[r.Intn(len(bl.Groups))]
				fmt.Fprintf(&b, "    - %q\n", name+" ["+sys.Groups[g].Name+"]")
			}
		}
	}
	return b.String(), kind
}

func randomGuard(r *rand.Rand, m, d int) string {
	atom := func() string {
		c := fmt.Sprintf("#S%d", r.Intn(m))
		if r.Intn(2) == 0 {
			c += fmt.Sprintf("[g%d]", r.Intn(d))
		}
		ops := []string{"=", "!=", "<", "<=", ">", ">="}
		return fmt.Sprintf("%s %s %d", c, ops[r.Intn(len(ops))], r.Intn(3))
	}
	g := atom()
	if r.Intn(2) == 0 {
		g = "(" + g + []string{" & ", " | "}[r.Intn(2)] + atom() + ")"
	}
	if r.Intn(4) == 0 {
		g = "!" + g
	}
	return g
}

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
