package prove_test

import (
	"context"
	"slices"
	"testing"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// barrier is a sense-reversing barrier for every number of processes:
// cnt counts the processes that arrived in the current phase, "cnt =
// #W1" while sense is false and "cnt = #W0" while it is true.
const barrier = `name: barrier
states: [A0, W1, A1, W0]
groups: {proc: 1..}
init: A0
shared:
  sense: {type: bool, init: false}
  cnt: {type: "0..", init: 0}
transitions:
  - {name: last1, from: A0, to: A1, guard: "cnt = n - 1", update: "cnt := 0; sense := true"}
  - {name: arrive1, from: A0, to: W1, guard: "cnt < n - 1", update: "cnt := cnt + 1"}
  - {name: leave1, from: W1, to: A1, guard: "sense"}
  - {name: last0, from: A1, to: A0, guard: "cnt = n - 1", update: "cnt := 0; sense := false"}
  - {name: arrive0, from: A1, to: W0, guard: "cnt < n - 1", update: "cnt := cnt + 1"}
  - {name: leave0, from: W0, to: A0, guard: "!sense"}
properties:
  phases: "AG !(#A0 >= 1 & #A1 >= 1)"
`

// TestSampleEqualities: the barrier's phases are proved for every size
// by the equalities its sampled reachable states satisfy in each value
// of sense (modehull.go), which no other kind of candidate states; with
// the default work bound, the prover alone ran out of work on it.
func TestSampleEqualities(t *testing.T) {
	sys, err := gsst.Parse("barrier.yaml", []byte(barrier))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := prove.Check(context.Background(), sys, z3.New(), z3.New(), prove.MaxWork(analysis.PropertyWork))
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if r.Verdict != prove.Proved {
		t.Fatalf("phases: %v (%s)", r.Verdict, r.Reason)
	}
	var got []string
	for _, l := range r.Lemmas {
		if l.Kind == "sample equality" {
			got = append(got, l.Text)
		}
	}
	slices.Sort(got)
	want := []string{"!sense | #A0 = 0", "!sense | cnt = #W0", "sense | #A1 = 0", "sense | cnt = #W1"}
	if !slices.Equal(got, want) {
		t.Errorf("sample equalities %q, want %q", got, want)
	}
}
