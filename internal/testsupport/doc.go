// Package testsupport holds the reference oracles that the tests of
// every vsym package check their verdicts against, written from the
// definitions of Wei, Gurfinkel and Chechik and sharing no code with the
// packages under test beyond gsst's types and presburger.Eval. It imports
// only gsst, ctl, presburger and specs, so the internal tests of every
// package above them (detect, counterabs, explore, nusmv, the CLI) can use
// it.
//
// Random inputs. RandomSystem draws GSSTs as a Config says: states,
// groups and sizes, the initial configuration, transitions whose groups
// are split into blocks, guards over total counters, group counters of
// the source or of any state, or priority blocks (Guards), random CTL
// properties over total and (GroupProperties) group counters, awkward
// names, and parametric systems with ranges of sizes and guards that read
// n (Ranges, NGuards; Box and Instances list the instances to try). RandomCTL draws
// properties; RandomCounterModel and RandomFormula draw counter models
// below the level of systems, for engine tests. Describe prints a system
// for failure messages.
//
// Certification. BruteForce enumerates the configuration space L^n and
// gives, per transition and total-counter vector, whether some and
// whether every configuration enables it: Theorem 6 (Closed, Certified),
// the existential abstraction g_r (Guard, EnabledAt) and its state space
// (Graph). Enabled and Firing decide Definition 3 on one configuration;
// Projector is a brute-force presburger.Projector for counterabs.Build
// without Z3.
//
// Beyond the paper. ProcSteps is the reference semantics of shared
// variables, updates, broadcast and rendezvous on individual processes
// (procs.go, written from the design contract of issues 20 and 21);
// Procs explores it from a concrete state (ProcState: local states and
// shared values), and FullSymmetry decides full virtual symmetry on it
// directly: in every orbit (total counters and shared values) every
// state has the same successor orbits. RandomSystem draws them too
// (Config.Want: the constructs every system uses, Config.May: those it
// may use; Small: systems small enough for these oracles).
// The oracles of the paper's systems (BruteForce, Unreduced, NewOracle,
// Enabled, Firing) refuse a system with those constructs with a panic
// naming Procs (PaperOnly) rather than read it as if they were not there.
//
// State spaces. Unreduced explores the process-indexed system, each
// process with its own local state; its Groups and Totals are the
// quotients the group-counter and, for a certified system, the
// total-counter model must have. CounterGraph explores a bare counter
// model. Every Graph follows vsym's convention for deadlocks: a state
// without a move stutters, so every path is infinite.
//
// CTL. Sat and Holds evaluate CTL on any Graph by textbook fixpoints;
// CheckTrace and CheckEngineTrace check that an engine's trace shows its
// verdict (Promised says when one is owed). An engine's trace is
// restated as a Trace (explore/enginetest does that), with its lifted
// run (Lifted), which Replay replays on the unreduced system, the one
// replay of lifted traces that every test uses.
//
// Fair CTL. Oracle (fair.go) is the process-indexed state space with
// labelled edges and a naive fair-CTL evaluator (justice and weak
// fairness; fair EG from strongly connected components, not the engines'
// Emerson-Lei fixpoints); CheckTrace checks a trace's segments and fair
// cycle on it and CheckDeadlocks an engine's deadlock results.
// RandomSystem draws fairness constraints for it (Config.Fairness;
// FairConfig), and properties of a Shape (safety, response, exportable,
// any CTL); RandomUniversal draws ACTL properties.
//
// Known answers. LoadCorpus reads the archives of testdata/corpus at the
// module root (txtar, ParseArchive): a spec with its expected
// certification, state counts and verdicts, which Derive recomputes with
// the oracles above (TestCorpus here) and Level.Compare compares with an
// engine's or emitter's results. ReadersWritersYAML, MutexYAML, GRW and
// ASR are the paper's systems, written once; Parse reads a test's spec;
// FirstDiff reports golden-file differences.
//
// The engines' conformance suite, explore/enginetest, runs any engine
// against these oracles. A cross-check of an engine on the group-counter
// model, with properties over group counters:
//
//	r := rand.New(rand.NewSource(1))
//	for range 200 {
//		sys := testsupport.RandomSystem(r, testsupport.Config{Properties: 4, GroupProperties: true})
//		m, err := counterabs.BuildGroup(sys)
//		...
//		rep, err := explicit.Engine{}.Check(ctx, m)
//		...
//		sp := testsupport.Unreduced(sys)
//		if got, want := rep.ReachableStates.Int64(), int64(sp.Groups().Len()); got != want { ... }
//		for i, p := range sys.Properties {
//			if rep.Properties[i].Holds != testsupport.Holds(sp.Graph, p.Formula) { ... }
//		}
//	}
package testsupport
