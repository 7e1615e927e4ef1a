// Package z3 decides and projects presburger problems with the Z3 SMT
// solver through its C API. It is the only package of vsym that uses cgo
// (it links -lz3; Debian's libz3-dev 4.8.12 is enough); everything else
// sees it through the presburger.Solver and presburger.Projector
// interfaces, and its tests check it against presburger.BruteForce.
//
// Solve declares every bounded variable as an integer constant, asserts
// its range and the translated formula, and reads a model back. An Exists
// becomes a Z3 existential over fresh constants, with the ranges of its
// variables conjoined inside the body, so shadowing is handled by the
// translation and not by names. Quantifier-free problems use Z3's plain
// SMT solver; problems with quantifiers use the default solver.
//
// Project eliminates the variables not kept: it states "there are values
// in range of the others" as an existential, adds the ranges of the kept
// variables as context, runs Z3's model-based quantifier elimination
// (tactics qe-light, qe2) and equivalence-preserving simplifiers, removes
// conjuncts implied by the rest, and translates the result back into a
// presburger.Formula. Integer results that need divisibility (x is even)
// have no quantifier-free linear form; they are reported as errors naming
// the Z3 construct (mod, div), never approximated. So is a result with a
// constant or coefficient beyond 2^62 in magnitude: the translation back
// checks every operation for overflow rather than let a value wrap.
//
// Unknown is a first-class answer. A Timeout option bounds each call, a
// context deadline shortens it, and cancelling the context interrupts Z3
// from another goroutine; all three give Unknown with a reason (Project
// gives Result Unknown and a nil formula). Z3 errors are caught by an
// error handler installed in every context (Z3's default one exits the
// process) and returned as Go errors.
//
// A Solver is safe for concurrent use: each call takes a Z3 context of
// its own. Creating a context costs a few milliseconds, more than most
// queries, so contexts are pooled and reused; a context is retired after
// a fixed number of calls (ASTs live as long as their context) or at once
// after an error or an interrupt.
package z3
