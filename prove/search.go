package prove

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Before the prover runs on a system with shared variables, parameters,
// broadcasts or rendezvous (and once the lemmas have not proved the
// property), its small instances are explored explicitly: a mutated
// threshold usually shows at the smallest parameter values, where
// breadth-first search over the model's states finds the run in
// milliseconds, while the prover's bounded search over every parameter
// value at once took a minute on the mutated cc (14 steps at n = 4).
// What the search finds goes through the same checks as the prover's
// runs: presburger.Replay on the model's transition system, then the
// execution on the instance (refute).

// searchLimits bound the explicit search: parameter values and ranged
// sizes up to searchMax, at most instanceStates states in each instance
// (an instance whose unbounded variable keeps growing has infinitely
// many, and must not take the budget of the next, where a short run may
// be), and searchStates in all.
const (
	searchMax      = 5
	instanceStates = 20_000
	searchStates   = 400_000
)

// searchSmall explores the instances of m (whose guards must have no
// locals: a group-level model, or a total-level one whose steps read
// total counters only) in order of increasing parameter values and
// sizes, and returns a shortest run into a state violating phi in the
// first instance that has one, or else in an instance beyond them that
// the state equation proposes (reachsearch.go), or nil. The budgets
// count states, so the answer is the same on every machine.
func searchSmall(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem) *presburger.Counterexample {
	for i := range m.Transitions {
		if len(m.Transitions[i].Locals) > 0 {
			return nil
		}
	}
	total := searchStates
	for _, params := range smallInstances(m, ts) {
		if ctx.Err() != nil || total <= 0 {
			return nil
		}
		allowed := min(instanceStates, total)
		left := allowed
		found := bfs(ctx, m, ts, params, &left)
		total -= allowed - left
		if found.cex != nil {
			return found.cex
		}
	}
	return searchByEquation(ctx, solver, m, ts, searchMax, &total)
}

// smallInstances returns the values of ts.Params (sizes, n, the system's
// parameters) of the instances in the search box that satisfy the
// domain and the parameter part of Init, ordered by the sum of the
// system's parameters and sizes, then lexicographically.
func smallInstances(m *counterabs.ParamModel, ts presburger.TransitionSystem) []presburger.Model {
	dom := domainBounds(ts.Domain)
	constraint := paramPart(ts)
	free := freeChoices(m)
	var out []presburger.Model
	vals := make([]int64, len(free))
	var walk func(i int)
	walk = func(i int) {
		if i < len(free) {
			for v := int64(0); v <= searchMax; v++ {
				if b := dom[free[i]]; b.Contains(v) {
					vals[i] = v
					walk(i + 1)
				}
			}
			return
		}
		if p, ok := instanceAt(m, ts, dom, constraint, free, vals); ok {
			out = append(out, p)
		}
	}
	walk(0)
	sum := func(p presburger.Model) int64 {
		s := int64(0)
		for _, v := range free {
			s += p[v]
		}
		return s
	}
	slices.SortStableFunc(out, func(a, b presburger.Model) int {
		if d := sum(a) - sum(b); d != 0 {
			return int(d)
		}
		for _, v := range free {
			if d := a[v] - b[v]; d != 0 {
				return int(d)
			}
		}
		return 0
	})
	return out
}

// freeChoices returns the choices that make an instance of m: each
// parameter, and each group size not given by a term over them.
func freeChoices(m *counterabs.ParamModel) []presburger.Var {
	sys := m.System
	var free []presburger.Var
	for k := range sys.Params {
		free = append(free, m.ParamVar(k))
	}
	for g := range sys.Groups {
		if !sys.Groups[g].OverParams() {
			free = append(free, m.SizeVar(g))
		}
	}
	return free
}

