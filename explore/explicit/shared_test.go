package explicit_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/progress"
)

// TestUnboundedShared: a shared variable without a greatest value is
// explored while the states are finite; when they are not, the state
// limit stops the search and its error says why.
func TestUnboundedShared(t *testing.T) {
	build := func(limit bool) *gsst.System {
		sp := &gsst.Spec{Name: "count", States: []string{"A", "B"}, Groups: []gsst.Group{{Name: "p", Size: 2}}, Init: [][]int{{2, 0}}}
		sp.Shared = []gsst.Shared{{Name: "sent", Unbounded: true}}
		sent := presburger.VarTerm(sp.SharedVar(0))
		guard := presburger.Formula(presburger.True)
		if limit {
			guard = presburger.Compare(sent, presburger.Lt, presburger.ConstTerm(5))
		}
		inc := gsst.Update{Assign: []gsst.Assign{{Var: sp.SharedVar(0), Value: sent.Add(presburger.ConstTerm(1))}}, Text: "sent := sent + 1"}
		sp.Transitions = []gsst.Transition{
			{From: 0, To: 1, Blocks: []gsst.Block{{Groups: []int{0}, Guard: guard, Update: inc}}},
			{From: 1, To: 0, Blocks: []gsst.Block{{Groups: []int{0}, Guard: presburger.True}}},
		}
		sys, err := gsst.New(sp)
		if err != nil {
			t.Fatal(err)
		}
		return sys
	}
	m, err := counterabs.BuildGroup(build(true))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explicit.Engine{}.Check(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	// sent = 0..5, and #B in 0..2 with #B <= sent (each process in B
	// got there by an increment): 1+2+3+3+3+3 states.
	if got := rep.ReachableStates.Int64(); got != 15 {
		t.Errorf("%d states, want 15", got)
	}
	m, err = counterabs.BuildGroup(build(false))
	if err != nil {
		t.Fatal(err)
	}
	// The search stops at the state limit, having said which variable
	// keeps growing (explore.Growth): at once, through a progress event,
	// and in the limit's error.
	var noted []string
	_, err = explicit.Engine{}.Check(context.Background(), m, explore.MaxStates(1000), explore.OnProgress(0, func(ev progress.Event) {
		if ev.Note != "" && len(noted) == 0 {
			noted = append(noted, ev.Note)
		}
	}))
	var le *explore.LimitError
	if !errors.As(err, &le) || le.Kind != "states" || le.Limit != 1000 || le.Growth == nil || le.Growth.Var != "sent" || le.Growth.Reached <= explore.GrowthBound(m, 0) {
		t.Errorf("unbounded search: %v, want a state limit naming sent's growth", err)
	}
	if len(noted) == 0 || !strings.Contains(noted[0], "shared variable sent keeps growing") {
		t.Errorf("progress notes %q, want sent's growth", noted)
	}
	// With a bound, a step beyond it stops the search.
	_, err = explicit.Engine{}.Check(context.Background(), m, explore.Bound(10))
	if !errors.As(err, &le) || le.Kind != "bound" || le.Limit != 10 || le.Growth == nil || le.Growth.Var != "sent" {
		t.Errorf("bounded search: %v, want a bound limit on sent", err)
	}
}

// TestSharedFairness: justice conditions and weak fairness over a system
// with a shared variable, known answers. A process may loop A -> C -> A
// forever without ever setting flag (A -> B sets it, B -> A clears it):
// AF flag fails; infinitely often flag (justice) or weak fairness of
// A -> B, which is enabled in A, makes it hold.
func TestSharedFairness(t *testing.T) {
	src := `name: flag
shared:
  flag: {type: bool, init: false}
states: [A, B, C]
groups: {p: 1}
init: A
transitions:
  - {from: A, to: B, update: "flag := true"}
  - {from: B, to: A, update: "flag := false"}
  - {from: A, to: C}
  - {from: C, to: A}
properties:
  eventually: "AF flag"
`
	for _, c := range []struct {
		fairness string
		want     bool
	}{
		{"", false},
		{"fairness:\n  justice: [\"flag\"]\n", true},
		{"fairness:\n  weak: [\"A -> B\"]\n", false}, // A -> B is not enabled in C: the loop meets weak fairness
		{"fairness:\n  justice: [\"#B = 1 | #C = 1\"]\n", false},
	} {
		sys, err := gsst.Parse("flag.yaml", []byte(src+c.fairness))
		if err != nil {
			t.Fatal(err)
		}
		total := func(sys *gsst.System) (*counterabs.Model, error) {
			return counterabs.Build(context.Background(), sys, z3.New(), z3.New())
		}
		group := func(sys *gsst.System) (*counterabs.Model, error) { return counterabs.BuildGroup(sys) }
		for _, build := range []func(*gsst.System) (*counterabs.Model, error){group, total} {
			m, err := build(sys)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := explicit.Engine{}.Check(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Properties[0].Holds; got != c.want {
				t.Errorf("%s model, %q: AF flag %v, want %v", m.Level, c.fairness, got, c.want)
			}
		}
	}
}
