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
// every operator and coefficient sign (with a two-variable atom now and
// then, and a sum of variables of weight 1, which excludes reads when
// the weights are at least 0). Where excludes says yes, no point
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
	yes, exactYes, sumYes := 0, 0, 0
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
		sums := false // d has a sum of two or more variables of weight 1
		for range r.Intn(4) {
			v := presburger.VarTerm(state[r.Intn(k)]).Scale(int64(r.Intn(7) - 3))
			switch r.Intn(6) {
			case 0:
				v = v.Add(presburger.VarTerm(state[r.Intn(k)]))
			case 1:
				// x_a + x_b (+ x_c): a state written as copies
				// (sumExtra).
				v = presburger.Term{}
				for _, i := range r.Perm(k)[:1+r.Intn(k)] {
					v = v.Add(presburger.VarTerm(state[i]))
				}
				sums = sums || len(v.Monos) > 1
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
			if sums {
				sumYes++
			}
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
	t.Logf("%d trials, excludes said yes %d times (%d of them exact cases, %d with a sum of weight-1 variables)", trials, yes, exactYes, sumYes)
	if exactYes < trials/50 {
		t.Errorf("excludes said yes in only %d exact cases of %d trials: the test exercises too little", exactYes, trials)
	}
	if sumYes < trials/200 {
		t.Errorf("excludes said yes with a sum of variables in only %d of %d trials: the test exercises too little", sumYes, trials)
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

// TestSumExtraExact checks sumExtra against enumeration where it is
// exact: one atom "x_1 + ... + x_k >= b" over variables of weight at
// least 0, each with a least value and no greatest (counters); the
// least value of u.x on the atom is the least over the domains plus
// sumExtra's growth. (With greatest values it is a lower bound, which
// TestExcludesRandom checks.)
func TestSumExtraExact(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	for trial := range 3000 {
		k := 2 + r.Intn(2)
		state := make([]presburger.Var, k)
		index := map[presburger.Var]int{}
		dom := map[presburger.Var]presburger.Bound{}
		w := &weights{u: make([]int64, k)}
		var sum presburger.Term
		for i := range k {
			state[i] = presburger.Var(10 + i)
			index[state[i]] = i
			w.u[i] = int64(r.Intn(4))
			lo := int64(r.Intn(3))
			dom[state[i]] = presburger.Bound{Var: state[i], Lo: lo, NoHi: true}
			sum = sum.Add(presburger.VarTerm(state[i]))
		}
		op := []presburger.Op{presburger.Ge, presburger.Gt}[r.Intn(2)]
		atom := presburger.Compare(sum, op, presburger.ConstTerm(int64(r.Intn(12))))
		extra, ok := w.sumExtra(atom, index, state, dom, map[int]bool{})
		if !ok {
			t.Fatalf("trial %d: sumExtra does not read %v", trial, atom)
		}
		least0 := int64(0)
		for i, v := range state {
			least0 += w.u[i] * dom[v].Lo
		}
		best, found := int64(0), false
		point := make([]int64, k)
		var walk func(i int)
		walk = func(i int) {
			if i == k {
				if !presburger.Eval(atom, func(v presburger.Var) int64 { return point[index[v]] }) {
					return
				}
				ux := int64(0)
				for j := range k {
					ux += w.u[j] * point[j]
				}
				if !found || ux < best {
					best, found = ux, true
				}
				return
			}
			for x := dom[state[i]].Lo; x <= dom[state[i]].Lo+13; x++ { // beyond any b
				point[i] = x
				walk(i + 1)
			}
		}
		walk(0)
		if !found {
			t.Fatalf("trial %d: no state of the box meets %v", trial, atom)
		}
		if least0+extra != best {
			t.Fatalf("trial %d: %v with weights %v in %v: least %d + growth %d, enumeration %d", trial, atom, w.u, dom, least0, extra, best)
		}
	}
}
