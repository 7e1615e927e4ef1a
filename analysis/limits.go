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

// Within runs f, work that does not read a context (writing a large
// model), and returns its results, or as soon as ctx ends first the
// error of work on file stopped at stage (kind errkind.Unknown, Limit
// Timeout when l.Timeout ran out). f then runs on in its goroutine until
// it returns, and its results are dropped.
func Within(ctx context.Context, file, stage string, l Limits, f func() (string, error)) (string, error) {
	type result struct {
		text string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		text, err := f()
		done <- result{text, err}
	}()
	select {
	case r := <-done:
		return r.text, r.err
	case <-ctx.Done():
		return "", stopped(ctx, file, stage, l.Timeout)
	}
}

// progressEvery is how often the engines report their figures to a
// request's Progress: a display redraws a few times a second.
const progressEvery = 250 * time.Millisecond
