package prove

import (
	"math/rand"
	"testing"

	"github.com/vsym/vsym/presburger"
)

// TestExcludesRandom checks weights.excludes, the shortcut that lets one
// inequality of the state equation answer for many disjuncts of the bad
// states, against enumeration: random weights of either sign, domains
// bounded on either side or not, and disjuncts of one-variable atoms of
// every operator and coefficient sign (with a two-variable atom, which
// excludes sets aside, now and then). Where excludes says yes, no point
// of the box [-box, box]^k in the domains and the disjunct satisfies
// u.x <= rhs; where every variable of nonzero weight is confined to a
// finite interval inside the box, the least value excludes computes is
// exact, so it must also say yes whenever enumeration does. Both
// directions matter: a yes too many makes the state equation's
// certificate fail its check (an internal error), a no too many sends
// ME_250_bigtarget's 8,990 disjuncts back to the solver one by one.
func TestExcludesRandom(t *testing.T) {
	const box = 7
	trials := 20000
	if testing.Short() {
		trials /= 5
	}
	r := rand.New(rand.NewSource(16))
	ops := []presburger.Op{presburger.Eq, presburger.Ne, presburger.Lt, presburger.Le, presburger.Gt, presburger.Ge}
	yes, exactYes := 0, 0
	for trial := range trials {
		k := 1 + r.Intn(3)
		state := make([]presburger.Var, k)
		index := map[presburger.Var]int{}
		dom := map[presburger.Var]presburger.Bound{}
		w := &weights{u: make([]int64, k), rhs: presburger.ConstTerm(int64(r.Intn(11) - 5))}
		for i := range k {
			state[i] = presburger.Var(10 + i)
			index[state[i]] = i
			w.u[i] = int64(r.Intn(7) - 3)
			switch r.Intn(4) {
			case 0: // no domain
			case 1:
				dom[state[i]] = presburger.Bound{Var: state[i], Lo: int64(r.Intn(3)), NoHi: true}
			case 2:
				dom[state[i]] = presburger.Bound{Var: state[i], NoLo: true, Hi: int64(r.Intn(4))}
			default:
				lo := int64(r.Intn(3) - 1)
				dom[state[i]] = presburger.Bound{Var: state[i], Lo: lo, Hi: lo + int64(r.Intn(4))}
			}
		}
		var d []presburger.Formula
		for range r.Intn(4) {
			v := presburger.VarTerm(state[r.Intn(k)]).Scale(int64(r.Intn(7) - 3))
			if r.Intn(6) == 0 {
				v = v.Add(presburger.VarTerm(state[r.Intn(k)]))
			}
			d = append(d, presburger.Compare(v, ops[r.Intn(len(ops))], presburger.ConstTerm(int64(r.Intn(9)-4))))
		}
		// Enumerate the box: is some point of the domains and d at most rhs?
		point := make([]int64, k)
		val := func(v presburger.Var) int64 { return point[index[v]] }
		within := func() bool {
			for i, v := range state {
				if b, ok := dom[v]; ok && (!b.NoLo && point[i] < b.Lo || !b.NoHi && point[i] > b.Hi) {
					return false
				}
			}
			for _, a := range d {
				if !presburger.Eval(a, val) {
					return false
				}
			}
			return true
		}
		var lo, hi [3]int64 // where each variable takes values in the box
		for i := range k {
			lo[i], hi[i] = box, -box
		}
		satisfied := false
		var walk func(i int)
		walk = func(i int) {
			if i == k {
				if !within() {
					return
				}
				var ux int64
				for j := range k {
					lo[j], hi[j] = min(lo[j], point[j]), max(hi[j], point[j])
					ux += w.u[j] * point[j]
				}
				if ux <= w.rhs.Const {
					satisfied = true
				}
				return
			}
			for x := int64(-box); x <= box; x++ {
				point[i] = x
				walk(i + 1)
			}
		}
		walk(0)
		got := w.excludes(d, index, state, dom)
		if got {
			yes++
		}
		if got && satisfied {
			t.Fatalf("trial %d: excludes says no state of %v in %v satisfies %v.x <= %v, but one does", trial, d, dom, w.u, w.rhs)
		}
		// Exact when d has only one-variable comparisons and no Ne, and
		// the values each variable may take (by its domain and d's atoms
		// on it) are, for a variable of weight 0, some, and for another,
		// none or finitely many strictly inside the box.
		confined := true
		for _, a := range d {
			if c, ok := a.(presburger.Cmp); !ok || len(c.T.Monos) != 1 || c.Op == presburger.Ne {
				confined = false
			}
		}
		for i, v := range state {
			n, least, most := valuesOf(v, dom, d)
			if w.u[i] == 0 && n == 0 || w.u[i] != 0 && n > 0 && (least <= -box || most >= box) {
				confined = false
			}
		}
		if confined && !satisfied && !got {
			t.Fatalf("trial %d: no state of %v in %v satisfies %v.x <= %v, but excludes cannot tell", trial, d, dom, w.u, w.rhs)
		}
		if confined && got {
			exactYes++
		}
	}
	t.Logf("%d trials, excludes said yes %d times (%d of them exact cases)", trials, yes, exactYes)
	if exactYes < trials/50 {
		t.Errorf("excludes said yes in only %d exact cases of %d trials: the test exercises too little", exactYes, trials)
	}
}

// valuesOf enumerates the values of v in [-50, 50] that v's domain and
// the atoms of d on v alone allow: how many, the least and the greatest.
func valuesOf(v presburger.Var, dom map[presburger.Var]presburger.Bound, d []presburger.Formula) (n int, least, most int64) {
	for x := int64(-50); x <= 50; x++ {
		if b, ok := dom[v]; ok && (!b.NoLo && x < b.Lo || !b.NoHi && x > b.Hi) {
			continue
		}
		allowed := true
		for _, a := range d {
			if c, ok := a.(presburger.Cmp); ok && len(c.T.Monos) == 1 && c.T.Monos[0].Var == v {
				allowed = allowed && presburger.Eval(c, func(presburger.Var) int64 { return x })
			}
		}
		if allowed {
			if n == 0 {
				least = x
			}
			n, most = n+1, x
		}
	}
	return n, least, most
}
