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
			if rep.ConcreteStates == nil {
				t.Error("group: no count of configurations")
			}
			if err := c.Group.Compare(result(rep)); err != nil {
				t.Errorf("group: %v", err)
			}
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
			if err := c.Total.Compare(result(arep)); err != nil {
				t.Errorf("total: %v", err)
			}
			checkVerdicts(t, "total", tsys, arep, g, g, abstractKey, &st)
		})
	}
	t.Logf("%d archives, both models; %d verdicts, %d traces checked, %d lifted and replayed", len(cases), st.verdicts, st.traces, st.lifted)
}

// result is what a report says, for testsupport.Level.Compare.
func result(rep *Report) testsupport.Result {
	r := testsupport.Result{Exact: rep.Exact, States: rep.ReachableStates.Int64(), Deadlocks: rep.Deadlocks.Int64(), Concrete: -1}
	if rep.ConcreteStates != nil {
		r.Concrete = rep.ConcreteStates.Int64()
	}
	for _, p := range rep.Properties {
		r.Verdicts = append(r.Verdicts, testsupport.PropertyVerdict{Name: p.Name, Holds: p.Holds})
	}
	return r
}
