package counterabs_test

import (
	"fmt"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// TestPremiseEitherOrder checks that Premise reads a premise written
// after the rest ("AG p | c", "!(EF q & c)") as it reads it written
// first, the contrapositive "h -> !c" as "c -> !h", and leaves alone
// what has no premise to read in either order (two temporal operands,
// two conditions on one state).
func TestPremiseEitherOrder(t *testing.T) {
	pairs := [][2]string{
		{"#A >= 1 | AG #B = 0", "AG #B = 0 | #A >= 1"},
		{"!(#A = 2 & EF #B >= 1)", "!(EF #B >= 1 & #A = 2)"},
		{"#A >= 1 | (#B = 0 -> AG #A >= 1)", "(AG #A >= 1 | #B != 0) | #A >= 1"},
		{"!(#A = 0 & EF (#B >= 1 & #A >= 1))", "!(EF (#B >= 1 & #A >= 1) & #A = 0)"},
		{"!(#A >= 1) -> !AG #B = 0", "AG #B = 0 -> #A >= 1"},
		{"#A = 1 -> #B = 0 -> !EF #B >= 2", "EF #B >= 2 -> !(#A = 1 & #B = 0)"},
	}
	src := "name: order\nstates: [A, B]\ngroups: {p: 1..}\ninit: A\ntransitions:\n- {from: A, to: B}\nproperties:\n"
	for i, p := range pairs {
		src += fmt.Sprintf("  first%d: %q\n  second%d: %q\n", i, p[0], i, p[1])
	}
	for i, f := range []string{"AG #B = 0 | EF #A >= 1", "#A >= 1 | #B = 0", "#A >= 1 | AG #B = 0 | EF #A >= 1"} {
		src += fmt.Sprintf("  none%d: %q\n", i, f)
	}
	sys, err := gsst.Parse("order.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]int{}
	for k := range sys.Properties {
		byName[sys.Properties[k].Name] = k
	}
	for i := range pairs {
		p1, g1 := counterabs.Premise(sys.Properties[byName[fmt.Sprint("first", i)]].Formula)
		p2, g2 := counterabs.Premise(sys.Properties[byName[fmt.Sprint("second", i)]].Formula)
		if p1 == presburger.Formula(presburger.True) {
			t.Fatalf("pair %d: no premise read from %q", i, pairs[i][0])
		}
		if !presburger.SameUpToOrder(p1, p2) {
			t.Errorf("pair %d: premises %v and %v", i, p1, p2)
		}
		if fmt.Sprint(g1) != fmt.Sprint(g2) {
			t.Errorf("pair %d: the rest %v and %v", i, g1, g2)
		}
	}
	for i := range 3 {
		f := sys.Properties[byName[fmt.Sprint("none", i)]].Formula
		if p, g := counterabs.Premise(f); p != presburger.Formula(presburger.True) || fmt.Sprint(g) != fmt.Sprint(f) {
			t.Errorf("none%d: premise %v, rest %v", i, p, g)
		}
	}
}
