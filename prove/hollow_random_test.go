package prove_test

import (
	"context"
	"fmt"
	"math/rand"
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

// hollowSystem returns sys with a state Z added and, on every
// transition, a transfer out of Z into the transition's target (a
// broadcast whose source, with entered false, no process ever holds:
// Cubicle's "forall other j" on a value nobody has). With entered set,
// a step from an initial state into Z makes the transfers move
// processes, so that firing must keep them.
func hollowSystem(t *testing.T, sys *gsst.System, entered bool) *gsst.System {
	t.Helper()
	spec, z := withState(sys.Spec())
	trs := append([]gsst.Transition(nil), spec.Transitions...)
	for k := range trs {
		tr := &trs[k]
		tr.Broadcast = append(append([]gsst.Transfer(nil), tr.Broadcast...), gsst.Transfer{From: z, To: tr.To})
	}
	if entered {
		first := 0
		for st, c := range spec.Init[0] {
			if c > 0 {
				first = st
				break
			}
		}
		trs = append(trs, gsst.Transition{Name: "intoZ", From: first, To: z,
			Blocks: []gsst.Block{{Groups: allGroups(spec), Guard: presburger.True}}})
	}
	spec.Transitions = trs
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("%v\n%s", err, testsupport.Describe(sys))
	}
	return out
}

// forHollowSystems draws systems systems (draw, with the system's
// index), checks each, and calls f with the system made hollow and then
// entered (hollowSystem), its kind ("hollow", "entered") and the report
// on the system drawn.
func forHollowSystems(t *testing.T, ctx context.Context, s *z3.Solver, systems int, draw func(i int) *gsst.System, f func(i int, kind string, entered bool, sys *gsst.System, want *prove.Report)) {
	t.Helper()
	for i := range systems {
		base := draw(i)
		want, err := prove.Check(ctx, base, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(base))
		}
		for _, entered := range []bool{false, true} {
			kind := "hollow"
			if entered {
				kind = "entered"
			}
			f(i, kind, entered, hollowSystem(t, base, entered), want)
		}
	}
}

// TestHollowTransfersRandom checks firing's hollow transfers on random
// systems of every construct: with a transfer out of a state nobody
// enters on every transition, the safety models leave the transfers out
// (on most systems: the model's reason says so), but never those out of
// a counter a run may fill, every verdict is the
// one the system without Z gets where both are decided, and each is
// exploration's at every small instance; with Z entered, the
// transfers move processes, and every verdict is again the oracle's
// (leaving them out there would miss the runs they make).
func TestHollowTransfersRandom(t *testing.T) {
	systems := 40
	if testing.Short() {
		systems = 12
	}
	r := rand.New(rand.NewSource(29))
	ctx, s := context.Background(), z3.New()
	counts := map[string]int{}
	forHollowSystems(t, ctx, s, systems, func(i int) *gsst.System { return testsupport.RandomSystem(r, constructsConfig(i)) }, func(i int, kind string, entered bool, sys *gsst.System, want *prove.Report) {
		m, err := counterabs.BuildParam(ctx, sys, s)
		if err != nil {
			t.Fatal(err)
		}
		cut, err := prove.Firing(ctx, s, m)
		if err != nil {
			t.Fatalf("system %d (%s): %v\n%s", i, kind, err, testsupport.Describe(sys))
		}
		// Z is the last state. A step kept (a case of its guard
		// keeps its Steps) without its transfer out of Z has lost
		// it; that may be only when no run fills Z.
		z := len(sys.States) - 1
		raised := prove.RaisedCounters(m)
		zRaised := false
		for c := range m.Counters {
			zRaised = zRaised || m.Counters[c].State == z && raised[c]
		}
		fromZ := func(tr *counterabs.ParamTransition) bool {
			return slices.ContainsFunc(tr.Transfers, func(mv counterabs.Move) bool { return m.Counters[mv.From].State == z })
		}
		lost := 0
		for k := range cut.Transitions {
			ct := &cut.Transitions[k]
			for j := range m.Transitions {
				if ot := &m.Transitions[j]; slices.Equal(ot.Steps, ct.Steps) && fromZ(ot) && !fromZ(ct) {
					lost++
					break
				}
			}
		}
		switch {
		case zRaised && lost > 0:
			t.Errorf("system %d (%s): the transfers out of Z, which a run may fill, were left out of %d steps\n%s", i, kind, lost, testsupport.Describe(sys))
		case lost > 0 && strings.Contains(cut.Reason, "transfers of"):
			counts[kind+" cut"]++
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d (%s): %v\n%s", i, kind, err, testsupport.Describe(sys))
		}
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			counts[kind+" "+res.Verdict.String()]++
			if res.Verdict != prove.Proved && res.Verdict != prove.Refuted {
				continue
			}
			id := fmt.Sprintf("system %d (%s)", i, kind)
			if w := want.Results[k].Verdict; !entered && (w == prove.Proved || w == prove.Refuted) && w != res.Verdict {
				t.Errorf("%s: %s %v, without Z %v\n%s", id, p.Name, res.Verdict, w, testsupport.Describe(sys))
			}
			checkByExploration(t, id, sys, k, res)
		}
	})
	t.Logf("%d systems: %v", systems, counts)
	if counts["hollow cut"] < systems/2 {
		t.Errorf("the hollow transfers were left out of %d models of %d, want at least half", counts["hollow cut"], systems)
	}
	if counts["hollow "+prove.Proved.String()] == 0 || counts["entered "+prove.Refuted.String()]+counts["hollow "+prove.Refuted.String()] == 0 {
		t.Errorf("the random sample exercises too little: %v", counts)
	}
}

