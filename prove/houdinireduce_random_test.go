package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestHoudiniFactsRandom cross-checks Houdini's filter asked without
// the variables that the linear invariants define (houdinireduce.go)
// on random systems with shared variables, parameters, broadcasts and
// rendezvous:
//
//   - it keeps the same candidates, in the same order, as the filter
//     asked of the system strengthened by the invariants (the largest
//     inductive part is one, whatever the queries);
//   - every candidate kept holds in every state that the independent
//     exploration of constructs_random_test.go reaches at the instances
//     it covers;
//   - a question on one state, with the invariants, has the same answer
//     asked with and without those variables (factPivots.problem, which
//     the liveness questions read), on each candidate's negation.
//
// The candidates are each variable at most n (which holds only with the
// ranges of the variables the invariants define, read before the
// step), pairs of variables bounded by their initial sums, the
// monotone combinations and the counts of entries, most of which fail,
// some only after a step (24 systems, seed 29, every one with
// variables to substitute; under -short 12).
func TestHoudiniFactsRandom(t *testing.T) {
	systems := 24
	if testing.Short() {
		systems = 12
	}
	if bad := houdiniFactsMismatch(systems); bad != "" {
		t.Fatal(bad)
	}
}

// houdiniFactsMismatch runs the checks of TestHoudiniFactsRandom on the
// given number of random systems and returns the first failure, or "".
func houdiniFactsMismatch(systems int) string {
	r := rand.New(rand.NewSource(29))
	s := z3.New()
	ctx := context.Background()
	reducedSystems, kept, asked, checked := 0, 0, 0, 0
	for i := range systems {
		sys := testsupport.RandomSystem(r, constructsConfig(i))
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			return err.Error()
		}
		ts := m.TransitionSystem().Question(presburger.False)
		// Each variable at most n, alone: inductive only with the
		// ranges of the variables the invariants define, read before
		// the step (with the pairs below, the pairs suffice).
		var bounds []presburger.Formula
		n := presburger.VarTerm(m.NVar())
		for a := range m.NumState() {
			bounds = append(bounds, presburger.Compare(presburger.VarTerm(m.StateVar(a)), presburger.Le, n))
		}
		cands := boundedPairs(m)
		mono, _ := prove.MonotoneCandidates(m)
		cands = append(append(cands, mono...), prove.EntryCounts(m)...)
		format := func(fs []presburger.Formula) []string {
			var out []string
			for _, f := range fs {
				out = append(out, m.FormatFormula(f))
			}
			return out
		}
		var withFacts []presburger.Formula
		for _, cs := range [][]presburger.Formula{bounds, cands} {
			with, plain, reduced, err := prove.HoudiniFacts(ctx, s, m, ts, cs)
			if err != nil {
				return err.Error()
			}
			if !slices.Equal(format(with), format(plain)) {
				return fmt.Sprintf("system %d: the filter without the defined variables keeps %v, on the strengthened system %v\n%s",
					i, format(with), format(plain), testsupport.Describe(sys))
			}
			if reduced {
				reducedSystems++
			}
			withFacts = append(withFacts, with...)
		}
		kept += len(withFacts)
		for _, inst := range testsupport.Instances(sys, extParamMax, extSizeMax) {
			for _, st := range explore(sys, inst) {
				val := modelValuation(m, inst, st)
				for _, f := range withFacts {
					checked++
					if !presburger.Eval(f, val) {
						return fmt.Sprintf("system %d: the filter keeps %s, which a reachable state at %v violates\n%s",
							i, m.FormatFormula(f), inst.Params, testsupport.Describe(sys))
					}
				}
			}
		}
		for _, f := range append(bounds, cands...) {
			q := presburger.Negation(f)
			plain, red, ok, err := prove.FactsQuestion(ctx, s, m, ts, q)
			if err != nil {
				return err.Error()
			}
			if !ok {
				continue
			}
			asked++
			if plain != red {
				return fmt.Sprintf("system %d: %s with the linear invariants is %v, without the variables they define %v\n%s",
					i, m.FormatFormula(q), plain, red, testsupport.Describe(sys))
			}
		}
	}
	if reducedSystems < systems || kept == 0 || checked == 0 || asked == 0 {
		return fmt.Sprintf("too little checked: %d of %d systems with defined variables, %d candidates kept, %d readings, %d questions",
			reducedSystems/2, systems, kept, checked, asked)
	}
	return ""
}
