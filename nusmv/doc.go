// Package nusmv writes NuSMV 2.6 models of a GSST: the counter-abstracted
// model (WriteReduced, from a counterabs.Model) and the unreduced system
// (WriteConcrete, from a gsst.System). Both are a single "MODULE main" in
// the plain NuSMV 2.6 input language (no process modules, which 2.6
// deprecates), carry every property of the system as a named CTLSPEC (a
// property AG p, p free of temporal operators, also as an INVARSPEC,
// which NuSMV checks by reachability alone), and start with a comment
// header naming the source file, the vsym version, the certification
// status and the mapping from GSST names to NuSMV identifiers. The output
// is deterministic.
//
// # Reduced model
//
// One variable x_S : 0..n per local state S, declared in the system's
// state order, with its initial value and the invariant that the counters
// sum to n (INVAR). An input variable tr ranges over one value per local
// transition plus "stutter"; DEFINE en_t is the transition's guard g_r
// over the counters, and each counter gets one ASSIGN next() case that
// decrements it for the transitions leaving S and increments it for those
// entering S. This is the encoding measured to suit NuSMV (an IVAR
// choosing the transition, one case per counter), never a TRANS
// disjunction with frame conditions. Every increment also carries x_S < n:
// NuSMV's range check looks at all valuations, not only those satisfying
// the sum invariant. A TRANS constraint makes the chosen transition be
// enabled, and allows tr = stutter exactly when no transition is enabled:
// a deadlocked configuration loops on itself, the convention of vsym's own
// checkers, so every CTL formula means the same in NuSMV and in vsym.
//
// # Concrete model
//
// One variable per process over the local states (an enumeration listing
// them in the system's order), processes declared group by group and,
// within a group, by initial state. Group counters #S[g] are DEFINEs,
// sums of toint(p = S) over the group's processes (toint exists since
// NuSMV 2.5, the count() shorthand is newer); total counters #S are their
// sums, and each guarded block of a transition is a DEFINE. Input
// variables pick (1..n) and tr choose the process and the local
// transition of a step; a process takes its new state when chosen and
// able to move, else keeps it, and the same TRANS constraint as in the
// reduced model allows stutter only when no process can move. Total
// counters keep the names x_S of the reduced model, so the specifications
// read alike.
//
// # Names and syntax
//
// Every identifier is [A-Za-z_][A-Za-z0-9_]*, avoids the words NuSMV
// reserves (T, A, E, U, case, next, count, ...; see IsReserved) and is
// unique in one namespace shared by variables, defines, symbolic constants
// and property names: a clash appends "_" or "_2", "_3", ... Binary
// operators are written with spaces around them, since '-' may occur in a
// NuSMV identifier; negations and temporal operands are parenthesized,
// since "!" binds to a primary expression only. Bounded quantifiers, which
// NuSMV lacks, are expanded.
//
// The emitted text is checked in the tests by an interpreter for the
// NuSMV subset used here, written from the 2.6 scanner and grammar: the
// reachable states and transitions of each emitted model must equal those
// of the counter model, respectively the concrete system, explored
// directly, and the CTL verdicts must agree.
package nusmv
