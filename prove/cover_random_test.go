package prove_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestCoverRandom cross-checks the backward coverability search
// (cover.go) on the random systems whose counter models are monotone
// (guards "at least", updates by constants, unbounded shared integers,
// rendezvous; testsupport.RandomSystem, seed 7), on the group-counter
// model and, where certification gives it, the total-counter one,
// against three oracles that share no code with it:
//
//   - exploration of every instance with ranged sizes up to extSizeMax
//     (explore in constructs_random_test.go, the language's semantics
//     on group counters): a property it finds failing must not be
//     proved, and a run the search finds in such an instance, within
//     the values explored, must end where exploration finds a failure;
//   - the run replayed on the model (presburger.Replay), the fixpoint's
//     complement checked as an inductive invariant
//     (presburger.CheckInvariant);
//   - Spacer (z3.New) with a budget of work: where both answer, they
//     agree (asked about every system under -short, every third in
//     full mode).
//
// The guards drawn are made monotone first (upwardGuards), so that the
// sample has guards that matter: of those drawn as they are, only the
// trivial ones are monotone, most of the time.
//
// Every search must answer within coverRandomWork (measured, seed 7:
// 1731 monotone properties of 1000 systems, both models counted, 969
// refuted and 762 proved, none out of work; Spacer, asked about every
// third system, answered all 578 of its questions alike; since the
// search reads bounded variables through complements, one search of
// TestCoverGeneralizedRandom, seed 10, needs more than a million
// comparisons and at most four).
const (
	coverRandomSystems = 1000
	coverRandomWork    = 4_000_000
	coverSpacerWork    = 20_000_000
)

func TestCoverRandom(t *testing.T) {
	systems := coverRandomSystems
	if testing.Short() {
		systems /= 5
	}
	checkCoverRandom(t, 7, systems, 0, testsupport.SharedVars|testsupport.Rendezvous, 0)
}

// TestCoverTransfersRandom is TestCoverRandom on systems with a
// broadcast each, whose transfers make the counter models' steps set a
// counter to a sum (measured, seed 8, 400 systems: 149 monotone
// properties, 108 of them with a transfer, 82 refuted and 67 proved,
// none out of work; Spacer, asked about all, answered all 149 alike;
// under -short, 34 and 32). A pre-image that asks one process too many
// of a transfer's sum, or a run that puts one too many in its target,
// fails it under -short.
func TestCoverTransfersRandom(t *testing.T) {
	systems := 400
	if testing.Short() {
		systems /= 4
	}
	checkCoverRandom(t, 8, systems, testsupport.Broadcasts, testsupport.SharedVars|testsupport.Rendezvous, 0)
}

// TestCoverInitialSetsRandom is TestCoverTransfersRandom on systems whose
// groups start spread over several states (a fixed group by
// testsupport's initial sets, a ranged one over its initial state and
// another: mist's "Owhile >= 0"), explored from every initial
// configuration (initialConfigs). The search reads their initial states
// as sums of counters equal to a group's size (readInitial); a run that
// starts one process too many in a spread, or an initial state it
// wrongly says is above no element, fails it under -short.
func TestCoverInitialSetsRandom(t *testing.T) {
	systems := 300
	if testing.Short() {
		systems /= 8
	}
	checkCoverRandom(t, 9, systems, testsupport.Broadcasts, testsupport.SharedVars|testsupport.Rendezvous, coverSpread)
}

// TestCoverParamInitRandom is TestCoverTransfersRandom on systems
// whose unbounded shared integers start, at random, at a parameter of
// their own bounded below by the assumption (mist's "I >= 1", a place
// that starts with any number of tokens, as the mist reader writes it):
// the search reads such a parameter as a group's size (readParams), and
// exploration covers its values up to extParamMax. A run that starts
// below the assumption's bound, or an initial state it wrongly says is
// above no element, fails it under -short.
func TestCoverParamInitRandom(t *testing.T) {
	systems := 400
	if testing.Short() {
		systems /= 8
	}
	checkCoverRandom(t, 11, systems, testsupport.Broadcasts|testsupport.SharedVars, testsupport.Rendezvous, coverParamInit)
}

// TestCoverParamShiftRandom is TestCoverParamInitRandom with the
// shared integers starting at their parameter plus 1 or 2 ("init:
// I_init + 1", a place counted from 1): the search reads the constant
// as a fixed part of the sum the parameter sizes (readInitial), where
// it refused the system before. A start that leaves the constant out,
// or counts it twice, makes runs that do not replay or fixpoints that
// exploration contradicts.
func TestCoverParamShiftRandom(t *testing.T) {
	systems := 400
	if testing.Short() {
		systems /= 8
	}
	checkCoverRandom(t, 44, systems, testsupport.Broadcasts|testsupport.SharedVars, testsupport.Rendezvous, coverParamShift)
}

// TestCoverRangeInitRandom is TestCoverTransfersRandom on systems whose
// unbounded shared integers start, at random, in a range: with no
// greatest value ("1..", a place of a Petri net that starts with any
// number of tokens, at least one, written as a shared integer) or of
// two values. The search reads them as intervals of initial values
// (readInitial) and starts a run at the least value above its element
// (initialAbove); exploration starts from every initial value up to
// extValueCap. A run that starts outside the range, or an initial
// state it wrongly says is above no element, fails it under -short.
func TestCoverRangeInitRandom(t *testing.T) {
	systems := 400
	if testing.Short() {
		systems /= 8
	}
	checkCoverRandom(t, 12, systems, testsupport.Broadcasts|testsupport.SharedVars, testsupport.Rendezvous, coverRangeInit)
}

// TestCoverBoundedRandom is TestCoverRandom with the guards over bounded
// shared variables (booleans, ranges 0..k) kept as drawn ("!lock",
// "k = 2", "k <= 1"): the search reads such a variable with its
// complement hi - x (complement.go), an upper bound as the complement's
// lower bound, a step that sets it as a reset of both. A complement
// that starts, or moves, other than its variable's mirror makes a
// wrong run or a wrong fixpoint, which replay, CheckInvariant,
// exploration and Spacer catch.
func TestCoverBoundedRandom(t *testing.T) {
	systems := 800
	if testing.Short() {
		systems /= 8
	}
	checkCoverRandom(t, 13, systems, testsupport.SharedVars, testsupport.Rendezvous|testsupport.Broadcasts, coverBounded)
}

// TestCoverParamSizesRandom: the cross-checks of TestCoverRandom on
// systems whose ranged groups are sized by parameters (paramSizes,
// seed 32), which the search reads as ranged groups.
func TestCoverParamSizesRandom(t *testing.T) {
	systems := 800
	if testing.Short() {
		systems /= 8
	}
	checkCoverRandom(t, 32, systems, 0, testsupport.SharedVars|testsupport.Rendezvous|testsupport.Broadcasts, coverParamSizes)
}

