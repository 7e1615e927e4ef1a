package testsupport

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Processes numbers the processes of sys group by group and, within a
// group, by initial state (the order in which explore.Lift and
// nusmv.Concrete lay them out): owner[p] is the group of process p and
// init[p] its initial local state.
func Processes(sys *gsst.System) (owner, init []int) {
	for g := range sys.Groups {
		for s := range sys.States {
			for range sys.Init[g][s] {
				owner = append(owner, g)
				init = append(init, s)
			}
		}
	}
	return owner, init
}

// counters returns the group counters y[g][s] of the process-indexed
// configuration conf (conf[p] is the local state of process p).
func counters(sys *gsst.System, owner, conf []int) [][]int {
	y := make([][]int, len(sys.Groups))
	for g := range y {
		y[g] = make([]int, len(sys.States))
	}
	for p, s := range conf {
		y[owner[p]][s]++
	}
	return y
}

// Totals returns the total counter of every local state of a
// configuration given by its group counters.
func Totals(y [][]int) []int {
	if len(y) == 0 {
		return nil
	}
	x := make([]int, len(y[0]))
	for _, row := range y {
		for s, k := range row {
			x[s] += k
		}
	}
	return x
}

// valuation evaluates the counter variables of sys (#S and #S[g]) on
// group counters y, computed here rather than by gsst.System.Valuation so
// that the oracle shares only the variable numbering with the code under
// test.
func valuation(sys *gsst.System, y [][]int) func(presburger.Var) (int64, bool) {
	return func(v presburger.Var) (int64, bool) {
		s, g, ok := sys.Counter(v)
		switch {
		case !ok:
			return 0, false
		case g >= 0:
			return int64(y[g][s]), true
		}
		k := 0
		for _, row := range y {
			k += row[s]
		}
		return int64(k), true
	}
}

// PaperOnly panics unless sys is a system the oracle named what can
// read: one of the paper, whose guards read group and total counters
// only and whose steps move one process. Shared variables, broadcasts,
// rendezvous and unfixed parameters are beyond it (a fixed instance
// folds its parameters into constants, which it reads); their reference
// is Procs, ProcSteps and ProcsWithin. It refuses such a system rather
// than read it as if the construct were not there.
func PaperOnly(sys *gsst.System, what string) {
	x := ConstructsOf(sys) &^ Params
	for i := range sys.Params {
		if !sys.Params[i].Fixed {
			x |= Params
		}
	}
	if x != 0 {
		panic(fmt.Sprintf("testsupport: %s of %s: %s is beyond the paper's systems that it reads; use the process-level oracle (Procs, ProcSteps, ProcsWithin)", what, sys.Name, x))
	}
}

// Enabled reports whether process p may take transition t in the
// configuration conf (Definition 3 of Wei, Gurfinkel and Chechik): p is in
// t's source state, its group is in a block of t, and that block's guard
// holds on the counters of conf.
func Enabled(sys *gsst.System, t *gsst.Transition, owner, conf []int, p int) bool {
	PaperOnly(sys, "Enabled")
	return conf[p] == t.From && guardHolds(sys, t, owner[p], valuation(sys, counters(sys, owner, conf)))
}

// guardHolds reports whether group g is in a block of t whose guard holds
// under val.
func guardHolds(sys *gsst.System, t *gsst.Transition, g int, val func(presburger.Var) (int64, bool)) bool {
	b := t.BlockOf(g)
	if b == nil {
		return false
	}
	return presburger.Eval(b.Guard, func(v presburger.Var) int64 {
		x, ok := val(v)
		if !ok {
			panic(fmt.Sprintf("testsupport: guard of %s reads variable %d, not a counter", sys.TransitionName(t), v))
		}
		return x
	})
}

// Firing returns the groups that may take transition t in the
// configuration given by group counters y (Definition 3): those with a
// process in t's source state, in a block of t whose guard holds on y.
func Firing(sys *gsst.System, t *gsst.Transition, y [][]int) []int {
	PaperOnly(sys, "Firing")
	val := valuation(sys, y)
	var out []int
	for g := range sys.Groups {
		if y[g][t.From] > 0 && guardHolds(sys, t, g, val) {
			out = append(out, g)
		}
	}
	return out
}

