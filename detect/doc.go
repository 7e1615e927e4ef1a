// Package detect certifies full virtual symmetry of a system.
//
// By Theorem 3 of Wei, Gurfinkel and Chechik, the structure of a system is
// fully virtually symmetric (bisimilar to its quotient under all
// permutations of the processes) if and only if any two configurations in
// one orbit reach the same successor orbits. Under the full symmetry
// group two configurations share an orbit exactly when they agree on
// every total counter and every shared value, and the orbit a step
// reaches is decided by its effect: the change of the totals and the
// shared values after it (gsst.Spec.Effect). So for each transition and
// each rendezvous, Certify asks one query over the steps gsst lowers it
// to (gsst.Step): are there two configurations y, y' with equal total
// counters and shared values such that a step of it is enabled in y'
// (gsst.Spec.EnabledFormula) and no step of y, of it or of any other
// transition or rendezvous whose effect can coincide, has the same
// effect?
//
//	inv(y) & inv(y') & (for every state S: #S(y) = #S(y'))
//	  & OR_M ( En_M(y') & AND_N !(En_N(y) & Z_N(y) = Z_M(y') & W_N = W_M) )
//
// Here y and y' are vectors of group counters (y[S][g] processes of group
// g in state S) and inv says that each group's counters lie in 0..size(g)
// and sum to size(g). Where a step's effect depends on which group its
// mover belongs to (a transfer restricted to some of a part's groups),
// it is compared one group at a time (Step.Restrict). For a transition
// whose steps are the paper's (one process moves, no update, no
// transfer: Step.Simple) and whose effect no other step can have, the
// query is Theorem 6's, Dom(R_r) closed under orbits:
//
//	inv(y) & inv(y') & (for every state S: #S(y) = #S(y')) & phi_r(y') & !phi_r(y)
//
// with phi_r (Domain) the disjunction over the blocks B of r of "some
// process of B is in the source state of r and B's guard holds". The
// query is quantifier-free Presburger arithmetic and goes to a
// presburger.Solver: unsat certifies, sat yields a witness, and unknown
// stays unknown (never certified).
//
// A transition or rendezvous whose steps all hold every group, with
// guards that read total counters only and transfers of every group, is
// symmetric as written and needs no query. For any other the query is
// kept small without losing exactness: only the sources of its steps and
// the states whose group counters the query reads get per-group
// variables; states read only through their totals get one total
// variable, shared by y and y'; all other states get none. Any solution
// extends to full configurations, because nonnegative integers with
// given row sums (processes left per group) and column sums (totals per
// state) exist whenever both sums agree. A shared variable the query does
// not read is not in the problem at all. See query.go and
// docs/certification.md.
//
// A witness is a pair of full configurations with equal total counters
// and shared values. For Theorem 6's query it is one of enabledness: a
// group can take the transition in one, no process can in the other.
// Otherwise it names the step (Witness.Step) taken in the first, whose
// orbit no step of the second reaches. Certify re-verifies every witness
// against gsst's steps (Successors) before reporting a violation; a
// witness that fails is an internal error, not a verdict.
//
// For a parametric system (gsst.System.Parametric: some group size is a
// range, or some parameter is not fixed) the query is the same with one
// more variable per group, its size, ranging over the group's range
// (unbounded above for "N..") or given by its expression over the
// parameters, the parameters variables under the assumption, and n
// written as the sum of the sizes; counters are bounded by their group's
// size through the invariants only. The exactness argument holds for
// each choice of sizes and parameters, so unsat means fully virtually
// symmetric for every instance, and a model gives an instance with a
// witness. Certify then searches, by bisection on n, for a witness in an
// instance with as few processes as possible, and reports its sizes
// (Witness.Sizes) and parameters (Witness.Params) with the two
// configurations.
//
// Asymmetry eliminates the enabled side of a query: the configurations
// of an instance from which the transition or rendezvous breaks symmetry,
// which check asks the reachability of.
package detect