// TestCoverCapsRandom: the cross-checks of TestCoverRandom on systems
// whose guards bound counters from above as well ("#X = 0", "#X + #Y
// <= 1": capGuards, seed 33), which the search reads lossily
// (lossy.go). A proof must hold in every instance explored, a run must
// replay; the searches whose chain passes through a step whose caps
// fail (no answer) are counted. Measured, seed 33, 800 systems: in
// the searches with caps, 241 proved, 229 refuted and 3 ended on
// failing caps; under -short (400 systems) 123, 116 and 0.
func TestCoverCapsRandom(t *testing.T) {
	systems := 800
	if testing.Short() {
		systems /= 2
	}
	checkCoverRandom(t, 33, systems, 0, testsupport.SharedVars|testsupport.Rendezvous|testsupport.Broadcasts, coverCaps)
}

// TestCoverCapsNRandom is TestCoverCapsRandom with half of the caps
// written over n ("#A >= n": every process in A, seed 34), which the
// search reads with n as the sum of the counters (poolSums). Measured,
// 800 systems: in the searches with caps, 117 proved and 131 refuted,
// 32 reading n as a sum; under -short (400) 76, 70 and 20.
func TestCoverCapsNRandom(t *testing.T) {
	systems := 800
	if testing.Short() {
		systems /= 2
	}
	checkCoverRandom(t, 34, systems, 0, testsupport.SharedVars|testsupport.Rendezvous|testsupport.Broadcasts, coverCapsN)
}

// TestCoverCapsBroken: the cross-checks of TestCoverCapsRandom catch a
// chain taken for a run though a step's caps fail on it, and caps read
// after the step instead of before it.
func TestCoverCapsBroken(t *testing.T) {
	if testing.Short() {
		t.Skip("800 systems twice, about 16 CPU-s: it runs without -short")
	}
	for _, broken := range []struct {
		name        string
		chains, pre bool
	}{{"capped chains trusted", true, false}, {"caps read after the step", false, true}} {
		t.Run(broken.name, func(t *testing.T) {
			restore := prove.BreakCaps(broken.chains, broken.pre, false)
			defer restore()
			caught := 0
			checkCoverRandomWith(t, 33, 800, 0, testsupport.SharedVars|testsupport.Rendezvous|testsupport.Broadcasts, coverCaps,
				func(string, ...any) { caught++ })
			t.Logf("%d errors caught", caught)
			if caught == 0 {
				t.Errorf("nothing caught with the caps broken (%s)", broken.name)
			}
		})
	}
}

// rangeInitShared returns sys with each unbounded shared integer that
// starts at a constant c starting, at random (2 times in 3), in the
// range "c.." or in c..c+1 instead.
func rangeInitShared(t *testing.T, r *rand.Rand, sys *gsst.System) *gsst.System {
	spec := sys.Spec()
	for i := range spec.Shared {
		v := &spec.Shared[i]
		if !v.Unbounded || v.Bool || v.Values != nil || v.InitRange || !v.InitTerm.IsConst() {
			continue
		}
		switch r.Intn(3) {
		case 1:
			v.InitRange, v.InitNoHi, v.InitHi = true, true, v.Init
			v.InitText = fmt.Sprintf("%d..", v.Init)
		case 2:
			v.InitRange, v.InitHi = true, v.Init+1
			v.InitHiTerm = presburger.ConstTerm(int64(v.InitHi))
			v.InitText = fmt.Sprintf("%d..%d", v.Init, v.InitHi)
		}
	}
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("the system with ranges: %v\n%s", err, testsupport.Describe(sys))
	}
	return out
}

// paramInitShared returns sys with each unbounded shared integer that
// starts at a constant c, at random (2 times in 3), starting at a
// parameter of its own instead, V_init, that the assumption bounds by
// V_init >= c; with shift, at V_init + d instead, d 1 or 2 at random
// (issue 29's shift style: "init: I_init + 1"), the assumption
// V_init >= max(c - d, 0).
func paramInitShared(t *testing.T, r *rand.Rand, sys *gsst.System, shift bool) *gsst.System {
	spec := sys.Spec()
	if len(spec.Params) > 0 {
		return sys
	}
	for i := range spec.Shared {
		v := &spec.Shared[i]
		if !v.Unbounded || v.Bool || v.Values != nil || v.InitRange || r.Intn(3) == 0 {
			continue
		}
		k := len(spec.Params)
		name := v.Name + "_init"
		spec.Params = append(spec.Params, gsst.Param{Name: name})
		least, d := v.Init, 0
		if shift {
			d = 1 + r.Intn(2)
			least = max(v.Init-d, 0)
		}
		atom := presburger.Compare(presburger.VarTerm(spec.ParamVar(k)), presburger.Ge, presburger.ConstTerm(int64(least)))
		text := fmt.Sprintf("%s >= %d", name, least)
		v.InitTerm, v.InitText, v.Init = presburger.VarTerm(spec.ParamVar(k)), name, v.Lo
		if d > 0 {
			v.InitTerm = v.InitTerm.Add(presburger.ConstTerm(int64(d)))
			v.InitText = fmt.Sprintf("%s + %d", name, d)
		}
		assume(spec, atom, text)
	}
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("the system with parameters: %v\n%s", err, testsupport.Describe(sys))
	}
	return out
}

// assume adds f, written text, to spec's assumption.
func assume(spec *gsst.Spec, f presburger.Formula, text string) {
	if spec.Assume.Formula == nil {
		spec.Assume = gsst.Assumption{Formula: f, Text: text}
		return
	}
	spec.Assume.Formula = presburger.Conj(spec.Assume.Formula, f)
	spec.Assume.Text += " & " + text
}

// paramSizes returns sys with each ranged group, at random (2 times in
// 3), sized by a parameter of its own instead, k_g, that the assumption
// bounds to the group's range, or to the range less its least size
// ("groups: {g: k_g}", "assume: k_g >= 1").
func paramSizes(t *testing.T, r *rand.Rand, sys *gsst.System) *gsst.System {
	spec := sys.Spec()
	if len(spec.Params) > 0 {
		return sys
	}
	for g := range spec.Groups {
		grp := &spec.Groups[g]
		if !grp.Ranged || r.Intn(3) == 0 || spec.InitOver != nil && spec.InitOver[g] != nil {
			continue
		}
		k := len(spec.Params)
		name := "k_" + grp.Name
		spec.Params = append(spec.Params, gsst.Param{Name: name})
		kv := presburger.VarTerm(spec.ParamVar(k))
		// The least size, or one more (where the range allows).
		least := grp.Size
		if hi, ok := grp.Bounded(); (!ok || hi > least) && r.Intn(2) == 0 {
			least++
		}
		atoms := []presburger.Formula{presburger.Compare(kv, presburger.Ge, presburger.ConstTerm(int64(least)))}
		text := fmt.Sprintf("%s >= %d", name, least)
		if hi, ok := grp.Bounded(); ok {
			atoms = append(atoms, presburger.Compare(kv, presburger.Le, presburger.ConstTerm(int64(hi))))
			text += fmt.Sprintf(" & %s <= %d", name, hi)
		}
		for st, c := range spec.Init[g] {
			if c > 0 {
				spec.Init[g][st] = 1 // the placeholder of a size over the parameters
			}
		}
		grp.Ranged, grp.Size, grp.SizeTerm, grp.SizeTermText = false, 1, kv, name
		assume(spec, presburger.Conj(atoms...), text)
	}
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("the system with parameter sizes: %v\n%s", err, testsupport.Describe(sys))
	}
	return out
}

