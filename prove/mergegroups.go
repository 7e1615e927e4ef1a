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
// split instance of the system as written (carryRun). A proof that
// does not carry, a refutation whose run does not replay or is none
// carryRun takes (a lasso, a run under justice), and a proof that is no
// certificate (a family of one instance explored whole, a property
// asked part by part) are asked again of the system as written. An
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
				cr.note(&r, ", the run replayed on the system as written")
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
	from := res.proof.m
	carried, err := carryIntoVia(ctx, to, []string{c.sys.Properties[index].Name}, c.solver, res, liftMap{groups: c.groupsOf})
	if err != nil || !carried {
		return false, err
	}
	res.Lemmas = c.liftLemmas(from, to, res.Lemmas, nil, to.VarName)
	return true, nil
}

// liveModel returns sys's group-counter model of its liveness
// properties (checkLive's), nil when it cannot be built.
func (c *groupCarrier) liveModel() *counterabs.ParamModel {
	if c.liveBuilt {
		return c.live
	}
	c.liveBuilt = true
	var idx []int
	for k := range c.sys.Properties {
		if IsLiveness(c.sys.Properties[k].Formula) {
			idx = append(idx, k)
		}
	}
	m, err := counterabs.BuildParamGroup(c.sys.WithProperties(idx...), counterabs.RunSteps())
	if err != nil {
		return nil
	}
	m.Reason = "liveness is decided on the group-counter model, exact for any system, where fairness per group is expressible"
	c.live = m
	return m
}

