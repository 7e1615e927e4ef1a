package prove

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// Houdini's filter (houdini) keeps the largest part of its candidates
// that is inductive together, and every candidate in it holds in every
// reachable state of every instance. A candidate that fails in a state
// some run of a small instance reaches is therefore dropped by the
// filter whatever else it keeps: it can be dropped before the filter
// runs, without a query, and the filter keeps the same part. The filter
// then asks fewer rounds of large queries (ByMC's c1cs: about 360
// candidates on a liveness question, of which most fail at once in the
// instances with parameters up to 3).
//
// The states are taken from the small instances that the search of
// search.go explores (smallInstances, initialStates), breadth first,
// then by seeded random walks from the states found at the instances
// the breadth-first walk leaves unexhausted, with every step checked on the transition formula of ts itself
// (presburger.Eval), the variables ts adds to the model's (the monitor
// bit of a liveness question) tried at each of their few values: every
// state sampled is a state of ts reachable from its initial states,
// whatever the model's steps say.

// Budgets of the sample, in states (in steps for the walks): the filter reads each candidate on
// every state until one violates it, so the states cost time in
// proportion to the candidates that hold.
const (
	reachSampleStates         = 2_000
	reachSampleInstanceStates = 500
	// Random walks from the states of the breadth-first walk at each
	// instance it does not exhaust: at most reachSampleWalks walks of
	// at most reachSampleWalkSteps steps there, and at most
	// reachSampleWalkWork steps in all (each step computes the
	// successors of a state, as the breadth-first walk does for each
	// state it takes).
	reachSampleWalks     = 100
	reachSampleWalkSteps = 400
	reachSampleWalkWork  = 2_000
)

// sampleInstanceStates is reachSampleInstanceStates, lowered only in
// the tests that have the walks start early (export_test.go).
var sampleInstanceStates = reachSampleInstanceStates

// sampleChecksSteps is false only in the test that a sampler following
// steps their guards forbid is caught (export_test.go).
var sampleChecksSteps = true

// reachSample holds states of a transition system reachable from its
// initial states, each a valuation of its state variables and
// parameters (known), indexed by presburger.Var.
type reachSample struct {
	states [][]int64
	known  map[presburger.Var]bool
}

