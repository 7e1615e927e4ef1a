package counterabs

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestParamModelShared: the parametric model of a spec with shared
// variables and parameters (gsst's testdata/constructs/threshold.yaml), one
// group and so certified, is the total-counter one, says which
// instances it has, names its variables as the language does, and is a
// well-formed transition system whose initial state is the instance's at
// some parameter values (and only at values satisfying the assumption).
// Its group-counter model says the same.
func TestParamModelShared(t *testing.T) {
	src := []byte(`name: threshold
params: [n, t, f]
assume: "n > 3*t & t >= f & f >= 0"
shared:
  nsent: {type: "0..", init: 0}
states: [V0, V1, SE, AC]
groups:
  correct: n - f
init: V0
transitions:
  - {from: V1, to: SE, update: "nsent := nsent + 1"}
  - {from: V0, to: SE, guard: "nsent >= t + 1 - f", update: "nsent := nsent + 1"}
  - {from: SE, to: AC, guard: "nsent >= n - t - f"}
properties:
  unforgeable: "AG #AC = 0"
`)
	sys, err := gsst.Parse("threshold.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BuildParamTotal(context.Background(), sys, z3.New()); err != nil {
		t.Errorf("BuildParamTotal: %v", err)
	}
	m, err := BuildParam(context.Background(), sys, z3.New())
	if err != nil {
		t.Fatal(err)
	}
	if m.Level != TotalLevel || !strings.Contains(m.Reason, "certified") {
		t.Errorf("level %v, reason %q", m.Level, m.Reason)
	}
	group, err := BuildParamGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*ParamModel{m, group} {
		if !strings.Contains(m.Scope, "n > 3*t") || !strings.Contains(m.Scope, "correct = n - f") {
			t.Errorf("scope %q", m.Scope)
		}
		for v, want := range map[presburger.Var]string{m.SharedVar(0): "nsent", m.ParamVar(0): "n", m.ParamVar(2): "f", m.SizeVar(0): "|correct|", m.NextVar(m.NumState() - 1): "nsent'"} {
			if got := m.VarName(v); got != want {
				t.Errorf("VarName(%d) = %q, want %q", v, got, want)
			}
		}
		ts := m.TransitionSystem().Question(presburger.False)
		if err := ts.Check(); err != nil {
			t.Fatal(err)
		}
		// Init at n=4, t=1, f=1: three correct processes in V0, nsent 0;
		// not at n=3, t=1 (n > 3t fails) nor with nsent 1.
		at := func(n, tt, f, v0, nsent int64) bool {
			vals := map[presburger.Var]int64{m.ParamVar(0): n, m.ParamVar(1): tt, m.ParamVar(2): f,
				m.SizeVar(0): n - f, m.NVar(): n - f, presburger.Var(0): v0, m.SharedVar(0): nsent}
			return presburger.Eval(ts.Init, func(v presburger.Var) int64 { return vals[v] })
		}
		if !at(4, 1, 1, 3, 0) || at(3, 1, 1, 2, 0) || at(4, 1, 1, 3, 1) || at(4, 1, 1, 2, 0) {
			t.Errorf("%s level: Init: %s", m.Level, presburger.Format(ts.Init, m.VarName))
		}
	}
}

// TestUnreadSharedVariable: a shared variable that nothing reads or
// writes changes neither model of readers-writers (the paper's Figure
// 1(b)) nor the parametric ones: the same level, transitions, guards
// (as printed) and cases; the variable is carried as a constant state
// variable.
func TestUnreadSharedVariable(t *testing.T) {
	ctx := context.Background()
	plain := readersWriters()
	sp := plain.Spec()
	sp.Shared = []gsst.Shared{{Name: "unused", Lo: 0, Hi: 3}}
	shared, err := gsst.New(sp)
	if err != nil {
		t.Fatal(err)
	}
	describe := func(name func(i int) string, guard func(i int) string, n int) []string {
		var out []string
		for i := range n {
			out = append(out, name(i)+": "+guard(i))
		}
		return out
	}
	models := func(sys *gsst.System) [][]string {
		var out [][]string
		total, err := Build(ctx, sys, bf, proj)
		if err != nil {
			t.Fatal(err)
		}
		group, err := BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []*Model{total, group} {
			out = append(out, describe(func(i int) string {
				return m.TransitionName(&m.Transitions[i]) + " [case " + m.Transitions[i].Case.String() + "]"
			},
				func(i int) string { return m.FormatFormula(m.Transitions[i].Guard) }, len(m.Transitions)))
		}
		param, err := BuildParam(ctx, sys, z3.New())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, append([]string{param.Level.String()}, describe(func(i int) string { return param.TransitionName(&param.Transitions[i]) },
			func(i int) string { return param.FormatFormula(param.Transitions[i].Guard) }, len(param.Transitions))...))
		return out
	}
	want, got := models(plain), models(shared)
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("model %d with an unread shared variable:\n%s\nwithout:\n%s", i, strings.Join(got[i], "\n"), strings.Join(want[i], "\n"))
		}
	}
	if want[2][0] != "total" {
		t.Errorf("parametric model at the %s level", want[2][0])
	}
}
