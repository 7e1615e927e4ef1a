package errkind

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

type limitErr struct{}

func (limitErr) Error() string        { return "too big" }
func (limitErr) Is(target error) bool { return target == Limit }

func TestOf(t *testing.T) {
	base := errors.New("boom")
	tests := []struct {
		name string
		err  error
		want Kind
	}{
		{"nil", nil, 0},
		{"plain", base, Internal},
		{"wrapped input", Wrap(Input, base), Input},
		{"input under fmt wrapping", fmt.Errorf("loading: %w", Wrap(Input, base)), Input},
		{"errorf", Errorf(Unknown, "solver: %w", base), Unknown},
		{"own type", fmt.Errorf("x: %w", limitErr{}), Limit},
		{"deadline", fmt.Errorf("x: %w", context.DeadlineExceeded), Unknown},
		{"canceled", context.Canceled, Unknown},
		// An internal error inside an input error is still a bug.
		{"internal wins", Wrap(Input, Wrap(Internal, base)), Internal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Of(tc.err); got != tc.want {
				t.Errorf("Of(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

func TestWrapKeepsMessageAndChain(t *testing.T) {
	base := errors.New("boom")
	err := Wrap(Limit, base)
	if err.Error() != "boom" {
		t.Errorf("message %q, want %q", err.Error(), "boom")
	}
	if !errors.Is(err, base) || !errors.Is(err, Limit) || errors.Is(err, Input) {
		t.Errorf("chain broken: Is(base)=%v Is(Limit)=%v Is(Input)=%v", errors.Is(err, base), errors.Is(err, Limit), errors.Is(err, Input))
	}
	if Wrap(Input, nil) != nil {
		t.Error("Wrap(nil) is not nil")
	}
}