// sampleReachable returns up to reachSampleStates states of ts reachable at
// the small instances of m (smallInstances), smallest first, at most
// reachSampleInstanceStates of each; nil when the steps of ts have locals
// (a total-counter model's guards), which the sample does not choose,
// or some variable ts adds to m's has more than a few values.
func sampleReachable(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem) reachSample {
	for i := range ts.Trans {
		if len(ts.Locals(i)) > 0 {
			return reachSample{}
		}
	}
	if len(ts.Trans) != len(m.Transitions) {
		return reachSample{}
	}
	dom := domainBounds(ts.Domain)
	width := presburger.Var(0)
	for _, vs := range [][]presburger.Var{ts.Vars, ts.Next, ts.Params} {
		for _, v := range vs {
			width = max(width, v+1)
		}
	}
	// The variables of ts beyond m's state variables, each with its
	// values (the monitor bit: 0 and 1).
	own := map[presburger.Var]bool{}
	for i := range m.NumState() {
		own[m.StateVar(i)] = true
	}
	type extra struct {
		at, next presburger.Var
		vals     []int64
	}
	var extras []extra
	for k, v := range ts.Vars {
		if own[v] {
			continue
		}
		b, ok := dom[v]
		if !ok || !b.Finite() || b.Hi-b.Lo > 3 {
			return reachSample{}
		}
		e := extra{at: v, next: ts.Next[k]}
		for x := b.Lo; x <= b.Hi; x++ {
			e.vals = append(e.vals, x)
		}
		extras = append(extras, e)
	}
	steps := make([][]presburger.Term, len(m.Transitions))
	checks := make([]presburger.Formula, len(m.Transitions))
	keeps := make([][]bool, len(m.Transitions)) // step term j is x_j itself
	for i := range m.Transitions {
		steps[i] = m.StepTerms(&m.Transitions[i])
		checks[i] = stepCheck(m, ts.Trans[i], steps[i])
		keeps[i] = make([]bool, len(steps[i]))
		for j, t := range steps[i] {
			keeps[i][j] = t.Equal(presburger.VarTerm(m.StateVar(j)))
		}
	}
	inDomain := func(v presburger.Var, x int64) bool {
		b, ok := dom[v]
		return !ok || b.Contains(x)
	}
	// expand calls f with x completed by every choice of values of the
	// extra variables, read at (next ? their next-state variables :
	// themselves).
	var expand func(x []int64, k int, next bool, f func([]int64))
	expand = func(x []int64, k int, next bool, f func([]int64)) {
		if k == len(extras) {
			f(x)
			return
		}
		v := extras[k].at
		if next {
			v = extras[k].next
		}
		for _, val := range extras[k].vals {
			x[v] = val
			expand(x, k+1, next, f)
		}
	}
	// successors calls add with each successor of cur by a step of
	// ts, base holding the instance's parameters.
	successors := func(cur, base []int64, add func([]int64)) {
		val := func(v presburger.Var) int64 { return cur[v] }
		// A step keeps most state variables as they are (x' = x):
		// their values are cur's, in the domain when cur is, which
		// is asked once here rather than at every step.
		curIn := true
		for j := range m.NumState() {
			if curIn = inDomain(m.StateVar(j), cur[m.StateVar(j)]); !curIn {
				break
			}
		}
		for i := range m.Transitions {
			// The model's guard first, which is cheap; the step is
			// then checked on ts.Trans.
			if sampleChecksSteps && !presburger.Eval(m.Transitions[i].Guard, val) {
				continue
			}
			y := slices.Clone(cur)
			ok := true
			for j, t := range steps[i] {
				x := m.StateVar(j)
				if keeps[i][j] && curIn {
					y[m.NextVar(j)] = cur[x]
					continue
				}
				v, fits := t.Value(val)
				ok = ok && fits && inDomain(x, v)
				if !ok {
					break
				}
				y[m.NextVar(j)] = v
			}
			if !ok {
				continue
			}
			expand(y, 0, true, func(y []int64) {
				if sampleChecksSteps && !presburger.Eval(checks[i], func(v presburger.Var) int64 { return y[v] }) {
					return
				}
				z := slices.Clone(base)
				for j := range m.NumState() {
					z[m.StateVar(j)] = y[m.NextVar(j)]
				}
				for _, e := range extras {
					if !inDomain(e.at, y[e.next]) {
						return
					}
					z[e.at] = y[e.next]
				}
				add(z)
			})
		}
	}
	out := reachSample{known: map[presburger.Var]bool{}}
	for _, vs := range [][]presburger.Var{ts.Vars, ts.Params} {
		for _, v := range vs {
			out.known[v] = true
		}
	}
	// The instances the breadth-first walk left unexhausted, for the
	// random walks.
	type instance struct {
		base  []int64
		queue [][]int64
		seen  map[string]bool
	}
	var cut []instance
	for _, params := range smallInstances(m, ts) {
		if len(out.states) >= reachSampleStates || ctx.Err() != nil {
			break
		}
		base := make([]int64, width)
		for v, x := range params {
			if v < width {
				base[v] = x
			}
		}
		seen := map[string]bool{}
		var queue [][]int64
		add := func(x []int64) {
			k := stateKey(x, ts.Vars)
			if !seen[k] {
				seen[k] = true
				queue = append(queue, slices.Clone(x))
			}
		}
		inits, _ := initialStates(m, params)
		for _, init := range inits {
			x := slices.Clone(base)
			for i, val := range init {
				x[m.StateVar(i)] = val
			}
			expand(x, 0, false, func(x []int64) {
				if presburger.Eval(ts.Init, func(v presburger.Var) int64 { return x[v] }) {
					add(x)
				}
			})
		}
		limit := min(sampleInstanceStates, reachSampleStates-len(out.states))
		for k := 0; k < len(queue) && k < limit; k++ {
			out.states = append(out.states, queue[k])
			successors(queue[k], base, add)
		}
		if len(queue) > limit {
			cut = append(cut, instance{base, queue, seen})
		}
	}
	// Random walks at the instances the breadth-first walk did not
	// exhaust, from the states it found, each step to a successor that
	// a seeded generator chooses, so that deep states count too: with
	// ByMC's counters as groups of message tokens at n = 10, the states
	// breadth first are a few steps deep, and most candidates that fail
	// fail only deeper.
	rng := rand.New(rand.NewPCG(1, 2))
	budget := reachSampleWalkWork
	var next [][]int64
	for _, in := range cut {
		for w := 0; w < reachSampleWalks && budget > 0 && ctx.Err() == nil; w++ {
			cur := in.queue[rng.IntN(len(in.queue))]
			for step := 0; step < reachSampleWalkSteps && budget > 0; step++ {
				next = next[:0]
				budget--
				successors(cur, in.base, func(y []int64) { next = append(next, slices.Clone(y)) })
				if len(next) == 0 {
					break
				}
				cur = next[rng.IntN(len(next))]
				if key := stateKey(cur, ts.Vars); !in.seen[key] {
					in.seen[key] = true
					out.states = append(out.states, cur)
				}
			}
		}
	}
	return out
}

