package prove

import (
	"testing"
)

// TestMonotoneAtom: the guards' bounds that stay passed once passed
// (threshold lemmas over counters): a sum of states that no step
// lowers, read as a lower bound, and a count that no step raises, read
// as an upper bound; not a count that steps both raise and lower, nor
// a bound the wrong way round.
func TestMonotoneAtom(t *testing.T) {
	m := groupModel(t, "m.yaml", `name: m
states: [V0, V1, SE, AC]
groups: {p: 1..}
init: [V0, V1]
transitions:
  - {from: V1, to: SE}
  - {from: V0, to: SE, guard: "#SE + #AC >= 2"}
  - {from: SE, to: AC, guard: "#SE + #AC >= 3 & #V0 + #V1 <= 1"}
  - {from: AC, to: SE, guard: "#SE >= 1 & #SE + #AC <= 5"}
`)
	got := map[string]bool{}
	for i := range m.Transitions {
		for _, a := range guardAtoms(m.Transitions[i].Guard) {
			got[m.FormatFormula(a)] = monotoneAtom(m, a)
		}
	}
	want := map[string]bool{
		"#SE[p] + #AC[p] >= 2": true, // no step lowers the sum
		"#SE[p] + #AC[p] >= 3": true,
		"#V0[p] + #V1[p] <= 1": true,  // no step raises it
		"#SE[p] >= 1":          false, // AC -> SE raises it, SE -> AC lowers it
		"#SE[p] + #AC[p] <= 5": false, // an upper bound on a rising sum
	}
	for text, w := range want {
		if g, ok := got[text]; !ok || g != w {
			t.Errorf("%s: monotone %v (present %v), want %v; atoms %v", text, g, ok, w, got)
		}
	}
}
