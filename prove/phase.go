package prove

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// An initial phase (ByMC's initial location I with its "choice" steps):
// every process starts in a state I that no step enters; the steps out
// of I (the I-steps) are plain local moves, unguarded, each to a target
// of its own that no other I-step enters, whose updates add positive
// constants to shared variables that no other step writes and that start
// at one value; every other step has "#I = 0" (or a bound that says as
// much) as a conjunct of each guard. Then no other step fires while a
// process is in I, and an I-step never fires after, so every run is the
// phase (processes leaving I one by one) and then a run of the other
// steps. (A transition out of a state no process ever enters, one not
// reachable from I by the steps a run may take, is never taken: the
// conditions above do not read it; liveStates. Nor do they read a
// transfer out of such a state, which moves nobody, or the counters of
// one in the guard of an I-step, 0 wherever a run goes: movesOthers,
// liveGuard.) Hence AG phi holds, from the
// initial configurations where a premise c holds that reads none of I,
// the targets and the incremented variables, exactly when
//
//   - AG phi holds on the phase system, the system with the I-steps only
//     (its reachable configurations are the phase's), and
//   - link & c -> AG phi holds on the rest system: the system without
//     the I-steps, whose processes start spread over their targets and
//     whose incremented variables start anywhere from their initial
//     value up, with link saying that each incremented variable is its
//     initial value plus, for each I-step, its constant times the count
//     of the step's target (the processes that took the step: only it
//     enters its target during the phase). Its initial configurations
//     where link holds are exactly the ends of the phase.
//
// An incremented variable may also be counted down instead: the steps
// out of I subtract from it (x := x - c, "the processes that have not
// chosen 0 yet" starting at n), every step out of I that writes it
// subtracting, so it only falls in the phase. Its least value L (0)
// then blocks as H does below, and the rest system starts it anywhere
// from L up to its initial value: the mirror of what follows.
//
// An incremented variable may have a greatest value H: an I-step that
// would take it past H is not enabled (domain blocking, gsst-format.md),
// not an error. The phase may then stop with processes in I, and no
// step fires after (the other steps wait for #I = 0): those runs stay
// within the phase system's configurations, which the first question
// covers. The increments are positive, so a variable only grows in the
// phase; a spread of the processes over the targets is therefore an end
// of the phase (with I empty) exactly when the link's values lie within
// the domains, every order of the steps reaching it then staying within
// them too. So the rest system starts such a variable anywhere from its
// initial value up to H, and the link, unchanged, again admits exactly
// the phase's ends.
//
// The second question is the one the prover decides well: the choice is
// then a premise on a spread initial set, which narrowing and the ghost
// constants read (ByMC's strb with its I state was unknown after 60 s,
// and is proved at once so). Both are asked as properties of their own,
// each with its re-checked certificate, and their answers are carried to
// the system (derived.go): two proofs joined into one invariant of the
// system, re-checked on its model (carryProof); a run of the phase, or
// the phase's steps and then a run of the rest system, replayed on its
// instance (carryRun). What the questions leave undecided, two proofs
// that do not join, and a run that does not carry, are asked of the
// system as written, so a proof is always an invariant re-checked on
// the system itself, and a refutation always a run of it.

// initialPhase is what cutPhase found.
type initialPhase struct {
	phase, rest *gsst.System // without properties
	link        presburger.Formula
	// start maps each variable the rest system keeps constant, the
	// incremented shared variables and the counters of I, to its value
	// at the phase's end: a term over the targets' counts, 0.
	start map[presburger.Var]presburger.Term
	// touched are the variables a premise must not read: the counters of
	// I and of the targets, and the incremented shared variables.
	touched map[presburger.Var]bool
	// first is I; targets[g] are the states group g's steps out of I
	// enter; adds maps each target to what its step adds to the shared
	// variables (by index); incr are the shared variables the steps
	// out of I increment.
	first   int
	targets [][]int
	adds    map[int]map[int]int64
	incr    map[int]bool
	// oneStep says that the phase is one start step (startstep.go):
	// one environment step, named startName, moving every process out
	// of I at once.
	oneStep   bool
	startName string
	// startMove says that the start step is a start move
	// (startstep.go): the move of the one process in I, which gives the
	// shared variables of startWrites (by index) their values.
	startMove   bool
	startWrites map[int]int
	// seeded, for a seeding phase (seeds.go), are the shared variables
	// its seeds count up (by index), with their seeds; oneStep is set
	// too, the phase's configurations being the rest system's initial
	// ones. mode, when not nil, is the shared variable that keeps the
	// phase, of a seeding phase or a start move (else the state first
	// keeps it).
	seeded map[int][]seedRule
	mode   *seedMode
	// pool, for a pool phase (pool.go), is its controller, B, L and
	// the groups' pools; targets are the seeds' targets.
	pool *poolPhase
}

