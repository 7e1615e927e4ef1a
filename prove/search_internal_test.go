package prove

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vsym/vsym/presburger"
)

// TestSumsToRandom checks sumsTo against the product of its lists
// filtered by the sum, in lexicographic order, and that it stops when
// yield asks it to.
func TestSumsToRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	for iter := range 400 {
		values := make([][]int64, 1+rng.IntN(4))
		for k := range values {
			for c := int64(rng.IntN(3)); c <= 7; c += int64(1 + rng.IntN(3)) {
				values[k] = append(values[k], c)
			}
		}
		var product [][]int64
		var all func(k int, prefix []int64)
		all = func(k int, prefix []int64) {
			if k == len(values) {
				product = append(product, slices.Clone(prefix))
				return
			}
			for _, c := range values[k] {
				all(k+1, append(prefix, c))
			}
		}
		all(0, nil)
		for total := int64(-1); total <= 30; total++ {
			var want [][]int64
			for _, p := range product {
				s := int64(0)
				for _, c := range p {
					s += c
				}
				if s == total {
					want = append(want, p)
				}
			}
			var got [][]int64
			if !sumsTo(values, total, func(chosen []int64) bool {
				got = append(got, slices.Clone(chosen))
				return true
			}) {
				t.Fatalf("%d: sumsTo(%v, %d) stopped without being asked", iter, values, total)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%d: sumsTo(%v, %d) = %v, want %v", iter, values, total, got, want)
			}
			if len(want) < 2 {
				continue
			}
			stop := 1 + rng.IntN(len(want)-1)
			got = got[:0]
			if sumsTo(values, total, func(chosen []int64) bool {
				got = append(got, slices.Clone(chosen))
				return len(got) < stop
			}) {
				t.Fatalf("%d: sumsTo(%v, %d) went on after yield asked it to stop", iter, values, total)
			}
			if fmt.Sprint(got) != fmt.Sprint(want[:stop]) {
				t.Fatalf("%d: sumsTo(%v, %d) stopped at %v, want %v", iter, values, total, got, want[:stop])
			}
		}
	}
}

// TestSmallInstancesOrder checks the instances smallInstances lists,
// one choice at a time as they come, against every choice in the
// search box checked alone and sorted by the sum of the choices, then
// lexicographically: the same instances in the same order, on systems
// whose parameters and sizes have lower bounds, fixed values and
// assumptions that leave out some choices; an assumption that leaves
// none in the box up to searchMax grows it (p > 9, p > 5*q with q >=
// 1, p > 25), up to maxGrownValue (p > 1000 leaves none).
func TestSmallInstancesOrder(t *testing.T) {
	for i, c := range []struct{ params, assume, groups string }{
		{"[p]", "p >= 1", "{a: p, b: 1..}"},
		{"[p, q]", "p >= 2 & q <= p", "{a: p, b: q}"},
		{"[p, q]", "p + q <= 4 | q = 5", "{a: 1.., b: 2..3}"},
		{"[p]", "p >= 1", "{a: p, b: 7}"},
		{"[p, q]", "2*q = p", "{a: p + q, b: 1..2}"},
		{"[p]", "p > 9", "{a: p, b: 1..}"},
		{"[p, q]", "p > 5*q & q >= 1", "{a: p, b: q}"},
		{"[p]", "p > 25", "{a: p, b: 1}"},
		{"[p]", "p > 1000", "{a: p, b: 1..}"},
	} {
		src := fmt.Sprintf(`name: box
params: %s
assume: %q
states: [A, B]
groups: %s
init: A
transitions:
- {from: A, to: B}
properties: {p: "AG #B >= 0"}
`, c.params, c.assume, c.groups)
		m := groupModel(t, "box.yaml", src)
		ts := m.TransitionSystem().Question(presburger.False)
		got := smallInstances(m, ts)

		dom := domainBounds(ts.Domain)
		constraint := paramPart(ts)
		free := freeChoices(m)
		var want []presburger.Model
		var vals []int64
		var all func(k int)
		hi := int64(searchMax)
		all = func(k int) {
			if k == len(free) {
				if p, ok := instanceAt(m, ts, dom, constraint, free, vals); ok {
					want = append(want, p)
				}
				return
			}
			b := dom[free[k]]
			for v := int64(0); v <= hi; v++ {
				if b.Contains(v) {
					vals = append(vals, v)
					all(k + 1)
					vals = vals[:len(vals)-1]
				}
			}
			if fixedBeyond(b, hi) {
				vals = append(vals, b.Lo)
				all(k + 1)
				vals = vals[:len(vals)-1]
			}
		}
		// The box up to searchMax, or the first grown one with an
		// instance.
		for all(0); len(want) == 0 && 2*hi <= maxGrownValue; all(0) {
			hi *= 2
		}
		slices.SortStableFunc(want, func(a, b presburger.Model) int {
			sa, sb := int64(0), int64(0)
			for _, v := range free {
				sa, sb = sa+a[v], sb+b[v]
			}
			if d := cmp.Compare(sa, sb); d != 0 {
				return d
			}
			for _, v := range free {
				if d := cmp.Compare(a[v], b[v]); d != 0 {
					return d
				}
			}
			return 0
		})
		if len(want) == 0 && i != 8 {
			t.Fatalf("%d: the box has no instance: the case tests nothing", i)
		}
		if grown := hi > searchMax; grown != (i >= 5) {
			t.Fatalf("%d: the box grown to %d: the case tests something else", i, hi)
		}
		if len(got) != len(want) {
			t.Fatalf("%d (%s, %s): %d instances, want %d:\n%v\n%v", i, c.assume, c.groups, len(got), len(want), got, want)
		}
		for k := range want {
			if fmt.Sprint(got[k]) != fmt.Sprint(want[k]) {
				t.Fatalf("%d (%s, %s): instance %d is %v, want %v", i, c.assume, c.groups, k, got[k], want[k])
			}
		}
	}
}