// checkByExploration checks the verdict res of sys's property k against
// the reachable states of each small instance (explore, as
// TestProveConstructsRandom does): a proved property fails at none, a
// refuted one fails at the instance of its run.
func checkByExploration(t *testing.T, id string, sys *gsst.System, k int, res prove.Result) {
	t.Helper()
	p := &sys.Properties[k]
	for _, inst := range testsupport.Instances(sys, extParamMax, extSizeMax) {
		bad := slices.ContainsFunc(explore(sys, inst), func(st extState) bool { return failsAt(p.Formula, st.valuation(sys, inst)) })
		switch {
		case res.Verdict == prove.Proved && bad:
			t.Errorf("%s: %s (%s) proved (invariant %s), but fails at %v\n%s", id, p.Name, p.Text, res.InvariantText, inst, testsupport.Describe(sys))
		case res.Verdict == prove.Refuted && !bad && slices.Equal(res.Sizes, inst.Sizes) && slices.Equal(res.Params, inst.Params):
			t.Errorf("%s: %s (%s) refuted at %v, where exploration finds no violation\n%s", id, p.Name, p.Text, inst, testsupport.Describe(sys))
		}
	}
}

// TestHollowTransfersLiveRandom checks liveFiring on random systems with
// response properties and fairness (liveConfig), each with a transfer
// out of a state Z on every transition (hollowSystem). With Z entered
// by nobody, liveFiring leaves the transfers out of the model with a
// counter for every state (BuildParamGroup without RunSteps), and the
// liveness model prove asks (with RunSteps) has no counter of Z and no
// transfer out of it at all, which the reason of every proof says; with
// Z entered (by group 0), the transfers out of a counter a run may fill
// stay (leaving out every transfer is caught). Every certificate found
// without the transfers is re-checked on the model with them (the
// reason says so), every verdict is the one the system without Z gets
// where both are decided, and every proof and refutation is checked
// against the process-level oracle at every instance of the box, or at
// the refutation's (prove has also replayed its lasso there).
func TestHollowTransfersLiveRandom(t *testing.T) {
	systems := 60
	if testing.Short() {
		systems = 20
	}
	r := rand.New(rand.NewSource(31))
	ctx, s := context.Background(), z3.New()
	counts := map[string]int{}
	forHollowSystems(t, ctx, s, systems, func(int) *gsst.System { return testsupport.RandomSystem(r, liveConfig) }, func(i int, kind string, entered bool, sys *gsst.System, want *prove.Report) {
		id := fmt.Sprintf("system %d (%s)", i, kind)
		// prove's liveness model (RunSteps) has no counter of Z when
		// nobody enters it, and so no transfer out of it.
		z := len(sys.States) - 1
		asked, err := counterabs.BuildParamGroup(sys, counterabs.RunSteps())
		if err != nil {
			t.Fatal(err)
		}
		fromZ := slices.ContainsFunc(asked.Transitions, func(tr counterabs.ParamTransition) bool {
			return slices.ContainsFunc(tr.Transfers, func(mv counterabs.Move) bool { return asked.Counters[mv.From].State == z })
		})
		if !entered && fromZ {
			t.Errorf("%s: the liveness model has a transfer out of Z, which nobody enters\n%s", id, testsupport.Describe(sys))
		}
		// liveFiring on the model with every counter keeps every
		// step, in order; a transfer it loses must leave a counter
		// that stays 0.
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		cut, err := prove.LiveFiring(ctx, s, m)
		if err != nil {
			t.Fatalf("%s: %v\n%s", id, err, testsupport.Describe(sys))
		}
		raised := prove.RaisedCounters(m)
		lost := 0
		for k := range m.Transitions {
			for _, mv := range m.Transitions[k].Transfers {
				if !slices.Contains(cut.Transitions[k].Transfers, mv) {
					lost++
					if raised[mv.From] {
						t.Errorf("%s: the transfer out of %s, which a run may fill, was left out of the liveness model\n%s", id, m.VarName(presburger.Var(mv.From)), testsupport.Describe(sys))
					}
				}
			}
		}
		if slices.ContainsFunc(m.Transitions, func(tr counterabs.ParamTransition) bool { return len(tr.Transfers) > 0 }) {
			counts[kind+" with transfers"]++
		}
		if lost > 0 {
			counts[kind+" model cut"]++
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("%s: %v\n%s", id, err, testsupport.Describe(sys))
		}
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			counts[kind+" "+res.Verdict.String()]++
			if res.Verdict == prove.Proved && prove.IsLiveness(p.Formula) && !entered && !strings.Contains(res.LevelReason, "never enters") {
				t.Errorf("%s: %s proved on a model with a counter of Z, which nobody enters (%s)", id, p.Name, res.LevelReason)
			}
			if strings.Contains(res.LevelReason, "transfers of") {
				counts[kind+" cut"]++
				// A certificate found without the transfers counts only
				// re-checked on the model with them.
				if res.Live != nil && !strings.Contains(res.LevelReason, "re-checked on the model with them") {
					t.Errorf("%s: %s proved without the transfers, its certificate not re-checked with them (%s)", id, p.Name, res.LevelReason)
				}
			}
			if w := want.Results[k].Verdict; !entered && (w == prove.Proved || w == prove.Refuted) && (res.Verdict == prove.Proved || res.Verdict == prove.Refuted) && w != res.Verdict {
				t.Errorf("%s: %s %v, without Z %v\n%s", id, p.Name, res.Verdict, w, testsupport.Describe(sys))
			}
			if res.Verdict == prove.Proved || res.Verdict == prove.Refuted {
				checkByOracle(t, id, sys, p, res)
			}
		}
	})
	t.Logf("%d systems: %v", systems, counts)
	// Z is never entered in the hollow systems: every transfer out of it
	// goes, in each model that has one.
	if counts["hollow model cut"] != counts["hollow with transfers"] || counts["hollow with transfers"] == 0 {
		t.Errorf("the hollow transfers were left out of %d liveness models of the %d with transfers", counts["hollow model cut"], counts["hollow with transfers"])
	}
	if counts["hollow "+prove.Proved.String()] == 0 || counts["hollow "+prove.Refuted.String()] == 0 || counts["entered "+prove.Refuted.String()] == 0 {
		t.Errorf("the random sample exercises too little: %v", counts)
	}
}

