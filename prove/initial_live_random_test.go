package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestProveLivenessInitialSetsRandom cross-checks the liveness verdicts
// of prove.Check on random systems with groups spread over several
// initial states (and a premise "c -> f" on the first property) against
// testsupport's fair-CTL oracle, taken one initial configuration at a
// time (testsupport.EachInitial, which lists them from the spec's
// fields): a property proved holds from each at every size of the box,
// one refuted fails from the configuration its lasso starts in, where
// the lasso replays on the oracle with a cycle that meets every
// fairness constraint.
func TestProveLivenessInitialSetsRandom(t *testing.T) {
	systems := 40
	if testing.Short() {
		// The first 4 already prove and refute with and without the
		// premise (3 do).
		systems = 4
	}
	r := rand.New(rand.NewSource(30))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	premised := map[prove.Verdict]int{}
	replayed := 0
	cfg := liveConfig
	cfg.Want = testsupport.InitialSets
	for i := range systems {
		spec := testsupport.RandomSystem(r, cfg).Spec()
		st := r.Intn(len(spec.States))
		c := presburger.Compare(presburger.VarTerm(presburger.Var(st)), presburger.Eq, presburger.ConstTerm(0))
		pf := ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: c}, R: spec.Properties[0].Formula}
		spec.Properties = append(spec.Properties, gsst.Property{Name: "premised", Formula: pf, Text: ctl.Format(pf, spec.VarName)})
		sys, err := gsst.New(spec)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		// The oracles of each initial configuration of an instance.
		cache := map[string][]*testsupport.Oracle{}
		oracles := func(sizes []int) []*testsupport.Oracle {
			key := fmt.Sprint(sizes)
			if cache[key] == nil {
				inst, err := sys.Instantiate(sizes)
				if err != nil {
					t.Fatalf("system %d at %v: %v", i, sizes, err)
				}
				ones, err := testsupport.EachInitial(inst)
				if err != nil {
					t.Fatalf("system %d at %v: %v", i, sizes, err)
				}
				for _, one := range ones {
					cache[key] = append(cache[key], testsupport.NewOracle(one))
				}
			}
			return cache[key]
		}
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			counts[res.Verdict]++
			if p.Name == "premised" {
				premised[res.Verdict]++
			}
			switch res.Verdict {
			case prove.Proved:
				for _, sizes := range testsupport.Box(sys, boxMax) {
					for _, o := range oracles(sizes) {
						if !o.Holds(o.Sys.Properties[k].Formula) {
							t.Errorf("system %d: %s (%s) proved, but fails at %s from %v\n%s",
								i, p.Name, p.Text, sys.FormatSizes(sizes), o.Sys.Init, testsupport.Describe(sys))
						}
					}
				}
			case prove.Refuted:
				start := res.Trace.Lifted.Start
				os := oracles(res.Sizes)
				j := slices.IndexFunc(os, func(o *testsupport.Oracle) bool {
					return slices.EqualFunc(o.Sys.Init, start.Counts, slices.Equal) && slices.Equal(o.Sys.InitShared(), start.Shared)
				})
				if j < 0 {
					t.Errorf("system %d: %s refuted by a run from %v, no initial configuration", i, p.Name, start.Counts)
					continue
				}
				o := os[j]
				if o.Holds(o.Sys.Properties[k].Formula) {
					t.Errorf("system %d: %s (%s) refuted at %s from %v, where it holds\n%s",
						i, p.Name, p.Text, sys.FormatSizes(res.Sizes), start.Counts, testsupport.Describe(sys))
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
	t.Logf("%d systems: %v (with a premise %v), %d lassos replayed on the oracle", systems, counts, premised, replayed)
	if counts[prove.Proved] < systems/5 || counts[prove.Refuted] < systems/5 || premised[prove.Proved] == 0 || premised[prove.Refuted] == 0 {
		t.Errorf("the random sample exercises too little: %v, with a premise %v", counts, premised)
	}
}
