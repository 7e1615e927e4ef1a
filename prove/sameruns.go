package prove

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// A group list that no run reads (gsst's FreeGroups: a part or transfer
// restricted to controllers, groups of one process, or a transition's
// block restricted to any groups, that alone may ever be in its source
// state) keeps certification from finding a
// system symmetric: a shared variable written as a controller process
// of a group of its own, whose states only it enters and which moves
// with the others by rendezvous parts naming its group, makes the
// system as written a group-counter question (Cubicle's germanish5 so
// written: unknown, its work budget spent after 29 to 41 s of CPU;
// 0.15 s proved with the variable; 0.2 s with the lists dropped).
// The system with those lists dropped has the same runs, step for step,
// and is asked instead; its proofs are carried back like every derived
// question's (derived.go): a safety invariant, over total counters where
// the free system is certified, read over the group counters of the
// system as written and re-checked on its model (carryIntoVia); a
// liveness certificate re-checked on the liveness question as written
// (carryLiveVia); a refutation's run, which counts the processes in
// each state, lifted to process moves of the system as written (the
// lifting picks processes its lists allow) and replayed there. A proof
// that does not carry, a run that does not replay and every unknown
// answer (the same question, which the stages may find easier as
// written) are asked again of the system as written; a skipped answer
// (a form prove does not decide) stands. So the
// argument that the runs are the same is no part of the evidence: were
// a list dropped that some run reads (a dropped transfer's list moves
// other processes too, so the free system need not even have more
// runs), a proof of the free system would fail its re-check, and no
// run of it is reported.

// A case split of a transition (gsst's JoinCases: two transitions of
// equal effect with complementary guards, `G & #x >= 2` and
// `G & #x <= 1`, or one guard written so) makes every stage read a
// downward guard no run needs: mist's kanban with one transition so
// split, refuted in 0.04 s as the base, ends unknown after 17 s of CPU,
// and pncsacover with every transition so split runs past 90 s. The
// system with the halves joined and the splits dropped has the same
// steps from every configuration, and is asked instead, like the free
// system above and after it: proofs carried back and re-checked as
// written, and a refutation's run, a sequence of configurations of both
// systems, lifted to process moves of the system as written (which
// takes, at each configuration, the half that holds there) and
// replayed (a fair lasso with the fairness of the system as written); a
// run that does not replay, and a path under justice, are asked again
// as written. An unknown answer of the joined system
// stands: it asks the question as written with fewer steps, none
// harder to read (the free system's is asked again, above).

// A step written through an intermediate state (gsst's AbsorbSteps:
// A -> M with the guard and update, then M -> B unguarded, nothing
// reading M or B) is taken at once, after the joining: ByMC's c1cs so
// written through twelve states took 1.6 s to prove its liveness
// property, the base 0.4 (the lemma candidates about the intermediate
// states doubled, and Houdini's filter took nine rounds of Z3 for one).
// The absorbed system keeps M as a state nobody enters; its runs are
// those as written with M's processes moved to B. Its proofs are
// carried back read with #B as #B + #M and #M as 0 (liftMap.absorbed)
// and re-checked as written; a safety refutation's run is taken
// through M (throughM) and replayed as written, and what does not
// replay, a fair lasso and a path under justice are asked again as
// written; an unknown answer stands (the written question with fewer
// states to read).

// groupFreeing, caseJoining, controllersShared and stepAbsorbing let
// the tests turn each system of the same runs off.
var groupFreeing, caseJoining, controllersShared, stepAbsorbing = true, true, true, true

