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
