// Package explicit is vsym's explicit-state engine: Engine implements
// explore.Engine by enumerating the reachable counter vectors of a
// counterabs.Model breadth first and checking CTL over them. It reads
// explore.Config only and has no settings of its own.
//
// # Models
//
// On a total-counter model states are the vectors of total counters; on
// a group-counter model, the unreduced system with group-sorted states.
// A state is canonicalized with SymmSpin's "sorted" strategy, sorting the
// local states of each group's processes; a sorted vector is the same as
// the vector of group counters #S[g]. Processes of one group are
// identical (a guard reads counters only), so the canonical states form
// an exact quotient for any GSST, certified or not, and the engine also
// counts the process-indexed configurations they stand for
// (Report.ConcreteStates).
//
// # Search
//
// The search (space.go) runs over valuations: vectors of counter values
// indexed like the presburger variables, so compiled guards (guard.go:
// flat node arrays, no maps or interface calls) read them directly. Keys
// pack each pool of counters with a fixed sum as small binary fields
// minus the implied last one; a move adds a constant to the key. The
// breadth-first search keeps keys in insertion order, so state numbers
// are breadth-first and the key array is the queue. Visited states go
// into a bitmap over the perfect ranks of the vectors (rank.go, a
// combinatorial number system) when that space is small, and through an
// open-addressing hash index otherwise (store.go). explore.MaxStates
// stops the search as soon as one state more is stored; MaxMemory is
// checked against the store's size as it grows.
//
// # Beyond the paper
//
// A model with shared variables, updates, broadcast transfers or
// rendezvous (counterabs.Model.Uses) is searched with general moves
// (general.go): the valuation holds the shared values after the
// counters, keys store them after the pools' fields (an unbounded one in
// 40 bits), and a successor is counterabs.StepInto of the decoded state,
// checked to stay in the state space and encoded again. Such a space has
// no ranker, and CTL's predecessors come from a reverse index of the
// successor relation built once after the search. The search ends when
// the reachable states are finite; with unbounded shared variables that
// grow without end, explore.MaxStates stops it and says so.
//
// # CTL
//
// CTL model checking (ctl.go) computes satisfaction sets as bitsets over
// state numbers with worklist fixpoints that enumerate predecessors by
// undoing moves, so no edge is ever stored. With justice constraints the
// path quantifiers range over fair paths (fair.go: Emerson-Lei's fair EG
// over edge sets). Traces come from explore.Explain, to which
// explicitGraph (trace.go) offers the bitsets and breadth-first paths;
// every path segment is shortest from the state where it starts.
package explicit
