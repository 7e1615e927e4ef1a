// Package symbolic model checks counter-abstracted models
// (counterabs.Model) with binary decision diagrams, using the pure-Go BDD
// package github.com/dalzilio/rudd. It is one of the two engines that
// implement package explore's contract, beside explore/explicit: it
// fills the same explore.Report, so the command line prints both alike
// ("vsym explore --engine bdd"), and the conformance suite
// explore/enginetest checks both the same way.
//
// # Settings
//
// BDD (an explore.Engine) and New (a Checker, for finer control) read the
// settings every engine shares from explore.Config: Traces, MaxMemory (a
// bound on the bytes of the Go heap's objects), MaxStates (a bound on the reachable
// states, checked each time their fixpoint grows, so a search stops as
// soon as the set outgrows it), CheckDeadlocks and, through BDD,
// CountStates (which asks for the reachable states). What is peculiar
// to BDDs is this package's own Option: the variable order (WithOrder),
// the fixpoint strategy (WithStrategy), whether reachable states come
// first (WithReachable), the space of the backward search
// (WithSumSpace), the counter placement (WithAffinity) and the node
// table (WithNodeTable).
//
// # Encoding
//
// Counter x_i ranges over 0..N and is written in binary with
// b = ceil(log2(N+1)) bits; each bit has a current and a next-state BDD
// variable. Where the bits go in the variable order is an Order:
// Interleaved (bit j of every counter together, most significant bits
// first), Blocked (all bits of one counter together) or Split (all current
// bits, then all next bits); Auto chooses between the first two from the
// guards. The counters themselves are placed by affinityOrder, which puts
// counters read or written by the same transitions next to each other.
//
// Shared variables (counterabs.Model.Shared) follow the counters, each
// written as its value less the least value of its domain. An unbounded
// one is encoded up to a bound that New doubles until no reachable state
// has a step beyond it (the reachable states are then always computed
// first); Stats.Bounds and Report.SharedBounds say which bound was used.
//
// Every linear comparison "sum c_k x_k + c op 0" (guards, property atoms,
// the sum invariant sum x_i = N, and the updates x' = x -/+ 1) is built
// exactly by one memoized recursion over its bits in variable order, whose
// only state is the partial sum of the bits decided so far; a branch ends
// as soon as every completion satisfies or violates the comparison.
// Boolean connectives map to BDD operations; a bounded existential is
// expanded over its range (with a size limit).
//
// # Transitions and images
//
// The transition relation is partitioned: one relation per abstract
// transition u -> v, over the current bits the guard reads and the
// current and next bits of x_u and x_v only. Every other counter keeps its
// value implicitly: the image of a set S is
//
//	Replace(Exists cur(u,v). S & R_r, next(u,v) -> cur(u,v))
//
// and the pre-image is Exists next(u,v). R_r & Replace(S, cur -> next),
// both relational products over a handful of variables. A step beyond
// the paper (further movers, transfers, assignments) changes more
// variables, each by one linear equation x' = value over the current
// variables, with Model.Step's meaning; the rest is the same. A state with no
// enabled transition (a deadlock) has a stutter self-loop, as in the
// explicit engine.
//
// # Fixpoints
//
// Least fixpoints (reachable states, EF, EU) apply the per-transition
// images in a chained order (Chain), or iterate each transition to its own
// fixpoint before moving on (Saturate, the default), or take the union of
// all images per step (BFS, the baseline). On asynchronous counter
// systems, where each step moves one process between two counters, the
// chained orders converge in a few sweeps where breadth-first search needs
// one step per layer of the state graph, with far larger intermediate
// BDDs.
//
// CTL is evaluated by the standard symbolic fixpoints: EX by pre-images,
// E[p U q] as a least and EG p as a greatest fixpoint; AX, AF, AG and A[U]
// by their duals. By default reachable states are computed first and every
// set is restricted to them; WithReachable(false) skips them and evaluates
// over all of the encoding's vectors instead. That decides the same
// verdict at the initial state (transitions preserve the sum, so the
// vectors summing to N are a successor-closed part of the space) and is
// the way to decide an invariant AG p backwards from !p without ever
// building the reachable set.
//
// # Fairness
//
// With justice constraints (counterabs.Model.Justice) the path
// quantifiers range over fair paths: each constraint is a BDD of edges
// (fair.go), EG is Emerson-Lei's fixpoint, EX and E[U] end in fair states
// (fair = EG true), the universal operators are duals, and a property
// holds vacuously when no fair path starts in the initial state. A forced
// model's states that may be deadlocked (Model.MayDeadlock) stutter
// besides their transitions.
//
// # Traces
//
// Traces are built by explore.Explain, to which bddGraph offers the BDD
// sets and explicit steps, so both engines explain a verdict alike,
// segment by segment, and the explicit engine's traces exactly. Finite
// segments are canonical (explore's canonical.go): breadth-first onion
// rings from the segment's start, ending in the least state (least) of
// the first ring meeting the target and walked back by least explicit
// predecessors. Fair lassos visit an edge of each constraint in turn by
// such paths and close the cycle, moving on to the least farthest state
// when they cannot. Deadlocks get canonical paths too. Before deciding
// backwards, the reachable states are computed when they come within a
// work budget (WithCheapReach), and every fixpoint is then restricted
// to them. Traces are lifted to process
// moves with explore.Lift.
//
// # Limits
//
// rudd has no dynamic variable reordering and no finite-domain helpers;
// the order is fixed when the Engine is built. Cancellation and the memory
// bound are checked between fixpoint steps, not inside a BDD operation.
package symbolic
