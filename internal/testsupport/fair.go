package testsupport

// An independent oracle for fair CTL on the unreduced system: the explicit
// state space of process-indexed configurations (no quotient of any kind),
// with labelled edges, and a naive fair-CTL evaluator on it. Fair EG is
// computed from strongly connected components (a state satisfies EG p
// when it reaches, inside p, a non-trivial component of the p-subgraph in
// which an edge of every justice constraint lies), a different algorithm
// from the engines' Emerson-Lei fixpoints. It shares no code with the
// engines; explore/enginetest runs every engine against it.

import (
	"fmt"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// OracleEdge is one step of the unreduced system: process Proc (global
// index: groups in order, within a group by index) takes local transition
// Trans; Proc and Trans are -1 for the stutter step of a deadlock.
type OracleEdge struct {
	To, Proc, Trans int
}

// Oracle is the reachable process-indexed state space of a system from
// its initial configuration (processes placed as Lifted documents:
// group by group, within a group in state order).
type Oracle struct {
	FairGraph
	Sys   *gsst.System
	Group []int   // group of each process
	First []int   // First[g]: global index of process 0 of group g
	Confs [][]int // local state of each process, per state
	Index map[string]int
}

// FairGraph is an explicit state space with labelled edges and fairness
// constraints, and the naive fair-CTL evaluator on it (Sat, Holds,
// Fair): the part of the oracle that does not depend on what the states
// are (process-indexed configurations for NewOracle, model states for
// NewModelOracle). State 0 is the initial state.
type FairGraph struct {
	Edges [][]OracleEdge
	Dead  []bool

	constraints int
	meets       func(i int, e OracleEdge, c int) bool  // edge e from state i meets constraint c
	val         func(i int) func(presburger.Var) int64 // the atoms' valuation at state i
	name        func(presburger.Var) string            // names variables for the cache keys
	cache       map[string][]bool
	fair        []bool
}

// NewOracle explores sys breadth first.
func NewOracle(sys *gsst.System) *Oracle {
	PaperOnly(sys, "NewOracle")
	o := &Oracle{Sys: sys, Index: map[string]int{}}
	o.FairGraph = FairGraph{constraints: o.Constraints(), meets: o.Meets, val: o.Val, name: sys.VarName, cache: map[string][]bool{}}
	var init []int
	for g := range sys.Groups {
		o.First = append(o.First, len(o.Group))
		for s := range sys.States {
			for k := 0; k < sys.Init[g][s]; k++ {
				o.Group = append(o.Group, g)
				init = append(init, s)
			}
		}
	}
	o.add(init)
	for i := 0; i < len(o.Confs); i++ {
		c := o.Confs[i]
		val := o.Val(i)
		for p := range c {
			for ti := range sys.Transitions {
				t := &sys.Transitions[ti]
				if t.From != c[p] {
					continue
				}
				if b := t.BlockOf(o.Group[p]); b == nil || !presburger.Eval(b.Guard, val) {
					continue
				}
				d := append([]int(nil), c...)
				d[p] = t.To
				o.Edges[i] = append(o.Edges[i], OracleEdge{To: o.add(d), Proc: p, Trans: ti})
			}
		}
		if len(o.Edges[i]) == 0 {
			o.Dead[i] = true
			o.Edges[i] = []OracleEdge{{To: i, Proc: -1, Trans: -1}}
		}
	}
	return o
}

func (o *Oracle) add(c []int) int {
	k := fmt.Sprint(c)
	if i, ok := o.Index[k]; ok {
		return i
	}
	o.Index[k] = len(o.Confs)
	o.Confs = append(o.Confs, c)
	o.Edges = append(o.Edges, nil)
	o.Dead = append(o.Dead, false)
	return len(o.Confs) - 1
}

// Counters returns the group counters [g][s] of state i.
func (o *Oracle) Counters(i int) [][]int {
	y := make([][]int, len(o.Sys.Groups))
	for g := range y {
		y[g] = make([]int, len(o.Sys.States))
	}
	for p, s := range o.Confs[i] {
		y[o.Group[p]][s]++
	}
	return y
}

// Val returns the valuation of the system's counter variables in state i.
func (o *Oracle) Val(i int) func(presburger.Var) int64 { return o.Sys.Valuation(o.Counters(i), nil) }

// canTake reports whether some process (of group g, any group when g is
// -1) can take local transition t in state i.
func (o *Oracle) canTake(i, t, g int) bool {
	for _, e := range o.Edges[i] {
		if e.Trans == t && (g < 0 || o.Group[e.Proc] == g) {
			return true
		}
	}
	return false
}

// Meets reports whether the edge e from state i meets fairness constraint
// c: the justice conditions first, then the weak fairness constraints, in
// the system's order.
func (o *Oracle) Meets(i int, e OracleEdge, c int) bool {
	f := &o.Sys.Fairness
	if c < len(f.Justice) {
		return presburger.Eval(f.Justice[c].Formula, o.Val(i))
	}
	w := f.Weak[c-len(f.Justice)]
	if e.Proc < 0 {
		return true // a deadlock: nobody can take anything
	}
	if e.Trans == w.Transition && (w.Group < 0 || o.Group[e.Proc] == w.Group) {
		return true
	}
	return !o.canTake(i, w.Transition, w.Group)
}

// Constraints returns the number of fairness constraints.
func (o *Oracle) Constraints() int {
	return len(o.Sys.Fairness.Justice) + len(o.Sys.Fairness.Weak)
}

// egFair returns the states with a fair path inside p: those that reach,
// through p, a strongly connected component of the p-subgraph that has an
// internal edge and, for every constraint, an internal edge meeting it.
func (o *FairGraph) egFair(p []bool) []bool {
	n := len(o.Edges)
	comp := o.components(p)
	good := map[int]bool{}
	type cm struct{ comp, c int }
	meets := map[cm]bool{}
	hasEdge := map[int]bool{}
	for i := 0; i < n; i++ {
		if !p[i] {
			continue
		}
		for _, e := range o.Edges[i] {
			if !p[e.To] || comp[e.To] != comp[i] {
				continue
			}
			hasEdge[comp[i]] = true
			for c := 0; c < o.constraints; c++ {
				if o.meets(i, e, c) {
					meets[cm{comp[i], c}] = true
				}
			}
		}
	}
	for c := range hasEdge {
		ok := true
		for k := 0; k < o.constraints; k++ {
			ok = ok && meets[cm{c, k}]
		}
		good[c] = ok
	}
	out := make([]bool, n)
	for i := 0; i < n; i++ {
		out[i] = p[i] && good[comp[i]]
	}
	// Backward closure through p.
	for changed := true; changed; {
		changed = false
		for i := 0; i < n; i++ {
			if out[i] || !p[i] {
				continue
			}
			for _, e := range o.Edges[i] {
				if out[e.To] {
					out[i], changed = true, true
					break
				}
			}
		}
	}
	return out
}

// components numbers the strongly connected components of the subgraph
// induced by p (Tarjan); states outside p get -1.
func (o *FairGraph) components(p []bool) []int {
	n := len(o.Edges)
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	comp := make([]int, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []int
	next, ncomp := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, e := range o.Edges[v] {
			w := e.To
			if !p[w] {
				continue
			}
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp[w] = ncomp
				if w == v {
					break
				}
			}
			ncomp++
		}
	}
	for v := 0; v < n; v++ {
		if p[v] && index[v] < 0 {
			visit(v)
		}
	}
	return comp
}

