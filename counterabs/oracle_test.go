package counterabs

// The oracle for the parametric models: the random parametric GSSTs, the
// instances of a small box and the configurations of an instance come
// from internal/testsupport; what is here evaluates a parametric model's
// guards on them.

import (
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// paramBoxMax bounds the sizes tried for a range without a greatest size
// (and for ranges beyond it).
const paramBoxMax = 3

// paramConfig draws the random parametric systems: those of randomConfig
// with some group sizes made ranges (testsupport.Config.Ranges) and
// guards and a property that compare counters with n.
var paramConfig = testsupport.Config{MaxSize: 2, EmptyGroups: true, MaxTransitions: 3,
	Ranges: true, NGuards: true, BoxMax: paramBoxMax, MaxConfigs: 60000, Properties: 1}

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
			if v >= m.LocalVar(0) {
				c := m.locals[v-m.LocalVar(0)]
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
	return guardHoldsFree(m, t, sizes, paramValuation(m, x, sizes))
}

// guardHoldsFree is totalGuardHoldsFree with the variables other than
// the locals read from base.
func guardHoldsFree(m *ParamModel, t *ParamTransition, sizes []int, base func(presburger.Var) int64) bool {
	byGroup := make([][]presburger.Var, len(sizes))
	for _, v := range t.Locals {
		g := m.locals[v-m.LocalVar(0)].Group
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