// phaseElimination lets the tests turn the cut off.
var phaseElimination = true

// phaseJoin lets the tests have every join of a phase's two proofs fail
// (carryProof), as a join the checker refutes or cannot decide does, so
// that they see such properties asked of the system as written.
var phaseJoin = true

// cutPhase finds an initial phase of sys (see above); ok is false when
// some condition fails.
func cutPhase(sys *gsst.System) (*initialPhase, bool, error) {
	if len(sys.Rendezvous) > 0 || len(sys.Environment) > 0 || len(sys.Groups) == 0 {
		return nil, false, nil
	}
	first, ok := oneInitState(sys)
	if !ok {
		return nil, false, nil
	}
	for j := range sys.Shared {
		// A variable that starts in a range is read by the initial set
		// alone (no group spreads): leave such systems as they are.
		if sys.Shared[j].InitRange {
			return nil, false, nil
		}
	}
	ph := &initialPhase{touched: map[presburger.Var]bool{}, start: map[presburger.Var]presburger.Term{}, first: first, adds: map[int]map[int]int64{}, incr: map[int]bool{}}
	touch := func(st int) {
		ph.touched[sys.TotalVar(st)] = true
		for g := range sys.Groups {
			ph.touched[sys.GroupVar(st, g)] = true
		}
	}
	touch(first)
	ph.start[sys.TotalVar(first)] = presburger.Term{}
	for g := range sys.Groups {
		ph.start[sys.GroupVar(first, g)] = presburger.Term{}
	}
	live := liveStates(sys)
	var isteps []int
	written := map[int]bool{} // shared variables the other steps assign
	incr := map[int]presburger.Term{}
	sign := map[int]int64{} // 1: the steps out of I add to the variable; -1: they take from it
	targets := make([][]int, len(sys.Groups))
	entered := map[int]bool{}
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		if stutters(t) || !live[t.From] {
			// A step that changes nothing (ByMC's idle self-loops)
			// changes no reachable configuration: left out of both
			// questions, which are about those. One out of a state
			// no process ever enters is never taken: the conditions
			// below do not read it (it may enter I, or lack "#I =
			// 0"), and it is in the rest system, where it is never
			// taken either.
			continue
		}
		if t.To == first {
			return nil, false, nil
		}
		for _, b := range t.Broadcast {
			if b.To == first {
				return nil, false, nil
			}
		}
		if t.From != first {
			for _, b := range t.Blocks {
				if !emptiesFirst(sys, b.Guard, first) {
					return nil, false, nil
				}
				for _, a := range b.Update.Assign {
					j, _ := sys.SharedOf(a.Var)
					written[j] = true
				}
			}
			continue
		}
		moves := movesOthers(t, live)
		if !moves && slices.ContainsFunc(isteps, func(k int) bool { return sameStep(&sys.Transitions[k], t) }) {
			// A transition written twice (two names, one step): its
			// copy is the same I-step, in the phase system already,
			// and left out of the rest system as the first is.
			isteps = append(isteps, i)
			continue
		}
		if moves || entered[t.To] {
			return nil, false, nil
		}
		entered[t.To] = true
		isteps = append(isteps, i)
		touch(t.To)
		var adds map[int]int64
		for k, b := range t.Blocks {
			if guard := liveGuard(sys, live, b.Guard); guard != presburger.True && !moverImplied(sys, b.Groups, guard, first) {
				return nil, false, nil
			}
			got, ok := increments(sys, b.Update)
			if !ok || k > 0 && !sameAdds(got, adds) {
				return nil, false, nil
			}
			adds = got
			for _, g := range b.Groups {
				if !slices.Contains(targets[g], t.To) {
					targets[g] = append(targets[g], t.To)
				}
			}
		}
		for j, c := range adds {
			// Each variable only grows or only falls in the phase.
			dir := int64(1)
			if c < 0 {
				dir = -1
			}
			if sign[j] != 0 && sign[j] != dir {
				return nil, false, nil
			}
			sign[j] = dir
			incr[j] = incr[j].Add(presburger.VarTerm(sys.TotalVar(t.To)).Scale(c))
			ph.incr[j] = true
		}
		ph.adds[t.To] = adds
	}
	if len(isteps) == 0 {
		return nil, false, nil
	}
	for j := range incr {
		if written[j] {
			return nil, false, nil
		}
	}
	for g := range sys.Groups {
		if len(targets[g]) == 0 {
			return nil, false, nil // its processes stay in I: no other step ever fires
		}
	}
	ph.targets = targets
	var links []presburger.Formula
	for j, sum := range incr {
		v := &sys.Shared[j]
		ph.touched[sys.SharedVar(j)] = true
		ph.start[sys.SharedVar(j)] = sum.Add(v.InitLow())
		links = append(links, presburger.Compare(presburger.VarTerm(sys.SharedVar(j)), presburger.Eq, sum.Add(v.InitLow())))
	}
	slices.SortFunc(links, func(a, b presburger.Formula) int {
		return cmp.Compare(presburger.Format(a, numbered), presburger.Format(b, numbered))
	})
	ph.link = presburger.Conj(links...)

	// Fairness restricts paths, not the configurations a run reaches,
	// and names steps by index: the derived systems, asked safety
	// only, have none.
	phase := sys.Spec()
	phase.Properties = nil
	phase.Fairness = gsst.Fairness{}
	phase.Transitions = nil
	for _, i := range isteps {
		phase.Transitions = append(phase.Transitions, sys.Transitions[i])
	}
	var err error
	if ph.phase, err = gsst.New(phase); err != nil {
		return nil, false, err
	}

	rest := sys.Spec()
	rest.Properties = nil
	rest.Fairness = gsst.Fairness{}
	rest.Transitions = nil
	for i := range sys.Transitions {
		// The steps out of states no process enters stay: the rest
		// system's processes start in live states too, so those steps
		// are never taken there either, and its model leaves them out
		// as sys's does (firing), so that the two models, and the
		// invariants carried between them, have the same steps.
		if !slices.Contains(isteps, i) && !stutters(&sys.Transitions[i]) {
			rest.Transitions = append(rest.Transitions, sys.Transitions[i])
		}
	}
	for g := range rest.Groups {
		over := slices.Clone(targets[g])
		slices.Sort(over)
		rest.Init[g][over[0]] = rest.Init[g][first]
		rest.Init[g][first] = 0
		if len(over) > 1 {
			if rest.InitOver == nil {
				rest.InitOver = make([][]int, len(rest.Groups))
			}
			rest.InitOver[g] = over
		}
	}
	for j := range incr {
		// From the initial value up to the greatest value of the
		// domain, if any: the link then admits exactly the phase's
		// ends where I is empty (see above).
		v := &rest.Shared[j]
		if sign[j] < 0 {
			// A count down ("processes that have not chosen yet",
			// n - chose0): from the least value of the domain up to
			// the initial value, the mirror of the above.
			hi := v.InitLow()
			v.InitRange, v.InitNoHi = true, false
			v.Init, v.InitTerm = v.Lo, presburger.Term{}
			v.InitHi, v.InitHiTerm = v.Lo, hi
			if hi.IsConst() {
				v.InitHi, v.InitHiTerm = int(hi.Const), presburger.Term{}
			}
			v.InitText = ""
			continue
		}
		v.InitRange, v.InitNoHi, v.InitHi = true, v.Unbounded, 0
		if !v.Unbounded {
			v.InitHi = v.Hi
		}
		v.InitHiTerm, v.InitText = presburger.Term{}, ""
	}
	if ph.rest, err = gsst.New(rest); err != nil {
		return nil, false, err
	}
	return ph, true, nil
}

