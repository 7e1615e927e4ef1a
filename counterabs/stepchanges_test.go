package counterabs

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// TestStepChangesRandom evaluates each step of the group-counter models
// of random systems (every construct: rendezvous, broadcast transfers,
// assignments) at random states, and checks StepChanges against the
// step done by hand on the values: each mover's counter one less at its
// source and one more at its target, each transfer moving the others
// in its source (not the movers that left it) to its target, each
// assignment its value. A variable StepChanges does not list keeps its
// value, the listed ones are in increasing order and each changes its
// variable's term, and Stutters says whether the list is empty.
func TestStepChangesRandom(t *testing.T) {
	r := rand.New(rand.NewSource(33))
	steps := 0
	for i := range 150 {
		cfg := testsupport.Small(0, testsupport.AllConstructs)
		cfg.MaxStates, cfg.MaxGroups, cfg.MaxTransitions = 4, 3, 4
		cfg.Family = i%2 == 0
		sys := testsupport.RandomSystem(r, cfg)
		m, err := BuildParamGroup(sys)
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		for k := range m.Transitions {
			tr := &m.Transitions[k]
			changes := m.StepChanges(tr)
			if m.Stutters(tr) != (len(changes) == 0) {
				t.Fatalf("system %d, %s: Stutters %v with %d changes", i, m.TransitionName(tr), m.Stutters(tr), len(changes))
			}
			for j, c := range changes {
				if j > 0 && c.Index <= changes[j-1].Index {
					t.Fatalf("system %d, %s: changes out of order: %v", i, m.TransitionName(tr), changes)
				}
				if c.Next.IsVar(m.StateVar(c.Index)) {
					t.Fatalf("system %d, %s: variable %d listed unchanged", i, m.TransitionName(tr), c.Index)
				}
			}
			for range 5 {
				val := make([]int64, m.NumVars())
				for v := range val {
					val[v] = int64(r.Intn(4))
				}
				at := func(v presburger.Var) int64 { return val[v] }
				// The step by hand.
				want := make([]int64, m.NumState())
				for v := range want {
					want[v] = val[m.StateVar(v)]
				}
				leaving := map[int]int64{}
				for _, mv := range tr.Moves() {
					want[mv.From]--
					want[mv.To]++
					leaving[mv.From]++
				}
				for _, x := range tr.Transfers {
					others := val[x.From] - leaving[x.From]
					want[x.From] -= others
					want[x.To] += others
				}
				for _, a := range tr.Assign {
					v, ok := a.Value.Value(at)
					if !ok {
						t.Fatalf("system %d: %s does not evaluate", i, a.Value.Format(m.VarName))
					}
					want[len(m.Counters)+a.Var-int(m.SharedVar(0))] = v
				}
				got := make([]int64, m.NumState())
				for v := range got {
					got[v] = val[m.StateVar(v)]
				}
				for _, c := range changes {
					v, ok := c.Next.Value(at)
					if !ok {
						t.Fatalf("system %d: %s does not evaluate", i, c.Next.Format(m.VarName))
					}
					got[c.Index] = v
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("system %d, %s at %v: StepChanges gives %v, the step by hand %v\n%s", i, m.TransitionName(tr), val, got, want, testsupport.Describe(sys))
				}
			}
			steps++
		}
	}
	if steps < 300 {
		t.Fatalf("only %d steps checked", steps)
	}
}