// carryLive carries the liveness certificate of res to the liveness
// question of property index on sys's group-counter model, and
// re-checks it there (checkLive, or checkSettled for a proof by
// settling). The certificate's model is rebuilt from the system it was
// found on (the merged one, or its slice: res.Sliced), as checkLive
// builds it, which names its variables.
func (c *groupCarrier) carryLive(ctx context.Context, index int, res *Result) (bool, error) {
	cert := res.Live
	name := c.sys.Properties[index].Name
	to := c.liveModel()
	if to == nil {
		return false, nil
	}
	fromSys := c.mg.System
	if res.Sliced != nil {
		fromSys = res.Sliced
	}
	var idx []int
	for k := range fromSys.Properties {
		if IsLiveness(fromSys.Properties[k].Formula) {
			idx = append(idx, k)
		}
	}
	from, err := counterabs.BuildParamGroup(fromSys.WithProperties(idx...), counterabs.RunSteps())
	if err != nil {
		return false, nil
	}
	a, ok, err := askLive(ctx, c.solver, to, name)
	if err != nil || !ok || a.settledOnly != cert.Settled && a.settledOnly {
		return false, err
	}
	lq, err := newLive(a.m, a.premise, a.start, a.trigger, a.q)
	if err != nil {
		return false, nil
	}
	// The monitor bit follows each model's variables.
	lm := liftMap{groups: c.groupsOf, extra: map[presburger.Var]presburger.Term{
		presburger.Var(from.NumVars() + from.NumState()): presburger.VarTerm(lq.pending),
	}}
	lift := func(f presburger.Formula) (presburger.Formula, bool) { return liftFormulaVia(from, to, f, lm) }
	out := &LiveCertificate{Helpful: cert.Helpful, Justice: cert.Justice, Settled: cert.Settled}
	if out.Invariant, ok = lift(cert.Invariant); !ok {
		return false, nil
	}
	for _, r := range cert.Ranks {
		var rank Rank
		for _, rc := range r {
			if rc.Term.IsConst() {
				when, ok := lift(rc.When)
				if !ok {
					return false, nil
				}
				rank = append(rank, RankCase{When: when, Term: rc.Term})
				continue
			}
			when, ok1 := lift(rc.When)
			term, ok2 := lift(presburger.Compare(rc.Term, presburger.Eq, presburger.Term{}))
			t, ok3 := cmpTerm(term)
			if !ok1 || !ok2 || !ok3 {
				return false, nil
			}
			rank = append(rank, RankCase{When: when, Term: t})
		}
		out.Ranks = append(out.Ranks, rank)
	}
	solver := presburger.SolveEqs{S: c.solver}
	if cert.Settled {
		err = lq.checkSettled(ctx, solver, out, a.j)
	} else {
		err = lq.checkLive(ctx, solver, out)
	}
	if err != nil {
		// Not a certificate of the system as written (or the solver
		// cannot tell): the property is asked again as written.
		return false, nil
	}
	lemmas := c.liftLemmas(from, to, res.Lemmas, lm.extra, lq.varName)
	if cert.Settled {
		lq.provedSettled(out, lemmas, res)
	} else {
		lq.proved(out, lemmas, res)
	}
	if a.cond != presburger.True {
		out.PremiseText = FormatInvariant(a.cond, to.VarName, to.TypedAtom)
	}
	res.Level, res.LevelReason = to.Level, to.Reason
	return true, nil
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

// liftLemmas writes lemmas, found on model from of the merged system,
// over the variables of model to of sys, as part of the certificate
// carried there; a lemma that does not carry is left out of the list
// (the certificate, re-checked, holds it all the same).
func (c *groupCarrier) liftLemmas(from, to *counterabs.ParamModel, lemmas []Lemma, extra map[presburger.Var]presburger.Term, name func(presburger.Var) string) []Lemma {
	var out []Lemma
	for _, l := range lemmas {
		f, ok := liftFormulaVia(from, to, l.Formula, liftMap{groups: c.groupsOf, extra: extra})
		if !ok {
			continue
		}
		out = append(out, Lemma{Kind: l.Kind, Formula: f, Text: FormatInvariant(f, name, to.TypedAtom)})
	}
	return out
}

// carryRun carries the run of res, a refutation of property index on
// an instance of the merged system, to the system as written, and
// replays it there (replayStates), which is what makes it a refutation
// of sys: the merged group's k processes are a's ka then b's kb (ka,
// kb the sizes over the parameters at the run's values, or for sizes
// that are ranges the least ka in a's range that leaves kb in b's),
// every other group is itself, and each step is taken again by the
// same processes so renamed, by the step of sys of the same transition
// or rendezvous. ok is false, with res unchanged, when the run does not
// carry: a lasso, fairness with justice (the fair run is explore's, of
// the merged instance), a run of a slice of the merged system, a start
// not all in the pair's initial state, a step the processes of sys
// cannot take, a state that is not the merged run's.
func (c *groupCarrier) carryRun(ctx context.Context, index int, res *Result) bool {
	tr := res.Trace
	if tr == nil || tr.Lifted == nil || res.Instance == nil || res.Sliced != nil || tr.Loop >= 0 || tr.Lifted.Loop >= 0 || tr.Lifted.Error != "" || len(tr.States) == 0 {
		return false
	}
	if len(c.sys.Fairness.Justice) > 0 || len(res.Instance.Fairness.Justice) > 0 {
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
	inst, premise, phi, ok := safetyAt(sys, index, &at)
	if !ok {
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
	procs := inst.NewProcs(start)
	out := &explore.Trace{Kind: tr.Kind, Loop: -1, Segments: slices.Clone(tr.Segments)}
	withGroups := tr.States[0].Groups != nil
	record := func() { out.States = append(out.States, stateOf(inst, procs.View(), withGroups)) }
	record()
	for _, st := range tr.Lifted.Steps {
		if st.Stutter {
			return false
		}
		if st.Environment == nil {
			st.Group, st.Process = proc(st.Group, st.Process)
		}
		st.Also = slices.Clone(st.Also)
		for i := range st.Also {
			st.Also[i].Group, st.Also[i].Process = proc(st.Also[i].Group, st.Also[i].Process)
		}
		step, movers, err := explore.StepOf(inst, st)
		if err != nil {
			return false
		}
		transferred, shared, err := inst.CheckMovers(step, procs, movers)
		if err != nil {
			return false
		}
		procs.Take(movers, transferred, shared)
		record()
	}
	if len(out.States) != len(tr.States) {
		return false
	}
	for i := range out.States {
		got, want := out.States[i], tr.States[i]
		if !slices.Equal(got.Counters, want.Counters) || !slices.Equal(got.Shared, want.Shared) {
			return false
		}
	}
	inst, ok = replayStates(ctx, inst, out, premise, phi)
	if !ok {
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
