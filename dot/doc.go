// Package dot draws GSST systems and their traces as Graphviz DOT graphs.
//
// Skeleton draws the local-state skeleton of a system: one node per
// local state, one edge per local transition labelled with its guard
// blocks ("reader: #C = 0 & #T[writer] = 0"), and arrows from a start
// point to the states holding processes initially. Given a certification
// report (Verdicts), each transition is coloured by its verdict
// (symmetric, certified, violated, unknown), and so is the box of each
// rendezvous and environment step; a violated one carries its witness as
// two small tables in its label, every edge and box has the full guard
// and verdict in its tooltip (SVG shows tooltips on hover), and the
// title counts the verdicts of every item, as vsym check does.
//
// Trace draws an explore.Trace as a column of configurations joined by
// process moves: each configuration is a table with a row per group and a
// column per local state, listing the processes of the group in that
// state (or their number, for large groups), and a row of the total
// counters that properties read. Moves come from the trace lifted to
// the unreduced system (Trace.Lifted), replayed from the initial
// configuration; a lasso's closing move goes back to the configuration
// where its loop starts. Without a lifted trace the counter vectors of
// the trace are drawn instead. Trace trusts the trace as explore gives
// it, as every package downstream of gsst trusts its checked System: it
// draws, and does not check again. The drawing depends only on the trace
// and the system, not on the engine that found it.
//
// The skeleton draws the shared variables as a box (type and initial
// value of each), states the parameter values in the title, writes each
// block's update under its guard, and draws the steps that move more
// than one process (gsst.Step) beside the local transitions: a transfer
// as a dashed edge from its source to its target, a step of several
// parts (a rendezvous) as a node joined to each part's source and
// target. A trace adds the shared values to every configuration, names
// the step of each move (its guard and update come from it) and the
// processes a broadcast or rendezvous moves.
//
// Pictures stay readable for large generated systems: guards are wrapped
// at conjunctions and cut after a few lines, transitions with many guard
// blocks show the first few, long lists of groups and long traces are
// elided in the middle, and every picture that abbreviates says so in its
// title (Full turns abbreviation off). The output is deterministic.
//
// Render runs the dot program of Graphviz to turn DOT text into SVG, PNG
// or PDF.
package dot