// instanceAt returns the values of ts.Params at the choices vals of
// free (freeChoices): the sizes given by terms and n completed; ok is
// false when they leave the domain dom or fail constraint (the
// parameter part of ts.Init).
func instanceAt(m *counterabs.ParamModel, ts presburger.TransitionSystem, dom map[presburger.Var]presburger.Bound, constraint presburger.Formula, free []presburger.Var, vals []int64) (presburger.Model, bool) {
	sys := m.System
	p := presburger.Model{}
	for k, v := range free {
		p[v] = vals[k]
	}
	val := func(v presburger.Var) int64 { return p[v] }
	n := int64(0)
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		if grp.OverParams() {
			t := grp.SizeTerm.Subst(func(v presburger.Var) presburger.Term {
				k, _ := sys.ParamOf(v)
				return presburger.VarTerm(m.ParamVar(k))
			})
			size, ok := t.Value(val)
			if !ok {
				return nil, false
			}
			p[m.SizeVar(g)] = size
		}
		n += p[m.SizeVar(g)]
	}
	p[m.NVar()] = n
	for _, v := range ts.Params {
		if b := dom[v]; !b.Contains(p[v]) {
			return nil, false
		}
	}
	return p, presburger.Eval(constraint, val)
}

// instanceSearch is what bfs found in one instance: a shortest run into
// a bad state (cex), or none; then complete says whether it visited
// every reachable state (the budget did not run out, no step was left
// unfollowed, the context did not end), and reached lists the states it
// visited, in the order it visited them.
type instanceSearch struct {
	cex      *presburger.Counterexample
	reached  [][]int64
	complete bool
}

// bfs explores the instance of the parameter values params from its
// initial states, breadth first, for a shortest run into a state where
// ts.Bad holds; each state it visits counts against budget.
func bfs(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, params presburger.Model, budget *int) instanceSearch {
	dom := domainBounds(ts.Domain)
	nvars := m.NumState()
	// index maps a state variable to its position, for the reader.
	index := map[presburger.Var]int{}
	for i := range nvars {
		index[m.StateVar(i)] = i
	}
	reader := func(x []int64) func(presburger.Var) int64 {
		return func(v presburger.Var) int64 {
			if i, ok := index[v]; ok {
				return x[i]
			}
			return params[v]
		}
	}
	// The initial states that ts.Init allows: all of them, but for
	// a property's premise ("c -> AG phi").
	starts, all := initialStates(m, params)
	starts = slices.DeleteFunc(starts, func(x []int64) bool {
		return !presburger.Eval(ts.Init, reader(x))
	})
	key := func(x []int64) string {
		var b strings.Builder
		for _, k := range x {
			b.WriteString(strconv.FormatInt(k, 10))
			b.WriteByte(',')
		}
		return b.String()
	}
	type node struct {
		x      []int64
		parent int
		step   int
	}
	var nodes []node
	seen := map[string]bool{}
	for _, x := range starts {
		if s := key(x); !seen[s] {
			seen[s] = true
			nodes = append(nodes, node{x: x, parent: -1, step: -1})
		}
	}
	steps := make([][]presburger.Term, len(m.Transitions))
	for i := range m.Transitions {
		steps[i] = m.StepTerms(&m.Transitions[i])
	}
	complete := starts != nil && all
	for k := 0; k < len(nodes); k++ {
		if *budget--; *budget <= 0 || k%1024 == 0 && ctx.Err() != nil {
			return instanceSearch{}
		}
		cur := nodes[k].x
		val := reader(cur)
		if presburger.Eval(ts.Bad, val) {
			return instanceSearch{cex: runTo(m, ts, params, k, func(j int) ([]int64, int, int) { return nodes[j].x, nodes[j].parent, nodes[j].step })}
		}
		for i := range m.Transitions {
			if !presburger.Eval(m.Transitions[i].Guard, val) || !presburger.Eval(m.Constraint, val) {
				continue
			}
			next := make([]int64, nvars)
			ok := true
			// The search keeps to the values vsym works with: a step
			// that takes a variable beyond gsst.MaxValue is not
			// followed (the search is a heuristic before the prover,
			// which reasons over every integer).
			inDomain := true
			for j, t := range steps[i] {
				x, fits := t.Value(val)
				next[j] = x
				ok = ok && fits && x <= gsst.MaxValue && x >= -gsst.MaxValue
				inDomain = inDomain && dom[m.StateVar(j)].Contains(x)
			}
			if !ok {
				// A step the search does not follow: what it has
				// seen is not all that is reachable.
				complete = false
				continue
			}
			if !inDomain {
				continue // no step: the next state must lie in the domain
			}
			if s := key(next); !seen[s] {
				seen[s] = true
				nodes = append(nodes, node{x: next, parent: k, step: i})
			}
		}
	}
	reached := make([][]int64, len(nodes))
	for k := range nodes {
		reached[k] = nodes[k].x
	}
	return instanceSearch{reached: reached, complete: complete}
}

