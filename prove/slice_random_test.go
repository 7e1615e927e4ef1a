package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestProveSliceUnreadRandom cross-checks prove.Check on random systems
// with write-only shared variables added (testsupport's AddWriteOnly:
// counters, constants, booleans and copies nothing reads, which Check
// asks without, gsst's SliceUnread; and variables a guard, a property
// or a kept update reads, or whose updates can block a step, which it
// keeps) against explicit exploration of their instances (explore, the
// language's semantics written in this package): a property proved
// must hold in every state reached; one refuted was replayed on its
// instance of the system as given (all its variables) by Check itself,
// and must fail in the explored instance unless the exploration was cut
// short by a counter at extValueCap. A property's answer reports the
// variables left out when it was asked without them. When every added
// variable is left out, the answers are those on the system without
// them (the same sliced system is asked, and a refutation again).
func TestProveSliceUnreadRandom(t *testing.T) {
	systems := 80
	if testing.Short() {
		systems = 30
	}
	r := rand.New(rand.NewSource(41))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	sliced, kept, cutShort, confirmed, compared, lost := 0, 0, 0, 0, 0, 0
	carriedProofs, carriedRuns, askedUnderJustice := 0, 0, 0
	for i := range systems {
		plain := testsupport.RandomSystem(r, constructsConfig(i))
		sys, want, err := testsupport.AddWriteOnly(r, plain, testsupport.WriteOnly{Sliceable: i%3 == 0})
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(plain))
		}
		added := len(sys.Shared) - len(plain.Shared)
		sliced += len(want)
		kept += added - len(want)
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		if rep.System != sys {
			t.Fatalf("system %d: the report is of another system", i)
		}
		for k, res := range rep.Results {
			counts[res.Verdict]++
			if res.Property != &sys.Properties[k] {
				t.Fatalf("system %d: result %d is not of the property as given", i, k)
			}
			if res.Verdict == prove.Proved && len(want) > 0 && !strings.Contains(res.LevelReason, want[0]) {
				t.Errorf("system %d: %s proved without %v, and its reason does not say so: %s", i, res.Property.Name, want, res.LevelReason)
			}
			if res.Verdict == prove.Refuted && len(res.Instance.Shared) != len(sys.Shared) {
				t.Errorf("system %d: %s refuted on an instance with %d shared variables, the system has %d", i, res.Property.Name, len(res.Instance.Shared), len(sys.Shared))
			}
			if len(want) == 0 {
				continue
			}
			// The answers of the sliced system are carried to sys: a
			// proof re-checked on its model (and checked again here,
			// on the model as written), a run replayed on its
			// instance, never asked again.
			switch {
			case res.Sliced != nil && (res.Verdict == prove.Proved || res.Verdict == prove.Refuted):
				t.Errorf("system %d: %s (%v) left as the sliced system's answer", i, res.Property.Name, res.Verdict)
			case prove.AskedAgain(res) && len(sys.Fairness.Justice) > 0:
				// Under justice conditions the run is explore's fair
				// one, of the sliced instance: asked again, by design.
				askedUnderJustice++
			case prove.AskedAgain(res):
				t.Errorf("system %d: %s refuted on the sliced system, and asked again\n%s", i, res.Property.Name, testsupport.Describe(sys))
			case res.Verdict == prove.Proved:
				checkAsWritten(t, ctx, s, i, sys, k, res)
				carriedProofs++
			case res.Verdict == prove.Refuted:
				carriedRuns++
			}
		}
		c, cut := checkReportByExploration(t, i, sys, rep)
		confirmed, cutShort = confirmed+c, cutShort+cut
		if len(want) == added {
			// The same question as without the variables.
			base, err := prove.Check(ctx, plain, s, s, prove.MaxWork(extWork))
			if err != nil {
				t.Fatalf("system %d: %v", i, err)
			}
			for k, res := range base.Results {
				got := rep.Results[k].Verdict
				if got == prove.Unknown && res.Verdict == prove.Refuted {
					// Asked again with the variables, the run may not
					// be found: unknown, which is no answer.
					lost++
					continue
				}
				if got != res.Verdict {
					t.Errorf("system %d: %s is %v with the write-only variables %v, %v without them\n%s", i, res.Property.Name, got, want, res.Verdict, testsupport.Describe(sys))
				}
			}
			compared++
		}
	}
	t.Logf("%d systems, %d write-only variables left out, %d kept: %v; refutations confirmed by exploration %d, beyond its cap %d; %d systems answered as without their write-only variables (%d refutations not found again with them); of the sliced systems' answers, %d proofs and %d runs carried, %d runs under justice asked again",
		systems, sliced, kept, counts, confirmed, cutShort, compared, lost, carriedProofs, carriedRuns, askedUnderJustice)
	if carriedProofs < systems/10 || carriedRuns < systems/10 || sliced < systems/2 || kept < systems/2 || counts[prove.Proved] < systems/4 || counts[prove.Refuted] < systems/4 || confirmed < systems/5 || compared < systems/10 {
		t.Errorf("the sample exercises too little")
	}
}

