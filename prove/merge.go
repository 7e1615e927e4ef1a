package prove

import (
	"context"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// A counter written as two places read only through their sum (gsst's
// MergeSums: x_a + x_b, every step that takes written once per way of
// sharing out what it takes) is asked as one variable: the merged
// system is bisimilar to the one written with respect to everything
// read, so its safety properties have the same answers, and its steps
// are fewer (mist's manufacture with one place split: out of 15 s CPU
// as written, as fast as the base when merged). The answers are
// carried back like every derived question's (derived.go): an
// invariant with x read as x_a + x_b, re-checked on the model of the
// system as written from its own property; a run replayed on its
// instance, each step taken by the copy that the places' tokens
// enable. An answer that does not carry (the check fails or cannot be
// decided, a run that does not replay) is asked again of the system as
// written: no answer of the merged system stands on the argument
// alone. AG phi, c -> AG phi and the liveness properties are asked
// so; the other forms are asked as written. A liveness certificate
// (invariant, ranks, or the invariant of a proof by settling, over the
// merged model with its monitor bit) is carried with x read as x_a +
// x_b and re-checked on the liveness question of the system as written
// (carryLiveVia), its justice conditions the same (the merge keeps the
// list, rewritten over x, in order; it takes no system with weak
// fairness). A fair lasso is not carried: its steps that take would
// need a copy chosen on every round of its loop, where the places may
// hold the tokens otherwise each time, so the loop of the system as
// written may be longer; the property is asked again as written.

// sumMerging lets the tests turn the merge off.
var sumMerging = true

// checkMerged is checkSliced on sys, with its safety properties asked
// of sys with one pair of shared variables merged (MergeSums) when it
// has one, and carried back; the merged system may have another pair,
// merged in turn.
func checkMerged(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, opts ...Option) (*Report, error) {
	if !sumMerging {
		return checkSliced(ctx, sys, prover, solver, opts...)
	}
	mg, ok, err := sys.MergeSums()
	if err != nil {
		return nil, errkind.Errorf(errkind.Internal, "prove: merging a counter written as two places: %w", err)
	}
	var routed []int
	if ok {
		for i := range sys.Properties {
			f := sys.Properties[i].Formula
			if _, _, safety := counterabs.PremisedSafety(f); safety || IsLiveness(f) {
				routed = append(routed, i)
			}
		}
	}
	if len(routed) == 0 {
		return checkSliced(ctx, sys, prover, solver, opts...)
	}
	sub, err := checkMerged(ctx, mg.System.WithProperties(routed...), prover, solver, progressAs(sys, routed, opts)...)
	if err != nil {
		return nil, err
	}
	a, b := sys.Shared[mg.A].Name, sys.Shared[mg.B].Name
	x := mg.System.Shared[mg.X].Name
	sums := map[string][]string{x: {a, b}}
	checker := checkerOf(solver, opts)
	given := newGivenModels(sys, checker)
	rep := &Report{System: sys, Results: make([]Result, len(sys.Properties)), Cert: sub.Cert, Scope: sub.Scope}
	done := make([]bool, len(sys.Properties))
	again := make([]bool, len(sys.Properties)) // refuted on the merged system, the run not carried
	note := "; " + a + " and " + b + " read as one counter, their sum (each step that takes from them written once per way of sharing it out)"
	joint := newJointCarry()
	for k, i := range routed {
		joint.add(sys.Properties[i].Name, &sub.Results[k])
	}
	for k, i := range routed {
		r := sub.Results[k]
		r.Property = &sys.Properties[i]
		switch r.Verdict {
		case Proved:
			if r.Live != nil && len(r.Parts) == 0 {
				carried, err := carrySumsLive(ctx, checker, given.liveModel(), mg, sums, sys.Properties[i].Name, &r)
				if err != nil {
					return nil, err
				}
				if !carried {
					continue
				}
				r.Sliced = nil
				r.LevelReason += note + ", the certificate re-checked on the system as written"
				break
			}
			if r.proof == nil || r.Invariant == nil || r.Live != nil || len(r.Parts) > 0 {
				continue
			}
			level := r.proof.m.Level
			carried, err := joint.carry(sys.Properties[i].Name, &r, func(names []string, r *Result) (bool, error) {
				return carryIntoSums(ctx, given.at(ctx, level), names, checker, r, sums)
			})
			if err != nil {
				return nil, err
			}
			if !carried {
				continue
			}
			r.Sliced = nil
			if r.LevelReason != "" {
				r.LevelReason += note + ", the invariant re-checked on the system as written"
			}
		case Refuted:
			if !carryMergedRun(ctx, sys, mg, i, &r) {
				again[i] = true
				continue
			}
			r.Sliced = nil
			if r.LevelReason != "" {
				r.LevelReason += note + ", the run replayed on the system as written"
			}
		}
		// Proved and carried, refuted and replayed, or neither (unknown,
		// skipped: the same question of a bisimilar system).
		rep.Results[i], done[i] = r, true
	}
	var left []int
	for i := range sys.Properties {
		if !done[i] {
			left = append(left, i)
		}
	}
	if len(left) == 0 {
		return rep, nil
	}
	// The properties the merge does not take, and the answers that did
	// not carry, asked as written.
	whole, err := askAsWritten(ctx, sys, rep, left, again, checkSliced, prover, solver, opts)
	if err != nil {
		return nil, err
	}
	if rep.Scope == "" {
		rep.Scope = whole.Scope
	}
	return rep, nil
}

// carryMergedRun carries the run of res, found on an instance of the
// merged system of mg, to the instance of sys at the same values and
// replays it there (replayStates), property index of sys being what it
// refutes: each step is taken again by the same processes, by the
// first of the copies it stands for (mg.Steps) that the configuration
// enables, that is the one that takes from the place holding the
// tokens; the merge's argument says one is enabled. ok is false, with
// res unchanged, when the run does not carry: a lasso, fairness with
// justice (the fair run is explore's), a step no copy can take.
func carryMergedRun(ctx context.Context, sys *gsst.System, mg *gsst.Merged, index int, res *Result) bool {
	inst, premise, phi, ok := safetyRunAt(sys, index, res)
	if !ok {
		return false
	}
	tr := res.Trace
	merged := res.Instance
	// The merged variable's index in the merged system of each shared
	// variable of sys (B none: A's is the sum).
	at := func(j int) int {
		if j > mg.B {
			return j - 1
		}
		return j
	}
	from := startConfig(res)
	if len(from.Shared) != len(merged.Shared) || len(from.Counts) != len(inst.Groups) {
		return false
	}
	start := gsst.Config{Counts: make([][]int, len(from.Counts)), Params: slices.Clone(from.Params)}
	for g := range from.Counts {
		start.Counts[g] = slices.Clone(from.Counts[g])
	}
	start.Shared = make([]int, len(inst.Shared))
	for j := range inst.Shared {
		switch j {
		case mg.A, mg.B:
			start.Shared[j] = inst.Shared[j].Init // one initial value each
		default:
			start.Shared[j] = from.Shared[at(j)]
		}
	}
	if start.Shared[mg.A]+start.Shared[mg.B] != from.Shared[mg.X] {
		return false
	}
	procs := inst.NewProcs(start)
	steps, mergedSteps := inst.Steps(), merged.Steps()
	out := &explore.Trace{Kind: tr.Kind, Loop: -1, Segments: slices.Clone(tr.Segments)}
	withGroups := tr.States[0].Groups != nil
	record := func() { out.States = append(out.States, stateOf(inst, procs.View(), withGroups)) }
	record()
	for _, st := range tr.Lifted.Steps {
		if st.Stutter {
			return false
		}
		step, movers, err := explore.StepOf(merged, st)
		if err != nil {
			return false
		}
		k := -1
		for i := range mergedSteps {
			if &mergedSteps[i] == step {
				k = i
			}
		}
		if k < 0 || k >= len(mg.Steps) {
			return false
		}
		taken := false
		for _, o := range mg.Steps[k] {
			transferred, shared, err := inst.CheckMovers(&steps[o], procs, movers)
			if err != nil {
				continue
			}
			procs.Take(movers, transferred, shared)
			taken = true
			break
		}
		if !taken {
			return false
		}
		record()
	}
	if len(out.States) != len(tr.States) {
		return false
	}
	for k := range out.States {
		got, want := out.States[k], tr.States[k]
		if !slices.Equal(got.Counters, want.Counters) || len(got.Shared) != len(inst.Shared) || len(want.Shared) != len(merged.Shared) {
			return false
		}
		for j := range inst.Shared {
			if j != mg.A && j != mg.B && got.Shared[j] != want.Shared[at(j)] {
				return false
			}
		}
		if got.Shared[mg.A]+got.Shared[mg.B] != want.Shared[mg.X] {
			return false
		}
	}
	inst, ok = replayStates(ctx, inst, out, premise, phi)
	if !ok {
		return false
	}
	res.Instance, res.Trace = inst, out
	return true
}

// carrySumsLive carries the liveness certificate of res, found on the
// merged system of mg or its slice (res.Sliced), whose model names its
// variables, to property name on live, the liveness model of the
// system as written (carryLiveVia), x read as the sum of its places.
func carrySumsLive(ctx context.Context, solver presburger.Solver, live *counterabs.ParamModel, mg *gsst.Merged, sums map[string][]string, name string, res *Result) (bool, error) {
	from := mg.System
	if res.Sliced != nil {
		from = res.Sliced
	}
	return carryLiveVia(ctx, solver, live, from, name, res, liftMap{sums: sums})
}
