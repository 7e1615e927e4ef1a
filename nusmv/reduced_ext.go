package nusmv

import (
	"fmt"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// reducedSupports are the constructs beyond the paper that the reduced
// model carries (TestReducedExt runs them through NuSMV against the
// oracle): shared variables with their assignments, broadcast transfers
// and rendezvous moves.
const reducedSupports = gsst.ExtShared | gsst.ExtBroadcast | gsst.ExtRendezvous

// modelBound returns, for the assignments of a model transition, the
// condition that every unbounded variable stays within its bound (over
// false), or that some goes beyond it (over true; nil when none is
// assigned). The model's guards already keep every value in its domain
// otherwise.
func (sv *sharedVars) modelBound(as []counterabs.Assign, over bool) presburger.Formula {
	var fs []presburger.Formula
	for _, a := range as {
		j, _ := sv.of(presburger.Var(a.Var))
		if !sv.vars[j].Unbounded {
			continue
		}
		op := presburger.Le
		if over {
			op = presburger.Gt
		}
		fs = append(fs, presburger.Compare(a.Value, op, presburger.ConstTerm(int64(sv.hi[j]))))
	}
	switch {
	case over && len(fs) == 0:
		return nil
	case over:
		return presburger.Disj(fs...)
	}
	return presburger.Conj(fs...)
}

// reducedBound returns the name and the formula of the INVARSPEC that
// checks the bound of the unbounded shared variables ("" when the model
// assigns none): no reachable state has a transition whose guard holds
// and whose assignment passes the bound.
func reducedBound(m *counterabs.Model, sv *sharedVars, nm *namer, atom atomfn) (string, string, error) {
	var overs []presburger.Formula
	for i := range m.Transitions {
		t := &m.Transitions[i]
		if over := sv.modelBound(t.Assign, true); over != nil {
			overs = append(overs, presburger.Conj(t.Guard, over))
		}
	}
	hasUnbounded := false
	for j := range m.Shared {
		hasUnbounded = hasUnbounded || m.Shared[j].Unbounded
	}
	if !hasUnbounded {
		return "", "", nil
	}
	f, err := formula(presburger.Negation(presburger.Disj(overs...)), atom)
	if err != nil {
		return "", "", exprError("bound check", err)
	}
	return nm.fresh("bound_ok"), f.s, nil
}

// effectCase writes the case line of counter i for a step that moves
// several processes, "" when the step leaves it alone. The value stays
// in 0..limit in every reachable state (the pools keep their sums); the
// condition says so for NuSMV's range check, which looks at every
// valuation.
func effectCase(after presburger.Term, i int, ctr []string, limit int, trVar, tv, en string, name namefn, mag magfn) (string, error) {
	if after.Equal(presburger.VarTerm(presburger.Var(i))) {
		return "", nil
	}
	e, err := linear(after, name, mag)
	if err != nil {
		return "", err
	}
	cond := fmt.Sprintf("%s = %s & %s", trVar, tv, en)
	lo, err := compare(presburger.Cmp{Op: presburger.Ge, T: after}, name, mag)
	if err != nil {
		return "", err
	}
	hi, err := compare(presburger.Cmp{Op: presburger.Le, T: after.Sub(presburger.ConstTerm(int64(limit)))}, name, mag)
	if err != nil {
		return "", err
	}
	for _, f := range []frag{lo, hi} {
		if f.s != "TRUE" {
			cond += " & " + f.in(precAnd)
		}
	}
	return cond + " : " + e + ";", nil
}
