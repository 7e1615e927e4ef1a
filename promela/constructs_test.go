package promela

import (
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/internal/testsupport/pickmodel"
	"github.com/vsym/vsym/presburger/z3"
)

// TestSpinConstructs runs the concrete models of random instances with shared
// variables (of every kind), per-block updates, broadcasts and
// rendezvous through the real Spin. pan must store one state per
// configuration of the oracle (testsupport.ProcsWithin, on individual
// processes) plus init's start-up state, and every exported claim's
// verdict must equal the oracle's; the bound assertion must fire exactly
// when some reachable step takes an unbounded variable beyond the
// default bound (verdicts are then not compared: the header says they
// mean nothing).
func TestSpinConstructs(t *testing.T) {
	runs := 60
	if testing.Short() {
		// The first 3: rendezvous, broadcast and the step constructs
		// are among those compared, and one passes the bound.
		runs = 3
	}
	spinConstructs(t, 2120, runs, false)
}

// spinConstructs draws runs random instances (parameters too, unless reduced)
// and checks the concrete model, or the group-counter model when reduced
// is set, with Spin against the oracle. The instances and their models
// are made in order (one random source); Spin checks them in parallel.
func spinConstructs(t *testing.T, seed int64, runs int, reduced bool) {
	requireSpin(t)
	r := rand.New(rand.NewSource(seed))
	solver := z3.New()
	var mu sync.Mutex
	var compared, claims, boundFails, rendezvous, broadcast, totals, newSteps int
	t.Run("instances", func(t *testing.T) {
		for i := range runs {
			cfg := testsupport.Small(0, testsupport.AllConstructs)
			if reduced {
				cfg.May &^= testsupport.Params
			}
			switch i % 4 {
			case 0:
				cfg.Want = testsupport.SharedVars
			case 1:
				cfg.Want = testsupport.Broadcasts
			case 2:
				cfg.Want = testsupport.EnvironmentSteps | testsupport.SelfLoops
			}
			cfg.Properties, cfg.GroupProperties, cfg.Shape = 3, 3, testsupport.Exportable
			in := testsupport.NewExportSpace(testsupport.RandomSystem(r, cfg))
			sys := in.Sys
			bound, sp, beyond := in.Bounded(i)
			var prog *Program
			var err error
			// The concrete model has init's start-up state besides one per
			// configuration; the counter model one per (group counters,
			// shared values).
			states := int64(sp.Len()) + 1
			total := false
			if reduced {
				// Every other instance tries the total-counter model, with
				// the properties over totals only, when Z3 certifies it.
				var m *counterabs.Model
				sys, m, total, err = pickmodel.Pick(sys, i, solver)
				states = int64(sp.GroupStates())
				if total {
					states = int64(sp.TotalStates())
				}
				if err == nil {
					prog, err = Reduced(m, Version("test"), Bound(bound))
				}
			} else {
				prog, err = Concrete(sys, Version("test"), Bound(bound))
			}
			if err != nil {
				t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
			}
			kind := "concrete"
			switch {
			case total:
				kind = "total"
			case reduced:
				kind = "group"
			}
			mark(kind, sys)
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				p, err := buildPan(t, prog)
				if err != nil {
					t.Fatalf("system %d: %v\n%s", i, err, prog.Text)
				}
				res, err := p.run("-N", "_count")
				if err != nil {
					t.Fatalf("system %d: %v\n%s", i, err, prog.Text)
				}
				if res.violated != beyond {
					t.Fatalf("system %d: pan reports a bound assertion violated: %v; the oracle says the bound is exceeded: %v\n%s", i, res.violated, beyond, prog.Text)
				}
				if beyond {
					mu.Lock()
					boundFails++
					mu.Unlock()
					return
				}
				if res.stored != states {
					t.Fatalf("system %d: pan stores %d states, the oracle %d\n%s\n%s", i, res.stored, states, testsupport.Describe(sys), prog.Text)
				}
				n := 0
				for k := range prog.Claims {
					cl := &prog.Claims[k]
					if !cl.Exported() {
						continue
					}
					want := testsupport.Holds(sp.Graph, sys.Properties[k].Formula)
					got, err := p.run(cl.PanArgs(false)...)
					if err != nil {
						t.Fatalf("system %d, %s: %v\n%s", i, cl.Property, err, prog.Text)
					}
					if cl.Holds(got.violated) != want {
						t.Fatalf("system %d, property %s (%s), claim { %s }: Spin says %v, the oracle %v\n%s\n%s", i, cl.Property, cl.Text, cl.LTL, cl.Holds(got.violated), want, testsupport.Describe(sys), prog.Text)
					}
					n++
				}
				mu.Lock()
				defer mu.Unlock()
				compared++
				claims += n
				rendezvous += b2i(len(sys.Rendezvous) > 0)
				broadcast += b2i(testsupport.ConstructsOf(sys)&testsupport.Broadcasts != 0)
				newSteps += b2i(testsupport.ConstructsOf(sys)&testsupport.StepConstructs != 0)
				totals += b2i(total)
			})
		}
	})
	if t.Failed() {
		return
	}
	t.Logf("%d systems compared (%d with rendezvous, %d with broadcast, %d with self-loops, named or environment steps, %d total-counter models), %d claims; %d exceeding the bound", compared, rendezvous, broadcast, newSteps, totals, claims, boundFails)
	if compared < runs/2 || rendezvous == 0 || broadcast == 0 || newSteps == 0 || reduced && totals == 0 || !reduced && boundFails == 0 && !testing.Short() || claims < compared {
		t.Fatalf("the generator is out of balance: %d compared, %d rendezvous, %d broadcast, %d bound failures, %d claims", compared, rendezvous, broadcast, boundFails, claims)
	}
}

