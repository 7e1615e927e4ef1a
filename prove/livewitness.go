package prove

import (
	"slices"

	"github.com/vsym/vsym/presburger"
)

// The search for a liveness certificate (rank.go: synthesize) asks
// many questions of one state, most of the form "is there a pending
// state of the invariant where this step does that", and a third of
// them are satisfiable. A satisfiable question cost Z3 more than an
// unsatisfiable one (it builds and checks a model): on ByMC's c1cs
// (testdata/bymc) 35 of the 138 questions took two thirds of their
// time. The states the sample reached (sample.go) at the small
// instances are states of the question's system, in its domain; every
// one satisfies the invariant, and those where the monitor is set are
// what these questions are about. A question that one of them
// satisfies, read by presburger.Eval on its values, is satisfiable:
// that is the answer, without a query. The answer is the one Z3 gives
// (a formula with a model is satisfiable), so the search takes the
// same course; a question no state satisfies is asked of the solver,
// as before. Only "satisfiable" is ever answered so, which proves
// nothing: every certificate is still re-checked by the solver alone.

// liveWitnessesOn is false, and onLiveWitness set (called with each
// question the witnesses answer), only in the tests of this file's
// answers (export_test.go).
var (
	liveWitnessesOn = true
	onLiveWitness   func(presburger.Problem)
)

// liveWitnesses is the part of a sample that the questions read: the
// states where the monitor is set, each a valuation indexed by
// presburger.Var, and the variables they value.
type liveWitnesses struct {
	states [][]int64
	known  map[presburger.Var]bool
}

// maxLiveWitnesses bounds the states tried on each question: a question
// no state satisfies reads every one.
const maxLiveWitnesses = 300

// witnessesOf keeps, of the states of smp, those in the domain of
// lq.ts where the monitor is set, at most maxLiveWitnesses of them.
func (lq *liveQuestion) witnessesOf(smp reachSample) liveWitnesses {
	w := liveWitnesses{known: smp.known}
	if !smp.known[lq.pending] {
		return liveWitnesses{}
	}
	dom := domainBounds(lq.ts.Domain)
	for _, x := range smp.states {
		if len(w.states) >= maxLiveWitnesses {
			break
		}
		if int(lq.pending) >= len(x) || x[lq.pending] != 1 {
			continue
		}
		in := true
		for v, b := range dom {
			if int(v) >= len(x) || !smp.known[v] || !b.Contains(x[v]) {
				in = false
				break
			}
		}
		if in {
			w.states = append(w.states, x)
		}
	}
	return w
}

// satisfied reports whether some state of w satisfies f, a formula
// without quantifiers over the variables w values. The conjuncts of f
// are read last first: a question states the invariant, which every
// state satisfies, before what it asks of the step.
func (w liveWitnesses) satisfied(f presburger.Formula) bool {
	if len(w.states) == 0 || !presburger.IsQuantifierFree(f) {
		return false
	}
	if slices.ContainsFunc(presburger.FreeVars(f), func(v presburger.Var) bool { return !w.known[v] }) {
		return false
	}
	parts := presburger.Conjuncts(f)
	slices.Reverse(parts)
	for _, x := range w.states {
		val := func(v presburger.Var) int64 { return x[v] }
		if !slices.ContainsFunc(parts, func(g presburger.Formula) bool { return !presburger.Eval(g, val) }) {
			return true
		}
	}
	return false
}
