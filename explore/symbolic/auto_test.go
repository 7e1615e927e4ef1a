package symbolic_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/specs"
)

// fake is an engine double for explore.Auto: it waits for its turn
// (a receive on turn, when not nil), then fails with err or answers
// with a report named after it; with hang it blocks until cancelled.
type fake struct {
	name    string
	turn    chan struct{}
	err     error
	hang    bool
	stopped chan struct{} // closed when a hanging fake was cancelled
}

func (f fake) Name() string { return f.name }

func (f fake) Check(ctx context.Context, m *counterabs.Model, opts ...explore.Option) (*explore.Report, error) {
	if f.hang {
		<-ctx.Done()
		close(f.stopped)
		return nil, ctx.Err()
	}
	if f.turn != nil {
		<-f.turn
	}
	if f.err != nil {
		return nil, f.err
	}
	return &explore.Report{Stats: explore.Stats{Engine: f.name}}, nil
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

// TestAutoRace: Auto returns the first report and cancels the other
// engine; an engine stopped by a limit leaves the race to the other, an
// internal error ends it; when both stop at a limit, the explicit
// engine's error is returned. The engines are doubles whose
// order is set by channels, so nothing depends on timing. The ladder
// with 2 levels of 10 has a counter space of 4,356.
func TestAutoRace(t *testing.T) {
	m := ladderModel(t, 2, 10)
	limit := errkind.Errorf(errkind.Limit, "limit")
	internal := errkind.Errorf(errkind.Internal, "bug")
	closed := func() chan struct{} { c := make(chan struct{}); close(c); return c }
	never := make(chan struct{})
	tests := []struct {
		name     string
		explicit fake
		symbolic fake
		bound    int64
		want     string // the report's engine, or the error's text
	}{
		{"small space: the explicit engine alone", fake{name: "explicit"}, fake{name: "symbolic", turn: never}, 0, "explicit"},
		{"the first to answer", fake{name: "explicit", turn: never}, fake{name: "symbolic"}, 1, "symbolic"},
		{"a limit leaves the race to the other", fake{name: "explicit", err: limit}, fake{name: "symbolic", turn: closed()}, 1, "symbolic"},
		{"an internal error ends it", fake{name: "explicit", turn: never}, fake{name: "symbolic", err: internal}, 1, "bug"},
		{"both at a limit: the explicit engine's", fake{name: "explicit", err: errkind.Errorf(errkind.Limit, "explicit limit")}, fake{name: "symbolic", err: limit}, 1, "explicit limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := explore.Auto{Explicit: tc.explicit, Symbolic: tc.symbolic, SpaceBound: tc.bound}
			rep, err := a.Check(context.Background(), m)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = rep.Stats.Engine
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// The loser is cancelled.
	stopped := make(chan struct{})
	a := explore.Auto{Explicit: fake{name: "explicit"}, Symbolic: fake{name: "symbolic", hang: true, stopped: stopped}, SpaceBound: 1}
	if rep, err := a.Check(context.Background(), m); err != nil || rep.Stats.Engine != "explicit" {
		t.Fatalf("%v, %v", rep, err)
	}
	<-stopped
	// A cancelled context stops Auto with the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a = explore.Auto{Explicit: fake{name: "explicit", hang: true, stopped: make(chan struct{})}, Symbolic: fake{name: "symbolic", hang: true, stopped: make(chan struct{})}, SpaceBound: 1}
	if _, err := a.Check(ctx, m); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestAutoAgainstEngines: on real models, with the BDD engine racing the
// explicit one, Auto's report is the explicit engine's and the BDD
// engine's, byte for byte but for the stats, traces included.
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
	models := map[string]*counterabs.Model{"ladder 3x5": ladderModel(t, 3, 5), "grw group d3 q3 m4": grwGroup(3, 3, 4)}
	for name, m := range models {
		for _, count := range []bool{false, true} {
			opts := []explore.Option{explore.CountStates(count), explore.CheckDeadlocks(true)}
			want, err := explicit.Engine{}.Check(context.Background(), m, opts...)
			if err != nil {
				t.Fatal(err)
			}
			bdd, err := symbolic.DefaultBDD().Check(context.Background(), m, opts...)
			if err != nil {
				t.Fatal(err)
			}
			auto, err := explore.Auto{Explicit: explicit.Engine{}, Symbolic: symbolic.DefaultBDD(), SpaceBound: 1}.Check(context.Background(), m, opts...)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			w := reportJSON(t, want)
			for what, got := range map[string]*explore.Report{"bdd": bdd, "auto": auto} {
				if g := reportJSON(t, got); g != w {
					t.Errorf("%s, counts %v: %s report differs from the explicit engine's:\n%s\nwant\n%s", name, count, what, g, w)
				}
			}
		}
	}
}

// reportJSON is enginetest.ReportJSON, failing t on an error.
func reportJSON(t *testing.T, rep *explore.Report) string {
	t.Helper()
	s, err := enginetest.ReportJSON(rep)
	if err != nil {
		t.Fatal(err)
	}
	return s
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
