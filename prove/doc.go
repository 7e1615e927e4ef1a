// Package prove answers safety and liveness properties of a GSST for
// every size in its ranges at once: "AG phi holds in every instance",
// with an inductive invariant as the certificate, or "it fails in this
// instance", with a run replayed process by process; and likewise for
// the response properties AF q, AG (p -> AF q) and AG AF q under the
// system's fairness (liveness.go), with a certificate of invariant,
// ranks and helpful fairness constraints (LiveCertificate, rank.go) or a
// fair lasso replayed on an instance (livereplay.go). On a system whose
// runs settle (settle.go: every infinite run ends constant, by a check
// on the steps) a liveness property is the safety property that no
// reachable pending configuration is one where a fair run can stay,
// decided by the safety search below; there the fairness premises that
// ByMC's importer writes in the formula (!E[a U EG (a & j)], !EG a) are
// liveness properties too, with j as a justice condition of their own,
// and a premise on the initial configuration that is a disjunction is
// split into its cases, the disjunction of their invariants re-checked
// as one (ghost.go). A premise's conjuncts that the system's initial set
// can state ("x = 0" on a shared variable that starts in "0..") are
// folded into it first, and those on a variable that starts at a
// parameter's value into the assumption: the property is asked of the
// narrowed system (narrow.go, gsst's NarrowInitial), a parameter that the
// assumption pins to one value is read as that value (gsst's
// PinParams), and a shared variable that nothing reads and that never
// blocks a step is left out (gsst's SliceUnread). A counter written as
// two places that everything reads through their sum, every step that
// takes from them written once per way of sharing out what it takes, is
// read as one variable (merge.go, gsst's MergeSums), for the safety
// properties; what does not carry back is asked as written. So is a
// shared integer typed wider than the values it takes, with the domain
// an inductive bound of its own gives (tight.go: a lock place typed
// "0.." that holds at most one token), its bound added to the invariant
// carried back. A group written as two groups that behave alike,
// everything reading their counters through sums, is read as one group
// (mergegroups.go, gsst's MergeGroups), for every property: a safety
// invariant or a liveness certificate is carried back and re-checked,
// and what does not carry, or is refuted, is asked as written. A
// system with the same runs that the stages read better is asked
// first (sameruns.go): without the group lists no run reads (gsst's
// FreeGroups), with a shared variable written as a controller process
// read as the variable (gsst's ControllersAsShared), with a transition
// written as halves of one effect joined, a guard written by cases
// without the split (gsst's JoinCases), and with a step written through
// an unread intermediate state taken at once (gsst's AbsorbSteps);
// proofs are carried back
// and re-checked, the joined system's runs replayed as written. A system whose
// processes all start in a state I that unguarded steps leave, every
// other step waiting for "#I = 0" (ByMC's initial choice), has its
// safety properties asked of that phase and, from the phase's ends, of
// the steps after it (phase.go); so has one whose processes all start
// in a state that one environment step empties at once, every other
// step needing a mover elsewhere or "#I = 0" (a start step,
// startstep.go; or the one move of one process alone in its first
// state, a start move), the steps after it asked from the
// configurations it leads to; and so has one whose one process in a
// state I (or a
// variable at its initial value) lets steps count shared variables up
// one at a time before anything else moves (a seeding phase, seeds.go),
// the steps after it asked with those variables starting in ranges; and
// so has one whose token processes are dealt from their pools into a
// net's places while a controller is in Boot (or a flag holds) before
// anything else moves (a pool phase, pool.go), the steps after it asked
// with the tokens spread over the pools and places. A
// property is proved when both questions are, refuted when
// one is, and is otherwise asked as written. The answers of these
// derived questions are carried to the system as written (derived.go):
// an invariant re-checked on its own model (the two of an initial phase
// joined into one; after a start step, the rest's joined with the
// initial configurations, or a seeding phase's rest with its own),
// a run replayed on its instance (a run after the phase preceded by
// the phase's steps, the start step, or the seeds, and a pool phase's
// exit); what
// does not carry keeps the derived certificate, which the model's
// reason names (a start step's proof is asked again of the system
// instead), or, for a run, is asked again of the system.
//
// Check takes each property of the form AG phi, phi a condition on one
// state, builds the parametric counter model of the system
// (counterabs.ParamModel: unbounded counters, symbolic group sizes) and
// asks a presburger.Prover whether a state violating phi is reachable.
// The model is the total-counter one when detect certifies the system
// fully virtually symmetric for every size in its ranges (and phi reads
// total counters only), and the group-counter one otherwise, which is
// exact for any GSST. A spec with fixed sizes is a family of one.
// A conjunction of those forms, also written under one AG (AG (phi &
// (p -> AF q))), is asked part by part, each part as a property of its
// own, and its Result holds the parts' (parts.go). Properties of any
// other shape (other EF, EG, until, nestings) are Skipped, which is no
// success: explore decides them at fixed sizes.
//
// On a model whose guards have local variables (the total-counter model
// of a certified system), the prover first gets a relaxed system whose
// guards drop what reads the locals: it over-approximates the model, so
// an invariant it yields is an invariant of the model, and it is
// re-checked on the model itself. Any other answer from it is discarded.
//
// A system with shared variables, parameters (an assumption, group sizes
// over parameters), broadcasts or rendezvous is asked on its parametric
// group-counter model, for every parameter value satisfying the
// assumption at which every group has a process (Report.Scope).
//
// What is cheap comes first (Result.Method says which step answered):
// is the property inductive on its own; does the state equation prove it
// (equation.go: by Farkas' lemma, one linear inequality u.x <= u.x0 per
// disjunct of the bad states, whose weights the Solver finds); is it
// inductive together with the linear invariants of the system (linear.go:
// the weighted sums of state variables that no step changes, by linear
// algebra over the steps' effects); are the lemmas (lemma.go: candidate
// invariants such as bounds, thresholds once passed, counts of the
// processes that incremented a shared variable, and conversely of those
// that did and are still where they went, entrycount.go; a premise on
// the initial configuration carried to every state by ghost constants,
// ghost.go) and the property
// inductive together, filtered by Houdini's algorithm with the Solver,
// with the linear invariants as facts (its batched queries asked
// without the variables those define, houdinireduce.go; and, when they do not prove
// it, with the monotone combinations of monotone.go, sums of a few
// variables that no step increases, in a second round, and the sum
// thresholds of ghostbound.go, bounds that the guards into a state put
// on a sum no step changes, in a third). Before the lemmas, a system
// whose steps are monotone (guards "at least", updates by constants or
// transfers, domains open upward: Petri nets, transfer nets such as
// broadcast protocols, and the counter models of GSSTs that test "at
// least so many"; a guard's upper bounds on counters read lossily,
// lossy.go) is decided by backward coverability (cover.go:
// minimal elements of upward-closed sets, pruned by the net's
// semi-positive place invariants, transfers included, budgeted by
// comparisons; transient states, such as the rule states a net written
// as one process returns from to its hub, fused into where they return,
// coverfuse.go; where the plain search does not end, each element is
// generalized by a sample of the small instances' reachable states,
// coversample.go), whose run (each fused step followed by its returns)
// is replayed and whose fixpoint's complement (read through the
// fusion) is checked as an invariant like any other; then a family of
// one instance (no parameter, every group of a fixed size) whose
// reachable states are few is explored to the end (search.go,
// exhaustOne): a run, or its reachable states as the invariant. When the
// lemmas do not prove the property they are given to the prover as a
// strengthening of every transition and reported with the proof
// (Result.Lemmas). Then the small instances of a system with shared
// variables, parameters, broadcasts or rendezvous are explored
// (search.go: parameters and ranged sizes up to 5, breadth first, with a
// budget of states per instance), which finds the runs of mutated
// thresholds at once; the prover runs when that finds nothing, on the
// system without the variables the linear invariants define, in
// attempts of doubling work (presburger.Budget).
//
// Nothing here is bounded by time but the property as a whole (Timeout,
// and the context): the prover's attempts count Z3's resource limit,
// the search counts states, so the answer and the invariant printed are
// the same on a loaded machine as on an idle one. When the time runs
// out, the property is Unknown, whatever was running.
//
// The answers are re-checked here, whatever Prover gave them:
//
//   - Proved: the invariant is checked again with presburger.CheckInvariant
//     on the Solver (initiation, consecution under every transition,
//     invariant implies phi), independently of the prover's own check.
//     Its text names counters and sizes as docs/prove.md describes
//     (#S, #S[g], n, and |g| for the size of group g).
//   - Refuted: the counterexample's sizes and parameter values are
//     instantiated, its states (counters and shared values) are lifted to
//     process moves of the instance by explore.Lift, and the moves are
//     executed again on a concrete configuration by the meaning of the
//     system's steps (gsst's CheckMovers: each mover in its part's source,
//     the guard true, the update within the domains; what else moves and
//     the shared values as the trace says; phi false at the end). A run that does not replay is an internal error, never a
//     refutation. With fairness constraints the instance is also explored
//     (explore's explicit engine on its group-counter model): fair paths
//     are a subset of all paths, so a proof of AG phi stands, but a bad
//     state reached by the prover may have no fair continuation. The
//     property is Refuted only when explore finds AG phi failing under
//     fairness at those sizes, and Unknown otherwise.
//   - Unknown: a timeout, a solver's "unknown", a counterexample longer
//     than the prover searches, a limit of the fairness check; Reason
//     says which. Counter systems with zero tests are as powerful as
//     Turing machines, so no procedure decides every case.
package prove