// oneInitState returns the state every process of every group of sys
// starts in, ok false when the groups start elsewhere or spread.
func oneInitState(sys *gsst.System) (first int, ok bool) {
	first = -1
	for g := range sys.Groups {
		if sys.InitOver != nil && sys.InitOver[g] != nil {
			return 0, false
		}
		st, ok := sys.InitState(g)
		if !ok || first >= 0 && st != first {
			return 0, false
		}
		first = st
	}
	return first, first >= 0
}

// liveStates returns the states a process of sys may ever be in, of
// any group: gsst's MayOccupy, the states the processes start in closed
// under every step a run may take (guards read as far as the values the
// runs may give the shared variables decide them; a transfer's target
// taken too). No process is ever elsewhere, so a transition out of
// another state is never taken: a translation that lists a state of the
// original no run enters, with its steps (an unused location of a
// threshold automaton), states the same runs. The same closure has the
// models built for runs leave those steps out (counterabs' RunSteps,
// firing), so that the cut and the models read one answer.
func liveStates(sys *gsst.System) []bool {
	live := make([]bool, len(sys.States))
	for _, occ := range sys.MayOccupy() {
		for st, may := range occ {
			live[st] = live[st] || may
		}
	}
	return live
}

// refills reports whether a transfer of xs moves processes into state
// first from a state some process may be in (live, liveStates): one out
// of a state no process ever enters moves nobody.
func refills(xs []gsst.Transfer, live []bool, first int) bool {
	return slices.ContainsFunc(xs, func(b gsst.Transfer) bool { return live[b.From] && b.To == first })
}

