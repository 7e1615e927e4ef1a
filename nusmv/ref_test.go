package nusmv

// The reference the emitted models are checked against: the oracles of
// internal/testsupport (the existential abstraction by brute force, the
// unreduced state space and its group quotient, CTL by textbook
// fixpoints), and a counter model built from the brute-force abstraction
// rather than by counterabs.Build, so that the emitters are tested on
// their own.

import (
	"fmt"
	"math/rand"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// refModel builds the total-counter model by definition: g_r holds at a
// counter vector exactly when some configuration with those totals
// enables r (the existential abstraction of section 5), enumerated by
// testsupport.BruteForce. Transitions whose guards use total counters
// only get the paper's case (a)/(b) formula, checked here against the
// enumeration; the others get the enumerated points as a disjunction.
func refModel(sys *gsst.System) (*counterabs.Model, error) {
	b := testsupport.BruteForce(sys)
	var trans []counterabs.Transition
	for r := range sys.Transitions {
		t := &sys.Transitions[r]
		if len(t.Blocks) == 0 {
			continue // no process may take it: no step of the system
		}
		ct := counterabs.Transition{From: t.From, To: t.To, Local: r, Group: -1, Case: counterabs.CaseProjection, Guard: b.Guard(r)}
		allTotal := true
		var gs []presburger.Formula
		for _, blk := range t.Blocks {
			allTotal = allTotal && sys.IsTotal(blk.Guard)
			gs = append(gs, blk.Guard)
		}
		if allTotal {
			g := presburger.Conj(presburger.Compare(presburger.VarTerm(presburger.Var(t.From)), presburger.Ge, presburger.ConstTerm(1)), presburger.Disj(gs...))
			for _, x := range b.Vectors {
				val := func(v presburger.Var) int64 { return int64(x[v]) }
				if presburger.Eval(g, val) != b.EnabledAt(r, x) {
					return nil, fmt.Errorf("refModel: case (a)/(b) guard of %s disagrees with the enumeration at %v", sys.TransitionName(t), x)
				}
			}
			ct.Guard, ct.Case = g, counterabs.CaseB
			if len(t.Blocks) == 1 {
				ct.Case = counterabs.CaseA
			}
		}
		trans = append(trans, ct)
	}
	m, err := counterabs.Assemble(sys, counterabs.TotalLevel, trans, b.Certified())
	if err == nil && !m.Exact {
		// The forced model stutters wherever some configuration with
		// those totals is deadlocked (counterabs.Model.MayDeadlock).
		m.MayDeadlock = b.MayDeadlock()
	}
	return m, err
}

// reference returns the oracle's graph that the emitted model of m must
// have and the key of an emitted state (the values of the model's
// counters, in order) in it: the existential abstraction for a
// total-counter model (certified or forced: for a certified system it is
// the total quotient of the unreduced space), the group quotient of the
// unreduced space for a group-counter model.
func reference(m *counterabs.Model) (*testsupport.Graph, func(x []int) string) {
	if m.Level == counterabs.TotalLevel {
		return testsupport.BruteForce(m.System).Graph(), testsupport.TotalKey
	}
	return testsupport.Unreduced(m.System).Groups(), func(x []int) string { return testsupport.GroupKey(m.Groups(x)) }
}

// randomSystem returns a small random system of the paper: names that
// collide with NuSMV's and the emitters' own, mixed guards over total
// and group counters, at most maxN processes, two random CTL properties
// over total counters and a third that may read group counters.
func randomSystem(r *rand.Rand, maxN int) *gsst.System {
	return testsupport.RandomSystem(r, randomConfig(maxN))
}

// randomConfig is what randomSystem draws.
func randomConfig(maxN int) testsupport.Config {
	return testsupport.Config{MaxSize: 2, MaxProcesses: maxN, MaxTransitions: 5, Names: testsupport.NuSMVNames,
		Properties: 3, GroupProperties: 1}
}
