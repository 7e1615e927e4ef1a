package explore_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/nusmv"
	"github.com/vsym/vsym/presburger/z3"
)

// runNuSMV runs the binary on text with -dcx (no counterexamples) and
// args, and returns its verdict per CTLSPEC name.
func runNuSMV(t *testing.T, bin, text string, args ...string) map[string]bool {
	t.Helper()
	v, _ := testsupport.RunNuSMV(t, bin, text, false, args...)
	return v
}

// TestNuSMV runs the real NuSMV 2.6 (the binary named by the environment
// variable NUSMV) with -df on the models vsym emits for random small
// systems (testsupport's generator, with fairness constraints on about
// three quarters of them): the group-counter model of every system, the
// total-counter model (counterabs.Build with Z3) of those certified fully
// virtually symmetric whose properties and fairness read total counters,
// and the concrete model. NuSMV's verdict on each specification, found by
// name in its property table, must equal vsym's: the oracle's on the
// unreduced system, which the explicit and BDD engines must match on the
// counter models first. A third of the models are also run without -df
// (reachable states first), which must not change a verdict.
func TestNuSMV(t *testing.T) {
	bin := os.Getenv("NUSMV")
	if bin == "" {
		t.Skip("NUSMV is not set: set it to a NuSMV 2.6 binary to run the emitted models through it")
	}
	r := rand.New(rand.NewSource(9041))
	const systems = 160
	solver := z3.New()
	ctx := context.Background()
	var fair, models, compared, totals int
	for k := 0; k < systems; k++ {
		total := k%2 == 1
		sys := testsupport.RandomSystem(r, testsupport.FairConfig(fmt.Sprintf("smv%d", k), total))
		if !sys.Fairness.Empty() {
			fair++
		}
		o := testsupport.NewOracle(sys)
		want := map[string]bool{}
		for _, p := range sys.Properties {
			want[p.Name] = o.Holds(p.Formula)
		}
		engines := func(m *counterabs.Model) {
			for _, e := range []explore.Engine{explicit.Engine{}, symbolic.DefaultBDD()} {
				rep, err := e.Check(ctx, m, explore.Traces(false))
				if err != nil {
					t.Fatalf("%s: %s on the %s model: %v", sys.Name, e.Name(), m.Level, err)
				}
				for _, p := range rep.Properties {
					if p.Holds != want[p.Name] {
						t.Fatalf("%s: %s on the %s model says %s is %v, the oracle %v\n%s", sys.Name, e.Name(), m.Level, p.Name, p.Holds, want[p.Name], testsupport.Describe(sys))
					}
				}
			}
		}
		check := func(what, text string) {
			runs := [][]string{{"-df"}}
			if models%3 == 0 {
				runs = append(runs, nil) // reachable states first
			}
			for _, args := range runs {
				got := runNuSMV(t, bin, text, args...)
				models++
				if len(got) != len(want) {
					t.Fatalf("%s: %s %v: NuSMV gave %d verdicts for %d properties\n%s", sys.Name, what, args, len(got), len(want), text)
				}
				for _, p := range sys.Properties {
					name := p.Name // random names are NuSMV identifiers already
					g, ok := got[name]
					if !ok {
						t.Fatalf("%s: %s: no verdict for %s from NuSMV\n%s", sys.Name, what, name, text)
					}
					compared++
					if g != want[name] {
						t.Errorf("%s: %s %v: property %s: NuSMV says %v, vsym %v\n%s\n%s", sys.Name, what, args, name, g, want[name], testsupport.Describe(sys), text)
					}
				}
			}
		}
		gm, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		engines(gm)
		text, err := nusmv.Reduced(gm)
		if err != nil {
			t.Fatal(err)
		}
		check("group-counter model", text)
		if total {
			if _, certified := enginetest.BruteCertified(sys); certified {
				tm, err := counterabs.Build(ctx, sys, solver, solver)
				if err != nil {
					t.Fatalf("%s: counterabs.Build: %v", sys.Name, err)
				}
				engines(tm)
				text, err := nusmv.Reduced(tm)
				if err != nil {
					t.Fatal(err)
				}
				check("total-counter model", text)
				totals++
			}
		}
		text, err = nusmv.Concrete(sys)
		if err != nil {
			t.Fatal(err)
		}
		check("concrete model", text)
	}
	t.Logf("NuSMV at %s: %d random systems (%d with fairness, %d total-counter models), %d NuSMV runs on emitted models, %d verdicts compared by name", bin, systems, fair, totals, models, compared)
	if totals < systems/8 || fair < systems/2 || compared < 3*systems {
		t.Errorf("too little compared: %d total-counter models, %d systems with fairness, %d verdicts", totals, fair, compared)
	}
}
