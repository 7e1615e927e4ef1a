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
