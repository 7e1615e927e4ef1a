package explore

import (
	"fmt"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// An unbounded shared variable ("0..") may make the reachable states
// infinite, and then no search ends: it runs until a limit stops it.
// Every engine watches the values such a variable takes, and once one
// passes GrowthBound it says so at once, through a progress event with a
// Growth, and in the error of any limit that stops the search later, so
// that a user learns early which variable grows, how far it got, and
// what answers instead.

// Growth says that an unbounded shared variable of the model took a
// value beyond GrowthBound in the reachable states.
type Growth struct {
	Var     string // the variable's name
	Init    int64  // its initial value
	Reached int64  // the largest value found so far
}

// String says what the growth means and what answers instead.
func (g *Growth) String() string {
	return fmt.Sprintf("shared variable %s keeps growing (from %d to %d so far): the state space may be infinite; "+
		"vsym prove decides safety properties for every value, or give %s a bounded type (%s: {type: %d..K}), or explore up to a bound with --bound K",
		g.Var, g.Init, g.Reached, g.Var, g.Var, g.Init)
}

// GrowthBound returns the value of unbounded shared variable j of m
// (an index into m.Shared) beyond which an engine reports a Growth:
// four times the largest of its initial value, the number of processes
// and the constants of the model's guards and updates, and at least 64.
// A variable that counts processes or steps towards a constant of the
// spec stays below it; one that passes it grows with the length of the
// runs.
func GrowthBound(m *counterabs.Model, j int) int64 {
	v := &m.Shared[j]
	largest := max(int64(v.InitMax()), int64(m.N), 16, Constants(m))
	return int64(v.Lo) + 4*(largest-int64(v.Lo))
}

// Constants returns the largest absolute value of the constants of m's
// guards and updates.
func Constants(m *counterabs.Model) int64 {
	var largest int64
	for _, t := range m.Transitions {
		for c := range presburger.Atoms(t.Guard) {
			largest = max(largest, c.T.Const, -c.T.Const)
		}
		for _, a := range t.Assign {
			largest = max(largest, a.Value.Const, -a.Value.Const)
		}
	}
	return largest
}