// stepCheck returns what a successor y of a state by model transition
// i, computed with its step terms steps (each next-state variable set
// to its term's value), must satisfy besides to be a step of trans
// (ts.Trans[i]): trans without the conjuncts "x' = steps[x]" that hold
// by that computation, the same atoms up to sign. A model transition
// states every state variable's next value so (most of them x' = x),
// and evaluating those again cost the sample most of its time on ByMC's
// c1cs with its counters as groups of tokens (244 state variables, each
// step moving a few); what is left (the guard, the parameters'
// constraint, the monitor's update) is read on every successor, and a
// conjunct that is not literally one of those equations is read too,
// so that the sample takes exactly the steps of trans.
func stepCheck(m *counterabs.ParamModel, trans presburger.Formula, steps []presburger.Term) presburger.Formula {
	next := map[presburger.Var]int{}
	for j := range steps {
		next[m.NextVar(j)] = j
	}
	var rest []presburger.Formula
	for _, c := range presburger.Conjuncts(trans) {
		if a, ok := c.(presburger.Cmp); ok && a.Op == presburger.Eq {
			if j, ok := stepEquationOf(a.T, next); ok {
				want, ok := presburger.VarTerm(m.NextVar(j)).SubExact(steps[j])
				neg, okNeg := want.ScaleExact(-1)
				if ok && (a.T.Equal(want) || okNeg && a.T.Equal(neg)) {
					continue
				}
			}
		}
		rest = append(rest, c)
	}
	return presburger.Conj(rest...)
}

// stepEquationOf returns the index of the one next-state variable
// (next) that term t reads, if it reads exactly one.
func stepEquationOf(t presburger.Term, next map[presburger.Var]int) (int, bool) {
	found, at := false, 0
	for _, mo := range t.Monos {
		if j, ok := next[mo.Var]; ok {
			if found {
				return 0, false
			}
			found, at = true, j
		}
	}
	return at, found
}

// stateKey writes the values of vars in x, to tell states apart.
func stateKey(x []int64, vars []presburger.Var) string {
	b := make([]byte, 0, 4*len(vars))
	for _, v := range vars {
		b = strconv.AppendInt(b, x[v], 10)
		b = append(b, ',')
	}
	return string(b)
}

// failing reports which of lemmas some state of the sample violates; a
// lemma that reads a variable the states do not value is not read.
func (s reachSample) failing(lemmas []Lemma) []bool {
	out := make([]bool, len(lemmas))
	// One function reads every state (x set before each Eval), where a
	// closure made for each state and lemma cost an allocation each.
	var x []int64
	val := func(v presburger.Var) int64 { return x[v] }
	for i, l := range lemmas {
		if slices.ContainsFunc(presburger.FreeVars(l.Formula), func(v presburger.Var) bool { return !s.known[v] }) {
			continue
		}
		for _, x = range s.states {
			if !presburger.Eval(l.Formula, val) {
				out[i] = true
				break
			}
		}
	}
	return out
}