// movers returns, for a configuration, which group may take which
// transition: may[r][g]. A process p can take r exactly when it is in r's
// source state and may[r][owner[p]] (Enabled), so this evaluates each
// guard once per configuration instead of once per process.
func movers(sys *gsst.System, owner, conf []int) [][]bool {
	val := valuation(sys, counters(sys, owner, conf))
	may := make([][]bool, len(sys.Transitions))
	for r := range sys.Transitions {
		may[r] = make([]bool, len(sys.Groups))
		for g := range sys.Groups {
			may[r][g] = guardHolds(sys, &sys.Transitions[r], g, val)
		}
	}
	return may
}

// Space is the state space of the unreduced system: every process has
// its own local state, one process moves per step, and a configuration
// in which no process can move stutters. It is the reference semantics
// every model of vsym is checked against: the group-counter model is its
// quotient under permutations inside groups (Groups), and for a
// certified system the total-counter model is its quotient under all
// permutations (Totals).
type Space struct {
	*Graph // keys are fmt.Sprint of the configurations
	Sys    *gsst.System
	Owner  []int   // group of each process (see Processes)
	Confs  [][]int // Confs[i][p]: local state of process p in state i
}

// Unreduced explores the configurations of sys reachable from inits, by
// default the initial configuration of Processes; the first is the
// initial state of the graph. It refuses a system beyond the paper
// (PaperOnly): Procs is the reference for those.
func Unreduced(sys *gsst.System, inits ...[]int) *Space {
	PaperOnly(sys, "Unreduced")
	owner, init := Processes(sys)
	if len(inits) == 0 {
		inits = [][]int{init}
	}
	sp := &Space{Graph: newGraph(), Sys: sys, Owner: owner}
	push := func(c []int) int {
		i, added := sp.add(fmt.Sprint(c))
		if added {
			sp.Confs = append(sp.Confs, c)
		}
		return i
	}
	for _, c := range inits {
		push(slices.Clone(c))
	}
	for i := 0; i < len(sp.Confs); i++ {
		c := sp.Confs[i]
		may := movers(sys, owner, c)
		for p := range c {
			for j := range sys.Transitions {
				t := &sys.Transitions[j]
				if c[p] != t.From || !may[j][owner[p]] {
					continue
				}
				d := slices.Clone(c)
				d[p] = t.To
				sp.Succ[i] = append(sp.Succ[i], push(d))
			}
		}
		sp.close(i, false)
	}
	sp.value = func(i int, v presburger.Var) (int64, bool) {
		return valuation(sys, counters(sys, owner, sp.Confs[i]))(v)
	}
	return sp
}

// GroupCounters returns the group counters of state i.
func (sp *Space) GroupCounters(i int) [][]int { return counters(sp.Sys, sp.Owner, sp.Confs[i]) }

// Groups returns the quotient of the space under permutations of the
// processes inside each group, keyed by GroupKey: the state space the
// group-counter model must have, with the same verdicts for every
// property.
func (sp *Space) Groups() *Graph {
	return sp.Quotient(func(i int) string { return GroupKey(sp.GroupCounters(i)) })
}

// Totals returns the quotient of the space under all permutations of the
// processes, keyed by TotalKey of the total counters. For a system that
// is fully virtually symmetric it is the state space of the total-counter
// model (Theorem 7), with the same verdicts for properties over total
// counters; its atoms must not read group counters, which differ between
// the members of a class.
func (sp *Space) Totals() *Graph {
	q := sp.Quotient(func(i int) string { return TotalKey(Totals(sp.GroupCounters(i))) })
	inner := q.value
	q.value = func(c int, v presburger.Var) (int64, bool) {
		if _, g, ok := sp.Sys.Counter(v); !ok || g >= 0 {
			return 0, false
		}
		return inner(c, v)
	}
	return q
}

// Arrangements returns every configuration with the same group counters
// as conf: the processes of each group permuted in every distinct way.
// Unreduced(sys, Arrangements(owner, init)...) explores every
// configuration the reachable group-counter vectors stand for.
func Arrangements(owner, conf []int) [][]int {
	var out [][]int
	seen := map[string]bool{}
	c := slices.Clone(conf)
	var rec func(p int)
	rec = func(p int) {
		if p == len(c) {
			if k := fmt.Sprint(c); !seen[k] {
				seen[k] = true
				out = append(out, slices.Clone(c))
			}
			return
		}
		for q := p; q < len(c); q++ {
			if owner[q] != owner[p] {
				continue
			}
			c[p], c[q] = c[q], c[p]
			rec(p + 1)
			c[p], c[q] = c[q], c[p]
		}
	}
	rec(0)
	return out
}
