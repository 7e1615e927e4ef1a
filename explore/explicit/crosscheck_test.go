package explicit

import (
	"testing"

	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// The cross-checks of this package against the oracles of
// internal/testsupport: the engine's report on a model is compared with
// a naive graph of the same model (the group quotient of the unreduced
// system for the group-counter model, the total quotient for a certified
// total-counter model, the existential abstraction for a forced one).

// bruteModel is enginetest.BruteModel.
var bruteModel = enginetest.BruteModel

// traceStats counts what the random tests checked, so a test that
// silently checks nothing fails.
type traceStats struct {
	enginetest.Stats
	forcedLifted, forcedFailed int // traces of uncertified models
}

var (
	abstractKey = enginetest.TotalKey
	concreteKey = enginetest.GroupKey
)

// checkCounts compares the reachable states, deadlocks and deadlock
// examples of rep with graph g.
func checkCounts(t *testing.T, mode string, rep *explore.Report, g *testsupport.Graph, key func(explore.State) string) {
	t.Helper()
	if got, want := rep.ReachableStates.Int64(), int64(g.Len()); got != want {
		t.Errorf("%s: %d reachable states, oracle %d", mode, got, want)
	}
	if got, want := rep.Deadlocks.Int64(), int64(g.Deadlocks()); got != want {
		t.Errorf("%s: %d deadlocks, oracle %d", mode, got, want)
	}
	for _, s := range rep.DeadlockExamples {
		if i, ok := g.Index[key(s)]; !ok || !g.Dead[i] {
			t.Errorf("%s: deadlock example %v is not a reachable deadlock", mode, s)
		}
	}
}

// checkVerdicts is enginetest.CheckVerdicts with the explicit engine's
// promise that every path segment is shortest from where it starts.
func checkVerdicts(t *testing.T, mode string, sys *gsst.System, rep *explore.Report, truth, g *testsupport.Graph, key func(explore.State) string, st *traceStats) {
	t.Helper()
	enginetest.CheckVerdicts(t, mode, sys, rep, truth, g, key, testsupport.FromStart, &st.Stats)
}