// TestCoverGeneralizedRandom is TestCoverInitialSetsRandom with the
// search that generalizes its elements by a sample of reachable states
// (coversample.go), run whatever the plain search would answer: a
// proof must still be an invariant and hold in every instance
// explored, a run must replay and fail where exploration fails. The
// systems are larger (coverGenStates states, coverGenTransitions
// transitions), for elements of several units, and the sample is the
// initial state alone (coverSampleStates), for many guesses and wrong
// ones; only the searches that generalize some element are
// cross-checked (measured, seed 10, 1000 systems: 112 such searches, 63
// of them started again after a wrong guess, 93 refuted and 19 proved;
// under -short, 150 systems: 6 searches, 1 started again, 1 refuted and
// 5 proved, with TestCoverGeneralizedBroken about 1 CPU-s).
const (
	coverGenStates, coverGenTransitions = 6, 6
	coverSampleStates                   = 1
	coverGenShort                       = 150
)

func TestCoverGeneralizedRandom(t *testing.T) {
	systems := 1000
	if testing.Short() {
		systems = coverGenShort
	}
	checkCoverRandom(t, 10, systems, testsupport.Broadcasts, testsupport.SharedVars|testsupport.Rendezvous, coverSpread|coverGeneralize)
}

// TestCoverGeneralizedBroken: the cross-check of
// TestCoverGeneralizedRandom catches a generalization that may keep an
// element below an initial state, and one whose chains through a
// generalized element are taken for runs.
func TestCoverGeneralizedBroken(t *testing.T) {
	for _, broken := range []struct {
		name            string
		initial, chains bool
	}{{"initial states ignored", true, false}, {"chains trusted", false, true}} {
		t.Run(broken.name, func(t *testing.T) {
			restore := prove.BreakGeneralization(broken.initial, broken.chains)
			defer restore()
			caught := 0
			checkCoverRandomWith(t, 10, coverGenShort, testsupport.Broadcasts, testsupport.SharedVars|testsupport.Rendezvous, coverSpread|coverGeneralize,
				func(string, ...any) { caught++ })
			t.Logf("%d errors caught", caught)
			if caught == 0 {
				t.Errorf("nothing caught with the generalization broken (%s)", broken.name)
			}
		})
	}
}

// coverVariant says how checkCoverRandom changes the systems it draws
// and what it runs on them.
type coverVariant int

const (
	// coverSpread spreads ranged groups over two initial states
	// (spreadRanged).
	coverSpread coverVariant = 1 << iota
	// coverGeneralize runs the search with generalization.
	coverGeneralize
	// coverParamInit starts unbounded shared integers at parameters
	// (paramInitShared).
	coverParamInit
	// coverHub makes a state transient (hubify) and compares the search
	// with the one that does not fuse it.
	coverHub
	// coverRangeInit starts unbounded shared integers in ranges
	// (rangeInitShared).
	coverRangeInit
	// coverBounded keeps the atoms of guards over bounded shared
	// variables as they are (upwardGuards): "!lock", "k <= 1".
	coverBounded
	// coverBoolNet draws nets with bool, 0..1 and integer places
	// (randomBoolNet) instead.
	coverBoolNet
	// coverParamSizes sizes ranged groups by parameters (paramSizes).
	coverParamSizes
	// coverCaps adds upper bounds on counters to the guards
	// (capGuards).
	coverCaps
	// coverCapsN adds them and "every process there" over n.
	coverCapsN
	// coverEnumNet draws nets with enumerations as program counters
	// (randomEnumNet) instead, and compares the search with the one
	// that reads none of them one-hot.
	coverEnumNet
	// coverRangedNet draws nets as coverBoolNet does, with their
	// integer places typed 0..2 or 0..3, and runs the search on the
	// reading with those greatest values as caps (rangedSystem).
	coverRangedNet
	// coverFlagNet draws nets with places written as one-process
	// groups (randomFlagNet) instead, and counts the searches that
	// leave steps out.
	coverFlagNet
	// coverParamShift starts unbounded shared integers at parameters
	// plus a constant (paramInitShared with shift).
	coverParamShift
	// coverSparse draws systems of many states and few transitions,
	// most states unreachable (their counters dead), and compares the
	// search with the one that does not project the dead variables out
	// (coverdead.go).
	coverSparse
	// coverTwins draws hubs with the hub written as twins
	// (randomTwinHub) instead, and compares the search with the one
	// that does not merge them (covertwins.go).
	coverTwins
)

// checkCoverRandom runs the cross-checks of TestCoverRandom on systems
// random systems with the constructs want and may, drawn with seed.
func checkCoverRandom(t *testing.T, seed int64, systems int, want, may testsupport.Constructs, v coverVariant) {
	checkCoverRandomWith(t, seed, systems, want, may, v, nil)
}