// stutters reports whether a step by t changes nothing: a self-loop
// with no broadcast and no update.
func stutters(t *gsst.Transition) bool {
	if t.From != t.To || len(t.Broadcast) > 0 {
		return false
	}
	for _, b := range t.Blocks {
		if len(b.Update.Assign) > 0 {
			return false
		}
	}
	return true
}

// movesOthers reports whether a step by t may move a process other than
// its mover: a transfer out of a state some process may be in (live,
// liveStates). A transfer out of a state no process ever enters moves
// nobody on any step a run takes, so the step is the plain local move
// (a translation that writes "Zdead -> V0" on every step states the
// same runs); the phase and rest systems keep it as written, and what
// they prove or refute is carried to sys and checked there.
func movesOthers(t *gsst.Transition, live []bool) bool {
	for _, b := range t.Broadcast {
		if live[b.From] {
			return true
		}
	}
	return false
}

// liveGuard is guard read where a run may be: every counter of a state
// no process ever enters (live, liveStates) is 0 in each configuration
// a run reaches, so "#Zdead = 0" is true there and the step is as
// guarded as without it (a translation that conjoins it to every guard
// states the same runs). The guard itself is kept in the derived
// systems; this reading only decides whether a step out of I is
// unguarded. guard unchanged when a constant would leave int64.
func liveGuard(sys *gsst.System, live []bool, guard presburger.Formula) presburger.Formula {
	zero := map[presburger.Var]bool{}
	for st, l := range live {
		if l {
			continue
		}
		zero[sys.TotalVar(st)] = true
		for g := range sys.Groups {
			zero[sys.GroupVar(st, g)] = true
		}
	}
	if len(zero) == 0 || !reads(guard, zero) {
		return guard
	}
	out, ok := presburger.SubstExact(guard, func(v presburger.Var) presburger.Term {
		if zero[v] {
			return presburger.Term{}
		}
		return presburger.VarTerm(v)
	})
	if !ok {
		return guard
	}
	return out
}

// moverImplied reports whether every top-level conjunct of guard, a
// guard of a block of groups, holds whenever a process of those groups
// is in state from, the state its step leaves: an atom on from's total
// counter, or on its group counter when there is one group, that every
// value >= 1 satisfies ("#I >= 1", "#I > 0", "#I[g] != 0"). Such a guard
// holds wherever the step can fire, so the step is unguarded: a
// translation that writes "the mover is there" into its guards states
// the same step.
func moverImplied(sys *gsst.System, groups []int, guard presburger.Formula, from int) bool {
	for _, c := range presburger.Conjuncts(guard) {
		if c == presburger.True {
			continue
		}
		a, ok := c.(presburger.Cmp)
		if !ok || len(a.T.Monos) != 1 {
			return false
		}
		v := a.T.Monos[0].Var
		if v != sys.TotalVar(from) && (len(groups) != 1 || v != sys.GroupVar(from, groups[0])) {
			return false
		}
		in, ok := presburger.AtomRange(a, presburger.AtLeast(v, 1))
		if !ok || in.NoLo || in.Lo != 1 || !in.NoHi {
			return false
		}
	}
	return true
}

// sameStep reports whether transitions t and u make the same steps: the
// same states, and blocks of the same groups with the same guards and
// updates (their names and positions aside).
func sameStep(t, u *gsst.Transition) bool {
	if t.From != u.From || t.To != u.To || len(t.Broadcast) > 0 || len(u.Broadcast) > 0 || len(t.Blocks) != len(u.Blocks) {
		return false
	}
	for k := range t.Blocks {
		a, b := &t.Blocks[k], &u.Blocks[k]
		if !slices.Equal(a.Groups, b.Groups) || presburger.Format(a.Guard, numbered) != presburger.Format(b.Guard, numbered) || len(a.Update.Assign) != len(b.Update.Assign) {
			return false
		}
		for j := range a.Update.Assign {
			if a.Update.Assign[j].Var != b.Update.Assign[j].Var || !a.Update.Assign[j].Value.Equal(b.Update.Assign[j].Value) {
				return false
			}
		}
	}
	return true
}

