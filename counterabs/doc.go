// Package counterabs builds the counter abstraction of a GSST (section 5
// of Wei, Gurfinkel and Chechik): one counter x_S in 0..n per local state
// S, the counters summing to n. An abstract state is a vector of total
// counters; under the full symmetry group it stands for exactly one orbit
// of global states, so for a fully virtually symmetric system the abstract
// structure is isomorphic to the symmetry quotient (Theorem 7) and CTL
// properties over total counters have the same truth value on both.
//
// Both models are built from the system's steps (gsst.Step: each guard
// block of each local transition, each rendezvous; the paper's local
// transition is the step with one mover and nothing else). A model
// transition is a compiled form of steps: it remembers them
// (Transition.Steps, and at the group level the group of each part's
// mover, Transition.Groups), its guard is built from their enabledness
// (gsst's EnabledFormula: the movers exist, the guard holds, the update
// stays in its domains) and what it does is derived from the step in one
// function (step.go); engines run the compiled form (StepInto).
//
// At the total level each local transition r: u -> v becomes one
// abstract transition (one per distinct update of its blocks): when the
// guard g_r holds, x_u decreases by one and x_v increases by one. g_r
// is the existential abstraction of Dom(R_r): a counter vector a satisfies
// g_r exactly when some global state whose total counters are a is in
// Dom(R_r), that is, some process there can take r. Build constructs g_r
// from the syntax of r's guards, in one of four ways (Case):
//
//   - CaseA: one step whose enabledness reads total counters only (one
//     block of all groups with a guard over total counters, or a
//     rendezvous none of whose parts is restricted to groups): that
//     enabledness, g_r = x_u >= 1 & g.
//   - CaseB: all guards over total counters, several blocks or some group
//     left out: g_r = x_u >= 1 & (g_1 | ... | g_k) over the blocks that
//     hold at least one process. This is the existential abstraction for
//     every system, certified or not: a vector a with a_u >= 1 always has
//     a concretization that puts a process of any given non-empty block in
//     u, and total guards read a alone.
//   - CaseC: the guards read group counters of the source state u only
//     (besides total counters of any state): per firing group and per
//     clause of the guard's DNF, the bounds lo_h <= #u[h] <= hi_h of every
//     group h (clipped to 0..size(h), and lo >= 1 for the firing group)
//     sum to lo <= x_u <= hi, which together with the clause's total
//     atoms is exactly the orbit of the clause's states.
//   - CaseProjection: any other guard: the group counters are eliminated
//     from Dom(R_r) by a presburger.Projector (Z3's quantifier
//     elimination), one firing group at a time (at once for a
//     rendezvous).
//
// The result is simplified (bounds merged, clauses implied by others
// dropped) and then checked against its definition with the solver before
// it is used; a guard that fails the check is never returned. For a
// certified system the check is one quantifier-free query: no
// configuration y of group counters has g_r(totals(y)) differ from
// phi_r(y). It also re-certifies r, independently of package detect: for
// the exact existential abstraction the direction "g_r(totals(y)) but not
// phi_r(y)" is unsat exactly when Dom(R_r) is closed under orbits, and
// when it is sat Build returns a verified witness (NotCertifiedError). With Force,
// for a transition that is not certified, the check is the existential
// statement itself and needs a solver that decides Exists.
//
// For a parametric system (group sizes that are ranges, parameters)
// there is no finite model: ParamModel is the counter model of every
// instance at once, with unbounded counters and pools summing to size
// variables, built from the steps as the fixed models are, by BuildParam
// (the total-counter model when the system is certified for every size,
// whatever constructs it uses, else the group-counter model),
// BuildParamTotal or BuildParamGroup. Its total-level guards are the
// existential abstraction written with existentially read local
// variables (the group counters of a configuration) instead of
// projected, which a Horn-clause solver takes as it is;
// ParamModel.TransitionSystem gives the integer transition system a
// safety prover for every size works on. A shared variable that no step
// assigns is a constant there (its initial value), so that a variable
// nothing changes changes neither the model nor a proof; it stays a
// variable (which keeps its initial value) where folding it into a guard
// or an update would leave the 64-bit integers. Build,
// BuildGroup and Assemble refuse parametric systems.
//
// A model forced on an uncertified system (Force) also carries
// MayDeadlock, the existential abstraction of the deadlocked
// configurations (maydeadlock.go): engines stutter there, so that every
// run of the system, deadlocks included, has an abstract counterpart and
// universal properties that hold on the model hold in the system. Models
// of every level carry the system's fairness constraints translated to
// their counters and transitions (Model.Justice).
//
// Unknown solver answers make Build fail (errors.Is(err, errkind.Unknown));
// there is no partial model.
//
// Shared variables, updates, broadcast and rendezvous are what steps
// may do besides moving one process, and every model has them at a fixed
// instance: the model's variables are its counters and then its shared
// variables; a transition may move more processes (Also: a rendezvous's
// other parts), transfer every other process of a counter into another
// (Transfers: a broadcast) and assign shared variables (Assign), all read
// in the state before the step (Model.Step, StepInto). BuildGroup gives
// one transition per step and assignment of groups to its parts; with
// RunSteps (BuildGroup, BuildParamGroup, BuildParam), not those whose
// movers would leave a state their group never occupies (gsst's
// MayOccupy, guards read), which leaves the model exact on the reachable
// configurations only: what a prover and an exploration read, not what
// certification does. BuildParamGroup with RunSteps also leaves out the
// counters of the states a group never occupies, which are 0 in every
// reachable configuration: the model reads them as 0 (ParamModel.Counter
// says which counter a group's processes in a state have). Build
// gives the abstract transitions above and one per rendezvous, each
// guard checked against its domain over group counters and shared
// values like g_r, the update's domain conjoined to the paper's cases
// (it reads shared variables only); a broadcast restricted to groups
// needs the group-counter model (GroupReason). Force builds the
// over-approximation of a system whose every step is simple, and refuses
// any other (ForceRefusal).
//
// Asymmetry joins the two levels: over the group counters, the
// configurations where a transition is disabled although the forced
// total-counter guard holds at their totals. Those are exactly where the
// total-counter model has a move the system lacks, so in a system none
// of whose reachable configurations is asymmetric the guards g_r are
// exact on everything reachable, certified or not. docs/counter-abstraction.md has the
// derivations and the JSON schema of "vsym abstract".
package counterabs
