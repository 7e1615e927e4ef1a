package prove_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestProveInitialSetsKnown proves testdata/strb-spread.yaml, whose
// answers depend on the spread of the correct processes over V0 and V1:
// each property gets its known verdict, the refutation of relay starts
// with a process in V1 (from V0 alone it holds), and every proved
// property holds at small instances under exploration from every
// initial configuration.
func TestProveInitialSetsKnown(t *testing.T) {
	sys, err := gsst.Load(filepath.Join("testdata", "strb-spread.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(extWork))
	if err != nil {
		t.Fatal(err)
	}
	checkKnown(t, sys, rep, map[string]prove.Verdict{"unforgeable": prove.Proved, "relay": prove.Refuted, "faulty": prove.Proved, "rounds": prove.Proved, "unforgeable-or": prove.Proved, "relay-or": prove.Refuted},
		func(start []int) bool { return start[slices.Index(sys.States, "V1")] > 0 })
	// From V0 alone, relay holds.
	spec := sys.Spec()
	spec.InitOver = nil
	one, err := gsst.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	rep, err = prove.Check(context.Background(), one.WithProperties(1), s, s, prove.MaxWork(extWork))
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Results[0]; r.Verdict != prove.Proved {
		t.Errorf("relay with every process in V0: %v, want proved (%s)", r.Verdict, r.Reason)
	}
}

// TestProveInitialSetsLiveKnown proves testdata/strb-live-spread.yaml,
// liveness under justice with the correct processes spread over V0 and
// V1: correctness after the premise #V0 = 0 holds, without it it fails
// by a fair run from a configuration with nobody in V1, and each proved
// property holds at small instances under exploration from every
// initial configuration.
func TestProveInitialSetsLiveKnown(t *testing.T) {
	sys, err := gsst.Load(filepath.Join("testdata", "strb-live-spread.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(extWork))
	if err != nil {
		t.Fatal(err)
	}
	checkKnown(t, sys, rep, map[string]prove.Verdict{"corr": prove.Proved, "corr-any": prove.Refuted, "relay": prove.Proved},
		func(start []int) bool { return start[slices.Index(sys.States, "V1")] == 0 })
}

// checkKnown checks the verdicts of rep against want: a refutation
// starts in a configuration whose first group's counts satisfy
// refutedFrom, and a proved property holds at the instances with
// parameters up to 3 under exploration (at least one explored).
func checkKnown(t *testing.T, sys *gsst.System, rep *prove.Report, want map[string]prove.Verdict, refutedFrom func(start []int) bool) {
	t.Helper()
	explored := 0
	for k, r := range rep.Results {
		t.Logf("%s: %v by %s %s %s", r.Property.Name, r.Verdict, r.Method, r.InvariantText, r.Reason)
		if r.Verdict != want[r.Property.Name] {
			t.Errorf("%s: %v, want %v", r.Property.Name, r.Verdict, want[r.Property.Name])
		}
		switch r.Verdict {
		case prove.Refuted:
			if r.Trace == nil || r.Trace.Lifted == nil || r.Trace.Lifted.Start.Counts == nil || !refutedFrom(r.Trace.Lifted.Start.Counts[0]) {
				t.Errorf("%s: the refutation does not start where it should", r.Property.Name)
			}
		case prove.Proved:
			for _, in := range testsupport.Instances(sys, 3, extSizeMax) {
				holds, ok := exploreHolds(t, sys.WithProperties(k), in, 0)
				if ok && !holds {
					t.Errorf("%s proved, but exploration finds it failing at %v", r.Property.Name, in)
				}
				if ok {
					explored++
				}
			}
		}
	}
	if explored == 0 {
		t.Error("no instance explored")
	}
}

// countingSolver counts the plain SMT queries and the prover's calls
// that go through it.
type countingSolver struct {
	s              *z3.Solver
	queries, calls int
}

func (c *countingSolver) Solve(ctx context.Context, p presburger.Problem) (presburger.Answer, error) {
	c.queries++
	return c.s.Solve(ctx, p)
}

func (c *countingSolver) Prove(ctx context.Context, ts presburger.TransitionSystem, b presburger.Budget) (presburger.SafetyAnswer, error) {
	c.calls++
	return c.s.Prove(ctx, ts, b)
}

// BenchmarkProveInitialSets measures Check on the specs with initial
// sets of testdata (strb-spread, strb-live-spread) and reports the Z3
// queries (plain SMT, and CHC calls to Spacer) of one run:
//
//	go test -run '^$' -bench ProveInitialSets -benchtime 3x ./prove/
func BenchmarkProveInitialSets(b *testing.B) {
	for _, file := range []string{"strb-spread.yaml", "strb-live-spread.yaml"} {
		b.Run(file, func(b *testing.B) {
			sys, err := gsst.Load(filepath.Join("testdata", file))
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				c := &countingSolver{s: z3.New()}
				if _, err := prove.Check(context.Background(), sys, c, c); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(c.queries), "smt-queries")
				b.ReportMetric(float64(c.calls), "chc-calls")
			}
		})
	}
}
