package counterabs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// TestSafetyShapes: the safety properties a prover decides, as AG phi
// and as the same property written otherwise (!EF c, !E[true U c],
// AG AG phi, AG p & AG q), with a premise written c -> g, !c | g,
// g | !c, !(c & g) or !(g & c); the premise and phi each property gives are compared, at
// every configuration of three counters in 0..2, with what the text
// means, and the other shapes are refused.
func TestSafetyShapes(t *testing.T) {
	cases := []struct {
		text         string
		premise, phi func(n, t, c int64) bool // nil premise: true; nil phi: not a safety property
	}{
		{"AG #C = 0", nil, func(n, t, c int64) bool { return c == 0 }},
		{"!EF #C > 0", nil, func(n, t, c int64) bool { return c <= 0 }},
		{"!EF !(#C <= 1 & #T = 0)", nil, func(n, t, c int64) bool { return c <= 1 && t == 0 }},
		{"!(EF (#C >= 1))", nil, func(n, t, c int64) bool { return c < 1 }},
		{"#T = 0 -> !EF #C > 0", func(n, t, c int64) bool { return t == 0 }, func(n, t, c int64) bool { return c <= 0 }},
		{"!(#T = 0 & EF #C > 0)", func(n, t, c int64) bool { return t == 0 }, func(n, t, c int64) bool { return c <= 0 }},
		{"!(#T = 0 & #N > 1 & EF !(#C < 2))", func(n, t, c int64) bool { return t == 0 && n > 1 }, func(n, t, c int64) bool { return c < 2 }},
		{"#N = 0 | !EF #C > 0", func(n, t, c int64) bool { return n != 0 }, func(n, t, c int64) bool { return c <= 0 }},
		{"!(EF #C > 0 & #T = 0)", func(n, t, c int64) bool { return t == 0 }, func(n, t, c int64) bool { return c <= 0 }},
		{"AG #C <= 1 | #N = 0", func(n, t, c int64) bool { return n != 0 }, func(n, t, c int64) bool { return c <= 1 }},
		{"AG #C = 0 & AG #T <= 1", nil, func(n, t, c int64) bool { return c == 0 && t <= 1 }},
		{"AG AG #C = 0", nil, func(n, t, c int64) bool { return c == 0 }},
		{"AG (!EF #C > 1 & AG #T <= 1)", nil, func(n, t, c int64) bool { return c <= 1 && t <= 1 }},
		{"!E[true U #C > 0]", nil, func(n, t, c int64) bool { return c <= 0 }},
		{"#T = 0 -> AG #C = 0 & !EF #N > 2", func(n, t, c int64) bool { return t == 0 }, func(n, t, c int64) bool { return c == 0 && n <= 2 }},
		{"!E[#T = 0 U #C > 0]", nil, nil},
		{"!A[true U #C > 0]", nil, nil},
		{"AG #C = 0 & EF #T > 0", nil, nil},
		{"AG (#C = 0 & AG #T <= 1)", nil, nil},
		{"AG #C = 0 | AG #T <= 1", nil, nil},
		{"EF #C > 0", nil, nil},
		{"!EF AG #C > 0", nil, nil},
		{"!EG #C > 0", nil, nil},
		{"!AG #C > 0", nil, nil},
	}
	var b strings.Builder
	b.WriteString("name: shapes\nstates: [N, T, C]\ngroups: {p: 3}\ninit: N\ntransitions:\n  - {from: N, to: T}\n  - {from: T, to: C}\nproperties:\n")
	for i, c := range cases {
		fmt.Fprintf(&b, "  p%d: %q\n", i, c.text)
	}
	sys, err := gsst.Parse("shapes.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		premise, phi, ok := counterabs.PremisedSafety(sys.Properties[i].Formula)
		if ok != (c.phi != nil) {
			t.Errorf("%s: a safety property: %v, want %v", c.text, ok, c.phi != nil)
			continue
		}
		if !ok {
			continue
		}
		for n := range int64(3) {
			for tt := range int64(3) {
				for k := range int64(3) {
					at := func(v presburger.Var) int64 {
						switch v {
						case sys.TotalVar(0):
							return n
						case sys.TotalVar(1):
							return tt
						case sys.TotalVar(2):
							return k
						}
						return 0
					}
					wantPremise := c.premise == nil || c.premise(n, tt, k)
					if got := presburger.Eval(premise, at); got != wantPremise {
						t.Errorf("%s: premise %v at N=%d T=%d C=%d, want %v", c.text, got, n, tt, k, wantPremise)
					}
					if got, want := presburger.Eval(phi, at), c.phi(n, tt, k); got != want {
						t.Errorf("%s: phi %v at N=%d T=%d C=%d, want %v", c.text, got, n, tt, k, want)
					}
				}
			}
		}
	}
}
