package prove

import (
	"fmt"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// TestLiveShapeEitherOrder checks that liveShape reads ByMC's fairness
// premises in the formula whatever the order of the conjunctions a
// translator writes (the condition p after the until in !EF (X & p), the
// avoided condition's conjuncts in another order inside EG, the premise
// on the initial configuration last) as it reads them in ByMC's order,
// and in every other spelling of the same formula that one normal form
// reads (styles25's nnf: AG (!p | !X) for !EF (p & X)).
func TestLiveShapeEitherOrder(t *testing.T) {
	const a, q = "#A = 0 & #B = 0", "#B = 0 & #A = 0"
	const j = "#C >= 1"
	const x = "E[!(" + a + ") U EG (!(" + a + ") & " + j + ")]"
	pairs := [][2]string{
		{"!E[!(" + a + ") U EG (!(" + a + ") & " + j + ")]", "!E[!(" + a + ") U EG (!(" + q + ") & " + j + ")]"},
		{"!E[!(" + a + ") U EG (!(" + a + ") & " + j + ")]", "!E[!(" + a + ") U EG (" + j + " & !(" + q + "))]"},
		{"!EF (#C = 1 & E[!(" + a + ") U EG (!(" + a + ") & " + j + ")])", "!EF (E[!(" + a + ") U EG (!(" + q + ") & " + j + ")] & #C = 1)"},
		{"#A >= 1 | !EG !(" + a + ")", "!EG !(" + q + ") | #A >= 1"},
		// One normal form (counterabs.GuardedAG, Premise): AG over a
		// disjunction, a negated conjunction, a nested or contrapositive
		// implication read as !EF (p & X) and c -> !X are.
		{"!EF (#C = 1 & " + x + ")", "AG (!(#C = 1) | !" + x + ")"},
		{"!EF (#C = 1 & " + x + ")", "AG (!" + x + " | !(#C = 1))"},
		{"!EF (#C = 1 & " + x + ")", "AG !(" + x + " & #C = 1)"},
		{"!EF (#C = 1 & " + x + ")", "AG (" + x + " -> !(#C = 1))"},
		{"!EF ((#C = 1 & #A = 0) & " + x + ")", "AG (#C = 1 -> #A = 0 -> !" + x + ")"},
		{"#A = 0 -> !" + x, "" + x + " -> !(#A = 0)"},
		{"#A = 0 -> !" + x, "!(" + x + " & #A = 0)"},
	}
	src := "name: order\nstates: [A, B, C]\ngroups: {p: 1..}\ninit: A\ntransitions:\n- {from: A, to: B}\n- {from: B, to: C}\nproperties:\n"
	for i, p := range pairs {
		src += fmt.Sprintf("  first%d: %q\n  second%d: %q\n", i, p[0], i, p[1])
	}
	sys, err := gsst.Parse("order.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for i := range pairs {
		f1, f2 := sys.Properties[2*i].Formula, sys.Properties[2*i+1].Formula
		p1, s1, t1, q1, j1, settled1, ok1 := liveShape(f1)
		p2, s2, t2, q2, j2, settled2, ok2 := liveShape(f2)
		if !ok1 || !settled1 {
			t.Fatalf("pair %d: %q not read (ok %v, settled only %v)", i, pairs[i][0], ok1, settled1)
		}
		if !ok2 || settled2 != settled1 {
			t.Errorf("pair %d: %q not read as %q (ok %v, settled only %v)", i, pairs[i][1], pairs[i][0], ok2, settled2)
			continue
		}
		for k, two := range [][2]presburger.Formula{{p1, p2}, {s1, s2}, {t1, t2}, {q1, q2}, {j1, j2}} {
			if !presburger.SameUpToOrder(two[0], two[1]) {
				t.Errorf("pair %d, part %d: %v and %v", i, k, two[0], two[1])
			}
		}
	}
}
