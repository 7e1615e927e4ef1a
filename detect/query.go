package detect

import (
	"context"
	"time"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// query is the Theorem 6 check of one transition t: are there two
// configurations with equal total counters, y' in Dom(R_t) and y not? Side
// 0 of the query is y (to be disabled), side 1 is y' (enabled).
//
// The states fall into three kinds, and only the first needs per-group
// variables:
//
//   - group states: the source of t and every state whose group counter
//     some guard of t reads. Each has a counter per group and side, and a
//     total shared by both sides (which makes the totals equal).
//   - total states: states whose total counter, and nothing else, some
//     guard reads. Each has only its (shared) total.
//   - free states: all the others. Guards do not read them, so they have
//     no variable at all; they hold whatever processes remain.
//
// This is exact. Given the group states' counters, group g has
// r[g] = size(g) - sum of its group-state counters processes left on each
// side, and the total and free states must hold them with the required
// totals. Nonnegative integers with row sums r[g] and column sums c[S]
// exist exactly when sum_g r[g] = sum_S c[S] (fill greedily, the
// "northwest corner rule"), so the query needs only r[g] >= 0 and the
// right grand total; witness expands a model back the same greedy way.
//
// For a parametric system the group sizes are variables too, one per
// group, shared by both sides and ranging over the group's range (open
// above for "N.."); n is their sum. The argument above holds for each
// choice of sizes, so the query asks exactly whether some instance has
// two such configurations. Counters and totals then have no upper bound
// but their rows' sizes.
type query struct {
	sys   *gsst.System
	t     *gsst.Transition
	param bool // the group sizes are variables
	stateKinds
	base   presburger.Formula // invariants and equal totals, tightened
	notDom presburger.Formula // !phi_t(y), tightened
	bounds []presburger.Bound
}

func newQuery(sys *gsst.System, t *gsst.Transition) *query {
	m, d := len(sys.States), len(sys.Groups)
	q := &query{sys: sys, t: t, param: sys.Parametric()}
	groupRead := make([]bool, m)
	totalRead := make([]bool, m)
	groupRead[t.From] = true
	for _, b := range t.Blocks {
		for _, v := range presburger.FreeVars(b.Guard) {
			if s, g, ok := sys.Counter(v); ok && g >= 0 {
				groupRead[s] = true
			} else if ok {
				totalRead[s] = true
			}
		}
	}
	q.stateKinds = sortStates(groupRead, totalRead)

	// The size of each group and n: constants, or the size variables with
	// their ranges. upper[g] bounds a counter of group g (open: -1).
	size := make([]presburger.Term, d)
	upper := make([]int64, d)
	var n presburger.Term
	nUpper := int64(0)
	for g, b := range sys.SizeBounds()[:d] {
		size[g], upper[g] = presburger.ConstTerm(b.Lo), b.Hi
		if q.param {
			size[g] = presburger.VarTerm(q.sizeVar(g))
			b.Var = q.sizeVar(g)
			q.bounds = append(q.bounds, b)
		}
		if b.NoHi {
			upper[g] = -1
		}
		n = n.Add(size[g])
		if nUpper >= 0 && upper[g] >= 0 {
			nUpper += upper[g]
		} else {
			nUpper = -1
		}
	}

	var base []presburger.Formula
	var all presburger.Term // sum of every total variable
	for i := range q.nt {
		v := q.totalVar(i)
		q.bounds = append(q.bounds, counterBound(v, nUpper))
		all = all.Add(presburger.VarTerm(v))
	}
	// Every process in a group or total state: rows must be exact.
	exact := len(q.freeS) == 0 && len(q.totalS) == 0
	for side := range 2 {
		for g := range d {
			var row presburger.Term
			for c := range q.groupS {
				v := q.groupVar(side, c, g)
				q.bounds = append(q.bounds, counterBound(v, upper[g]))
				row = row.Add(presburger.VarTerm(v))
			}
			op := presburger.Le
			if exact {
				op = presburger.Eq
			}
			base = append(base, presburger.Compare(row, op, size[g]))
		}
		for c, s := range q.groupS {
			var sum presburger.Term
			for g := range d {
				sum = sum.Add(presburger.VarTerm(q.groupVar(side, c, g)))
			}
			base = append(base, presburger.Compare(sum, presburger.Eq, presburger.VarTerm(q.totalVar(q.tvar[s]))))
		}
	}
	// Free states take up the rest; without them the totals must add up
	// to n exactly.
	op := presburger.Le
	if len(q.freeS) == 0 {
		op = presburger.Eq
	}
	base = append(base, presburger.Compare(all, op, n))
	// Both parts are shared by every part of a split query: simplify
	// them once.
	q.base = q.tighten(presburger.Conj(base...))
	q.notDom = q.tighten(presburger.Negation(Domain(sys, t, q.counters(0))))
	return q
}

// stateKinds sorts the states of a query into group, total and free
// states (see query).
type stateKinds struct {
	groupS []int // group states, increasing
	totalS []int // total states, increasing
	freeS  []int // free states, increasing
	col    []int // state -> index in groupS or totalS, or -1 for a free state
	tvar   []int // state -> index of its total variable, or -1
	nt     int   // number of total variables
}

// sortStates returns the kinds of states: group states where groupRead,
// total states where only totalRead, free states elsewhere.
func sortStates(groupRead, totalRead []bool) stateKinds {
	var k stateKinds
	m := len(groupRead)
	k.col, k.tvar = make([]int, m), make([]int, m)
	for s := range m {
		k.col[s], k.tvar[s] = -1, -1
		switch {
		case groupRead[s]:
			k.col[s] = len(k.groupS)
			k.groupS = append(k.groupS, s)
		case totalRead[s]:
			k.col[s] = len(k.totalS)
			k.totalS = append(k.totalS, s)
		default:
			k.freeS = append(k.freeS, s)
		}
	}
	for _, list := range [][]int{k.groupS, k.totalS} {
		for _, s := range list {
			k.tvar[s] = k.nt
			k.nt++
		}
	}
	return k
}

// counterBound is the range of a counter: 0..hi, or 0.. when hi < 0.
func counterBound(v presburger.Var, hi int64) presburger.Bound {
	if hi < 0 {
		return presburger.AtLeast(v, 0)
	}
	return presburger.Bound{Var: v, Lo: 0, Hi: hi}
}

// groupVar is the counter of group g in group state number c on a side;
// totalVar the total of the i-th group or total state, shared by both
// sides.
func (q *query) groupVar(side, c, g int) presburger.Var {
	return presburger.Var((side*len(q.groupS)+c)*len(q.sys.Groups) + g)
}

func (q *query) totalVar(i int) presburger.Var {
	return presburger.Var(2*len(q.groupS)*len(q.sys.Groups) + i)
}

// sizeVar is the size of group g, shared by both sides (parametric
// systems only).
func (q *query) sizeVar(g int) presburger.Var { return q.totalVar(q.nt + g) }

// counters maps the system's counters (and, for a parametric system, the
// sizes and n) to the query's variables on a side. Domain reads only the
// counters that exist (see the kinds above).
func (q *query) counters(side int) Counters {
	y := Counters{
		Group: func(s, g int) presburger.Term { return presburger.VarTerm(q.groupVar(side, q.col[s], g)) },
		Total: func(s int) presburger.Term { return presburger.VarTerm(q.totalVar(q.tvar[s])) },
	}
	if q.param {
		y.Size = func(g int) presburger.Term { return presburger.VarTerm(q.sizeVar(g)) }
	}
	return y
}

// formula returns the query restricted to blocks part[0]..part[1]-1 of
// the transition on the enabled side.
func (q *query) formula(part [2]int) presburger.Formula {
	dom := make([]presburger.Formula, 0, part[1]-part[0])
	for b := part[0]; b < part[1]; b++ {
		dom = append(dom, BlockDomain(q.sys, q.t, b, q.counters(1)))
	}
	return presburger.Conj(q.base, q.tighten(presburger.Disj(dom...)), q.notDom)
}

// run decides one (part of a) query; calls is the number of solver calls
// it made (0 when the formula folded to false). On Sat the witness is
// returned unverified; for a parametric system it is one of the smallest
// instance that has one (see smallest).
func (q *query) run(ctx context.Context, s presburger.Solver, part [2]int, timeout time.Duration) (*Witness, presburger.Answer, int, error) {
	var smallest func(context.Context, presburger.Formula, presburger.Model) (presburger.Model, int, error)
	if q.param {
		smallest = func(ctx context.Context, f presburger.Formula, m presburger.Model) (presburger.Model, int, error) {
			return q.smallest(ctx, s, f, m)
		}
	}
	model, ans, calls, err := solvePart(ctx, s, q.bounds, func() presburger.Formula { return q.formula(part) }, timeout, smallest)
	if err != nil || ans.Result != presburger.Sat {
		return nil, ans, calls, err
	}
	return q.witness(model), ans, calls, nil
}

// solvePart decides one part of a query, its formula given by build,
// for query.run and extQuery.run. A context that has ended answers
// Unknown before the formula is built: building it takes long for large
// guards, and the run that ended the context should end right away. A
// false formula is Unsat without a solver. On Sat, smallest (when not
// nil: a parametric query) looks for a model whose instance has as few
// processes as possible; the model returned is the one to read the
// witness from.
func solvePart(ctx context.Context, s presburger.Solver, bounds []presburger.Bound, build func() presburger.Formula, timeout time.Duration,
	smallest func(context.Context, presburger.Formula, presburger.Model) (presburger.Model, int, error)) (presburger.Model, presburger.Answer, int, error) {
	if err := ctx.Err(); err != nil {
		return nil, presburger.Answer{Result: presburger.Unknown, Reason: err.Error(), Stopped: true}, 0, nil
	}
	f := build()
	if f == presburger.False {
		return nil, presburger.Answer{Result: presburger.Unsat}, 0, nil
	}
	if s == nil {
		return nil, presburger.Answer{}, 0, errNoSolver
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	ans, err := s.Solve(ctx, presburger.Problem{Bounds: bounds, F: f})
	calls := 1
	if err != nil || ans.Result != presburger.Sat {
		return nil, ans, calls, err
	}
	model := ans.Model
	if smallest != nil {
		var more int
		model, more, err = smallest(ctx, f, model)
		calls += more
		if err != nil {
			return nil, ans, calls, err
		}
	}
	return model, ans, calls, nil
}

// smallest looks for a model of f (a parametric query) whose instance has
// as few processes as possible, starting from model m (smallestModel).
func (q *query) smallest(ctx context.Context, s presburger.Solver, f presburger.Formula, m presburger.Model) (presburger.Model, int, error) {
	var n presburger.Term
	lo := int64(0)
	for g, grp := range q.sys.Groups {
		n = n.Add(presburger.VarTerm(q.sizeVar(g)))
		lo += int64(grp.Size)
	}
	return smallestModel(ctx, s, q.bounds, f, n, lo, m)
}

// smallestModel looks for a model of f under bounds with n (the number
// of processes, a term over f's variables; lo at least) as small as
// possible, starting from model m: a binary search on the bound
// "n <= k", monotone in k, so the result has the least n of all models.
// It stops early, keeping the best model so far, when the solver answers
// Unknown (a smaller witness is a convenience, not a verdict).
func smallestModel(ctx context.Context, s presburger.Solver, bounds []presburger.Bound, f presburger.Formula, n presburger.Term, lo int64, m presburger.Model) (presburger.Model, int, error) {
	best, ok := n.Value(func(v presburger.Var) int64 { return m[v] })
	if !ok {
		return m, 0, nil // no n to bisect on; m is a model all the same
	}
	calls := 0
	for lo < best {
		mid := lo + (best-lo)/2
		ans, err := s.Solve(ctx, presburger.Problem{Bounds: bounds,
			F: presburger.Conj(f, presburger.Compare(n, presburger.Le, presburger.ConstTerm(mid)))})
		calls++
		switch {
		case err != nil:
			return nil, calls, err
		case ans.Result == presburger.Sat:
			k, ok := n.Value(func(v presburger.Var) int64 { return ans.Model[v] })
			if !ok || k > mid {
				return nil, calls, errkind.Errorf(errkind.Internal, "a model of n <= %d has n = %s", mid, n.BigValue(func(v presburger.Var) int64 { return ans.Model[v] }))
			}
			m, best = ans.Model, k
		case ans.Result == presburger.Unsat:
			lo = mid + 1
		default:
			return m, calls, nil
		}
	}
	return m, calls, nil
}

// sizes returns the group sizes of a model's instance.
func (q *query) sizes(m presburger.Model) []int {
	out := make([]int, len(q.sys.Groups))
	for g, grp := range q.sys.Groups {
		out[g] = grp.Size
		if q.param {
			out[g] = int(m[q.sizeVar(g)])
		}
	}
	return out
}

// witness expands a model into full configurations: group states take the
// model's counters; each group's remaining processes fill the total
// states (in increasing order) up to their totals, then the first free
// state. A variable missing from the model reads as 0; the result is
// re-verified anyway.
func (q *query) witness(m presburger.Model) *Witness {
	d, ns := len(q.sys.Groups), len(q.sys.States)
	sizes := q.sizes(m)
	n := 0
	for _, k := range sizes {
		n += min(k, gsst.MaxProcesses+1) // no overflow on huge sizes
	}
	if n > gsst.MaxProcesses {
		// Beyond what direct evaluation handles: Certify says so
		// rather than expand it.
		return &Witness{Sizes: sizes, Group: -1}
	}
	conf := func(side int) [][]int {
		return fill(d, ns, n, sizes, q.groupS, q.totalS, q.freeS,
			func(c, g int) int { return int(m[q.groupVar(side, c, g)]) },
			func(s int) int { return int(m[q.totalVar(q.tvar[s])]) })
	}
	w := &Witness{Sizes: sizes, Disabled: conf(0), Enabled: conf(1), Group: -1}
	if f := FiringGroups(q.sys, q.t, w.Enabled); len(f) > 0 {
		w.Group = f[0]
	}
	return w
}

// fill expands a model of a query into a configuration of n processes
// (group sizes sizes, d groups, ns states): group states (groupS, the
// c-th one) take their counters group(c, g); each group's remaining
// processes fill the total states (in increasing order) up to their
// totals total(s), then the rest of n goes to the first free state.
func fill(d, ns, n int, sizes, groupS, totalS, freeS []int, group func(c, g int) int, total func(s int) int) [][]int {
	out := make([][]int, d)
	left := make([]int, d)
	for g := range out {
		out[g] = make([]int, ns)
		left[g] = sizes[g]
		for c, s := range groupS {
			out[g][s] = group(c, g)
			left[g] -= out[g][s]
		}
	}
	// Column demands: each total state's total, then the rest of n in
	// the first free state.
	type demand struct{ state, k int }
	var ds []demand
	rest := n
	for _, s := range groupS {
		rest -= total(s)
	}
	for _, s := range totalS {
		k := total(s)
		ds = append(ds, demand{s, k})
		rest -= k
	}
	if len(freeS) > 0 {
		ds = append(ds, demand{freeS[0], rest})
	}
	g := 0
	for _, dm := range ds {
		for dm.k > 0 && g < d {
			x := min(dm.k, left[g])
			out[g][dm.state] += x
			left[g] -= x
			dm.k -= x
			if left[g] <= 0 {
				g++
			}
		}
	}
	return out
}

// tighten rewrites f into negation normal form without != and folds the
// atoms the query's variable bounds decide (presburger.FoldBounds). The
// point is the guards' "#S[g] = 0": negated in !phi_r(y) it becomes
// "#S[g] < 0 | #S[g] > 0", whose first half the bounds refute. Leaving
// such disjunctions to the solver makes its case splits much larger.
// FoldBounds leaves atoms over variables without an upper bound alone;
// every variable of the query is nonnegative, which decides those
// (presburger.FoldNonnegative).
func (q *query) tighten(f presburger.Formula) presburger.Formula {
	f = presburger.FoldBounds(presburger.NNF(f), q.bounds)
	if q.param {
		f = presburger.FoldNonnegative(f)
	}
	return f
}
