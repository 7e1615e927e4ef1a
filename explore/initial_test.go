package explore_test

import (
	"context"
	"errors"
	"math/rand"
	"reflect"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/internal/testsupport"
)

// TestInitialSetsDecompose checks both engines on systems with several
// initial configurations (groups spread over initial states, shared
// variables starting in a range) against the same systems taken one
// initial configuration at a time (testsupport.EachInitial, which lists
// them apart from gsst): a property holds exactly when it holds from
// each, a deadlock is reachable exactly when one is from some, and a
// trace starts in one of them.
func TestInitialSetsDecompose(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(30))
	cfg := testsupport.Small(testsupport.InitialSets, testsupport.SharedVars)
	cfg.Properties = 3
	// Unbounded shared variables may grow forever: such systems stop at
	// maxStates and are skipped.
	const maxStates = 5000
	runs, multi, failing, skipped := 0, 0, 0, 0
	for k := 0; k < 60; k++ {
		sys := testsupport.RandomSystem(r, cfg)
		if sys.SingleInitial() {
			t.Fatalf("system %d: InitialSets drew one initial configuration", k)
		}
		ones, err := testsupport.EachInitial(sys)
		if err != nil {
			t.Fatalf("system %d: %v", k, err)
		}
		m, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatalf("system %d: %v", k, err)
		}
		if len(m.Starts()) > 1 {
			multi++
		}
		// The verdicts from each initial configuration, by the
		// explicit engine on a model with one initial state.
		want := make([]bool, len(sys.Properties))
		for i := range want {
			want[i] = true
		}
		wantDead, limited := false, false
		for _, one := range ones {
			om, err := counterabs.BuildGroup(one)
			if err != nil {
				t.Fatalf("system %d: %v", k, err)
			}
			if len(om.Starts()) != 1 {
				t.Fatalf("system %d: a system of one initial configuration has %d initial states", k, len(om.Starts()))
			}
			rep, err := explicit.Engine{}.Check(ctx, om, explore.CheckDeadlocks(true), explore.MaxStates(maxStates))
			if errors.Is(err, errkind.Limit) {
				limited = true
				break
			}
			if err != nil {
				t.Fatalf("system %d: %v", k, err)
			}
			for i, p := range rep.Properties {
				want[i] = want[i] && p.Holds
			}
			wantDead = wantDead || (rep.DeadlockFree != nil && !*rep.DeadlockFree)
		}
		if limited {
			skipped++
			continue
		}
		for ei, eng := range engines() {
			opts := append([]explore.Option{explore.CheckDeadlocks(true), explore.MaxStates(maxStates)}, engineOptions[ei]...)
			rep, err := eng.Check(ctx, m, opts...)
			if errors.Is(err, errkind.Limit) {
				// Each initial configuration's space fits, but not
				// their union.
				continue
			}
			if err != nil {
				t.Fatalf("system %d, engine %d: %v", k, ei, err)
			}
			runs++
			for i, p := range rep.Properties {
				if p.Holds != want[i] {
					t.Errorf("system %d, engine %d: property %s holds = %v, but %v from each initial configuration\n%s",
						k, ei, sys.Properties[i].Text, p.Holds, want[i], testsupport.Describe(sys))
				}
				if !p.Holds {
					failing++
				}
				if tr := p.Trace; tr != nil && len(tr.States) > 0 && !startsInitially(m, tr.States[0]) {
					t.Errorf("system %d, engine %d: the trace of %s starts in %v, no initial state", k, ei, sys.Properties[i].Name, tr.States[0])
				}
			}
			if rep.DeadlockFree != nil && !*rep.DeadlockFree != wantDead {
				t.Errorf("system %d, engine %d: deadlock reachable = %v, from some initial configuration %v", k, ei, !*rep.DeadlockFree, wantDead)
			}
		}
	}
	if multi < 30 || failing == 0 || runs < 60 || skipped > 20 {
		t.Fatalf("only %d of the models had several initial states, %d failing verdicts in %d runs, %d systems skipped at the state limit", multi, failing, runs, skipped)
	}
}

// startsInitially reports whether s is one of m's initial states.
func startsInitially(m *counterabs.Model, s explore.State) bool {
	for _, x := range m.Starts() {
		if reflect.DeepEqual(explore.CounterState(m, x), s) {
			return true
		}
	}
	return false
}
