package gsst_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// TestMayOccupyRandom checks MayOccupy and MayFire against exploration:
// on random families with every construct, initial sets and empty
// groups, every configuration reached (Initials, then Successors,
// unbounded shared variables cut a little above their start) in every
// instance of the box has processes of a group only in the states the
// family's MayOccupy allows it, and every step taken is one MayFire
// allows; and likewise for MayReachTotals. It also counts the counters
// and the steps ruled out, so that an analysis that allows everything is
// seen to test nothing.
func TestMayOccupyRandom(t *testing.T) {
	systems := 1000
	if testing.Short() {
		systems = 300
	}
	r := rand.New(rand.NewSource(2026_11_29))
	cfg := testsupport.Config{MaxGroups: 3, MaxSize: 2, MaxProcesses: 5, MaxTransitions: 4}
	var ruledOut, deadSteps, configs int
	for i := range systems {
		c := cfg
		// Empty groups, or groups spread over initial states (the
		// generator draws no empty group that spreads).
		c.EmptyGroups = i%3 == 0
		c.May = testsupport.AllConstructs
		if !c.EmptyGroups {
			c.May |= testsupport.InitialSets
		}
		c.Ranges = i%2 == 1
		c.Family = i%4 == 3
		sys := testsupport.RandomSystem(r, c)
		occ, fires, totals := sys.MayOccupy(), sys.MayFire(), sys.MayReachTotals()
		for _, f := range fires {
			if !f {
				deadSteps++
			}
		}
		for g := range occ {
			for st := range occ[g] {
				if !occ[g][st] {
					ruledOut++
				}
			}
		}
		for _, in := range testsupport.Instances(sys, 2, 3) {
			if !fixedAt(sys, in.Params) {
				continue
			}
			inst, err := sys.InstantiateParams(in.Params, in.Sizes)
			if err != nil {
				t.Fatalf("system %d, %v: %v", i, in, err)
			}
			configs += explore(t, fmt.Sprintf("system %d, %v", i, in), inst, occ, fires)
			explore(t, fmt.Sprintf("system %d, %v, MayReachTotals", i, in), inst, totals.Occupy, totals.Fires)
		}
	}
	t.Logf("%d systems: %d counters and %d steps ruled out, %d configurations reached", systems, ruledOut, deadSteps, configs)
	if ruledOut < systems/2 || deadSteps < systems/10 || configs < systems*10 {
		t.Errorf("the sample exercises too little")
	}
}

// fixedAt says whether params agree with the values of sys's fixed
// parameters.
func fixedAt(sys *gsst.System, params []int) bool {
	for k := range sys.Params {
		if p := &sys.Params[k]; p.Fixed && params[k] != p.Value {
			return false
		}
	}
	return true
}

// explore visits the configurations of inst reachable from its initial
// ones and checks each against occ, and each step taken against fires;
// it returns how many it visited.
func explore(t *testing.T, where string, inst *gsst.System, occ [][]bool, fires []bool) int {
	t.Helper()
	starts, err := inst.Initials()
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	seen := map[string]bool{}
	queue := starts
	for len(queue) > 0 && len(seen) < 20000 {
		c := queue[0]
		queue = queue[1:]
		key := fmt.Sprint(c.Counts, c.Shared)
		if seen[key] {
			continue
		}
		seen[key] = true
		for g, row := range c.Counts {
			for st, k := range row {
				if k > 0 && !occ[g][st] {
					t.Fatalf("%s: %d processes of %s in %s, which MayOccupy rules out\n%s", where, k, inst.Groups[g].Name, inst.States[st], testsupport.Describe(inst))
				}
			}
		}
		succs, err := inst.Successors(c)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		for _, s := range succs {
			if !fires[s.Step] {
				t.Fatalf("%s: step %d (%s) taken, which MayFire rules out\n%s", where, s.Step, inst.Steps()[s.Step].Origin.GuardText, testsupport.Describe(inst))
			}
			if inCut(inst, s.Next.Shared) {
				queue = append(queue, s.Next)
			}
		}
	}
	return len(seen)
}

// inCut says whether the unbounded shared variables of v lie at most 3
// above their least value.
func inCut(sys *gsst.System, v []int) bool {
	for j := range sys.Shared {
		if sh := &sys.Shared[j]; sh.Unbounded && v[j] > sh.Lo+3 {
			return false
		}
	}
	return true
}
