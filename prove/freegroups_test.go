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

// TestFreeGroupsTampered checks that a certificate of the system with
// the group lists no run reads dropped (sameruns.go) is reported of
// the system as written only when it is one there: carried as found,
// the safety invariant and the liveness certificate are re-checked on
// the model as written; tampered with (the invariant made true, every
// rank made a constant), the re-check rejects them and the property is
// left to be asked again as written.
func TestFreeGroupsTampered(t *testing.T) {
	const src = `name: ctltamper
states: [A, B, V0, V1]
groups: {proc: 1.., ctl: 1}
init: {proc: A, ctl: V0}
transitions:
  - {name: t0, from: A, to: B, guard: "#V1 = 0"}
  - {name: c1, from: V1, to: V0, guard: {ctl: "true"}}
rendezvous:
  - parts: [{from: A, to: B}, {from: V0, to: V1, groups: [ctl]}]
properties:
  s: "AG !(#V0 >= 1 & #V1 >= 1)"
  l: "AF #A = 0"
fairness:
  justice: ["#V1 = 0"]
`
	sys, err := gsst.Parse("ctltamper.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	ctx := context.Background()
	invariantTrue := func(r *prove.Result) { r.Invariant = presburger.True }
	tests := []struct {
		name   string
		index  int
		tamper func(*prove.Result)
		want   bool
	}{
		{"safety as found", 0, func(*prove.Result) {}, true},
		{"safety invariant true", 0, invariantTrue, false},
		{"liveness as found", 1, func(*prove.Result) {}, true},
		{"liveness ranks constant and invariant true", 1, ranksConstant, false},
	}
	for _, tc := range tests {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			r, ok, err := prove.CarryFreed(ctx, sys, s, s, tc.index, tc.tamper)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.want {
				t.Fatalf("carried %v, want %v (%v: %s)", ok, tc.want, r.Verdict, r.LevelReason)
			}
		})
	}
}
