package presburger

import (
	"math/rand"
	"testing"
)

// TestTightenRandom checks Tighten against evaluation: random
// comparisons with a common factor in their coefficients, each operator,
// agree with their tightened form at every valuation of a small box,
// and some are changed (a Tighten that returns its input is caught).
func TestTightenRandom(t *testing.T) {
	r := rand.New(rand.NewSource(2026_11_29))
	ops := []Op{Lt, Le, Eq, Ne, Ge, Gt}
	changed := 0
	for i := range 2000 {
		g := int64(1 + r.Intn(4))
		var monos []Mono
		for v := range Var(1 + r.Intn(3)) {
			if c := g * int64(r.Intn(7)-3); c != 0 {
				monos = append(monos, Mono{v, c})
			}
		}
		c := Cmp{ops[r.Intn(len(ops))], Term{Monos: monos, Const: int64(r.Intn(21) - 10)}}
		f := Tighten(c)
		name := func(v Var) string { return string(rune('x' + v)) }
		if Format(f, name) != Format(c, name) {
			changed++
		}
		if tc, ok := f.(Cmp); ok && (tc.Op == Eq || tc.Op == Ne) && len(tc.T.Monos) == 1 && tc.T.Monos[0].Coef < 0 {
			t.Fatalf("case %d: %s tightened to %s, an equation of one variable with its coefficient negative", i, Format(c, name), Format(f, name))
		}
		for x := range 343 {
			val := func(v Var) int64 { return int64((x>>(3*int(v)))%7) - 3 }
			if Eval(c, val) != Eval(f, val) {
				t.Fatalf("case %d: %s and %s differ at %v", i, Format(c, name), Format(f, name), []int64{val(0), val(1), val(2)})
			}
		}
	}
	if changed < 500 {
		t.Errorf("only %d comparisons tightened", changed)
	}
}

// TestTightenEquationSides checks that an equation and a disequation
// read the same whichever side a translation writes the variable on.
func TestTightenEquationSides(t *testing.T) {
	x := VarTerm(0)
	for _, op := range []Op{Eq, Ne} {
		a := Tighten(Compare(x, op, ConstTerm(3)))
		b := Tighten(Compare(ConstTerm(3), op, x))
		if !SameUpToOrder(a, b) {
			t.Errorf("x %v 3 tightened to %v, 3 %v x to %v", op, a, op, b)
		}
	}
}

// TestPushNegationsRandom checks PushNegations against evaluation on
// random formulas of comparisons under negations, conjunctions and
// disjunctions, and that no negation is left (a PushNegations that
// returns its input is caught).
func TestPushNegationsRandom(t *testing.T) {
	r := rand.New(rand.NewSource(2026_11_30))
	ops := []Op{Lt, Le, Eq, Ne, Ge, Gt}
	var draw func(depth int) Formula
	draw = func(depth int) Formula {
		if depth == 0 || r.Intn(3) == 0 {
			return Cmp{ops[r.Intn(len(ops))], Term{Monos: []Mono{{Var(r.Intn(2)), int64(r.Intn(5) - 2)}}, Const: int64(r.Intn(5) - 2)}}
		}
		switch r.Intn(3) {
		case 0:
			return Not{draw(depth - 1)}
		case 1:
			return And{draw(depth - 1), draw(depth - 1)}
		}
		return Or{draw(depth - 1), draw(depth - 1)}
	}
	var hasNot func(f Formula) bool
	hasNot = func(f Formula) bool {
		switch f := f.(type) {
		case Not:
			return true
		case And:
			for _, g := range f {
				if hasNot(g) {
					return true
				}
			}
		case Or:
			for _, g := range f {
				if hasNot(g) {
					return true
				}
			}
		}
		return false
	}
	for i := range 2000 {
		f := draw(4)
		p := PushNegations(f)
		if hasNot(p) {
			t.Fatalf("case %d: a negation is left in %v", i, p)
		}
		for x := range 49 {
			val := func(v Var) int64 { return int64((x>>(3*int(v)))%7) - 3 }
			if Eval(f, val) != Eval(p, val) {
				t.Fatalf("case %d: %v and %v differ", i, f, p)
			}
		}
	}
}
