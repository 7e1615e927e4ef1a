package gsst_test

import (
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
)

// splitBase is a system whose group p is written as p_a and p_b over a
// parameter k (n - k and k processes), a third group q of its own
// behaviour, and guards, an update, the property and the justice
// condition reading p's counters through sums.
const splitBase = `name: s
params: [n, k]
assume: "n >= 3 & k >= 1"
shared:
  y: {type: "0..", init: 0}
states: [A, B, C]
groups: {p_a: n - k, p_b: k, q: 1}
init: A
transitions:
  - {name: go, from: A, to: B, guard: "#B[p_a] + #B[p_b] <= 1", update: "y := y + 1"}
  - {name: back, from: B, to: A, guard: {p_a: "y >= 1", p_b: "y >= 1", q: "y = 0"}}
  - {name: end, from: B, to: C, guard: "#C = 0"}
fairness:
  justice: ["#A[p_a] + #A[p_b] = 0 | y >= 2"]
  weak: [end]
properties:
  p: "AG (#C[p_a] + #C[p_b] <= 1)"
  l: "AF #C >= 1"
`

// TestMergeGroups checks MergeGroups on splitBase and on variants that
// break one condition each (docs/prove.md, "A group written as two
// groups"): it merges p_a and p_b into p of size n, with k's
// conditions stated in the assumption where it did not state them, q
// after it, and every formula over p's counters; it refuses every
// variant.
func TestMergeGroups(t *testing.T) {
	sys, err := gsst.Parse("s.yaml", []byte(splitBase))
	if err != nil {
		t.Fatal(err)
	}
	m, ok, err := sys.MergeGroups()
	if err != nil || !ok {
		t.Fatalf("MergeGroups: ok %v, %v", ok, err)
	}
	ms := m.System
	if m.A != 0 || m.B != 1 || len(ms.Groups) != 2 || ms.Groups[0].Name != "p" || ms.Groups[1].Name != "q" || ms.Groups[0].SizeTermText != "n" {
		t.Errorf("merged %d, %d into %+v", m.A, m.B, ms.Groups)
	}
	if got := ms.Assume.Text; got != "(n >= 3 & k >= 1) & n - k >= 1" {
		t.Errorf("assumption %q, want the condition on n - k added", got)
	}
	if g := m.Group(2); g != 1 {
		t.Errorf("Group(2) = %d, want 1", g)
	}
	back := ms.Transitions[1]
	if len(back.Blocks) != 2 || len(back.Blocks[0].Groups) != 1 || back.Blocks[0].Groups[0] != 0 || back.Blocks[1].Groups[0] != 1 {
		t.Errorf("back's blocks %+v, want one for p and one for q", back.Blocks)
	}
	for _, want := range []string{"#C[p] <= 1", "#A[p] = 0 | y >= 2"} {
		if !strings.Contains(ms.Properties[0].Text+" "+ms.Fairness.Justice[0].Text, want) {
			t.Errorf("merged texts %q and %q, want %q", ms.Properties[0].Text, ms.Fairness.Justice[0].Text, want)
		}
	}
	// Two ranges add up.
	ranged := strings.NewReplacer("params: [n, k]", "params: [n]", `assume: "n >= 3 & k >= 1"`, `assume: "n >= 3"`, "p_a: n - k, p_b: k", `p_a: "1..2", p_b: "2.."`).Replace(splitBase)
	sys2, err := gsst.Parse("r.yaml", []byte(ranged))
	if err != nil {
		t.Fatal(err)
	}
	m2, ok, err := sys2.MergeGroups()
	if err != nil || !ok {
		t.Fatalf("MergeGroups of ranges: ok %v, %v", ok, err)
	}
	if g := m2.System.Groups[0]; g.SizeText() != "3.." {
		t.Errorf("merged size %s, want 3..", g.SizeText())
	}
	refused := map[string][2]string{
		"a step under another guard":  {`p_a: "y >= 1", p_b: "y >= 1"`, `p_a: "y >= 1", p_b: "y >= 2"`},
		"a step one group only takes": {`p_a: "y >= 1", p_b: "y >= 1", q:`, `p_a: "y >= 1", q:`},
		"a guard reading one group":   {`"#B[p_a] + #B[p_b] <= 1"`, `"#B[p_a] <= 1"`},
		"other coefficients":          {`"#B[p_a] + #B[p_b] <= 1"`, `"#B[p_a] + 2*#B[p_b] <= 1"`},
		"a property reading one half": {`"AG (#C[p_a] + #C[p_b] <= 1)"`, `"AG (#C[p_b] <= 1)"`},
		"justice reading one half":    {`"#A[p_a] + #A[p_b] = 0 | y >= 2"`, `"#A[p_a] = 0 | y >= 2"`},
		"weak fairness on one half":   {"weak: [end]", `weak: ["end [p_a]"]`},
		"weak fairness per group":     {"weak: [end]", `weak: ["end [*]"]`},
		"different initial states":    {"init: A", "init: {p_a: A, p_b: B, q: A}"},
		"a range and a parameter":     {"p_a: n - k", `p_a: "1.."`},
	}
	for name, edit := range refused {
		t.Run(name, func(t *testing.T) {
			if !strings.Contains(splitBase, edit[0]) {
				t.Fatalf("splitBase has no %q", edit[0])
			}
			src := strings.Replace(splitBase, edit[0], edit[1], 1)
			sys, err := gsst.Parse("v.yaml", []byte(src))
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if _, ok, err := sys.MergeGroups(); ok || err != nil {
				t.Errorf("merged (%v, %v)\n%s", ok, err, src)
			}
		})
	}
}
