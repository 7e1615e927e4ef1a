package gsst_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/vsym/vsym/gsst"
)

// TestFreeGroups checks which lists FreeGroups drops: the controller's
// part and block out of its own states, a block of proc (a group of
// many processes) out of a state only proc enters, and the blocks of
// groups never in a transition's source; not a transfer naming proc,
// nor a part naming the controller out of a state proc enters too, nor
// anything under weak fairness.
func TestFreeGroups(t *testing.T) {
	const src = `
states: [A, B, V0, V1, W]
groups: {proc: 1.., ctl: 1}
init: {proc: A, ctl: V0}
transitions:
  - {from: A, to: B, guard: {proc: "#V1 = 1"}, broadcast: ["B -> A [proc]"]}
  - {from: V1, to: V0, guard: {ctl: "#B = 0"}}
  - {from: B, to: A}
  - {from: B, to: W, guard: {proc: "#A = 0", ctl: "#B = 0"}}
  - {from: W, to: A, guard: {proc: "#A = 0", ctl: "#B = 1"}}
rendezvous:
  - parts: [{from: A, to: B}, {from: V0, to: V1, groups: [ctl]}]
  - parts: [{from: B, to: A}, {from: A, to: A, groups: [ctl]}]
properties:
  p: "AG #B <= 5"
`
	sys, err := gsst.Parse("ctl.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	free, ok, err := sys.FreeGroups()
	if err != nil || !ok {
		t.Fatalf("FreeGroups: %v, %v", ok, err)
	}
	// A transfer and a part keep their lists naming proc: a block of
	// proc keeps its own, and the blocks of ctl out of B and W stay.
	if got := free.Transitions[0].Blocks[0].Groups; len(got) != 1 {
		t.Errorf("block of A -> B: groups %v, want [0] (a transfer keeps its list naming proc)", got)
	}
	for _, i := range []int{3, 4} {
		if got := free.Transitions[i].Blocks; len(got) != 2 {
			t.Errorf("blocks of transition %d: %v, want both", i, got)
		}
	}
	if got := free.Transitions[0].Broadcast[0].Groups; len(got) != 1 {
		t.Errorf("transfer B -> A: groups %v, want [0]", got)
	}
	if got := free.Transitions[1].Blocks[0].Groups; len(got) != 2 {
		t.Errorf("block of V1 -> V0: groups %v, want [0 1]", got)
	}
	if got := free.Rendezvous[0].Parts[1].Groups; got != nil {
		t.Errorf("part V0 -> V1: groups %v, want none", got)
	}
	if got := free.Rendezvous[1].Parts[1].Groups; len(got) != 1 {
		t.Errorf("part A -> A naming ctl: groups %v, want [1] (proc enters A)", got)
	}
	if len(free.Steps()) != len(sys.Steps()) {
		t.Errorf("%d steps, want %d", len(free.Steps()), len(sys.Steps()))
	}

	// Without lists on parts and transfers: a block of proc out of a
	// state only proc enters goes, and so do the blocks and the
	// transitions of groups never in their source.
	perGroup, err := gsst.Parse("pergroup.yaml", []byte(`
states: [A, B, W]
groups: {proc: 1.., other: 1..}
init: {proc: A, other: W}
transitions:
  - {from: A, to: B, guard: {proc: "#B <= n - 1"}}
  - {name: back, from: B, to: A, guard: {proc: "#A = 0", other: "#B = 0"}}
  - {name: never, from: B, to: A, guard: {other: "#A = 0"}}
  - {from: W, to: W, guard: {other: "#A >= 1"}}
properties:
  p: "AG #B <= 5"
`))
	if err != nil {
		t.Fatal(err)
	}
	free, ok, err = perGroup.FreeGroups()
	if err != nil || !ok {
		t.Fatalf("FreeGroups: %v, %v", ok, err)
	}
	var got []string
	for _, tr := range free.Transitions {
		got = append(got, fmt.Sprintf("%s->%s %v %q", free.States[tr.From], free.States[tr.To], tr.Blocks[0].Groups, tr.Blocks[0].Text))
	}
	if want := []string{`A->B [0 1] "#B <= n - 1"`, `B->A [0 1] "#A = 0"`, `W->W [0 1] "#A >= 1"`}; !slices.Equal(got, want) {
		t.Errorf("transitions %q, want %q", got, want)
	}

	weak, err := gsst.Parse("weak.yaml", []byte(src+"fairness:\n  weak: [\"B -> A\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := weak.FreeGroups(); ok {
		t.Errorf("FreeGroups dropped lists under weak fairness")
	}
}
