package explore

import (
	"context"
	"testing"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
)

// TestCorpus runs every archive of the known-answer corpus (the bundled
// specs, the paper's examples, small GR&W and ASR members, uncertified
// systems) through the explicit engine on both models and compares the
// reachable states, deadlocks, configurations and verdicts with the
// archive. The total-counter model is built with Z3, forced when the
// archive says the system is not certified; traces are checked on the
// oracle's graph of the model and lifted traces replayed.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("uses Z3")
	}
	cases, err := testsupport.LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	solver := z3.New(z3.Timeout(20 * time.Second))
	var st traceStats
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			sys := c.Sys
			sp := testsupport.Unreduced(sys)
			m, err := counterabs.BuildGroup(sys)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Explicit{}.Check(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			checkLevel(t, "group", rep, c.Group)
			checkVerdicts(t, "group", sys, rep, sp.Graph, sp.Groups(), concreteKey, &st)

			tsys := testsupport.TotalProperties(sys)
			var opts []counterabs.Option
			g := sp.Totals()
			if !c.Total.Exact {
				opts = append(opts, counterabs.Force())
				g = testsupport.BruteForce(sys).Graph()
			}
			am, err := counterabs.Build(context.Background(), tsys, solver, solver, opts...)
			if err != nil {
				t.Fatal(err)
			}
			arep, err := Explicit{}.Check(context.Background(), am)
			if err != nil {
				t.Fatal(err)
			}
			checkLevel(t, "total", arep, c.Total)
			checkVerdicts(t, "total", tsys, arep, g, g, abstractKey, &st)
		})
	}
	t.Logf("%d archives, both models; %d verdicts, %d traces checked, %d lifted and replayed", len(cases), st.verdicts, st.traces, st.lifted)
}

// checkLevel compares a report with what an archive expects of its
// model.
func checkLevel(t *testing.T, level string, rep *Report, want *testsupport.Level) {
	t.Helper()
	if rep.Exact != want.Exact || rep.ReachableStates.Int64() != want.States || rep.Deadlocks.Int64() != want.Deadlocks {
		t.Errorf("%s: exact %v, %v states, %v deadlocks; want %v, %d, %d", level, rep.Exact, rep.ReachableStates, rep.Deadlocks, want.Exact, want.States, want.Deadlocks)
	}
	if want.Concrete >= 0 && (rep.ConcreteStates == nil || rep.ConcreteStates.Int64() != want.Concrete) {
		t.Errorf("%s: %v configurations, want %d", level, rep.ConcreteStates, want.Concrete)
	}
	if len(rep.Properties) != len(want.Properties) {
		t.Fatalf("%s: %d verdicts, want %d", level, len(rep.Properties), len(want.Properties))
	}
	for _, p := range rep.Properties {
		if holds, ok := want.Holds(p.Name); !ok || p.Holds != holds {
			t.Errorf("%s: property %s holds %v, want %v (listed %v)", level, p.Name, p.Holds, holds, ok)
		}
	}
}
