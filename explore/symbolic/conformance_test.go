package symbolic_test

import (
	"testing"

	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/explore/symbolic"
)

// TestConformance runs the engines' conformance suite (the corpus, the
// unreduced random systems, the fair-CTL oracle) on the BDD engine in
// its two ways of deciding: backwards over the whole encoding, asked for
// the deadlock check but not for counts, and over the reachable states
// first (what the default options, which ask for counts, make it do).
func TestConformance(t *testing.T) {
	t.Run("backward", func(t *testing.T) {
		enginetest.Conformance(t, symbolic.DefaultBDD(), explore.CountStates(false), explore.CheckDeadlocks(true))
	})
	t.Run("reachable-first", func(t *testing.T) {
		enginetest.Conformance(t, symbolic.DefaultBDD())
	})
}

// TestConformanceExtended runs the suite beyond the paper (shared
// variables with updates, broadcast, rendezvous, folded parameters) on
// the BDD engine in its two ways of deciding, against the process-level
// reference semantics.
func TestConformanceExtended(t *testing.T) {
	t.Run("backward", func(t *testing.T) {
		enginetest.ConformanceExtended(t, symbolic.DefaultBDD(), explore.CountStates(false), explore.CheckDeadlocks(true))
	})
	t.Run("reachable-first", func(t *testing.T) {
		enginetest.ConformanceExtended(t, symbolic.DefaultBDD())
	})
}
