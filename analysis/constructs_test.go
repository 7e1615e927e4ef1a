package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// lockSystem is a lock-bit mutex: a process takes the lock (lock :=
// true) from N to C when it is free, and frees it on the way back. With
// restricted, the release also sends every other process of group b in
// W back to N (a broadcast restricted to a group).
func lockSystem(t *testing.T, restricted bool) *gsst.System {
	t.Helper()
	sp := &gsst.Spec{Name: "lock", States: []string{"N", "W", "C"},
		Groups: []gsst.Group{{Name: "a", Size: 2}, {Name: "b", Size: 1}}, Init: [][]int{{2, 0, 0}, {1, 0, 0}}}
	sp.Shared = []gsst.Shared{{Name: "lock", Bool: true, Hi: 1}}
	lock := presburger.VarTerm(sp.SharedVar(0))
	free := presburger.Compare(lock, presburger.Eq, presburger.ConstTerm(0))
	set := func(v int64, text string) gsst.Update {
		return gsst.Update{Assign: []gsst.Assign{{Var: sp.SharedVar(0), Value: presburger.ConstTerm(v)}}, Text: text}
	}
	all := []int{0, 1}
	sp.Transitions = []gsst.Transition{
		{From: 0, To: 1, Blocks: []gsst.Block{{Groups: all, Guard: presburger.True}}},
		{From: 1, To: 2, Blocks: []gsst.Block{{Groups: all, Guard: free, Text: "!lock", Update: set(1, "lock := true")}}},
		{From: 2, To: 0, Blocks: []gsst.Block{{Groups: all, Guard: presburger.True, Update: set(0, "lock := false")}}},
	}
	if restricted {
		sp.Transitions[2].Broadcast = []gsst.Transfer{{From: 1, To: 0, Groups: []int{1}}}
	}
	mutex := ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Compare(presburger.VarTerm(sp.TotalVar(2)), presburger.Le, presburger.ConstTerm(1))}}
	sp.Properties = []gsst.Property{{Name: "mutex", Formula: mutex, Text: "AG #C <= 1"}}
	sys, err := gsst.New(sp)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestModelChoiceConstructs: on a system with shared variables and a
// broadcast, --model auto takes the total-counter model when
// certification passes it, and the group-counter model with the reason
// in words when a broadcast to some groups only breaks symmetry; --model
// total then says what stands in the way, --force refuses to
// over-approximate, and --model group works.
func TestModelChoiceConstructs(t *testing.T) {
	ctx := context.Background()
	for _, restricted := range []bool{false, true} {
		sys := lockSystem(t, restricted)
		m, err := buildModel(ctx, sys, ModelRequest{File: "lock.yaml", Level: Auto})
		if err != nil {
			t.Fatalf("restricted %v: auto: %v", restricted, err)
		}
		if !restricted {
			if m.Level != counterabs.TotalLevel || !m.Exact {
				t.Errorf("auto gave the %s model (%s); want the exact total-counter model", m.Level, m.Reason)
			}
		} else {
			if m.Level != counterabs.GroupLevel || !strings.Contains(m.Reason, "some groups only") {
				t.Errorf("restricted: auto gave the %s model (%s); want the group-counter model because of the broadcast", m.Level, m.Reason)
			}
			// Certification finds the restricted release asymmetric
			// (it sends back the waiting processes of b only, how many
			// the totals do not tell): a negative answer.
			if _, err := buildModel(ctx, sys, ModelRequest{File: "lock.yaml", Level: Total}); err == nil || errkind.Of(err) != errkind.Negative {
				t.Errorf("restricted: --model total: %v, want a negative answer", err)
			}
			// --force builds no over-approximation of such a system:
			// refused before any warning, saying why.
			warned := false
			_, err := buildModel(ctx, sys, ModelRequest{File: "lock.yaml", Force: true, Warn: func(string) { warned = true }})
			if err == nil || errkind.Of(err) != errkind.Input || !strings.Contains(err.Error(), "--force cannot help") || warned {
				t.Errorf("restricted: --force: %v (warned %v), want an input error saying --force cannot help", err, warned)
			}
		}
		g, err := buildModel(ctx, sys, ModelRequest{File: "lock.yaml", Level: Group})
		if err != nil || g.Level != counterabs.GroupLevel || len(g.Shared) != 1 {
			t.Errorf("restricted %v: --model group: %v", restricted, err)
		}
	}
}
