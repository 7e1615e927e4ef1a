package prove_test

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestPruneSelectRandom checks prune (lemma.go) asking its questions
// through one incremental question (a presburger.Selector) and asking
// each anew, on the survivors of Houdini's filter on random systems,
// with the model's linear invariants as facts: each keeps a part of
// the lemmas whose conjunction, with the facts and the conditions on
// the parameters, implies every lemma (asked of the solver, one lemma
// at a time), and the incremental one drops some lemma on some system.
// Also so asked without the pivots of the linear invariants (the
// liveness questions' prune), on every system that has one. The
// modes may keep different parts (Z3's models differ), so their parts
// are not compared.
func TestPruneSelectRandom(t *testing.T) {
	systems := 40
	if testing.Short() {
		systems = 12
	}
	r := rand.New(rand.NewSource(29))
	s := z3.New()
	ctx := context.Background()
	dropped, asked, withoutPivots := 0, 0, 0
	for i := range systems {
		sys := testsupport.RandomSystem(r, constructsConfig(i))
		m, ts, cands := selectCandidates(t, sys)
		lemmas, err := prove.Houdini(ctx, s, ts, cands)
		if err != nil {
			t.Fatal(err)
		}
		if len(lemmas) < 2 {
			continue
		}
		invs, _ := prove.LinearInvariants(m)
		facts := presburger.Conj(invs...)
		for _, mode := range []string{"selection", "anew", "without the pivots"} {
			anew := mode == "anew"
			restore := func() {}
			if anew {
				restore = prove.PruneAsksAnew()
			}
			var kept []presburger.Formula
			if mode == "without the pivots" {
				var reduced bool
				if kept, reduced = prove.Prune(ctx, s, m, ts, lemmas, facts); reduced {
					withoutPivots++
				}
			} else {
				kept, _ = prove.Prune(ctx, s, nil, ts, lemmas, facts)
			}
			restore()
			for _, k := range kept {
				if !slices.ContainsFunc(lemmas, func(l presburger.Formula) bool { return m.FormatFormula(l) == m.FormatFormula(k) }) {
					t.Fatalf("system %d (%s): prune keeps %s, which is no lemma given", i, mode, m.FormatFormula(k))
				}
			}
			base := presburger.Conj(prove.ParamPart(ts), facts, presburger.Conj(kept...))
			for _, l := range lemmas {
				a, err := s.Solve(ctx, presburger.Problem{Bounds: ts.Domain, F: presburger.Conj(base, presburger.Negation(l))})
				if err != nil {
					t.Fatal(err)
				}
				if a.Result != presburger.Unsat {
					t.Fatalf("system %d (%s): the %d lemmas prune keeps do not imply %s (%v)\n%s", i, mode, len(kept), m.FormatFormula(l), a.Result, testsupport.Describe(sys))
				}
			}
			if mode == "selection" {
				asked++
				dropped += len(lemmas) - len(kept)
			}
		}
	}
	t.Logf("%d systems pruned, %d lemmas dropped through the selection; %d pruned without the pivots", asked, dropped, withoutPivots)
	if asked == 0 || dropped == 0 {
		t.Fatalf("the selection dropped no lemma on any of %d systems", asked)
	}
	if withoutPivots == 0 {
		t.Fatalf("no system of %d was pruned without the pivots of its linear invariants", asked)
	}
}
