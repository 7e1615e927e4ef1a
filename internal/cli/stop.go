package cli

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// stoppedError reports that the work on file ended before an answer
// because ctx ran out (--timeout) or was cancelled: exit code 3, and a
// message that says "unknown" and names the stage, so that a timeout is
// never mistaken for a verdict or for a hint to use --force.
func stoppedError(ctx context.Context, file, stage string, timeout time.Duration) error {
	why := "cancelled"
	if err := ctx.Err(); err != nil {
		why = err.Error()
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && timeout > 0 {
		why = fmt.Sprintf("timeout after %v", timeout)
	}
	return withCode(ExitUnknown, fmt.Errorf("%s: unknown: %s stopped: %s", file, stage, why))
}

// limitError reports a resource limit (--max-states, --max-memory) hit
// during exploration: exit code 3, "unknown", and the engine's message,
// which says which limit to raise.
func limitError(file string, err error) error {
	return withCode(ExitUnknown, fmt.Errorf("%s: unknown: %v", file, err))
}