// checkSameRuns is checkGroupsMerged on sys, with its properties asked
// of the system of the same runs that the stages read best: sys with
// the group lists no run reads dropped (FreeGroups) and its case splits
// joined (JoinCases), where either changes sys; the answers are carried
// back.
func checkSameRuns(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, opts ...Option) (*Report, error) {
	if len(sys.Properties) == 0 {
		return checkGroupsMerged(ctx, sys, prover, solver, opts...)
	}
	same, err := sameRunsOf(sys)
	if err != nil {
		return nil, err
	}
	alike, freed, ctl, what := same.sys, same.freed, same.ctl, same.what
	if alike == sys {
		return checkGroupsMerged(ctx, sys, prover, solver, opts...)
	}
	sub, err := checkGroupsMerged(ctx, alike, prover, solver, opts...)
	if err != nil {
		return nil, err
	}
	checker := checkerOf(solver, opts)
	given := newGivenModels(sys, checker)
	rep := &Report{System: sys, Results: make([]Result, len(sys.Properties)), Scope: sub.Scope}
	if sub.Cert != nil {
		// The report's certification is of the system as written: the
		// system asked may be symmetric where this one is not.
		if rep.Cert, err = detect.Certify(ctx, sys, solver, detect.FirstViolation()); err != nil {
			return nil, err
		}
		given.cert = rep.Cert // certified once, for the report and the model
	}
	joint := newJointCarry()
	for i := range sys.Properties {
		joint.add(sys.Properties[i].Name, &sub.Results[i])
	}
	var left []int
	// The reason of the system asked, said to be of it: the report's
	// certification and model are of the system as written, so the
	// reason says which system its words are about.
	note := "the system with " + strings.Join(what, " and ") + " asked instead: "
	for i := range sys.Properties {
		r := sub.Results[i]
		r.Property = &sys.Properties[i]
		switch r.Verdict {
		case Proved:
			// The reason says how the proof was found; a liveness
			// certificate carried takes the reason of the model as
			// written, which would lose it.
			found := r.LevelReason
			carried, err := carryFreed(ctx, sys, alike, same, given, checker, joint, i, &r)
			if err != nil {
				return nil, err
			}
			if !carried {
				left = append(left, i)
				continue
			}
			r.Sliced = nil
			r.LevelReason = note + found + "; the certificate re-checked on the system as written"
		case Refuted:
			// The joined system's run is the same run, each step by
			// the half that holds; the free system's counts the
			// processes in each state, and its lifting to process
			// moves picks processes the lists as written allow, or
			// fails (then it is asked again as written: a certified
			// system of 136 transitions, mist's java with each rule
			// copied per group, ran past 30 s to refute it). The
			// system with controllers read has their processes as
			// variables: its run, put back, is lifted and replayed.
			var carried bool
			if ctl != nil {
				carried = carryControlledRun(ctx, sys, ctl, i, &r)
			} else {
				carried = carryAlikeRun(ctx, sys, i, &r, same.absorbed)
			}
			if !carried {
				left = append(left, i)
				continue
			}
			r.Sliced = nil
			r.LevelReason = note + r.LevelReason + "; the run replayed on the system as written"
		case Unknown:
			if freed || ctl != nil {
				// Asked again as written, whose question may be the
				// easier one for the stages that answer it.
				left = append(left, i)
				continue
			}
			r.LevelReason = note + r.LevelReason
		default:
			// Skipped: a form prove does not decide, as written too.
			if r.LevelReason != "" {
				r.LevelReason = note + r.LevelReason
			}
		}
		rep.Results[i] = r
	}
	if len(left) == 0 {
		return rep, nil
	}
	// Nothing is marked asked again (Result.askedAgain: a derived
	// refutation that failed to carry): a run of the system asked that
	// does not replay as written is left like any other answer, and a
	// stage as written (slicing, merging) that then fails to carry its
	// own run marks it itself.
	whole, err := askAsWritten(ctx, sys, rep, left, make([]bool, len(sys.Properties)), checkGroupsMerged, prover, solver, opts)
	if err != nil {
		return nil, err
	}
	if whole.Scope != "" {
		rep.Scope = whole.Scope
	}
	return rep, nil
}

// sameRunsOf is sameRuns, which the tests replace with a system of other
// runs to check that nothing it answers is reported unchecked.
var sameRunsOf = sameRuns

