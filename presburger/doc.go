// Package presburger is a small library of quantifier-free Presburger
// formulas (linear integer arithmetic with boolean connectives, plus a
// bounded existential quantifier) and of solvers that decide them.
//
// Variables are opaque integers (Var); the package knows nothing about what
// they stand for. Callers that print formulas pass a naming function.
//
// A Term is a linear combination c1*v1 + ... + ck*vk + k0, kept in a
// canonical form (sorted by variable, no zero coefficients), so that two
// equal terms are equal as values. A Formula is a closed sum type: Bool,
// Cmp (a term compared with zero), Not, And, Or and Exists.
//
// Coefficients, constants and values are int64, and nothing wraps
// around (exact.go). Eval decides an atom by the exact sign of its
// term's value, computed in 128 bits (big.Int beyond); Term.Value
// returns a value with ok false when it does not fit in int64, and
// Term.Range the exact range of a term over ranges of its variables,
// with a side open when it does not fit. Term arithmetic has checked
// forms that report a result beyond int64 (AddExact, ScaleExact,
// SubExact, SubstExact, and SubstExact for formulas), for callers that
// fold values they do not bound themselves; the plain forms (Add,
// Scale, Sub, Subst, Term.Eval) panic on such a result rather than
// return a wrong one.
//
// Solving goes through the Solver interface. A Problem lists every free
// variable with a range, so that a brute-force solver (BruteForce,
// enumeration over the ranges) and an SMT solver (package presburger/z3)
// implement the same interface and can be tested against each other. An
// Unknown result is a first-class answer, never to be read as Sat or Unsat.
// Quick decides the easy problems in Go (case splits, integer interval
// propagation, an exact simplex) and declines the others, and a Chain asks
// its solvers in turn: Quick in front of Z3 answers most queries of a
// simple proof without Z3, exactly, with Z3 behind it for the rest.
// SolveEqs in front of a solver asks it the problem without the
// variables its top-level equalities define (Gaussian elimination over
// unit coefficients, the same answers), which Z3's plain solver does
// not eliminate before its search. A Memo in front of a solver remembers
// the large problems it showed unsat and, once told to, answers the
// same problem over renamed variables unsat without asking again (a
// proof found on a system without the variables nothing reads,
// re-checked on the system as written).
//
// A range (Bound) is finite, Lo..Hi, unless a side is opened with NoLo or
// NoHi: AtLeast(x, 0) is a counter with no upper bound, AnyInt(v) any
// integer. The Z3 solver decides problems with open ranges; BruteForce
// returns an error for them rather than search part of the range. The
// variables of an Exists always have finite ranges (Eval enumerates them).
//
// # Safety of infinite-state systems
//
// A TransitionSystem states a safety question about an integer system
// with unbounded state: state variables (counters, say) with their
// next-state copies, parameters that stay fixed along a run (group
// sizes), a domain of ranges that every state keeps to, an initial
// condition, transitions (relations between a state and the next, with
// local variables existentially quantified afresh at each step) and a
// bad condition. A Prover (package presburger/z3 implements one with
// Z3's CHC engine) answers with a SafetyAnswer:
//
//   - Proved: no run, for any parameter values in the domain, reaches a
//     bad state. The answer carries an inductive invariant over the state
//     variables and parameters.
//   - Refuted: some run does. The answer carries a Counterexample: the
//     parameter values, the states from an initial to a bad one, and the
//     index of the transition of each step.
//   - Undecided: no answer, with the reason (a timeout, the solver's
//     "unknown"). It is never to be read as either of the others.
//
// Neither verdict rests on the Prover's word. CheckInvariant re-checks an
// invariant with three kinds of plain satisfiability queries, each of
// which must be Unsat: initiation (Init & !Inv), consecution under each
// transition (Inv & Trans_i & !Inv', in the next state), and safety
// (Inv & Bad), all within the domain; where a transition defines the
// next state by equalities x' = t, consecution reads Inv at the t
// instead of asking about a copy of the state. It tells a wrong
// invariant (InvariantError, with a witness) from a solver that gave no
// answer (UndecidedError); IsInvariant gives the verdict alone. Replay checks a counterexample state by state and
// step by step, asking the solver only for the values of a transition's
// local variables. Provers run both before they report a verdict;
// callers may run them again with a solver of their own.
//
// Safety only: liveness and other temporal properties are out of scope.
// And a safety question may have no answer a solver can find: counter
// systems that can test a counter for zero are as powerful as Turing
// machines (Minsky machines), so reachability is undecidable and an
// Undecided answer is legitimate, not a defect.
package presburger
