package symbolic_test

import (
	"testing"

	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
)

// TestConformance runs the engines' conformance suite (the corpus, the
// unreduced random systems, the fair-CTL oracle, the random systems with
// every construct on processes) on the BDD engine in
// its two ways of deciding: backwards over the whole encoding, asked for
// the deadlock check but not for counts, and over the reachable states
// first (what the default options, which ask for counts, make it do).
// Every report must be the explicit engine's, byte for byte but for the
// stats, counts and traces included.
func TestConformance(t *testing.T) {
	t.Run("backward", func(t *testing.T) {
		t.Parallel()
		enginetest.Suite{Engine: backward(), Options: []explore.Option{explore.CountStates(false), explore.CheckDeadlocks(true)}, Twin: explicit.Engine{}}.Run(t)
	})
	t.Run("reachable-first", func(t *testing.T) {
		t.Parallel()
		enginetest.Suite{Engine: symbolic.DefaultBDD(), Twin: explicit.Engine{}}.Run(t)
	})
}

// backward is the BDD engine deciding every property backwards, even
// where the reachable states come cheap.
func backward() symbolic.BDD {
	b := symbolic.DefaultBDD()
	b.Options = []symbolic.Option{symbolic.WithCheapReach(false)}
	return b
}
