package symbolic

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
)

// Tiny specs on which the BDD engine, deciding backwards over every
// vector of the encoding, ran for minutes while their reachable states
// are one or a handful (issue 26): group-restricted rendezvous under
// EG, and weak fairness per group.
const (
	rendezvousEG = `name: rdv-eg
states: [S0, S1, S2, S3]
groups: {g1: 2, g2: 2, g3: 2}
shared:
  v1: {type: 0..3, init: 0}
init: S0
transitions:
  - {from: S1, to: S2}
  - {from: S3, to: S1, guard: "#S2 >= 1"}
rendezvous:
  - parts: [{from: S1, to: S2, groups: [g1]}, {from: S2, to: S3, groups: [g2]}]
    update: "v1 := 3 - v1"
  - parts: [{from: S3, to: S0, groups: [g3]}, {from: S2, to: S1, groups: [g1, g2]}]
properties:
  p: "EG (v1 != #S1)"
`
	weakOne = `name: weak-one
states: [S0, S1, S2]
groups: {a: 2, b: 3, c: 2}
init: S0
transitions:
  - {from: S2, to: S0}
  - {from: S1, to: S2, guard: "#S0 = 0"}
  - {from: S0, to: S1, guard: "#S2 >= 1"}
fairness:
  weak:
    - "S2 -> S0 [*]"
properties:
  p: "AG (#S0 >= 1)"
  q: "EF #S1 = 2"
`
)

// TestTinyWork: with the reachable states first when they come cheap
// (the default), the BDD engine decides the tiny specs within a small
// work budget, restricted to the reachable states, and as the explicit
// engine does; deciding backwards over the whole encoding, the same
// budget does not suffice (the rendezvous spec needs about 1.2 million
// nodes produced that way, against 1,400).
func TestTinyWork(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		budget    int
	}{{"rendezvous", rendezvousEG, 100_000}, {"weak", weakOne, 5_000}} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseGroup(t, tc.name+".yaml", []byte(tc.src))
			opts := []explore.Option{explore.CountStates(false), explore.MaxWork(tc.budget)}
			rep, err := DefaultBDD().Check(context.Background(), m, opts...)
			if err != nil {
				t.Fatalf("within %d nodes: %v", tc.budget, err)
			}
			if rep.Stats.Method != "reachable-first" {
				t.Errorf("method %s, want reachable-first", rep.Stats.Method)
			}
			want, err := explicit.Engine{}.Check(context.Background(), m, explore.CountStates(false))
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range rep.Properties {
				if p.Holds != want.Properties[i].Holds {
					t.Errorf("%s: %v, explicit engine %v", p.Name, p.Holds, want.Properties[i].Holds)
				}
			}
			backward := DefaultBDD()
			backward.Options = []Option{WithCheapReach(false)}
			if _, err := backward.Check(context.Background(), m, opts...); !errors.Is(err, ErrWork) {
				t.Errorf("backwards within %d nodes: %v, want ErrWork", tc.budget, err)
			}
		})
	}
}

// wide is a spec whose update multiplies a wide integer: the encoding
// of k' = 1000000000*k recurses over exponentially many partial sums,
// most of them constants that build no BDD node, so the interrupt that
// node constructions call never came, and the run ignored --timeout and
// --max-memory (issue 26). It must stop at either.
const wide = `name: wide
states: [A, B]
groups: {p: 2}
shared:
  k: {type: -1000000000..1000000000, init: 1}
init: A
transitions:
  - {from: A, to: B, guard: "k <= 1 & k >= -1", update: "k := 1000000000*k"}
  - {from: B, to: A}
properties:
  big: "EF k = 1000000000"
`

func TestWideIntegerStops(t *testing.T) {
	m := parseGroup(t, "wide.yaml", []byte(wide))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := DefaultBDD().Check(ctx, m); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("under a deadline: %v, want the context's error", err)
	}
	var lim *explore.LimitError
	runtime.GC()
	bound := int64(heapObjects()) + 32<<20
	if _, err := DefaultBDD().Check(context.Background(), m, explore.MaxMemory(bound)); !errors.As(err, &lim) || lim.Kind != "memory" {
		t.Errorf("under a memory bound: %v, want a memory *explore.LimitError", err)
	}
}