// emptiesFirst reports whether guard has a top-level conjunct that holds
// only when no process is in state first: an atom on its total counter
// (or on the group counter of a system of one group) that admits 0
// alone.
func emptiesFirst(sys *gsst.System, guard presburger.Formula, first int) bool {
	for _, c := range presburger.Conjuncts(guard) {
		a, ok := c.(presburger.Cmp)
		if !ok || len(a.T.Monos) != 1 {
			continue
		}
		v := a.T.Monos[0].Var
		if v != sys.TotalVar(first) && (len(sys.Groups) != 1 || v != sys.GroupVar(first, 0)) {
			continue
		}
		in, ok := presburger.AtomRange(a, presburger.AtLeast(v, 0))
		if ok && in.Finite() && in.Lo == 0 && in.Hi == 0 {
			return true
		}
	}
	return false
}

// increments reads an I-step's update as constants added to shared
// variables (x := x + c, c != 0, each variable once) that are integers,
// starting at one value. A variable may have a greatest value: the step
// is then not enabled where it would pass it (domain blocking), which
// the phase system keeps and the rest system's start states (cutPhase);
// a constant c < 0 (a count down) blocks at the least value alike.
func increments(sys *gsst.System, u gsst.Update) (map[int]int64, bool) {
	out := map[int]int64{}
	for _, a := range u.Assign {
		j, ok := sys.SharedOf(a.Var)
		if !ok {
			return nil, false
		}
		v := &sys.Shared[j]
		if _, twice := out[j]; twice || v.Bool || v.Values != nil || v.InitRange {
			return nil, false
		}
		ms := a.Value.Monos
		if len(ms) != 1 || ms[0].Var != a.Var || ms[0].Coef != 1 || a.Value.Const == 0 {
			return nil, false
		}
		out[j] = a.Value.Const
	}
	return out, true
}

func sameAdds(a, b map[int]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for j, c := range a {
		if d, ok := b[j]; !ok || d != c {
			return false
		}
	}
	return true
}

