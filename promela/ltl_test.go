package promela

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// TestClaims pins the translation of each shape of property: the ltl
// formula, whether the property holds iff pan finds an error
// (existential), whether the claim is a safety claim, or why it is not
// exported. The Spin cross-checks test the meaning; this test pins the
// form.
func TestClaims(t *testing.T) {
	tests := []struct {
		prop        string
		ltl         string // "" when not exported
		existential bool
		safety      bool
		skip        string // part of the reason when not exported
	}{
		{"AG #C <= 1", "[] (x_C <= 1)", false, true, ""},
		{"EF #C = 1", "[] !(x_C == 1)", true, true, ""},
		{"AF #C = 1", "<> (x_C == 1)", false, false, ""},
		{"AG (#T > 0 -> AF #C > 0)", "[] ((x_T > 0) -> <> (x_C > 0))", false, false, ""},
		{"A[#N > 0 U #C = 1]", "((x_N > 0) U (x_C == 1))", false, false, ""},
		{"E[#N > 0 U #C = 1]", "!((x_N > 0) U (x_C == 1))", true, true, ""},
		{"EG #C = 0", "<> !(x_C == 0)", true, false, ""},
		{"!AF #C = 1", "<> (x_C == 1)", true, false, ""},
		{"!EF #C = 2", "[] !(x_C == 2)", false, true, ""},
		{"!AG #C <= 1", "[] (x_C <= 1)", true, true, ""},
		{"AG AF #C = 1", "[] <> (x_C == 1)", false, false, ""},
		{"EF (#C = 1 & EG #T = 0)", "[] !((x_C == 1) && [] (x_T == 0))", true, false, ""},
		{"#N = 3 -> AG #C <= 1", "((x_N == 3) -> [] (x_C <= 1))", false, true, ""},
		{"EF #C = 1 | EG #T = 0", "!(<> (x_C == 1) || [] (x_T == 0))", true, false, ""},
		{"AG #C <= 1 -> EF #C = 1", "!([] (x_C <= 1) -> <> (x_C == 1))", true, true, ""},
		{"E[#N > 0 U EF #C = 1]", "!((x_N > 0) U <> (x_C == 1))", true, true, ""},
		{"#N = 3", "(x_N == 3)", false, true, ""},
		{"AG (#C = 0 | AF #C = 1)", "[] ((x_C == 0) || <> (x_C == 1))", false, false, ""},
		{"AG EF #C = 1", "", false, false, "as in AG EF p"},
		{"AG (#T > 0 -> EF #C > 0)", "", false, false, "EF (#C > 0), existential (EF)"},
		{"EF AG #C = 0", "", false, false, "as in EF AG p"},
		{"AF AG #C = 0", "", false, false, "AF AG p is not the LTL F G p"},
		{"EG EF #C = 1", "", false, false, "applies EG to a temporal formula"},
		{"A[#N > 0 U AG #C = 1]", "", false, false, "temporal operand of A[U]"},
		{"E[EF #N > 0 U #C = 1]", "", false, false, "temporal left operand of E[U]"},
		{"AX #C = 0", "", false, false, "next-state operator"},
		{"EF EX #C = 1", "", false, false, "next-state operator"},
		{"AG #C <= 1 | AF #C = 1", "", false, false, "disjunction of two temporal formulas under A"},
		{"EF #C = 1 & EF #T = 1", "", false, false, "conjunction of two temporal formulas under E"},
		{"AF #C = 1 -> AG #C = 0", "", false, false, "AG (#C = 0), universal (AG), occurs under an existential operator"},
		{"EF #C = 1 -> AF #C = 0", "", false, false, "implication between two temporal formulas under A"},
	}
	var spec strings.Builder
	spec.WriteString("name: claims\nstates: [N, T, C]\ngroups:\n  p: 3\ninit: N\ntransitions:\n  - {from: N, to: T}\n  - {from: T, to: C, guard: \"#C = 0\"}\n  - {from: C, to: N}\n  - {from: T, to: N}\nproperties:\n")
	for i, tc := range tests {
		fmt.Fprintf(&spec, "  p%d: %q\n", i, tc.prop)
	}
	sys, err := gsst.Parse("claims.yaml", []byte(spec.String()))
	if err != nil {
		t.Fatal(err)
	}
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	red, err := Reduced(m)
	if err != nil {
		t.Fatal(err)
	}
	con, err := Concrete(sys)
	if err != nil {
		t.Fatal(err)
	}
	// The same claims run by Spin must give vsym's verdicts.
	requireSpin(t)
	v, n, err := vsymVerdicts(m)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("spin/group", func(t *testing.T) {
		t.Parallel()
		checkWithSpin(t, &spinCase{"group", red, v, n}, nil)
	})
	t.Run("spin/concrete", func(t *testing.T) {
		t.Parallel()
		checkWithSpin(t, &spinCase{"concrete", con, v, int64(testsupport.Unreduced(sys).Len()) + 1}, nil)
	})
	for _, prog := range []*Program{red, con} {
		if len(prog.Claims) != len(tests) {
			t.Fatalf("%d claims for %d properties", len(prog.Claims), len(tests))
		}
		for i, tc := range tests {
			c := prog.Claims[i]
			switch {
			case tc.ltl == "" && c.Exported():
				t.Errorf("%s: exported as %q, want it skipped (%s)", tc.prop, c.LTL, tc.skip)
			case tc.ltl == "" && !strings.Contains(c.Skipped, tc.skip):
				t.Errorf("%s: skipped because %q, want a reason with %q", tc.prop, c.Skipped, tc.skip)
			case tc.ltl != "" && !c.Exported():
				t.Errorf("%s: skipped (%s), want %q", tc.prop, c.Skipped, tc.ltl)
			case tc.ltl != "" && (c.LTL != tc.ltl || c.Existential != tc.existential || c.Safety != tc.safety):
				t.Errorf("%s: ltl %q existential=%v safety=%v, want %q %v %v", tc.prop, c.LTL, c.Existential, c.Safety, tc.ltl, tc.existential, tc.safety)
			case tc.ltl != "" && !strings.Contains(prog.Text, fmt.Sprintf("ltl %s { %s }\n", c.Name, c.LTL)):
				t.Errorf("%s: the model lacks its ltl block", tc.prop)
			case tc.ltl == "" && strings.Contains(prog.Text, "ltl p"+fmt.Sprint(i)+" "):
				t.Errorf("%s: skipped, but the model has an ltl block for it", tc.prop)
			}
		}
	}
}

// TestPanArgs: -a only for liveness claims, -f only when asked for and
// only with -a.
func TestPanArgs(t *testing.T) {
	tests := []struct {
		c    Claim
		fair bool
		want string
	}{
		{Claim{Name: "s", Safety: true}, false, "-N s"},
		{Claim{Name: "s", Safety: true}, true, "-N s"},
		{Claim{Name: "l"}, false, "-a -N l"},
		{Claim{Name: "l"}, true, "-a -f -N l"},
	}
	for _, tc := range tests {
		if got := strings.Join(tc.c.PanArgs(tc.fair), " "); got != tc.want {
			t.Errorf("PanArgs(%+v, %v) = %q, want %q", tc.c, tc.fair, got, tc.want)
		}
	}
	for _, tc := range []struct {
		existential, violated, holds bool
	}{{false, false, true}, {false, true, false}, {true, false, false}, {true, true, true}} {
		c := Claim{Existential: tc.existential}
		if got := c.Holds(tc.violated); got != tc.holds {
			t.Errorf("existential=%v violated=%v: Holds = %v", tc.existential, tc.violated, got)
		}
	}
}
