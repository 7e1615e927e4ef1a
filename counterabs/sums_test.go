package counterabs

import (
	"context"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// The "everybody elsewhere" forms of a zero test, in guards and
// properties, are read as the zero tests (ShortenSums), on the
// total-counter model (one pool, n) and on the group-counter model
// (a pool per group, the total counters sums over them).
const allOthersYAML = `
name: allothers
states: [N, T, C]
groups: {p: 1.., q: 1..}
init: N
transitions:
  - {from: N, to: T}
  - {from: T, to: C, guard: "#N + #T = n"}
  - {from: C, to: N, guard: "#N + #T < n"}
properties:
  mutex: "AG !(#N + #T <= n - 2)"
  some: "AG (#N + #T + #C = n)"
  other: "AG (#C <= 1)"
`

func TestShortenSums(t *testing.T) {
	sys := spec(allOthersYAML)
	m, err := BuildParamTotal(context.Background(), sys, bf)
	if err != nil {
		t.Fatal(err)
	}
	group, err := BuildParamGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		m                  *ParamModel
		guards, properties []string
		facts              string
	}{
		{m, []string{"#N >= 1", "#T >= 1 & #C = 0", "#C >= 1 & #C >= 1"}, []string{"AG (#C <= 1)", "AG (true)", "AG (#C <= 1)"}, "#N + #T + #C - n = 0"},
		{group, []string{"#N[p] >= 1", "#N[q] >= 1", "#T[p] >= 1 & #C[p] + #C[q] = 0", "#T[q] >= 1 & #C[p] + #C[q] = 0", "#C[p] >= 1 & #C[p] + #C[q] >= 1", "#C[q] >= 1 & #C[p] + #C[q] >= 1"},
			[]string{"AG (#C[p] + #C[q] <= 1)", "AG (true)", "AG (#C[p] + #C[q] <= 1)"}, "#N[p] + #T[p] + #C[p] + #N[q] + #T[q] + #C[q] - n = 0"},
	} {
		m := tc.m
		var before []presburger.Formula
		for _, tr := range m.Transitions {
			before = append(before, tr.Guard)
		}
		m.ShortenSums()
		for i, tr := range m.Transitions {
			if got := m.FormatFormula(tr.Guard); got != tc.guards[i] {
				t.Errorf("%s model, guard of %s: %s, want %s", m.Level, m.TransitionName(&tr), got, tc.guards[i])
			}
			// Equivalent to the guard as written in every state of the
			// domain (a box of it).
			agreeInDomain(t, m, before[i], tr.Guard)
		}
		for i, p := range m.Properties {
			if got := ctl.Format(p.Formula, m.VarName); got != tc.properties[i] {
				t.Errorf("%s model, property %s: %s, want %s", m.Level, p.Name, got, tc.properties[i])
			}
		}
		if m.SumFacts == nil || m.FormatFormula(m.SumFacts) != tc.facts {
			t.Errorf("%s model: SumFacts %v, want %s", m.Level, m.SumFacts, tc.facts)
		}
		// An invariant gets the identities once.
		inv := m.WithSumFacts(presburger.Conj(presburger.Compare(presburger.VarTerm(0), presburger.Ge, presburger.ConstTerm(0)), m.SumFacts))
		if got := len(presburger.Conjuncts(inv)); got != 2 {
			t.Errorf("%s model: WithSumFacts repeats the identities: %s", m.Level, m.FormatFormula(inv))
		}
	}
	// A guard with locals (a group counter under the quantifier) reads
	// n as the sum of the sizes; the identity with the sizes shortens
	// it.
	locals := spec(`
name: locals
states: [N, T, C]
groups: {reader: 1.., writer: 1..}
init: N
transitions:
  - {from: N, to: T}
  - from: T
    to: C
    guard:
      reader: "#N + #T = n & #T[writer] = 0"
      writer: "#N + #T = n"
  - {from: C, to: N}
properties:
  mutex: "AG !(#N + #T <= n - 2)"
`)
	lm, err := BuildParamTotal(context.Background(), locals, z3.New())
	if err != nil {
		t.Fatal(err)
	}
	lm.ShortenSums()
	// (The rows of the locals, bounded by the sizes, stay.)
	if got, want := lm.FormatFormula(lm.Transitions[1].Guard), "#T[reader] >= 0 & #T[writer] >= 0 & -#T + #T[reader] + #T[writer] = 0 & -|reader| + #T[reader] <= 0 & -|writer| + #T[writer] <= 0 & #T >= 1 & (#T[reader] >= 1 & #C = 0 & #T[writer] = 0 | #T[writer] >= 1 & #C = 0)"; got != want {
		t.Errorf("guard with locals %s, want %s", got, want)
	}
	if got, want := lm.FormatFormula(lm.SumFacts), "#N + #T + #C - n = 0 & #N + #T + #C - |reader| - |writer| = 0"; got != want {
		t.Errorf("model with locals: SumFacts %s, want %s", got, want)
	}
	// A model with nothing to shorten is left as it is: a zero test of
	// a sum that reads no size (its shorter form #N = n reads one), and
	// a threshold whose form without n is longer.
	plain := spec(`
name: plain
states: [N, T, C]
groups: {p: 1..}
init: N
transitions:
  - {from: N, to: T, guard: "#T + #C = 0"}
  - {from: T, to: C, guard: "2 * #C < n"}
  - {from: C, to: N}
properties:
  mutex: "AG #T + #C <= 1"
`)
	pm, err := BuildParamTotal(context.Background(), plain, bf)
	if err != nil {
		t.Fatal(err)
	}
	var g0 []string
	for _, tr := range pm.Transitions {
		g0 = append(g0, pm.FormatFormula(tr.Guard))
	}
	pm.ShortenSums()
	for i, tr := range pm.Transitions {
		if got := pm.FormatFormula(tr.Guard); pm.SumFacts != nil || got != g0[i] {
			t.Errorf("plain model rewritten: %s for %s, facts %v", got, g0[i], pm.SumFacts)
		}
	}
	x := presburger.Compare(presburger.VarTerm(0), presburger.Ge, presburger.ConstTerm(0))
	if got := pm.WithSumFacts(x); pm.FormatFormula(got) != pm.FormatFormula(x) {
		t.Errorf("WithSumFacts on a model not rewritten: %v", got)
	}
}

