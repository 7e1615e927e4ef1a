package testsupport

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Orbits is the existential abstraction of a system on total counters
// and shared values, for every construct of the language, explored from
// the initial orbit: the orbit (x, v) stands for every state with total
// counters x and shared values v (any group counters with those totals),
// and its successors are the orbits some of those states reach by a
// step (ProcSteps). An orbit some state of which has no step is dead and
// stutters besides (a forced model's MayDeadlock). For a fully virtually
// symmetric system it is the total quotient of Procs; for any system it
// is what a total-counter model built with counterabs.Force must be, as
// Brute.Graph is for the paper's. Keys are those of OrbitKey; atoms may
// read total counters, shared values and the values of fixed parameters.
// It panics beyond limit orbits (0: 1<<16), as an unbounded shared
// variable can make them infinite.
func Orbits(sys *gsst.System, limit int) *Graph {
	if limit == 0 {
		limit = 1 << 16
	}
	owner, init := Processes(sys)
	byTotals := ConfigsByTotals(sys)
	type orbit struct{ x, v []int }
	g := newGraph()
	var orbits []orbit
	push := func(st ProcState) int {
		i, added := g.add(OrbitKey(sys, owner, st))
		if added {
			if len(orbits) == limit {
				panic(fmt.Sprintf("testsupport: %s has more than %d reachable orbits", sys.Name, limit))
			}
			x := make([]int, len(sys.States))
			for _, s := range st.Conf {
				x[s]++
			}
			orbits = append(orbits, orbit{x, slices.Clone(st.Shared)})
		}
		return i
	}
	g.Init = push(ProcState{Conf: init, Shared: sys.InitShared()})
	for i := 0; i < len(orbits); i++ {
		o := orbits[i]
		dead := false
		for _, y := range byTotals[TotalKey(o.x)] {
			steps := ProcSteps(sys, owner, ProcState{Conf: Layout(y), Shared: o.v})
			dead = dead || len(steps) == 0
			for _, st := range steps {
				g.Succ[i] = append(g.Succ[i], push(st.Next))
			}
		}
		g.close(i, dead)
	}
	g.value = func(i int, v presburger.Var) (int64, bool) {
		switch s, grp, ok := sys.Counter(v); {
		case ok && grp >= 0:
			return 0, false
		case ok:
			return int64(orbits[i].x[s]), true
		}
		if _, ok := sys.SharedOf(v); !ok {
			if _, ok := sys.ParamOf(v); !ok {
				return 0, false
			}
		}
		return sys.Valuation(nil, orbits[i].v)(v), true
	}
	return g
}
