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
// Arithmetic is on int64. The package does not check for overflow: callers
// bound their constants (the GSST checker rejects literals above
// MaxConstant and systems above MaxProcesses), which keeps every value that
// can arise far inside int64. The exception is FoldBounds, which reasons
// about ranges over caller-given bounds: it checks every product and sum
// and leaves an atom alone on overflow.
//
// Solving goes through the Solver interface. A Problem lists every free
// variable with a finite range, so that a brute-force solver (BruteForce,
// enumeration over the ranges) and an SMT solver (package presburger/z3)
// implement the same interface and can be tested against each other. An
// Unknown result is a first-class answer, never to be read as Sat or Unsat.
package presburger
