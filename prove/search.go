package prove

import (
	"cmp"
	"context"
	"encoding/binary"
	"iter"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/checked"
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
	if readsLocals(m) {
		return nil
	}
	total := searchStates
	if cex, stopped := exploreSmall(ctx, m, ts, &total, nil); cex != nil || stopped {
		return cex
	}
	return searchByEquation(ctx, solver, m, ts, searchMax, &total)
}

// readsLocals says whether some guard of m reads locals (the search
// reads none).
func readsLocals(m *counterabs.ParamModel) bool {
	for i := range m.Transitions {
		if len(m.Transitions[i].Locals) > 0 {
			return true
		}
	}
	return false
}

// exploreSmall explores the instances of searchInstances in their
// order, within *total states, and returns a shortest run into a bad
// state in the first instance that has one; stopped says that the
// budget or the context ended first. done, when not nil, lists the
// instances explored to the end before (instanceKey), which it skips,
// and gets those it explores to the end.
func exploreSmall(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, total *int, done map[string]bool) (cex *presburger.Counterexample, stopped bool) {
	for params := range searchInstances(m, ts) {
		if ctx.Err() != nil || *total <= 0 {
			return nil, true
		}
		key := ""
		if done != nil {
			if key = instanceKey(params); done[key] {
				continue
			}
		}
		allowed := min(instanceStates, *total)
		left := allowed
		found := exploreInstance(ctx, m, ts, params, &left)
		// An instance costs one state at least, so that instances with
		// no initial state (a premise false there) cannot go on for
		// ever: a few initial ranges give millions of choices.
		*total -= max(1, allowed-left)
		if found.cex != nil {
			return found.cex, false
		}
		if done != nil && found.complete {
			done[key] = true
		}
	}
	return nil, false
}

// instanceKey is the instance of the values params as a map key.
func instanceKey(params presburger.Model) string {
	vars := slices.Sorted(maps.Keys(params))
	var b strings.Builder
	for _, v := range vars {
		b.WriteString(strconv.Itoa(int(v)))
		b.WriteByte('=')
		b.WriteString(strconv.FormatInt(params[v], 10))
		b.WriteByte(',')
	}
	return b.String()
}

// instanceProbe is the small-instance search in probes of a given
// number of states, each skipping the instances that the earlier ones
// explored to the end without a bad state (coverFirst runs one between
// the rounds of the backward search).
type instanceProbe struct {
	m    *counterabs.ParamModel
	ts   presburger.TransitionSystem
	done map[string]bool
}

// newInstanceProbe returns the probe of m's small instances, nil when
// the search does not read m (a guard with locals).
func newInstanceProbe(m *counterabs.ParamModel, ts presburger.TransitionSystem) *instanceProbe {
	if readsLocals(m) {
		return nil
	}
	return &instanceProbe{m: m, ts: ts, done: map[string]bool{}}
}

// within explores the small instances within states states, and
// returns a shortest run into a bad state in the first instance that
// has one, or nil.
func (p *instanceProbe) within(ctx context.Context, states int) *presburger.Counterexample {
	cex, _ := exploreSmall(ctx, p.m, p.ts, &states, p.done)
	return cex
}

