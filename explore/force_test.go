package explore_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/nusmv"
	"github.com/vsym/vsym/presburger/z3"
)

// TestForceSound checks the soundness of --force on hundreds of random
// uncertified systems (30 with -short): the over-approximating
// total-counter model is built by counterabs.Build with Force (Z3 as
// solver and projector, the deadlock condition included), both engines
// check universal and other properties on it, under justice conditions
// over total counters or none, and every verdict they call conclusive (a
// universal property that holds) must hold in the system itself, by the
// oracle's fair CTL on the unreduced state space; so must deadlock
// freedom. Every verdict must be marked inconclusive otherwise. The same
// checks without the deadlock stutters (MayDeadlock removed from the
// model) count the false "holds" that the stutters prevent, so the test
// shows it can fail.
func TestForceSound(t *testing.T) {
	r := rand.New(rand.NewSource(31337))
	solver := z3.New()
	// -short: 51 systems, the first that reaches every count asserted
	// at the end (a conclusive verdict false without the deadlock
	// stutters first comes at system 51, for both engines it runs).
	systems := 300
	if testing.Short() {
		systems = 51
	}
	done, conclusive, inconclusive, deadFree, unsoundWithoutStutter, skipped, smvCompared := 0, 0, 0, 0, 0, 0, 0
	for k := 0; done < systems && k < 20*systems; k++ {
		sys := testsupport.RandomSystem(r, testsupport.FairConfig(fmt.Sprintf("force%d", k), true))
		if _, certified := enginetest.BruteCertified(sys); certified {
			continue
		}
		// Universal properties mostly, two of any kind; justice
		// conditions over total counters only (weak fairness makes every
		// forced verdict inconclusive, checked below on its own).
		sys.Fairness.Weak = nil
		sys.Properties = sys.Properties[:2]
		for i := 0; i < 6; i++ {
			sys.Properties = append(sys.Properties, gsst.Property{Name: fmt.Sprintf("u%d", i), Formula: testsupport.RandomUniversal(r, sys, 3)})
		}
		m, err := counterabs.Build(context.Background(), sys, solver, solver, counterabs.Force())
		if err != nil {
			// Projections that need divisibility constraints are refused
			// by design.
			skipped++
			continue
		}
		done++
		if m.Exact || m.MayDeadlock == nil {
			t.Fatalf("%s: forced model exact %v, deadlock condition %v", sys.Name, m.Exact, m.MayDeadlock)
		}
		o := testsupport.NewOracle(sys)
		if bin := os.Getenv("NUSMV"); bin != "" && done <= 60 {
			// The emitted forced model (stutters where the system may be
			// deadlocked) gives NuSMV the verdicts vsym gives.
			text, err := nusmv.Reduced(m)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := explicit.Engine{}.Check(context.Background(), m, explore.Traces(false))
			if err != nil {
				t.Fatal(err)
			}
			got := runNuSMV(t, bin, text, "-df")
			if len(got) != len(rep.Properties) {
				t.Fatalf("%s: NuSMV gave %d verdicts for %d properties\n%s", sys.Name, len(got), len(rep.Properties), text)
			}
			for _, p := range rep.Properties {
				smvCompared++
				if g, ok := got[p.Name]; !ok || g != p.Holds {
					t.Errorf("%s: NuSMV on the forced model: %v, vsym %s %v\n%s", sys.Name, got, p.Name, p.Holds, text)
				}
			}
		}
		noStutter := *m
		noStutter.MayDeadlock = nil
		for _, ei := range enginesFor(done) {
			eng := engines()[ei]
			rep, err := eng.Check(context.Background(), m, engineOptions[ei]...)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Exact {
				t.Fatalf("%s: forced report says exact", sys.Name)
			}
			if d := o.DeadlockDistance(); rep.DeadlockFree != nil && *rep.DeadlockFree {
				deadFree++
				if d >= 0 {
					t.Errorf("%s, %s: deadlock-free on the forced model, but a deadlock is reachable in the system\n%s", sys.Name, eng.Name(), testsupport.Describe(sys))
				}
			}
			bare, err := eng.Check(context.Background(), &noStutter, engineOptions[ei]...)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range rep.Properties {
				f := sys.Properties[i].Formula
				want := o.Holds(f)
				if p.Inconclusive == "" {
					conclusive++
					if !p.Holds || !want {
						t.Errorf("%s, %s: %s = %s: conclusive %v on the forced model, the system says %v\n%s",
							sys.Name, eng.Name(), p.Name, ctl.Format(f, sys.VarName), p.Holds, want, testsupport.Describe(sys))
					}
				} else {
					inconclusive++
					if p.Holds && !p.Vacuous && ctl.Universal(f) {
						t.Errorf("%s: a universal property that holds is marked inconclusive: %s", sys.Name, p.Inconclusive)
					}
				}
				if b := bare.Properties[i]; b.Inconclusive == "" && !want {
					unsoundWithoutStutter++
				}
			}
		}
	}
	t.Logf("%d uncertified systems (%d skipped: projection refused): %d conclusive verdicts, all true in the system; %d inconclusive; %d deadlock-free reports; without the deadlock stutters %d conclusive verdicts would be false",
		done, skipped, conclusive, inconclusive, deadFree, unsoundWithoutStutter)
	if smvCompared > 0 {
		t.Logf("NuSMV: %d verdicts on forced models compared", smvCompared)
	}
	if done < systems || conclusive < systems || inconclusive < systems || unsoundWithoutStutter == 0 || deadFree == 0 {
		t.Errorf("the random sample exercises too little")
	}
}

// TestForceWeakFairness: with weak fairness of a transition, no verdict
// on a forced model is conclusive.
func TestForceWeakFairness(t *testing.T) {
	sys, err := gsst.Parse("broken.yaml", []byte(`states: [N, T, C]
groups: {reader: 1, writer: 2}
init: N
transitions:
  - {from: N, to: T}
  - from: T
    to: C
    guard: {reader: "#C = 0 & #T = 2", writer: "#C = 0"}
  - {from: C, to: N}
properties:
  mutex: "AG #C <= 1"
fairness:
  weak: [all]
`))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	m, err := counterabs.Build(context.Background(), sys, s, s, counterabs.Force())
	if err != nil {
		t.Fatal(err)
	}
	for _, eng := range engines() {
		rep, err := eng.Check(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		if p := rep.Properties[0]; !p.Holds || p.Inconclusive == "" {
			t.Errorf("%s: mutex holds %v, inconclusive %q", eng.Name(), p.Holds, p.Inconclusive)
		}
	}
}
