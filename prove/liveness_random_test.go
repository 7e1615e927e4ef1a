package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// Random differential test of prove.Check's liveness verdicts against
// testsupport's fair-CTL oracle (an explicit state space of
// process-indexed configurations with an SCC-based fair EG, sharing no
// code with the counter models, the prover or explore) at every size
// combination of a box: a proved property holds at each of them, a
// refuted one fails at the refuting instance, and the refutation's
// lifted lasso replays on the oracle's state space with a cycle that
// meets every fairness constraint. -short draws the first tenth of the
// systems.
const (
	liveSystems = 100
	// liveWork bounds the prover's work on each property
	// (prove.MaxWork), the same on every machine: the 5 s timer it
	// replaces made the verdicts depend on the load.
	liveWork = 10_000_000
	// maxLiveUnknownShare is the share of unknown verdicts the test
	// accepts. Measured (seed 1, 100 systems drawn by liveConfig): 300
	// liveness properties, 175 proved, 114 refuted (every lasso replayed
	// on the oracle), 11 unknown (3.7%), 400 instances explored by the
	// oracle.
	maxLiveUnknownShare = 0.08
)

// liveConfig draws the systems: three response properties (the last
// two may read group counters) and up to three fairness constraints.
var liveConfig = testsupport.Config{MaxTransitions: 4, Ranges: true, NGuards: true, BoxMax: boxMax, MaxConfigs: 20000,
	Properties: 3, GroupProperties: 2, Shape: testsupport.Response, Fairness: testsupport.Fairness{Max: 3}}

// replayLassoOn replays the lasso of a refutation on the oracle o,
// whose cycle must meet every fairness constraint.
func replayLassoOn(o *testsupport.Oracle, res prove.Result) error {
	tr := enginetest.Trace(res.Trace, enginetest.GroupKey)
	run, err := o.Replay(tr)
	if err != nil {
		return fmt.Errorf("the lasso does not replay: %v", err)
	}
	l := tr.Lifted
	if c := o.CycleMeetsAll(run, l.Steps, l.Loop); c >= 0 {
		return fmt.Errorf("the lasso's cycle misses fairness constraint %d", c)
	}
	return nil
}

func TestProveLivenessRandom(t *testing.T) {
	systems := liveSystems
	if testing.Short() {
		systems = liveSystems / 10
	}
	r := rand.New(rand.NewSource(1))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	replayed, instances := 0, 0
	for i := range systems {
		sys := testsupport.RandomSystem(r, liveConfig)
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		oracles := map[string]*testsupport.Oracle{}
		oracle := func(sizes []int) *testsupport.Oracle {
			key := fmt.Sprint(sizes)
			if oracles[key] == nil {
				inst, err := sys.Instantiate(sizes)
				if err != nil {
					t.Fatalf("system %d at %v: %v", i, sizes, err)
				}
				oracles[key] = testsupport.NewOracle(inst)
				instances++
			}
			return oracles[key]
		}
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			counts[res.Verdict]++
			if _, _, _, ok := counterabs.LivenessFormula(p.Formula); !ok || res.Verdict == prove.Skipped {
				t.Errorf("system %d, %s (%s): %v, not a response property (%s)", i, p.Name, p.Text, res.Verdict, res.Reason)
			}
			switch res.Verdict {
			case prove.Proved:
				if res.Live == nil {
					t.Errorf("system %d: %s proved without a certificate", i, p.Name)
				}
				for _, sizes := range testsupport.Box(sys, boxMax) {
					if o := oracle(sizes); !o.Holds(o.Sys.Properties[k].Formula) {
						t.Errorf("system %d: %s (%s) proved with invariant %s and ranks %v, but fails at %s\n%s",
							i, p.Name, p.Text, res.InvariantText, res.Live.RankTexts, sys.FormatSizes(sizes), testsupport.Describe(sys))
					}
				}
			case prove.Refuted:
				o := oracle(res.Sizes)
				if o.Holds(o.Sys.Properties[k].Formula) {
					t.Errorf("system %d: %s (%s) refuted at %s, where it holds\n%s",
						i, p.Name, p.Text, sys.FormatSizes(res.Sizes), testsupport.Describe(sys))
					continue
				}
				if err := replayLassoOn(o, res); err != nil {
					t.Errorf("system %d: %s: %v", i, p.Name, err)
					continue
				}
				replayed++
			case prove.Unknown:
				t.Logf("system %d: %s (%s) unknown: %s", i, p.Name, p.Text, res.Reason)
			}
		}
	}
	live := counts[prove.Proved] + counts[prove.Refuted] + counts[prove.Unknown]
	share := float64(counts[prove.Unknown]) / float64(live)
	t.Logf("%d systems, %d liveness properties: %d proved, %d refuted (%d lassos replayed on the oracle), %d unknown (%.1f%%); %d instances explored by the oracle",
		systems, live, counts[prove.Proved], counts[prove.Refuted], replayed, counts[prove.Unknown], 100*share, instances)
	if share > maxLiveUnknownShare {
		t.Errorf("%.1f%% of the liveness properties unknown, more than the %.1f%% accepted", 100*share, 100*maxLiveUnknownShare)
	}
	if counts[prove.Proved] < systems/5 || counts[prove.Refuted] < systems/5 {
		t.Errorf("the random sample exercises too little: %v", counts)
	}
}
