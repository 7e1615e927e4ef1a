package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/vsym/vsym/errkind"
)

// stoppedError reports that the work on file ended before an answer
// because ctx ran out (--timeout) or was cancelled: kind Unknown, and a
// message that says "unknown" and names the stage, so that a timeout is
// never mistaken for a verdict.
func stoppedError(ctx context.Context, file, stage string, timeout time.Duration) error {
	why := "cancelled"
	if err := ctx.Err(); err != nil {
		why = err.Error()
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && timeout > 0 {
		why = fmt.Sprintf("timeout after %v; raise --timeout", timeout)
	}
	return errkind.Errorf(errkind.Unknown, "%s: unknown: %s stopped: %s", file, stage, why)
}

// untilDone runs f and returns its results, or stoppedError as soon as
// ctx ends first, for work that does not read a context itself (loading
// a large spec, writing a large model). f then runs on in its goroutine
// until it returns, and its results are dropped: the command ends right
// after.
func untilDone[T any](ctx context.Context, file, stage string, timeout time.Duration, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	if ctx.Err() != nil {
		// Ended already: the same answer whatever f would take.
		var zero T
		return zero, stoppedError(ctx, file, stage, timeout)
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
		var zero T
		return zero, stoppedError(ctx, file, stage, timeout)
	}
}
