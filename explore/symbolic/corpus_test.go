package symbolic

import (
	"context"
	"testing"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
)

// TestCorpus runs every archive of the known-answer corpus through the
// BDD engine, in three settings, on the group-counter model and on the
// total-counter model (built with Z3, forced when the archive says the
// system is not certified): counts and verdicts must be the archive's and
// the explicit engine's, and every trace must show its verdict on the
// oracle's graph of the model and, on an exact model, lift.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("uses Z3")
	}
	cases, err := testsupport.LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	solver := z3.New(z3.Timeout(20 * time.Second))
	runs, traces := 0, 0
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			group, err := counterabs.BuildGroup(c.Sys)
			if err != nil {
				t.Fatal(err)
			}
			var opts []counterabs.Option
			if !c.Total.Exact {
				opts = append(opts, counterabs.Force())
			}
			total, err := counterabs.Build(context.Background(), testsupport.TotalProperties(c.Sys), solver, solver, opts...)
			if err != nil {
				t.Fatal(err)
			}
			for _, lv := range []struct {
				m    *counterabs.Model
				want *testsupport.Level
			}{{group, c.Group}, {total, c.Total}} {
				m := lv.m
				name := m.Level.String()
				exp, err := explore.Explicit{}.Check(context.Background(), m)
				if err != nil {
					t.Fatal(err)
				}
				g := modelGraph(m)
				for _, o := range [][]Option{nil, {WithOrder(Blocked)}, {WithStrategy(BFS), WithOrder(Split)}} {
					bdd, _, err := exploreModel(context.Background(), m, o...)
					if err != nil {
						t.Fatal(err)
					}
					runs++
					if err := lv.want.Compare(result(bdd)); err != nil {
						t.Errorf("%s: %v", name, err)
					}
					compareReports(t, name, bdd, exp)
					for i, p := range bdd.Properties {
						checkTrace(t, m, g, m.Properties[i].Formula, p)
						if p.Trace == nil {
							continue
						}
						traces++
						if m.Exact && (p.Trace.Lifted == nil || p.Trace.Lifted.Error != "") {
							t.Errorf("%s: trace of %s does not lift: %+v", name, p.Name, p.Trace.Lifted)
						}
					}
				}
			}
		})
	}
	t.Logf("%d archives, both models, 3 BDD settings: %d runs against the archive and the explicit engine, %d traces checked", len(cases), runs, traces)
}

// result is what a report says, for testsupport.Level.Compare (the BDD
// engine does not count configurations).
func result(rep *explore.Report) testsupport.Result {
	r := testsupport.Result{Exact: rep.Exact, States: rep.ReachableStates.Int64(), Deadlocks: rep.Deadlocks.Int64(), Concrete: -1}
	for _, p := range rep.Properties {
		r.Verdicts = append(r.Verdicts, testsupport.PropertyVerdict{Name: p.Name, Holds: p.Holds})
	}
	return r
}