// checkPhased is checkNarrowed on sys, its safety properties whose
// premise reads nothing the phase changes asked through an initial
// phase when sys has one (see above): proved when both the phase system
// and the rest system prove them, refuted when either refutes them
// (the run carried to sys), else asked of sys.
func checkPhased(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, opts ...Option) (*Report, error) {
	if !phaseElimination {
		return checkNarrowed(ctx, sys, prover, solver, opts...)
	}
	ph, ok, err := cutPhase(sys)
	if err == nil && !ok {
		ph, ok, err = cutStart(sys)
	}
	if err == nil && !ok {
		ph, ok, err = cutStartMove(sys)
	}
	if err == nil && !ok {
		ph, ok, err = cutModeMove(sys)
	}
	if err == nil && !ok {
		ph, ok, err = cutSeeds(sys)
	}
	if err == nil && !ok {
		ph, ok, err = cutPool(sys)
	}
	if err != nil {
		return nil, errkind.Errorf(errkind.Internal, "prove: the systems of an initial phase break a rule: %w", err)
	}
	if !ok {
		return checkNarrowed(ctx, sys, prover, solver, opts...)
	}
	var phaseProps, restProps []gsst.Property
	var index []int
	var fixedParts []presburger.Formula // the disjuncts of each phi that constantPart moved, nil for none
	for i, p := range sys.Properties {
		premise, g := counterabs.Premise(p.Formula)
		if _, isSafety := counterabs.SafetyFormula(g); !isSafety {
			continue
		}
		if reads(premise, ph.touched) {
			continue
		}
		phaseProps = append(phaseProps, p)
		rp := p
		rp.Formula = premised(presburger.Conj(ph.link, premise), g)
		var fixed presburger.Formula
		if cond, after, fx, ok := ph.constantPart(sys, g); ok {
			rp.Formula = premised(presburger.Conj(ph.link, premise, cond), ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: after}})
			fixed = fx
		}
		fixedParts = append(fixedParts, fixed)
		rp.Syntax = nil
		restProps = append(restProps, rp)
		index = append(index, i)
	}
	if len(index) == 0 {
		return checkNarrowed(ctx, sys, prover, solver, opts...)
	}
	// ask is checkNarrowed on q, whose properties answer those of sys at
	// at, with progress counted on sys's properties.
	ask := func(q *gsst.System, at []int) (*Report, error) {
		return checkNarrowed(ctx, q, prover, solver, progressAs(sys, at, opts)...)
	}
	phaseSys, err := ph.phase.WithDerivedProperties(phaseProps)
	if err != nil {
		return nil, errkind.Errorf(errkind.Internal, "prove: the properties of an initial phase: %w", err)
	}
	phaseRep, err := ask(phaseSys, index)
	if err != nil {
		return nil, err
	}
	rep := &Report{System: sys, Results: make([]Result, len(sys.Properties))}
	done := make([]bool, len(sys.Properties))
	derivedRun := make([]bool, len(sys.Properties)) // refuted on a derived system, the run not carried
	// The joined invariants of the properties that one invariant proved
	// together share their consecution queries (a start step's are the
	// same formula for each such property with one premise); the memo
	// answers a query already decided unsat, and every obligation is
	// still asked of it. testdata/styles' bingham-h150-places written
	// with a start step, its 152 proofs carried one by one (jointKey
	// off): 37.4 s of CPU without the memo, 19.5 s with it.
	memo := presburger.NewMemo(checkerOf(solver, opts))
	memo.Answering()
	carrier := &phaseCarrier{ph: ph, sys: sys, solver: memo, fixed: map[int]presburger.Formula{}}
	unjoined := make([]bool, len(sys.Properties)) // proved on both derived systems, the proofs not joined
	for k, f := range fixedParts {
		if f != nil {
			carrier.fixed[index[k]] = f
		}
	}
	var keep []gsst.Property
	var keepAt, keepK []int
	for k, r := range phaseRep.Results {
		i := index[k]
		switch r.Verdict {
		case Proved:
			keep = append(keep, restProps[k])
			keepAt = append(keepAt, i)
			keepK = append(keepK, k)
		case Refuted:
			// A run of the phase is a run of sys: replayed there.
			if carrier.carryRun(ctx, i, &r, nil) {
				r.Property = &sys.Properties[i]
				if ph.pool != nil {
					r.LevelReason += "; the run found on the system's pool phase (its seeds only), replayed on the system"
				} else if ph.seeded != nil {
					r.LevelReason += "; the run found on the system's seeding phase (" + ph.seedsText(sys) + " only), replayed on the system"
				} else if ph.oneStep {
					r.LevelReason += "; the run found on the system's initial phase (its start step " + ph.startName + " only), replayed on the system"
				} else {
					r.LevelReason += "; the run found on the system's initial phase (its steps out of I only), replayed on the system"
				}
				rep.Results[i], done[i] = r, true
			} else {
				derivedRun[i] = true
			}
		}
	}
	if len(keep) > 0 {
		restSys, err := ph.rest.WithDerivedProperties(keep)
		if err != nil {
			return nil, errkind.Errorf(errkind.Internal, "prove: the properties after an initial phase: %w", err)
		}
		var restRep *Report
		switch {
		case ph.pool != nil:
			// The controller waits in L for ever: the system of the
			// same runs reads it as a shared variable, and the rest
			// system as symmetric, where a group-counter question
			// took Spacer 25 s (kanban as token processes).
			restRep, err = checkSameRuns(ctx, restSys, prover, solver, progressAs(sys, keepAt, opts)...)
		case ph.oneStep:
			// The rest system may have an initial phase of its own
			// (Start -> I, then ByMC's steps out of I).
			restRep, err = checkPhased(ctx, restSys, prover, solver, progressAs(sys, keepAt, opts)...)
		default:
			restRep, err = ask(restSys, keepAt)
		}
		if err != nil {
			return nil, err
		}
		// After a start step, the properties the rest system proved by
		// one invariant, from one premise and with the same constant
		// part, are carried by one check of it (jointKey): bingham-h150
		// written with a start step took 19.5 s of CPU carrying its 152
		// proofs one by one, 0.6 s so.
		members := map[string][]int{}
		keys := make([]string, len(restRep.Results))
		for k := range restRep.Results {
			if keys[k] = ph.jointKey(sys, keepAt[k], fixedParts[keepK[k]], &restRep.Results[k]); keys[k] != "" {
				members[keys[k]] = append(members[keys[k]], keepAt[k])
			}
		}
		joint := map[string]*Result{} // the first member's carried result, nil when that failed
		for k, r := range restRep.Results {
			i := keepAt[k]
			phaseRes := phaseRep.Results[keepK[k]]
			switch r.Verdict {
			case Proved:
				key := keys[k]
				lead, seen := joint[key]
				var carried bool
				var err error
				switch {
				case seen && lead != nil:
					r.takeCertificate(lead)
					carried = true
				case key != "" && !seen:
					carried, err = carrier.carryProof(ctx, i, members[key][1:], fixedParts[keepK[k]], &phaseRes, &r)
					joint[key] = nil
					if carried {
						lead := r
						joint[key] = &lead
					} else if err == nil && len(members[key]) > 1 {
						carried, err = carrier.carryProof(ctx, i, nil, fixedParts[keepK[k]], &phaseRes, &r)
					}
				default:
					carried, err = carrier.carryProof(ctx, i, nil, fixedParts[keepK[k]], &phaseRes, &r)
				}
				if err != nil {
					return nil, err
				}
				if !carried {
					// Two proofs that do not join are no certificate
					// of sys (the argument of the cut is not checked
					// on it): asked of sys as written.
					unjoined[i] = true
					continue
				}
				r.Property = &sys.Properties[i]
				if r.LevelReason != "" {
					if ph.pool != nil {
						in, after := ph.poolTest(sys)
						r.LevelReason += "; the pool phase (" + ph.poolText(sys) + ") cut off: the seeds and the steps after the exit (from its ends, " + sys.FormatFormula(ph.link) + ") proved on their own, their invariants joined into one of the system's group-counter model (" + in + " in the phase, " + after + " after), re-checked"
					} else if ph.seeded != nil {
						in, after := ph.phaseTest(sys)
						r.LevelReason += "; the seeding phase (" + ph.seedsText(sys) + ") cut off: the system without them, those variables starting anywhere from their initial value, proved on its own, its invariant and its initial configurations joined into one of the system's group-counter model (" + in + " in the phase, " + after + " after), re-checked"
					} else if ph.oneStep {
						in, after := ph.phaseTest(sys)
						r.LevelReason += "; the initial phase (the start step " + ph.startName + ", " + ph.startText(sys) + ") cut off: the steps after it proved on their own, their invariant and the initial configurations joined into one of the system's group-counter model (" + in + " initially, " + after + " after), re-checked"
					} else {
						r.LevelReason += "; the initial phase and the steps after it (from the phase's ends, " + sys.FormatFormula(ph.link) + ") proved on their own, their invariants joined into one of the system's group-counter model (#" + sys.States[ph.first] + " > 0 in the phase, = 0 after), re-checked"
					}
				}
				rep.Results[i], done[i] = r, true
			case Refuted:
				// The phase up to the run's start, then the run.
				if carrier.carryRun(ctx, i, &r, &phaseRes) {
					r.Property = &sys.Properties[i]
					if ph.pool != nil {
						r.LevelReason += "; the run found on the system after its pool phase (" + ph.poolText(sys) + "), preceded by the seeds and the exit to its start, replayed on the system"
					} else if ph.seeded != nil {
						r.LevelReason += "; the run found on the system without its seeding phase, preceded by " + ph.seedsText(sys) + " to its start, replayed on the system"
					} else if ph.oneStep {
						r.LevelReason += "; the run found on the system after its initial phase, preceded by its start step " + ph.startName + ", replayed on the system"
					} else {
						r.LevelReason += "; the run found on the system after its initial phase, preceded by the phase's steps to its start, replayed on the system"
					}
					rep.Results[i], done[i] = r, true
				} else {
					derivedRun[i] = true
				}
			}
		}
	}
	var left []int
	for i := range sys.Properties {
		if !done[i] {
			left = append(left, i)
		}
	}
	if len(left) > 0 {
		// Asked as written: the properties the cut does not take, those
		// it left undecided, those whose two proofs did not join into a
		// certificate of sys, and (slowly) a run that was not carried.
		sub, err := ask(sys.WithProperties(left...), left)
		if err != nil {
			return nil, err
		}
		rep.Cert, rep.Scope = sub.Cert, sub.Scope
		for k, i := range left {
			r := sub.Results[k]
			r.Property = &sys.Properties[i]
			r.askedAgain = r.askedAgain || derivedRun[i]
			if unjoined[i] && r.LevelReason != "" {
				r.LevelReason += "; asked as written: the phase cut's two proofs did not join into an invariant of the system"
			}
			rep.Results[i] = r
		}
	} else {
		rep.Scope = phaseRep.Scope
	}
	return rep, nil
}

