package prove

import (
	"context"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// maxOthersRounds bounds the queries of byOthers on one set of
// invariants.
const maxOthersRounds = 16

// byOthers proves, by invs, the invariants proved for other safety
// properties of m (without a premise), those of the properties names
// (of m, without a premise) that together they imply, and records each
// proof in implied by name. Each of invs is an inductive invariant from
// m's initial states, and so is their conjunction, which is then checked
// as any invariant (tryProof), once for all the properties it proves:
// of a system whose bad states falsify any of them. Which ones it
// implies is asked of all of them at once, and, while a model of the
// query falsifies some, again without those, at most maxOthersRounds
// times: a file that writes mist's thousands of targets of
// ME_250_bigtarget as properties, two of which fail, has one invariant
// found for the first that implies the others, and a query and a check
// for each of them took minutes. Another use: mist's four targets of
// firefly written as four properties have one invariant, found for the
// first, that implies another, which alone costs the prover's whole
// budget in vain.
func byOthers(ctx context.Context, cfg config, m *counterabs.ParamModel, names []string, invs []presburger.Formula, solver presburger.Solver, implied map[string]Result) error {
	if len(invs) == 0 || len(names) == 0 {
		return nil
	}
	start := time.Now()
	inv := presburger.Conj(invs...)
	phis := map[string]presburger.Formula{}
	for _, n := range names {
		_, phis[n] = premisedSafetyOf(m, n)
	}
	conj := func(names []string) presburger.Formula {
		var fs []presburger.Formula
		for _, n := range names {
			fs = append(fs, phis[n])
		}
		return presburger.Conj(fs...)
	}
	rest := names
	for round := 0; ; round++ {
		if round == maxOthersRounds || ctx.Err() != nil {
			return nil
		}
		a, err := solver.Solve(ctx, presburger.Problem{Bounds: m.Ranges(), F: presburger.Conj(inv, presburger.Negation(conj(rest)))})
		if err != nil || a.Result == presburger.Unknown {
			return nil // the solver cannot tell: each property's own search decides
		}
		if a.Result == presburger.Unsat {
			break
		}
		var kept []string
		for _, n := range rest {
			if !violatedAt(phis[n], a.Model) {
				kept = append(kept, n)
			}
		}
		if len(kept) == len(rest) || len(kept) == 0 {
			return nil
		}
		rest = kept
	}
	ts := m.TransitionSystem().Question(presburger.Negation(conj(rest)))
	res := Result{Level: m.Level, LevelReason: m.Reason}
	if ok, err := tryProof(ctx, cfg, m, ts, solver, &res, ByOthers, inv, false); err != nil || !ok || res.Verdict != Proved {
		return err
	}
	res.Duration = time.Since(start)
	for _, n := range rest {
		implied[n] = res
	}
	return nil
}
