package presburger

import (
	"math/rand"
	"slices"
	"testing"
)

// TestZeroSumKnown: the atoms ZeroSum reads as zero tests, and those it
// must not: a variable that may be negative (x + y = 0 holds at x = 1,
// y = -1), mixed signs, and comparisons that admit a sum of 1.
func TestZeroSumKnown(t *testing.T) {
	x, y, z := Var(0), Var(1), Var(2)
	all := func(Var) bool { return true }
	notY := func(v Var) bool { return v != y }
	sum := func(k int64, ms ...Mono) Term { return Term{Monos: ms, Const: k} }
	for _, c := range []struct {
		name   string
		a      Cmp
		nonneg func(Var) bool
		want   []Var
	}{
		{"x + y = 0", Cmp{Eq, sum(0, Mono{x, 1}, Mono{y, 1})}, all, []Var{x, y}},
		{"x + y <= 0", Cmp{Le, sum(0, Mono{x, 1}, Mono{y, 1})}, all, []Var{x, y}},
		{"x + y < 1", Cmp{Lt, sum(-1, Mono{x, 1}, Mono{y, 1})}, all, []Var{x, y}},
		{"2x + 3z <= 1", Cmp{Le, sum(-1, Mono{x, 2}, Mono{z, 3})}, all, []Var{x, z}},
		{"-x - y >= 0", Cmp{Ge, sum(0, Mono{x, -1}, Mono{y, -1})}, all, []Var{x, y}},
		{"-x - y > -1", Cmp{Gt, sum(1, Mono{x, -1}, Mono{y, -1})}, all, []Var{x, y}},
		{"x + y = 0, y may be negative", Cmp{Eq, sum(0, Mono{x, 1}, Mono{y, 1})}, notY, nil},
		{"x - y = 0", Cmp{Eq, sum(0, Mono{x, 1}, Mono{y, -1})}, all, nil},
		{"x + y < 2", Cmp{Lt, sum(-2, Mono{x, 1}, Mono{y, 1})}, all, nil},
		{"x + y >= 1", Cmp{Ge, sum(-1, Mono{x, 1}, Mono{y, 1})}, all, nil},
		{"x + y != 0", Cmp{Ne, sum(0, Mono{x, 1}, Mono{y, 1})}, all, nil},
		{"x + y + 1 = 0", Cmp{Eq, sum(1, Mono{x, 1}, Mono{y, 1})}, all, nil},
	} {
		got, ok := ZeroSum(c.a, c.nonneg)
		if ok != (c.want != nil) || !slices.Equal(got, c.want) {
			t.Errorf("%s: ZeroSum = %v, %v; want %v", c.name, got, ok, c.want)
		}
	}
}

// TestSplitZeroSumsRandom checks SplitZeroSums against evaluation on
// random formulas over three variables, two of them nonnegative and one
// that may be negative: at every valuation with the nonnegative ones
// in 0..3 and the other in -2..2, f and its split agree; and the split
// replaced some atoms.
func TestSplitZeroSumsRandom(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	nonneg := NonnegIn([]Bound{{Var: 0, Lo: 0, NoHi: true}, {Var: 1, Lo: 0, Hi: 3}, {Var: 2, Lo: -2, Hi: 2}})
	atom := func() Formula {
		var t Term
		if r.Intn(3) == 0 {
			// A zero test of a sum, or almost one: with z, which may be
			// negative, a third of the time.
			for v := range Var(3) {
				if v < 2 || r.Intn(3) == 0 {
					t.Monos = append(t.Monos, Mono{v, int64(1 + r.Intn(2))})
				}
			}
			t.Const = -int64(r.Intn(2))
			return Cmp{Op: []Op{Eq, Le, Lt}[r.Intn(3)], T: t}
		}
		for v := range Var(3) {
			if c := int64(r.Intn(5) - 1); c != 0 && r.Intn(3) > 0 {
				t.Monos = append(t.Monos, Mono{v, c})
			}
		}
		t.Const = int64(r.Intn(5) - 2)
		return Cmp{Op: Op(r.Intn(6)), T: t}
	}
	var formula func(depth int) Formula
	formula = func(depth int) Formula {
		if depth == 0 || r.Intn(3) == 0 {
			return atom()
		}
		switch r.Intn(3) {
		case 0:
			return Not{formula(depth - 1)}
		case 1:
			return And{formula(depth - 1), formula(depth - 1)}
		}
		return Or{formula(depth - 1), formula(depth - 1)}
	}
	name := func(v Var) string { return "xyz"[v : v+1] }
	split := 0
	for range 3000 {
		f := formula(3)
		g := SplitZeroSums(f, nonneg)
		for a := range Atoms(f) {
			if vars, ok := ZeroSum(a, nonneg); ok && len(vars) >= 2 {
				split++
				break
			}
		}
		for a := int64(0); a <= 3; a++ {
			for b := int64(0); b <= 3; b++ {
				for c := int64(-2); c <= 2; c++ {
					val := func(v Var) int64 { return [...]int64{a, b, c}[v] }
					if Eval(f, val) != Eval(g, val) {
						t.Fatalf("%s split as %s: they differ at %d, %d, %d", Format(f, name), Format(g, name), a, b, c)
					}
				}
			}
		}
	}
	if split < 100 {
		t.Errorf("only %d formulas had an atom split", split)
	}
	t.Logf("%d of 3000 formulas had an atom split", split)
}
