package prove

import (
	"context"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// A group list that no run reads (gsst's FreeGroups: a part, block or
// transfer restricted to controllers, groups of one process, that alone
// may ever be in its source state) keeps certification from finding a
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
// (carryLiveVia). A proof that does not carry, every refutation (asked
// as written, its run says which group's processes take each step) and
// every unknown answer (the same question, which the stages may find
// easier as written) are asked again of the system as written; a
// skipped answer (a form prove does not decide) stands. So the
// argument that the runs are the same is no part of the evidence: were
// a list dropped that some run reads (a dropped transfer's list moves
// other processes too, so the free system need not even have more
// runs), a proof of the free system would fail its re-check, and no
// run of it is reported.

// groupFreeing lets the tests turn the freeing off.
var groupFreeing = true

// checkGroupsFreed is checkGroupsMerged on sys, with its properties
// asked of sys.FreeGroups() when that drops a list, and carried back.
func checkGroupsFreed(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, opts ...Option) (*Report, error) {
	if !groupFreeing || len(sys.Properties) == 0 {
		return checkGroupsMerged(ctx, sys, prover, solver, opts...)
	}
	free, ok, err := sys.FreeGroups()
	if err != nil {
		return nil, errkind.Errorf(errkind.Internal, "prove: dropping the group lists no run reads: %w", err)
	}
	if !ok {
		return checkGroupsMerged(ctx, sys, prover, solver, opts...)
	}
	sub, err := checkGroupsMerged(ctx, free, prover, solver, opts...)
	if err != nil {
		return nil, err
	}
	checker := checkerOf(solver, opts)
	given := newGivenModels(sys, checker)
	rep := &Report{System: sys, Results: make([]Result, len(sys.Properties)), Scope: sub.Scope}
	if sub.Cert != nil {
		// The report's certification is of the system as written: the
		// free one's may be symmetric where this one's is not.
		if rep.Cert, err = detect.Certify(ctx, sys, solver); err != nil {
			return nil, err
		}
	}
	var left []int
	// The free system's reason, said to be of the system with the lists
	// dropped: the report's certification and model are of the system
	// as written, so the reason says which system its words are about.
	const note = "the system with the group lists no run reads dropped (only those groups ever enter the states they move out of) asked instead: "
	for i := range sys.Properties {
		r := sub.Results[i]
		r.Property = &sys.Properties[i]
		switch r.Verdict {
		case Proved:
			carried, err := carryFreed(ctx, sys, free, given, checker, i, &r)
			if err != nil {
				return nil, err
			}
			if !carried {
				left = append(left, i)
				continue
			}
			r.Sliced = nil
			r.LevelReason = note + r.LevelReason + "; the certificate re-checked on the system as written"
		case Refuted:
			// Asked again as written: the free system's run counts the
			// processes in each state, where the run as written says
			// which group's are there.
			left = append(left, i)
			continue
		case Unknown:
			// Asked again as written, whose question may be the easier
			// one for the stages that answer it.
			left = append(left, i)
			continue
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
	// refutation that failed to carry): the free system's runs are asked
	// again by design, and a stage as written (slicing, merging) that
	// then fails to carry its own run marks it itself.
	whole, err := askAsWritten(ctx, sys, rep, left, make([]bool, len(sys.Properties)), checkGroupsMerged, prover, solver, opts)
	if err != nil {
		return nil, err
	}
	if whole.Scope != "" {
		rep.Scope = whole.Scope
	}
	return rep, nil
}

// carryFreed carries the proof res of property index of free (sys with
// group lists dropped) to sys: ok says that res now holds a certificate
// re-checked on sys's own model; false, with res unchanged, when the
// proof is none that carries (a proof part by part, a family explored
// whole) or the re-check fails or cannot decide.
func carryFreed(ctx context.Context, sys, free *gsst.System, given *givenModels, solver presburger.Solver, index int, res *Result) (bool, error) {
	if len(res.Parts) > 0 || res.Invariant == nil {
		return false, nil
	}
	if res.Live != nil {
		fromSys := free
		if res.Sliced != nil {
			fromSys = res.Sliced
		}
		return carryLiveVia(ctx, solver, liveModelOf(sys), fromSys, sys.Properties[index].Name, res, liftMap{})
	}
	if res.proof == nil || res.Trace != nil {
		return false, nil
	}
	to := given.at(ctx, res.proof.m.Level)
	if to == nil {
		return false, nil
	}
	from := res.proof.m
	// The counters firing found stay 0 on sys's model (a process of a
	// group in a state only another group enters): the free system has
	// no such counter, and its invariant is inductive as written only
	// with them.
	carried, err := carryIntoVia(ctx, to, []string{sys.Properties[index].Name}, solver, res, liftMap{given: cutFacts(to)})
	if err != nil || !carried {
		return false, err
	}
	res.Lemmas = liftLemmasVia(from, to, res.Lemmas, liftMap{}, to.VarName)
	return true, nil
}
