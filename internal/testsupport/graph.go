package testsupport

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/presburger"
)

// Graph is an explicit transition system: states numbered from 0, each
// with a key naming it, successor lists and a way to evaluate the atoms
// of properties. A state without a move has itself as its only successor
// and is marked Dead, the convention of vsym's engines and of its NuSMV
// models (a stutter step), so that every path is infinite.
type Graph struct {
	Keys  []string       // Keys[i] identifies state i (see GroupKey, TotalKey)
	Index map[string]int // key -> state
	Succ  [][]int        // sorted, without repetition
	Dead  []bool
	Init  int // the initial state

	// value returns the value of a variable at a state: a counter of the
	// system (gsst.System.TotalVar, GroupVar) or, for a CounterGraph, a
	// counter of the model. ok is false for a variable the graph cannot
	// evaluate, such as a group counter on a graph of total counters.
	value func(state int, v presburger.Var) (int64, bool)
}

func newGraph() *Graph { return &Graph{Index: map[string]int{}} }

// add returns the state with key k, adding it when it is new.
func (g *Graph) add(k string) (int, bool) {
	if i, ok := g.Index[k]; ok {
		return i, false
	}
	i := len(g.Keys)
	g.Index[k] = i
	g.Keys = append(g.Keys, k)
	g.Succ = append(g.Succ, nil)
	g.Dead = append(g.Dead, false)
	return i, true
}

// close sorts and deduplicates the successors of state i and gives a
// state without one its stutter loop. A state that may be deadlocked
// (stutter: a forced model's counterabs.Model.MayDeadlock holds there)
// is dead too and stutters besides its moves.
func (g *Graph) close(i int, stutter bool) {
	if len(g.Succ[i]) == 0 || stutter {
		g.Dead[i] = true
		g.Succ[i] = append(g.Succ[i], i)
	}
	slices.Sort(g.Succ[i])
	g.Succ[i] = slices.Compact(g.Succ[i])
}

// Len returns the number of states.
func (g *Graph) Len() int { return len(g.Keys) }

// Deadlocks returns the number of dead states.
func (g *Graph) Deadlocks() int {
	n := 0
	for _, d := range g.Dead {
		if d {
			n++
		}
	}
	return n
}

// Edge reports whether b is a successor of a.
func (g *Graph) Edge(a, b int) bool {
	_, ok := slices.BinarySearch(g.Succ[a], b)
	return ok
}

// Eval evaluates a quantifier-free or quantified formula over the
// graph's variables at state i. It panics on a variable the graph cannot
// evaluate: a test asked a question the graph cannot answer.
func (g *Graph) Eval(i int, f presburger.Formula) bool {
	return presburger.Eval(f, func(v presburger.Var) int64 {
		x, ok := g.value(i, v)
		if !ok {
			panic(fmt.Sprintf("testsupport: variable %d cannot be evaluated on this graph (state %s)", v, g.Keys[i]))
		}
		return x
	})
}

// Distances returns the length of a shortest path from the initial state
// to each state, or -1 for a state it cannot reach, moving only out of
// states in through (nil: every state).
func (g *Graph) Distances(through []bool) []int { return g.DistancesFrom(g.Init, through) }

// DistancesFrom is Distances from state from.
func (g *Graph) DistancesFrom(from int, through []bool) []int {
	d := make([]int, g.Len())
	for i := range d {
		d[i] = -1
	}
	d[from] = 0
	queue := []int{from}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if through != nil && !through[u] {
			continue
		}
		for _, v := range g.Succ[u] {
			if d[v] < 0 {
				d[v] = d[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return d
}

// Shortest returns the length of a shortest path from the initial state
// to a state in target whose earlier states are all in through (nil:
// any), or -1 when there is none.
func (g *Graph) Shortest(through, target []bool) int { return g.ShortestFrom(g.Init, through, target) }

// ShortestFrom is Shortest from state from.
func (g *Graph) ShortestFrom(from int, through, target []bool) int {
	best := -1
	d := g.DistancesFrom(from, through)
	for i, ok := range target {
		if ok && d[i] >= 0 && (best < 0 || d[i] < best) {
			best = d[i]
		}
	}
	return best
}

// Quotient merges the states of g with equal key(i), keeping the initial
// state's class first; a class has the union of its members' successors
// and is dead when a member is. Atoms are evaluated on the first member
// of a class, which is right for atoms that take one value on every
// member (the counters the key keeps).
func (g *Graph) Quotient(key func(i int) string) *Graph {
	q := newGraph()
	of := make([]int, g.Len())
	rep := []int{}
	order := append([]int{g.Init}, seq(g.Len())...)
	for _, i := range order {
		c, added := q.add(key(i))
		of[i] = c
		if added {
			rep = append(rep, i)
		}
	}
	q.Init = of[g.Init]
	for i := range g.Keys {
		c := of[i]
		q.Dead[c] = q.Dead[c] || g.Dead[i]
		for _, j := range g.Succ[i] {
			q.Succ[c] = append(q.Succ[c], of[j])
		}
	}
	for c := range q.Keys {
		slices.Sort(q.Succ[c])
		q.Succ[c] = slices.Compact(q.Succ[c])
	}
	q.value = func(c int, v presburger.Var) (int64, bool) { return g.value(rep[c], v) }
	return q
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// GroupKey is the key of a state given by its group counters y[g][s], as
// the group quotient of a Space names it.
func GroupKey(y [][]int) string { return fmt.Sprint(y) }

// TotalKey is the key of a state given by a vector of counters: total
// counters per local state (the total quotient, Brute.Graph) or the
// counters of a model (CounterGraph).
func TotalKey(x []int) string { return fmt.Sprint(x) }

// Move is one transition of a counter model for CounterGraph: when Guard
// holds (over the model's counter variables presburger.Var(i)) and
// counter From is at least 1, one unit moves from From to To.
type Move struct {
	From, To int
	Guard    presburger.Formula
}

// CounterGraph explores a counter model given by its initial vector and
// moves, evaluating the guards with presburger.Eval: the naive
// counterpart of an engine's exploration of a model. mayDeadlock, when
// not nil, is a forced model's deadlock over-approximation
// (counterabs.Model.MayDeadlock): a vector where it holds stutters too.
// Keys are TotalKey of the vectors; atoms are over the model's counters.
func CounterGraph(init []int, moves []Move, mayDeadlock presburger.Formula) *Graph {
	return StepGraph(init, func(x []int) [][]int {
		var out [][]int
		val := func(v presburger.Var) int64 { return int64(x[v]) }
		for _, mv := range moves {
			if x[mv.From] < 1 || !presburger.Eval(mv.Guard, val) {
				continue
			}
			y := slices.Clone(x)
			y[mv.From]--
			y[mv.To]++
			out = append(out, y)
		}
		return out
	}, mayDeadlock)
}