// agreeInDomain checks that a and b take the same value in every state
// of m's domain with sizes up to 3 and the counters summing to them
// (the model here has no shared variable and no local).
func agreeInDomain(t *testing.T, m *ParamModel, a, b presburger.Formula) {
	t.Helper()
	d := len(m.System.Groups)
	sizes := make([]int, d)
	var walkSizes func(g int)
	walkSizes = func(g int) {
		if g == d {
			vals := make([]int64, len(m.Counters))
			var fill func(c int)
			fill = func(c int) {
				if c == len(m.Counters) {
					for _, p := range m.Pools {
						var sum int64
						for _, i := range p.Counters {
							sum += vals[i]
						}
						if presburger.Eval(presburger.Compare(presburger.ConstTerm(sum), presburger.Ne, p.Sum), val(m, vals, sizes)) {
							return
						}
					}
					if presburger.Eval(a, val(m, vals, sizes)) != presburger.Eval(b, val(m, vals, sizes)) {
						t.Errorf("%s model: %s and %s differ at %v, sizes %v", m.Level, m.FormatFormula(a), m.FormatFormula(b), vals, sizes)
					}
					return
				}
				for v := range int64(4) {
					vals[c] = v
					fill(c + 1)
				}
			}
			fill(0)
			return
		}
		for s := 1; s <= 3; s++ {
			sizes[g] = s
			walkSizes(g + 1)
		}
	}
	walkSizes(0)
}

func val(m *ParamModel, vals []int64, sizes []int) func(presburger.Var) int64 {
	return func(v presburger.Var) int64 {
		if int(v) < len(vals) {
			return vals[v]
		}
		var n int64
		for g, s := range sizes {
			if v == m.SizeVar(g) {
				return int64(s)
			}
			n += int64(s)
		}
		if v == m.NVar() {
			return n
		}
		panic("variable outside the model")
	}
}
