package prove_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// ranksConstant tampers with the liveness certificate of r: its
// invariant made true, which no longer excludes the pending
// configurations where a run can stay, and every rank a constant. No
// re-check may pass it.
func ranksConstant(r *prove.Result) {
	live := *r.Live
	live.Invariant = presburger.True
	live.Ranks = nil
	for _, rank := range r.Live.Ranks {
		var out prove.Rank
		for _, rc := range rank {
			out = append(out, prove.RankCase{When: rc.When, Term: presburger.ConstTerm(0)})
		}
		live.Ranks = append(live.Ranks, out)
	}
	r.Live = &live
}

// TestMergeSumsLive checks that a liveness certificate of the system
// with a split counter merged (merge.go) is reported of the system as
// written only when it is one there: carried as found, it is re-checked
// on the liveness question as written and reads the pair through its
// sum, and its model is the one it was found on, without z, which
// nothing reads (a certificate read over the model with z names other
// variables); tampered with (every rank made a constant, or the invariant
// made true, which no longer excludes the pending configurations where
// a run can stay), the re-check rejects it and the property is asked
// again as written.
func TestMergeSumsLive(t *testing.T) {
	const src = `name: sumlive
params: [n]
assume: "n >= 1"
shared:
  x_a: {type: "0..", init: 0}
  x_b: {type: "0..", init: 0}
  z: {type: "0..", init: 0}
states: [A, B, C]
groups: {p: n}
init: A
transitions:
  - {name: ga, from: A, to: B, update: "x_a := x_a + 1"}
  - {name: gb, from: A, to: B, update: "x_b := x_b + 1"}
  - {name: done, from: B, to: C, guard: "x_a + x_b >= n", update: "z := z + 1"}
properties:
  l: "AF #C = n"
`
	sys, err := gsst.Parse("sumlive.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	ctx := context.Background()
	tests := []struct {
		name   string
		tamper func(*prove.Result)
		want   bool
	}{
		{"as found", func(*prove.Result) {}, true},
		{"ranks constant and invariant true", ranksConstant, false},
	}
	for _, tc := range tests {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			r, ok, err := prove.CarrySumsLive(ctx, sys, s, s, 0, tc.tamper)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.want {
				t.Fatalf("carried %v, want %v (%s; %s)", ok, tc.want, r.Reason, r.Live.InvariantText)
			}
			if ok && (!strings.Contains(r.Live.InvariantText, "x_a") && !strings.Contains(r.Live.InvariantText, "x_b") || strings.Contains(r.Live.InvariantText, "plus")) {
				t.Errorf("the carried invariant %q is not over the places of the system as written", r.Live.InvariantText)
			}
		})
	}
}
