package explore

import (
	"context"
	"errors"
	"math/big"
	"sync"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/progress"
)

// Auto is the engine "--engine auto" names: it runs an explicit engine
// and a symbolic one (the BDD engine of explore/symbolic, which this
// package cannot import) and returns the report of one of them, chosen
// by a rule that depends on the model only, never on which engine
// happens to finish first. The two engines' reports differ (the BDD
// engine counts no states unless asked, and its traces, though as short,
// may pass through other states), so a plain race would print different
// text from one run to the next. The rule, in order:
//
//  1. explicit, when the counter space (Model.CounterSpace) is at most
//     SpaceBound, and so is the number of reachable states;
//  2. explicit, when at most ProbeStates states are reachable;
//  3. the symbolic engine, when it decides every property within
//     WorkBudget (MaxWork: BDD nodes produced);
//  4. explicit, to the end (within the caller's limits);
//  5. the symbolic engine without a node bound, when the explicit engine
//     stopped at a limit.
//
// Rule 1 is decided before running anything. Otherwise the explicit
// engine starts without a bound of its own, and the symbolic one joins
// it on the other core as soon as the explicit engine holds more than
// ProbeStates/10 states, within WorkBudget (and without the caller's
// MaxMemory, which it would sample on a heap that holds the explicit
// engine's states too: its work budget bounds its nodes). Rule 2 is
// settled as soon as the explicit engine finishes or holds more than
// ProbeStates states, rule 3 when the symbolic engine returns. The work
// budget is checked between BDD operations, and one operation may run
// for minutes without producing nodes; so once the explicit engine has
// answered, the symbolic engine gets half as long again, and at least a
// quarter of a second (the time valve), before rule 4 applies: only there does time enter the choice, when the
// symbolic engine is the slower one anyway. The engine not chosen is
// cancelled through its context and stops at its next check.
//
// The budgets are work, not time, so the choice is otherwise the same on
// a loaded machine as on an idle one. (The BDD package frees nodes when
// Go's garbage collector finalizes their handles, so the nodes produced
// vary a little from run to run: a model that needs within a few percent
// of WorkBudget may fall on either side of it.) BENCHMARKS.md measures
// the rule against both engines.
type Auto struct {
	// Explicit is the explicit engine (explore/explicit, which this
	// package cannot import either); Symbolic the symbolic one, and nil
	// makes Auto the explicit engine.
	Explicit, Symbolic Engine
	// Zero values take the defaults below.
	SpaceBound  int64
	ProbeStates int64
	WorkBudget  int
}

// The defaults of Auto's bounds. SpaceBound is where the BDD engine
// starts to win on GR&W's total-counter model (docs/symbolic.md: the
// engines meet between 92,378 and 293,930 counter vectors); below it the
// explicit engine answers in a few hundredths of a second. ProbeStates
// is about a tenth of a second of the explicit engine on a group-counter
// model; WorkBudget is where the BDD engine, on the benchmark set, had
// either answered or begun to lose to the explicit engine (4,000 to
// 20,000 nodes produced on GR&W's group-counter model, one to four
// million on priority ladders and threshold automata).
const (
	DefaultSpaceBound  = 200_000
	DefaultProbeStates = 50_000
	DefaultWorkBudget  = 250_000
)

// Name returns "auto".
func (Auto) Name() string { return "auto" }

