package prove

import (
	"math/rand"
	"testing"

	"github.com/vsym/vsym/presburger"
)

// TestCaseExcludedRandom checks excludes, which lets linearInvariants leave
// an idle case out, against brute force: random invariants with
// constant right-hand sides over four state variables and random small
// boxes; excludes may say no (it cannot always tell), but when it says
// yes no integer point of the box satisfies every invariant. And it
// must say yes where only the invariants together exclude the box
// (excludedTogether), or the test would not exercise it.
func TestCaseExcludedRandom(t *testing.T) {
	m := groupModel(t, "four.yaml", `name: four
states: [A, B, C, D]
groups: {p: 1..}
init: A
transitions:
  - {from: A, to: B}
`)
	k := m.NumState()
	r := rand.New(rand.NewSource(5))
	together := 0
	for range 3000 {
		var lis []linearInvariant
		for range 1 + r.Intn(3) {
			li := linearInvariant{coef: make([]int64, k), pivot: -1, rhs: presburger.ConstTerm(int64(r.Intn(5) - 1))}
			for i := range li.coef {
				li.coef[i] = int64(r.Intn(5) - 2)
			}
			lis = append(lis, li)
		}
		box := make([]presburger.Bound, k)
		for i := range box {
			lo := int64(r.Intn(3))
			box[i] = presburger.Bound{Var: m.StateVar(i), Lo: lo, Hi: lo + int64(r.Intn(3))}
		}
		got := excludes(m, lis, box)
		// Brute force: every point of the box.
		point := make([]int64, k)
		var some func(i int) bool
		some = func(i int) bool {
			if i == k {
				for _, li := range lis {
					s := int64(0)
					for j, c := range li.coef {
						s += c * point[j]
					}
					if s != li.rhs.Const {
						return false
					}
				}
				return true
			}
			for x := box[i].Lo; x <= box[i].Hi; x++ {
				point[i] = x
				if some(i + 1) {
					return true
				}
			}
			return false
		}
		if got && some(0) {
			t.Fatalf("excludes says no point of %v satisfies %v, but %v does", box, lis, point)
		}
		if got && !excludedByOne(lis, box) {
			together++
		}
	}
	if together == 0 {
		t.Errorf("no box excluded by the invariants together only: the test does not exercise excludedTogether")
	}
	t.Logf("%d boxes excluded by the invariants together only", together)
}