// searchInstances returns the instances that searchSmall explores: each
// of smallInstances with each choice of the initial values of the
// shared variables that start in a range (rangedStarts), under the
// state variable's key, from the least value up to searchMax (the
// least alone when it is beyond), within the rest of the range and the
// domain (startRange). A place of a Petri net that starts with any
// number of tokens is then a choice as a parameter is: explored from
// one value at a time, where all of them at once took the budget of
// the instance before its larger values were tried (mist's manufacture
// reaches its target from 9 tokens only, which searchByEquation
// proposes). The order is smallInstances' own, over every choice: by
// the sum of the choices, then lexicographically (parameters and sizes
// first). The choices are listed as they come, not all at once: with
// many ranges there are millions of them, of which the budget explores
// few.
func searchInstances(m *counterabs.ParamModel, ts presburger.TransitionSystem) iter.Seq[presburger.Model] {
	base := smallInstances(m, ts)
	ranged := rangedStarts(m)
	if len(ranged) == 0 {
		return slices.Values(base)
	}
	free := freeChoices(m)
	slices.SortStableFunc(base, func(a, b presburger.Model) int {
		for _, v := range free {
			if d := cmp.Compare(a[v], b[v]); d != 0 {
				return d
			}
		}
		return 0
	})
	dom := domainBounds(ts.Domain)
	ranges := make([]presburger.Formula, len(ranged))
	for k, i := range ranged {
		ranges[k] = startRange(m, ts, i)
	}
	// An option is an instance of base with the values its ranged
	// variables may start at; the sums of its choices lie in lo..hi.
	type option struct {
		p      presburger.Model
		sum    int64
		values [][]int64
		lo, hi int64
	}
	var opts []option
	tmin, tmax := int64(math.MaxInt64), int64(math.MinInt64)
	for _, p := range base {
		o := option{p: p, values: make([][]int64, len(ranged))}
		for _, v := range free {
			o.sum += p[v]
		}
		o.lo, o.hi = o.sum, o.sum
		val := func(v presburger.Var) int64 { return p[v] }
		for k, i := range ranged {
			least, _ := m.InitialValue(i)
			lo, ok := least.Value(val)
			if !ok {
				break
			}
			x := m.StateVar(i)
			// At most searchMax+1 values, from the least.
			for c := lo; c <= max(lo, min(searchMax, lo+searchMax)); c++ {
				at := func(v presburger.Var) int64 {
					if v == x {
						return c
					}
					return p[v]
				}
				if b, ok := dom[x]; (!ok || b.Contains(c)) && presburger.Eval(ranges[k], at) {
					o.values[k] = append(o.values[k], c)
				}
			}
			if len(o.values[k]) == 0 {
				break
			}
			o.lo += o.values[k][0]
			o.hi += o.values[k][len(o.values[k])-1]
		}
		if slices.ContainsFunc(o.values, func(vs []int64) bool { return len(vs) == 0 }) {
			continue
		}
		opts = append(opts, o)
		tmin, tmax = min(tmin, o.lo), max(tmax, o.hi)
	}
	return func(yield func(presburger.Model) bool) {
		for t := tmin; t <= tmax; t++ {
			for _, o := range opts {
				if t < o.lo || t > o.hi {
					continue
				}
				if !sumsTo(o.values, t-o.sum, func(chosen []int64) bool {
					p := maps.Clone(o.p)
					for k, i := range ranged {
						p[m.StateVar(i)] = chosen[k]
					}
					return yield(p)
				}) {
					return
				}
			}
		}
	}
}

// rangedStarts returns the state variables of m (see NumState) that
// start at any value of a range: the shared variables with a range of
// initial values that InitialValue does not fix.
func rangedStarts(m *counterabs.ParamModel) []int {
	var out []int
	for j := range m.Shared {
		i := len(m.Counters) + j
		if _, fixed := m.InitialValue(i); !fixed && m.Shared[j].InitRange {
			out = append(out, i)
		}
	}
	return out
}

// startRange returns what ts.Init says of the initial value of state
// variable i alone, beside the parameters: the conjuncts over it and
// ts.Params only (its range of initial values, a premise's bound on
// it).
func startRange(m *counterabs.ParamModel, ts presburger.TransitionSystem, i int) presburger.Formula {
	x := m.StateVar(i)
	params := map[presburger.Var]bool{x: true}
	for _, v := range ts.Params {
		params[v] = true
	}
	var out []presburger.Formula
	for _, c := range presburger.Conjuncts(ts.Init) {
		vars := presburger.FreeVars(c)
		if slices.Contains(vars, x) && !slices.ContainsFunc(vars, func(v presburger.Var) bool { return !params[v] }) {
			out = append(out, c)
		}
	}
	return presburger.Conj(out...)
}

// sumsTo calls yield with each choice of one value from every list of
// values (each non-empty, least first) whose values add up to total,
// in lexicographic order, in a slice it reuses; false when yield asked
// to stop.
func sumsTo(values [][]int64, total int64, yield func(chosen []int64) bool) bool {
	// least[k] and most[k]: the least and the greatest sum of the values
	// from the k-th list on.
	least := make([]int64, len(values)+1)
	most := make([]int64, len(values)+1)
	for k := len(values) - 1; k >= 0; k-- {
		vs := values[k]
		least[k], most[k] = least[k+1]+vs[0], most[k+1]+vs[len(vs)-1]
	}
	chosen := make([]int64, len(values))
	// choose fills chosen from k on with values adding up to left.
	var choose func(k int, left int64) bool
	choose = func(k int, left int64) bool {
		if k == len(values) {
			return yield(chosen)
		}
		for _, c := range values[k] {
			rest := left - c
			if rest < least[k+1] {
				break
			}
			if rest > most[k+1] {
				continue
			}
			chosen[k] = c
			if !choose(k+1, rest) {
				return false
			}
		}
		return true
	}
	return choose(0, total)
}

