package prove_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/progress"
	"github.com/vsym/vsym/prove"
)

// TestProgressEvents: Check reports the certification's queries, then
// each proof as it starts: a joint one (K zero) for asr-param's three
// mutual exclusions, then its reachability property alone, and
// printers' capacity and reachability property alone as properties 1
// and 2 of 2, all named by the back end.
func TestProgressEvents(t *testing.T) {
	s := z3.New()
	for _, tc := range []struct {
		spec string
		want []progress.Event // the proof events
	}{
		{"asr-param", []progress.Event{{Phase: progress.Proof, Engine: "z3", Item: "3 safety properties together"}, {Phase: progress.Proof, Engine: "z3", Item: "all_used", K: 1, N: 4}}},
		{"printers", []progress.Event{{Phase: progress.Proof, Engine: "z3", Item: "capacity", K: 1, N: 2}, {Phase: progress.Proof, Engine: "z3", Item: "can-print", K: 2, N: 2}}},
	} {
		var mu sync.Mutex
		var evs []progress.Event
		_, err := prove.Check(context.Background(), bundled(t, tc.spec), s, s, prove.OnProgress(func(ev progress.Event) {
			mu.Lock()
			evs = append(evs, ev)
			mu.Unlock()
		}))
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(evs, func(ev progress.Event) bool { return ev.Phase != progress.Certify })
		if i < 0 {
			t.Fatalf("%s: no proof reported: %+v", tc.spec, evs)
		}
		for _, ev := range evs[:i] {
			if ev.Engine != "z3" || ev.K < 1 || ev.K > ev.N {
				t.Errorf("%s: certification event %+v", tc.spec, ev)
			}
		}
		if !slices.Equal(evs[i:], tc.want) {
			t.Errorf("%s: proof events %+v, want %+v", tc.spec, evs[i:], tc.want)
		}
	}
}
