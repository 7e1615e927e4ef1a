package presburger

import (
	"math"
	"math/rand"
	"testing"
)

// TestTermRange compares termRange with the least and greatest value
// found by enumerating the box, and checks that it gives up on unbounded
// variables and on overflow.
func TestTermRange(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 500; i++ {
		box := map[Var]Bound{}
		var bs []Bound
		for v := Var(0); v < 3; v++ {
			lo := int64(r.Intn(7) - 3)
			b := Bound{Var: v, Lo: lo, Hi: lo + int64(r.Intn(4))}
			box[v], bs = b, append(bs, b)
		}
		tm := ConstTerm(int64(r.Intn(9) - 4))
		for k := 1 + r.Intn(3); k > 0; k-- {
			tm = tm.Add(VarTerm(Var(r.Intn(3))).Scale(int64(r.Intn(7) - 3)))
		}
		lo, hi, ok := termRange(tm, box)
		if !ok {
			t.Fatalf("case %d: no range for %v", i, tm)
		}
		wlo, whi := int64(math.MaxInt64), int64(math.MinInt64)
		val := map[Var]int64{}
		var rec func(j int)
		rec = func(j int) {
			if j == len(bs) {
				x := tm.Eval(func(v Var) int64 { return val[v] })
				wlo, whi = min(wlo, x), max(whi, x)
				return
			}
			for x := bs[j].Lo; x <= bs[j].Hi; x++ {
				val[bs[j].Var] = x
				rec(j + 1)
			}
		}
		rec(0)
		if lo != wlo || hi != whi {
			t.Fatalf("case %d: range of %v is %d..%d, want %d..%d", i, tm, lo, hi, wlo, whi)
		}
	}
	x, y := VarTerm(0), VarTerm(1)
	for _, c := range []struct {
		name string
		t    Term
		box  map[Var]Bound
	}{
		{"unbounded", x.Add(y), map[Var]Bound{0: {Var: 0, Lo: 0, Hi: 1}}},
		{"open above", x, map[Var]Bound{0: AtLeast(0, 0)}},
		{"open below", x.Add(y), map[Var]Bound{0: {Var: 0, Hi: 3, NoLo: true}, 1: {Var: 1, Lo: 0, Hi: 1}}},
		{"product overflows", x.Scale(1 << 32), map[Var]Bound{0: {Var: 0, Lo: 0, Hi: 1 << 32}}},
		{"min int negated", x.Scale(-1), map[Var]Bound{0: {Var: 0, Lo: math.MinInt64, Hi: 0}}},
		{"sum overflows", x.Add(y), map[Var]Bound{0: {Var: 0, Lo: 0, Hi: 1 << 62}, 1: {Var: 1, Lo: 0, Hi: 1 << 62}}},
	} {
		if lo, hi, ok := termRange(c.t, c.box); ok {
			t.Errorf("%s: termRange(%v) = %d..%d, want no range", c.name, c.t, lo, hi)
		}
	}
	// The range is exact, not cautious: MinInt64 itself is a value.
	if lo, hi, ok := termRange(x, map[Var]Bound{0: {Var: 0, Lo: math.MinInt64, Hi: 0}}); !ok || lo != math.MinInt64 || hi != 0 {
		t.Errorf("min int: termRange(x) = %d..%d, %v; want %d..0", lo, hi, ok, int64(math.MinInt64))
	}
}

