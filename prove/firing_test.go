package prove_test

import (
	"context"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestFiringRandom checks raisedCounters against exploration on random
// systems of every construct: in every configuration reached at the
// small instances, a counter it says no run raises is 0 (at both
// levels); and firing, which leaves the steps out of those counters and
// those whose guards the shared variables' values make false (gsst's
// MayReach), checks that on the model and does not fail. With the
// transfers ignored (BreakRaised), the check catches the counters a
// broadcast fills.
func TestFiringRandom(t *testing.T) {
	systems := 150
	if testing.Short() {
		systems = 50
	}
	r := rand.New(rand.NewSource(5))
	ctx, s := context.Background(), z3.New()
	cut, guarded, caught, broadcasts := 0, 0, 0, 0
	for i := range systems {
		sys := testsupport.RandomSystem(r, constructsConfig(i))
		group, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		total, err := counterabs.BuildParam(ctx, sys, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []*counterabs.ParamModel{group, total} {
			raised := prove.RaisedCounters(m)
			for _, inst := range testsupport.Instances(sys, extParamMax, extSizeMax) {
				for _, st := range explore(sys, inst) {
					for j, c := range m.Counters {
						n := 0
						for g := range sys.Groups {
							if c.Group < 0 || c.Group == g {
								n += st.y[g][c.State]
							}
						}
						if n > 0 && !raised[j] {
							t.Fatalf("system %d, %v level, %v: %s = %d at %v, which raisedCounters says stays 0\n%s",
								i, m.Level, inst, m.VarName(m.StateVar(j)), n, st.y, testsupport.Describe(sys))
						}
					}
				}
			}
			f, err := prove.Firing(ctx, s, m)
			if err != nil {
				t.Fatalf("system %d, %v level: %v\n%s", i, m.Level, err, testsupport.Describe(sys))
			}
			if f != m && len(f.Reason) > len(m.Reason) {
				cut++
				if strings.Contains(f.Reason, "keep to the values some step may give them") {
					guarded++
				}
			}
			if testsupport.ConstructsOf(sys)&testsupport.Broadcasts == 0 {
				continue
			}
			broadcasts++
			restore := prove.BreakRaised()
			_, err = prove.Firing(ctx, s, m)
			restore()
			if errkind.Of(err) == errkind.Internal {
				caught++
			}
		}
	}
	t.Logf("%d models of %d systems with steps no run takes left out, %d of them with steps whose guards the shared variables' values make false; %d of %d models with broadcasts caught with the transfers ignored", cut, systems, guarded, caught, broadcasts)
	if cut < systems/10 || guarded < systems/20 {
		t.Errorf("%d models had steps left out, %d steps whose guards no run meets; want %d and %d at least", cut, guarded, systems/10, systems/20)
	}
	if caught == 0 {
		t.Error("ignoring the transfers was never caught")
	}
}

// TestCarryCutFacts: a proof found on a model firing cut, carried to
// the system as written, states what firing checked before the cut.
// From the premise #A = 0 no process is ever in A, so the step out of A
// (it clears v) is left out, and the narrowed question's invariant is
// v alone (the step into A, guarded by #A >= 1, keeps it); on the system
// as written v is inductive only with #A = 0, which the carried
// invariant must say.
func TestCarryCutFacts(t *testing.T) {
	sys, rep := checkSource(t, "cutfacts.yaml", `name: cutfacts
params: [n]
shared:
  v: {type: bool, init: true}
states: [A, B]
groups: {g: n}
init:
  g: [A, B]
transitions:
  - {from: A, to: B, update: "v := false"}
  - {from: B, to: A, guard: "#A >= 1"}
properties:
  premised: "#A = 0 -> AG v"
`)
	s := z3.New()
	// The step out of A is left out of the narrowed model; the one
	// into A stays (its mover, in B, is there; its guard never holds).
	premise, _ := counterabs.Premise(sys.Properties[0].Formula)
	narrowed, _, _, err := sys.NarrowInitial(premise)
	if err != nil {
		t.Fatal(err)
	}
	m, err := counterabs.BuildParam(context.Background(), narrowed, s)
	if err != nil {
		t.Fatal(err)
	}
	if cut, err := prove.Firing(context.Background(), s, m); err != nil || len(cut.Transitions) != 1 {
		t.Fatalf("firing left %d steps (%v), want 1", len(cut.Transitions), err)
	}
	res := rep.Results[0]
	if res.Verdict != prove.Proved || !strings.Contains(res.LevelReason, "without the step") ||
		!strings.Contains(res.LevelReason, "re-checked on the system as written") || !strings.Contains(res.InvariantText, "#A = 0") {
		t.Errorf("%v (%s), invariant %s; want proved without the step, re-checked on the system as written with #A = 0", res.Verdict, res.LevelReason, res.InvariantText)
	}
}

// TestCarryKeptDomains: a proof found on a model whose shared variable
// firing narrowed by the steps it kept (keptDomains), carried to the
// system as written, states that domain. From the premise #A = 0 no
// process is ever in A, so the step out of A ("x := x + 1") is left
// out and x keeps to 0..1, the values the others write; the narrowed
// question's invariant is phi, !(x = 2 & #C >= 1), which that domain
// makes inductive. On the system as written x has no greatest value (A
// is occupied at the start, and its step raises x), and phi with #A = 0
// is inductive only with x <= 1 (a step into C keeps x), which the
// carried invariant must say.
func TestCarryKeptDomains(t *testing.T) {
	_, rep := checkSource(t, "keptdomains.yaml", `name: keptdomains
params: [n]
shared:
  x: {type: "0..", init: 0}
states: [A, B, C]
groups: {g: n}
init:
  g: [A, B]
transitions:
  - {from: A, to: B, update: "x := x + 1"}
  - {from: B, to: C}
  - {from: C, to: B, update: "x := 1"}
properties:
  premised: "#A = 0 -> AG !(x = 2 & #C >= 1)"
`)
	res := rep.Results[0]
	if res.Verdict != prove.Proved || !strings.Contains(res.LevelReason, "x as 0..1, all the steps left write") ||
		!strings.Contains(res.LevelReason, "re-checked on the system as written") || !strings.Contains(res.InvariantText, "x <= 1") {
		t.Errorf("%v (%s), invariant %s; want proved with x as 0..1, re-checked on the system as written with x <= 1", res.Verdict, res.LevelReason, res.InvariantText)
	}
}

// checkSource parses src (named name) and asks Check of it.
func checkSource(t *testing.T, name, src string) (*gsst.System, *prove.Report) {
	t.Helper()
	sys, err := gsst.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	rep, err := prove.Check(context.Background(), sys, s, s)
	if err != nil {
		t.Fatal(err)
	}
	return sys, rep
}
