// Package testsupport holds the reference oracles that the tests of
// every vsym package check their verdicts against, written from the
// definitions of Wei, Gurfinkel and Chechik and sharing no code with the
// packages under test beyond gsst's types and presburger.Eval:
//
//   - RandomSystem draws random GSSTs (Config says how many states,
//     groups and transitions, which counters guards read, how many random
//     CTL properties and whether they read group counters); RandomCTL
//     draws properties; Describe prints a system for failure messages.
//   - BruteForce enumerates the configuration space L^n and gives, per
//     transition and total-counter vector, whether some and whether every
//     configuration enables it: Theorem 6 (Closed, Certified), the
//     existential abstraction g_r (Guard) and its state space (Graph).
//   - Unreduced explores the process-indexed system, each process with its
//     own local state; Groups and Totals are its quotients, the state
//     spaces the group-counter and (for certified systems) the
//     total-counter models must have. CounterGraph explores a bare counter
//     model.
//   - Sat and Holds evaluate CTL on any of these graphs by textbook
//     fixpoints; CheckTrace checks that an engine's trace shows its
//     verdict.
//   - LoadCorpus reads the known-answer archives of testdata/corpus
//     (txtar: spec, expected certification, counts and verdicts), whose
//     expected values Derive recomputes with the oracles above.
//   - ReadersWritersYAML, MutexYAML, GRW and ASR are the paper's systems,
//     written once.
//
// Graphs follow vsym's convention for deadlocks: a state without a move
// has a stutter step to itself, so every path is infinite. Fair CTL
// (justice constraints, with EG by the Emerson-Lei fixpoint) plugs in
// as another implementation of the paths interface in ctl.go; the rest
// of the evaluator does not change.
//
// A typical cross-check of an engine on the group-counter model:
//
//	r := rand.New(rand.NewSource(1))
//	for range 200 {
//		sys := testsupport.RandomSystem(r, testsupport.Config{Properties: 4, GroupProperties: true})
//		m, err := counterabs.BuildGroup(sys)
//		...
//		rep, err := explore.Explicit{}.Check(ctx, m)
//		...
//		sp := testsupport.Unreduced(sys)
//		if got, want := rep.ReachableStates.Int64(), int64(sp.Groups().Len()); got != want { ... }
//		for i, p := range sys.Properties {
//			if rep.Properties[i].Holds != testsupport.Holds(sp.Graph, p.Formula) { ... }
//		}
//	}
//
// The package imports only gsst, ctl, presburger and specs, so the
// internal tests of every package above them can use it.
package testsupport
