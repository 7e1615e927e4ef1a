// Package analysis turns a checked system and a question into an answer:
// it owns the policy that the command line used to hold.
//
// Data flows one way: gsst (parse, check) → detect (certify) →
// counterabs (abstract) → explore, explore/symbolic, prove (decide) →
// analysis → internal/cli (flags, text, JSON, SARIF). Nothing below
// reaches back up.
//
// # Questions
//
//   - BuildModel: which counter model a system gets, and why in words.
//     The rule is one: Group when asked; under Auto the group-counter
//     model when a property or fairness constraint reads group counters
//     (counterabs.GroupReason, which the parametric model of prove uses
//     too) or certification fails, else the total-counter model; Total
//     certifies and refuses an uncertified system unless Force.
//   - Explore: the model, the engine and its report, with the answer as
//     a whole (Exploration.Verdict): no fair run, a verdict a forced
//     model cannot carry over, a failing property.
//   - Certify: check's question, certification (detect with Z3) and,
//     after a violation, the reachability questions (Reach): are the
//     witnesses and the asymmetries (detect.Asymmetry) of every violated
//     transition and rendezvous reachable from the initial state,
//     decided exactly on the group-counter model (of the witness's
//     instance), for any system; with an unbounded shared variable, up
//     to the value past which it is said to keep growing.
//   - Prove: prove's question, safety for every size (prove.Check).
//   - Engines: the one meaning of --engine auto, for every question (the
//     rule is at the top of engine.go): the explicit engine on a small
//     counter space; on a large one, for reachability questions only,
//     the explicit engine within a budget of reachable states and then
//     the BDD engine; else the BDD engine.
//
// # Limits
//
// Limits bound one question: Timeout the whole of it, MaxMemory and
// MaxStates the engines. Work the timeout stops is an error that names
// the stage that was running ("certification", "reachability",
// "abstraction", "exploration", "proof"; "loading" or "NuSMV output" for
// work that reads no context, run through Within); every error that a
// bound caused carries that bound in Error.Limit, so that the command
// line names the flag to raise without reading the message. The bounds
// on one piece of the work, CertifyRequest.SolverTimeout and
// ProveRequest.PropertyTimeout, leave that piece unknown instead, and
// are the Limits SolverTimeout and PropertyTimeout.
//
// # Errors as data
//
// Every error an entry point returns is an *Error (or a gsst.ErrorList
// for bad input found by the parser): a kind from package errkind, a
// position (the file, and the line and column of the transition,
// property or fairness constraint it is about, where known) and a
// message without the position, as go/scanner's Error and CUE's
// errors.Error carry them. Errors splits any error into such values.
// An answer is not an error: Verdict (Yes, Unknown, No) is the answer of
// a question as a whole, which the command line maps to the exit code.
// The one exception is a refusal that leaves nothing to report, the
// total-counter model of an uncertified system: an error of kind
// errkind.Negative.
package analysis
