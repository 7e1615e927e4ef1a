package nusmv

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/internal/testsupport/pickmodel"
	"github.com/vsym/vsym/presburger/z3"
)

// TestConcreteConstructs runs the concrete models of random instances with
// shared variables (of every kind), per-block updates, broadcasts and
// rendezvous through the real NuSMV 2.6 (the binary the environment
// variable NUSMV names) with -df. Every CTLSPEC verdict must equal the
// oracle's on the unreduced system (testsupport.ProcsWithin, on
// individual processes), and so must the number of reachable states, and the bound check bound_ok must hold exactly
// when no reachable configuration of the system takes an unbounded
// variable beyond the default bound; when it fails, verdicts are not
// compared (the header says they mean nothing then).
func TestConcreteConstructs(t *testing.T) {
	bin := os.Getenv("NUSMV")
	if bin == "" {
		t.Skip("NUSMV is not set: set it to a NuSMV 2.6 binary to run the concrete models of systems with shared variables, broadcast and rendezvous through it")
	}
	r := rand.New(rand.NewSource(2021))
	runs := 120
	if testing.Short() {
		runs = 30
	}
	var specs, verdicts, boundFails, rendezvous, broadcast, unbounded, newSteps int
	for i := range runs {
		// Every fourth system has shared variables for sure.
		in := testsupport.NewExportSpace(randomWithConstructs(r, i))
		sys := in.Sys
		bound, sp, beyond := in.Bounded(i)
		text, err := Concrete(sys, Bound(bound))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		got, reachable := testsupport.RunNuSMV(t, bin, text, true, "-df")
		unboundedVar := emit.HasUnbounded(sys)
		if unboundedVar {
			unbounded++
		}
		if ok, has := got["bound_ok"]; has != unboundedVar {
			t.Fatalf("system %d: bound_ok present %v, unbounded variable %v\n%s", i, has, unboundedVar, text)
		} else if has && ok == beyond {
			t.Fatalf("system %d: NuSMV says bound_ok is %v, the oracle that the bound is exceeded is %v\n%s", i, ok, beyond, text)
		}
		if beyond {
			boundFails++
			continue
		}
		if reachable != sp.Len() {
			t.Fatalf("system %d: NuSMV reaches %d states, the oracle %d\n%s\n%s", i, reachable, sp.Len(), testsupport.Describe(sys), text)
		}
		specs++
		rendezvous += b2i(len(sys.Rendezvous) > 0)
		broadcast += b2i(testsupport.ConstructsOf(sys)&testsupport.Broadcasts != 0)
		newSteps += b2i(testsupport.ConstructsOf(sys)&testsupport.StepConstructs != 0)
		for _, p := range sys.Properties {
			want := testsupport.Holds(sp.Graph, p.Formula)
			v, ok := got[p.Name]
			if !ok {
				t.Fatalf("system %d: NuSMV reports no verdict for %s\n%s", i, p.Name, text)
			}
			if v != want {
				t.Fatalf("system %d, property %s (%s): NuSMV says %v, the oracle %v\n%s\n%s", i, p.Name, p.Text, v, want, testsupport.Describe(sys), text)
			}
			verdicts++
		}
	}
	t.Logf("%d systems compared (%d with rendezvous, %d with broadcast, %d with self-loops, named or environment steps), %d verdicts; %d with an unbounded variable, %d exceeding the bound", specs, rendezvous, broadcast, newSteps, verdicts, unbounded, boundFails)
	if specs < runs/2 || rendezvous == 0 || broadcast == 0 || newSteps == 0 || boundFails == 0 && !testing.Short() {
		t.Fatalf("the generator is out of balance: %d compared, %d rendezvous, %d broadcast, %d bound failures", specs, rendezvous, broadcast, boundFails)
	}
}

// TestConcreteHeaderBound: the header states the parameter values and the
// bound, and the model carries the bound check.
func TestConcreteHeaderBound(t *testing.T) {
	sys := testsupport.BoundedCounter()
	for _, bound := range []int{0, 7, 2} {
		text, err := Concrete(sys, Bound(bound))
		if err != nil {
			t.Fatal(err)
		}
		hi := 3
		if bound > 0 {
			hi = bound
		}
		// Three processes increment nsent once each: a bound of 2 is
		// passed, and NuSMV must say so, on the concrete and on the
		// counter model.
		if bin := os.Getenv("NUSMV"); bin != "" {
			m, err := counterabs.BuildGroup(sys)
			if err != nil {
				t.Fatal(err)
			}
			reduced, err := Reduced(m, Bound(bound))
			if err != nil {
				t.Fatal(err)
			}
			for _, model := range []string{text, reduced} {
				got, _ := testsupport.RunNuSMV(t, bin, model, false, "-df")
				if ok, has := got["bound_ok"]; !has || ok != (hi >= 3) {
					t.Errorf("bound %d: bound_ok is %v (reported %v)\n%s", bound, ok, has, model)
				}
			}
		}
		for _, want := range []string{
			"-- Parameters of this instance (folded into constants): t = 1\n",
			fmt.Sprintf("nsent: 0..%d (unbounded in the spec", hi),
			fmt.Sprintf("  nsent : 0..%d;\n", hi),
			"INVARSPEC NAME bound_ok := ",
			"MEANINGFUL ONLY WHEN bound_ok IS TRUE",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("bound %d: no %q in\n%s", bound, want, text)
			}
		}
	}
	if _, err := Concrete(sys, Bound(-1)); err != nil {
		t.Errorf("a negative bound is the default: %v", err)
	}
}