// TestHollowTransfersCycle: two hollow transfers, Z1 -> Z2 and Z2 -> Z1,
// would close a cycle in the local states' graph of a liveness model
// with a counter of every state, which then fails the settling check.
// The model prove asks has no counter of a state its group never enters
// (RunSteps), so none of Z1 and Z2 and no transfer: a property decided
// only on a system that settles ("!EG a") is proved by settling, as on
// the system written without the transfers, and the response property
// by a ranking certificate; each reason says that the counters left out
// are 0.
func TestHollowTransfersCycle(t *testing.T) {
	sys, err := gsst.Parse("hollowcycle.yaml", []byte(`name: hollowcycle
states: [A, B, C, Z1, Z2]
groups:
  proc: 1..
init: A
transitions:
  - {from: A, to: B, broadcast: [Z1 -> Z2]}
  - {from: B, to: C, broadcast: [Z2 -> Z1]}
fairness:
  weak: [A -> B, B -> C]
properties:
  settled: "!EG #C = 0"
  response: "AF #A + #B = 0"
`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, s := context.Background(), z3.New()
	rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(liveWork))
	if err != nil {
		t.Fatal(err)
	}
	for k, settled := range []bool{true, false} {
		res := rep.Results[k]
		t.Logf("%s: %v (%s; %s)", res.Property.Name, res.Verdict, res.Reason, res.LevelReason)
		switch {
		case res.Verdict != prove.Proved:
			t.Errorf("%s: %v, want proved (%s)", res.Property.Name, res.Verdict, res.Reason)
		case res.Live.Settled != settled:
			t.Errorf("%s: proved with settled %v, want %v", res.Property.Name, res.Live.Settled, settled)
		case !strings.Contains(res.LevelReason, "never enters"):
			t.Errorf("%s: proved on %s, want the model without the counters of Z1 and Z2", res.Property.Name, res.LevelReason)
		}
	}
}

// TestHollowTransfersLiveStyles: ByMC's c1cs in tokens and strb with its
// thresholds over the states, each written with a broadcast "Zdead ->
// target" on every step out of a state nobody enters
// (testdata/styles/*-zdead.yaml), have their liveness properties proved
// on the model without those transfers: it has no counter of Zdead,
// which nobody enters (RunSteps); with the transfers kept (main before
// liveFiring), fast0 and relay were unknown, out of work. The work is
// vsym prove's default budget per property (analysis.PropertyWork), so
// that such a regression fails in seconds rather than runs on.
func TestHollowTransfersLiveStyles(t *testing.T) {
	for _, name := range []string{"c1cs-tokens-live-zdead.yaml", "strb-states-spread-zdead.yaml"} {
		_, rep := proveStyle(t, name, prove.MaxWork(20_000_000))
		for _, r := range rep.Results {
			switch {
			case r.Verdict != prove.Proved:
				t.Errorf("%s: %s %v (%s), want proved", name, r.Property.Name, r.Verdict, r.Reason)
			case prove.IsLiveness(r.Property.Formula) && !strings.Contains(r.LevelReason, "never enters"):
				t.Errorf("%s: %s proved on %s, want the model without the counters of Zdead and its transfers", name, r.Property.Name, r.LevelReason)
			}
		}
	}
}
