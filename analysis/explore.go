package analysis

import (
	"context"
	"errors"
	"sync"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/progress"
)

// ExploreRequest is a question for the engines: the model (level,
// certification, limits) and how to explore it.
type ExploreRequest struct {
	ModelRequest
	// Engine is "auto", "explicit" or "bdd" (Engines); BDD is the BDD
	// engine with its tuning.
	Engine string
	BDD    symbolic.BDD
	// Choose, when not nil, picks the one engine instead of Engines.
	// Tests put an engine double behind a command through it.
	Choose func(name string, m *counterabs.Model, bdd symbolic.BDD) (explore.Engine, error)

	// CountStates asks for the reachable states and deadlocks counted
	// (MaxStates implies it); they are counted unasked on a model of at
	// most CountSpace states (Counted).
	CountStates bool
	// Bound, when positive, is the largest value the engines let an
	// unbounded shared variable take (explore.Bound, --bound).
	Bound     int64
	Deadlocks bool // decide whether a deadlock is reachable
	NoTraces  bool // build no counterexamples or witnesses
}

// Exploration is the answer to an ExploreRequest: the model explored and
// the engine's report.
type Exploration struct {
	Model  *Model
	Report *explore.Report

	deadlocks bool // ExploreRequest.Deadlocks
}

// Explore builds the model r asks for of sys (BuildModel), picks the
// engine and checks the model's properties, all within r.Limits.
func Explore(ctx context.Context, sys *gsst.System, r ExploreRequest) (*Exploration, error) {
	ctx, cancel := r.Limits.Context(ctx)
	defer cancel()
	m, err := buildModel(ctx, sys, r.ModelRequest)
	if err != nil {
		return nil, err
	}
	var engines []explore.Engine
	if r.Choose != nil {
		var e explore.Engine
		e, err = r.Choose(r.Engine, m.Model, r.BDD)
		engines = []explore.Engine{e}
	} else {
		engines, err = Engines(r.Engine, m.Model, r.BDD)
	}
	if err != nil {
		return nil, err
	}
	opts := []explore.Option{
		explore.MaxMemory(r.Limits.MaxMemory),
		// MaxStates bounds the reachable states, so it asks for them.
		explore.CountStates(r.CountStates || r.Limits.MaxStates > 0 || Counted(m.Model)), explore.CheckDeadlocks(r.Deadlocks),
		explore.Traces(!r.NoTraces),
	}
	// The engines' progress always flows, for the growth of an
	// unbounded variable (explore.Growth), which an error must name.
	var mu sync.Mutex
	note := ""
	opts = append(opts, explore.Bound(r.Bound), explore.OnProgress(progressEvery, func(ev progress.Event) {
		if ev.Note != "" {
			mu.Lock()
			note = ev.Note
			mu.Unlock()
		}
		if r.Progress != nil {
			r.Progress(ev)
		}
	}))
	// Within: an engine checks its context between steps, but the
	// lifting of a trace to the processes does not yet, so the timeout
	// is kept here too.
	rep, err := Within(ctx, r.File, "exploration", r.Limits, func() (*explore.Report, error) {
		rep, _, err := check(ctx, engines, m.Model, r.Limits.MaxStates, opts...)
		return rep, err
	})
	if err != nil {
		var le *explore.LimitError
		if ctx.Err() != nil {
			err = Stopped(ctx, r.File, "exploration", r.Limits.Timeout)
		} else {
			err = FileError(r.File, err)
		}
		mu.Lock()
		defer mu.Unlock()
		var ae *Error
		grew := errors.As(err, &le) && le.Growth != nil
		if errors.As(err, &ae) && (note != "" || grew) {
			// Raising the limit would not help: say what grows, and
			// what answers instead.
			if !grew {
				ae.Msg += "; " + note
			}
			ae.Limit = NoLimit
		}
		return nil, err
	}
	return &Exploration{Model: m, Report: rep, deadlocks: r.Deadlocks}, nil
}

// CountSpace bounds the models whose reachable states and deadlocks an
// exploration counts unasked: at most this many states in the model's
// space (counter vectors times the values of the shared variables). On
// a larger one counting may cost far more than the properties (the BDD
// engine decides them backwards, without the reachable states), so it
// is done on request (ExploreRequest.CountStates). The rule reads the
// model only, so the report is the same whichever engine answers.
const CountSpace = 200_000

// Counted says whether an exploration of m counts its reachable states
// unasked (CountSpace).
func Counted(m *counterabs.Model) bool {
	space := m.CounterSpace()
	for _, v := range m.Shared {
		if v.Unbounded {
			return false
		}
		space *= float64(v.Hi-v.Lo) + 1
	}
	return space <= CountSpace
}

// FairRun says whether a fair run starts in the initial state of the
// system explored: nil without fairness constraints or properties (the
// engines decide it with each property: one holds vacuously exactly
// when none starts), and on a forced model unless none starts there
// under justice conditions alone, which carries over to the system
// (explore.Conclude leaves that verdict conclusive).
func (x *Exploration) FairRun() *bool {
	rep := x.Report
	if len(rep.Fairness) == 0 || len(rep.Properties) == 0 {
		return nil
	}
	p := rep.Properties[0]
	if !rep.Exact && (!p.Vacuous || p.Inconclusive != "") {
		return nil
	}
	some := !p.Vacuous
	return &some
}

// NoFairRun reports whether the exploration found that no fair run
// starts in the initial state: a finding, since every property then
// holds vacuously.
func (x *Exploration) NoFairRun() bool {
	f := x.FairRun()
	return f != nil && !*f
}

// DeadlockReachable reports whether deadlocks were asked about and one
// is (or, on a forced model, may be) reachable.
func (x *Exploration) DeadlockReachable() bool {
	return x.deadlocks && (x.Report.DeadlockFree == nil || !*x.Report.DeadlockFree)
}

// Inconclusive lists, for a model that over-approximates the system
// (Report.Exact false), the results that do not carry over to the
// system: every verdict but a universal (ACTL) property that holds
// (explore.Conclude), and a deadlock that may be reachable. It is empty
// for an exact model.
func (x *Exploration) Inconclusive() []string {
	if x.Report.Exact {
		return nil
	}
	var why []string
	for _, p := range x.Report.Properties {
		if p.Inconclusive != "" {
			why = append(why, "property "+p.Name+": "+p.Inconclusive)
		}
	}
	if x.DeadlockReachable() {
		why = append(why, "deadlock-free: a state where the system may be deadlocked is reachable on the over-approximating model")
	}
	return why
}

// Verdict is the answer of the exploration as a whole: No when no fair
// run starts in the initial state (unless allowNoFairRun accepts it),
// Unknown when a result does not carry over from an over-approximating
// model, No when some property fails or a deadlock asked about is
// reachable, else Yes.
func (x *Exploration) Verdict(allowNoFairRun bool) Verdict {
	switch {
	case x.NoFairRun() && !allowNoFairRun:
		return No
	case len(x.Inconclusive()) > 0:
		return Unknown
	case !x.Report.Exact:
		return Yes
	case x.Fails() || x.DeadlockReachable():
		return No
	}
	return Yes
}

// Fails reports whether some property fails on the model.
func (x *Exploration) Fails() bool {
	for _, p := range x.Report.Properties {
		if !p.Holds {
			return true
		}
	}
	return false
}
