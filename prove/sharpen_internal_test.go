package prove

import (
	"context"
	"maps"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestSharpenEqualitiesKeepsSteps checks sharpenEqualities on random
// transition systems over two counters x0, x1 and a parameter n: each
// step's relation, with the facts, must be the same before and after,
// by evaluation at every point of a box (the counters and their next
// values in 0..4, n in 1..4), which shares no code with the solver's
// evidence. The steps have common conjuncts (bounds such as
// "x0 + x1 <= n", some of them equalities themselves, which must not
// be their own evidence), guards of comparisons and disjunctions, and
// updates that read the next values, which are never rewritten, nor
// are the terms that read no variable of shared (x1 and n only). Enough
// systems must change for the check to mean something.
func TestSharpenEqualitiesKeepsSteps(t *testing.T) {
	x0, x1, x0n, x1n, n := presburger.Var(0), presburger.Var(1), presburger.Var(2), presburger.Var(3), presburger.Var(4)
	v := presburger.VarTerm
	terms := []presburger.Term{
		v(x0).Sub(v(n)),
		v(x1).Sub(v(n)),
		v(x0).Add(v(x1)).Sub(v(n)),
		v(x0).Sub(presburger.ConstTerm(2)),
		v(x0).Sub(v(x1)),
		v(x1).Sub(presburger.ConstTerm(1)),
	}
	ops := []presburger.Op{presburger.Eq, presburger.Ne, presburger.Le, presburger.Ge, presburger.Lt, presburger.Gt}
	r := rand.New(rand.NewSource(7))
	atom := func(eqs bool) presburger.Formula {
		op := ops[r.Intn(len(ops))]
		if eqs && r.Intn(2) == 0 {
			op = ops[r.Intn(2)]
		}
		return presburger.Cmp{Op: op, T: terms[r.Intn(len(terms))]}
	}
	part := func(eqs bool) presburger.Formula {
		if r.Intn(3) == 0 {
			return presburger.Disj(atom(eqs), atom(eqs))
		}
		return atom(eqs)
	}
	// The terms that read x1 and n only are never rewritten.
	shared := map[presburger.Var]bool{x0: true}
	kept := func(f presburger.Formula) map[string]bool {
		out := map[string]bool{}
		for a := range presburger.Atoms(f) {
			if !readsAny(a.T, shared) {
				out[presburger.Format(a, numbered)] = true
			}
		}
		return out
	}
	solver := z3.New()
	ctx := context.Background()
	systems, changed := 400, 0
	if testing.Short() {
		systems = 100
	}
	for i := range systems {
		var common []presburger.Formula
		for range r.Intn(3) {
			common = append(common, part(false))
		}
		facts := presburger.Formula(presburger.True)
		if r.Intn(2) == 0 {
			facts = atom(false)
		}
		ts := presburger.TransitionSystem{
			Vars: []presburger.Var{x0, x1}, Next: []presburger.Var{x0n, x1n}, Params: []presburger.Var{n},
			Domain: []presburger.Bound{presburger.AtLeast(x0, 0), presburger.AtLeast(x1, 0), presburger.AtLeast(n, 1)},
			Init:   presburger.True, Bad: presburger.False,
		}
		for range 1 + r.Intn(3) {
			guard := []presburger.Formula{part(true)}
			if r.Intn(2) == 0 {
				guard = append(guard, part(true))
			}
			update := presburger.Conj(
				presburger.Compare(v(x0n), presburger.Eq, v(x0).Add(presburger.ConstTerm(int64(r.Intn(3)-1)))),
				presburger.Compare(v(x1n), presburger.Eq, v(x1).Add(presburger.ConstTerm(int64(r.Intn(2))))))
			ts.Trans = append(ts.Trans, presburger.Conj(append(append(append([]presburger.Formula{}, common...), guard...), update)...))
		}
		out, ok := sharpenEqualities(ctx, solver, ts, facts, shared)
		if ok {
			changed++
		}
		for k := range ts.Trans {
			before, after := presburger.Conj(facts, ts.Trans[k]), presburger.Conj(facts, out.Trans[k])
			if !ok && presburger.Format(before, numbered) != presburger.Format(after, numbered) {
				t.Fatalf("system %d: step %d rewritten, reported unchanged", i, k)
			}
			if !maps.Equal(kept(ts.Trans[k]), kept(out.Trans[k])) {
				t.Fatalf("system %d: step %d had an atom rewritten that reads no variable of shared: %s\nrewritten %s", i, k,
					presburger.Format(ts.Trans[k], numbered), presburger.Format(out.Trans[k], numbered))
			}
			var at [5]int64
			val := func(w presburger.Var) int64 { return at[w] }
			for at[0] = 0; at[0] <= 4; at[0]++ {
				for at[1] = 0; at[1] <= 4; at[1]++ {
					for at[2] = 0; at[2] <= 4; at[2]++ {
						for at[3] = 0; at[3] <= 4; at[3]++ {
							for at[4] = 1; at[4] <= 4; at[4]++ {
								if presburger.Eval(before, val) != presburger.Eval(after, val) {
									t.Fatalf("system %d, step %d at %v: %s\nrewritten %s", i, k, at,
										presburger.Format(before, numbered), presburger.Format(after, numbered))
								}
							}
						}
					}
				}
			}
		}
	}
	if changed < systems/10 {
		t.Errorf("only %d of %d systems had an equality sharpened", changed, systems)
	}
	t.Logf("%d of %d systems sharpened", changed, systems)
}