// checkCoverRandomWith is checkCoverRandom with the errors the
// cross-checks find given to caught, when it is not nil, instead of
// failing the test (and the checks of the sample's size left out).
func checkCoverRandomWith(t *testing.T, seed int64, systems int, want, may testsupport.Constructs, v coverVariant, caught func(format string, args ...any)) {
	spread, generalize, paramInit, hub, rangeInit, bounded, boolNet, paramSize, caps := v&coverSpread != 0, v&coverGeneralize != 0, v&coverParamInit != 0, v&coverHub != 0, v&coverRangeInit != 0, v&coverBounded != 0, v&coverBoolNet != 0, v&coverParamSizes != 0, v&coverCaps != 0
	capsN := v&coverCapsN != 0
	enumNet := v&coverEnumNet != 0
	sparse := v&coverSparse != 0
	twins := v&coverTwins != 0
	var twinSearches, untwinnedAgrees int
	paramShift := v&coverParamShift != 0
	var shifted int // monotone properties of systems with a variable from V_init + d
	rangedNet := v&coverRangedNet != 0
	var rangedSearches int
	flagNet := v&coverFlagNet != 0
	var droppedSearches int
	var hotSearches, hotOnly, unhotAgrees int
	var projectedSearches, unprojectedAgrees, projectedOnly int
	fail := t.Errorf
	if caught != nil {
		fail = caught
	}
	r := rand.New(rand.NewSource(seed))
	s := z3.New()
	ctx := context.Background()
	var monotone, refuted, proved, spacerAsked, spacerAgrees, failingInBox, transfers, spreads, fromParams, fromRanges, withBounded, generalized, restarted int
	// Spacer is asked about every system under -short and about every
	// third in full mode, where it took two thirds of the time (a
	// profile of TestCoverRandom); replay, CheckInvariant and
	// exploration still read every system.
	spacerEvery := 3
	if testing.Short() {
		spacerEvery = 1
	}
	var fusedSearches, unfusedAgrees, loosened int
	var cappedProved, cappedRefuted, cappedEnds, pooled int
	for i := range systems {
		cfg := testsupport.Small(want, may)
		cfg.Ranges = true
		cfg.Guards = testsupport.Guards(1 + i%2) // total counters, or the source's group counters too
		cfg.Properties, cfg.GroupProperties, cfg.Shape = 2, 1, testsupport.Safety
		if generalize {
			// Elements of several units, which generalization drops.
			cfg.MaxStates, cfg.MaxTransitions = coverGenStates, coverGenTransitions
		}
		if sparse {
			cfg.MaxStates, cfg.MaxTransitions = coverSparseStates, coverSparseTransitions
		}
		if spread {
			cfg.May |= testsupport.InitialSets
		}
		sys := testsupport.RandomSystem(r, cfg)
		if spread {
			sys = spreadRanged(t, r, sys)
		}
		if paramInit || paramShift {
			sys = paramInitShared(t, r, sys, paramShift)
		}
		if rangeInit {
			sys = rangeInitShared(t, r, sys)
		}
		if paramSize {
			sys = paramSizes(t, r, sys)
		}
		sys = upwardGuards(t, sys, bounded)
		if caps || capsN {
			sys = capGuards(t, r, sys, capsN)
		}
		if hub {
			sys = randomHub(t, r)
		}
		if twins {
			sys = randomTwinHub(t, r)
		}
		if boolNet {
			sys = randomBoolNet(t, r, 0)
		}
		if rangedNet {
			sys = randomBoolNet(t, r, 2+r.Intn(2))
		}
		if enumNet {
			sys = randomEnumNet(t, r)
		}
		if flagNet {
			sys = randomFlagNet(t, r)
		}
		var models []*counterabs.ParamModel
		group, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		models = append(models, group)
		if total, err := counterabs.BuildParam(ctx, sys, s); err == nil && total.Level == counterabs.TotalLevel {
			models = append(models, total)
		}
		var reached map[string][]extState // by instance, explored when first needed
		for _, m := range models {
			ps := m.TransitionSystem()
			for k := range m.Properties {
				phi, ok := counterabs.SafetyFormula(m.Properties[k].Formula)
				if !ok || m.Level == counterabs.TotalLevel && counterabs.PropertyLevel(sys, &sys.Properties[k]) == counterabs.GroupLevel {
					continue
				}
				ts := ps.Question(presburger.Negation(phi))
				a := prove.Cover(ctx, m, ts, coverRandomWork)
				if rangedNet {
					if a = prove.CoverRanged(ctx, m, ts, coverRandomWork); a.Applies && !a.CappedEnd {
						rangedSearches++
					}
				}
				if generalize {
					var n, restarts int
					a, n, restarts = prove.CoverGeneralized(ctx, m, ts, coverRandomWork, 0, coverSampleStates)
					if n > 0 {
						generalized++
					}
					if restarts > 0 {
						restarted++
					}
					if n == 0 && a.Applies {
						// The plain search's answer, which the
						// other tests cross-check.
						monotone++
						continue
					}
				}
				if !a.Applies {
					continue
				}
				monotone++
				if a.Fused > 0 {
					fusedSearches++
				}
				if a.Loosened > 0 {
					loosened++
				}
				if a.Pooled > 0 {
					pooled++
				}
				if a.Dropped > 0 {
					droppedSearches++
				}
				if a.CappedEnd {
					cappedEnds++
					continue // no answer, nothing to check
				}
				if a.Capped > 0 && a.Cex != nil {
					cappedRefuted++
				}
				if a.Capped > 0 && a.Invariant != nil {
					cappedProved++
				}
				where := func() string {
					return m.Level.String() + " model, " + sys.Properties[k].Name + " (" + sys.Properties[k].Text + ")\n" + testsupport.Describe(sys)
				}
				if enumNet && a.Hot > 0 {
					hotSearches++
					restore := prove.WithoutOneHot()
					u := prove.Cover(ctx, m, ts, coverRandomWork)
					restore()
					switch {
					case u.Cex != nil && a.Invariant != nil, u.Invariant != nil && a.Cex != nil:
						fail("system %d, %s: the search with %d variables one-hot says refuted %v, without refuted %v", i, where(), a.Hot, a.Cex != nil, u.Cex != nil)
					case u.Cex != nil || u.Invariant != nil:
						unhotAgrees++
					case a.Cex != nil || a.Invariant != nil:
						hotOnly++
					}
				}
				if sparse && a.Projected > 0 {
					projectedSearches++
					restore := prove.WithoutProjection()
					u := prove.Cover(ctx, m, ts, coverRandomWork)
					restore()
					switch {
					case u.Cex != nil && a.Invariant != nil, u.Invariant != nil && a.Cex != nil:
						fail("system %d, %s: the search with %d variables projected out says refuted %v, without refuted %v", i, where(), a.Projected, a.Cex != nil, u.Cex != nil)
					case (u.Cex != nil || u.Invariant != nil) && a.Cex == nil && a.Invariant == nil:
						fail("system %d, %s: the search with %d variables projected out does not answer, the one without does", i, where(), a.Projected)
					case u.Cex != nil || u.Invariant != nil:
						unprojectedAgrees++
					case !u.Applies:
						// A bad state's atom on a dead variable
						// ("#D <= 0") that only the projection
						// reads.
						projectedOnly++
					}
				}
				// agreesWithout asks the search again with a reading
				// turned off (what the search with it did, n
				// variables): a different answer fails, and ok says
				// that it answered alike.
				agreesWithout := func(off func() (restore func()), what string, n int) (ok bool) {
					restore := off()
					u := prove.Cover(ctx, m, ts, coverRandomWork)
					restore()
					if u.Cex != nil && a.Invariant != nil || u.Invariant != nil && a.Cex != nil {
						fail("system %d, %s: the search with %d %s says refuted %v, without refuted %v", i, where(), n, what, a.Cex != nil, u.Cex != nil)
						return false
					}
					return u.Cex != nil || u.Invariant != nil
				}
				if twins && a.Twins > 0 {
					twinSearches++
					if agreesWithout(prove.WithoutTwins, "variables merged into their twins", a.Twins) {
						untwinnedAgrees++
					}
				}
				if hub && agreesWithout(prove.WithoutFusion, "fused variables", a.Fused) {
					unfusedAgrees++
				}
				if !sys.SingleInitial() {
					spreads++
				}
				if len(sys.Params) > 0 {
					fromParams++
				}
				if slices.ContainsFunc(sys.Shared, func(v gsst.Shared) bool { return len(v.InitTerm.Monos) > 0 && v.InitTerm.Const != 0 }) {
					shifted++
				}
				if sys.FiniteInitial() != nil || slices.ContainsFunc(sys.Shared, func(v gsst.Shared) bool { return v.InitRange }) {
					fromRanges++
				}
				if slices.ContainsFunc(m.Shared, func(v gsst.Shared) bool { return !v.Unbounded }) {
					withBounded++
				}
				if a.Transfers {
					transfers++
				}
				switch {
				case a.Cex != nil:
					refuted++
					if err := presburger.Replay(ctx, s, ts, *a.Cex); err != nil {
						fail("system %d, %s: the run does not replay: %v", i, where(), err)
						continue
					}
				case a.Invariant != nil:
					proved++
					if err := presburger.CheckInvariant(ctx, s, ts, a.Invariant); err != nil {
						fail("system %d, %s: the fixpoint's complement %s is no invariant: %v", i, where(), m.FormatFormula(a.Invariant), err)
					}
				default:
					t.Fatalf("system %d, %s: out of work after %d comparisons", i, where(), a.Work)
				}
				// Exploration of the instances in the box.
				sysPhi, _ := counterabs.SafetyFormula(sys.Properties[k].Formula)
				runSizes := func() []int {
					var sizes []int
					for g := range sys.Groups {
						sizes = append(sizes, int(a.Cex.Params[m.SizeVar(g)]))
					}
					return sizes
				}
				runParams := func() []int {
					var params []int
					for k := range sys.Params {
						params = append(params, int(a.Cex.Params[m.ParamVar(k)]))
					}
					return params
				}
				runValues := true // the run stays within the values explore explores
				if a.Cex != nil {
					for _, st := range a.Cex.States {
						for j := range m.Shared {
							runValues = runValues && st[m.SharedVar(j)] <= extValueCap
						}
					}
				}
				if reached == nil {
					reached = map[string][]extState{}
				}
				for _, inst := range testsupport.Instances(sys, extParamMax, extSizeMax) {
					key := inst.String()
					if reached[key] == nil {
						reached[key] = exploreFrom(sys, inst, initialConfigs(sys, inst))
					}
					bad := slices.ContainsFunc(reached[key], func(st extState) bool { return !presburger.Eval(sysPhi, st.valuation(sys, inst)) })
					if bad {
						failingInBox++
					}
					switch {
					case bad && a.Invariant != nil:
						fail("system %d, %s: proved, but fails at %v", i, where(), inst)
					case !bad && a.Cex != nil && runValues && slices.Equal(runSizes(), inst.Sizes) && slices.Equal(runParams(), inst.Params):
						fail("system %d, %s: a run at %v, where exploration finds no failure", i, where(), inst)
					}
				}
				// Spacer, where it answers (the hub systems have the search
				// without fusion besides, and Spacer costs the most: not
				// under -short).
				if (hub || twins) && testing.Short() || i%spacerEvery != 0 {
					continue
				}
				spacerAsked++
				sa, err := z3.New().Prove(ctx, ts, presburger.Budget{Work: coverSpacerWork})
				if err != nil {
					t.Fatalf("system %d: %v", i, err)
				}
				switch {
				case sa.Verdict == presburger.Proved && a.Cex != nil, sa.Verdict == presburger.Refuted && a.Invariant != nil:
					fail("system %d, %s: Spacer says %v", i, where(), sa.Verdict)
				case sa.Verdict != presburger.Undecided:
					spacerAgrees++
				}
			}
		}
	}
	t.Logf("%d systems: %d monotone properties (models), %d with a transfer, %d from a spread, %d refuted, %d proved; Spacer asked about %d, answered and agreed on %d; %d failing instances in the box",
		systems, monotone, transfers, spreads, refuted, proved, spacerAsked, spacerAgrees, failingInBox)
	if caught != nil {
		return
	}
	if flagNet {
		t.Logf("%d searches left steps out", droppedSearches)
		if droppedSearches < systems/10 {
			t.Errorf("too few searches left steps out (%d)", droppedSearches)
		}
	}
	if twins {
		t.Logf("%d searches merged twins; the search without answered and agreed on %d", twinSearches, untwinnedAgrees)
		if twinSearches < systems/4 || untwinnedAgrees < twinSearches/2 {
			t.Errorf("too few searches that merged twins (%d) or answers of the search without (%d)", twinSearches, untwinnedAgrees)
		}
	}
	if hub {
		t.Logf("%d searches fused some variable; the search without fusion answered and agreed on %d", fusedSearches, unfusedAgrees)
		if fusedSearches < systems/10 || unfusedAgrees < monotone/2 {
			t.Errorf("too few searches with fused variables (%d) or answers of the search without fusion (%d)", fusedSearches, unfusedAgrees)
		}
	}
	if caps {
		// (The searches that end on failing caps are a few per
		// thousand systems: TestCoverCappedEnd has one for sure.)
		t.Logf("searches with caps: %d proved, %d refuted, %d ended on a step whose caps fail", cappedProved, cappedRefuted, cappedEnds)
		if cappedProved < systems/20 || cappedRefuted < systems/20 {
			t.Errorf("too few searches with caps that proved (%d) or refuted (%d)", cappedProved, cappedRefuted)
		}
	}
	if capsN {
		t.Logf("searches with caps: %d proved, %d refuted; %d read n as a sum", cappedProved, cappedRefuted, pooled)
		if cappedProved < systems/20 || cappedRefuted < systems/20 || pooled < systems/40 {
			t.Errorf("too few searches with caps that proved (%d), refuted (%d) or read n as a sum (%d)", cappedProved, cappedRefuted, pooled)
		}
	}
	if enumNet {
		t.Logf("%d searches read a variable one-hot: the search without answered and agreed on %d, did not answer on %d", hotSearches, unhotAgrees, hotOnly)
		if hotSearches < systems/2 || unhotAgrees < hotSearches/4 || hotOnly == 0 {
			t.Errorf("too few searches with a variable one-hot (%d), answers without (%d), or answers only with (%d)", hotSearches, unhotAgrees, hotOnly)
		}
	}
	if sparse {
		t.Logf("%d searches projected dead variables out; the search without answered and agreed on %d, did not read the system on %d", projectedSearches, unprojectedAgrees, projectedOnly)
		if projectedSearches < systems/4 || unprojectedAgrees < projectedSearches/2 {
			t.Errorf("too few searches with dead variables projected out (%d) or answers of the search without (%d)", projectedSearches, unprojectedAgrees)
		}
	}
	if rangedNet {
		t.Logf("%d searches on the ranged reading answered: %d refuted, %d proved", rangedSearches, refuted, proved)
		if rangedSearches < systems/4 || refuted == 0 || proved == 0 {
			t.Errorf("too few answers of the ranged reading (%d), refutations (%d) or proofs (%d)", rangedSearches, refuted, proved)
		}
	}
	if boolNet {
		t.Logf("%d searches on a system loosened by its linear invariants", loosened)
		if loosened < systems/4 {
			t.Errorf("too few searches on a loosened system: %d", loosened)
		}
	}
	if generalize {
		// Only the searches that generalized are counted above.
		t.Logf("%d searches generalized some element, %d started again after a wrong guess", generalized, restarted)
		if generalized < systems/40 || restarted == 0 || refuted == 0 || proved == 0 {
			t.Errorf("too few searches with generalized elements (%d), wrong guesses (%d), refutations or proofs", generalized, restarted)
		}
		return
	}
	if paramShift {
		t.Logf("%d monotone properties with a variable starting at a parameter plus a constant", shifted)
		if shifted < systems/20 {
			t.Errorf("too few monotone properties with a variable starting at a parameter plus a constant: %d", shifted)
		}
	}
	if paramInit || paramSize {
		t.Logf("%d monotone properties with a parameter", fromParams)
		if fromParams < systems/20 {
			t.Errorf("too few monotone properties with a parameter: %d", fromParams)
		}
	}
	if bounded {
		t.Logf("%d monotone properties with a bounded shared variable in the model", withBounded)
		if withBounded < systems/10 {
			t.Errorf("too few monotone properties with a bounded variable: %d", withBounded)
		}
	}
	if rangeInit {
		t.Logf("%d monotone properties with a shared integer starting in a range", fromRanges)
		if fromRanges < systems/10 {
			t.Errorf("too few monotone properties with a range: %d", fromRanges)
		}
	}
	if spread && spreads < systems/20 {
		t.Errorf("too few monotone properties from a spread: %d", spreads)
	}
	if refuted < systems/50 || proved < systems/50 || spacerAgrees < spacerAsked/2 {
		t.Errorf("the random sample exercises too little")
	}
	if want&testsupport.Broadcasts != 0 && transfers < systems/20 {
		t.Errorf("too few monotone properties with a transfer: %d", transfers)
	}
}

