// Package z3 decides and projects presburger problems with the Z3 SMT
// solver through its C API. It is the only package of vsym that uses cgo
// (Debian's libz3-dev 4.8.12 is enough to build it); everything else
// sees it through the presburger.Solver and presburger.Projector
// interfaces, and its tests check it against presburger.BruteForce.
//
// The package does not link libz3: it opens the library (libz3.so.4, else
// libz3.so, or the file VSYM_LIBZ3 names) with dlopen when the first
// context is made, so that a process that asks Z3 nothing does not pay
// the 6 ms of loading it at start, and vsym's commands that need no
// solver run where Z3 is not installed. z3api.c, generated from the Z3
// headers by internal/mkapi (go generate), forwards each Z3 function the
// package calls through a pointer filled by dlsym. A library that cannot
// be opened, lacks a function, or is of another major or minor version
// than the headers gives a LoadError, of kind errkind.Unknown, from every
// query of the process.
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
// Prove answers safety questions about a presburger.TransitionSystem with
// Spacer, Z3's engine for constrained Horn clauses (CHC), through the
// fixedpoint API with engine=spacer (Z3 4.8.12 has it; a solver for the
// logic HORN gave the same answers in about the same time on GR&W with
// 4 to 30 counters, but the fixedpoint API lets us pick the engine and
// its transformations). The
// system becomes three kinds of clauses over one predicate Inv of the
// state variables and parameters: the initial states are in Inv, Inv is
// closed under every transition (one clause each, local variables and
// the variables of an Exists not under a negation quantified over the
// clause; a negated Exists is expanded over its finite ranges), and no
// state of Inv is bad. Spacer either finds an interpretation of Inv, an
// inductive invariant, or derives a reachable bad state.
//
// Before Spacer runs, Prove computes the affine hull of the reachable
// states: the least affine space that contains the initial states and is
// closed under the transitions, found as in Karr's analysis by asking the
// SMT solver for a point outside the current space (an initial state, or
// a successor of a state in the space), at most one answer per variable.
// Its equalities, the conservation laws of a counter system, are given
// to Spacer as facts it may assume; they prove some systems on their own
// and spare Spacer a search it can lose (on two counters passing units
// back and forth it diverges on "x0 <= n" for want of "x0 + x1 = n").
//
// An invariant from Spacer, conjoined with the hull's equalities, is read
// back into a presburger.Formula by the translation Project uses (which
// refuses mod, div and overflow) and re-checked with
// presburger.CheckInvariant on plain SMT queries before Prove answers
// Proved. An invariant that fails the re-check is never a proof: Prove
// answers Undecided and says so. (Z3 4.8.12 once answered with an
// interpretation that excluded the initial states when its eager rule
// inlining was on; Prove turns inlining off, and the random tests check
// that no re-check fails.)
//
// A refutation is made concrete by bounded model checking with the plain
// solver, for 0, 1, 2, ... steps (up to MaxUnroll), so the counterexample
// is a shortest run; among runs of that length, the parameters are then
// lowered one after another, in the order of Params, to the least value
// that still has one, which keeps the sizes an explicit engine must
// replay small. The search starts once Spacer reports a bad state
// reachable, or, from a call's second attempt on (presburger.Budget),
// alongside Spacer (Spacer is slow on deep counterexamples, where the
// search may win). The counterexample is replayed with presburger.Replay
// before Prove answers Refuted. Unknown answers of either engine, a
// spent budget, a Timeout (which bounds the whole Prove call), the
// context's deadline and cancellation give Undecided with a reason.
//
// Work, not time, bounds what Prove does: Spacer and the search each run
// in a Z3 context made for the call with the budget's resource limit
// (rlimit, which Z3 counts the same way on every machine), and no timer
// of Z3's own, so the same question with the same budget gets the same
// answer on a loaded machine as on an idle one, word for word; only the
// context's deadline cuts by time. Which of the two finishes first
// depends on the load, but not the answer: a proof and a run into a bad
// state exclude each other, and when one gives up the other is awaited.
// The Work option bounds each check of Solve the same way.
//
// A Solver is safe for concurrent use: each call takes a Z3 context of
// its own. Creating a context costs a few milliseconds, more than most
// queries, so the contexts of Solve and Project are pooled and reused; a
// context is retired after a fixed number of calls (ASTs live as long as
// their context) or at once after an error or an interrupt. Prove's are
// made for the call and deleted after it: Spacer's search depends on
// what its context holds, so a reused one would make its answer depend
// on what ran before. Each context allocates and initialises about 17
// MB as it is made: the hash-consing tables of its two ast_managers (the
// context's own and the one Z3 makes for pretty printing), 512K slots
// and 8K overflow cells of 16 bytes each, fixed in Z3's source (no
// parameter or constructor makes them smaller). Before the first
// context, the C heap is grown once and marked for transparent huge
// pages (prepareHeap, Linux with glibc), with the part before its first
// 2 MB boundary held back, so that this memory is faulted in 2 MB at a
// time and reused by the contexts that follow, rather than mapped afresh
// 4 KB page by page (55-80 ms of CPU per context on the machine of
// BENCHMARKS.md; 4 ms so). glibc is kept to one arena from the start of
// the program, so that what Z3 allocates on any of the threads cgo
// calls run on comes from that heap.
package z3