// sameRunsSystem is the system prove asks in place of one given
// (sameRuns): sys, whether group lists were dropped (freed), the
// controllers read as shared variables (nil for none), the
// intermediate states absorbed, each into its target (nil for none),
// and what was done, for the reason.
type sameRunsSystem struct {
	sys      *gsst.System
	freed    bool
	ctl      *gsst.Controlled
	absorbed map[int]int
	what     []string
}

// sameRuns returns the system of the same runs as sys that prove asks
// (sys itself when neither FreeGroups, ControllersAsShared, JoinCases
// nor AbsorbSteps changes it).
func sameRuns(sys *gsst.System) (sameRunsSystem, error) {
	same := sameRunsSystem{sys: sys}
	freedWhat := "the group lists no run reads dropped (only those groups ever enter the states they move out of)"
	free := func() error {
		if !groupFreeing {
			return nil
		}
		free, ok, err := same.sys.FreeGroups()
		if err != nil {
			return errkind.Errorf(errkind.Internal, "prove: dropping the group lists no run reads: %w", err)
		}
		if ok {
			same.sys = free
			if !same.freed {
				same.freed = true
				same.what = append(same.what, freedWhat)
			}
		}
		return nil
	}
	join := func(sys *gsst.System) (*gsst.System, bool, error) {
		if !caseJoining {
			return sys, false, nil
		}
		joined, ok, err := sys.JoinCases()
		if err != nil {
			return nil, false, errkind.Errorf(errkind.Internal, "prove: joining the case splits: %w", err)
		}
		if !ok {
			return sys, false, nil
		}
		return joined, true, nil
	}
	joinedWhat := "the case splits joined (transitions of equal effect as one, guards without the cases they split into)"
	if err := free(); err != nil {
		return same, err
	}
	if controllersShared {
		c, ok, err := same.sys.ControllersAsShared()
		if err != nil {
			return same, errkind.Errorf(errkind.Internal, "prove: reading the controllers as shared variables: %w", err)
		}
		// Read as shared variables where that makes steps one (a
		// write per value before) or the system as written has group
		// lists: a controller whose every write is one rendezvous,
		// in a system certified as written, is asked as written (its
		// variable gains the stages nothing, and the re-check as
		// written costs: ME_250 with its flag so, 0.63 -> 1.5 s).
		var joined *gsst.System
		if ok {
			if joined, ok, err = join(c.System); err != nil {
				return same, err
			}
			ok = ok || same.freed
		}
		if ok {
			same.sys, same.ctl = joined, c
			var names []string
			for _, k := range c.Controllers {
				names = append(names, sys.Groups[k.Group].Name)
			}
			same.what = append(same.what, "the controllers "+strings.Join(names, ", ")+" read as shared variables (groups of one process in states only it enters: value k for its k-th state)")
			if joined != c.System {
				same.what = append(same.what, joinedWhat)
			}
			// Absorbing too would need both readings carried back
			// at once: not done.
			return same, nil
		}
	}
	joined, ok, err := join(same.sys)
	if err != nil {
		return same, err
	}
	if ok {
		same.sys = joined
		same.what = append(same.what, joinedWhat)
		// A transition joined of its copies per group may be one
		// that only its groups take: its list goes too.
		if err := free(); err != nil {
			return same, err
		}
	}
	if stepAbsorbing {
		absorbed, into, ok, err := same.sys.AbsorbSteps()
		if err != nil {
			return same, errkind.Errorf(errkind.Internal, "prove: absorbing the intermediate states: %w", err)
		}
		if ok {
			same.sys, same.absorbed = absorbed, into
			same.what = append(same.what, fmt.Sprintf("the steps through %d unread intermediate states taken at once (A -> M -> B as A -> B)", len(into)))
		}
	}
	return same, nil
}

