// Package nusmv writes NuSMV 2.6 models of a GSST: the counter-abstracted
// model (WriteReduced, from a counterabs.Model) and the unreduced system
// (WriteConcrete, from a gsst.System). Both are a single "MODULE main" in
// the plain NuSMV 2.6 input language (no process modules, which 2.6
// deprecates), carry every property of the system as a named CTLSPEC,
// and start with a comment header naming the source file, the vsym
// version, the certification status, how to run NuSMV on it and the
// mapping from GSST names to NuSMV identifiers. The output is
// deterministic.
//
// # Reduced model
//
// One variable x_S : 0..n per local state S, declared in the system's
// state order, with its initial value. An input variable tr ranges over one value per local
// transition plus "stutter"; DEFINE en_t is the transition's guard g_r
// over the counters, and each counter gets one ASSIGN next() case that
// decrements it for the transitions leaving S and increments it for those
// entering S. This is the encoding measured to suit NuSMV (an IVAR
// choosing the transition, one case per counter), never a TRANS
// disjunction with frame conditions. Every increment also carries x_S < n:
// NuSMV's range check looks at all valuations, not only those where the
// counters sum to n. A TRANS constraint makes the chosen transition be
// enabled, and allows tr = stutter exactly when no transition is enabled:
// a deadlocked configuration loops on itself, the convention of vsym's own
// checkers, so every CTL formula means the same in NuSMV and in vsym.
//
// # Concrete model
//
// One variable per process over the local states (an enumeration listing
// them in the system's order), processes declared group by group and,
// within a group, by initial state. There are no counter variables: every
// comparison of counts with a constant, in guards, specifications and
// fairness constraints, is compiled to Boolean form (countCompiler): "at
// least one" is a disjunction of p = S tests, and "sum >= k" in general a
// chain of DEFINEs n_X_geK_pI deciding, process by process in declaration
// order, whether the processes from I on reach k, an ordered decision
// diagram NuSMV turns into a BDD in linear time. Arithmetic over the
// processes (sums of toint(p = S), or count()) makes NuSMV build adders
// over every process instead: on GR&W d=2, q=5, m=6, NuSMV -df needed more
// than 120 s with toint sums and about 8 s of CPU with count() defines
// and one TRANS disjunct per process and transition, 0.08 s with the
// Boolean form (BENCHMARKS.md). Only a comparison whose
// diagram would exceed countNodeLimit nodes falls back to arithmetic,
// over counter DEFINEs x_S (#S) and c_S_g (#S[g]) written for it alone.
// The concrete model is written from the system's steps (gsst.Step):
// each step's guard, with its update in the model's ranges
// (gsst.Spec.InDomain), is a DEFINE, and when some step is enabled
// (en_any) is the disjunction of each step's MoversFormula and guard.
// Input variables pick (1..n) and tr choose the process and the step (a
// transition's blocks share one value of tr); a process takes its new
// state when chosen and able to move, else keeps it, and the same TRANS
// constraint as in the reduced model allows stutter only when no process
// can move. A move tests tr = t only where it matters: when its
// process's group has several steps out of the state, when weak
// fairness constraints read tr, or when some step does more than move
// its process (gsst.Step.Simple), whose transfers, updates and parts
// act by the value of tr. Elsewhere tr only separates moves from
// stutter steps; the redundant tests cost NuSMV a factor of 3.5 on
// GR&W.
//
// # Running NuSMV
//
// Both models are meant for "NuSMV -df FILE", and their headers say so.
// Without -df NuSMV 2.6 first computes the reachable states breadth-first,
// which on these asynchronous models (every step moves one process, that
// is, changes two counters) is by far the most expensive part: measured on
// the reduced GR&W model of 100 processes (d=5, q=20, m=10), -df decides
// AG #L10 <= 1 in 0.1 s, without it NuSMV is still computing after 60 s.
// Two constructs would force that computation or something as costly,
// and neither is emitted:
//
//   - the sum invariant as an INVAR (x_L1 + ... + x_Lm = n): NuSMV builds
//     the BDD of a linear constraint over the bits of every counter, and
//     with it the same GR&W model took more than 60 s under -df. It adds
//     no soundness: the initial state has the sums and every transition
//     decrements one counter of a pool and increments another of the same
//     pool, so every reachable state keeps them, and a CTL verdict at the
//     initial state depends only on the states reachable from it (fair
//     paths included). The states outside the invariant that the model
//     admits are unreachable; the x_S < n bound on increments keeps them
//     within NuSMV's ranges.
//   - an INVARSPEC twin of an AG property: NuSMV checks an INVARSPEC by
//     computing the reachable states forward, -df or not (more than 60 s
//     on the same model), and it ignores fairness. The CTLSPEC alone
//     carries each property.
//
// # Shared variables, parameters, broadcast and rendezvous
//
// Shared variables are NuSMV variables (boolean, an enumeration of
// symbols, a range); parameters of a fixed instance are folded into
// constants and stated in the header. Updates are one next() case per
// step and variable, simultaneous, and a step whose update would leave
// a domain is not enabled. An unbounded integer stops at a bound (its
// initial value plus the number of processes, or Bound), stated in the
// header with the INVARSPEC bound_ok: no reachable step passes it; the
// model's verdicts mean something only when it holds (the one INVARSPEC
// these models have; its steps are those gsst.Spec.EnabledFormula
// enables in the system). A transfer moves the other processes of its
// source in the mover's step; a step of several parts (a rendezvous)
// chooses one process per part with the inputs pick, pick2, ... In the reduced
// model, a transition's Assign, Also and Transfers (counterabs.Model.Step)
// become linear next() values. docs/nusmv.md has the details.
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
// directly, and the CTL verdicts must agree. The Boolean count
// comparisons are checked against arithmetic exhaustively on small
// systems. Where the environment variable NUSMV names a NuSMV 2.6 binary,
// explore's TestNuSMV runs the emitted models of random systems through
// it and compares every verdict, by name, with vsym's.
package nusmv
