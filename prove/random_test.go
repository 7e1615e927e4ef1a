package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// Random differential test of prove.Check against the unreduced system
// (testsupport.Unreduced, sharing no code with the counter models, the
// prover or explore) at every size combination of a box: each ranged
// group from its least size to boxMax; -short draws the first fifteenth of
// the systems.
const (
	randomSystems = 300
	boxMax        = 3
	// maxUnknownShare is the share of unknown verdicts the test accepts.
	// Measured: 0 of 920 safety properties (366 proved, 554 refuted) with
	// a 5 s timeout each, seed 1, about 20 s in all; a regression of the
	// prover shows as a rise.
	maxUnknownShare = 0.02
	// randomWork bounds the prover's work on each property
	// (prove.MaxWork), the same on every machine: the 5 s timer it
	// replaces made the verdicts depend on the load.
	randomWork = 10_000_000
)

// randomConfig draws parametric systems with three safety properties
// (AG of an atom or of two), the last two of which may read group
// counters.
var randomConfig = testsupport.Config{MaxTransitions: 3, Ranges: true, NGuards: true, BoxMax: boxMax, MaxConfigs: 30000,
	Properties: 3, GroupProperties: 2, Shape: testsupport.Safety}

func TestProveRandom(t *testing.T) {
	systems := randomSystems
	if testing.Short() {
		systems = randomSystems / 15
	}
	r := rand.New(rand.NewSource(1))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	methods := map[string]int{}
	refutedOutsideBox := 0
	liveDecided := map[prove.Verdict]int{}
	premised := map[prove.Verdict]int{}     // fairness premises in the formula, on systems that settle
	splitDecided := map[prove.Verdict]int{} // conjunctions of those forms, asked part by part
	reachDecided := map[prove.Verdict]int{} // reachability properties (reach.go)
	for i := range systems {
		// The safety properties drawn, and one of any kind, which
		// prove skips unless it is a safety property.
		drawn := testsupport.RandomSystem(r, randomConfig)
		spec := drawn.Spec()
		f := testsupport.RandomCTL(r, drawn, 2, false)
		spec.Properties = append(spec.Properties, gsst.Property{Name: "other", Formula: f, Text: ctl.Format(f, drawn.VarName)})
		sys, err := gsst.New(spec)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(randomWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		// Whether the system's runs settle decides whether prove takes
		// ByMC's fairness premises in the formula (settle.go), read on
		// the model prove reads it on: built step by step, where a
		// step whose guard the group sizes falsify is gone (a guard
		// #S0[g1] > 1 with g1 of one process), and with it a cycle of
		// the local states' graph.
		m, err := counterabs.BuildParamGroup(sys, counterabs.RunSteps())
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		settles := prove.Settles(m)
		// The unreduced system of each instance in the box, explored once.
		spaces := map[string]*testsupport.Space{}
		instance := func(sizes []int) (*gsst.System, *testsupport.Space) {
			inst, err := sys.Instantiate(sizes)
			if err != nil {
				t.Fatalf("system %d at %v: %v", i, sizes, err)
			}
			key := fmt.Sprint(sizes)
			if spaces[key] == nil {
				spaces[key] = testsupport.Unreduced(inst)
			}
			return inst, spaces[key]
		}
		holds := func(inst *gsst.System, sp *testsupport.Space, k int) bool {
			return testsupport.Holds(sp.Graph, inst.Properties[k].Formula)
		}
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			if res.Method != "" {
				methods[res.Verdict.String()+" by "+string(res.Method)]++
			}
			// What prove decides: safety and liveness, each also under a
			// premise on the initial configuration (c -> f).
			_, _, safety := counterabs.PremisedSafety(p.Formula)
			_, _, _, _, live := counterabs.PremisedLiveness(p.Formula)
			// ByMC's fairness premises in the formula (settle.go) are
			// taken exactly where the system settles, and skipped
			// elsewhere; taken, they are checked below like liveness.
			settled := !safety && !live && prove.IsLiveness(p.Formula)
			// A conjunction of those forms is asked part by part
			// (parts.go), and checked below like the others.
			_, split := prove.Parts(p.Formula)
			// A reachability property (EF c) without fairness is decided
			// through AG !c (reach.go), and checked below like the others.
			reach := prove.IsReachability(p.Formula) && sys.Fairness.Empty()
			switch {
			case split:
				if res.Verdict == prove.Skipped || len(res.Parts) < 2 {
					t.Errorf("system %d, %s (%s): %v with %d parts", i, p.Name, p.Text, res.Verdict, len(res.Parts))
				}
				splitDecided[res.Verdict]++
			case settled && settles && res.Verdict == prove.Skipped:
				t.Errorf("system %d, %s (%s): skipped on a system that settles: %s", i, p.Name, p.Text, res.Reason)
			case settled && !settles && res.Verdict != prove.Skipped:
				t.Errorf("system %d, %s (%s): %v on a system that may not settle", i, p.Name, p.Text, res.Verdict)
			case reach && res.Verdict == prove.Skipped:
				t.Errorf("system %d, %s (%s): skipped: %s", i, p.Name, p.Text, res.Reason)
			case !settled && !reach && (res.Verdict == prove.Skipped) == (safety || live):
				t.Errorf("system %d, %s (%s): %v", i, p.Name, p.Text, res.Verdict)
			}

			if settled && settles {
				premised[res.Verdict]++
			}
			live = live || settled && settles
			// A liveness property drawn as "other" is checked below like
			// the others, and counted apart (TestProveLivenessRandom
			// measures liveness), as is a conjunction asked part by part.
			switch {
			case split:
			case reach:
				reachDecided[res.Verdict]++
			case live:
				liveDecided[res.Verdict]++
			default:
				counts[res.Verdict]++
			}
			switch res.Verdict {
			case prove.Proved:
				for _, sizes := range testsupport.Box(sys, boxMax) {
					if inst, sp := instance(sizes); !holds(inst, sp, k) {
						t.Errorf("system %d: %s (%s) proved with invariant %s, but fails at %s\n%s",
							i, p.Name, p.Text, res.InvariantText, sys.FormatSizes(sizes), testsupport.Describe(sys))
					}
				}
			case prove.Refuted:
				if res.Sizes == nil {
					// A reachability property refuted at every size.
					for _, sizes := range testsupport.Box(sys, boxMax) {
						if inst, sp := instance(sizes); holds(inst, sp, k) {
							t.Errorf("system %d: %s (%s) refuted at every size, but holds at %s\n%s",
								i, p.Name, p.Text, sys.FormatSizes(sizes), testsupport.Describe(sys))
						}
					}
					break
				}
				inBox := true
				for g, size := range res.Sizes {
					inBox = inBox && size <= max(boxMax, sys.Groups[g].Size)
				}
				if !inBox {
					refutedOutsideBox++
				}
				if inst, sp := instance(res.Sizes); holds(inst, sp, k) {
					t.Errorf("system %d: %s (%s) refuted at %s, where it holds\n%s",
						i, p.Name, p.Text, sys.FormatSizes(res.Sizes), testsupport.Describe(sys))
				}
			case prove.Unknown:
				t.Logf("system %d: %s (%s) unknown: %s", i, p.Name, p.Text, res.Reason)
			}
		}
	}
	safety := counts[prove.Proved] + counts[prove.Refuted] + counts[prove.Unknown]
	share := float64(counts[prove.Unknown]) / float64(safety)
	t.Logf("%d systems, %d safety properties: %d proved, %d refuted (%d outside the box), %d unknown (%.1f%%); %d other properties skipped; other properties of a liveness form: %v, of which with a fairness premise on a system that settles: %v; other properties asked part by part: %v; reachability properties: %v",
		systems, safety, counts[prove.Proved], counts[prove.Refuted], refutedOutsideBox, counts[prove.Unknown], 100*share, counts[prove.Skipped], liveDecided, premised, splitDecided, reachDecided)
	// The fairness premises the sample draws on systems that settle are
	// decided: none unknown.
	if premised[prove.Unknown] > 0 {
		t.Errorf("%d fairness premises in the formula unknown on systems that settle: %v", premised[prove.Unknown], premised)
	}
	if share > maxUnknownShare {
		t.Errorf("%.1f%% of the safety properties unknown, more than the %.1f%% measured", 100*share, 100*maxUnknownShare)
	}
	if counts[prove.Proved] < systems/10 || counts[prove.Refuted] < systems/10 || counts[prove.Skipped] < systems/10 {
		t.Errorf("the random sample exercises too little: %v", counts)
	}
	// Each step of the search answers some: proofs by induction, by the
	// state equation, by the lemmas and the property (the cheap path),
	// by the prover on the system
	// without the variables the linear invariants define (8 of 366 in
	// the whole sample, none in the fifteenth of -short), refutations by
	// the prover.
	t.Logf("answered by: %v", methods)
	want := []string{"proved by induction", "proved by state equation", "proved by lemmas", "refuted by prover"}
	if !testing.Short() {
		want = append(want, "proved by prover")
	}
	for _, m := range want {
		if methods[m] == 0 {
			t.Errorf("no property %s: %v", m, methods)
		}
	}
}
