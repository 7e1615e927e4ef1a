package explore_test

import (
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
)

// The tests of this directory check the contract across engines: the
// conclusions drawn on forced models, the shapes of explanations, the
// bundled audits, NuSMV's verdicts. Each engine's own conformance suite
// is explore/enginetest, run by its package's tests.

// engines are the engines every verdict is checked with.
func engines() []explore.Engine {
	reach := symbolic.DefaultBDD()
	reach.ReachFirst = true
	return []explore.Engine{explicit.Engine{}, symbolic.DefaultBDD(), reach}
}

// engineOptions are the options each of engines() runs with: the BDD
// engine without reachable states is asked for the deadlock check.
var engineOptions = [][]explore.Option{nil, {explore.CountStates(false), explore.CheckDeadlocks(true)}, nil}

// enginesFor returns the indices into engines() that random system k is
// checked with: the explicit engine always, and one of the two BDD
// settings in turn (the BDD engine costs most on tiny models).
func enginesFor(k int) []int { return []int{0, 1 + k%2} }
