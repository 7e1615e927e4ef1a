package symbolic

import (
	"context"

	"testing"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
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
	cases, err := testsupport.LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	var st engineStats
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			total, group := models(t, c.Sys, c.Total.Exact)
			compareEngines(t, total, c.Total, &st)
			compareEngines(t, group, c.Group, &st)
		})
	}
	t.Logf("%d archives, both models, 3 BDD settings: %d runs against the archive and the explicit engine, %d traces checked", len(cases), st.runs, st.traces)
}

// TestAgainstExplicitFamilies compares the engines, as TestCorpus does,
// on family members too large for the corpus (whose every archive also
// runs through the NuSMV-subset interpreter).
func TestAgainstExplicitFamilies(t *testing.T) {
	var st engineStats
	for _, sys := range []*gsst.System{testsupport.GRW(3, 2, 5), testsupport.ASR(6, 3, 2), testsupport.ASR(5, 2, 3)} {
		t.Run(sys.Name, func(t *testing.T) {
			total, group := models(t, sys, true)
			compareEngines(t, total, nil, &st)
			compareEngines(t, group, nil, &st)
		})
	}
	t.Logf("3 family members, both models, 3 BDD settings: %d runs against the explicit engine, %d traces checked", st.runs, st.traces)
}

// models builds the total-counter model of sys (with Z3, forced unless
// certified; properties over group counters left out) and its
// group-counter model.
func models(t *testing.T, sys *gsst.System, certified bool) (total, group *counterabs.Model) {
	t.Helper()
	solver := z3.New(z3.Timeout(20 * time.Second))
	var opts []counterabs.Option
	if !certified {
		opts = append(opts, counterabs.Force())
	}
	total, err := counterabs.Build(context.Background(), testsupport.TotalProperties(sys), solver, solver, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if group, err = counterabs.BuildGroup(sys); err != nil {
		t.Fatal(err)
	}
	return total, group
}

type engineStats struct{ runs, traces int }

// compareEngines runs the explicit engine and the BDD engine in three
// settings on m and compares counts and verdicts with each other and,
// when want is not nil, with an archive's; every trace must show its
// verdict on the oracle's graph of m and, on an exact model, lift.
func compareEngines(t *testing.T, m *counterabs.Model, want *testsupport.Level, st *engineStats) {
	t.Helper()
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
		st.runs++
		if want != nil {
			if err := want.Compare(result(bdd)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
		compareReports(t, name, bdd, exp)
		for i, p := range bdd.Properties {
			checkTrace(t, m, g, m.Properties[i].Formula, m.Properties[i].Formula, p)
			if p.Trace == nil {
				continue
			}
			st.traces++
			if m.Exact && (p.Trace.Lifted == nil || p.Trace.Lifted.Error != "") {
				t.Errorf("%s: trace of %s does not lift: %+v", name, p.Name, p.Trace.Lifted)
			}
		}
	}
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