// initialStates returns the initial states of m's instance at the
// parameter values params (sizes, n and the system's parameters): the
// point of InitialValue when m has one, else the instance's own initial
// configurations (gsst's Initials) read on the model's variables; nil
// when they cannot be had (too many to list, say), which leaves the
// instance to the prover. A shared variable whose initial values have
// no greatest (mist's place that starts with "x >= 1" tokens, as a
// shared integer) starts at its least values up to searchMax, and all
// is then false: runs from those states are runs of the instance, but
// what they reach is not all it reaches.
func initialStates(m *counterabs.ParamModel, params presburger.Model) (states [][]int64, all bool) {
	pv := func(v presburger.Var) int64 { return params[v] }
	if m.SingleInitial() {
		x := make([]int64, m.NumState())
		for i := range x {
			t, _ := m.InitialValue(i)
			k, ok := t.Value(pv)
			if !ok {
				return nil, false
			}
			x[i] = k
		}
		return [][]int64{x}, true
	}
	sys := m.System
	sizes := make([]int, len(sys.Groups))
	for g := range sizes {
		sizes[g] = int(params[m.SizeVar(g)])
	}
	ps := make([]int, len(sys.Params))
	for k := range ps {
		ps[k] = int(params[m.ParamVar(k)])
	}
	inst, err := sys.InstantiateParams(ps, sizes)
	if err != nil {
		return nil, false
	}
	all = inst.FiniteInitial() == nil
	confs, err := inst.InitialsUpTo(searchMax).Initials()
	if err != nil {
		return nil, false
	}
	var out [][]int64
	for _, c := range confs {
		x := make([]int64, m.NumState())
		for i, ctr := range m.Counters {
			if ctr.Group < 0 {
				for g := range c.Counts {
					x[i] += int64(c.Counts[g][ctr.State])
				}
			} else {
				x[i] = int64(c.Counts[ctr.Group][ctr.State])
			}
		}
		for j := range m.Shared {
			x[len(m.Counters)+j] = int64(c.Shared[m.SharedIndex(j)])
		}
		out = append(out, x)
	}
	return out, all
}

// runTo writes the path to node k of a search as a counterexample of ts:
// node(j) gives node j's state, its parent and the transition into it.
func runTo(m *counterabs.ParamModel, ts presburger.TransitionSystem, params presburger.Model, k int, node func(j int) ([]int64, int, int)) *presburger.Counterexample {
	var states [][]int64
	var steps []int
	for j := k; j >= 0; {
		x, parent, step := node(j)
		states = append(states, x)
		if parent >= 0 {
			steps = append(steps, step)
		}
		j = parent
	}
	slices.Reverse(states)
	slices.Reverse(steps)
	cex := &presburger.Counterexample{Params: presburger.Model{}, Steps: steps}
	for _, v := range ts.Params {
		cex.Params[v] = params[v]
	}
	for _, x := range states {
		st := presburger.Model{}
		for i, v := range x {
			st[m.StateVar(i)] = v
		}
		cex.States = append(cex.States, st)
	}
	return cex
}

// oneInstanceStates bounds the exploration of a family of one instance
// (exhaustOne): its reachable states become the invariant, one disjunct
// each, so few enough that the invariant stays a readable certificate
// and its check a small query.
const oneInstanceStates = 500

