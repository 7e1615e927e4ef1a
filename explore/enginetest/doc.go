// Package enginetest is the conformance suite of vsym's model checkers:
// one harness that runs any explore.Engine over the same test data and
// oracles, as go/types and types2 share one harness and testdata, and
// cuetxtar runs two implementations on one test set. Each engine's
// package test calls Conformance once per setting it wants checked:
//
//	func TestConformance(t *testing.T) { enginetest.Conformance(t, explicit.Engine{}) }
//
// Conformance runs four parts, each a subtest:
//
//   - corpus: every archive of testdata/corpus (testsupport.LoadCorpus)
//     on the group-counter model and on the total-counter model (built
//     with Z3, forced when the archive says the system is not
//     certified); counts and verdicts must be the archive's, every
//     trace must show its verdict on the oracle's graph of the model,
//     and every trace of an exact model must replay on the unreduced
//     system (testsupport.Replay); with counts, explore.MaxStates must
//     let a run with the archive's count of states finish and stop one
//     with a state less;
//   - unreduced: hundreds of random systems, certified or not, with
//     properties over total and group counters, against the naive
//     checker on the unreduced system (testsupport.Unreduced);
//   - fair: hundreds of random systems with justice and weak fairness
//     against the fair-CTL oracle (testsupport.Oracle), every trace
//     replayed and its cycle checked to meet every constraint;
//   - processes: random systems with every construct of the language
//     (testsupport.RandomSystem: shared variables, updates, broadcast,
//     rendezvous, fixed parameters) on their group-counter model, and
//     their total-counter model where counterabs builds one, against
//     the process-level semantics (testsupport.Procs), which shares no
//     code with the models or the engines.
//
// The options given to Conformance go to every Check; counts are
// compared when they ask for them (explore.CountStates, the default),
// and the deadlock verdict when the engine decides it. The oracles live
// in internal/testsupport, which imports no engine; Trace restates an
// engine's trace in their terms.
package enginetest
