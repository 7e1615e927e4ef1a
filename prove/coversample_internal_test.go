package prove

import (
	"context"
	"testing"

	"github.com/vsym/vsym/presburger"
)

// TestSampleLeastWhole checks that the sample holds every reachable
// state of the least instance when least allows, however small limit
// is, and no more than limit states of the larger ones: the count is
// that of the breadth-first search of the instance, an independent
// exploration of the model.
func TestSampleLeastWhole(t *testing.T) {
	m := groupModel(t, "ring.yaml", `name: ring
states: [A, B, C, D]
groups: {p: 3..}
init: A
transitions:
- {from: A, to: B}
- {from: B, to: C, guard: "#B >= 2"}
- {from: C, to: D}
- {from: D, to: A, guard: "#C >= 1"}
properties: {p: "AG #D <= 5"}
`)
	ts := m.TransitionSystem().Question(presburger.Negation(presburger.True))
	cs, ok := monotoneSystem(m, ts, linearInvariants(m, nil))
	if !ok {
		t.Fatal("the ring is not monotone")
	}
	ctx := context.Background()
	least := smallInstances(m, ts)[0]
	budget := 1000
	inst := bfs(ctx, m, ts, least, &budget)
	if !inst.complete || len(inst.reached) < 10 {
		t.Fatalf("the least instance: %d states, complete %v: too few to test", len(inst.reached), inst.complete)
	}
	var spent int64
	smp := cs.sample(ctx, 1, 1000, 2, &spent)
	if len(smp.states) != len(inst.reached) {
		t.Errorf("sample with room for the least instance: %d states, want its %d", len(smp.states), len(inst.reached))
	}
	smp = cs.sample(ctx, 1, 5, 2, &spent)
	if len(smp.states) != 5 {
		t.Errorf("sample with room for 5 states of the least instance: %d states", len(smp.states))
	}
	smp = cs.sample(ctx, 1, 2, len(inst.reached)+3, &spent)
	if len(smp.states) != len(inst.reached)+3 {
		t.Errorf("sample of %d states over two instances: %d states", len(inst.reached)+3, len(smp.states))
	}
}
