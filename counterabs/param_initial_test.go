package counterabs

import (
	"context"
	"strings"
	"testing"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestParamInitialSharedSpread: two groups spread over one state. The
// total counters there do not say how each group starts, so BuildParam
// takes the group-counter model and says why, and BuildParamTotal
// refuses with an input error; the group-counter model's Initial is
// each group's counters summing to its size over its spread.
func TestParamInitialSharedSpread(t *testing.T) {
	sys := spec(`name: two
states: [A, B, C]
groups: {g: 1.., h: 2}
init: {g: [A, B], h: [B, C]}
transitions:
  - {from: A, to: C}
  - {from: B, to: C}
properties:
  p: "AG #A <= n"
`)
	s := z3.New()
	m, err := BuildParam(context.Background(), sys, s)
	if err != nil {
		t.Fatal(err)
	}
	if m.Level != GroupLevel || !strings.Contains(m.Reason, "both start spread over state B") {
		t.Errorf("level %s (%s), want the group-counter model because g and h share B", m.Level, m.Reason)
	}
	if _, err := BuildParamTotal(context.Background(), sys, s); errkind.Of(err) != errkind.Input {
		t.Errorf("BuildParamTotal: %v, want an input error", err)
	}
	// g: #A[g] + #B[g] = |g|, #C[g] = 0; h: #A[h] = 0, #B[h] + #C[h] = 2.
	val := func(ag, bg, cg, ah, bh, ch, size int64) func(presburger.Var) int64 {
		x := map[presburger.Var]int64{0: ag, 1: bg, 2: cg, 3: ah, 4: bh, 5: ch, m.SizeVar(0): size, m.SizeVar(1): 2}
		return func(v presburger.Var) int64 { return x[v] }
	}
	for _, tc := range []struct {
		v    func(presburger.Var) int64
		want bool
	}{
		{val(1, 2, 0, 0, 1, 1, 3), true},
		{val(0, 3, 0, 0, 0, 2, 3), true},
		{val(1, 1, 0, 0, 1, 1, 3), false}, // g has 2 of 3
		{val(1, 2, 0, 1, 0, 1, 3), false}, // h in A
		{val(1, 2, 0, 0, 2, 1, 3), false}, // h has 3
	} {
		if got := presburger.Eval(m.Initial, tc.v); got != tc.want {
			t.Errorf("Initial %s at %v: %v, want %v", m.FormatFormula(m.Initial), []int64{tc.v(0), tc.v(1), tc.v(2), tc.v(3), tc.v(4), tc.v(5)}, got, tc.want)
		}
	}
	for i := range m.NumState() {
		_, fixed := m.InitialValue(i)
		// #C[g] and #A[h] are 0 in every initial state; the others vary.
		if want := i == 2 || i == 3; fixed != want {
			t.Errorf("InitialValue(%s) fixed = %v, want %v", m.VarName(m.StateVar(i)), fixed, want)
		}
	}
}