// smallInstances returns the values of ts.Params (sizes, n, the system's
// parameters) of the instances in the search box that satisfy the
// domain and the parameter part of Init, ordered by the sum of the
// system's parameters and sizes, then lexicographically: the first
// maxSmallInstances of them, the choices listed in that order as they
// come (kanban with each of its 16 places starting at a parameter of
// its own has 6^16 choices in the box, which took minutes to list, and
// no search explores more than searchStates instances).
//
// The box holds each choice from 0 up to searchMax. When it holds no
// instance, it grows to 2, 4 and 8 times that while it has at most
// maxGrownChoices choices to list, and the least instances of the first
// box that has some are returned. A premise on the parameters is part
// of Init (premiseScope for a liveness property, the question's initial
// states for p -> AG phi), and one that needs n > 5*t with t >= 1
// (ByMC's bosco, "f = 0 & n > 5*t | n > 7*t") leaves no instance below
// n = 6: the searches for a failing run and the sample of reachable
// states start there (n = 6, t = 1, f = 0). The growth is bounded
// because a family with no instance at all (a premise the assumption
// contradicts) is asked several times for each property.
func smallInstances(m *counterabs.ParamModel, ts presburger.TransitionSystem) []presburger.Model {
	insts := instancesUpTo(m, ts, searchMax)
	choices := len(freeChoices(m))
	for hi := int64(2 * searchMax); len(insts) == 0 && hi <= maxGrownValue && boxChoices(hi, choices) <= maxGrownChoices; hi *= 2 {
		insts = instancesUpTo(m, ts, hi)
	}
	return insts
}

// The bounds of smallInstances' grown boxes: the greatest value of a
// choice, and the choices a box may have.
const (
	maxGrownValue   = 8 * searchMax
	maxGrownChoices = 100_000
)

// boxChoices returns (hi+1)^k, the choices of k values from 0 to hi, or
// more than maxGrownChoices when it is larger.
func boxChoices(hi int64, k int) int64 {
	n := int64(1)
	for range k {
		if n *= hi + 1; n > maxGrownChoices {
			return maxGrownChoices + 1
		}
	}
	return n
}

// instancesUpTo is smallInstances in the box of each choice from 0 up
// to hi, never grown.
func instancesUpTo(m *counterabs.ParamModel, ts presburger.TransitionSystem, hi int64) []presburger.Model {
	dom := domainBounds(ts.Domain)
	constraint := paramPart(ts)
	free := freeChoices(m)
	idle := idleParams(m, ts)
	// The values of each choice, least first; an idle parameter's least
	// alone.
	values := make([][]int64, len(free))
	for i, v := range free {
		b := dom[v]
		for c := int64(0); c <= hi; c++ {
			if b.Contains(c) {
				values[i] = append(values[i], c)
			}
		}
		if fixedBeyond(b, hi) {
			values[i] = append(values[i], b.Lo)
		}
		if len(values[i]) == 0 {
			return nil
		}
		if own, ok := idle[v]; ok {
			if k := slices.IndexFunc(values[i], func(c int64) bool {
				return presburger.Eval(own, func(presburger.Var) int64 { return c })
			}); k >= 0 {
				values[i] = values[i][k : k+1]
			}
		}
	}
	var least, most int64 // the least and the greatest sum of the choices
	for _, vs := range values {
		least, most = least+vs[0], most+vs[len(vs)-1]
	}
	var out []presburger.Model
	tried := 0
	for t := least; t <= most; t++ {
		// Until the lists are full.
		if !sumsTo(values, t, func(vals []int64) bool {
			tried++
			if p, ok := instanceAt(m, ts, dom, constraint, free, vals); ok {
				out = append(out, p)
			}
			return len(out) < maxSmallInstances && tried < maxSmallChoices
		}) {
			break
		}
	}
	return out
}