// Check decides m's properties with the engine the rule of Auto picks;
// the report names that engine.
func (a Auto) Check(ctx context.Context, m *counterabs.Model, opts ...Option) (*Report, error) {
	cfg := NewConfig(opts...)
	space, probe, work := orDefault(a.SpaceBound, DefaultSpaceBound), orDefault(a.ProbeStates, DefaultProbeStates), int(orDefault(int64(a.WorkBudget), DefaultWorkBudget))
	if a.Explicit == nil {
		return nil, errkind.Errorf(errkind.Internal, "explore.Auto without an explicit engine")
	}
	if a.Symbolic == nil || m.CounterSpace() <= float64(space) || cfg.MaxStates > 0 && cfg.MaxStates <= probe {
		return a.Explicit.Check(ctx, m, opts...)
	}
	ectx, stopE := context.WithCancel(ctx)
	defer stopE()
	sctx, stopS := context.WithCancel(ctx)
	defer stopS()
	type result struct {
		rep *Report
		err error
	}
	eDone, sDone := make(chan result, 1), make(chan result, 1)
	past := make(chan struct{}) // closed once the explicit engine holds more than probe states
	fwd := &progressForward{f: cfg.Progress, every: cfg.ProgressEvery}
	defer fwd.close()
	var once, startOnce sync.Once
	// The symbolic engine starts once the explicit one has shown that
	// the model is not tiny (ProbeStates/10 states): on the many small
	// models it would only take the explicit engine's core.
	startS := func() {
		startOnce.Do(func() {
			go func() {
				// The work budget bounds the symbolic engine's memory too,
				// and the heap it would sample holds the explicit engine's
				// states: no memory bound, which would make its fate
				// depend on the other engine's progress. No progress
				// either: one callback, one goroutine.
				rep, err := a.Symbolic.Check(sctx, m, with(opts, MaxWork(work), MaxMemory(0), OnProgress(0, nil))...)
				sDone <- result{rep, err}
			}()
		})
	}
	go func() {
		// Interval 0: the explicit engine reports every few thousand
		// states; the caller's callback gets them at its own interval.
		rep, err := a.Explicit.Check(ectx, m, with(opts, OnProgress(0, func(p progress.Event) {
			if p.States > probe/10 {
				startS()
			}
			if p.States > probe {
				once.Do(func() { close(past) })
			}
			fwd.show(p)
		}))...)
		eDone <- result{rep, err}
	}()
	var e, s *result
	large := false // more than probe states are reachable, or the explicit engine cannot tell
	start := time.Now()
	var valve <-chan time.Time
	for {
		select {
		case r := <-eDone:
			e = &r
			if r.err == nil {
				// The time valve: a BDD operation may run long without
				// producing nodes, and the budget is checked between
				// operations only.
				// The floor keeps scheduling noise out of the
				// choice when the explicit engine answered within
				// milliseconds: on a loaded machine the symbolic
				// engine may not have been scheduled yet.
				valve = time.After(max(time.Since(start)/2, valveFloor))
			}
		case r := <-sDone:
			s = &r
		case <-past:
			large, past = true, nil
		case <-valve:
			return e.rep, nil // rule 4, by the time valve
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e != nil {
			switch {
			case e.err == nil && e.rep.ReachableStates != nil && e.rep.ReachableStates.Cmp(big.NewInt(probe)) <= 0:
				return e.rep, nil // rule 2
			case e.err != nil && (!errors.Is(e.err, errkind.Limit) || ctx.Err() != nil):
				return nil, e.err // an error the explicit engine gives whatever the rule
			}
			large = true
		}
		if large {
			startS()
		}
		if s == nil || !large {
			continue
		}
		if s.err == nil {
			return s.rep, nil // rule 3
		}
		if !errors.Is(s.err, errkind.Limit) {
			return nil, s.err
		}
		if e == nil {
			continue // rule 4: wait for the explicit engine
		}
		if e.err == nil {
			return e.rep, nil // rule 4
		}
		return a.Symbolic.Check(ctx, m, with(opts, OnProgress(0, nil))...) // rule 5
	}
}

// progressForward passes the explicit engine's progress to the caller's
// callback at the caller's interval, until Check returns: the engine's
// goroutine may run on briefly after it is cancelled.
type progressForward struct {
	mu     sync.Mutex
	f      progress.Func
	every  time.Duration
	last   time.Time
	phase  progress.Event // the last event passed on
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
	newPhase := ev.Phase != p.phase.Phase || ev.Item != p.phase.Item
	if now := time.Now(); newPhase || now.Sub(p.last) >= p.every {
		p.last, p.phase = now, ev
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

// valveFloor is the least time the time valve gives the symbolic engine.
const valveFloor = 250 * time.Millisecond
