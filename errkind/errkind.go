package errkind

import (
	"context"
	"errors"
	"fmt"
)

// Kind classifies an error. The zero Kind is no kind.
type Kind int

const (
	Input    Kind = iota + 1 // malformed input
	Unknown                  // no answer: solver unknown, timeout, cancellation
	Limit                    // a resource limit was reached
	Internal                 // a bug: vsym's own check of a result failed
	Negative                 // a negative answer that stops the work
)

var names = [...]string{Input: "bad input", Unknown: "unknown", Limit: "resource limit", Internal: "internal error", Negative: "negative answer"}

func (k Kind) String() string {
	if k <= 0 || int(k) >= len(names) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return names[k]
}

// Error makes a Kind usable as a target of errors.Is.
func (k Kind) Error() string { return k.String() }

// kindError attaches a kind to an error without changing its message.
type kindError struct {
	kind Kind
	err  error
}

func (e *kindError) Error() string        { return e.err.Error() }
func (e *kindError) Unwrap() error        { return e.err }
func (e *kindError) Is(target error) bool { return target == e.kind }

// Wrap returns err marked with kind k, or nil when err is nil. The message
// and the chain of err are kept.
func Wrap(k Kind, err error) error {
	if err == nil {
		return nil
	}
	return &kindError{k, err}
}

// Errorf formats an error (%w wraps, as with fmt.Errorf) of kind k.
func Errorf(k Kind, format string, args ...any) error {
	return &kindError{k, fmt.Errorf(format, args...)}
}

// Of returns the kind of err: the first kind found along its chain, with
// context.Canceled and context.DeadlineExceeded counting as Unknown, and
// Internal for an error of no kind. Of(nil) is 0.
func Of(err error) Kind {
	if err == nil {
		return 0
	}
	for _, k := range []Kind{Internal, Input, Negative, Limit, Unknown} {
		if errors.Is(err, k) {
			return k
		}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Unknown
	}
	return Internal
}