// Fair returns the states where a fair path starts.
func (o *FairGraph) Fair() []bool {
	if o.fair == nil {
		all := make([]bool, len(o.Edges))
		for i := range all {
			all[i] = true
		}
		o.fair = o.egFair(all)
	}
	return o.fair
}

// Sat returns the states satisfying f (over the system's counter
// variables) in the fair semantics of NuSMV 2.6: EX p = EX (p & fair),
// E[p U q] = E[p U (q & fair)], EG over fair paths, the universal
// operators as duals.
func (o *FairGraph) Sat(f ctl.Formula) []bool {
	key := ctl.Format(f, o.name)
	if r, ok := o.cache[key]; ok {
		return r
	}
	r := o.sat(f)
	o.cache[key] = r
	return r
}

func (o *FairGraph) sat(f ctl.Formula) []bool {
	n := len(o.Edges)
	out := make([]bool, n)
	fair := o.Fair()
	ex := func(z []bool) []bool { // EX (z & fair)
		r := make([]bool, n)
		for i := range r {
			for _, e := range o.Edges[i] {
				if z[e.To] && fair[e.To] {
					r[i] = true
				}
			}
		}
		return r
	}
	eu := func(p, q []bool) []bool {
		z := make([]bool, n)
		for i := range z {
			z[i] = q[i] && fair[i]
		}
		for changed := true; changed; {
			changed = false
			step := ex(z)
			for i := range z {
				if !z[i] && p[i] && step[i] {
					z[i], changed = true, true
				}
			}
		}
		return z
	}
	all := make([]bool, n)
	for i := range all {
		all[i] = true
	}
	switch f := f.(type) {
	case ctl.Atom:
		for i := range out {
			out[i] = presburger.Eval(f.P, o.val(i))
		}
	case ctl.Not:
		out = not(o.Sat(f.X))
	case ctl.Binary:
		l, r := o.Sat(f.L), o.Sat(f.R)
		for i := range out {
			switch f.Op {
			case ctl.And:
				out[i] = l[i] && r[i]
			case ctl.Or:
				out[i] = l[i] || r[i]
			default:
				out[i] = !l[i] || r[i]
			}
		}
	case ctl.Unary:
		x := o.Sat(f.X)
		switch f.Op {
		case ctl.EX:
			out = ex(x)
		case ctl.AX:
			out = not(ex(not(x)))
		case ctl.EF:
			out = eu(all, x)
		case ctl.AG:
			out = not(eu(all, not(x)))
		case ctl.EG:
			out = o.egFair(x)
		case ctl.AF:
			out = not(o.egFair(not(x)))
		}
	case ctl.Until:
		l, r := o.Sat(f.L), o.Sat(f.R)
		if !f.All {
			return eu(l, r)
		}
		nr := not(r)
		bad := make([]bool, n)
		for i := range bad {
			bad[i] = !l[i] && nr[i]
		}
		a, b := eu(nr, bad), o.egFair(nr)
		for i := range out {
			out[i] = !(a[i] || b[i])
		}
	}
	return out
}

