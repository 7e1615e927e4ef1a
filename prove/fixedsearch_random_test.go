package prove_test

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestSearchFixedSizeRandom cross-checks the small-instance search on
// instances larger than its box (search.go, exploreInstance: a group of
// a fixed size beyond SearchMax, explored first through the states
// where at most 1, 2, ... processes have left their initial counters)
// on random systems with shared variables, broadcasts and rendezvous,
// each group grown to a fixed size of 6 to 9 processes in one initial
// state (fixedLarge), seed 16, against exploration by the language's
// semantics (explore, which shares no code with the search):
//
//   - a run found replays on the model and ends in a state that
//     violates the property, and exploration of the instance finds a
//     violation too (when the run's values stay within extValueCap);
//   - where exploration finds a violation, the system has no unbounded
//     variable, and the instance's reachable states, once per number
//     of processes away, fit the search's budget, the search finds a
//     run: its last layer is the whole instance.
//
// Measured (seed 16, 2000 systems, 1.3 CPU-s): 1081 runs found (all
// confirmed by exploration), 713 violations the budget obliges the
// search to find, 0 missed; under -short (400 systems) 205, 139, 0. A
// search whose layers never say that they left a state out (pruned),
// and so stops after the first, misses 45 of the 713 (2 of the 139
// under -short).
func TestSearchFixedSizeRandom(t *testing.T) {
	systems := 2000
	if testing.Short() {
		systems = 400
	}
	r := rand.New(rand.NewSource(16))
	s := z3.New()
	ctx := context.Background()
	var found, obliged, missed int
	for i := range systems {
		cfg := testsupport.Small(0, testsupport.SharedVars|testsupport.Broadcasts|testsupport.Rendezvous)
		cfg.Properties, cfg.GroupProperties, cfg.Shape = 1, 0, testsupport.Safety
		sys := fixedLarge(t, r, testsupport.RandomSystem(r, cfg))
		if sys == nil {
			continue
		}
		m, ts := groupSafety(t, sys)
		in := testsupport.Instance{Sizes: make([]int, len(sys.Groups))}
		n := 0
		for g := range sys.Groups {
			in.Sizes[g] = sys.Groups[g].Size
			n += in.Sizes[g]
		}
		reached := explore(sys, in)
		bad := slices.ContainsFunc(reached, func(st extState) bool {
			return failsAt(sys.Properties[0].Formula, st.valuation(sys, in))
		})
		cex := prove.SearchSmall(ctx, s, m, ts)
		if cex != nil {
			found++
			if err := presburger.Replay(ctx, s, ts, *cex); err != nil {
				t.Fatalf("system %d: the run does not replay: %v\n%s", i, err, testsupport.Describe(sys))
			}
			if !bad && withinCap(m, cex) {
				t.Fatalf("system %d: the search finds a run of %d steps, exploration no violation\n%s", i, len(cex.Steps), testsupport.Describe(sys))
			}
		}
		unbounded := slices.ContainsFunc(sys.Shared, func(v gsst.Shared) bool { return v.Unbounded })
		if bad && !unbounded && len(reached)*(n+1) <= prove.InstanceStates {
			obliged++
			if cex == nil {
				missed++
				t.Errorf("system %d: exploration finds a violation among %d states, the search no run\n%s", i, len(reached), testsupport.Describe(sys))
			}
		}
	}
	t.Logf("%d systems: %d runs found, %d violations the search must find, %d missed", systems, found, obliged, missed)
	if found == 0 || obliged == 0 {
		t.Fatalf("the draw exercises nothing: %d runs, %d obliged", found, obliged)
	}
}

// fixedLarge returns sys with every group of a fixed size of 6 to 9
// processes, all in one initial state (its first), or nil when sys has
// parameters or a group sized over them.
func fixedLarge(t *testing.T, r *rand.Rand, sys *gsst.System) *gsst.System {
	spec := sys.Spec()
	if len(spec.Params) > 0 {
		return nil
	}
	for g := range spec.Groups {
		grp := &spec.Groups[g]
		if grp.OverParams() {
			return nil
		}
		first := slices.IndexFunc(spec.Init[g], func(c int) bool { return c > 0 })
		if first < 0 {
			return nil
		}
		size := 6 + r.Intn(4)
		grp.Ranged, grp.Size, grp.Max = false, size, 0
		for st := range spec.Init[g] {
			spec.Init[g][st] = 0
		}
		spec.Init[g][first] = size
		if spec.InitOver != nil {
			spec.InitOver[g] = nil
		}
	}
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("the system with fixed sizes: %v\n%s", err, testsupport.Describe(sys))
	}
	return out
}

// withinCap says whether every value of a shared variable of m along
// cex is at most extValueCap (explore goes no further).
func withinCap(m *counterabs.ParamModel, cex *presburger.Counterexample) bool {
	for _, st := range cex.States {
		for j := range m.Shared {
			if st[m.SharedVar(j)] > extValueCap {
				return false
			}
		}
	}
	return true
}
