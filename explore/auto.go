package explore

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/progress"
)

// Auto is the engine "--engine auto" names: a race of an explicit engine
// and a symbolic one (the BDD engine of explore/symbolic, which this
// package cannot import). Both run side by side, one per core, and the
// report of the first that answers is returned; the other is cancelled
// through its context and stops at its next check. Every engine fills
// the same report (canonical.go: exact counts when asked, canonical
// traces), so the report is the same whichever engine wins, on an idle
// machine or a loaded one; only its Stats say which answered.
//
// On a model whose counter space (Model.CounterSpace) is at most
// SpaceBound the explicit engine runs alone: it answers within a few
// hundredths of a second there, and a second engine would only take the
// other core. An engine that stops at a limit (states, memory, work) or
// cannot take the model leaves the race to the other; an internal error
// or a bad request ends it at once. When both fail, the explicit
// engine's error is returned (the symbolic one's when the explicit
// engine could not take the model). BENCHMARKS.md measures the race
// against both engines.
type Auto struct {
	// Explicit is the explicit engine (explore/explicit, which this
	// package cannot import either); Symbolic the symbolic one, and nil
	// makes Auto the explicit engine.
	Explicit, Symbolic Engine
	// SpaceBound is where the race starts; zero takes DefaultSpaceBound.
	SpaceBound int64
}

// DefaultSpaceBound is where the BDD engine starts to win on GR&W's
// total-counter model (docs/symbolic.md: the engines meet between 92,378
// and 293,930 counter vectors); below it the explicit engine answers in
// a few hundredths of a second.
const DefaultSpaceBound = 200_000

// Name returns "auto".
func (Auto) Name() string { return "auto" }

// Check decides m's properties with both engines and returns the first
// report.
func (a Auto) Check(ctx context.Context, m *counterabs.Model, opts ...Option) (*Report, error) {
	if a.Explicit == nil {
		return nil, errkind.Errorf(errkind.Internal, "explore.Auto without an explicit engine")
	}
	if a.Symbolic == nil || m.CounterSpace() <= float64(orDefault(a.SpaceBound, DefaultSpaceBound)) {
		return a.Explicit.Check(ctx, m, opts...)
	}
	cfg := NewConfig(opts...)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		rep      *Report
		err      error
		explicit bool
	}
	done := make(chan result, 2)
	fwd := &progressForward{f: cfg.Progress, every: cfg.ProgressEvery}
	defer fwd.close()
	for _, e := range []Engine{a.Explicit, a.Symbolic} {
		e := e
		go func() {
			// Interval 0: the engines report as often as they do; the
			// caller's callback gets their events at its own interval.
			rep, err := e.Check(ctx, m, with(opts, OnProgress(0, fwd.show))...)
			done <- result{rep, err, e == a.Explicit}
		}()
	}
	var failed []result
	for len(failed) < 2 {
		r := <-done
		switch {
		case r.err == nil:
			return r.rep, nil
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case !leavesRace(r.err):
			return nil, r.err
		}
		failed = append(failed, r)
	}
	// Both stopped at a limit: say the explicit engine's, whose limits
	// (states, memory) users set.
	if !failed[0].explicit {
		return nil, failed[1].err
	}
	return nil, failed[0].err
}

// leavesRace says whether an engine's error leaves the race to the other
// engine: a limit (of its states, its memory, its bit widths); any other
// error ends it.
func leavesRace(err error) bool { return errors.Is(err, errkind.Limit) }

// progressForward passes the engines' progress to the caller's callback
// at the caller's interval, until Check returns: an engine's goroutine
// may run on briefly after it is cancelled. Events of both engines go
// through one lock, so the callback is never called twice at once.
type progressForward struct {
	mu     sync.Mutex
	f      progress.Func
	every  time.Duration
	last   time.Time
	phase  map[string]progress.Event // the last event passed on, per engine
	closed bool
}

// show passes on the start of each phase, and the figures within one
// at the caller's interval.
func (p *progressForward) show(ev progress.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.f == nil || p.closed {
		return
	}
	if p.phase == nil {
		p.phase = map[string]progress.Event{}
	}
	prev, seen := p.phase[ev.Engine]
	newPhase := !seen || ev.Phase != prev.Phase || ev.Item != prev.Item
	if now := time.Now(); newPhase || now.Sub(p.last) >= p.every {
		p.last, p.phase[ev.Engine] = now, ev
		p.f(ev)
	}
}

func (p *progressForward) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
}

// with returns opts followed by more, without writing into opts' array.
func with(opts []Option, more ...Option) []Option {
	return append(append([]Option{}, opts...), more...)
}

func orDefault(v, def int64) int64 {
	if v > 0 {
		return v
	}
	return def
}
