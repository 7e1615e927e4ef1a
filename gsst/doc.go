// Package gsst reads generalized synchronization skeleton templates
// (GSSTs, Definition 2 of Wei, Gurfinkel and Chechik) written in YAML and
// turns them into checked systems.
//
// A GSST describes n processes that share a finite set of local states and
// move one at a time along local transitions U -> V. The processes are
// split into groups of identical processes; a transition may guard each
// group (or each set of groups) differently, which is what makes a system
// "similar but not identical". Guards are linear conditions on counters:
// #S is the number of processes in state S, #S[g] the number of processes
// of group g in S, and n the number of processes. Properties are CTL
// formulas over the same counters. Fairness constraints (System.Fairness)
// say which runs the path quantifiers range over: justice conditions over
// counters, and weak fairness of local transitions per transition or per
// group. docs/gsst-format.md describes the format in full,
// docs/fairness.md the meaning of fairness.
//
// The package works in three layers, as go/scanner, go/parser and
// go/types do:
//
//   - The file is decoded into yaml.Node trees, which keep the line and
//     column of every scalar, and read into a syntax tree (File, with Expr
//     nodes for guards and properties) by ParseFile. Structural mistakes
//     (a list where a mapping belongs, an unknown or missing key) are
//     reported here.
//   - Guard and property strings are split into tokens and parsed by a
//     hand-written recursive-descent parser. Byte offsets inside a string
//     are mapped back to the file, so an error points at the exact
//     character even inside a quoted YAML scalar.
//   - A checker resolves state and group names, tells integer expressions
//     from conditions and temporal formulas, folds constants with limits
//     (no value above MaxConstant, no silent overflow) and builds a Spec:
//     guards become presburger.Formula over Spec.TotalVar and
//     Spec.GroupVar with n replaced by its value, properties become
//     ctl.Formula over the same counters. The Spec then meets the rules
//     of New and becomes the System.
//
// System is the checked type, and only this package builds one, as only
// go/types' checker builds a *types.Package: Parse and Load from a file,
// New from a Spec (what generators and tests fill in by hand), and
// Instantiate, Smallest, WithProperties, WithDerivedProperties (whose
// properties meet New's rules for properties), WithRangedSizes (the
// family of a system's large fixed groups, through New) and
// NarrowInitial (the system started only where a premise's conjuncts
// hold, through New), PinParams (the family with the parameters its
// assumption pins fixed, through New) and SliceUnread (the system
// without the shared variables nothing reads and nothing blocks on,
// through New), MergeSums (the system with a counter written as two
// places read through their sum written as one, through New) and
// MergeGroups (the system with two groups that behave alike, read
// through sums, written as one group, through New), FreeGroups (the
// system without the group lists no run reads, through New),
// ControllersAsShared (the system with each group of one process in
// states of its own read as a shared variable, through New),
// JoinCases (the system with its transitions of one effect joined and
// its guards' case splits dropped, through New) and AbsorbSteps (the
// system with each step through an unread intermediate state taken at
// once, through New) from a System already checked.
// A System embeds its Spec in an unexported field: the fields and methods
// of the Spec are read through it (sys.States, sys.TotalVar(s)), but no
// other package can write a System literal with content. The rules every
// System meets (sizes, the initial configuration, transitions, blocks,
// guards and properties over the system's own variables, fairness) are
// written once, in rules.go: the checker runs them on the Spec it built
// (skipping what did not resolve, so that every error is reported at
// once) and New on the Spec it is given, with the same messages; every
// analysis downstream takes a *System and trusts it. System.Spec returns
// a copy of the description, to edit and check again with New.
//
// A group's size may be a range, "N.." (at least N processes) or "N..M":
// the System is then parametric, the family of its instances, and n is
// the variable System.NVar rather than a constant. System.Instantiate
// returns the instance of given sizes; AllSizes reads every size of a
// file as "1..". The rules of New cover both kinds of system.
//
// Steps (step.go) are what every analysis reads of a system's moves. The
// checker lowers each guard block of each transition, and each
// rendezvous, into one Step: the parts that distinct processes take
// (one for a transition's block; the paper's GSST has nothing else), the
// transfers of a broadcast, the guard and the update, and the Origin it
// was written at. What a step needs and what it does is defined once,
// for every stage: as formulas over the system's variables
// (EnabledFormula, MoversFormula with Hall's condition for parts
// restricted to groups, InDomain, Effect; enabled.go), on counters
// (Choices, After, Successors; config.go) and on single processes
// (Movers, Transferred, CheckMovers, Procs; procs.go). Values are exact:
// an update that would take a variable out of its domain is not
// enabled, however far out, and one that would pass MaxValue in an
// unbounded domain is a LimitError, never a wrapped number. An
// assignment x := x (Assign.Identity) writes nothing and cannot block:
// seal drops it from every update, so a System's updates hold only the
// writes, whichever builder made it, and every stage that asks which
// steps write a variable reads the same answer.
//
// The language (shared.go, docs/gsst-format.md) has shared variables
// (booleans, enumerations, bounded and unbounded integers) that guards
// read and updates write; parameters with an assumption, which make a
// System a family like ranges do (group sizes may be linear over them;
// InstantiateParams folds them to values); broadcast transitions; and
// rendezvous, steps in which several processes move together. Their
// rules hold for parsed and hand-built Specs alike. The initial
// configurations have one home, initial.go: groups spread over several
// states, shared variables that start at a value of the parameters or
// anywhere in a range whose bounds may read them or leave the greatest
// out; InitialFormula states the set, Initials lists it at an instance,
// and FiniteInitial refuses, for the stages that list it, a range with no
// greatest value. MayReach over-approximates the runs (occupy.go): which
// states each group's processes may ever be in (MayOccupy), which values
// the shared variables with few values may hold, and which steps may be
// taken (MayFire), the guards read atom by atom with those values.
//
// Parse runs all three. It never stops at the first error: the result is
// an ErrorList with every error of the file, sorted by position and
// printed one per line as "file:line:col: message". Columns count
// characters (Unicode code points), as the YAML library does.
//
// Generated systems have guards with hundreds of thousands of atoms
// (generalized readers/writers with d groups has about d²/2), so every
// layer takes time linear in the size of the file: offset maps need no
// per-character table for text written verbatim, and the checker folds a
// chain "a & b & ... & z" (or of |, +, -, *) in one pass instead of
// rebuilding the conjunction at each of its nodes. BenchmarkParseGRW
// measures it; BenchmarkYAMLGRW measures the YAML library's share.
package gsst
