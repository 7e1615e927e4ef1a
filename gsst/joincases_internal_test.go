package gsst

import (
	"math/rand"
	"testing"

	"github.com/vsym/vsym/presburger"
)

// TestImpliesByValues checks the answers implies gives without Quick
// against Quick's, on random formulas over the counters, shared
// variables, sizes and parameters of two systems (one a family over a
// parameter, one whose assumption no instance meets), read in random
// step domains: wherever both answer, they agree, and impliesByValues
// declines exactly the formulas that read a size, n or a parameter, or
// an atom of two variables.
func TestImpliesByValues(t *testing.T) {
	for _, src := range []string{
		"states: [A, B, C]\ngroups: {p: 1.., q: 2}\ninit: {p: A, q: B}\nshared:\n  x: {type: 0..3, init: 0}\n  y: {type: 0.., init: 0}\ntransitions:\n  - {from: A, to: B}\n",
		"params: [k]\nassume: k >= 1\nstates: [A, B, C]\ngroups: {p: k, q: 2}\ninit: {p: A, q: B}\nshared:\n  x: {type: 0..3, init: 0}\n  y: {type: 0.., init: 0}\ntransitions:\n  - {from: A, to: B}\n",
		"params: [k]\nassume: k >= 1 & k <= 0\nstates: [A, B, C]\ngroups: {p: 1.., q: 2}\ninit: {p: A, q: B}\nshared:\n  x: {type: 0..3, init: 0}\n  y: {type: 0.., init: 0}\ntransitions:\n  - {from: A, to: B}\n",
	} {
		s, err := Parse("values.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		state := []presburger.Var{s.TotalVar(0), s.TotalVar(2), s.GroupVar(0, 0), s.GroupVar(1, 1), s.SharedVar(0), s.SharedVar(1)}
		instVars := []presburger.Var{s.SizeVar(0), s.NVar()}
		if len(s.Params) > 0 {
			instVars = append(instVars, s.ParamVar(0))
		}
		r := rand.New(rand.NewSource(3201))
		inst := &instance{s: s}
		var atom func(multi bool) (presburger.Formula, bool)
		atom = func(multi bool) (presburger.Formula, bool) {
			v := state[r.Intn(len(state))]
			plain := true
			if multi && r.Intn(8) == 0 {
				v, plain = instVars[r.Intn(len(instVars))], false
			}
			t := presburger.VarTerm(v).Scale(int64(r.Intn(3) + 1)).Add(presburger.ConstTerm(int64(r.Intn(9) - 4)))
			if w := state[r.Intn(len(state))]; multi && w != v && r.Intn(10) == 0 {
				t, plain = t.Add(presburger.VarTerm(w)), false
			}
			return presburger.Cmp{Op: presburger.Op(r.Intn(6)), T: t}, plain
		}
		var formula func(depth int) (presburger.Formula, bool)
		formula = func(depth int) (presburger.Formula, bool) {
			if depth == 0 || r.Intn(3) == 0 {
				return atom(true)
			}
			parts := make([]presburger.Formula, 1+r.Intn(3))
			plain := true
			for i := range parts {
				var ok bool
				parts[i], ok = formula(depth - 1)
				plain = plain && ok
			}
			if r.Intn(2) == 0 {
				return presburger.Conj(parts...), plain
			}
			return presburger.Disj(parts...), plain
		}
		count := map[string]int{}
		for range 3000 {
			d := s.moverDomain(inst, [][]int{nil, {0}, {0, 0}, {1, 2}}[r.Intn(4)], nil)
			if r.Intn(3) == 0 {
				d.group, d.movers = 0, map[int]int64{0: 1}
			}
			f, plain := formula(3)
			if r.Intn(4) == 0 {
				g, _ := atom(false)
				d = d.within(g)
			}
			byValues, ok := d.impliesByValues(f)
			if ok != plain {
				t.Fatalf("%s: impliesByValues answers %v, want %v (it reads only counters and shared variables, an atom of one each: %v)", presburger.Format(f, s.VarName), ok, plain, plain)
			}
			if !ok {
				count["declined"]++
				continue
			}
			count[map[bool]string{true: "implied", false: "not implied"}[byValues]]++
			switch d.askQuick(f) {
			case presburger.Unknown:
				count["Quick cannot say"]++
			case presburger.Unsat:
				if !byValues {
					t.Fatalf("%s: not implied by values, implied by Quick", presburger.Format(f, s.VarName))
				}
			case presburger.Sat:
				if byValues {
					t.Fatalf("%s: implied by values, not by Quick", presburger.Format(f, s.VarName))
				}
			}
		}
		t.Logf("%v", count)
		if count["implied"] < 100 || count["declined"] < 100 || count["Quick cannot say"] > 300 {
			t.Errorf("too one-sided a sample: %v", count)
		}
	}
}

// TestOneIntervalRandom checks oneInterval against the values: random
// disjunctions of two or three comparisons of x - y with constants,
// each spelled at random (strict or not, either side, negated), are
// read as one interval exactly where their union is one, and the
// interval holds at every value of x - y in -8..8 exactly where some
// case does. Case splits of atoms spelled apart share a key (atomKey).
func TestOneIntervalRandom(t *testing.T) {
	x, y := presburger.Var(0), presburger.Var(1)
	d := presburger.VarTerm(x).Sub(presburger.VarTerm(y))
	ops := []presburger.Op{presburger.Eq, presburger.Lt, presburger.Le, presburger.Gt, presburger.Ge}
	r := rand.New(rand.NewSource(34))
	joined, apart := 0, 0
	for i := range 2000 {
		var cases []presburger.Formula
		for range 2 + r.Intn(2) {
			k := presburger.ConstTerm(int64(r.Intn(9) - 4))
			op := ops[r.Intn(len(ops))]
			if r.Intn(2) == 0 {
				cases = append(cases, presburger.Compare(d, op, k))
			} else {
				cases = append(cases, presburger.Compare(k, op.Converse(), d)) // k op' (x - y): the same atom
			}
		}
		holds := func(f presburger.Formula, v int64) bool {
			return presburger.Eval(f, func(w presburger.Var) int64 {
				if w == x {
					return v
				}
				return 0
			})
		}
		// One interval: the values where some case holds have no gap
		// between their least and greatest in -8..8 (the constants lie
		// in -4..4, so the ends are open or inside).
		var in []int64
		for v := int64(-8); v <= 8; v++ {
			if holds(presburger.Disj(cases...), v) {
				in = append(in, v)
			}
		}
		contiguous := len(in) > 0 && in[len(in)-1]-in[0] == int64(len(in)-1)
		f, ok := oneInterval(cases)
		if ok != contiguous {
			t.Fatalf("case %d: %v read as one interval: %v, values %v", i, cases, ok, in)
		}
		if !ok {
			apart++
			continue
		}
		joined++
		for v := int64(-8); v <= 8; v++ {
			if holds(f, v) != holds(presburger.Disj(cases...), v) {
				t.Fatalf("case %d: %v as %v differs at x - y = %d", i, cases, f, v)
			}
		}
	}
	if joined < 500 || apart < 200 {
		t.Errorf("%d joined, %d apart: the sample exercises too little", joined, apart)
	}
	// Spellings of one atom share a key.
	one := presburger.Compare(presburger.VarTerm(x), presburger.Ge, presburger.ConstTerm(1))
	for _, f := range []presburger.Formula{
		presburger.Compare(presburger.VarTerm(x), presburger.Gt, presburger.ConstTerm(0)),
		presburger.Compare(presburger.ConstTerm(1), presburger.Le, presburger.VarTerm(x)),
		presburger.Compare(presburger.ConstTerm(-1), presburger.Ge, presburger.VarTerm(x).Scale(-1)),
	} {
		if atomKey(f) != atomKey(one) {
			t.Errorf("%v and %v have the keys %s and %s", f, one, atomKey(f), atomKey(one))
		}
	}
}
