package prove

import (
	"slices"
	"testing"

	"github.com/vsym/vsym/presburger"
)

// TestStepCheck: what the sample checks of a successor computed with a
// transition's step terms (stepCheck) leaves out exactly the equations
// "x' = term" that the computation makes true, and keeps everything
// else, so that a transition formula that says otherwise of a
// next-state value (an equation the step terms do not satisfy, added
// here by hand) still rejects the successor. On the model as built,
// every successor the step terms give satisfies both the check and the
// whole transition formula.
func TestStepCheck(t *testing.T) {
	m := groupModel(t, "steps.yaml", `name: steps
params: [k]
assume: k >= 1
shared:
  x: {type: 0.., init: 0}
states: [A, B, C]
groups: {proc: 3}
init: A
transitions:
- {from: A, to: B, guard: 'x < k', update: 'x := x + 1'}
- {from: B, to: C, guard: '#A = 0'}
`)
	ts := m.TransitionSystem().Question(presburger.False)
	// At k=2, a state where transition i is enabled (#A #B #C x), and
	// its successor by it as the sample computes it.
	at := [][]int64{{1, 2, 0, 1}, {0, 2, 1, 1}}
	width := presburger.Var(0)
	for _, vs := range [][]presburger.Var{ts.Vars, ts.Next, ts.Params} {
		for _, v := range vs {
			width = max(width, v+1)
		}
	}
	val := func(y []int64) func(presburger.Var) int64 { return func(v presburger.Var) int64 { return y[v] } }
	for i := range m.Transitions {
		steps := m.StepTerms(&m.Transitions[i])
		check := stepCheck(m, ts.Trans[i], steps)
		for _, c := range presburger.Conjuncts(check) {
			if slices.ContainsFunc(presburger.FreeVars(c), func(v presburger.Var) bool { return slices.Contains(ts.Next, v) }) {
				t.Errorf("transition %d: the check keeps %s, which reads a next-state value the step terms set", i, m.FormatFormula(c))
			}
		}
		cur := make([]int64, width)
		for j, x := range at[i] {
			cur[m.StateVar(j)] = x
		}
		for _, p := range ts.Params {
			cur[p] = 2
			if name := m.VarName(p); name == "|proc|" || name == "n" {
				cur[p] = 3
			}
		}
		y := slices.Clone(cur)
		for j, st := range steps {
			y[m.NextVar(j)] = st.Eval(val(cur))
		}
		if !presburger.Eval(ts.Trans[i], val(y)) {
			t.Fatalf("transition %d is not enabled at %v (k=2)", i, at[i])
		}
		if !presburger.Eval(check, val(y)) {
			t.Errorf("transition %d: the check rejects the successor of %v, a step of the transition formula", i, at[i])
		}
		// A transition formula that also says x' = x + 5 has no such
		// step: the check keeps that equation and rejects it.
		x := m.StateVar(len(m.Counters))
		odd := presburger.Compare(presburger.VarTerm(m.NextVar(len(m.Counters))), presburger.Eq, presburger.VarTerm(x).Add(presburger.ConstTerm(5)))
		if presburger.Eval(stepCheck(m, presburger.Conj(ts.Trans[i], odd), steps), val(y)) {
			t.Errorf("transition %d: the check accepts a successor that the equation %s rules out", i, m.FormatFormula(odd))
		}
	}
}

// TestFactPivotsComplete: a model of a question asked without the
// pivots of the linear invariants (factPivots.problem), completed with
// the pivots' values (complete, which prune's models get), satisfies
// the invariants: every valuation of the variables left, within small
// bounds, is completed to one, and the values it had are kept.
func TestFactPivotsComplete(t *testing.T) {
	m := groupModel(t, "abc.yaml", `name: abc
states: [A, B, C]
groups: {p: "1..", q: 2}
init: A
transitions:
- {from: A, to: B}
- {from: B, to: C}
- {from: C, to: A}
`)
	ts := m.TransitionSystem().Question(presburger.False)
	lis := linearInvariants(m, nil)
	fp, ok := newFactPivots(m, ts, lis)
	if !ok || len(fp.pivots) == 0 {
		t.Fatalf("no pivot among %d invariants", len(lis))
	}
	facts := linearConj(m, lis)
	var left []presburger.Var
	for _, vs := range [][]presburger.Var{ts.Vars, ts.Params} {
		for _, v := range vs {
			if _, pivot := fp.cur[v]; !pivot {
				left = append(left, v)
			}
		}
	}
	completed := 0
	for code := 0; code < pow(4, len(left)); code++ {
		model := presburger.Model{}
		c := code
		for _, v := range left {
			model[v] = int64(c % 4)
			c /= 4
		}
		full := fp.complete(model)
		for v, x := range model {
			if full[v] != x {
				t.Fatalf("complete changed %s from %d to %d", m.VarName(v), x, full[v])
			}
		}
		if !presburger.Eval(facts, func(v presburger.Var) int64 { return full[v] }) {
			t.Fatalf("the completed model %v does not satisfy the invariants %s", full, m.FormatFormula(facts))
		}
		completed++
	}
	if completed == 0 {
		t.Fatal("no valuation completed")
	}
}

// pow is b to the e, for small counts.
func pow(b, e int) int {
	out := 1
	for range e {
		out *= b
	}
	return out
}
