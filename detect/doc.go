// Package detect certifies full virtual symmetry of a GSST.
//
// By Theorem 6 of Wei, Gurfinkel and Chechik, the structure M(P) of a GSST
// P is fully virtually symmetric if and only if, for every local
// transition r, the set Dom(R_r) of global states in which some process can
// take r is closed under permutations of process indices. Under the full
// symmetry group two global states share an orbit exactly when they agree
// on every total counter, so the check for r asks whether some pair of
// configurations y, y' with equal total counters has y' in Dom(R_r) and y
// outside it:
//
//	inv(y) & inv(y') & (for every state S: #S(y) = #S(y')) & phi_r(y') & !phi_r(y)
//
// Here y and y' are vectors of group counters (y[S][g] processes of group
// g in state S), inv says that each group's counters lie in 0..size(g) and
// sum to size(g), and phi_r (Domain) is the disjunction over the blocks B
// of r of "some process of B is in the source state of r and B's guard
// holds". The query is quantifier-free Presburger arithmetic and goes to a
// presburger.Solver: unsat certifies r, sat yields a witness, and unknown
// stays unknown (never certified).
//
// A transition whose only block holds every group and whose guard reads
// total counters only is symmetric as written and needs no query. For any
// other transition the query is kept small without losing exactness:
// only the source of r and the states whose group counters r's guards
// read get per-group variables; states read only through their totals get
// one total variable, shared by y and y'; all other states get none. Any
// solution extends to full configurations, because nonnegative integers
// with given row sums (processes left per group) and column sums (totals
// per state) exist whenever both sums agree. See query.go and
// docs/certification.md.
//
// A witness is a pair of full configurations with equal total counters: in
// one some process can take r, in the other none can. Certify re-verifies
// every witness by direct evaluation of the guards before reporting a
// violation; a witness that fails is an internal error, not a verdict.
//
// For a parametric system (gsst.System.Parametric: some group size is a
// range) the query is the same with one more variable per group, its
// size, ranging over the group's range (unbounded above for "N.."), and n
// written as the sum of the sizes; counters are bounded by their group's
// size through the invariants only. The exactness argument holds for
// each choice of sizes, so unsat means fully virtually symmetric for
// every instance, and a model gives the sizes of an instance with a
// witness. Certify then searches, by bisection on n, for a witness in an
// instance with as few processes as possible, and reports its sizes
// (Witness.Sizes) with the two configurations.
//
// Systems with shared variables, updates, broadcasts, rendezvous or
// parameters (gsst.Spec.Extensions) are certified by the exact condition
// of Theorem 3 instead, since Theorem 4 (one transition at a time) fails
// when different steps can reach the same orbit: any two configurations
// with equal total counters and the same shared values must reach the
// same successor orbits. Each transition's blocks and each rendezvous
// get a query asking for a step of theirs whose effect (the change of
// the totals and the shared values after it) no step of the other
// configuration has (ext.go; rendezvous enabledness by Hall's condition
// for distinct processes). A family's parameters are variables of the
// query, under the assumption. A witness then names the shared values
// and the step (Witness.Step), and VerifyWitness checks it against
// Successors. Systems within the paper keep the queries above.
package detect
