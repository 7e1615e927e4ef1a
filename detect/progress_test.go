package detect

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/progress"
)

// TestProgressEvents: Certify reports each query as it starts, K of N
// with N the queries it runs, named by its transition, from its
// workers; every K from 1 to N once.
func TestProgressEvents(t *testing.T) {
	sys := rwSystem(false)
	for _, workers := range []int{1, 4} {
		var mu sync.Mutex
		var evs []progress.Event
		_, err := Certify(context.Background(), sys, presburger.BruteForce{Limit: 1 << 18}, Workers(workers), Split(2),
			OnProgress(func(ev progress.Event) {
				mu.Lock()
				evs = append(evs, ev)
				mu.Unlock()
			}))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for i := range sys.Transitions {
			if tr := &sys.Transitions[i]; NeedsQuery(sys, tr) {
				names = append(names, sys.TransitionName(tr))
			}
		}
		if len(names) == 0 || len(evs) < len(names) {
			t.Fatalf("workers %d: %d events for %d transitions with queries", workers, len(evs), len(names))
		}
		var ks []int
		for _, ev := range evs {
			if ev.Phase != progress.Certify || ev.N != len(evs) || !slices.Contains(names, ev.Item) {
				t.Errorf("workers %d: event %+v", workers, ev)
			}
			ks = append(ks, ev.K)
		}
		slices.Sort(ks)
		for i, k := range ks {
			if k != i+1 {
				t.Errorf("workers %d: queries %v, want 1 to %d", workers, ks, len(evs))
				break
			}
		}
	}
}