// upwardGuards returns sys with every atom of its guards turned into a
// lower bound on the sum of its variables, weights made positive
// ("#A - 2*#B < 1" becomes "#A + 2*#B - 1 >= 0") and negations dropped:
// guards "at least", which make the counter model monotone unless an
// update that reads a variable does not. With keepBounded, an atom
// over bounded shared variables alone stays as it is ("!lock", "k <= 1":
// the search reads them through complements, complement.go), and so
// does a negation around such atoms.
func upwardGuards(t *testing.T, sys *gsst.System, keepBounded bool) *gsst.System {
	bounded := map[presburger.Var]bool{}
	for j := range sys.Shared {
		if keepBounded && !sys.Shared[j].Unbounded {
			bounded[sys.SharedVar(j)] = true
		}
	}
	onBounded := func(f presburger.Formula) bool {
		vars := presburger.FreeVars(f)
		if len(vars) == 0 {
			return false
		}
		for _, v := range vars {
			if !bounded[v] {
				return false
			}
		}
		return true
	}
	var upward func(f presburger.Formula) presburger.Formula
	upward = func(f presburger.Formula) presburger.Formula {
		if onBounded(f) {
			return f
		}
		switch f := f.(type) {
		case presburger.Cmp:
			var u presburger.Term
			for _, mo := range f.T.Monos {
				u = u.Add(presburger.VarTerm(mo.Var).Scale(max(mo.Coef, -mo.Coef)))
			}
			return presburger.Compare(u.Add(presburger.ConstTerm(f.T.Const)), presburger.Ge, presburger.ConstTerm(0))
		case presburger.Not:
			return upward(f.F)
		case presburger.And:
			out := make(presburger.And, len(f))
			for i, g := range f {
				out[i] = upward(g)
			}
			return out
		case presburger.Or:
			out := make(presburger.Or, len(f))
			for i, g := range f {
				out[i] = upward(g)
			}
			return out
		}
		return f
	}
	spec := sys.Spec() // a copy
	for i := range spec.Transitions {
		tr := &spec.Transitions[i]
		for j := range tr.Blocks {
			if b := &tr.Blocks[j]; b.Guard != nil {
				b.Guard = upward(b.Guard)
				b.Text = presburger.Format(b.Guard, sys.VarName)
			}
		}
	}
	for i := range spec.Rendezvous {
		if rv := &spec.Rendezvous[i]; rv.Guard != nil {
			rv.Guard = upward(rv.Guard)
			rv.Text = presburger.Format(rv.Guard, sys.VarName)
		}
	}
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("the system with upward guards: %v\n%s", err, testsupport.Describe(sys))
	}
	return out
}

