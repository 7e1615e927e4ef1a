package prove

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vsym/vsym/presburger"
)

// TestParamConditionRandom draws formulas over two parameters and two
// state variables, with conjunctions, disjunctions and negations, and
// checks paramCondition on every valuation of a small box: what it
// returns reads the parameters only, and holds wherever the formula
// does (a condition the premise does not imply would restrict the
// instances to fewer than those where the premise can hold). A
// disjunction in disjunctive normal form gives the disjunction of its
// cases' conditions, as the factored form does.
func TestParamConditionRandom(t *testing.T) {
	params := []presburger.Var{0, 1}
	text := func(f presburger.Formula) string {
		return presburger.Format(f, func(v presburger.Var) string { return []string{"p", "q", "s", "u"}[v] })
	}
	x := func(v presburger.Var) presburger.Term { return presburger.VarTerm(v) }
	r := rand.New(rand.NewPCG(29, 23))
	atom := func() presburger.Formula {
		// Half of the atoms read the parameters only.
		a, b := presburger.Var(r.IntN(2)), presburger.Var(r.IntN(2))
		if r.IntN(2) == 0 {
			a, b = presburger.Var(r.IntN(4)), presburger.Var(2+r.IntN(2))
		}
		ops := []presburger.Op{presburger.Eq, presburger.Le, presburger.Lt, presburger.Ge, presburger.Gt, presburger.Ne}
		return presburger.Compare(x(a).Add(presburger.ConstTerm(int64(r.IntN(3)-1))), ops[r.IntN(len(ops))], x(b).Scale(int64(r.IntN(2)+1)))
	}
	var gen func(depth int) presburger.Formula
	gen = func(depth int) presburger.Formula {
		if depth == 0 || r.IntN(4) == 0 {
			return atom()
		}
		fs := make([]presburger.Formula, 2+r.IntN(2))
		for i := range fs {
			fs[i] = gen(depth - 1)
		}
		switch r.IntN(5) {
		case 0:
			return presburger.Negation(presburger.Disj(fs...))
		case 1, 2:
			return presburger.Conj(fs...)
		}
		return presburger.Disj(fs...)
	}
	strictly := 0 // formulas whose condition is neither True nor f itself
	for range 400 {
		f := gen(3)
		c := paramCondition(params, f)
		if slices.ContainsFunc(presburger.FreeVars(c), func(v presburger.Var) bool { return !slices.Contains(params, v) }) {
			t.Fatalf("paramCondition(%s) = %s reads a state variable", text(f), text(c))
		}
		if c != presburger.True && text(c) != text(f) {
			strictly++
		}
		for v := range 5 * 5 * 5 * 5 {
			val := []int64{int64(v % 5), int64(v / 5 % 5), int64(v / 25 % 5), int64(v / 125)}
			at := func(w presburger.Var) int64 { return val[w] }
			if presburger.Eval(f, at) && !presburger.Eval(c, at) {
				t.Fatalf("%s holds at %v, its parameter condition %s does not", text(f), val, text(c))
			}
		}
	}
	if strictly < 50 {
		t.Fatalf("only %d of 400 formulas had a parameter condition of their own", strictly)
	}
	// Known answers: a premise in disjunctive normal form, and the same
	// factored.
	s, p, q := x(2), x(0), x(1)
	zero := presburger.ConstTerm(0)
	dnf := presburger.Disj(
		presburger.Conj(presburger.Compare(s, presburger.Eq, zero), presburger.Compare(p, presburger.Eq, zero), presburger.Compare(q, presburger.Gt, presburger.ConstTerm(5))),
		presburger.Conj(presburger.Compare(s, presburger.Eq, zero), presburger.Compare(q, presburger.Gt, presburger.ConstTerm(7))))
	want := presburger.Disj(
		presburger.Conj(presburger.Compare(p, presburger.Eq, zero), presburger.Compare(q, presburger.Gt, presburger.ConstTerm(5))),
		presburger.Compare(q, presburger.Gt, presburger.ConstTerm(7)))
	if got := paramCondition(params, dnf); text(got) != text(want) {
		t.Errorf("paramCondition(%s) = %s, want %s", text(dnf), text(got), text(want))
	}
	factored := presburger.Conj(presburger.Compare(s, presburger.Eq, zero), want)
	if got := paramCondition(params, factored); text(got) != text(want) {
		t.Errorf("paramCondition(%s) = %s, want %s", text(factored), text(got), text(want))
	}
	// A case with no condition on the parameters: none for the whole.
	open := presburger.Disj(dnf, presburger.Compare(s, presburger.Ge, presburger.ConstTerm(1)))
	if got := paramCondition(params, open); got != presburger.True {
		t.Errorf("paramCondition(%s) = %s, want true", text(open), text(got))
	}
}
