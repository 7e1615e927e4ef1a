package analysis

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
)

// Error is one error of an analysis: its kind, where it is (the file, and
// the line and column of the transition, property or fairness
// constraint it is about, where known) and the message without the
// position. Limit names the bound that stopped the work, for an error of
// kind Unknown or Limit, so that a caller can say which setting to
// change without reading the message.
type Error struct {
	Kind  errkind.Kind
	Pos   gsst.Pos
	Msg   string
	Limit Limit
	Err   error // the cause, for errors.Is and errors.As; may be nil
}

// Error prints the error as "file:line:col: message", as gsst.Error does.
func (e *Error) Error() string {
	if e.Pos == (gsst.Pos{}) {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// Position returns where the error is.
func (e *Error) Position() gsst.Pos { return e.Pos }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, k) hold for the error's kind k.
func (e *Error) Is(target error) bool { return target == e.Kind }

// ErrorList is a list of errors, reported together, sorted as
// gsst.ErrorList is: by file, line, column and message.
type ErrorList []*Error

// Sort orders the list by file, line, column and message, and removes
// duplicates.
func (l *ErrorList) Sort() {
	e := *l
	sort.SliceStable(e, func(i, j int) bool { return gsst.Less(e[i].Pos, e[i].Msg, e[j].Pos, e[j].Msg) })
	out := e[:0]
	for i, x := range e {
		if i > 0 && x.Pos == e[i-1].Pos && x.Msg == e[i-1].Msg {
			continue
		}
		out = append(out, x)
	}
	*l = out
}

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Errors returns the errors err stands for, each with its kind and
// position: the entries of a gsst.ErrorList (bad input) or of an
// ErrorList, an *Error, or else one error about file of the kind
// errkind.Of gives. It returns nil for nil.
func Errors(file string, err error) ErrorList {
	if err == nil {
		return nil
	}
	var gl gsst.ErrorList
	if errors.As(err, &gl) && len(gl) > 0 {
		out := make(ErrorList, len(gl))
		for i, e := range gl {
			pos := e.Pos
			if pos.File == "" {
				pos.File = file
			}
			out[i] = &Error{Kind: errkind.Input, Pos: pos, Msg: e.Msg, Err: e}
		}
		return out
	}
	var l ErrorList
	if errors.As(err, &l) {
		return l
	}
	var e *Error
	if errors.As(err, &e) {
		return ErrorList{e}
	}
	return ErrorList{{Kind: errkind.Of(err), Pos: gsst.Pos{File: file}, Msg: err.Error(), Err: err}}
}

// Limit names a bound on the work of an analysis.
type Limit int

const (
	NoLimit   Limit = iota
	Timeout         // the time bound of the question (Limits.Timeout)
	MaxMemory       // the memory bound (Limits.MaxMemory)
	MaxStates       // the bound on reachable states (Limits.MaxStates)
)

var limitNames = [...]string{NoLimit: "none", Timeout: "timeout", MaxMemory: "memory", MaxStates: "states"}

func (l Limit) String() string {
	if l < 0 || int(l) >= len(limitNames) {
		return fmt.Sprintf("Limit(%d)", int(l))
	}
	return limitNames[l]
}

// limitOf returns the bound that stopped err: a state or memory limit of
// an engine, or a deadline.
func limitOf(err error) Limit {
	var le *explore.LimitError
	switch {
	case errors.As(err, &le) && le.Kind == "memory":
		return MaxMemory
	case errors.As(err, &le) && le.Kind == "states":
		return MaxStates
	case errors.Is(err, context.DeadlineExceeded):
		return Timeout
	}
	return NoLimit
}

// FileError returns err, an error of a library about the system in file,
// as an *Error with its kind and its position: that of the transition,
// property or fairness constraint it names, else the file. An answer
// that could not be found (kind Unknown or Limit) says "unknown", so that
// it is never mistaken for a verdict. An error that already is an *Error
// or a list of positioned errors is returned as it is.
func FileError(file string, err error) error {
	var e *Error
	var gl gsst.ErrorList
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e), errors.As(err, &gl):
		return err
	}
	out := &Error{Kind: errkind.Of(err), Pos: gsst.Pos{File: file}, Msg: err.Error(), Err: err}
	var ge *gsst.Error
	var ue *counterabs.UnknownError
	switch {
	case errors.As(err, &ge) && ge.Pos.Line > 0:
		out.Pos, out.Msg = ge.Pos, ge.Msg
	case errors.As(err, &ue) && ue.Pos.Line > 0:
		out.Pos = ue.Pos
	}
	switch out.Kind {
	case errkind.Unknown, errkind.Limit:
		out.Msg = "unknown: " + out.Msg
		out.Limit = limitOf(err)
	}
	return out
}

// stopped returns the error for work on file that ended at stage
// ("certification", "exploration") before an answer because ctx ran out
// (after timeout, when positive) or was cancelled: kind Unknown, and a
// message that says "unknown" and names the stage.
func stopped(ctx context.Context, file, stage string, timeout time.Duration) error {
	why, limit := "cancelled", NoLimit
	if err := ctx.Err(); err != nil {
		why = err.Error()
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && timeout > 0 {
		why, limit = fmt.Sprintf("timeout after %v", timeout), Timeout
	}
	return &Error{Kind: errkind.Unknown, Pos: gsst.Pos{File: file}, Msg: fmt.Sprintf("unknown: %s stopped: %s", stage, why), Limit: limit, Err: ctx.Err()}
}

// stopReason says in words why err ended the work when ctx is the
// context it ran under: the timeout when ctx ran out, else err. The
// second result is the bound that stopped it.
func stopReason(ctx context.Context, err error, timeout time.Duration) (string, Limit) {
	switch {
	case ctx.Err() == nil:
		return err.Error(), limitOf(err)
	case timeout > 0:
		return fmt.Sprintf("stopped: timeout after %v", timeout), Timeout
	}
	return "stopped: " + ctx.Err().Error(), NoLimit
}

// Errorf returns an error of kind k at pos whose message is formatted as
// fmt.Sprintf does (%w is not supported: the message stands alone).
func Errorf(k errkind.Kind, pos gsst.Pos, format string, args ...any) error {
	return &Error{Kind: k, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
