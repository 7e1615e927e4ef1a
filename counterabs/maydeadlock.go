package counterabs

import (
	"fmt"

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

func (b *builder) deadlockSpace() deadlockSpace {
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
	// Nobody can move: for every transition and every group that may
	// take it, no process of the group is in the source or the guard fails.
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for j := range t.Blocks {
			bl := &t.Blocks[j]
			for _, g := range bl.Groups {
				if sys.Groups[g].Size == 0 {
					continue
				}
				in := presburger.Compare(presburger.VarTerm(sys.GroupVar(t.From, g)), presburger.Ge, presburger.ConstTerm(1))
				// Guards read total counters too: in terms of y.
				guard := presburger.Subst(bl.Guard, func(v presburger.Var) presburger.Term {
					if st, h, ok := sys.Counter(v); ok && h < 0 {
						return total(st)
					}
					return presburger.VarTerm(v)
				})
				conj = append(conj, presburger.Negation(presburger.Conj(in, guard)))
			}
		}
	}
	return deadlockSpace{ys: ys, body: presburger.Conj(conj...), total: total}
}

// mayDeadlock computes and checks MayDeadlock (see above).
func (b *builder) mayDeadlock() (presburger.Formula, error) {
	const name = "deadlock"
	sys := b.sys
	if b.proj == nil {
		return nil, fmt.Errorf("counterabs: the forced model needs a projector for its deadlock condition")
	}
	sp := b.deadlockSpace()
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
			return nil, &InternalError{Transition: name, Msg: fmt.Sprintf("projection kept variable %d, which is not a total counter", v)}
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
		Bounds: sp.ys, F: presburger.Conj(sp.body, presburger.Negation(fy))})
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
