package symbolic_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/specs"
)

// fakeSymbolic stands for the symbolic engine in explore.Auto: it
// answers after delay with a report named "fake", fails with a limit
// while a work budget is set when overBudget, or blocks until cancelled
// when hang.
type fakeSymbolic struct {
	delay            time.Duration
	overBudget, hang bool
}

func (fakeSymbolic) Name() string { return "fake" }

func (f fakeSymbolic) Check(ctx context.Context, m *counterabs.Model, opts ...explore.Option) (*explore.Report, error) {
	cfg := explore.NewConfig(opts...)
	if f.hang && cfg.MaxWork > 0 {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if f.overBudget && cfg.MaxWork > 0 {
		return nil, errkind.Errorf(errkind.Limit, "over budget")
	}
	time.Sleep(f.delay)
	return &explore.Report{Engine: "fake"}, nil
}

func ladderModel(t *testing.T, levels, size int) *counterabs.Model {
	t.Helper()
	src, err := specs.Ladder(levels, size, false)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := gsst.Parse("ladder.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAutoRule: the engine whose report Auto returns follows its rule,
// whichever engine finishes first. The ladder with 2 levels of 10 has
// 341 reachable states and a counter space of 4,356.
func TestAutoRule(t *testing.T) {
	m := ladderModel(t, 2, 10)
	tests := []struct {
		name string
		auto explore.Auto
		want string
	}{
		{"rule 1: small counter space", explore.Auto{Explicit: explicit.Engine{}, Symbolic: fakeSymbolic{}}, "explicit"},
		{"rule 2: few reachable states, although the other engine answers first", explore.Auto{Explicit: explicit.Engine{}, Symbolic: fakeSymbolic{}, SpaceBound: 100, ProbeStates: 1000}, "explicit"},
		{"rule 3: many reachable states, the other engine within its budget", explore.Auto{Explicit: explicit.Engine{}, Symbolic: fakeSymbolic{}, SpaceBound: 100, ProbeStates: 10}, "fake"},
		{"rule 4: the other engine over its budget", explore.Auto{Explicit: explicit.Engine{}, Symbolic: fakeSymbolic{overBudget: true}, SpaceBound: 100, ProbeStates: 10}, "explicit"},
		{"rule 4: the other engine stuck in an operation", explore.Auto{Explicit: explicit.Engine{}, Symbolic: fakeSymbolic{hang: true}, SpaceBound: 100, ProbeStates: 10}, "explicit"},
		{"no symbolic engine", explore.Auto{Explicit: explicit.Engine{}, SpaceBound: 100, ProbeStates: 10}, "explicit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for range 3 {
				rep, err := tc.auto.Check(context.Background(), m, explore.Traces(false))
				if err != nil {
					t.Fatal(err)
				}
				if rep.Engine != tc.want {
					t.Fatalf("report of %q, want %q", rep.Engine, tc.want)
				}
			}
		})
	}
	// Rule 5: the explicit engine stops at a limit, the other engine over
	// its budget: the other engine without a budget.
	a := explore.Auto{Explicit: explicit.Engine{}, Symbolic: fakeSymbolic{overBudget: true}, SpaceBound: 100, ProbeStates: 10}
	rep, err := a.Check(context.Background(), m, explore.MaxMemory(1))
	if err != nil || rep.Engine != "fake" {
		t.Fatalf("rule 5: %v, %v", rep, err)
	}
	// A cancelled context stops Auto with the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.Check(ctx, m); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestAutoAgainstEngines: on real models, with the BDD engine beside the
// explicit one, every verdict of Auto is the explicit engine's, whichever
// engine the rule picks; the budgets are set so that each rule occurs.
func TestAutoAgainstEngines(t *testing.T) {
	grwGroup := func(d, q, m int) *counterabs.Model {
		src, err := specs.GRW(d, q, m)
		if err != nil {
			t.Fatal(err)
		}
		sys, err := gsst.Parse("grw.yaml", src)
		if err != nil {
			t.Fatal(err)
		}
		g, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	// On GR&W's group-counter model with 4 groups of 4 (185,625 reachable
	// states) the BDD engine answers in a few hundredths of a second, the
	// explicit engine takes ten times as long: rule 3 does not depend on
	// the time valve there.
	models := map[string]*counterabs.Model{"ladder 3x5": ladderModel(t, 3, 5), "grw group d3 q3 m4": grwGroup(3, 3, 4), "grw group d4 q4 m4": grwGroup(4, 4, 4)}
	seen := map[string]bool{}
	for name, m := range models {
		want, err := explicit.Engine{}.Check(context.Background(), m, explore.Traces(false))
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range []explore.Auto{
			{Explicit: explicit.Engine{}, Symbolic: symbolic.DefaultBDD()},
			{Explicit: explicit.Engine{}, Symbolic: symbolic.DefaultBDD(), SpaceBound: 1, ProbeStates: 1_000_000},
			{Explicit: explicit.Engine{}, Symbolic: symbolic.DefaultBDD(), SpaceBound: 1, ProbeStates: 10},
			{Explicit: explicit.Engine{}, Symbolic: symbolic.DefaultBDD(), SpaceBound: 1, ProbeStates: 10, WorkBudget: 1},
		} {
			got, err := a.Check(context.Background(), m, explore.Traces(false))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			seen[got.Engine] = true
			for i, p := range got.Properties {
				if p.Holds != want.Properties[i].Holds {
					t.Errorf("%s, %+v: property %s: auto (%s) says %v, explicit %v", name, a, p.Name, got.Engine, p.Holds, want.Properties[i].Holds)
				}
			}
		}
	}
	if !seen["explicit"] || !seen["bdd"] {
		t.Errorf("engines picked: %v; want both", seen)
	}
}

// TestMaxWork: a work budget below what a model needs stops the BDD
// engine with ErrWork, a limit; a budget above it changes nothing.
func TestMaxWork(t *testing.T) {
	m := ladderModel(t, 3, 5)
	_, err := symbolic.DefaultBDD().Check(context.Background(), m, explore.MaxWork(10))
	if !errors.Is(err, symbolic.ErrWork) || !errors.Is(err, errkind.Limit) {
		t.Fatalf("budget of 10 nodes: %v, want ErrWork", err)
	}
	want, err := symbolic.DefaultBDD().Check(context.Background(), m, explore.Traces(false))
	if err != nil {
		t.Fatal(err)
	}
	got, err := symbolic.DefaultBDD().Check(context.Background(), m, explore.Traces(false), explore.MaxWork(100_000_000))
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Properties {
		if got.Properties[i].Holds != want.Properties[i].Holds {
			t.Errorf("property %s: %v with a large budget, %v without", want.Properties[i].Name, got.Properties[i].Holds, want.Properties[i].Holds)
		}
	}
}
