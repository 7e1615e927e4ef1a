package testsupport

import (
	"fmt"
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

// ModelStep is one step of a model for NewModelOracle: transition Trans
// of the model leads to Next.
type ModelStep struct {
	Trans int
	Next  []int
}

// ModelConstraint is a fairness constraint of a model
// (counterabs.Justice restated): when Weak, weak fairness of the
// transitions Transitions (an edge meets it when it takes one of them,
// stutters, or none of them can be taken); otherwise the justice
// condition State over the model's variables.
type ModelConstraint struct {
	Weak        bool
	State       presburger.Formula
	Transitions []int
}

// NewModelOracle is the fair-CTL oracle (FairGraph) of a model given by
// its initial state and its labelled steps, explored as StepGraph
// explores: a state without a step stutters, and so does one where
// mayDeadlock (when not nil) holds, besides its steps. Atoms are over the
// model's variables presburger.Var(i).
func NewModelOracle(init []int, succ func(x []int) []ModelStep, mayDeadlock presburger.Formula, cons []ModelConstraint) *FairGraph {
	var vecs [][]int
	index := map[string]int{}
	g := &FairGraph{constraints: len(cons), cache: map[string][]bool{}}
	push := func(x []int) int {
		k := TotalKey(x)
		if i, ok := index[k]; ok {
			return i
		}
		index[k] = len(vecs)
		vecs = append(vecs, x)
		g.Edges = append(g.Edges, nil)
		g.Dead = append(g.Dead, false)
		return len(vecs) - 1
	}
	g.val = func(i int) func(presburger.Var) int64 {
		return func(v presburger.Var) int64 { return int64(vecs[i][v]) }
	}
	g.name = func(v presburger.Var) string { return fmt.Sprintf("x%d", v) }
	push(slices.Clone(init))
	for i := 0; i < len(vecs); i++ {
		for _, st := range succ(slices.Clone(vecs[i])) {
			g.Edges[i] = append(g.Edges[i], OracleEdge{To: push(st.Next), Proc: 0, Trans: st.Trans})
		}
		if len(g.Edges[i]) == 0 || mayDeadlock != nil && presburger.Eval(mayDeadlock, g.val(i)) {
			g.Dead[i] = true
			g.Edges[i] = append(g.Edges[i], OracleEdge{To: i, Proc: -1, Trans: -1})
		}
	}
	g.meets = func(i int, e OracleEdge, c int) bool {
		k := &cons[c]
		if !k.Weak {
			return presburger.Eval(k.State, g.val(i))
		}
		if e.Trans < 0 || slices.Contains(k.Transitions, e.Trans) {
			return true
		}
		for _, d := range g.Edges[i] {
			if slices.Contains(k.Transitions, d.Trans) {
				return false // one of them can be taken, and e takes none
			}
		}
		return true
	}
	return g
}
