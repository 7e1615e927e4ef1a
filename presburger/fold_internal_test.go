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
