package prove

import (
	"fmt"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// TestLargeConstantCaps checks which guards put the family after the
// lemmas (largeConstant on the family's model): a lower bound beyond
// maxFixedTotal does, in any spelling, and so does an upper bound on a
// variable with a greatest value (the search reads it as a lower bound
// on the complement, and counts up to it); a atMost, an upper bound on
// counters or unbounded variables ("#S <= n" of a fixed size of 1,000,
// which reads as 1,000), does not, nor does a small constant.
func TestLargeConstantCaps(t *testing.T) {
	const head = `name: caps
states: [A, B, C]
groups: {p: 1000}
init: A
shared:
  x: {type: "0..", init: 0}
  y: {type: "0..2000", init: 0}
transitions:
- {from: A, to: B, update: "x := x + 1; y := 1"}
- {from: B, to: C, guard: "%s"}
properties: {safe: "AG #C <= 1000"}
`
	for _, tc := range []struct {
		guard string
		large bool
	}{
		{"#A <= n", false},
		{"#A + #B <= 1000", false},
		{"!(#A > 1000)", false},
		{"#A < 1001 & x <= 500", false},
		{"1001 > #A", false},
		{"#A >= 0 & #A <= n & #B >= 1", false},
		{"#A >= 500", true},
		{"#A + #B >= 101", true},
		{"!(#A <= 500)", true},
		{"x >= 200", true},
		{"#A = 500", true},
		{"#A - #B <= 500", true},
		{"y <= 1500", true},
		{"#A <= 100", false},
		{"#A >= 100", false},
	} {
		t.Run(tc.guard, func(t *testing.T) {
			sys, err := gsst.Parse("caps.yaml", []byte(fmt.Sprintf(head, tc.guard)))
			if err != nil {
				t.Fatal(err)
			}
			family, ok, err := sys.WithRangedSizes(searchMax)
			if err != nil || !ok {
				t.Fatalf("no family: %v", err)
			}
			fm, err := counterabs.BuildParamGroup(family)
			if err != nil {
				t.Fatal(err)
			}
			if got := largeConstant(fm); got != tc.large {
				t.Errorf("largeConstant = %v, want %v", got, tc.large)
			}
		})
	}
}

// TestLargeInNegatedCap checks that a atMost under a negation, which the
// guards of a model do not have (their negations are pushed to the
// atoms) but a formula may, is read as the lower bound it is.
func TestLargeInNegatedCap(t *testing.T) {
	x := presburger.Var(0)
	unbounded := map[presburger.Var]bool{x: true}
	atMost := presburger.Cmp{Op: presburger.Le, T: presburger.VarTerm(x).Add(presburger.ConstTerm(-1000))}
	if largeIn(atMost, unbounded) {
		t.Errorf("x <= 1000 read as large")
	}
	if !largeIn(presburger.Not{F: atMost}, unbounded) {
		t.Errorf("!(x <= 1000) not read as large")
	}
	if !largeIn(atMost, nil) {
		t.Errorf("x <= 1000 with x bounded not read as large")
	}
}