// carryAlikeRun carries the run of res, found on an instance of a system
// with sys's runs (JoinCases), to the instance of sys at the same values:
// its configurations are lifted to process moves of sys and replayed,
// property index of sys being what it refutes: a path to a state where
// phi fails (replayStates), or a fair lasso (carryAlikeLasso). With
// states absorbed (AbsorbSteps: M into B for each M -> B of absorbed),
// each step of a path that puts a process in B from a state with a
// transition into M goes through M (throughM); a lasso is not carried.
// ok is false, with res unchanged, when the run does not replay, or is
// a path under justice (the fair run is explore's).
func carryAlikeRun(ctx context.Context, sys *gsst.System, index int, res *Result, absorbed map[int]int) bool {
	if res.Trace != nil && res.Trace.Loop >= 0 {
		return absorbed == nil && carryAlikeLasso(ctx, sys, index, res)
	}
	inst, premise, phi, ok := safetyRunAt(sys, index, res)
	if !ok {
		return false
	}
	out := statesOn(inst, res.Trace)
	if absorbed != nil {
		out = throughM(sys, inst, out, absorbed)
	}
	if inst, ok = replayStates(ctx, inst, out, premise, phi); !ok {
		return false
	}
	res.Instance, res.Trace = inst, out
	return true
}

// carryAlikeLasso carries the fair lasso of res, a liveness property's
// refutation on an instance of a system with sys's runs, to the instance
// of sys at the same values: its configurations are lifted to process
// moves of sys (explore.Lift unrolls the loop until the processes
// repeat) and replayed there with sys's fairness (replayLasso).
func carryAlikeLasso(ctx context.Context, sys *gsst.System, index int, res *Result) bool {
	tr := res.Trace
	if tr.Lifted == nil || tr.Lifted.Error != "" || res.Instance == nil || len(tr.States) == 0 {
		return false
	}
	inst, ok := instanceOf(sys, res)
	if !ok || index >= len(inst.Properties) {
		return false
	}
	// As lassoAt makes the instance it explores: its one property, a
	// shared variable that may start anywhere from its least up to the
	// number of processes.
	inst = inst.WithProperties(index).InitialsUpTo(inst.N())
	out := statesOn(inst, tr)
	out.Loop = tr.Loop
	out.Lifted = explore.Lift(ctx, inst, out)
	if out.Lifted.Error != "" || replayLasso(inst, out) != nil {
		return false
	}
	res.Instance, res.Trace = inst, out
	return true
}

// carryControlledRun carries the run of res, a path found on an
// instance of ctl.System (the controllers read as variables), to the
// instance of sys at the same values (each controller of one process):
// its configurations with each controller's process put back in the
// state its variable names, lifted to process moves of sys and
// replayed (replayStates). ok is false, with res unchanged, when the
// run does not replay or is a fair lasso or a path under justice
// (asked again as written).
func carryControlledRun(ctx context.Context, sys *gsst.System, ctl *gsst.Controlled, index int, res *Result) bool {
	if res.Trace == nil || res.Trace.Loop >= 0 || len(res.Sizes) != len(ctl.Groups) {
		return false
	}
	sizes := make([]int, len(sys.Groups))
	for _, k := range ctl.Controllers {
		sizes[k.Group] = 1
	}
	for h, g := range ctl.Groups {
		sizes[g] = res.Sizes[h]
	}
	at := *res
	at.Sizes = sizes
	inst, premise, phi, ok := safetyRunAt(sys, index, &at)
	if !ok {
		return false
	}
	tr := res.Trace
	out := &explore.Trace{Kind: tr.Kind, Loop: -1, Segments: slices.Clone(tr.Segments)}
	for _, st := range tr.States {
		if len(st.Shared) != len(ctl.System.Shared) {
			return false
		}
		totals := slices.Clone(st.Counters)
		var groups [][]int
		if st.Groups != nil {
			groups = make([][]int, len(sys.Groups))
			for h, g := range ctl.Groups {
				groups[g] = slices.Clone(st.Groups[h])
			}
		}
		for _, k := range ctl.Controllers {
			x := k.States[st.Shared[k.Shared]]
			totals[x]++
			if groups != nil {
				groups[k.Group] = make([]int, len(sys.States))
				groups[k.Group][x] = 1
			}
		}
		out.States = append(out.States, explore.SystemState(inst, totals, groups).WithShared(slices.Clone(st.Shared[:len(sys.Shared)])))
	}
	if inst, ok = replayStates(ctx, inst, out, premise, phi); !ok {
		return false
	}
	res.Instance, res.Trace, res.Sizes = inst, out, sizes
	return true
}

