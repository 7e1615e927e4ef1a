package nusmv

import (
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// NuSMV needs finite ranges: an unbounded shared variable stops at a
// bound in the model (emit.SharedHi), a step that would take it beyond
// is left out, and an INVARSPEC checks that no reachable state has such
// a step enabled, so that the model's verdicts are the system's exactly
// when it holds.

// concreteBound returns the invariant named check that checks the bound
// of the unbounded shared variables ("" when check is ""): in no
// reachable configuration is a step enabled in the system
// (gsst.Spec.EnabledFormula: its movers exist, its guard holds, its
// values lie in their domains, with no upper bound on an unbounded
// variable) whose update takes an unbounded variable beyond its bound.
func concreteBound(sys *gsst.System, sv *sharedVars, atom atomfn, check string) (string, error) {
	if check == "" {
		return "", nil
	}
	var overs []presburger.Formula
	steps := sys.Steps()
	for i := range steps {
		st := &steps[i]
		if over := sv.over(st.Update.Assign); over != nil {
			overs = append(overs, presburger.Conj(sys.EnabledFormula(st), over))
		}
	}
	f, err := formula(presburger.Negation(presburger.Disj(overs...)), atom)
	if err != nil {
		return "", exprError("bound check", err)
	}
	return f.s, nil
}

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
