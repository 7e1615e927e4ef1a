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

// TestReachEquationRandom cross-checks the search of the instances the
// state equation proposes (reachsearch.go) on random families
// (parameters in guards, updates and group sizes, with an assumption;
// shared variables, broadcasts, rendezvous; seed 33), and on random
// systems with initial sets (groups spread over several states, shared
// variables starting in a range: initialSetSystem, seed 34), against
// exploration of every instance in the box from each of its initial
// configurations (exploreFrom in constructs_random_test.go, which
// shares no code with the equation):
//
//   - where exploration reaches a bad state, the equation admits one
//     at that instance (it over-approximates the reachable states, and
//     the search skips the instances where it admits none);
//   - a run the search finds replays on the model (presburger.Replay),
//     and, when its instance and values lie in the box, exploration
//     reaches a bad state there.
//
// The search is run with no box, so that its instances are those
// exploration covers. Measured (200 systems of each sample): 400
// properties, 1296 bad instances, 758 safe instances the equation
// excludes, 250 runs, all in the box; with initial sets 400, 1284, 517
// and 294 (293 in the box); under -short (25 systems each) 174, 71 and
// 34; 154, 70 and 35.
func TestReachEquationRandom(t *testing.T) {
	systems := 200
	if testing.Short() {
		systems = 25
	}
	plain := rand.New(rand.NewSource(33))
	spread := rand.New(rand.NewSource(34))
	t.Run("families", func(t *testing.T) {
		checkReachEquation(t, systems, func(i int) *gsst.System {
			cfg := testsupport.Small(0, testsupport.AllConstructs)
			cfg.Family, cfg.Ranges = true, true
			cfg.Properties, cfg.GroupProperties, cfg.Shape = 2, 2, testsupport.Safety
			return testsupport.RandomSystem(plain, cfg)
		})
	})
	t.Run("initial sets", func(t *testing.T) {
		checkReachEquation(t, systems, func(i int) *gsst.System { return initialSetSystem(spread, i) })
	})
}

// checkReachEquation is TestReachEquationRandom on the systems draw
// returns.
func checkReachEquation(t *testing.T, systems int, draw func(i int) *gsst.System) {
	s := z3.New()
	ctx := context.Background()
	var applies, badInstances, pruned, runs, runsInBox int
	for i := range systems {
		sys := draw(i)
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		ps := m.TransitionSystem()
		insts := testsupport.Instances(sys, extParamMax, extSizeMax)
		reached := make([][]extState, len(insts))
		for j, inst := range insts {
			reached[j] = exploreFrom(sys, inst, initialConfigs(sys, inst))
		}
		for k := range m.Properties {
			phi, ok := counterabs.SafetyFormula(m.Properties[k].Formula)
			if !ok {
				continue
			}
			ts := ps.Question(presburger.Negation(phi))
			where := func() string {
				return sys.Properties[k].Name + " (" + sys.Properties[k].Text + ")\n" + testsupport.Describe(sys)
			}
			sysPhi, _ := counterabs.SafetyFormula(sys.Properties[k].Formula)
			badAt := make([]bool, len(insts))
			counted := false
			for j, inst := range insts {
				badAt[j] = slices.ContainsFunc(reached[j], func(st extState) bool { return !presburger.Eval(sysPhi, st.valuation(sys, inst)) })
				admits, ok := prove.EquationAdmits(ctx, s, m, ts, inst.Params, inst.Sizes)
				if !ok {
					continue
				}
				if !counted {
					applies++
					counted = true
				}
				switch {
				case badAt[j]:
					badInstances++
					if !admits {
						t.Errorf("system %d, %s: exploration reaches a bad state at %v, where the state equation admits none", i, where(), inst)
					}
				case !admits:
					pruned++
				}
			}
			cex := prove.SearchByEquation(ctx, s, m, ts)
			if cex == nil {
				continue
			}
			runs++
			if err := presburger.Replay(ctx, s, ts, *cex); err != nil {
				t.Fatalf("system %d, %s: the run does not replay: %v", i, where(), err)
			}
			inValues := true
			for _, st := range cex.States {
				for j := range m.Shared {
					inValues = inValues && st[m.SharedVar(j)] <= extValueCap
				}
			}
			for j, inst := range insts {
				same := inValues
				for g := range sys.Groups {
					same = same && int64(inst.Sizes[g]) == cex.Params[m.SizeVar(g)]
				}
				for p := range sys.Params {
					same = same && int64(inst.Params[p]) == cex.Params[m.ParamVar(p)]
				}
				if !same {
					continue
				}
				runsInBox++
				if !badAt[j] {
					t.Errorf("system %d, %s: a run at %v, where exploration reaches no bad state", i, where(), inst)
				}
			}
		}
	}
	t.Logf("%d systems: %d properties with a state equation; %d bad instances, all admitted; %d safe instances excluded by it; %d runs found (%d in the box)",
		systems, applies, badInstances, pruned, runs, runsInBox)
	if applies < systems/2 || badInstances < systems/4 || pruned < systems/10 || runsInBox < systems/10 {
		t.Errorf("the sample exercises too little")
	}
}
