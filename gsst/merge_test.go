package gsst_test

import (
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
)

// mergeBase is a system with x written as places x_a, x_b: put adds
// one to either, take takes one from either (both copies), take2 takes
// two (all three copies), and a guard and the property read the sum.
const mergeBase = `name: m
params: [n]
shared:
  x_a: {type: "1..", init: 1}
  x_b: {type: "0..", init: 2}
  y: {type: "0..", init: 0}
states: [A, B, C]
groups: {p: n}
init: A
transitions:
  - {name: put, from: A, to: B, update: "x_a := x_a + 1"}
  - {name: take_a, from: B, to: C, guard: "x_a + x_b >= 2", update: "x_a := x_a - 1; y := y + 1"}
  - {name: take_b, from: B, to: C, guard: "x_b + x_a >= 2", update: "x_b := x_b - 1; y := y + 1"}
  - {name: take2_0, from: C, to: A, update: "x_b := x_b - 2"}
  - {name: take2_1, from: C, to: A, update: "x_a := x_a - 1; x_b := x_b - 1"}
  - {name: take2_2, from: C, to: A, update: "x_a := x_a - 2"}
properties:
  p: "AG (2*x_a + 2*x_b <= 9 | #C >= 1)"
`

// TestMergeSums checks MergeSums on mergeBase and on variants that
// break one condition each (docs/prove.md, "A counter written as two
// places"): it merges the first, with the domain and initial value of
// the sum, the copies that became the same written once, and each
// merged step standing for its copies; it refuses every variant.
func TestMergeSums(t *testing.T) {
	sys, err := gsst.Parse("m.yaml", []byte(mergeBase))
	if err != nil {
		t.Fatal(err)
	}
	m, ok, err := sys.MergeSums()
	if err != nil || !ok {
		t.Fatalf("MergeSums: ok %v, %v", ok, err)
	}
	x := m.System.Shared[m.X]
	if m.A != 0 || m.B != 1 || len(m.System.Shared) != 2 || x.Name != "x_a_plus_x_b" || x.Lo != 1 || x.Init != 3 || !x.Unbounded {
		t.Errorf("merged %d, %d into %+v", m.A, m.B, x)
	}
	var names []string
	for _, tr := range m.System.Transitions {
		names = append(names, tr.Name)
	}
	if got := strings.Join(names, " "); got != "put take_a take2_0" {
		t.Errorf("merged transitions %s, want put take_a take2_0", got)
	}
	var copies []int
	for _, s := range m.Steps {
		copies = append(copies, len(s))
	}
	if len(copies) != 3 || copies[0] != 1 || copies[1] != 2 || copies[2] != 3 {
		t.Errorf("merged steps stand for %v copies, want [1 2 3]", copies)
	}
	if got := m.System.FormatFormula(m.System.Steps()[1].Guard); !strings.Contains(got, "x_a_plus_x_b") {
		t.Errorf("merged guard %s", got)
	}
	for _, tc := range []struct{ why, old, new string }{
		{"a copy of a step that takes left out", `  - {name: take2_1, from: C, to: A, update: "x_a := x_a - 1; x_b := x_b - 1"}` + "\n", ""},
		{"a guard reads x_a alone", `guard: "x_a + x_b >= 2"`, `guard: "x_a >= 2"`},
		{"a guard reads them with other coefficients", `guard: "x_a + x_b >= 2"`, `guard: "x_a + 2*x_b >= 2"`},
		{"the property reads x_b alone", `2*x_a + 2*x_b <= 9`, `2*x_a + x_b <= 9`},
		{"a step moves a token from x_b to x_a", `update: "x_a := x_a + 1"`, `update: "x_a := x_a + 1; x_b := x_b - 1"`},
		{"another variable's update reads x_a", `y := y + 1"}` + "\n  - {name: take_b", `y := y + x_a"}` + "\n  - {name: take_b"},
		{"x_b has a greatest value", `x_b: {type: "0..", init: 2}`, `x_b: {type: "0..9", init: 2}`},
		{"x_a starts in a range", `x_a: {type: "1..", init: 1}`, `x_a: {type: "1..", init: "1..2"}`},
		{"x_b starts at a parameter", `x_b: {type: "0..", init: 2}`, `x_b: {type: "0..", init: n}`},
		{"a step writes x_a a value", `update: "x_a := x_a + 1"`, `update: "x_a := 3"`},
		{"weak fairness", "properties:", "fairness:\n  weak: [put]\nproperties:"},
	} {
		src := strings.Replace(mergeBase, tc.old, tc.new, 1)
		if src == mergeBase {
			t.Fatalf("%s: the variant is the base", tc.why)
		}
		sys, err := gsst.Parse("m.yaml", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tc.why, err)
		}
		if _, ok, err := sys.MergeSums(); ok || err != nil {
			t.Errorf("%s: merged (%v)", tc.why, err)
		}
	}
}
