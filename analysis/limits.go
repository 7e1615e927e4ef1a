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

// context returns ctx bounded by l.Timeout when it is positive. The
// caller must call cancel.
func (l Limits) context(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	if l.Timeout > 0 {
		return context.WithTimeout(ctx, l.Timeout)
	}
	return ctx, func() {}
}