// TestConcreteHeaderBound: the header states the parameter values and the
// bound, and the model asserts it.
func TestConcreteHeaderBound(t *testing.T) {
	sys := testsupport.BoundedCounter()
	requireSpin(t)
	// -short leaves out the bound 7, which passes like the default one
	// and differs from it in the header's text only, and runs Spin on the
	// bound 2 only, where the assertion must fire: that it stays silent
	// under a bound that holds, every Spin test that counts states
	// asserts (TestSpinConstructs on random systems against the oracle).
	for _, tc := range []struct{ bound, hi int }{{0, 3}, {7, 7}, {2, 2}} {
		if testing.Short() && tc.bound == 7 {
			continue
		}
		prog, err := Concrete(sys, Bound(tc.bound))
		if err != nil {
			t.Fatal(err)
		}
		// Three processes increment nsent once each: a bound of 2 is
		// passed, and pan must say so, on the concrete and on the
		// counter model.
		m, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		reduced, err := Reduced(m, Bound(tc.bound))
		if err != nil {
			t.Fatal(err)
		}
		for _, model := range []*Program{prog, reduced} {
			if testing.Short() && tc.hi >= 3 {
				break
			}
			p, err := buildPan(t, model)
			if err != nil {
				t.Fatal(err)
			}
			if res, err := p.run("-N", "_count"); err != nil {
				t.Fatal(err)
			} else if res.violated != (tc.hi < 3) {
				t.Errorf("bound %d: pan reports the bound assertion violated: %v\n%s", tc.bound, res.violated, model.Text)
			}
		}
		for _, want := range []string{
			"Parameters of this instance (folded into constants): t = 1.",
			"nsent: 0.." + itoa(tc.hi) + " (unbounded in the spec",
			"assert(nsent + 1 <= " + itoa(tc.hi) + ")",
			"MEANINGFUL ONLY WHEN NO",
		} {
			if !strings.Contains(prog.Text, want) {
				t.Errorf("bound %d: no %q in\n%s", tc.bound, want, prog.Text)
			}
		}
	}
}

// TestSpinReducedConstructs runs the group-counter models (counterabs.BuildGroup),
// and the total-counter models of those Z3 certifies, of random instances with shared variables, broadcasts and rendezvous
// through the real Spin: pan must store the oracle's distinct (group
// counters, shared values), every exported claim's verdict must be the
// oracle's on the processes, and the bound assertion must fire exactly
// when some reachable step passes the default bound.
func TestSpinReducedConstructs(t *testing.T) {
	runs := 50
	if testing.Short() {
		// The first 3: rendezvous, broadcast, the step constructs and
		// a total-counter model are among them (2 have no rendezvous).
		runs = 3
	}
	spinConstructs(t, 2123, runs, true)
}
