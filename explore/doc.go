// Package explore is the contract every model checker of vsym meets, and
// what they share: the engines themselves are sibling packages,
// explore/explicit (explicit states) and explore/symbolic (BDDs).
//
// # Engines and settings
//
// An Engine decides the properties of a counterabs.Model at its initial
// state and fills a Report. Every engine reads the same Config, set with
// functional options (MaxStates, MaxMemory, OnProgress, Properties,
// Traces, CountStates, CheckDeadlocks, CountConcrete): limits stop a
// search with a *LimitError (errors.Is(err, errkind.Limit)) or the
// context's error, never a crash, and MaxStates stops it as soon as more
// states are reachable than it allows. Settings peculiar to one engine
// (the BDD variable order, say) are that engine's own.
//
// A model is a counter vector system: states are counter vectors x
// (x_S processes in local state S, summing to n; in a group-counter model
// one pool of counters per group) and abstract transition r moves one
// unit from x_From to x_To when g_r holds. For a certified system the
// total-counter model is the symmetry quotient (Theorem 7 of Wei,
// Gurfinkel and Chechik), so every verdict on a property over total
// counters is exact; the group-counter model is an exact quotient of any
// GSST. For a model forced on an uncertified system the report is marked
// not Exact, and Conclude says which verdicts still carry over (universal
// properties that hold do). A deadlock state has a stutter self-loop (and
// so has, on a forced model, a state that may be deadlocked:
// counterabs.Model.MayDeadlock). With justice constraints the path
// quantifiers range over fair paths, NuSMV's semantics.
//
// # Results
//
// Report, PropertyResult, Trace, State, Lifted and Step (report.go) are
// filled alike by every engine, so the command line prints and encodes
// them in one place, and a report is the same, byte for byte but for its
// Stats, whichever engine filled it (canonical.go): counts exactly when
// asked for, the concrete count with ConcreteCounter, and one canonical
// trace per question. Auto (auto.go) can therefore race the engines and
// take the first answer. Counts are *big.Int. An engine starts each
// result with NewPropertyResult and makes its trace states with
// CounterState. An unbounded shared variable that keeps growing is
// reported as a Growth (growth.go), at once and in the limit that
// stops the search.
//
// # Traces
//
// Explain (explain.go) builds every engine's traces from what the engine
// offers through TraceGraph: its satisfaction sets and explicit steps. A
// verdict is explained NuSMV-style, down to the temporal operators that
// decide it, as a path from the initial state cut into Segments (and
// Branches for the other operands of a conjunction): canonical shortest
// paths (shortest, then chosen backwards by least states: Compare), fair
// lassos whose cycle meets every justice constraint. Lift and LiftTrace (lift.go) turn a trace of counter
// vectors into process moves of the unreduced system.
//
// The conformance suite explore/enginetest runs any engine over the
// known-answer corpus and the random oracles of internal/testsupport;
// each engine's package test runs it.
package explore
