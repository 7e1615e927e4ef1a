package counterabs

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/presburger"
)

// A forced total-counter model over-approximates an uncertified system:
// every step of the system has an abstract counterpart. So must every
// stutter step. A configuration of the system where nobody can move
// stutters forever; its counter vector may still enable abstract
// transitions (g_r holds there because some other configuration with the
// same totals can take r), and without an abstract stutter the run that
// stays in the deadlock would have no abstract counterpart, so that AF p
// could hold abstractly and fail in the system. Build therefore gives a
// forced model the condition MayDeadlock: the counter vectors for which
// some configuration with those totals is deadlocked, the existential
// abstraction of the system's deadlock states, computed exactly by
// projection and checked against its definition with the solver. The
// engines add a stutter loop wherever it holds.

// deadlockSpace describes the deadlocked configurations: ys bounds the
// group counters, body says that they form a configuration (each group's
// counters sum to its size) in which nobody can move, total(s) is the
// total counter of state s as a sum of group counters.
type deadlockSpace struct {
	ys    []presburger.Bound
	body  presburger.Formula
	total func(s int) presburger.Term
}

func (b *builder) deadlockSpace() (deadlockSpace, error) {
	sys := b.sys
	var ys []presburger.Bound
	var conj []presburger.Formula
	for g, grp := range sys.Groups {
		var sum presburger.Term
		for s := range sys.States {
			v := sys.GroupVar(s, g)
			ys = append(ys, presburger.Bound{Var: v, Lo: 0, Hi: int64(grp.Size)})
			sum = sum.Add(presburger.VarTerm(v))
		}
		conj = append(conj, presburger.Compare(sum, presburger.Eq, presburger.ConstTerm(int64(grp.Size))))
	}
	total := func(s int) presburger.Term {
		var t presburger.Term
		for g := range sys.Groups {
			t = t.Add(presburger.VarTerm(sys.GroupVar(s, g)))
		}
		return t
	}
	// Nobody can move: no step is enabled for any groups of its movers
	// (System.EnabledFormula of Step.WithGroups, the group-counter
	// model's guards, with total counters read as sums of group
	// counters).
	yc := detect.Counters{Group: func(s, g int) presburger.Term { return presburger.VarTerm(sys.GroupVar(s, g)) }}
	for s := range sys.Steps() {
		err := groupChoices(sys, []int{s}, func(g, _ int) bool { return sys.Groups[g].Size > 0 },
			func(s int, groups []int) error {
				st := sys.Steps()[s].WithGroups(groups)
				conj = append(conj, presburger.Negation(detect.Guard(sys, sys.EnabledFormula(&st), yc)))
				return nil
			})
		if err != nil {
			return deadlockSpace{}, err
		}
	}
	return deadlockSpace{ys: ys, body: presburger.Conj(conj...), total: total}, nil
}

// mayDeadlock computes and checks MayDeadlock (see above).
func (b *builder) mayDeadlock() (presburger.Formula, error) {
	const name = "deadlock"
	sys := b.sys
	if b.proj == nil {
		return nil, fmt.Errorf("counterabs: the forced model needs a projector for its deadlock condition")
	}
	sp, err := b.deadlockSpace()
	if err != nil {
		return nil, err
	}
	// Project "y is deadlocked and x are its totals" onto x.
	bounds := append([]presburger.Bound(nil), sp.ys...)
	conj := []presburger.Formula{sp.body}
	var keep []presburger.Var
	var xs []presburger.Bound
	var sumX presburger.Term
	for s := range sys.States {
		x := sys.TotalVar(s)
		keep = append(keep, x)
		bd := presburger.Bound{Var: x, Lo: 0, Hi: int64(b.n)}
		bounds, xs = append(bounds, bd), append(xs, bd)
		sumX = sumX.Add(presburger.VarTerm(x))
		conj = append(conj, presburger.Compare(presburger.VarTerm(x), presburger.Eq, sp.total(s)))
	}
	// Shared variables (which a forced model's steps read and never
	// change) are kept, within their domains.
	shared := sharedBounds(sys)
	for _, bd := range shared {
		keep = append(keep, bd.Var)
	}
	bounds, xs = append(bounds, shared...), append(xs, shared...)
	f, res, err := b.proj.Project(b.ctx, presburger.Problem{Bounds: bounds, F: presburger.Conj(conj...)}, keep)
	if err != nil {
		return nil, fmt.Errorf("counterabs: projection of the deadlock states: %w", err)
	}
	if res == presburger.Unknown || f == nil {
		return nil, &UnknownError{Transition: name, What: "projection of the deadlock states"}
	}
	kept := map[presburger.Var]bool{}
	for _, v := range keep {
		kept[v] = true
	}
	for _, v := range presburger.FreeVars(f) {
		if !kept[v] {
			return nil, &InternalError{Transition: name, Msg: fmt.Sprintf("projection kept variable %d, which is not a total counter or a shared variable", v)}
		}
	}
	if dnfSize(f, b.cfg.maxClauses) <= b.cfg.maxClauses {
		if f, err = b.simplifyClauses(-1, presburger.DNF(f)); err != nil {
			return nil, err
		}
	}
	// The check: (1) the totals of every deadlocked configuration satisfy
	// f (a query over configurations alone); (2) every counter vector
	// satisfying f has a deadlocked configuration.
	fy := presburger.Subst(f, func(v presburger.Var) presburger.Term {
		if st, _, ok := sys.Counter(v); ok {
			return sp.total(st)
		}
		return presburger.VarTerm(v)
	})
	ans, err := b.solve(name, "check that the deadlock condition covers every deadlock", presburger.Problem{
		Bounds: append(slices.Clone(sp.ys), shared...), F: presburger.Conj(sp.body, presburger.Negation(fy))})
	if err != nil {
		return nil, err
	}
	if ans.Result != presburger.Unsat {
		return nil, &InternalError{Transition: name, Msg: "a deadlocked configuration whose totals the deadlock condition excludes"}
	}
	var same []presburger.Formula
	for s := range sys.States {
		same = append(same, presburger.Compare(presburger.VarTerm(sys.TotalVar(s)), presburger.Eq, sp.total(s)))
	}
	ans, err = b.solve(name, "check that the deadlock condition is no larger than the deadlocks", presburger.Problem{
		Bounds: xs,
		F: presburger.Conj(presburger.Compare(sumX, presburger.Eq, presburger.ConstTerm(int64(b.n))), f,
			presburger.Negation(expandSmall(presburger.Exists{Vars: sp.ys, Body: presburger.Conj(append(same, sp.body)...)})))})
	if err != nil {
		return nil, err
	}
	if ans.Result != presburger.Unsat {
		return nil, &InternalError{Transition: name, Msg: "the deadlock condition holds at a counter vector with no deadlocked configuration"}
	}
	return f, nil
}
