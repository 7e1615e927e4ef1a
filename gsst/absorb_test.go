package gsst_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
)

// TestAbsorbSteps checks which intermediate states AbsorbSteps absorbs
// and which it refuses, and that the transitions into one go to its
// target, its own step out gone, under a name of its own where the
// entry had none.
func TestAbsorbSteps(t *testing.T) {
	const head = "states: [A, M, B, C]\ngroups: {p: 1.., q: 1}\ninit: {p: A, q: C}\nshared:\n  x: {type: 0.., init: 0}\n"
	tests := []struct {
		name, rest string
		// want lists "M->B" for each state absorbed, and the
		// transitions of the result ("from->to name"), sorted; nil:
		// nothing absorbed.
		want []string
	}{
		{"one intermediate", `transitions:
- {from: A, to: M, guard: "x = 0", update: "x := x + 1"}
- {from: M, to: B}
properties: {p: "AG #A + #C >= 1"}`, []string{"M->B", "A->B M"}},
		{"a named entry and a step A -> B", `transitions:
- {name: go, from: A, to: M, guard: "x = 0", update: "x := x + 1"}
- {from: M, to: B}
- {from: A, to: B}
properties: {p: "AG x <= 5"}`, []string{"M->B", "A->B ", "A->B go"}},
		{"M read by a property", `transitions:
- {from: A, to: M}
- {from: M, to: B}
properties: {p: "AG #M <= 1"}`, nil},
		{"B read by a guard", `transitions:
- {from: A, to: M}
- {from: M, to: B}
- {from: C, to: A, guard: "#B = 0"}`, nil},
		{"B read by a group counter", `transitions:
- {from: A, to: M}
- {from: M, to: B}
properties: {p: "AG #B[q] = 0"}`, nil},
		{"M -> B guarded", `transitions:
- {from: A, to: M}
- {from: M, to: B, guard: "x = 0"}`, nil},
		{"M -> B updates", `transitions:
- {from: A, to: M}
- {from: M, to: B, update: "x := x + 1"}`, nil},
		{"M -> B of one group", `transitions:
- {from: A, to: M}
- {from: M, to: B, guard: {p: "true"}}`, nil},
		{"two steps out of M", `transitions:
- {from: A, to: M}
- {from: M, to: B}
- {from: M, to: C}`, nil},
		{"a process starts in M", `transitions:
- {from: A, to: M}
- {from: M, to: B}
properties: {p: "AG #A <= 1"}`, nil},
		{"B a broadcast's source", `transitions:
- {from: A, to: M}
- {from: M, to: B}
- {from: C, to: A, broadcast: ["B -> A"]}`, nil},
		{"M a rendezvous part", `transitions:
- {from: A, to: M}
- {from: M, to: B}
rendezvous:
- parts: [{from: C, to: A}, {from: A, to: M}]`, nil},
		{"entered from its target", `transitions:
- {from: B, to: M}
- {from: M, to: B}
- {from: A, to: B}`, nil},
		{"weak fairness", `transitions:
- {from: A, to: M}
- {from: M, to: B}
fairness:
  weak: [M -> B]`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := head + tc.rest + "\n"
			if tc.name == "a process starts in M" {
				src = strings.Replace(src, "init: {p: A, q: C}", "init: {p: M, q: C}", 1)
			}
			sys, err := gsst.Parse("absorb.yaml", []byte(src))
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			out, into, ok, err := sys.AbsorbSteps()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				if tc.want != nil {
					t.Fatalf("nothing absorbed, want %v", tc.want)
				}
				return
			}
			var got []string
			for _, m := range slices.Sorted(maps.Keys(into)) {
				got = append(got, sys.States[m]+"->"+sys.States[into[m]])
			}
			var trans []string
			for _, tr := range out.Transitions {
				trans = append(trans, fmt.Sprintf("%s->%s %s", out.States[tr.From], out.States[tr.To], tr.Name))
			}
			slices.Sort(trans)
			got = append(got, trans...)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if len(out.States) != len(sys.States) {
				t.Errorf("%d states, want those of the system, %d", len(out.States), len(sys.States))
			}
		})
	}
}

// TestAbsorbChain: of a chain A -> M1 -> M2 -> B, the state whose target
// is absorbed stays; the system asked again absorbs it.
func TestAbsorbChain(t *testing.T) {
	sys, err := gsst.Parse("chain.yaml", []byte(`states: [A, M1, M2, B]
groups: {p: 1..}
init: A
transitions:
- {from: A, to: M1}
- {from: M1, to: M2}
- {from: M2, to: B}
properties: {p: "AG #A >= 0"}
`))
	if err != nil {
		t.Fatal(err)
	}
	once, into, ok, err := sys.AbsorbSteps()
	if err != nil || !ok || len(into) != 1 || into[2] != 3 {
		t.Fatalf("absorbed %v (ok %v, %v), want M2 into B", into, ok, err)
	}
	_, into, ok, err = once.AbsorbSteps()
	if err != nil || !ok || len(into) != 1 || into[1] != 3 {
		t.Fatalf("then absorbed %v (ok %v, %v), want M1 into B", into, ok, err)
	}
}
