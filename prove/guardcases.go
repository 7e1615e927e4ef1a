package prove

import (
	"context"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// Steps whose guard is a disjunction. A step enabled where g1 | g2
// holds makes the same moves as two steps with guards g1 and g2 and its
// update: the pairs of states it relates are the union of theirs, so
// the states a run reaches, and the inductive invariants, are the same
// (a step's consecution "inv & (g1 | g2) & next -> inv'" holds exactly
// when it holds for g1 and for g2). The safety models read such a step
// as one step per case of its guard (firing), since the backward
// coverability search, which reads a guard's shape, is slow on a
// disjunction: mist's queuedbusyflag with the steps of one from, to and
// update merged into one whose guard is the disjunction of theirs took
// 0.93 s, three quarters of it in that search, against 0.45 s as
// written, and takes 0.43 s with the cases. The liveness questions read
// the step as written: weak fairness names the step, and "g1 | g2
// enabled infinitely often" is not "g1 enabled" or "g2 enabled".
//
// Since every check reads the same transition relation, an invariant
// checked on the model with the cases is one of the model as written
// (the solver shows each split guard equal to its cases' disjunction,
// splitCases), and a run's steps are the system's steps (Steps is
// kept), replayed as any run.

// maxStepCases is the most cases a guard is split into: a conjunction
// of disjunctions multiplies out, and a step with many cases costs each
// check a query per case.
const maxStepCases = 8

// guardCases returns the cases of guard, a formula whose negations are
// pushed down to the atoms (plainGuard), as conjunctions whose
// disjunction is guard: nil when it has one case only or more than
// maxStepCases. A disequality, a quantifier and a negated one are
// atoms: only the disjunctions written (or pushed down) are split.
func guardCases(guard presburger.Formula) []presburger.Formula {
	cases := casesOf(guard)
	if len(cases) < 2 || len(cases) > maxStepCases {
		return nil
	}
	return cases
}

// casesOf is guardCases without the bounds, saturating a little above
// maxStepCases so that a large guard costs no more than that.
func casesOf(f presburger.Formula) []presburger.Formula {
	switch f := f.(type) {
	case presburger.Or:
		var out []presburger.Formula
		for _, g := range f {
			out = append(out, casesOf(g)...)
			if len(out) > maxStepCases {
				return out
			}
		}
		return out
	case presburger.And:
		out := []presburger.Formula{presburger.Bool(true)}
		for _, g := range f {
			parts := casesOf(g)
			if len(parts) == 1 {
				for i := range out {
					out[i] = presburger.Conj(out[i], parts[0])
				}
				continue
			}
			var next []presburger.Formula
			for _, c := range out {
				for _, p := range parts {
					next = append(next, presburger.Conj(c, p))
				}
			}
			if out = next; len(out) > maxStepCases {
				return out
			}
		}
		return out
	default:
		return []presburger.Formula{f}
	}
}

// splitCases returns t as one transition per case of its guard
// (guardCases), each with t's locals, steps and update; t alone when
// its guard has one case or too many, or when the solver does not
// show that the cases' disjunction is the guard. That check is what
// lets an invariant checked on the model with the cases stand for one
// checked on the model as written (consecution under t is consecution
// under each case of an equivalent guard), whatever guardCases does:
// it costs a query per step split, each the size of its guard.
func splitCases(ctx context.Context, solver presburger.Solver, t *counterabs.ParamTransition) ([]counterabs.ParamTransition, error) {
	whole := []counterabs.ParamTransition{*t}
	cases := guardCases(t.Guard)
	if cases == nil {
		return whole, nil
	}
	any := presburger.Disj(cases...)
	differ := presburger.Disj(presburger.Conj(t.Guard, presburger.Negation(any)), presburger.Conj(presburger.Negation(t.Guard), any))
	a, err := solveIn(ctx, solver, nil, differ)
	if err != nil || a.Result != presburger.Unsat {
		return whole, err
	}
	out := make([]counterabs.ParamTransition, len(cases))
	for i, g := range cases {
		out[i] = *t
		out[i].Guard = g
	}
	return out, nil
}
