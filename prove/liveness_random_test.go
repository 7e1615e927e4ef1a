package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/gsst"
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
// meets every fairness constraint. -short draws the first fifth of the
// systems.
const (
	liveSystems = 100
	liveTimeout = 5 * time.Second
	// maxLiveUnknownShare is the share of unknown verdicts the test
	// accepts. Measured (seed 1, 100 systems): 300 liveness properties,
	// 173 proved, 118 refuted (every lasso replayed on the oracle), 9
	// unknown (3.0%), 446 instances explored by the oracle.
	maxLiveUnknownShare = 0.08
)

var liveConfig = testsupport.Config{MaxTransitions: 4, Ranges: true, NGuards: true, BoxMax: boxMax, MaxConfigs: 20000}

// liveProperty draws AF q, AG (p -> AF q) or AG AF q over atoms (of
// group counters too when groups is set).
func liveProperty(r *rand.Rand, sys *gsst.System, groups bool) ctl.Formula {
	atom := func() ctl.Formula { return ctl.Atom{P: testsupport.RandomAtom(r, sys, groups)} }
	af := func() ctl.Formula { return ctl.Unary{Op: ctl.AF, X: atom()} }
	switch r.Intn(3) {
	case 0:
		return af()
	case 1:
		return ctl.Unary{Op: ctl.AG, X: ctl.Binary{Op: ctl.Implies, L: atom(), R: af()}}
	}
	return ctl.Unary{Op: ctl.AG, X: af()}
}

// randomFairness adds 0-3 fairness constraints to spec: justice
// conditions (an atom) and weak fairness of a transition, for any
// process or per group.
func randomFairness(r *rand.Rand, sys *gsst.System, spec *gsst.Spec) {
	for k := r.Intn(4); k > 0; k-- {
		if r.Intn(3) == 0 || len(spec.Transitions) == 0 {
			f := testsupport.RandomAtom(r, sys, r.Intn(2) == 0)
			spec.Fairness.Justice = append(spec.Fairness.Justice, gsst.Justice{Formula: f, Text: sys.FormatFormula(f)})
			continue
		}
		t := r.Intn(len(spec.Transitions))
		w := gsst.Weak{Transition: t, Group: -1}
		if r.Intn(2) == 0 {
			var groups []int
			for g := range spec.Groups {
				if spec.Transitions[t].BlockOf(g) != nil {
					groups = append(groups, g)
				}
			}
			if len(groups) > 0 {
				w.Group = groups[r.Intn(len(groups))]
			}
		}
		spec.Fairness.Weak = append(spec.Fairness.Weak, w)
	}
}

func TestProveLivenessRandom(t *testing.T) {
	systems := liveSystems
	if testing.Short() {
		systems = liveSystems / 5
	}
	r := rand.New(rand.NewSource(1))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	replayed, instances := 0, 0
	for i := range systems {
		drawn := testsupport.RandomSystem(r, liveConfig)
		spec := drawn.Spec()
		spec.Properties = nil
		for k, groups := range []bool{false, r.Intn(2) == 0, true} {
			f := liveProperty(r, drawn, groups)
			spec.Properties = append(spec.Properties, gsst.Property{Name: fmt.Sprintf("live%d", k), Formula: f, Text: ctl.Format(f, drawn.VarName)})
		}
		randomFairness(r, drawn, spec)
		sys, err := gsst.New(spec)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.Timeout(liveTimeout))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.DescribeFair(sys))
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
							i, p.Name, p.Text, res.InvariantText, res.Live.RankTexts, sys.FormatSizes(sizes), testsupport.DescribeFair(sys))
					}
				}
			case prove.Refuted:
				o := oracle(res.Sizes)
				if o.Holds(o.Sys.Properties[k].Formula) {
					t.Errorf("system %d: %s (%s) refuted at %s, where it holds\n%s",
						i, p.Name, p.Text, sys.FormatSizes(res.Sizes), testsupport.DescribeFair(sys))
					continue
				}
				tr := enginetest.Trace(res.Trace, enginetest.GroupKey)
				run, err := o.Replay(tr)
				if err != nil {
					t.Errorf("system %d: %s: the lasso does not replay: %v", i, p.Name, err)
					continue
				}
				l := tr.Lifted
				if c := o.CycleMeetsAll(run, l.Steps, l.Loop); c >= 0 {
					t.Errorf("system %d: %s: the lasso's cycle misses fairness constraint %d", i, p.Name, c)
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
