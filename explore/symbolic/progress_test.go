package symbolic

import (
	"context"
	"testing"

	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/progress"
)

// TestProgressEvents: the BDD engine reports its phases in order
// (encoding, reachable states, deadlocks, each property k of N) with its
// name, and within a phase a growing count of fixpoint iterations and
// the BDD nodes in use.
func TestProgressEvents(t *testing.T) {
	mod := asr(6, 3, 2)
	var evs []progress.Event
	rep, err := DefaultBDD().Check(context.Background(), mod, explore.CountStates(true),
		explore.OnProgress(0, func(ev progress.Event) { evs = append(evs, ev) }))
	if err != nil {
		t.Fatal(err)
	}
	var phases []progress.Phase
	for i, ev := range evs {
		if ev.Engine != "bdd" {
			t.Errorf("event %d: engine %q", i, ev.Engine)
		}
		if ev.Nodes <= 0 {
			t.Errorf("event %d: %d nodes", i, ev.Nodes)
		}
		if i > 0 && evs[i-1].Phase == ev.Phase && evs[i-1].K == ev.K && ev.Iterations != evs[i-1].Iterations+1 {
			t.Errorf("event %d: iteration %d after %d", i, ev.Iterations, evs[i-1].Iterations)
		}
		if len(phases) == 0 || phases[len(phases)-1] != ev.Phase || ev.Iterations == 0 {
			phases = append(phases, ev.Phase)
			if ev.Iterations != 0 {
				t.Errorf("event %d starts phase %s at iteration %d", i, ev.Phase, ev.Iterations)
			}
		}
		if ev.Phase == progress.Property {
			if p := mod.Properties[ev.K-1]; ev.N != len(mod.Properties) || ev.Item != p.Name {
				t.Errorf("event %d: property %s (%d of %d), want %s of %d", i, ev.Item, ev.K, ev.N, p.Name, len(mod.Properties))
			}
		}
	}
	iterated := 0
	for _, ev := range evs {
		if ev.Phase == progress.Reach && ev.Iterations > 0 {
			iterated++
		}
	}
	if iterated == 0 {
		t.Errorf("no fixpoint iteration reported for the reachable states")
	}
	want := []progress.Phase{progress.Encode, progress.Reach, progress.Deadlock}
	for range rep.Properties {
		want = append(want, progress.Property)
	}
	if len(phases) != len(want) {
		t.Fatalf("phases %v, want %v", phases, want)
	}
	for i := range want {
		if phases[i] != want[i] {
			t.Fatalf("phases %v, want %v", phases, want)
		}
	}
}
