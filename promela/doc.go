// Package promela writes Promela models of a GSST for the Spin 6 model
// checker: the counter model (Reduced, from a counterabs.Model of either
// level) and the unreduced system (Concrete, from a gsst.System). Each
// comes as a Program: the text, and per property a Claim saying whether
// and how it is exported, how to run pan on it and how to read pan's
// answer. The text starts with a comment header naming the source file,
// the vsym version, the certification status, the mapping from GSST
// names to Promela names, and the same per-property instructions. The
// output is deterministic.
//
// # Counter model
//
// One global integer per counter (byte, short or int, the smallest that
// holds the counter's pool), and at the group level also x_S, the total
// of local state S, moved in step with its group counters. A single
// active proctype loops over one d_step per move: the move's guard g_r
// (a macro en_...), then the decrement of its source counter and the
// increment of its target. A d_step is one transition of the state
// space, so Spin's states are exactly the counter vectors. The loop's
// else branch is executable exactly when no guard is: a deadlocked
// configuration takes a stutter step to itself, as in vsym's own
// engines. Every path is infinite, Spin never meets an invalid end state,
// and a CTL formula means the same to Spin and to vsym.
//
// # Concrete model
//
// An mtype constant per local state, global group counters c_S_g and
// totals x_S, one macro per guarded block of a transition, and one
// proctype per group with a parameter holding the process's local state.
// init starts one process per process of the system (run, group by group
// and by initial state, in one atomic step) and then stutters whenever no
// process can move (the macro en_any, Definition 3's enabledness over
// the counters). Each process loops over one d_step per local transition
// its group may take: the source state and the block's guard, then the
// new local state and the counters. Spin runs at most 255 processes, so
// at most MaxConcreteProcesses. Checked without -f, pan gives vsym's
// verdicts; with -f it checks under weak (per-process) fairness, which
// no counter model can express, and liveness verdicts may differ from
// vsym's in the one direction described on Program and in the header.
//
// # Several initial configurations
//
// A system with an initial set (gsst/initial.go) starts in a state of
// its own and chooses its initial configuration in its first step: one
// d_step per initial state of the counter model, a choice per process
// and per shared range in the concrete model's init. Each ltl formula f
// becomes !started U (started && (f)), read from the chosen state on;
// existential properties are not exported (initial.go says why).
//
// # Properties
//
// CTL is not LTL. A property is exported as an ltl block exactly when an
// LTL formula is equivalent to it (ltl.go lists the rules): a universal
// property such as AG p, AF p, AG (p -> AF q) or A[p U q] as that
// formula, holding iff pan finds no error; an existential one such as EF
// p, EG p or E[p U q] as the negation of its path formula, holding iff
// pan finds an error (EF p is checked as [] !p). Anything else (AG EF p,
// AF AG p, AX, EX, ...) is not exported, and the header says why. AG of a
// state formula is a safety claim, checkable without -a and with
// -DSAFETY.
//
// # Shared variables, parameters, broadcast and rendezvous
//
// Shared variables are globals (bool; an enumeration a byte with one
// macro per value; an integer the smallest type of its range), parameters
// of a fixed instance are folded and stated in the header, updates run
// simultaneously inside the mover's d_step (through hidden scratch
// variables), and a step whose update would leave a domain is not
// enabled. An unbounded integer gets a bound (its initial value plus the
// number of processes, or Bound), and every step that sets it asserts
// that it stays within: a pan run reporting that assertion violated has
// no meaningful verdict. The concrete model is written from the
// system's steps (gsst.Step): a macro per step's guard (with its update
// in its domain, gsst.Spec.InDomain), en_any from each step's
// MoversFormula. When some step does more than move its process
// (gsst.Step.Simple), or the system has shared variables, the local
// states live in a global array, a broadcast is a loop over the other
// processes at the end of the mover's d_step, and a step of several
// parts (a rendezvous) one d_step in init per choice of distinct
// processes for its parts. The reduced model applies
// a transition's Assign, Also and Transfers as counterabs.Model.Step
// does. docs/promela.md has the details.
//
// # Names and syntax
//
// Every identifier is [A-Za-z][A-Za-z0-9_]*, avoids the words Promela,
// Spin's ltl blocks, C and gcc's preprocessor reserve (see IsReserved),
// and is unique in one namespace shared by variables, mtype constants,
// macros, proctypes and ltl names: a clash appends "_" or "_2", "_3", ...
// Expressions are those of C (pan.c evaluates them in 32-bit int): a
// guard that could leave that range is refused, a property that could is
// not exported. ltl formulas parenthesize every atom and every binary
// subformula.
//
// The tests run the real Spin: spin -a, gcc and pan on every bundled spec
// and on hundreds of random small systems, and compare every exported
// property's verdict, and the number of states Spin stores, with vsym's
// explicit engine.
package promela