// TestFoldUnderRandom compares f & g with f & foldUnder(g,
// conjunctFacts(f)) on every assignment of a small box, for random
// conjunctions f and formulas g whose atoms often share a linear form
// (or its negation) with one of f's.
func TestFoldUnderRandom(t *testing.T) {
	r := rand.New(rand.NewSource(29))
	ops := []Op{Eq, Ne, Lt, Le, Gt, Ge}
	randTerm := func() Term {
		tm := ConstTerm(int64(r.Intn(9) - 4))
		for k := 1 + r.Intn(3); k > 0; k-- {
			tm = tm.Add(VarTerm(Var(r.Intn(3))).Scale(int64(r.Intn(5) - 2)))
		}
		return tm
	}
	folded := 0
	for i := 0; i < 3000; i++ {
		var fs []Formula
		var forms []Term
		for k := 1 + r.Intn(4); k > 0; k-- {
			tm := randTerm()
			forms = append(forms, Term{Monos: tm.Monos})
			fs = append(fs, Compare(tm, ops[r.Intn(len(ops))], ConstTerm(0)))
		}
		if r.Intn(4) == 0 { // a conjunct that is no atom says nothing
			fs = append(fs, Disj(Compare(randTerm(), Le, ConstTerm(0)), Compare(randTerm(), Gt, ConstTerm(0))))
		}
		f := Conj(fs...)
		atom := func() Formula {
			tm := randTerm()
			if r.Intn(2) == 0 { // a form of f, or its negation, another constant
				tm = forms[r.Intn(len(forms))].Scale(int64(1 - 2*r.Intn(2)))
				tm.Const = int64(r.Intn(9) - 4)
			}
			return Compare(tm, ops[r.Intn(len(ops))], ConstTerm(0))
		}
		var gen func(d int) Formula
		gen = func(d int) Formula {
			if d == 0 || r.Intn(3) == 0 {
				return atom()
			}
			switch r.Intn(3) {
			case 0:
				return Negation(gen(d - 1))
			case 1:
				return Conj(gen(d-1), gen(d-1))
			}
			return Disj(gen(d-1), gen(d-1))
		}
		g := gen(3)
		h := foldUnder(g, conjunctFacts(f))
		if Format(h, varName) != Format(g, varName) {
			folded++
		}
		for x := int64(-3); x <= 3; x++ {
			for y := int64(-3); y <= 3; y++ {
				for z := int64(-3); z <= 3; z++ {
					val := func(v Var) int64 { return [3]int64{x, y, z}[v] }
					if Eval(f, val) && Eval(g, val) != Eval(h, val) {
						t.Fatalf("case %d: under %s, %s folds to %s, which differs at (%d, %d, %d)",
							i, Format(f, varName), Format(g, varName), Format(h, varName), x, y, z)
					}
				}
			}
		}
	}
	if folded < 300 {
		t.Errorf("only %d of the formulas folded", folded)
	}
}

// TestFoldUnderExtremes: bounds at the ends of int64 decide nothing they
// cannot (no overflow turns into a wrong verdict).
func TestFoldUnderExtremes(t *testing.T) {
	const maxI, minI = math.MaxInt64, math.MinInt64
	x := VarTerm(0)
	for _, c := range []struct {
		f, g Formula
		want Formula
	}{
		// x <= 2^63: the bound does not fit, no fact.
		{Cmp{Le, Term{Monos: x.Monos, Const: minI}}, Cmp{Gt, Term{Monos: x.Monos, Const: 0}}, nil},
		// x < -maxI, x <= minI: left out (its negation does not fit).
		{Cmp{Lt, Term{Monos: x.Monos, Const: maxI}}, Cmp{Ge, Term{Monos: x.Monos, Const: maxI}}, nil},
		// x > maxI: left out (x >= maxI + 1 does not fit).
		{Cmp{Gt, Term{Monos: x.Monos, Const: -maxI}}, Cmp{Lt, Term{Monos: x.Monos, Const: 0}}, nil},
		// -x >= -maxI, x <= maxI: x > 2^63 is false.
		{Cmp{Ge, Term{Monos: []Mono{{0, -1}}, Const: maxI}}, Cmp{Gt, Term{Monos: x.Monos, Const: minI}}, False},
		// x <= maxI says nothing about x > 0.
		{Cmp{Ge, Term{Monos: []Mono{{0, -1}}, Const: maxI}}, Cmp{Gt, Term{Monos: x.Monos, Const: 0}}, nil},
		// x <= 3: x > 4 and x > 3 are false, x > 2 undecided, -x < -3
		// false, -x >= -3 true.
		{Cmp{Le, Term{Monos: x.Monos, Const: -3}}, Cmp{Gt, Term{Monos: x.Monos, Const: -4}}, False},
		{Cmp{Le, Term{Monos: x.Monos, Const: -3}}, Cmp{Gt, Term{Monos: x.Monos, Const: -3}}, False},
		{Cmp{Le, Term{Monos: x.Monos, Const: -3}}, Cmp{Gt, Term{Monos: x.Monos, Const: -2}}, nil},
		{Cmp{Le, Term{Monos: x.Monos, Const: -3}}, Cmp{Lt, Term{Monos: []Mono{{0, -1}}, Const: 3}}, False},
		{Cmp{Le, Term{Monos: x.Monos, Const: -3}}, Cmp{Ge, Term{Monos: []Mono{{0, -1}}, Const: 3}}, True},
		// 2x <= 6 is no fact about x (forms are compared as written).
		{Cmp{Le, Term{Monos: []Mono{{0, 2}}, Const: -6}}, Cmp{Gt, Term{Monos: x.Monos, Const: -4}}, nil},
	} {
		got := foldUnder(c.g, conjunctFacts(c.f))
		want := c.want
		if want == nil {
			want = c.g
		}
		if Format(got, varName) != Format(want, varName) {
			t.Errorf("under %s: %s folds to %s, want %s", Format(c.f, varName), Format(c.g, varName), Format(got, varName), Format(want, varName))
		}
	}
}