// throughM returns the path tr of an absorbed system's configurations
// (AbsorbSteps), as configurations of inst (an instance of sys), with
// a configuration inserted after each step that puts
// a process in a state B from a state A with a transition of sys into
// an M absorbed into B: the step's end with that process in M instead,
// of the group whose count in B rose. The replay checks the steps so
// made (A -> M, then M -> B); a step that went from A to B directly
// fails it, and the property is then asked as written.
func throughM(sys, inst *gsst.System, tr *explore.Trace, absorbed map[int]int) *explore.Trace {
	entry := map[[2]int]int{} // {A, B}: an M absorbed into B that A steps to
	for _, t := range sys.Transitions {
		if b, ok := absorbed[t.To]; ok {
			if _, seen := entry[[2]int{t.From, b}]; !seen {
				entry[[2]int{t.From, b}] = t.To
			}
		}
	}
	out := &explore.Trace{Kind: tr.Kind, Loop: -1}
	at := make([]int, len(tr.States)) // each state's index in out
	for k, st := range tr.States {
		if k > 0 {
			if mid, ok := intoM(inst, tr.States[k-1], st, entry); ok {
				out.States = append(out.States, mid)
			}
		}
		at[k] = len(out.States)
		out.States = append(out.States, st)
	}
	for _, seg := range tr.Segments {
		seg.Start, seg.End = at[seg.Start], at[seg.End]
		out.Segments = append(out.Segments, seg)
	}
	return out
}

// intoM returns the configuration between from and to with one process
// in M instead of B, for the first B whose count rose and A whose count
// fell with an entry A -> M of B; ok false when there is none.
func intoM(inst *gsst.System, from, to explore.State, entry map[[2]int]int) (mid explore.State, ok bool) {
	for b := range to.Counters {
		if to.Counters[b] <= from.Counters[b] {
			continue
		}
		for a := range from.Counters {
			m, found := entry[[2]int{a, b}]
			if !found || to.Counters[a] >= from.Counters[a] {
				continue
			}
			counters := slices.Clone(to.Counters)
			counters[b]--
			counters[m]++
			groups := cloneRows(to.Groups)
			for g := range groups {
				if groups[g][b] > from.Groups[g][b] {
					groups[g][b]--
					groups[g][m]++
					break
				}
			}
			return explore.SystemState(inst, counters, groups).WithShared(slices.Clone(to.Shared)), true
		}
	}
	return mid, false
}

// statesOn returns a path of inst's configurations: tr's states, which
// are inst's too (a system of the same runs has its states, groups and
// shared variables), with its kind and segments.
func statesOn(inst *gsst.System, tr *explore.Trace) *explore.Trace {
	out := &explore.Trace{Kind: tr.Kind, Loop: -1, Segments: slices.Clone(tr.Segments)}
	for _, st := range tr.States {
		out.States = append(out.States, explore.SystemState(inst, slices.Clone(st.Counters), cloneRows(st.Groups)).WithShared(slices.Clone(st.Shared)))
	}
	return out
}

// cloneRows copies rows down to their values; nil stays nil.
func cloneRows(rows [][]int) [][]int {
	if rows == nil {
		return nil
	}
	out := make([][]int, len(rows))
	for i := range rows {
		out[i] = slices.Clone(rows[i])
	}
	return out
}

