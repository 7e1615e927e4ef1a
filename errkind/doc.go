// Package errkind is the small vocabulary of error kinds that every
// package of vsym uses, so that the command line can map any error to an
// exit code with one switch instead of probing each package's error
// types.
//
// There are five kinds:
//
//   - Input: what was given is malformed (a spec with errors, a model or
//     system built wrongly by a caller, a bad option value).
//   - Unknown: no answer was found: a solver answered unknown, a deadline
//     passed, the work was cancelled.
//   - Limit: a resource bound stopped the work (stored states, memory,
//     BDD nodes).
//   - Internal: a check of vsym's own results failed; a bug.
//   - Negative: the question has a negative answer that leaves nothing
//     to do: the total-counter model was asked for and the system is not
//     certified. (A negative answer that is the result, a property that
//     fails, is a verdict, not an error.)
//
// A Kind is itself an error value, so errors.Is(err, errkind.Limit) asks
// whether err, or anything it wraps, is of that kind. Packages attach a
// kind either with Wrap and Errorf, or by giving their own error types an
// Is method that matches the kind. Of returns the kind of any error;
// context errors count as Unknown, and an error of no kind counts as
// Internal, never as Input: a failure nobody classified is not the user's
// fault.
//
// Messages describe the condition ("memory limit of 4.0 GiB reached"),
// not what to type to avoid it; the command line adds the flag to change.
package errkind
