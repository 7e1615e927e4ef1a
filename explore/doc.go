// Package explore model checks GSST systems by explicit state
// exploration, and defines the results every engine reports.
//
// # Results
//
// Report, PropertyResult, Trace, State, Lifted and Step (report.go) are
// shared by all engines: this package's explicit engine and the BDD
// engine in explore/symbolic fill the same types, and the command line
// prints and encodes them in one place. Counts are *big.Int. Lift turns a
// trace of counter vectors into process moves of the unreduced system;
// any engine can use it.
//
// # Models
//
// CheckAbstract explores a counterabs.Model: states are counter vectors
// x (x_S processes in local state S, summing to n) and abstract
// transition r moves one unit from x_From to x_To when g_r holds. For a
// certified system this is the symmetry quotient (Theorem 7 of Wei,
// Gurfinkel and Chechik), so every verdict on a property over total
// counters is exact. For a model forced on an uncertified system the
// report is marked not Exact.
//
// CheckConcrete explores the unreduced system of Definition 3. A state is
// canonicalized with SymmSpin's "sorted" strategy, sorting the local
// states of each group's processes; a sorted vector is the same as the
// vector of group counters #S[g]. Processes of one group are identical
// (a guard reads counters only), so the canonical states form an exact
// quotient for any GSST, certified or not.
//
// # The explicit engine
//
// Both modes share one engine (space.go) over valuations: vectors of
// counter values indexed like the presburger variables, so compiled
// guards (guard.go: flat node arrays, no maps or interface calls) read
// them directly. Keys pack each pool of counters with a fixed sum as
// small binary fields minus the implied last one; a move adds a constant
// to the key. The breadth-first search keeps keys in insertion order, so
// state numbers are breadth-first and the key array is the queue. Visited
// states go into a bitmap over the perfect ranks of the vectors
// (rank.go, a combinatorial number system) when that space is small, and
// through an open-addressing hash index otherwise (store.go).
//
// CTL model checking (ctl.go) computes satisfaction sets as bitsets over
// state numbers with worklist fixpoints that enumerate predecessors by
// undoing moves, so no edge is ever stored. A deadlock state has a
// stutter self-loop (and so has, on a forced model, a state that may be
// deadlocked: counterabs.Model.MayDeadlock). With justice constraints
// the path quantifiers range over fair paths (fair.go: Emerson-Lei's fair
// EG over edge sets, NuSMV's semantics).
//
// # Traces
//
// Explain (explain.go) builds every engine's traces from what the engine
// offers through TraceGraph: its satisfaction sets and explicit steps. A
// verdict is explained NuSMV-style, down to the temporal operators that
// decide it, as a path from the initial state cut into Segments (and
// Branches for the other operands of a conjunction): shortest paths by
// breadth-first search, fair lassos whose cycle meets every justice
// constraint. Conclude says whether a verdict on a forced model carries
// over to the system (universal properties that hold do).
//
// Limits (MaxStates, MaxMemory, and the context's deadline) stop a
// search with a *LimitError or the context's error, never a crash.
package explore
