package prove

import (
	"context"
	"slices"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// A group written as two groups that behave alike (gsst's MergeGroups:
// a size n as proc_na and n - proc_na, every count #S[g] as #S[a] +
// #S[b]) is asked as one group: the merged system has the same runs up
// to the names of the groups, at the same instances, so each property
// has the same answer; its group-counter model, which liveness reads,
// has half the counters (ByMC's cc so split: 2.1 s and its termination
// unknown as written, 0.4 s merged). The answers are carried back like
// every derived question's (derived.go): a safety invariant with #S[g]
// read as #S[a] + #S[b] and |g| as |a| + |b|, re-checked on the model
// of the system as written (carryIntoVia); a liveness certificate
// (invariant, ranks, or the invariant of a proof by settling) read so
// and re-checked on the liveness question of the system as written, its
// helpful constraints and justice conditions the same (the merge keeps
// the fairness lists in order); a refutation's run (a path) with the
// merged group's processes renamed as a's then b's, replayed on the
// split instance of the system as written (carryRun), a fair lasso so
// renamed replayed there with its fairness checked as sys states it. A
// proof that does not carry, a refutation whose run does not replay or
// is none carryRun takes (a path under justice, a run of a slice), and
// a proof that is no certificate (a family of one instance explored
// whole, a property asked part by part) are asked again of the system
// as written. An
// unknown or skipped answer stands: the same question of a system with
// the same runs.

// groupMerging lets the tests turn the merge off, and groupRuns the
// carrying of its refutations (every one asked again as written).
var (
	groupMerging = true
	groupRuns    = true
)

// checkGroupsMerged is checkMerged on sys, with its properties asked of
// sys with one pair of groups merged (MergeGroups) when it has one, and
// carried back; the merged system may have another pair, merged in
// turn.
func checkGroupsMerged(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, opts ...Option) (*Report, error) {
	if !groupMerging {
		return checkMerged(ctx, sys, prover, solver, opts...)
	}
	mg, ok, err := sys.MergeGroups()
	if err != nil {
		return nil, errkind.Errorf(errkind.Internal, "prove: merging two groups that behave alike: %w", err)
	}
	if !ok || len(sys.Properties) == 0 {
		return checkMerged(ctx, sys, prover, solver, opts...)
	}
	sub, err := checkGroupsMerged(ctx, mg.System, prover, solver, opts...)
	if err != nil {
		return nil, err
	}
	checker := checkerOf(solver, opts)
	cr := &groupCarrier{sys: sys, mg: mg, solver: checker, given: newGivenModels(sys, checker)}
	rep := &Report{System: sys, Results: make([]Result, len(sys.Properties)), Cert: sub.Cert}
	var left []int
	again := make([]bool, len(sys.Properties))
	for i := range sys.Properties {
		r := sub.Results[i]
		r.Property = &sys.Properties[i]
		switch r.Verdict {
		case Proved:
			carried, err := cr.carryProof(ctx, i, &r)
			if err != nil {
				return nil, err
			}
			if !carried {
				left = append(left, i)
				continue
			}
			r.Sliced = nil
			cr.note(&r, ", the certificate re-checked on the system as written")
		case Refuted:
			if !groupRuns || !cr.carryRun(ctx, i, &r) {
				left = append(left, i)
				again[i] = true
				continue
			}
			if r.LevelReason != "" {
				carried := ", the run replayed on the system as written"
				if r.Trace.Loop >= 0 {
					carried = ", the fair run replayed on the system as written, its fairness checked there"
				}
				cr.note(&r, carried)
			}
		default:
			if r.LevelReason != "" {
				cr.note(&r, "")
			}
		}
		rep.Results[i] = r
	}
	if len(left) == 0 {
		rep.Scope = cr.scope(ctx, sub.Scope)
		return rep, nil
	}
	whole, err := askAsWritten(ctx, sys, rep, left, again, checkMerged, prover, solver, opts)
	if err != nil {
		return nil, err
	}
	rep.Scope = whole.Scope
	if rep.Scope == "" {
		rep.Scope = cr.scope(ctx, sub.Scope)
	}
	return rep, nil
}

// groupCarrier carries the proofs of a system with two groups merged
// (mg) to sys, the system as written.
type groupCarrier struct {
	sys    *gsst.System
	mg     *gsst.MergedGroups
	solver presburger.Solver
	given  *givenModels
	// live is sys's group-counter model of its liveness properties, as
	// checkLive builds it; liveBuilt says it was tried.
	live      *counterabs.ParamModel
	liveBuilt bool
}

// note says in the reason of res, an answer of the merged system
// carried to sys (how: the check it passed there, carried) or kept,
// which groups of sys were read as one: this pair, with the groups an
// answer of a system merged further names (res.groupsMerged, in the
// merged system's names) written as sys names them, the note of the
// merged system's answer replaced.
func (c *groupCarrier) note(res *Result, carried string) {
	merged, a, b := c.mg.System.Groups[c.mg.A].Name, c.sys.Groups[c.mg.A].Name, c.sys.Groups[c.mg.B].Name
	var lists [][]string
	found := false
	for _, list := range res.groupsMerged {
		var out []string
		for _, name := range list {
			if name == merged {
				out, found = append(out, a, b), true
				continue
			}
			out = append(out, name)
		}
		lists = append(lists, out)
	}
	if !found {
		lists = append(lists, []string{a, b})
	}
	var parts []string
	for _, list := range lists {
		parts = append(parts, strings.Join(list[:len(list)-1], ", ")+" and "+list[len(list)-1])
	}
	note := "; groups " + strings.Join(parts, "; groups ") + " read as one group each, which behaves as they do (every count of theirs a sum over them)"
	if len(lists) == 1 {
		note = "; groups " + parts[0] + " read as one group, which behaves as they do (every count of theirs a sum over them)"
	}
	note += carried
	res.LevelReason = strings.TrimSuffix(res.LevelReason, res.groupNote) + note
	res.groupNote, res.groupsMerged = note, lists
}

// groupsOf returns the groups of sys that group g of the merged system
// stands for.
func (c *groupCarrier) groupsOf(g int) []int {
	switch {
	case g == c.mg.A:
		return []int{c.mg.A, c.mg.B}
	case g >= c.mg.B:
		return []int{g + 1}
	}
	return []int{g}
}

// scope is the report's scope: that of sys's group-counter model (the
// sizes of its groups), or the merged one's when it has none.
func (c *groupCarrier) scope(ctx context.Context, merged string) string {
	if merged == "" {
		return ""
	}
	m := c.live
	if m == nil {
		var err error
		if m, err = counterabs.BuildParamGroup(c.sys.WithProperties(), counterabs.RunSteps()); err != nil {
			return merged
		}
	}
	if m.Scope == "" {
		return merged
	}
	return m.Scope + emptyGroups(ctx, c.solver, m)
}

// carryProof carries the proof res of property index of the merged
// system to sys: ok says that res now holds a certificate re-checked on
// sys; false, with res unchanged, when the proof is none that carries
// or the re-check fails or cannot decide.
func (c *groupCarrier) carryProof(ctx context.Context, index int, res *Result) (bool, error) {
	if len(res.Parts) > 0 || res.Invariant == nil {
		return false, nil
	}
	if res.Live != nil {
		return c.carryLive(ctx, index, res)
	}
	if res.proof == nil || res.Trace != nil {
		return false, nil
	}
	to := c.given.at(ctx, res.proof.m.Level)
	if to == nil {
		return false, nil
	}
	return carryIntoVia(ctx, to, []string{c.sys.Properties[index].Name}, c.solver, res, liftMap{groups: c.groupsOf})
}

// liveModel returns sys's group-counter model of its liveness
// properties (liveModelOf), built once.
func (c *groupCarrier) liveModel() *counterabs.ParamModel {
	if !c.liveBuilt {
		c.live, c.liveBuilt = liveModelOf(c.sys), true
	}
	return c.live
}

// carryLive carries the liveness certificate of res, found on the
// merged system or its slice (res.Sliced), to property index of sys
// (carryLiveVia), #S[g] read as #S[a] + #S[b].
func (c *groupCarrier) carryLive(ctx context.Context, index int, res *Result) (bool, error) {
	fromSys := c.mg.System
	if res.Sliced != nil {
		fromSys = res.Sliced
	}
	return carryLiveVia(ctx, c.solver, c.liveModel(), fromSys, c.sys.Properties[index].Name, res, liftMap{groups: c.groupsOf})
}

// cmpTerm returns the term t of an atom t = 0 as SubstExact leaves it
// (a rank's term lifted as an atom, since liftFormulaVia lifts
// formulas).
func cmpTerm(f presburger.Formula) (presburger.Term, bool) {
	if f, ok := f.(presburger.Cmp); ok && f.Op == presburger.Eq {
		return f.T, true
	}
	return presburger.Term{}, false
}

// carryRun carries the run of res, a refutation of property index on
// an instance of the merged system, to the system as written, and
// replays it there, which is what makes it a refutation of sys: the
// merged group's k processes are a's ka then b's kb (ka, kb the sizes
// over the parameters at the run's values, or for sizes that are
// ranges the least ka in a's range that leaves kb in b's), every other
// group is itself, and each step is taken again by the same processes
// so renamed, by the step of sys of the same transition or rendezvous
// (restep). A path is replayed as every run of a safety question
// (replayStates); a fair lasso of a liveness question (lassoAt) as
// every lasso (replayLasso): its loop must return to the configuration
// it left, and meet each justice condition and each weak fairness
// constraint of sys as sys states them, and the obligation must stay
// open. The merge keeps the fairness lists and reads no weak fairness
// of the pair, so the loop is fair on sys whenever it is on the merged
// system; the replay checks it all the same. ok is false, with res
// unchanged, when the run does not carry: a path under justice (the
// fair run is explore's, of the merged instance), a run of a slice of
// the merged system, a start not all in the pair's initial state, a
// step the processes of sys cannot take, a state that is not the merged
// run's, a lasso that is not fair on sys.
func (c *groupCarrier) carryRun(ctx context.Context, index int, res *Result) bool {
	tr := res.Trace
	if tr == nil || tr.Lifted == nil || res.Instance == nil || res.Sliced != nil || tr.Lifted.Error != "" || len(tr.States) == 0 {
		return false
	}
	lasso := tr.Loop >= 0
	if lasso != (tr.Lifted.Loop >= 0) {
		return false
	}
	if !lasso && (len(c.sys.Fairness.Justice) > 0 || len(res.Instance.Fairness.Justice) > 0) {
		return false
	}
	sys, a, b := c.sys, c.mg.A, c.mg.B
	merged := res.Instance
	if len(merged.Groups) != len(sys.Groups)-1 {
		return false
	}
	k := merged.Groups[a].Size
	sizes, ok := c.splitSizes(res, k)
	if !ok {
		return false
	}
	at := *res
	at.Sizes = sizes
	inst, ok := instanceOf(sys, &at)
	if !ok || index >= len(inst.Properties) {
		return false
	}
	var premise, phi presburger.Formula
	if lasso {
		if !IsLiveness(inst.Properties[index].Formula) {
			return false
		}
		// The instance as lassoAt explores it: its one property, the
		// shared variables that start in a range up to the number of
		// processes.
		inst = inst.WithProperties(index).InitialsUpTo(inst.N())
	} else if premise, phi, ok = counterabs.PremisedSafety(inst.Properties[index].Formula); !ok {
		return false
	}
	ka, kb := inst.Groups[a].Size, inst.Groups[b].Size
	if ka+kb != k {
		return false
	}
	if sizes != nil && res.Sizes[a] >= 0 {
		// The merged run names its size as a value: so do a and b.
		sizes[a], sizes[b] = ka, kb
	}
	from := startConfig(res)
	init, okInit := sys.InitState(a)
	if len(from.Counts) != len(merged.Groups) || len(from.Shared) != len(inst.Shared) || !okInit || from.Counts[a][init] != k {
		return false
	}
	start := gsst.Config{Counts: make([][]int, len(inst.Groups)), Shared: slices.Clone(from.Shared), Params: slices.Clone(from.Params)}
	for g := range inst.Groups {
		if g == a || g == b {
			start.Counts[g] = make([]int, len(inst.States))
			start.Counts[g][init] = inst.Groups[g].Size
			continue
		}
		start.Counts[g] = slices.Clone(from.Counts[c.mg.Group(g)])
	}
	// proc renames process p of merged group g.
	proc := func(g, p int) (int, int) {
		switch {
		case g == a && p >= ka:
			return b, p - ka
		case g >= b:
			return g + 1, p
		}
		return g, p
	}
	withGroups := tr.States[0].Groups != nil
	steps, states, ok := restep(inst, start, tr.Lifted.Steps, proc, withGroups, lasso)
	// A path's states are its steps' ends; a lasso's lifted steps go
	// round its loop until the processes repeat, past the states.
	if !ok || !lasso && len(states) != len(tr.States) || len(states) < len(tr.States) {
		return false
	}
	for i := range tr.States {
		got, want := states[i], tr.States[i]
		if !slices.Equal(got.Counters, want.Counters) || !slices.Equal(got.Shared, want.Shared) {
			return false
		}
	}
	out := &explore.Trace{Kind: tr.Kind, Loop: tr.Loop, Segments: slices.Clone(tr.Segments), States: states}
	if lasso {
		// The trace shows the run of sys as taken: every configuration
		// of the lifted steps, the loop back to the one they return to.
		// The merged trace's loop closes on its counters, where sys's
		// may hold a's and b's processes otherwise until the lifted
		// rounds end; its explanation's state numbers then name other
		// states, and it is left out.
		out.States, out.Loop = states[:len(steps)], tr.Lifted.Loop
		if len(steps) != len(tr.States) || tr.Lifted.Loop != tr.Loop {
			out.Segments = nil
		}
		out.Lifted = &explore.Lifted{Steps: steps, Loop: tr.Lifted.Loop, Start: start.Clone()}
		if replayLasso(inst, out) != nil {
			return false
		}
		res.Reason = "a fair run that never meets the obligation, found by exploring an instance of the system with groups " +
			sys.Groups[a].Name + " and " + sys.Groups[b].Name + " read as one with the explicit engine, and replayed on this instance " +
			"of the system as written process by process; its loop meets every fairness constraint of the system as written"
	} else if inst, ok = replayStates(ctx, inst, out, premise, phi); !ok {
		return false
	}
	res.Instance, res.Trace, res.Sizes = inst, out, sizes
	return true
}

// splitSizes returns the sizes of sys's groups at the instance of the
// merged system of res, whose merged group has k processes: each other
// group's as there, a's and b's -1 when they are over the parameters
// (the instance computes them), else ka the least of a's range with k
// - ka in b's; nil when no size is a range (the instance takes the
// written ones).
func (c *groupCarrier) splitSizes(res *Result, k int) ([]int, bool) {
	a, b := c.mg.A, c.mg.B
	if res.Sizes == nil {
		return nil, true
	}
	if len(res.Sizes) != len(c.sys.Groups)-1 {
		return nil, false
	}
	sizes := make([]int, len(c.sys.Groups))
	for g := range sizes {
		sizes[g] = res.Sizes[c.mg.Group(g)]
	}
	ga, gb := &c.sys.Groups[a], &c.sys.Groups[b]
	if ga.OverParams() {
		sizes[a], sizes[b] = -1, -1
		return sizes, true
	}
	for ka := ga.Size; ka < k; ka++ {
		if ga.Allows(ka) && gb.Allows(k-ka) {
			sizes[a], sizes[b] = ka, k-ka
			return sizes, true
		}
	}
	return nil, false
}