// Holds decides f at the initial state as NuSMV does: it holds when the
// initial state satisfies it or no fair path starts there.
func (o *FairGraph) Holds(f ctl.Formula) bool { return !o.Fair()[0] || o.Sat(f)[0] }

// Replay replays the lifted run of tr on the state space (see Replay)
// and returns the state of each configuration of the run.
func (o *Oracle) Replay(tr *Trace) ([]int, error) {
	confs, err := Replay(o.Sys, tr)
	if err != nil {
		return nil, err
	}
	run := make([]int, len(confs))
	for k, c := range confs {
		i, ok := o.Index[fmt.Sprint(c)]
		if !ok {
			return nil, fmt.Errorf("lifted configuration %d %v is not reachable", k, c)
		}
		run[k] = i
	}
	return run, nil
}

// CycleMeetsAll reports which fairness constraint, if any, the cycle of a
// replayed lasso (run[loop..] and back to run[loop]) does not meet; -1
// when it meets all.
func (o *Oracle) CycleMeetsAll(run []int, steps []Step, loop int) int {
	for c := 0; c < o.Constraints(); c++ {
		met := false
		for k := loop; k < len(steps); k++ {
			i := run[k]
			st := steps[k]
			e := OracleEdge{To: run[k+1], Proc: -1, Trans: -1}
			if !st.Stutter {
				e.Proc, e.Trans = o.First[st.Group]+st.Process, st.Transition
			}
			if o.Meets(i, e, c) {
				met = true
				break
			}
		}
		if !met {
			return c
		}
	}
	return -1
}