// idleParams returns the parameters of m that nothing of ts reads but
// conditions on themselves alone (a parameter a translation declares
// and leaves unused, with "unused >= 1" in the assumption), each with
// the conjunction of those conditions: no step, no bad state, no group
// size, and no conjunct of ts.Init that reads another variable reads
// it. Two instances that differ in such a parameter only run alike, so
// the small instances take its least value that the conditions allow,
// not each value in turn: mist's manufacture with a reservoir and such
// a parameter explored each instance four times over (0.36 s, 0.8 s
// with it); the runs and samples they give are the same.
func idleParams(m *counterabs.ParamModel, ts presburger.TransitionSystem) map[presburger.Var]presburger.Formula {
	sys := m.System
	read := map[presburger.Var]bool{}
	for _, v := range presburger.FreeVars(ts.Bad) {
		read[v] = true
	}
	for g := range sys.Groups {
		if grp := &sys.Groups[g]; grp.OverParams() {
			for _, mono := range grp.SizeTerm.Monos {
				if k, ok := sys.ParamOf(mono.Var); ok {
					read[m.ParamVar(k)] = true
				}
			}
		}
	}
	own := map[presburger.Var][]presburger.Formula{}
	var walk func(f presburger.Formula)
	walk = func(f presburger.Formula) {
		if a, ok := f.(presburger.And); ok {
			for _, g := range a {
				walk(g)
			}
			return
		}
		vs := presburger.FreeVars(f)
		if len(vs) == 1 {
			own[vs[0]] = append(own[vs[0]], f)
			return
		}
		for _, v := range vs {
			read[v] = true
		}
	}
	walk(ts.Init)
	// The model conjoins the assumption to every step (a step is taken
	// only in an instance): a conjunct of a step that is one of the
	// parameter's own conditions is that, not a guard.
	for _, f := range ts.Trans {
		for _, c := range presburger.Conjuncts(f) {
			vs := presburger.FreeVars(c)
			if len(vs) == 1 && slices.ContainsFunc(own[vs[0]], func(o presburger.Formula) bool { return reflect.DeepEqual(o, c) }) {
				continue
			}
			for _, v := range vs {
				read[v] = true
			}
		}
	}
	out := map[presburger.Var]presburger.Formula{}
	for k := range sys.Params {
		if v := m.ParamVar(k); !read[v] {
			out[v] = presburger.Conj(own[v]...)
		}
	}
	return out
}

// maxSmallInstances bounds the instances smallInstances lists: each
// costs the search one state of its budget at least (exploreSmall), so
// none beyond would be explored; maxSmallChoices bounds the choices it
// tries (an assumption may leave few of them instances).
const (
	maxSmallInstances = searchStates
	maxSmallChoices   = 4 * searchStates
)

// fixedBeyond says whether b allows one value only, beyond hi (a group
// of a fixed size such as 1,000): smallInstances explores it, which has
// no smaller instance to explore instead.
func fixedBeyond(b presburger.Bound, hi int64) bool {
	return b.Finite() && b.Lo == b.Hi && b.Lo > hi
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
	// pruned says that a state was left out for having more processes
	// away than bfsWithin's away allows.
	pruned bool
}

// bfs explores the instance of the parameter values params from its
// initial states, breadth first, for a shortest run into a state where
// ts.Bad holds; each state it visits counts against budget.
func bfs(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, params presburger.Model, budget *int) instanceSearch {
	return bfsWithin(ctx, m, ts, params, budget, -1, -1)
}

// exploreInstance is bfs on the instance of params, which on an
// instance of more than searchMax processes (a group of a fixed size
// such as 1,000) first explores the states where at most 1, then 2, ...
// processes are away from their initial counters (bfsWithin's away),
// until a layer has a bad state or leaves no state out. Those states
// are the instance's own, reached by its own steps, so a run found is a
// run of the instance; and a violation that a few processes bring
// about while the others stay where they started (Cubicle's germanish6,
// refuted at 3 processes, as an instance of 10 or 1,000) lies in a
// layer of the size of a small instance, where the whole instance has
// more states than any budget.
func exploreInstance(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, params presburger.Model, budget *int) instanceSearch {
	n := params[m.NVar()]
	if n <= searchMax {
		return bfs(ctx, m, ts, params, budget)
	}
	for away := 1; ; away++ {
		found := bfsWithin(ctx, m, ts, params, budget, -1, away)
		if found.cex != nil || !found.pruned || *budget <= 0 || ctx.Err() != nil {
			return found
		}
	}
}

