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
	for i := range systems {
		base := testsupport.RandomSystem(r, constructsConfig(i))
		want, err := prove.Check(ctx, base, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(base))
		}
		for _, entered := range []bool{false, true} {
			kind := "hollow"
			if entered {
				kind = "entered"
			}
			sys := hollowSystem(t, base, entered)
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
		}
	}
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