// TestProveSliceUnreadLiveRandom is the same cross-check for liveness:
// settleSystem's systems (response properties and ByMC's fairness
// premises, shared variables, self-loops, environment steps, justice
// and weak fairness) with write-only variables of finite domains added,
// so that the fair-CTL oracle explores every instance: a property
// proved holds at every size of the box, one refuted fails at its
// instance. A variable whose update blocks a step (0..1 incremented)
// decides which runs stop, which the oracle sees.
func TestProveSliceUnreadLiveRandom(t *testing.T) {
	systems := 20
	if testing.Short() {
		systems = 10
	}
	r := rand.New(rand.NewSource(43))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	sliced, kept, checked, redrawn := 0, 0, 0, 0
	for i := 0; i < systems; {
		plain := settleSystem(t, r)
		sys, want, err := testsupport.AddWriteOnly(r, plain, testsupport.WriteOnly{Bounded: true, Sliceable: i%3 == 0})
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(plain))
		}
		oracles := map[string]*testsupport.FairGraph{}
		tooLarge := false
		for _, sizes := range testsupport.Box(sys, boxMax) {
			inst, err := sys.Instantiate(sizes)
			if err != nil {
				t.Fatalf("system %d at %v: %v", i, sizes, err)
			}
			g, ok := procOracleWithin(inst, oracleStates)
			if !ok {
				tooLarge = true
				break
			}
			oracles[fmt.Sprint(sizes)] = g
		}
		if tooLarge {
			redrawn++
			continue
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		sliced += len(want)
		kept += len(sys.Shared) - len(plain.Shared) - len(want)
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			counts[res.Verdict]++
			switch res.Verdict {
			case prove.Proved:
				for _, sizes := range testsupport.Box(sys, boxMax) {
					if !oracles[fmt.Sprint(sizes)].Holds(p.Formula) {
						t.Errorf("system %d: %s (%s) proved with invariant %s, but fails at %s\n%s",
							i, p.Name, p.Text, res.InvariantText, sys.FormatSizes(sizes), testsupport.Describe(sys))
						break
					}
				}
				checked++
			case prove.Refuted:
				if g := oracles[fmt.Sprint(res.Sizes)]; g != nil && g.Holds(p.Formula) {
					t.Errorf("system %d: %s (%s) refuted at %s, where it holds\n%s", i, p.Name, p.Text, sys.FormatSizes(res.Sizes), testsupport.Describe(sys))
				}
				checked++
			}
		}
		i++
	}
	t.Logf("%d systems (%d drawn anew, too large for the oracle), %d write-only variables left out, %d kept: %v, %d verdicts checked",
		systems, redrawn, sliced, kept, counts, checked)
	if sliced < systems/2 || kept < systems/2 || counts[prove.Proved] < systems/2 || counts[prove.Refuted] < systems/4 {
		t.Errorf("the sample exercises too little")
	}
}

// TestProveSliceUnreadHandmade asks small systems where what a
// write-only variable does decides the answer, each checked against the
// fair-CTL oracle at every size of the box: a step counter that an idle
// rule increments keeps the runs from settling, so a fairness premise
// (!EG a) was skipped; left out, it is decided, as on the system
// without it (which the oracle explores). A variable 0..1 incremented,
// or 0.. decremented, blocks the step (here at once): left in, as the
// step is never taken, which AF reads (and the premise is skipped, the
// idle rule changing the variable).
func TestProveSliceUnreadHandmade(t *testing.T) {
	const base = `
name: %s
states: [A, B]
groups: {p: 1..2}
init: A
%s
transitions:
  - {from: A, to: B%s}
  - {from: B, to: B%s}
fairness:
  justice: ["#A = 0 | #B = 0"]
properties:
  settles: "!EG #A > 0"
  moves: "AF #B > 0"
`
	update := func(u string) string { return `, update: "` + u + `"` }
	s := z3.New()
	check := func(name string, src []byte) (*gsst.System, *prove.Report) {
		sys, err := gsst.Parse(name+".yaml", src)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return sys, rep
	}
	plain, plainRep := check("plain", fmt.Appendf(nil, base, "plain", "", "", ""))
	for _, c := range []struct {
		name, decl, move, idle string
		cut                    bool
	}{
		{"counter", `nsteps: {type: "0..", init: 0}`, "nsteps := nsteps + 1", "nsteps := nsteps + 1", true},
		{"bounded", `w: {type: "0..1", init: 1}`, "w := w + 1", "w := 0", false},
		{"decrement", `w: {type: "0..", init: 0}`, "w := w - 1", "w := w + 1", false},
	} {
		sys, rep := check(c.name, fmt.Appendf(nil, base, c.name, "shared:\n  "+c.decl, update(c.move), update(c.idle)))
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			t.Logf("%s: %s %v", c.name, p.Name, res.Verdict)
			switch {
			case res.Verdict == prove.Skipped && !c.cut && p.Name == "settles":
				continue
			case res.Verdict != prove.Proved && res.Verdict != prove.Refuted:
				t.Errorf("%s: %s %v: %s", c.name, p.Name, res.Verdict, res.Reason)
				continue
			}
			if left := strings.Contains(res.LevelReason, "left out"); left != c.cut {
				t.Errorf("%s: %s: variable left out %v, want %v (%s)", c.name, p.Name, left, c.cut, res.LevelReason)
			}
			oracleOf := sys
			if c.cut {
				// The oracle cannot explore a counter that grows: the
				// answer is the one on the system without it.
				if want := plainRep.Results[k].Verdict; res.Verdict != want {
					t.Errorf("%s: %s %v, %v without the counter", c.name, p.Name, res.Verdict, want)
				}
				oracleOf = plain
			}
			for _, sizes := range testsupport.Box(oracleOf, boxMax) {
				inst, err := oracleOf.Instantiate(sizes)
				if err != nil {
					t.Fatal(err)
				}
				g, ok := procOracleWithin(inst, oracleStates)
				if !ok {
					t.Fatalf("%s at %v: too many states for the oracle", c.name, sizes)
				}
				if holds := g.Holds(oracleOf.Properties[k].Formula); holds != (res.Verdict == prove.Proved) {
					t.Errorf("%s: %s %v, but the oracle says it holds %v at %v", c.name, p.Name, res.Verdict, holds, sizes)
				}
			}
		}
	}
}
