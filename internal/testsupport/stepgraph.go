package testsupport

import (
	"slices"

	"github.com/vsym/vsym/presburger"
)

// StepGraph explores a model given by its initial state and a function
// returning the successors of a state (a value per model variable), the
// general counterpart of CounterGraph for models whose steps do more
// than move one process (counterabs.Model.Step). A state without a
// successor stutters; so does one where mayDeadlock (when not nil)
// holds. Keys are TotalKey of the states; atoms are over the model's
// variables presburger.Var(i).
func StepGraph(init []int, succ func(x []int) [][]int, mayDeadlock presburger.Formula) *Graph {
	g := newGraph()
	var vecs [][]int
	push := func(x []int) int {
		i, added := g.add(TotalKey(x))
		if added {
			vecs = append(vecs, x)
		}
		return i
	}
	g.Init = push(slices.Clone(init))
	for i := 0; i < len(vecs); i++ {
		x := vecs[i]
		for _, y := range succ(slices.Clone(x)) {
			g.Succ[i] = append(g.Succ[i], push(y))
		}
		val := func(v presburger.Var) int64 { return int64(x[v]) }
		g.close(i, mayDeadlock != nil && presburger.Eval(mayDeadlock, val))
	}
	g.value = func(i int, v presburger.Var) (int64, bool) {
		if v < 0 || int(v) >= len(vecs[i]) {
			return 0, false
		}
		return int64(vecs[i][v]), true
	}
	return g
}
