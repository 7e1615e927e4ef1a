package counterabs

import (
	"context"
	"testing"

	"github.com/vsym/vsym/progress"
)

// TestProgressEvents: Build reports each transition as it starts on it,
// K of N in order.
func TestProgressEvents(t *testing.T) {
	sys := readersWriters()
	var evs []progress.Event
	if _, err := Build(context.Background(), sys, bf, nil, OnProgress(func(ev progress.Event) { evs = append(evs, ev) })); err != nil {
		t.Fatal(err)
	}
	if len(evs) != len(sys.Transitions) {
		t.Fatalf("%d events for %d transitions", len(evs), len(sys.Transitions))
	}
	for i, ev := range evs {
		want := progress.Event{Phase: progress.Build, Item: sys.TransitionName(&sys.Transitions[i]), K: i + 1, N: len(sys.Transitions)}
		if ev != want {
			t.Errorf("event %d: %+v, want %+v", i, ev, want)
		}
	}
}
