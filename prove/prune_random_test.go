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
// The two may keep different parts (Z3's models differ), so their
// parts are not compared.
func TestPruneSelectRandom(t *testing.T) {
	systems := 40
	if testing.Short() {
		systems = 12
	}
	r := rand.New(rand.NewSource(29))
	s := z3.New()
	ctx := context.Background()
	dropped, asked := 0, 0
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
		for _, anew := range []bool{false, true} {
			restore := func() {}
			if anew {
				restore = prove.PruneAsksAnew()
			}
			kept := prove.Prune(ctx, s, ts, lemmas, facts)
			restore()
			for _, k := range kept {
				if !slices.ContainsFunc(lemmas, func(l presburger.Formula) bool { return m.FormatFormula(l) == m.FormatFormula(k) }) {
					t.Fatalf("system %d (anew %v): prune keeps %s, which is no lemma given", i, anew, m.FormatFormula(k))
				}
			}
			base := presburger.Conj(prove.ParamPart(ts), facts, presburger.Conj(kept...))
			for _, l := range lemmas {
				a, err := s.Solve(ctx, presburger.Problem{Bounds: ts.Domain, F: presburger.Conj(base, presburger.Negation(l))})
				if err != nil {
					t.Fatal(err)
				}
				if a.Result != presburger.Unsat {
					t.Fatalf("system %d (anew %v): the %d lemmas prune keeps do not imply %s (%v)\n%s", i, anew, len(kept), m.FormatFormula(l), a.Result, testsupport.Describe(sys))
				}
			}
			if !anew {
				asked++
				dropped += len(lemmas) - len(kept)
			}
		}
	}
	t.Logf("%d systems pruned, %d lemmas dropped through the selection", asked, dropped)
	if asked == 0 || dropped == 0 {
		t.Fatalf("the selection dropped no lemma on any of %d systems", asked)
	}
}