// CheckTrace checks a trace of the verdict holds on f (system formula;
// subs from Subformulas) against the oracle: its lifted run (and each
// branch's) replays on the unreduced system; its segments connect, start
// at the initial state and cover the run; every segment's formula has the
// claimed truth value where it starts and its target where it ends (all
// along a lasso); a path segment starting at the initial state is
// shortest; the cycle of the lasso meets every fairness constraint.
// States are identified through the lifted run: configuration i of the
// run is state i of the trace for i < len(tr.Keys).
func (o *Oracle) CheckTrace(tr *Trace, subs map[string]ctl.Formula) error {
	if tr == nil {
		return nil
	}
	run, err := o.Replay(tr)
	if err != nil {
		return err
	}
	if len(run) < len(tr.Keys) {
		return fmt.Errorf("lifted run of %d configurations for %d states", len(run), len(tr.Keys))
	}
	if len(tr.Segments) == 0 {
		return fmt.Errorf("trace without segments")
	}
	if tr.Segments[0].Start != 0 || tr.Segments[len(tr.Segments)-1].End != len(tr.Keys)-1 {
		return fmt.Errorf("segments do not cover the trace: %+v for %d states", tr.Segments, len(tr.Keys))
	}
	lasso := tr.Loop >= 0
	if lasso != (tr.Lifted.Loop >= 0) {
		return fmt.Errorf("trace loop %d, lifted loop %d", tr.Loop, tr.Lifted.Loop)
	}
	if o.Constraints() > 0 && !lasso {
		return fmt.Errorf("a trace under fairness that is not a fair lasso")
	}
	val := func(text string, holds bool, at int) error {
		f, ok := subs[text]
		if !ok {
			return fmt.Errorf("segment names %q, not a subformula", text)
		}
		if got := o.Sat(f)[run[at]]; got != holds {
			return fmt.Errorf("%s is %v at state %d, the segment says %v", text, got, at, holds)
		}
		return nil
	}
	for k, sg := range tr.Segments {
		if k > 0 && sg.Start != tr.Segments[k-1].End {
			return fmt.Errorf("segment %d starts at %d, the previous ends at %d", k, sg.Start, tr.Segments[k-1].End)
		}
		if sg.Start < 0 || sg.End < sg.Start || sg.End >= len(tr.Keys) {
			return fmt.Errorf("segment %d out of range: %+v", k, sg)
		}
		if sg.Kind != "fair-continuation" {
			if err := val(sg.Formula, sg.Holds, sg.Start); err != nil {
				return fmt.Errorf("segment %d: %v", k, err)
			}
		}
		switch sg.Kind {
		case "step":
			if sg.End != sg.Start+1 {
				return fmt.Errorf("segment %d: a step of %d states", k, sg.End-sg.Start)
			}
			fallthrough
		case "path":
			if err := val(sg.Target, sg.TargetHolds, sg.End); err != nil {
				return fmt.Errorf("segment %d target: %v", k, err)
			}
			if !o.Fair()[run[sg.End]] {
				return fmt.Errorf("segment %d ends in a state with no fair path", k)
			}
			if sg.Kind == "path" && sg.Start == 0 {
				// E[L U R] goes through L, a failing A[L U R] through !R.
				var through ctl.Formula = ctl.Atom{P: presburger.True}
				if u, ok := subs[sg.Formula].(ctl.Until); ok {
					through = u.L
					if u.All {
						through = ctl.Not{X: u.R}
					}
				}
				if d := o.dist(through, subs[sg.Target], sg.TargetHolds); d != sg.End {
					return fmt.Errorf("segment %d: path of length %d, shortest %d", k, sg.End, d)
				}
			}
		case "lasso", "fair-continuation":
			if sg.End != len(tr.Keys)-1 || tr.Loop < sg.Start {
				return fmt.Errorf("segment %d: a lasso that is not the end of the trace", k)
			}
			if sg.Kind == "lasso" {
				// The target holds at every configuration from Start on,
				// the unrolled loop included.
				for at := sg.Start; at < len(run); at++ {
					f := subs[sg.Target]
					if f == nil || o.Sat(f)[run[at]] != sg.TargetHolds {
						return fmt.Errorf("segment %d: %s is not %v along the lasso", k, sg.Target, sg.TargetHolds)
					}
				}
			}
		default:
			return fmt.Errorf("segment %d: unknown kind %q", k, sg.Kind)
		}
	}
	if lasso {
		if c := o.CycleMeetsAll(run, tr.Lifted.Steps, tr.Lifted.Loop); c >= 0 {
			return fmt.Errorf("the lifted cycle meets no edge of fairness constraint %d", c)
		}
	}
	for i, b := range tr.Branches {
		if err := o.CheckTrace(b, subs); err != nil {
			return fmt.Errorf("branch %d: %v", i, err)
		}
	}
	return nil
}

