package explicit

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/progress"
)

func TestLimits(t *testing.T) {
	sys := rwSystem(200, 200) // 120,801 group-sorted states
	cases := []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		opts []explore.Option
		kind string // explore.LimitError kind, or "" for a context error
	}{
		{"states", nil, []explore.Option{explore.MaxStates(1000)}, "states"},
		{"memory", nil, []explore.Option{explore.MaxMemory(64 << 10)}, "memory"},
		{"timeout", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), time.Nanosecond)
		}, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.Background(), func() {}
			if c.ctx != nil {
				ctx, cancel = c.ctx()
			}
			defer cancel()
			time.Sleep(time.Millisecond)
			rep, err := checkConcrete(ctx, sys, c.opts...)
			if err == nil {
				t.Fatalf("no error; %v states, %d bytes", rep.ReachableStates, rep.Stats.StoredBytes)
			}
			var le *explore.LimitError
			switch {
			case c.kind == "" && !errors.Is(err, context.DeadlineExceeded):
				t.Errorf("want a deadline error, got %v", err)
			case c.kind != "" && (!errors.As(err, &le) || le.Kind != c.kind):
				t.Errorf("want a %s limit, got %v", c.kind, err)
			case c.kind == "states" && le.States != 1001:
				t.Errorf("stopped at %d states, want 1001", le.States)
			}
			if c.kind != "" && !errors.Is(err, errkind.Limit) {
				t.Errorf("errors.Is(%v, errkind.Limit) = false", err)
			}
		})
	}
	// Exactly at the limit is fine.
	rep, err := checkConcrete(context.Background(), rwSystem(1, 2), explore.MaxStates(13))
	if err != nil || rep.ReachableStates.Int64() != 13 {
		t.Errorf("MaxStates(13) on 13 states: %v, %v", rep, err)
	}
}

func TestProgress(t *testing.T) {
	var calls []progress.Event
	_, err := checkConcrete(context.Background(), rwSystem(200, 200), explore.Properties(),
		explore.OnProgress(0, func(p progress.Event) {
			if p.Phase == progress.Reach {
				calls = append(calls, p)
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) < 5 {
		t.Fatalf("%d progress calls", len(calls))
	}
	for i := 1; i < len(calls); i++ {
		if calls[i].States < calls[i-1].States || calls[i].Frontier < 0 || calls[i].Frontier > calls[i].States || calls[i].Engine != "explicit" {
			t.Errorf("odd progress %+v after %+v", calls[i], calls[i-1])
		}
	}
}

// TestBadInput: a property name the model lacks is bad input. Malformed
// systems and models never reach the engine: counterabs refuses them
// (its tests and gsst's cover that), and the engine trusts its models.
func TestBadInput(t *testing.T) {
	sys := rwSystem(1, 2)
	_, err := checkConcrete(context.Background(), sys, explore.Properties("nope"))
	if !errors.Is(err, errkind.Input) {
		t.Errorf("unknown property name: %v, want bad input", err)
	}
}

// TestEdgeSystems runs degenerate systems (one local state, an empty
// group, no transitions) through both modes: no panic, sensible counts.
func TestEdgeSystems(t *testing.T) {
	one := testsupport.Parse("one.yaml", "states: [A]\ngroups: {g: 3}\ninit: A\ntransitions: []\nproperties:\n  ex: \"EX true\"\n  eg: \"EG true\"\n")
	empty := rwSystem(0, 2)
	spec := rwSystem(2, 1).Spec()
	spec.Transitions = nil
	idle, err := gsst.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, sys := range []*gsst.System{one, empty, idle} {
		t.Run(sys.Name, func(t *testing.T) {
			crep, err := checkConcrete(context.Background(), sys)
			if err != nil {
				t.Fatal(err)
			}
			am, brute := bruteModel(sys)
			arep, err := checkAbstract(context.Background(), am)
			if err != nil {
				t.Fatal(err)
			}
			sp := testsupport.Unreduced(sys)
			var st traceStats
			checkCounts(t, "group", crep, sp.Groups(), concreteKey)
			checkVerdicts(t, "group", sys, crep, sp.Graph, sp.Groups(), concreteKey, &st)
			ex := brute.Graph()
			checkCounts(t, "total", arep, ex, abstractKey)
			checkVerdicts(t, "total", sys, arep, ex, ex, abstractKey, &st)
		})
	}
	t.Logf("3 edge systems, both modes against the naive explorers")
}

// TestLiftStops: lifting a trace honours its context: with the context
// ended it stops at once and says so, instead of running on after the
// command has given up.
func TestLiftStops(t *testing.T) {
	sys := rwSystem(3, 2)
	rep, err := checkConcrete(context.Background(), sys, explore.Traces(true))
	if err != nil {
		t.Fatal(err)
	}
	var tr *explore.Trace
	for _, p := range rep.Properties {
		if p.Trace != nil && len(p.Trace.States) > 1 {
			tr = p.Trace
			break
		}
	}
	if tr == nil || tr.Lifted == nil || tr.Lifted.Error != "" || len(tr.Lifted.Steps) == 0 {
		t.Fatalf("no lifted trace of several states to lift again: %+v", tr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := explore.Lift(ctx, sys, tr)
	if !strings.Contains(got.Error, "lifting stopped") || len(got.Steps) != 0 {
		t.Errorf("lifting with an ended context: %d steps, error %q; want none and a stop", len(got.Steps), got.Error)
	}
	if err := explore.LiftTrace(ctx, sys, tr); !errors.Is(err, context.Canceled) {
		t.Errorf("LiftTrace with an ended context: %v, want context.Canceled", err)
	}
}
