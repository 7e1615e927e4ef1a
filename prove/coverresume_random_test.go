package prove_test

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestCoverResumedRandom checks that the rounds of the backward search
// that go on with the last round's search (coverSearch in cover.go:
// backward's plain search, and the generalized one while its sample
// stays as it is) answer each round exactly as a new search within the
// same budget does: the same outcome, number of elements, invariant,
// run or chain through a guess, and, for the plain search, the same
// work counted from the start. The systems are those of
// TestCoverGeneralizedRandom (seed 10, broadcasts, shared variables
// and rendezvous, ranged groups spread over two initial states; up to
// 8 states and 10 transitions), the
// budgets small (coverResumeWorks, from one comparison) so that most searches take several rounds, and the sample
// of the generalized search the initial states alone, so that guesses
// fail and the sample grows between rounds. Most random properties
// are refuted by a run of a step or two within the first budget; only
// the searches that took more than one round count, and some must
// (measured, 600 systems of four properties: 115 plain and 134
// generalized searches of several rounds, 7 s; under -short, 150
// systems: 27 and 31, 1.6 s).
//
// Mutations caught (by hand, then restored), under -short: a resumed
// search that counts its budget from the call rather than from its
// start (run's "work = total - used" as "work = total"): 50 searches
// differ; a generalized search that goes on after its sample grew
// (generalizedSearch without "*last = nil"): 20 differ.
func TestCoverResumedRandom(t *testing.T) {
	systems := 600
	if testing.Short() {
		systems = 150
	}
	r := rand.New(rand.NewSource(10))
	s := z3.New()
	ctx := context.Background()
	several := map[bool]int{}
	for i := range systems {
		cfg := testsupport.Small(testsupport.Broadcasts, testsupport.SharedVars|testsupport.Rendezvous|testsupport.InitialSets)
		cfg.Ranges = true
		cfg.Guards = testsupport.Guards(1 + i%2)
		cfg.Properties, cfg.GroupProperties, cfg.Shape = 4, 1, testsupport.Safety
		cfg.MaxStates, cfg.MaxTransitions = 8, 10
		sys := spreadRanged(t, r, testsupport.RandomSystem(r, cfg))
		sys = upwardGuards(t, sys, false)
		models := []*counterabs.ParamModel{}
		group, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		models = append(models, group)
		if total, err := counterabs.BuildParam(ctx, sys, s); err == nil && total.Level == counterabs.TotalLevel {
			models = append(models, total)
		}
		for _, m := range models {
			for k := range m.Properties {
				phi, ok := counterabs.SafetyFormula(m.Properties[k].Formula)
				if !ok || m.Level == counterabs.TotalLevel && counterabs.PropertyLevel(sys, &sys.Properties[k]) == counterabs.GroupLevel {
					continue
				}
				ts := safetyTS(m, phi)
				for _, sampled := range []bool{false, true} {
					resumed, fresh, ok := prove.CoverRounds(ctx, m, ts, coverResumeWorks, sampled)
					if !ok {
						continue
					}
					if !slices.Equal(resumed, fresh) {
						t.Errorf("system %d, %s on the %s model (sampled %v): the rounds going on answer\n%+v\nwhere new searches answer\n%+v\n%s",
							i, m.Properties[k].Name, m.Level, sampled, resumed, fresh, testsupport.Describe(sys))
					}
					if len(fresh) > 1 {
						several[sampled]++
					}
				}
			}
		}
	}
	t.Logf("searches of several rounds: %d plain, %d generalized", several[false], several[true])
	if several[false] == 0 || several[true] == 0 {
		t.Errorf("no search of several rounds (plain %d, generalized %d): the check compares nothing", several[false], several[true])
	}
}

// coverResumeWorks are the budgets of TestCoverResumedRandom's rounds.
var coverResumeWorks = []int64{1, 2, 4, 8, 16, 32, 64, 128, 256, 1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22}