// jointKey is the key under which the answer r of the rest question
// for property i of sys is carried together with others (after a start
// step only: there the joined invariant reads no proof of the phase):
// r's proof and invariant, the premise and the constant part fixed; ""
// for none.
func (ph *initialPhase) jointKey(sys *gsst.System, i int, fixed presburger.Formula, r *Result) string {
	if !ph.oneStep || r.Verdict != Proved || r.proof == nil || r.Invariant == nil || r.Live != nil {
		return ""
	}
	premise, _ := counterabs.Premise(sys.Properties[i].Formula)
	fx := "-"
	if fixed != nil {
		fx = presburger.Format(fixed, numbered)
	}
	return fmt.Sprintf("%p\x00%s\x00%s\x00%s", r.proof, presburger.Format(r.Invariant, numbered), presburger.Format(premise, numbered), fx)
}

// premised is "pre -> g", or g alone when pre is true (a start step's
// rest question has no link, and "AG (#I = 0 -> p)" no premise left):
// the properties asked together, proved by one invariant, are those of
// one form (bingham-h150-places written with a start step: 0.6 s of
// CPU, and not decided in 60 s with "true -> AG p" for each of its 153
// properties).
func premised(pre presburger.Formula, g ctl.Formula) ctl.Formula {
	if pre == presburger.True {
		return g
	}
	return ctl.Binary{Op: ctl.Implies, L: ctl.Atom{P: pre}, R: g}
}