// capGuards returns sys with, at random (1 time in 2), each guard of a
// transition conjoined with an upper bound on a counter, or on the sum
// of two: "#A <= 0" or "#A + #B <= 1", over total counters or, when
// the system has several groups, one group's; half of the counters are
// of a group's initial state; 1 time in 6 "#A != 0" instead; withN, 1
// time in 2, "#A >= n" or "#A + #B >= n" instead (every process there).
func capGuards(t *testing.T, r *rand.Rand, sys *gsst.System, withN bool) *gsst.System {
	spec := sys.Spec()
	counter := func() presburger.Term {
		s, g := r.Intn(len(spec.States)), r.Intn(len(spec.Groups))
		if r.Intn(2) == 0 {
			// A group's initial state: the lossy reading may empty
			// it where the model cannot.
			s, _ = spec.InitState(g)
		}
		if len(spec.Groups) > 1 && r.Intn(2) == 0 {
			return presburger.VarTerm(spec.GroupVar(s, g))
		}
		return presburger.VarTerm(spec.TotalVar(s))
	}
	for i := range spec.Transitions {
		tr := &spec.Transitions[i]
		for j := range tr.Blocks {
			if r.Intn(2) == 0 {
				continue
			}
			b := &tr.Blocks[j]
			c := counter()
			if r.Intn(2) == 0 {
				c = c.Add(counter())
			}
			cap := presburger.Compare(c, presburger.Le, presburger.ConstTerm(int64(r.Intn(2))))
			if r.Intn(6) == 0 {
				// "#A != 0": its clause "#A < 0" is a cap no state
				// meets, the other a lower bound.
				cap = presburger.Compare(c, presburger.Ne, presburger.ConstTerm(0))
			}
			if withN && r.Intn(2) == 0 {
				// "Every process in A (and B)": a cap on the others
				// once n is their sum (poolSums).
				cap = presburger.Compare(c, presburger.Ge, presburger.VarTerm(spec.NVar()))
			}
			if b.Guard == nil {
				b.Guard = cap
			} else {
				b.Guard = presburger.Conj(b.Guard, cap)
			}
			b.Text = presburger.Format(b.Guard, sys.VarName)
		}
	}
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("the system with caps: %v\n%s", err, testsupport.Describe(sys))
	}
	return out
}

// spreadRanged returns sys with each ranged group, at random, spread
// over its initial state and another (as initialSetSystem does).
func spreadRanged(t *testing.T, r *rand.Rand, sys *gsst.System) *gsst.System {
	spec := sys.Spec()
	for g := range spec.Groups {
		grp := &spec.Groups[g]
		if !grp.Ranged || r.Intn(3) == 0 || len(spec.States) < 2 || spec.InitOver != nil && spec.InitOver[g] != nil {
			continue
		}
		spreadOver(r, spec, g)
	}
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("the system with spread groups: %v\n%s", err, testsupport.Describe(sys))
	}
	return out
}

// spreadOver spreads group g of spec over its initial state and another
// drawn by r, all of its processes in the first of the two in Init.
func spreadOver(r *rand.Rand, spec *gsst.Spec, g int) {
	first, _ := spec.InitState(g)
	other := (first + 1 + r.Intn(len(spec.States)-1)) % len(spec.States)
	over := []int{first, other}
	slices.Sort(over)
	if spec.InitOver == nil {
		spec.InitOver = make([][]int, len(spec.Groups))
	}
	spec.InitOver[g] = over
	row := make([]int, len(spec.States))
	row[over[0]] = spec.Groups[g].Size
	spec.Init[g] = row
}

