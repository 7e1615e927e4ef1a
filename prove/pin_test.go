package prove_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestPinnedParams: a family whose assumption pins its parameter (k = 2)
// is asked with the parameter fixed (gsst's PinParams): a property that
// holds is proved, one that fails is refuted at an instance with k = 2,
// replayed (the model's ranges keep a fixed parameter at its value:
// without it the run came at k = 0, and the replay failed with an
// internal error), and the model's reason names the value.
func TestPinnedParams(t *testing.T) {
	sys, err := gsst.Parse("pinned.yaml", []byte(`name: pinned
params: [k]
assume: "k = 2"
states: [N, T, C]
groups:
  p: "1.."
  q: k
init: N
shared:
  lock: {type: "0..", init: 0}
transitions:
  - {from: N, to: T}
  - {from: T, to: C, guard: "lock < k", update: "lock := lock + 1"}
  - {from: C, to: N, update: "lock := lock - 1"}
properties:
  holds: "AG #C <= k"
  fails: "AG #C <= k - 1"
`))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	rep, err := prove.Check(context.Background(), sys, s, s)
	if err != nil {
		t.Fatal(err)
	}
	if rep.System != sys {
		t.Errorf("the report is of another system than the one asked")
	}
	for _, r := range rep.Results {
		want := map[string]prove.Verdict{"holds": prove.Proved, "fails": prove.Refuted}[r.Property.Name]
		if r.Verdict != want {
			t.Errorf("%s: %v (%s), want %v", r.Property.Name, r.Verdict, r.Reason, want)
		}
		if !strings.Contains(r.LevelReason, "k = 2 read as the assumption pins them") {
			t.Errorf("%s: the model's reason %q does not name the pinned value", r.Property.Name, r.LevelReason)
		}
		// The answers are carried to the family as written: the
		// invariant re-checked on its model (and again here), the run
		// replayed on its instance.
		switch {
		case r.Verdict == prove.Proved && strings.Contains(r.LevelReason, "the invariant re-checked on the family as written"):
			checkAsWritten(t, context.Background(), s, 0, sys, 0, r)
		case r.Verdict == prove.Refuted && strings.Contains(r.LevelReason, "the run replayed on the family as written"):
			if len(r.Params) != 1 || r.Params[0] != 2 || r.Instance == nil || len(r.Instance.Params) != 0 && r.Instance.Params[0].Value != 2 {
				t.Errorf("%s: refuted at %v, want k = 2", r.Property.Name, r.Params)
			}
		default:
			t.Errorf("%s: %v not carried to the family as written (%s)", r.Property.Name, r.Verdict, r.LevelReason)
		}
		if r.Property != &sys.Properties[0] && r.Property != &sys.Properties[1] {
			t.Errorf("%s: the result's property is not the system's", r.Property.Name)
		}
	}
}

// TestNarrowedIntoAssumption: a premise's conjunct on a shared variable
// that starts at a parameter's value ("x = 0" on x with "init: x_0") is
// folded into the assumption (x_0 = 0, which pins x_0: narrow.go): the
// properties are decided, each answer carried to the system as written
// (the invariant re-checked from the premise, with the parameter's
// value stated; the run replayed on its instance), the report's scope
// is the system's own assumption (TestProveInitialSetsRandom checks such
// premises against exploration).
func TestNarrowedIntoAssumption(t *testing.T) {
	sys, err := gsst.Parse("narrowparam.yaml", []byte(`name: narrowparam
params: [x_0, y_0]
assume: "x_0 >= 0 & y_0 >= 0"
states: [S]
groups: {net: 1}
init: S
shared:
  x: {type: "0..", init: x_0}
  y: {type: "0..", init: y_0}
transitions:
  - {name: pass, from: S, to: S, guard: "x >= 1", update: "x := x - 1; y := y + 1"}
  - {name: fill, from: S, to: S, guard: "x = 0 & y < x_0", update: "y := y + 1"}
properties:
  stays: "x = 0 & y = 0 -> AG y = 0"
  moves: "y = 0 -> AG y = 0"
  bounded: "x <= 2 & y = 0 -> AG y <= 2"
  over: "x >= 3 & y = 0 -> AG y <= 2"
`))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	ctx := context.Background()
	rep, err := prove.Check(ctx, sys, s, s)
	if err != nil {
		t.Fatal(err)
	}
	if want := "every x_0, y_0 satisfying x_0 >= 0 & y_0 >= 0"; rep.Scope != want {
		t.Errorf("scope %q, want the system's, %q", rep.Scope, want)
	}
	for k, r := range rep.Results {
		want := map[string]prove.Verdict{"stays": prove.Proved, "moves": prove.Refuted, "bounded": prove.Proved, "over": prove.Refuted}[r.Property.Name]
		if r.Verdict != want {
			t.Fatalf("%s: %v (%s), want %v", r.Property.Name, r.Verdict, r.Reason, want)
		}
		switch {
		case r.Verdict == prove.Proved && strings.Contains(r.LevelReason, "the invariant re-checked on the system as written"):
			checkAsWritten(t, ctx, s, 0, sys, k, r)
		case r.Verdict == prove.Refuted && strings.Contains(r.LevelReason, "the run replayed on the system as written"):
		default:
			t.Errorf("%s: %v not carried to the system as written (%s)", r.Property.Name, r.Verdict, r.LevelReason)
		}
		if !strings.Contains(r.LevelReason, "the premise's part that the initial set states") {
			t.Errorf("%s: the premise was not folded (%s)", r.Property.Name, r.LevelReason)
		}
	}
}
