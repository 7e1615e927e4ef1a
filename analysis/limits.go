package analysis

import (
	"context"
	"time"
)

// Limits bound the work of one question. A zero field is no bound.
type Limits struct {
	// Timeout bounds the whole question: model, certification and
	// exploration together. Work it stops is an error of kind
	// errkind.Unknown whose Limit is Timeout and whose message names the
	// stage that was running.
	Timeout time.Duration
	// MaxMemory bounds the engines' state store, in bytes.
	MaxMemory int64
	// MaxStates bounds the reachable states an engine stores.
	MaxStates int64
}

// Work budgets of the solver, in units of Z3's resource limit (rlimit),
// which Z3 counts alike on every machine: a question that runs out of
// work is unknown on a loaded machine exactly when it is on an idle one,
// where a time bound would cut it at a point that depends on the load.
// Time bounds only the whole run (Limits.Timeout) and, when asked,
// each query or property (--solver-timeout, --property-timeout).
const (
	// QueryWork is the default budget of each certification and
	// abstraction query. Their queries take milliseconds on the bundled
	// specs; Spacer does about 2.5 million units a second on the
	// machine of BENCHMARKS.md, so this is tens of seconds of Z3.
	QueryWork = 100_000_000
	// AutoQueryWork is the default budget of each query of --model
	// auto's attempt at the total-counter model: the group-counter
	// model needs no solver and is exact as well, so auto gives up on a
	// hard query soon (a query over coefficients near 1e9 can take a
	// second per million units).
	AutoQueryWork = 1_000_000
	// PropertyWork is the default budget of the prover's largest
	// attempt on one property (prove.MaxWork): its attempts double from
	// prove's first one, so a property that is unknown for want of work
	// has had about twice this of Spacer and half of it of the search
	// beside it, under a minute of Z3 (at 80 million, an undecided mist
	// net took 14 minutes of CPU: docs/prove.md).
	PropertyWork = 20_000_000
)

// orDefault returns n when it is positive, else dflt.
func orDefault(n, dflt int64) int64 {
	if n > 0 {
		return n
	}
	return dflt
}

// Context returns ctx bounded by l.Timeout when it is positive, for work
// that spans several calls (a model built, then written: Within). The
// caller must call cancel.
func (l Limits) Context(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	if l.Timeout > 0 {
		return context.WithTimeout(ctx, l.Timeout)
	}
	return ctx, func() {}
}

// Within runs f, work that does not read a context (loading a large
// spec, writing a large model), and returns its results, or as soon as
// ctx ends first the error of work on file stopped at stage (Stopped,
// with l.Timeout). A context that has ended already stops it at once,
// whatever f would take. Otherwise f runs on in its goroutine until it
// returns, and its results are dropped.
func Within[T any](ctx context.Context, file, stage string, l Limits, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	var zero T
	if ctx.Err() != nil {
		return zero, Stopped(ctx, file, stage, l.Timeout)
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		return zero, Stopped(ctx, file, stage, l.Timeout)
	}
}

// progressEvery is how often the engines report their figures to a
// request's Progress: a display redraws a few times a second.
const progressEvery = 250 * time.Millisecond