// exhaustOne decides AG phi on a family of one instance (no parameter,
// every group of a fixed size) whose reachable states are few, by
// exploring them all (bfs): a state violating phi ends in a run,
// replayed like every run (answer); none is a proof whose invariant is
// the set of reachable states (reachableSet), re-checked like every
// invariant. ok is false when the family has more than one instance,
// the model's guards read locals, or the states are too many.
func exhaustOne(ctx context.Context, cfg config, m *counterabs.ParamModel, ts presburger.TransitionSystem, name string, solver presburger.Solver, res *Result) (ok bool, err error) {
	dom := domainBounds(ts.Domain)
	for _, v := range freeChoices(m) {
		if b, ok := dom[v]; !ok || !b.Finite() || b.Lo != b.Hi {
			return false, nil // a parameter, or a group of several sizes
		}
	}
	for i := range m.Transitions {
		if len(m.Transitions[i].Locals) > 0 {
			return false, nil
		}
	}
	insts := smallInstances(m, ts)
	if len(insts) != 1 {
		return false, nil
	}
	budget := oneInstanceStates + 1
	found := bfs(ctx, m, ts, insts[0], &budget)
	switch {
	case found.cex != nil:
		return refuteBy(ctx, cfg, m, ts, ByExploration, "the run found by exploring the one instance", *found.cex, name, solver, res)
	case found.complete:
		return tryProof(ctx, cfg, m, ts, solver, res, ByExploration, reachableSet(m, ts, insts[0], found.reached), false)
	}
	return false, nil
}

// reachableSet is the formula of the states reached, at the parameter
// values params, written to be read: the values of the parameters, the
// sum of each group's counters (n, the number of processes, for total
// counters), the shared variables that every state gives the same
// value, and the disjunction of the states, each by its counters that
// are not zero (with the sums and the counters' domain, the others are
// zero) and the shared variables that vary.
func reachableSet(m *counterabs.ParamModel, ts presburger.TransitionSystem, params presburger.Model, reached [][]int64) presburger.Formula {
	eq := func(t presburger.Term, k int64) presburger.Formula {
		return presburger.Compare(t, presburger.Eq, presburger.ConstTerm(k))
	}
	var fixed []presburger.Formula
	for _, v := range ts.Params {
		fixed = append(fixed, eq(presburger.VarTerm(v), params[v]))
	}
	if len(reached) == 0 {
		return presburger.False
	}
	// The sum of the counters of each group, or of all total counters.
	sums := map[int]presburger.Term{}
	var owners []int
	for i, c := range m.Counters {
		if _, ok := sums[c.Group]; !ok {
			owners = append(owners, c.Group)
		}
		sums[c.Group] = sums[c.Group].Add(presburger.VarTerm(m.StateVar(i)))
	}
	for _, g := range owners {
		size := m.NVar()
		if g >= 0 {
			size = m.SizeVar(g)
		}
		fixed = append(fixed, presburger.Compare(sums[g], presburger.Eq, presburger.VarTerm(size)))
	}
	var varying []int
	for j := range m.Shared {
		i := len(m.Counters) + j
		same := true
		for _, x := range reached[1:] {
			same = same && x[i] == reached[0][i]
		}
		if same {
			fixed = append(fixed, eq(presburger.VarTerm(m.StateVar(i)), reached[0][i]))
		} else {
			varying = append(varying, i)
		}
	}
	states := make([]presburger.Formula, len(reached))
	for k, x := range reached {
		var parts []presburger.Formula
		for i := range m.Counters {
			if x[i] != 0 {
				parts = append(parts, eq(presburger.VarTerm(m.StateVar(i)), x[i]))
			}
		}
		for _, i := range varying {
			parts = append(parts, eq(presburger.VarTerm(m.StateVar(i)), x[i]))
		}
		states[k] = presburger.Conj(parts...)
	}
	return presburger.Conj(append(fixed, presburger.Disj(states...))...)
}