// TestReducedConstructs runs the group-counter models (counterabs.BuildGroup),
// and the total-counter models (counterabs.Build) of those Z3 certifies, of
// random instances with shared variables, broadcasts and rendezvous
// through the real NuSMV with -df: every CTLSPEC verdict must equal the
// oracle's on the processes, the reachable states must be the oracle's
// distinct (group counters, shared values), and bound_ok must hold
// exactly when no reachable step passes the bound (random instances
// rarely pass it: TestConcreteHeaderBound has one that does).
func TestReducedConstructs(t *testing.T) {
	bin := os.Getenv("NUSMV")
	if bin == "" {
		t.Skip("NUSMV is not set: set it to a NuSMV 2.6 binary to run the counter models of systems with shared variables, broadcast and rendezvous through it")
	}
	r := rand.New(rand.NewSource(2122))
	runs := 100
	if testing.Short() {
		runs = 25
	}
	solver := z3.New()
	var compared, verdicts, boundFails, rendezvous, broadcast, totals, newSteps int
	for i := range runs {
		in := testsupport.NewExportSpace(randomWithConstructs(r, i))
		bound, sp, beyond := in.Bounded(i)
		// Every other instance tries the total-counter model, with the
		// properties over totals only, when Z3 certifies the system.
		sys, m, total, err := pickmodel.Pick(in.Sys, i, solver)
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		wantStates := sp.GroupStates()
		if total {
			wantStates = sp.TotalStates()
			totals++
		}
		text, err := Reduced(m, Bound(bound))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		got, reachable := testsupport.RunNuSMV(t, bin, text, true, "-df")
		if ok, has := got["bound_ok"]; has != emit.HasUnbounded(sys) {
			t.Fatalf("system %d: bound_ok present %v\n%s", i, has, text)
		} else if has && ok == beyond {
			t.Fatalf("system %d: NuSMV says bound_ok is %v, the oracle that the bound is exceeded is %v\n%s", i, ok, beyond, text)
		}
		if beyond {
			boundFails++
			continue
		}
		if reachable != wantStates {
			t.Fatalf("system %d: NuSMV reaches %d states of the %s-counter model, the oracle %d\n%s\n%s", i, reachable, m.Level, wantStates, testsupport.Describe(sys), text)
		}
		compared++
		rendezvous += b2i(len(sys.Rendezvous) > 0)
		broadcast += b2i(testsupport.ConstructsOf(sys)&testsupport.Broadcasts != 0)
		newSteps += b2i(testsupport.ConstructsOf(sys)&testsupport.StepConstructs != 0)
		for _, p := range sys.Properties {
			want := testsupport.Holds(sp.Graph, p.Formula)
			if v, ok := got[p.Name]; !ok || v != want {
				t.Fatalf("system %d, property %s (%s): NuSMV says %v (reported %v), the oracle %v\n%s\n%s", i, p.Name, p.Text, v, ok, want, testsupport.Describe(sys), text)
			}
			verdicts++
		}
	}
	t.Logf("%d systems compared (%d with rendezvous, %d with broadcast, %d with self-loops, named or environment steps, %d total-counter models), %d verdicts; %d exceeding the bound", compared, rendezvous, broadcast, newSteps, totals, verdicts, boundFails)
	if compared < runs/2 || rendezvous == 0 || broadcast == 0 || newSteps == 0 || totals == 0 {
		t.Fatalf("the generator is out of balance: %d compared, %d rendezvous, %d broadcast, %d bound failures", compared, rendezvous, broadcast, boundFails)
	}
}

// randomWithConstructs returns a small random system that may use every
// construct, shared variables for sure when i is a multiple of 4, with
// three random CTL properties over counters and shared variables.
func randomWithConstructs(r *rand.Rand, i int) *gsst.System {
	cfg := testsupport.Small(0, testsupport.AllConstructs)
	if i%4 == 0 {
		cfg.Want = testsupport.SharedVars
	}
	cfg.Properties, cfg.GroupProperties = 3, 3
	return testsupport.RandomSystem(r, cfg)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
