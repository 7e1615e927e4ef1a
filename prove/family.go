package prove

import (
	"context"
	"maps"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// A system whose group has one fixed size of many processes (Cubicle's
// crash as one instance of 1,000) is an instance of the family where
// that group has any size from 1 (gsst's WithRangedSizes), and what
// holds for every size holds there. The family's model is often the
// easier one: its initial states are upward closed where the instance
// fixes a count or a sum at 1,000, which the backward search counts up
// to, or does not read at all beyond maxFixedTotal (cover.go). So the
// cheap steps are tried on the family too (proveOnFamily: before the
// instance's backward search or after its lemmas, familyModel.first),
// and an invariant found there is checked on the instance's own model
// like every invariant: nothing of the family is taken on trust. Crash
// at 1,000 ended unknown after 22 s and is proved in 0.3 s.

// familyModel is the model of that family, with a property's premise
// and phi there. first says that the family is tried before the
// instance's backward search, which counts the instance's 1,000
// processes (Cubicle's germanish4 and mist's queuedbusyflag at 1,000:
// 1.4 and 1.5 s, 0.3 s with the family first), unless a guard
// compares with a constant beyond maxFixedTotal that is no cap
// (largeConstant): then the family's search counts up to it too, and the family comes after the lemmas
// (ByMC's cc at n = 1,000, thresholds of 500: 0.9 s with the family
// first, where the lemmas prove it in 0.1 s).
type familyModel struct {
	m            *counterabs.ParamModel
	premise, phi presburger.Formula
	first        bool
}

// largeConstant says whether some guard of m compares with a constant
// beyond maxFixedTotal that the backward search would count up to. A
// cap does not count: an upper bound on a sum of variables with no
// greatest value, weights of one sign ("#S <= 1000"), which the search
// reads lossily (lossy.go) and never counts to. A fixed size written
// as n reads as its value, and the family keeps it: Cubicle's crash at
// 1,000 with the guards' "#S <= n" that the types imply written out
// went after the lemmas, 2.8 s, where it takes 0.6 s with the family
// first.
func largeConstant(m *counterabs.ParamModel) bool {
	unbounded := map[presburger.Var]bool{}
	for _, b := range m.Ranges() {
		if b.NoHi {
			unbounded[b.Var] = true
		}
	}
	return slices.ContainsFunc(m.Transitions, func(t counterabs.ParamTransition) bool { return largeIn(t.Guard, unbounded) })
}

// largeIn says whether f has an atom with a constant beyond
// maxFixedTotal that is no cap (isCap) over the variables unbounded
// says have no greatest value.
func largeIn(f presburger.Formula, unbounded map[presburger.Var]bool) bool {
	switch f := f.(type) {
	case presburger.Cmp:
		if f.T.Const <= maxFixedTotal && f.T.Const >= -maxFixedTotal {
			return false
		}
		return !isCap(f, unbounded)
	case presburger.Not:
		// A negated cap is a lower bound.
		if c, ok := f.F.(presburger.Cmp); ok {
			return largeIn(presburger.Negation(c), unbounded)
		}
		return largeIn(f.F, unbounded)
	case presburger.And:
		return slices.ContainsFunc(f, func(g presburger.Formula) bool { return largeIn(g, unbounded) })
	case presburger.Or:
		return slices.ContainsFunc(f, func(g presburger.Formula) bool { return largeIn(g, unbounded) })
	case presburger.Exists:
		return largeIn(f.Body, unbounded)
	}
	return false
}

// isCap says whether atom c bounds from above a sum of the variables
// unbounded says have no greatest value, with weights of one sign: "t
// <= 0" or "t < 0" with t's weights positive, "t >= 0" or "t > 0" with
// them negative.
func isCap(c presburger.Cmp, unbounded map[presburger.Var]bool) bool {
	if len(c.T.Monos) == 0 {
		return false
	}
	sign := c.T.Monos[0].Coef > 0
	for _, mo := range c.T.Monos {
		if !unbounded[mo.Var] || mo.Coef == 0 || (mo.Coef > 0) != sign {
			return false
		}
	}
	switch c.Op {
	case presburger.Le, presburger.Lt:
		return sign
	case presburger.Ge, presburger.Gt:
		return !sign
	}
	return false
}

// familyModelOf returns the model of the family of sys (WithRangedSizes
// beyond searchMax) at the level of m (total, the total-counter model
// of the properties totalProps, or the group-counter model of
// groupProps), nil when sys has no such group or the family's model is
// of another level (its variables would not be the instance's).
func familyModelOf(ctx context.Context, sys *gsst.System, m, total *counterabs.ParamModel, totalProps, groupProps []int, solver, checker presburger.Solver) (*counterabs.ParamModel, error) {
	family, ok, err := sys.WithRangedSizes(searchMax)
	if err != nil || !ok {
		return nil, err
	}
	var fm *counterabs.ParamModel
	if m == total {
		fm, err = counterabs.BuildParam(ctx, family.WithProperties(totalProps...), solver, counterabs.RunSteps(), counterabs.FirstViolation())
	} else {
		fm, err = counterabs.BuildParamGroup(family.WithProperties(groupProps...), counterabs.RunSteps())
	}
	if err != nil {
		return nil, err
	}
	fm.ShortenSums() // as the system's own model (check)
	if fm.Level != m.Level || fm.NumVars() != m.NumVars() {
		return nil, nil
	}
	return firing(ctx, checker, fm)
}

// proveOnFamily tries the cheap steps of proveOne (cfg.cheapOnly) on
// the family f of m's system, and checks an invariant they find on ts,
// m's own transition system (tryProof): ok when it holds there. A run
// they find, at some sizes of the family, is carried to m's instance
// (familyRun) and taken when it replays on ts, then on the instance
// (answer): the family's run of three of Cubicle's germanish6
// processes, the other 997 of the instance idle, refutes it at a
// thousand, where the instance's own search took three times as long
// as the family's.
func proveOnFamily(ctx context.Context, cfg config, m *counterabs.ParamModel, ts presburger.TransitionSystem, f *familyModel, name string, prover presburger.Prover, solver presburger.Solver, res *Result) (ok bool, err error) {
	fcfg := cfg
	fcfg.cheapOnly, fcfg.timeout = true, 0
	var fres Result
	if err := proveOne(ctx, fcfg, f.m, f.premise, f.phi, name, nil, nil, prover, solver, &fres); err != nil {
		return false, err
	}
	if fres.Verdict == Refuted && fres.run != nil {
		run, lifted := familyRun(m, f.m, ts, *fres.run)
		if !lifted || presburger.Replay(ctx, solver, ts, run) != nil {
			return false, nil
		}
		res.Method = fres.Method
		res.LevelReason += "; the run was found on the family where the groups of a fixed size have any size from 1, and replayed on this model with the processes it adds in their initial states"
		return true, answer(ctx, cfg, m, ts, presburger.SafetyAnswer{Verdict: presburger.Refuted, Counterexample: &run}, nil, name, solver, res)
	}
	if fres.Verdict != Proved || fres.Invariant == nil {
		return false, nil
	}
	ok, err = tryProof(ctx, cfg, m, ts, solver, res, fres.Method, fres.Invariant, false)
	if ok {
		res.LevelReason += "; the invariant was found on the family where the groups of a fixed size have any size from 1, and checked on this model"
	}
	return ok, err
}

// familyRun carries run, a run of the family's model fm, to m, the model
// of one of its instances: the parameters that m's domain fixes (the
// sizes of the groups the family let range) take their values there, n
// is the sum of the sizes, and every state variable is moved by what
// its initial value at those parameters adds to its initial value at
// the run's (a group of 1,000 processes that start in one state has
// 997 more there than the family's run of 3), in every state of the
// run. The processes added then take no step. Nothing of this is
// taken on trust: ok says only that the values fit, and the caller
// replays the run on m's system (a broadcast or a guard that reads the
// added processes makes the replay fail, and the run is not taken).
func familyRun(m, fm *counterabs.ParamModel, ts presburger.TransitionSystem, run presburger.Counterexample) (lifted presburger.Counterexample, ok bool) {
	if len(run.States) == 0 {
		return lifted, false
	}
	fixed := map[presburger.Var]int64{}
	for _, b := range presburger.Intersect(ts.Domain) {
		if !b.NoLo && !b.NoHi && b.Lo == b.Hi {
			fixed[b.Var] = b.Lo
		}
	}
	params := maps.Clone(run.Params)
	for _, v := range ts.Params {
		if x, ok := fixed[v]; ok {
			params[v] = x
		}
	}
	if _, has := params[m.NVar()]; has {
		n := int64(0)
		for g := range m.System.Groups {
			var fits bool
			if n, fits = checked.Add(n, params[m.SizeVar(g)]); !fits {
				return lifted, false
			}
		}
		params[m.NVar()] = n
	}
	delta := make([]int64, m.NumState())
	for i := range delta {
		at, _ := m.InitialValue(i)
		was, _ := fm.InitialValue(i)
		x, ok1 := at.Value(func(v presburger.Var) int64 { return params[v] })
		y, ok2 := was.Value(func(v presburger.Var) int64 { return run.Params[v] })
		var fits bool
		if delta[i], fits = checked.Add(x, -y); !ok1 || !ok2 || !fits {
			return lifted, false
		}
	}
	lifted = presburger.Counterexample{Params: params, Steps: slices.Clone(run.Steps), States: make([]presburger.Model, len(run.States))}
	for k, st := range run.States {
		st = maps.Clone(st)
		for i, d := range delta {
			v := m.StateVar(i)
			var fits bool
			if st[v], fits = checked.Add(st[v], d); !fits {
				return lifted, false
			}
		}
		lifted.States[k] = st
	}
	return lifted, true
}
