package counterabs

// The oracle for the parametric models: random parametric GSSTs (the
// random systems of random_test.go with group sizes made ranges and
// guards that read n), the instances of a small box, and every
// group-counter configuration of an instance. Kept apart so that it can
// move to the shared test-support package.

import (
	"math/rand"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// paramBoxMax bounds the sizes tried for a range without a greatest size
// (and for ranges beyond it).
const paramBoxMax = 3

// randomParamSystem draws a random system (randomSystem) and makes it
// parametric: each group's size becomes, at random, a range Size..Size+k
// or Size.. (Size at least 1, every process starting in one state), or
// stays fixed; at least one group is ranged. Some guards are strengthened
// or weakened by an atom comparing a counter with n.
func randomParamSystem(r *rand.Rand) *gsst.System {
	sys := randomSystem(r)
	m := len(sys.States)
	ranged := false
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		if r.Intn(3) == 0 && (ranged || g < len(sys.Groups)-1) {
			continue // stays fixed
		}
		ranged = true
		grp.Size = max(1, min(grp.Size, 2))
		grp.Ranged, grp.Max = true, gsst.Unbounded
		if r.Intn(2) == 0 {
			grp.Max = grp.Size + 1 + r.Intn(2)
		}
		sys.Init[g] = make([]int, m)
		sys.Init[g][r.Intn(m)] = grp.Size
	}
	nAtom := func() presburger.Formula {
		return presburger.Compare(
			presburger.VarTerm(sys.TotalVar(r.Intn(m))).Add(presburger.ConstTerm(int64(r.Intn(3)))),
			ops[r.Intn(len(ops))], presburger.VarTerm(sys.NVar()))
	}
	sys.Properties = append(sys.Properties, gsst.Property{Name: "p", Formula: ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: nAtom()}}})
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for j := range t.Blocks {
			atom := nAtom()
			switch r.Intn(4) {
			case 0:
				t.Blocks[j].Guard = presburger.Conj(t.Blocks[j].Guard, atom)
			case 1:
				t.Blocks[j].Guard = presburger.Disj(t.Blocks[j].Guard, atom)
			}
		}
	}
	return sys
}

// paramBox returns every choice of sizes with each group's size in its
// range and at most paramBoxMax (a fixed group: its size).
func paramBox(sys *gsst.System) [][]int {
	out := [][]int{nil}
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		hi, bounded := grp.Bounded()
		if !bounded || hi > paramBoxMax {
			hi = max(paramBoxMax, grp.Size)
		}
		var next [][]int
		for _, prefix := range out {
			for k := grp.Size; k <= hi; k++ {
				next = append(next, append(append([]int(nil), prefix...), k))
			}
		}
		out = next
	}
	return out
}

// configurations calls f with every configuration of the given group
// sizes over m states (conf[g][s] processes of group g in state s); conf
// is reused between calls.
func configurations(sizes []int, m int, f func(conf [][]int)) {
	conf := make([][]int, len(sizes))
	for g := range conf {
		conf[g] = make([]int, m)
	}
	var place func(g, s, left int)
	place = func(g, s, left int) {
		switch {
		case g == len(sizes):
			f(conf)
		case s == m-1:
			conf[g][s] = left
			next := 0
			if g+1 < len(sizes) {
				next = sizes[g+1]
			}
			place(g+1, 0, next)
		default:
			for k := 0; k <= left; k++ {
				conf[g][s] = k
				place(g, s+1, left-k)
			}
		}
		if g < len(sizes) {
			conf[g][s] = 0
		}
	}
	if len(sizes) == 0 {
		f(conf)
		return
	}
	place(0, 0, sizes[0])
}

// paramValuation assigns the model's variables: counters from x, the
// size variables and n from sizes, anything else 0.
func paramValuation(m *ParamModel, x, sizes []int) func(presburger.Var) int64 {
	n := 0
	for _, k := range sizes {
		n += k
	}
	return func(v presburger.Var) int64 {
		switch i := int(v); {
		case i < len(x):
			return int64(x[i])
		case v == m.NVar():
			return int64(n)
		case i < len(x)+len(sizes):
			return int64(sizes[i-len(x)])
		}
		return 0
	}
}

// confsByTotals groups the configurations of an instance by their total
// counters (vecKey).
func confsByTotals(sizes []int, m int) map[string][][][]int {
	out := map[string][][][]int{}
	configurations(sizes, m, func(conf [][]int) {
		a := make([]int, m)
		cp := make([][]int, len(conf))
		for g, row := range conf {
			cp[g] = append([]int(nil), row...)
			for s, k := range row {
				a[s] += k
			}
		}
		out[vecKey(a)] = append(out[vecKey(a)], cp)
	})
	return out
}

// totalGuardHolds evaluates the guard of a total-level transition t at
// the total vector x of the instance of sizes: its local variables are
// group counters of a configuration, so it holds when some configuration
// with totals x (confs) makes it true with the locals read off that
// configuration. (That every satisfying value of the locals comes from a
// configuration is what the construction argues; the Z3 test checks the
// guard with free locals.)
func totalGuardHolds(m *ParamModel, t *ParamTransition, x, sizes []int, confs [][][]int) bool {
	base := paramValuation(m, x, sizes)
	if len(t.Locals) == 0 {
		return presburger.Eval(t.Guard, base)
	}
	for _, conf := range confs {
		val := func(v presburger.Var) int64 {
			if v > m.NVar() {
				c := m.locals[v-m.NVar()-1]
				return int64(conf[c.Group][c.State])
			}
			return base(v)
		}
		if presburger.Eval(t.Guard, val) {
			return true
		}
	}
	return false
}

// totalGuardHoldsFree evaluates the guard of a total-level transition at
// the total vector x of the instance of sizes with its local variables
// free within a box rather than read off configurations: every
// nonnegative value of them with each group's locals summing to at most
// its size plus one. It holds when one of them makes the guard true; so
// the guard itself must enforce that the locals form a configuration
// with totals x (Z3's test covers negative values).
func totalGuardHoldsFree(m *ParamModel, t *ParamTransition, x, sizes []int) bool {
	base := paramValuation(m, x, sizes)
	byGroup := make([][]presburger.Var, len(sizes))
	for _, v := range t.Locals {
		g := m.locals[v-m.NVar()-1].Group
		byGroup[g] = append(byGroup[g], v)
	}
	vals := map[presburger.Var]int64{}
	val := func(v presburger.Var) int64 {
		if k, ok := vals[v]; ok {
			return k
		}
		return base(v)
	}
	// fill assigns the locals of group g from index i on, with left to
	// spend.
	var fill func(g, i, left int) bool
	fill = func(g, i, left int) bool {
		switch {
		case g == len(sizes):
			return presburger.Eval(t.Guard, val)
		case i == len(byGroup[g]):
			next := 0
			if g+1 < len(sizes) {
				next = sizes[g+1] + 1
			}
			return fill(g+1, 0, next)
		}
		for k := 0; k <= left; k++ {
			vals[byGroup[g][i]] = int64(k)
			if fill(g, i+1, left-k) {
				return true
			}
		}
		return false
	}
	return fill(0, 0, sizes[0]+1)
}