// bfsWithin is bfs for runs of at most depth steps (any length when
// depth is negative) through states where at most away processes are
// not in the counter they start in (any number when away is negative;
// measured from the one initial state, and not bounded when there are
// several): complete then says that every state reachable within depth
// steps was visited, pruned that a state was left out for away.
func bfsWithin(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, params presburger.Model, budget *int, depth, away int) instanceSearch {
	dom := domainBounds(ts.Domain)
	nvars := m.NumState()
	// index[v] is state variable v's position, for the reader, -1 for
	// another variable (a slice: the reader is the search's inner loop,
	// where a map's lookups cost a fifth of the time).
	var index []int
	for i := range nvars {
		v := int(m.StateVar(i))
		for len(index) <= v {
			index = append(index, -1)
		}
		index[v] = i
	}
	reader := func(x []int64) func(presburger.Var) int64 {
		return func(v presburger.Var) int64 {
			if int(v) < len(index) && index[v] >= 0 {
				return x[index[v]]
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
	// A state's key: eight bytes a value, so that no two states share
	// one (decimal digits cost a third of the search more).
	var keyBuf []byte
	key := func(x []int64) string {
		keyBuf = keyBuf[:0]
		for _, k := range x {
			keyBuf = binary.LittleEndian.AppendUint64(keyBuf, uint64(k))
		}
		return string(keyBuf)
	}
	type node struct {
		x      []int64
		parent int
		step   int
		depth  int
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
	compiled := make([][]stateTerm, len(m.Transitions))
	for i := range m.Transitions {
		steps[i] = m.StepTerms(&m.Transitions[i])
		compiled[i] = make([]stateTerm, len(steps[i]))
		for j, t := range steps[i] {
			compiled[i][j] = compileStateTerm(t, index, params)
		}
	}
	domAt := make([]presburger.Bound, nvars) // each position's domain
	for j := range domAt {
		domAt[j] = dom[m.StateVar(j)]
	}
	next := make([]int64, nvars) // a successor, kept when new
	complete := starts != nil && all
	// The processes away from their initial counters in x, when away
	// bounds them.
	var start []int64
	if away >= 0 && len(starts) == 1 {
		start = starts[0]
	}
	pruned := false
	awayIn := func(x []int64) int64 {
		d := int64(0)
		for i := range m.Counters {
			d += max(0, start[i]-x[i])
		}
		return d
	}
	for k := 0; k < len(nodes); k++ {
		if *budget--; *budget <= 0 || k%1024 == 0 && ctx.Err() != nil {
			return instanceSearch{}
		}
		cur := nodes[k].x
		val := reader(cur)
		if presburger.Eval(ts.Bad, val) {
			return instanceSearch{cex: runTo(m, ts, params, k, func(j int) ([]int64, int, int) { return nodes[j].x, nodes[j].parent, nodes[j].step })}
		}
		if depth >= 0 && nodes[k].depth >= depth {
			continue // its successors are deeper than depth
		}
		if !presburger.Eval(m.Constraint, val) {
			continue // no step leaves a state outside the constraint
		}
		for i := range m.Transitions {
			if !presburger.Eval(m.Transitions[i].Guard, val) {
				continue
			}
			ok := true
			// The search keeps to the values vsym works with: a step
			// that takes a variable beyond gsst.MaxValue is not
			// followed (the search is a heuristic before the prover,
			// which reasons over every integer).
			inDomain := true
			for j, t := range steps[i] {
				x, fits := compiled[i][j].value(cur)
				if !fits {
					x, fits = t.Value(val) // exactly, where a partial sum leaves int64
				}
				next[j] = x
				ok = ok && fits && x <= gsst.MaxValue && x >= -gsst.MaxValue
				inDomain = inDomain && domAt[j].Contains(x)
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
			if start != nil && awayIn(next) > int64(away) {
				pruned = true
				continue
			}
			if s := key(next); !seen[s] {
				seen[s] = true
				nodes = append(nodes, node{x: slices.Clone(next), parent: k, step: i, depth: nodes[k].depth + 1})
			}
		}
	}
	reached := make([][]int64, len(nodes))
	for k := range nodes {
		reached[k] = nodes[k].x
	}
	return instanceSearch{reached: reached, complete: complete && !pruned, pruned: pruned}
}

// stateTerm is a term of a step read at a state of bfsWithin's
// positions: k plus coef[i] times the value at pos[i], the parameters'
// part folded into k (ok false when that fold left int64). The search
// reads each step's terms at every state it visits, and Term.Value
// through a reader function cost half its time.
type stateTerm struct {
	k    int64
	pos  []int
	coef []int64
	ok   bool
}

// compileStateTerm reads t over the positions index gives each state
// variable (-1 for another variable, whose value params gives).
func compileStateTerm(t presburger.Term, index []int, params presburger.Model) stateTerm {
	st := stateTerm{k: t.Const, ok: true}
	for _, m := range t.Monos {
		if int(m.Var) < len(index) && index[m.Var] >= 0 {
			st.pos = append(st.pos, index[m.Var])
			st.coef = append(st.coef, m.Coef)
			continue
		}
		y, mulOK := checked.Mul(m.Coef, params[m.Var])
		k, addOK := checked.Add(st.k, y)
		st.k, st.ok = k, st.ok && mulOK && addOK
	}
	return st
}

// value is st's value at state x; ok is false when it or a partial sum
// does not fit in int64 (Term.Value then says which).
func (st *stateTerm) value(x []int64) (int64, bool) {
	if !st.ok {
		return 0, false
	}
	v := st.k
	for i, p := range st.pos {
		y, ok := checked.Mul(st.coef[i], x[p])
		if !ok {
			return 0, false
		}
		if v, ok = checked.Add(v, y); !ok {
			return 0, false
		}
	}
	return v, true
}

// initialStates returns the initial states of m's instance at the
// parameter values params (sizes, n and the system's parameters), in
// which a shared variable that starts in a range (rangedStarts) may
// have a chosen initial value under its state variable's key
// (searchInstances): the point of InitialValue and the chosen values
// when they give every state variable's, else the instance's own
// initial configurations (gsst's Initials) read on the model's
// variables, those with the chosen values; nil when they cannot be had
// (too many to list, say), which leaves the instance to the prover. A
// shared variable whose initial values have no greatest (mist's place
// that starts with "x >= 1" tokens, as a shared integer) and no chosen
// value starts at its least values up to searchMax, and all is then
// false: runs from those states are runs of the instance, but what
// they reach is not all it reaches.
func initialStates(m *counterabs.ParamModel, params presburger.Model) (states [][]int64, all bool) {
	pv := func(v presburger.Var) int64 { return params[v] }
	x := make([]int64, m.NumState())
	point := true
	for i := range x {
		t, fixed := m.InitialValue(i)
		k, chosen := params[m.StateVar(i)]
		switch {
		case !fixed && chosen && i >= len(m.Counters):
			x[i] = k
		case !fixed:
			point = false
		default:
			var ok bool
			if x[i], ok = t.Value(pv); !ok {
				return nil, false
			}
		}
	}
	if point {
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
	// The chosen values, which the listing must reach (searchByEquation
	// may choose them beyond searchMax).
	hi := int64(searchMax)
	all = true
	for j := range m.Shared {
		k, chosen := params[m.SharedVar(j)]
		if chosen {
			hi = max(hi, k)
		}
		all = all && (chosen || !inst.Shared[m.SharedIndex(j)].InitNoHi)
	}
	confs, err := inst.InitialsUpTo(int(min(hi, gsst.MaxValue))).Initials()
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
		keep := true
		for j := range m.Shared {
			x[len(m.Counters)+j] = int64(c.Shared[m.SharedIndex(j)])
			if k, chosen := params[m.SharedVar(j)]; chosen && x[len(m.Counters)+j] != k {
				keep = false
			}
		}
		if keep {
			out = append(out, x)
		}
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
		if fixedBeyond(dom[v], searchMax) {
			// Hundreds of reachable states of a large instance make an
			// invariant whose check costs seconds (ByMC's bcrb at
			// n = 1,000: 3 s), where the lemmas prove it at once.
			return false, nil
		}
	}
	for i := range m.Transitions {
		if len(m.Transitions[i].Locals) > 0 {
			return false, nil
		}
	}
	inst, ok := oneInstance(m, ts)
	if !ok {
		return false, nil
	}
	budget := oneInstanceStates + 1
	found := bfs(ctx, m, ts, inst, &budget)
	switch {
	case found.cex != nil:
		return refuteBy(ctx, cfg, m, ts, ByExploration, "the run found by exploring the one instance", *found.cex, name, solver, res)
	case found.complete:
		return tryProof(ctx, cfg, m, ts, solver, res, ByExploration, reachableSet(m, ts, inst, found.reached), false)
	}
	return false, nil
}

// oneInstance returns the values of ts.Params at the one instance of
// m's family, when it has one only: no parameter with several values,
// every group of a fixed size.
func oneInstance(m *counterabs.ParamModel, ts presburger.TransitionSystem) (presburger.Model, bool) {
	dom := domainBounds(ts.Domain)
	for _, v := range freeChoices(m) {
		if b, ok := dom[v]; !ok || !b.Finite() || b.Lo != b.Hi {
			return nil, false // a parameter, or a group of several sizes
		}
	}
	insts := smallInstances(m, ts)
	if len(insts) != 1 {
		return nil, false
	}
	return insts[0], true
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