// DeadlockDistance returns the breadth-first distance from the initial
// state to the nearest deadlock, or -1 when none is reachable.
func (o *Oracle) DeadlockDistance() int {
	d := map[int]int{0: 0}
	queue := []int{0}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if o.Dead[u] {
			return d[u]
		}
		for _, e := range o.Edges[u] {
			if _, ok := d[e.To]; !ok {
				d[e.To] = d[u] + 1
				queue = append(queue, e.To)
			}
		}
	}
	return -1
}

// Deadlocks is what an engine reports on deadlocks, restated: whether
// none is reachable (nil when not decided), the examples (keyed as the
// trace states) and a trace to each.
type Deadlocks struct {
	Free     *bool
	Examples []string
	Traces   []*Trace
}

// CheckDeadlocks checks an engine's deadlock results against the state
// space: Free exactly when no deadlock is reachable, and every deadlock
// trace a shortest path to a deadlock that replays on the unreduced
// system and stutters there.
func (o *Oracle) CheckDeadlocks(rep Deadlocks) error {
	d := o.DeadlockDistance()
	if rep.Free == nil {
		return fmt.Errorf("deadlock freedom not decided")
	}
	if *rep.Free != (d < 0) {
		return fmt.Errorf("deadlock-free %v, the nearest deadlock at distance %d", *rep.Free, d)
	}
	if d >= 0 && len(rep.Examples) == 0 {
		return fmt.Errorf("no deadlock example")
	}
	for i, tr := range rep.Traces {
		if tr.Kind != "deadlock" || len(tr.Keys)-1 != d || tr.Loop != len(tr.Keys)-1 {
			return fmt.Errorf("deadlock trace %d: kind %s, %d states, loop %d; the nearest deadlock is at distance %d", i, tr.Kind, len(tr.Keys), tr.Loop, d)
		}
		if tr.Keys[len(tr.Keys)-1] != rep.Examples[i] {
			return fmt.Errorf("deadlock trace %d does not end in example %d", i, i)
		}
		run, err := o.Replay(tr)
		if err != nil {
			return fmt.Errorf("deadlock trace %d: %v", i, err)
		}
		if last := run[len(run)-1]; !o.Dead[last] || !tr.Lifted.Steps[len(tr.Lifted.Steps)-1].Stutter {
			return fmt.Errorf("deadlock trace %d does not end in a deadlock of the unreduced system", i)
		}
	}
	return nil
}

// dist returns the breadth-first distance from the initial state, through
// states satisfying through, to a fair state where f has truth value
// holds, or -1.
func (o *Oracle) dist(through, f ctl.Formula, holds bool) int {
	if f == nil {
		return -2
	}
	s, fair, thr := o.Sat(f), o.Fair(), o.Sat(through)
	d := map[int]int{0: 0}
	queue := []int{0}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if s[u] == holds && fair[u] {
			return d[u]
		}
		if !thr[u] {
			continue
		}
		for _, e := range o.Edges[u] {
			if _, ok := d[e.To]; !ok {
				d[e.To] = d[u] + 1
				queue = append(queue, e.To)
			}
		}
	}
	return -1
}