// TestCoverCappedEnd: on a system where the lossy reading reaches a bad
// state that the model does not (the first process into B keeps the
// others in A, and B -> C needs A empty), the search ends with neither
// answer; taking the chain for a run (BreakCaps) gives a run that does
// not replay.
func TestCoverCappedEnd(t *testing.T) {
	sys, err := gsst.Parse("capped.yaml", []byte(`name: capped
states: [A, B, C]
groups: {p: 2..}
init: A
transitions:
  - {from: A, to: B, guard: "#B = 0"}
  - {from: B, to: C, guard: "#A = 0"}
properties:
  none: "AG #C = 0"
`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, s := context.Background(), z3.New()
	m, ts := safetyOf(t, s, sys)
	a := prove.Cover(ctx, m, ts, coverRandomWork)
	if !a.CappedEnd || a.Cex != nil || a.Invariant != nil || a.Capped != 2 {
		t.Fatalf("capped end %v, run %v, invariant %v, %d capped steps; want a capped end, two capped steps", a.CappedEnd, a.Cex != nil, a.Invariant != nil, a.Capped)
	}
	restore := prove.BreakCaps(true, false, false)
	b := prove.Cover(ctx, m, ts, coverRandomWork)
	restore()
	if b.Cex == nil {
		t.Fatal("no run with the caps broken")
	}
	if err := presburger.Replay(ctx, s, ts, *b.Cex); err == nil {
		t.Error("the chain through failing caps replays")
	}
}

// TestCoverProbesSmallInstances: Cubicle's germanish6
// (testdata/cubicle/germanish6.yaml) has a run at proc=3 through steps
// with caps; the lossy backward search alone ends on a chain through a
// step whose caps fail, after hundreds of millions of comparisons. The
// small instances explored between its rounds give the run, which
// replays, within two rounds (the work counted, the same on every
// machine).
func TestCoverProbesSmallInstances(t *testing.T) {
	ctx, s := context.Background(), z3.New()
	m, ts := firstSafety(t, s, "cubicle", "germanish6.yaml")
	const work = 1 << 31
	a, run := prove.CoverProbing(ctx, m, ts, work)
	if run == nil || a.Capped == 0 || a.Cex != nil || a.Invariant != nil || a.CappedEnd {
		t.Fatalf("probe's run %v, %d capped steps, search's run %v, invariant %v, capped end %v; want the probe's run alone, caps", run != nil, a.Capped, a.Cex != nil, a.Invariant != nil, a.CappedEnd)
	}
	if err := presburger.Replay(ctx, s, ts, *run); err != nil {
		t.Fatalf("the probe's run does not replay: %v", err)
	}
	// The probes skip the instances they explored to the end: the run
	// is the one the search of the small instances finds at once.
	if c := prove.SearchSmall(ctx, s, m, ts); c == nil || !maps.Equal(c.Params, run.Params) || len(c.States) != len(run.States) {
		t.Errorf("the small-instance search finds %v; the probe %v in %d states", c, run.Params, len(run.States))
	}
	if a.Work > 30_000_000 {
		t.Errorf("the search did %d comparisons before the probe's run; want two rounds, under 30 million", a.Work)
	}
	if testing.Short() {
		return
	}
	b := prove.Cover(ctx, m, ts, work)
	if !b.CappedEnd || b.Work <= a.Work {
		t.Errorf("alone, the search ends capped %v after %d comparisons; want a capped end after more than %d", b.CappedEnd, b.Work, a.Work)
	}
}

// TestCoverReadsN: the search reads testdata/cubicle/illinois-n.yaml,
// whose guard "#L1 = n" is a cap once n is the sum of the counters
// (poolSums), and proves it with an invariant that states that sum; one
// that leaves it out fails consecution (a state whose counters do not
// sum to n takes the step), which the check catches.
func TestCoverReadsN(t *testing.T) {
	ctx, s := context.Background(), z3.New()
	m, ts := firstSafety(t, s, "cubicle", "illinois-n.yaml")
	a := prove.Cover(ctx, m, ts, coverRandomWork)
	if a.Invariant == nil || a.Pooled != 1 || a.Capped == 0 {
		t.Fatalf("invariant %v, %d sizes read as sums, %d capped steps; want an invariant, n read as the sum, a cap", a.Invariant != nil, a.Pooled, a.Capped)
	}
	if err := presburger.CheckInvariant(ctx, s, ts, a.Invariant); err != nil {
		t.Fatalf("the invariant %s fails: %v", m.FormatFormula(a.Invariant), err)
	}
	restore := prove.BreakCaps(false, false, true)
	b := prove.Cover(ctx, m, ts, coverRandomWork)
	restore()
	if b.Invariant == nil {
		t.Fatal("no invariant with the sum left out")
	}
	if err := presburger.CheckInvariant(ctx, s, ts, b.Invariant); err == nil {
		t.Errorf("the invariant without the sum, %s, passes the check", m.FormatFormula(b.Invariant))
	}
}

// firstSafety loads testdata/dir/file and returns what safetyOf does.
func firstSafety(t *testing.T, s presburger.Solver, dir, file string) (*counterabs.ParamModel, presburger.TransitionSystem) {
	t.Helper()
	sys, err := gsst.Load(filepath.Join("..", "testdata", dir, file))
	if err != nil {
		t.Fatal(err)
	}
	return safetyOf(t, s, sys)
}

// safetyOf returns the parametric model of sys (counterabs.BuildParam)
// and the transition system whose bad states violate its first
// property, a safety property.
func safetyOf(t *testing.T, s presburger.Solver, sys *gsst.System) (*counterabs.ParamModel, presburger.TransitionSystem) {
	t.Helper()
	m, err := counterabs.BuildParam(context.Background(), sys, s)
	if err != nil {
		t.Fatal(err)
	}
	ps := m.TransitionSystem()
	phi, _ := counterabs.SafetyFormula(m.Properties[0].Formula)
	return m, ps.Question(presburger.Negation(phi))
}

// TestCoverPremiseCap: a group spread over o and p with the premise
// "#p <= k" (a pointer free at the start, as a translation of Cubicle's
// germanish may write it): no initial state lies above an element that
// asks more than k processes in p, so backward coverability proves the
// property for k = 1 and refutes it, with a run that replays, for k = 2.
//
// With a state d that no step enters, whose counter the search projects
// out (coverdead.go), the premise "#p + #d <= k" is such a bound too:
// d starts empty in every initial state.
func TestCoverPremiseCap(t *testing.T) {
	for _, tc := range []struct {
		k           int
		states, cap string
		more        string
	}{{1, "o, p, c", "#p", ""}, {2, "o, p, c", "#p", ""}, {1, "o, p, c, d", "#p + #d", "\n  - {from: d, to: c}"}, {2, "o, p, c, d", "#p + #d", "\n  - {from: d, to: c}"}} {
		k := tc.k
		sys, err := gsst.Parse("premise.yaml", []byte(fmt.Sprintf(`name: premise
states: [%s]
groups: {proc: 1..}
init: [o, p]
transitions:
  - {from: p, to: c}%s
properties:
  one: "%s <= %d -> AG #c <= 1"
`, tc.states, tc.more, tc.cap, k)))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := prove.Check(context.Background(), sys, z3.New(), z3.New())
		if err != nil {
			t.Fatal(err)
		}
		res := rep.Results[0]
		want := prove.Proved
		if k == 2 {
			want = prove.Refuted
		}
		if res.Verdict != want || res.Method != prove.ByCoverability {
			t.Errorf("%s <= %d: %v by %q (%s), want %v by backward coverability", tc.cap, k, res.Verdict, res.Method, res.Reason, want)
		}
	}
}

// TestCoverProjectionRandom is TestCoverTransfersRandom on systems of
// up to coverSparseStates states and coverSparseTransitions
// transitions, where most states are never entered: the search
// projects their counters, dead, out of its vectors (coverdead.go). A
// projection that drops a step that fires, keeps a bad state that asks
// for a dead counter, misreads a sum over one or writes a run or an
// invariant without the dead counters' values fails it under -short,
// through the replay, CheckInvariant, exploration, Spacer, or the
// search without the projection, which must answer alike.
const coverSparseStates, coverSparseTransitions = 10, 4

func TestCoverProjectionRandom(t *testing.T) {
	systems := 400
	if testing.Short() {
		systems /= 4
	}
	checkCoverRandom(t, 35, systems, testsupport.Broadcasts, testsupport.SharedVars|testsupport.Rendezvous, coverSparse)
}

// TestCoverProjectionCapsRandom is TestCoverProjectionRandom with the
// caps of TestCoverCapsNRandom (capGuards), over dead counters as well
// as live ones: a cap reads a dead counter at its least value.
func TestCoverProjectionCapsRandom(t *testing.T) {
	systems := 400
	if testing.Short() {
		systems /= 4
	}
	checkCoverRandom(t, 36, systems, 0, testsupport.SharedVars|testsupport.Rendezvous|testsupport.Broadcasts, coverSparse|coverCapsN)
}

// TestCoverProjectionBroken: the cross-checks of
// TestCoverProjectionRandom catch proofs that leave the values of the
// variables projected out unstated.
func TestCoverProjectionBroken(t *testing.T) {
	restore := prove.BreakProjection()
	defer restore()
	caught := 0
	checkCoverRandomWith(t, 35, 100, testsupport.Broadcasts, testsupport.SharedVars|testsupport.Rendezvous, coverSparse,
		func(string, ...any) { caught++ })
	t.Logf("%d errors caught", caught)
	if caught == 0 {
		t.Error("nothing caught with the projection broken")
	}
}

// TestCoverTwoGroups: Cubicle's examples with their processes written as
// two groups of one protocol, "proc: 1.." and "other: 1..", both
// starting in the same state (#I = |proc| + |other|, one initial sum of
// two sizes: readInitial). The search reads them and answers as on the
// one group: germanish3 and germanish5 proved by an invariant that the
// check accepts. Before, the sum of two sizes turned the search off,
// and both were unknown after 12 to 15 s.
func TestCoverTwoGroups(t *testing.T) {
	ctx, s := context.Background(), z3.New()
	for _, tc := range []struct {
		file  string
		holds bool
	}{{"germanish3.yaml", true}, {"germanish5.yaml", true}} {
		src, err := os.ReadFile(filepath.Join("..", "testdata", "cubicle", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		two := strings.Replace(string(src), "groups: {proc: 1..}", "groups: {proc: 1.., other: 1..}", 1)
		if two == string(src) {
			t.Fatalf("%s: no group to split", tc.file)
		}
		sys, err := gsst.Parse(tc.file, []byte(two))
		if err != nil {
			t.Fatal(err)
		}
		m, ts := safetyOf(t, s, sys)
		a := prove.Cover(ctx, m, ts, coverRandomWork)
		switch {
		case !a.Applies:
			t.Errorf("%s with two groups: the search does not apply", tc.file)
		case tc.holds && a.Invariant == nil, !tc.holds && a.Cex == nil:
			t.Errorf("%s with two groups: invariant %v, run %v; want the %v answer", tc.file, a.Invariant != nil, a.Cex != nil, tc.holds)
		case tc.holds:
			if err := presburger.CheckInvariant(ctx, s, ts, a.Invariant); err != nil {
				t.Errorf("%s with two groups: the invariant fails: %v", tc.file, err)
			}
		default:
			if err := presburger.Replay(ctx, s, ts, *a.Cex); err != nil {
				t.Errorf("%s with two groups: the run does not replay: %v", tc.file, err)
			}
		}
	}
}

// TestCoverHoudiniSteps: testdata/styles/extendedread-write-flagproc.yaml
// writes each boolean place of mist's extendedread-write as a group of
// one process, whose steps include the cases that put a token where
// one is already (a rendezvous that leaves the place's process alone):
// they break the net's place invariants, which the Farkas algorithm
// over every step then misses. Computed as a least fixpoint, the
// invariants exclude those steps, and the search proves the net within
// its first round; without the fixpoint it does not. A fixpoint stopped
// after its first round leaves out steps that runs take: the checks
// reject the invariant it leads to.
func TestCoverHoudiniSteps(t *testing.T) {
	ctx, s := context.Background(), z3.New()
	m, ts := firstSafety(t, s, "styles", "extendedread-write-flagproc.yaml")
	const work = 2_000_000 // the first round of the search
	a := prove.Cover(ctx, m, ts, work)
	if a.Invariant == nil || a.Dropped == 0 {
		t.Fatalf("invariant %v, %d steps left out; want an invariant, steps left out", a.Invariant != nil, a.Dropped)
	}
	if err := presburger.CheckInvariant(ctx, s, ts, a.Invariant); err != nil {
		t.Fatalf("the invariant fails its check: %v", err)
	}
	restore := prove.WithoutHoudiniSteps()
	b := prove.Cover(ctx, m, ts, work)
	restore()
	if b.Invariant != nil || b.Cex != nil || b.Dropped != 0 {
		t.Errorf("without the fixpoint: invariant %v, run %v, %d steps left out; want neither answer within %d comparisons", b.Invariant != nil, b.Cex != nil, b.Dropped, work)
	}
	restore = prove.BreakHoudiniSteps()
	c := prove.Cover(ctx, m, ts, work)
	restore()
	if c.Invariant == nil || c.Dropped <= a.Dropped {
		t.Fatalf("stopped after a round: invariant %v, %d steps left out; want an invariant, more than %d left out", c.Invariant != nil, c.Dropped, a.Dropped)
	}
	if err := presburger.CheckInvariant(ctx, s, ts, c.Invariant); err == nil {
		t.Errorf("the invariant of a fixpoint stopped after a round passes its check")
	}
}

// TestCoverDeadInBadSum: a state that no step enters (tb, a copy of t
// that a translation split off) is projected out of the search's
// vectors; the bad states' "#t + #tb = 1" is then "#t = 1", whose upper
// half "#f + #t = 1" implies. The search reads the clause so, and
// proves the property; reading the sum before the projection, it took
// the clause for no upward-closed set and did not apply.
func TestCoverDeadInBadSum(t *testing.T) {
	sys, err := gsst.Parse("split.yaml", []byte(`name: split
states: [S, f, t, tb]
groups: {net: 1, g: 1}
init: {net: S, g: f}
shared:
  x: {type: "0..", init: 0}
transitions:
  - {name: inc, from: S, to: S, guard: "#f = 1", update: "x := x + 1"}
  - {name: go, from: f, to: t, guard: "x >= 2"}
  - {name: back, from: t, to: f}
properties:
  one: "AG !(#t + #tb = 1 & #f = 1)"
`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, s := context.Background(), z3.New()
	m, ts := safetyOf(t, s, sys)
	a := prove.Cover(ctx, m, ts, coverRandomWork)
	if !a.Applies || a.Projected == 0 || a.Invariant == nil {
		t.Fatalf("applies %v, %d projected, invariant %v; want an invariant, tb projected out", a.Applies, a.Projected, a.Invariant != nil)
	}
	if err := presburger.CheckInvariant(ctx, s, ts, a.Invariant); err != nil {
		t.Fatalf("the invariant fails its check: %v", err)
	}
}