// reads reports whether f reads a variable of set.
func reads(f presburger.Formula, set map[presburger.Var]bool) bool {
	for _, v := range presburger.FreeVars(f) {
		if set[v] {
			return true
		}
	}
	return false
}

// constantPart splits AG phi (g), asked of the rest system, into a
// condition on its initial configurations and what AG asks after (and
// returns the disjuncts it moved, fixedPart, over sys's variables): the
// disjuncts of phi (a premise "A1 & A2 -> q" is the disjuncts !A1, !A2
// and q) that read only variables the rest system keeps constant (the
// incremented shared variables, the counters of I, the parameters) are
// true or false along a whole run, so AG phi holds exactly when the
// others hold throughout a run from where those are all false. The
// condition reads those variables at the phase's end (ph.start), where
// narrowing can fold it (chose1 = 0 with chose1 = #V1 is #V1 = 0). ok is
// false when no disjunct is constant.
func (ph *initialPhase) constantPart(sys *gsst.System, g ctl.Formula) (cond, after, fixedPart presburger.Formula, ok bool) {
	phi, isSafety := counterabs.SafetyFormula(g)
	if !isSafety {
		return nil, nil, nil, false
	}
	var parts []presburger.Formula
	add := func(f presburger.Formula) {
		if n, isNot := f.(presburger.Not); isNot {
			if c, isAnd := n.F.(presburger.And); isAnd {
				for _, x := range c {
					parts = append(parts, presburger.Negation(x))
				}
				return
			}
		}
		parts = append(parts, f)
	}
	if d, isOr := phi.(presburger.Or); isOr {
		for _, f := range d {
			add(f)
		}
	} else {
		add(phi)
	}
	constant := func(f presburger.Formula) bool {
		for _, v := range presburger.FreeVars(f) {
			if _, fixed := ph.start[v]; fixed {
				continue
			}
			if _, _, isCounter := sys.Counter(v); isCounter {
				return false
			}
			if _, isShared := sys.SharedOf(v); isShared {
				return false
			}
		}
		return true
	}
	var fixed, rest []presburger.Formula
	for _, f := range parts {
		if constant(f) {
			fixed = append(fixed, f)
		} else {
			rest = append(rest, f)
		}
	}
	if len(fixed) == 0 {
		return nil, nil, nil, false
	}
	cond, exact := presburger.SubstExact(presburger.Negation(presburger.Disj(fixed...)), func(v presburger.Var) presburger.Term {
		if t, ok := ph.start[v]; ok {
			return t
		}
		return presburger.VarTerm(v)
	})
	if !exact {
		return nil, nil, nil, false
	}
	return cond, presburger.Disj(rest...), presburger.Disj(fixed...), true
}
