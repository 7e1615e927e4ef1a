package prove

import (
	"context"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// A bad state may need parameter values beyond the box of the small
// instances (search.go): mist's manufacture reaches its target marking
// only with 9 tokens or more in its unconstrained place, since each of
// the 9 firings that take one has to find it there. The state equation
// (equation.go) says where to look: a state reachable at some
// parameter values is x0 + C.s there for some s >= 0, so an instance
// where no bad state solves it has no run to the bad states. The
// search asks the solver for the least parameter values (by the sum of
// the free choices) at which some bad state solves the state equation,
// explores that instance, and, when it has no run to the bad states
// within its budget, excludes it and asks again, up to equationInstances
// instances. Only where to look comes from the solver: a run found goes
// through the same replays as any other, and no instance is claimed
// safe because the equation has no solution there. A shared variable
// that starts in a range is a choice of the instance too (as mist's
// X1_init, a parameter, is one: manufacture.yaml's X1 starts anywhere
// in "0.."): its initial value is a variable of the equation, in its
// range, and the least sum counts it.

// equationInstances bounds the instances the state equation proposes.
const equationInstances = 4

// reachEquation is the state equation of a model with one initial
// state per instance and choice of the initial values that start in a
// range, asked whether a bad state solves it: its variables are the
// state (the final one), the parameters, the initial value of each
// shared variable that starts in a range (rangedStarts) and the number
// of times each column is taken; choices are the choices that make an
// instance of the search (freeChoices, then the ranged state
// variables: searchInstances), free the equation's variables for them
// (the parameters and sizes, then the initial values), size the sum of
// free.
type reachEquation struct {
	bounds  []presburger.Bound
	f       presburger.Formula
	choices []presburger.Var
	free    []presburger.Var
	size    presburger.Term
}

// newReachEquation returns the state equation of m with the bad states
// of ts; ok is false when a step's effect reads a local
// (effectColumns). The initial state is x0 with ts.Init(x0): a state
// whose initial value is fixed has its term there, every other one (a
// shared variable that starts in a range, a counter of a group spread
// over several states, as mist's nets written with a token per process
// and a pool of unused ones) a variable of its own, of which only the
// ranged variables are choices of an instance: the instance's search
// starts from every spread at once.
func newReachEquation(m *counterabs.ParamModel, ts presburger.TransitionSystem) (*reachEquation, bool) {
	dom := domainBounds(ts.Domain)
	k := m.NumState()
	index := map[presburger.Var]int{}
	for i := range k {
		index[m.StateVar(i)] = i
	}
	params := map[presburger.Var]bool{}
	for _, v := range ts.Params {
		params[v] = true
	}
	columns, ok := effectColumns(m, dom, index, params)
	if !ok {
		return nil, false
	}
	// x = x0 + sum_j s_j col_j, with x in the domains, x0 satisfying
	// Init at the parameters p, and x bad. The counts s_j come after
	// every variable of ts, then the initial values y_i of the states
	// that start anywhere but at a term of p, each in its domain:
	// x0_i = y_i.
	next := presburger.Var(m.NumVars() + k)
	q := &reachEquation{bounds: slices.Clone(ts.Domain), free: freeChoices(m)}
	q.choices = slices.Clone(q.free)
	effect := make([]presburger.Term, k)
	for _, col := range columns {
		s := next
		next++
		if col.signed {
			q.bounds = append(q.bounds, presburger.AnyInt(s))
		} else {
			q.bounds = append(q.bounds, presburger.AtLeast(s, 0))
		}
		for i, c := range col.coef {
			if c != 0 {
				effect[i] = effect[i].Add(presburger.VarTerm(s).Scale(c))
			}
		}
	}
	init := initTerms(m)
	ranged := map[int]bool{}
	for _, i := range rangedStarts(m) {
		ranged[i] = true
	}
	for i := range k {
		if _, fixed := m.InitialValue(i); fixed {
			continue
		}
		x, y := m.StateVar(i), next
		next++
		b, ok := dom[x]
		if !ok {
			b = presburger.AnyInt(x)
		}
		b.Var = y
		q.bounds = append(q.bounds, b)
		init[i] = presburger.VarTerm(y)
		if ranged[i] {
			q.choices = append(q.choices, x)
			q.free = append(q.free, y)
		}
	}
	fs := []presburger.Formula{ts.Bad, presburger.Subst(ts.Init, func(v presburger.Var) presburger.Term {
		if i, ok := index[v]; ok {
			return init[i]
		}
		return presburger.VarTerm(v)
	})}
	for i := range k {
		fs = append(fs, presburger.Compare(presburger.VarTerm(m.StateVar(i)), presburger.Eq, init[i].Add(effect[i])))
	}
	q.f = presburger.Conj(fs...)
	for _, v := range q.free {
		q.size = q.size.Add(presburger.VarTerm(v))
	}
	return q, true
}

// admits reports whether some bad state solves the equation at the
// values vals of the first of q.free (the parameters and sizes: the
// initial values after them, if not given, range over all theirs); ok
// is false when the solver cannot tell.
func (q *reachEquation) admits(ctx context.Context, solver presburger.Solver, vals []int64) (admits, ok bool) {
	fs := []presburger.Formula{q.f}
	for i, v := range q.free[:len(vals)] {
		fs = append(fs, presburger.Compare(presburger.VarTerm(v), presburger.Eq, presburger.ConstTerm(vals[i])))
	}
	a, err := solver.Solve(ctx, presburger.Problem{Bounds: q.bounds, F: presburger.Conj(fs...)})
	if err != nil || a.Result == presburger.Unknown {
		return false, false
	}
	return a.Result == presburger.Sat, true
}

// searchByEquation returns a shortest run into a bad state in one of the
// instances that the state equation proposes, of which it explores
// those with some choice beyond box (searchSmall explored the others),
// or nil. Each instance may visit instanceStates states, all of them
// together budget, which it decreases by what they visit.
func searchByEquation(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem, box int64, budget *int) *presburger.Counterexample {
	q, ok := newReachEquation(m, ts)
	if !ok || len(q.free) == 0 {
		return nil
	}
	dom := domainBounds(ts.Domain)
	constraint := paramPart(ts)
	var tried []presburger.Formula
	for range equationInstances {
		if ctx.Err() != nil || *budget <= 0 {
			return nil
		}
		vals, ok := leastSolution(ctx, solver, q.bounds, presburger.Conj(append([]presburger.Formula{q.f}, tried...)...), q.size, q.free)
		if !ok {
			return nil
		}
		// Not this instance again.
		var other []presburger.Formula
		for i, v := range q.free {
			other = append(other, presburger.Compare(presburger.VarTerm(v), presburger.Ne, presburger.ConstTerm(vals[i])))
		}
		tried = append(tried, presburger.Disj(other...))
		beyond := false
		for i, v := range q.choices {
			beyond = beyond || vals[i] > box && !fixedBeyond(dom[v], box)
		}
		if !beyond {
			continue // explored already
		}
		p, ok := instanceAt(m, ts, dom, constraint, q.choices, vals)
		if !ok {
			continue
		}
		allowed := min(instanceStates, *budget)
		left := allowed
		found := exploreInstance(ctx, m, ts, p, &left)
		*budget -= allowed - left
		if found.cex != nil {
			return found.cex
		}
	}
	return nil
}

// leastSolution returns the values of free in a solution of f within
// bounds where size (their sum) is least, by bisection on a bound on
// size; ok is false when f has no solution or the solver cannot tell.
func leastSolution(ctx context.Context, solver presburger.Solver, bounds []presburger.Bound, f presburger.Formula, size presburger.Term, free []presburger.Var) ([]int64, bool) {
	solve := func(limit int64) presburger.Model {
		g := f
		if limit >= 0 {
			g = presburger.Conj(f, presburger.Compare(size, presburger.Le, presburger.ConstTerm(limit)))
		}
		a, err := solver.Solve(ctx, presburger.Problem{Bounds: bounds, F: g})
		if err != nil || a.Result != presburger.Sat {
			return nil
		}
		return a.Model
	}
	best := solve(-1)
	if best == nil {
		return nil, false
	}
	value := func(mo presburger.Model) int64 {
		s, _ := size.Value(func(v presburger.Var) int64 { return mo[v] })
		return s
	}
	// The least size is in lo..hi, and best has size hi.
	lo, hi := int64(0), value(best)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if mo := solve(mid); mo != nil {
			best, hi = mo, value(mo)
		} else {
			if ctx.Err() != nil {
				return nil, false
			}
			lo = mid + 1
		}
	}
	vals := make([]int64, len(free))
	for i, v := range free {
		vals[i] = best[v]
	}
	return vals, true
}