// carryFreed carries the proof res of property index of free (a system
// of sys's runs: sameRuns) to sys: ok says that res now holds a
// certificate re-checked on sys's own model (a safety proof once for
// the properties it proved together, joint); false, with res unchanged,
// when the proof is none that carries (a proof part by part, a family
// explored whole) or the re-check fails or cannot decide.
func carryFreed(ctx context.Context, sys, free *gsst.System, same sameRunsSystem, given *givenModels, solver presburger.Solver, joint *jointCarry, index int, res *Result) (bool, error) {
	ctl := same.ctl
	if len(res.Parts) > 0 || res.Invariant == nil {
		return false, nil
	}
	name := sys.Properties[index].Name
	if res.Live != nil {
		fromSys := free
		if res.Sliced != nil {
			fromSys = res.Sliced
		}
		to, from := given.liveModel(), liveModelOf(fromSys)
		if to == nil || from == nil {
			return false, nil
		}
		lm := controllerLift(ctl, from, to)
		lm.absorbed = same.absorbed
		return carryLiveFrom(ctx, solver, to, from, name, res, lm)
	}
	if res.proof == nil || res.Trace != nil {
		return false, nil
	}
	to := given.at(ctx, res.proof.m.Level)
	if to == nil {
		return false, nil
	}
	from := res.proof.m
	lm := controllerLift(ctl, from, to)
	lm.absorbed = same.absorbed
	// The counters firing found stay 0 on sys's model (a process of a
	// group in a state only another group enters): the free system has
	// no such counter, and its invariant is inductive as written only
	// with them.
	return joint.carry(name, res, func(names []string, res *Result) (bool, error) {
		with := lm
		with.given = append(slices.Clone(lm.given), cutFacts(to)...)
		return carryIntoVia(ctx, to, names, solver, res, with)
	})
}

// controllerLift returns how a formula over from, the model of a system
// whose controllers ctl reads as shared variables, reads over to, the
// model of the system as written at the same level: each group as the
// group it is there, the variable of a controller as the sum of k times
// the counter of its k-th state (the controller's own counter at the
// group level), the counters of the controllers' states (empty in
// from) as 0, and n as n less the controllers; given, that each
// controller's counters add up to 1 (re-checked with the invariant, as
// every fact given). With ctl nil, the map of a system of the same
// variables.
func controllerLift(ctl *gsst.Controlled, from, to *counterabs.ParamModel) liftMap {
	if ctl == nil {
		return liftMap{}
	}
	lm := liftMap{groups: func(g int) []int { return []int{ctl.Groups[g]} }, extra: map[presburger.Var]presburger.Term{}}
	owned := map[int]bool{}
	for _, k := range ctl.Controllers {
		for _, x := range k.States {
			owned[x] = true
		}
	}
	for i, c := range from.Counters {
		if owned[c.State] {
			lm.extra[presburger.Var(i)] = presburger.Term{}
		}
	}
	lm.extra[from.NVar()] = presburger.VarTerm(to.NVar()).Add(presburger.ConstTerm(-int64(len(ctl.Controllers))))
	for j := range from.Shared {
		idx := from.SharedIndex(j)
		at := slices.IndexFunc(ctl.Controllers, func(k gsst.Controller) bool { return k.Shared == idx })
		if at < 0 {
			continue
		}
		k := &ctl.Controllers[at]
		group := -1
		if to.Level == counterabs.GroupLevel {
			group = k.Group
		}
		var t, one presburger.Term
		for value, x := range k.States {
			// A state the controller never enters is no counter of a
			// sparse model: 0 (Counter).
			c := to.CounterTerm(x, group)
			t = t.Add(c.Scale(int64(value)))
			one = one.Add(c)
		}
		lm.extra[from.SharedVar(j)] = t
		// The controller's one process is in one of its states: what
		// makes the sum its value.
		lm.given = append(lm.given, presburger.Compare(one, presburger.Eq, presburger.ConstTerm(1)))
	}
	return lm
}
