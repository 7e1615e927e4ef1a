package presburger_test

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

// The exact arithmetic of package presburger against math/big, on
// random operands of every magnitude: small ones, values and
// coefficients at and beyond vsym's limit of 1e9, the edges of int64,
// and terms of many monomials (so that sums leave 64 and, with int64
// extremes, 128 bits).

// edgeInts are the magnitudes the random operands favour.
var edgeInts = []int64{0, 1, -1, 2, -3, 999_999_999, 1_000_000_000, -1_000_000_000, 1_000_000_001,
	446_744_074, 1 << 31, -(1 << 31), 1<<32 + 7, 1 << 62, -(1 << 62), math.MaxInt64, math.MinInt64, math.MinInt64 + 1, math.MaxInt64 - 1}

func randInt(r *rand.Rand) int64 {
	switch r.Intn(4) {
	case 0:
		return edgeInts[r.Intn(len(edgeInts))]
	case 1:
		return int64(r.Intn(21) - 10)
	case 2:
		return r.Int63n(2_000_000_001) - 1_000_000_000
	}
	x := r.Int63() >> uint(r.Intn(63))
	if r.Intn(2) == 0 {
		x = -x
	}
	return x
}

// randBigTerm returns a canonical term of up to nvars variables with
// random coefficients (built literally, not by the operations under
// test).
func randBigTerm(r *rand.Rand, nvars int) pb.Term {
	t := pb.Term{Const: randInt(r)}
	for v := 0; v < nvars; v++ {
		if r.Intn(3) == 0 {
			continue
		}
		if c := randInt(r); c != 0 {
			t.Monos = append(t.Monos, pb.Mono{Var: pb.Var(v), Coef: c})
		}
	}
	return t
}

// bigValue is the oracle: the value of t under vals in math/big.
func bigValue(t pb.Term, vals []int64) *big.Int {
	s := big.NewInt(t.Const)
	for _, m := range t.Monos {
		s.Add(s, new(big.Int).Mul(big.NewInt(m.Coef), big.NewInt(vals[m.Var])))
	}
	return s
}

func fitsInt64(b *big.Int) bool { return b.IsInt64() }

// bigTerm is a term with big coefficients, for the oracle of term
// arithmetic.
type bigTerm struct {
	konst *big.Int
	coef  map[pb.Var]*big.Int
}

func toBig(t pb.Term) bigTerm {
	b := bigTerm{big.NewInt(t.Const), map[pb.Var]*big.Int{}}
	for _, m := range t.Monos {
		b.coef[m.Var] = big.NewInt(m.Coef)
	}
	return b
}

func (b bigTerm) addScaled(u bigTerm, k *big.Int) bigTerm {
	out := bigTerm{new(big.Int).Add(b.konst, new(big.Int).Mul(k, u.konst)), map[pb.Var]*big.Int{}}
	for v, c := range b.coef {
		out.coef[v] = new(big.Int).Set(c)
	}
	for v, c := range u.coef {
		if out.coef[v] == nil {
			out.coef[v] = new(big.Int)
		}
		out.coef[v].Add(out.coef[v], new(big.Int).Mul(k, c))
	}
	return out
}

// fits reports whether every coefficient and the constant fit in int64.
func (b bigTerm) fits() bool {
	if !b.konst.IsInt64() {
		return false
	}
	for _, c := range b.coef {
		if !c.IsInt64() {
			return false
		}
	}
	return true
}

// equals reports whether t is b.
func (b bigTerm) equals(t pb.Term) bool {
	if b.konst.Cmp(big.NewInt(t.Const)) != 0 {
		return false
	}
	n := 0
	for _, c := range b.coef {
		if c.Sign() != 0 {
			n++
		}
	}
	if n != len(t.Monos) {
		return false
	}
	for _, m := range t.Monos {
		if c := b.coef[m.Var]; c == nil || c.Cmp(big.NewInt(m.Coef)) != 0 {
			return false
		}
	}
	return true
}

// TestExactAgainstBig checks Value, Sign, Eval of an atom, Range and the
// checked term arithmetic against math/big.
func TestExactAgainstBig(t *testing.T) {
	r := rand.New(rand.NewSource(27))
	counts := map[string]int{}
	for i := 0; i < 20000; i++ {
		nvars := 1 + r.Intn(24)
		a, b := randBigTerm(r, nvars), randBigTerm(r, nvars)
		vals := make([]int64, nvars)
		for j := range vals {
			vals[j] = randInt(r)
		}
		val := func(v pb.Var) int64 { return vals[v] }

		want := bigValue(a, vals)
		x, ok := a.Value(val)
		if ok != fitsInt64(want) || ok && x != want.Int64() {
			t.Fatalf("case %d: Value(%v) = %d, %v; exact %s", i, a, x, ok, want)
		}
		counts["value fits "+map[bool]string{true: "yes", false: "no"}[ok]]++
		if s := a.Sign(val); s != want.Sign() {
			t.Fatalf("case %d: Sign(%v) = %d; exact %s", i, a, s, want)
		}
		if got := a.BigValue(val); got.Cmp(want) != 0 {
			t.Fatalf("case %d: BigValue = %s; exact %s", i, got, want)
		}
		for op := pb.Eq; op <= pb.Ge; op++ {
			if got, exact := pb.Eval(pb.Cmp{Op: op, T: a}, val), op.Holds(int64(want.Sign())); got != exact {
				t.Fatalf("case %d: Eval(%v %s 0) = %v; exact value %s", i, a, op, got, want)
			}
		}

		// Range over boxes around the values, some sides open.
		boxes := map[pb.Var]pb.Bound{}
		for j, x := range vals {
			b := pb.Bound{Var: pb.Var(j), Lo: x, Hi: x}
			if x > math.MinInt64+5 {
				b.Lo = x - int64(r.Intn(5))
			}
			if x < math.MaxInt64-5 {
				b.Hi = x + int64(r.Intn(5))
			}
			switch r.Intn(10) {
			case 0:
				b.NoLo = true
			case 1:
				b.NoHi = true
			}
			boxes[pb.Var(j)] = b
		}
		rg := a.Range(func(v pb.Var) (pb.Bound, bool) { b, ok := boxes[v]; return b, ok })
		wlo, whi := big.NewInt(a.Const), big.NewInt(a.Const)
		openLo, openHi := false, false
		for _, m := range a.Monos {
			bx := boxes[m.Var]
			lo, hi, lopen, hopen := bx.Lo, bx.Hi, bx.NoLo, bx.NoHi
			if m.Coef < 0 {
				lo, hi, lopen, hopen = hi, lo, hopen, lopen
			}
			openLo, openHi = openLo || lopen, openHi || hopen
			wlo.Add(wlo, new(big.Int).Mul(big.NewInt(m.Coef), big.NewInt(lo)))
			whi.Add(whi, new(big.Int).Mul(big.NewInt(m.Coef), big.NewInt(hi)))
		}
		openLo = openLo || !wlo.IsInt64()
		openHi = openHi || !whi.IsInt64()
		if rg.NoLo != openLo || !openLo && rg.Lo != wlo.Int64() || rg.NoHi != openHi || !openHi && rg.Hi != whi.Int64() {
			t.Fatalf("case %d: Range(%v) = %s; exact %s..%s (open %v %v)", i, a, rg.Range(), wlo, whi, openLo, openHi)
		}

		// Magnitude over the same boxes.
		wm := new(big.Int).Abs(big.NewInt(a.Const))
		open := false
		for _, m := range a.Monos {
			bx := boxes[m.Var]
			open = open || !bx.Finite()
			x := new(big.Int).Abs(big.NewInt(bx.Lo))
			if y := new(big.Int).Abs(big.NewInt(bx.Hi)); y.Cmp(x) > 0 {
				x = y
			}
			wm.Add(wm, new(big.Int).Mul(new(big.Int).Abs(big.NewInt(m.Coef)), x))
		}
		mag, ok := a.Magnitude(func(v pb.Var) (pb.Bound, bool) { b, ok := boxes[v]; return b, ok })
		if wantOK := !open && wm.IsInt64(); ok != wantOK || ok && mag != wm.Int64() {
			t.Fatalf("case %d: Magnitude(%v) = %d, %v; exact %s (open %v)", i, a, mag, ok, wm, open)
		}
		counts["magnitude fits "+map[bool]string{true: "yes", false: "no"}[ok]]++

		// Checked arithmetic.
		k := randInt(r)
		for _, c := range []struct {
			name string
			got  func() (pb.Term, bool)
			want bigTerm
		}{
			{"a+b", func() (pb.Term, bool) { return a.AddExact(b) }, toBig(a).addScaled(toBig(b), big.NewInt(1))},
			{"a-b", func() (pb.Term, bool) { return a.SubExact(b) }, toBig(a).addScaled(toBig(b), big.NewInt(-1))},
			{"k*a", func() (pb.Term, bool) { return a.ScaleExact(k) }, bigTerm{big.NewInt(0), nil}.addScaled(toBig(a), big.NewInt(k))},
		} {
			got, ok := c.got()
			fits := c.want.fits()
			// SubExact negates b first: a coefficient MinInt64 of b
			// is refused even when the difference would fit.
			if c.name == "a-b" && !negatable(b) {
				if ok {
					t.Fatalf("case %d: %s = %v accepted with a MinInt64 coefficient in b", i, c.name, got)
				}
				continue
			}
			if ok != fits || ok && !c.want.equals(got) {
				t.Fatalf("case %d: %s with a=%v b=%v k=%d: got %v, %v (fits %v)", i, c.name, a, b, k, got, ok, fits)
			}
			if ok {
				if why := canonical(got); why != "" {
					t.Fatalf("case %d: %s = %v: %s", i, c.name, got, why)
				}
			}
			counts[c.name+" fits "+map[bool]string{true: "yes", false: "no"}[ok]]++
		}

		// SubstExact: every variable of a replaced by a random term
		// over fresh variables, or a constant.
		subs := map[pb.Var]pb.Term{}
		want2 := bigTerm{big.NewInt(a.Const), map[pb.Var]*big.Int{}}
		for _, m := range a.Monos {
			s := randBigTerm(r, 3)
			for j := range s.Monos {
				s.Monos[j].Var += 100
			}
			if r.Intn(2) == 0 {
				s.Monos = nil
			}
			subs[m.Var] = s
			want2 = want2.addScaled(toBig(s), big.NewInt(m.Coef))
		}
		got, ok := a.SubstExact(func(v pb.Var) pb.Term { return subs[v] })
		if ok != want2.fits() || ok && !want2.equals(got) {
			t.Fatalf("case %d: SubstExact(%v) = %v, %v (fits %v)", i, a, got, ok, want2.fits())
		}
		if ok {
			if why := canonical(got); why != "" {
				t.Fatalf("case %d: SubstExact = %v: %s", i, got, why)
			}
		}
		counts["subst fits "+map[bool]string{true: "yes", false: "no"}[ok]]++
	}
	// Every kind of outcome must have been met, or the test proves
	// nothing about it.
	for _, k := range []string{"value fits yes", "value fits no", "a+b fits yes", "a+b fits no", "a-b fits yes", "a-b fits no",
		"k*a fits yes", "k*a fits no", "subst fits yes", "subst fits no", "magnitude fits yes", "magnitude fits no"} {
		if counts[k] == 0 {
			t.Errorf("no case with %s", k)
		}
	}
	t.Logf("outcomes: %v", counts)
}

// negatable reports whether every coefficient and the constant of t
// can be negated in int64.
func negatable(t pb.Term) bool {
	if t.Const == math.MinInt64 {
		return false
	}
	for _, m := range t.Monos {
		if m.Coef == math.MinInt64 {
			return false
		}
	}
	return true
}

// TestIssue27Sum is the sum of issue 27: 1e9*v0 + ... + 1e9*v17 +
// 446744074*v18 at v = 1e9 is 18,446,744,074,000,000,000, which wraps
// in int64 arithmetic to 290,448,384. Exactly, it is beyond int64 and
// greater than 1e9.
func TestIssue27Sum(t *testing.T) {
	var tm pb.Term
	for v := 0; v < 19; v++ {
		c := int64(1_000_000_000)
		if v == 18 {
			c = 446_744_074
		}
		tm.Monos = append(tm.Monos, pb.Mono{Var: pb.Var(v), Coef: c})
	}
	val := func(pb.Var) int64 { return 1_000_000_000 }
	if _, ok := tm.Value(val); ok {
		t.Errorf("Value fits in int64")
	}
	if got := tm.BigValue(val).String(); got != "18446744074000000000" {
		t.Errorf("BigValue = %s", got)
	}
	le := pb.Compare(tm, pb.Le, pb.ConstTerm(1_000_000_000))
	if pb.Eval(le, val) {
		t.Errorf("%v holds at v = 1e9", le)
	}
	// Folding the values in, as an instance folds parameters: the atom
	// is decided by the exact sign, and is false; with a counter left
	// in it, the constant does not fit and SubstExact says so.
	all := func(pb.Var) pb.Term { return pb.ConstTerm(1_000_000_000) }
	if f, ok := pb.SubstExact(le, all); !ok || f != pb.False {
		t.Errorf("SubstExact(%v) at v = 1e9 = %v, %v; want false", le, f, ok)
	}
	if f, ok := pb.SubstExact(pb.Negation(le), all); !ok || f != pb.True {
		t.Errorf("SubstExact(!(%v)) at v = 1e9 = %v, %v; want true", le, f, ok)
	}
	withCounter := pb.Compare(tm.Add(pb.VarTerm(99)), pb.Le, pb.ConstTerm(5))
	if f, ok := pb.SubstExact(withCounter, func(v pb.Var) pb.Term {
		if v == 99 {
			return pb.VarTerm(99)
		}
		return pb.ConstTerm(1_000_000_000)
	}); ok {
		t.Errorf("SubstExact(%v) = %v with a constant beyond int64", withCounter, f)
	}
	// A sum whose partial sums leave int64 but whose result fits: ten
	// monomials 1e9*v then ten -1e9*v, every v folded to 1e9.
	var cancel pb.Term
	for v := 0; v < 20; v++ {
		c := int64(1_000_000_000)
		if v >= 10 {
			c = -c
		}
		cancel.Monos = append(cancel.Monos, pb.Mono{Var: pb.Var(v), Coef: c})
	}
	cancel.Const = 5
	folded, ok := cancel.SubstExact(func(pb.Var) pb.Term { return pb.ConstTerm(1_000_000_000) })
	if !ok || !folded.Equal(pb.ConstTerm(5)) {
		t.Errorf("SubstExact of a cancelling sum = %v, %v; want 5", folded, ok)
	}
	if got, ok := cancel.Value(val); !ok || got != 5 {
		t.Errorf("Value of a cancelling sum = %d, %v; want 5", got, ok)
	}
}

// TestPlainFormsPanic checks that Add, Scale, Sub, Subst and Term.Eval
// refuse, by a panic, a result beyond int64 rather than wrap.
func TestPlainFormsPanic(t *testing.T) {
	big := pb.Term{Const: math.MaxInt64}
	one := pb.ConstTerm(1)
	x := pb.VarTerm(0).Scale(math.MaxInt64)
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Add", func() { big.Add(one) }},
		{"Sub", func() { pb.ConstTerm(math.MinInt64).Sub(one) }},
		{"Scale", func() { x.Scale(2) }},
		{"Subst", func() { x.Subst(func(pb.Var) pb.Term { return pb.ConstTerm(2) }) }},
		{"Subst formula", func() {
			pb.Subst(pb.Cmp{Op: pb.Le, T: x.Add(pb.VarTerm(1))}, func(v pb.Var) pb.Term {
				if v == 0 {
					return pb.ConstTerm(3)
				}
				return pb.VarTerm(v)
			})
		}},
		{"Eval", func() { x.Eval(func(pb.Var) int64 { return 2 }) }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", c.name)
				}
			}()
			c.f()
		}()
	}
}

// TestBeyond128Bits checks sums that leave 128 bits: four products of
// MinInt64 by MinInt64 (2^126 each), and the same cancelled by four
// negative ones.
func TestBeyond128Bits(t *testing.T) {
	var up, down pb.Term
	for v := 0; v < 8; v++ {
		c := int64(math.MinInt64)
		if v >= 4 {
			c = math.MaxInt64
		}
		down.Monos = append(down.Monos, pb.Mono{Var: pb.Var(v), Coef: c})
		if v < 4 {
			up.Monos = append(up.Monos, pb.Mono{Var: pb.Var(v), Coef: c})
		}
	}
	val := func(pb.Var) int64 { return math.MinInt64 }
	want := new(big.Int).Lsh(big.NewInt(1), 128)
	if got := up.BigValue(val); got.Cmp(want) != 0 || up.Sign(val) != 1 {
		t.Errorf("4 * 2^126 = %s (sign %d), want %s", got, up.Sign(val), want)
	}
	// down = 4*2^126 + 4*MaxInt64*MinInt64 = 4*2^63*(2^63 - MaxInt64) = 2^65.
	vals := make([]int64, 8)
	for i := range vals {
		vals[i] = math.MinInt64
	}
	exact := bigValue(down, vals)
	if got := down.BigValue(val); got.Cmp(exact) != 0 || down.Sign(val) != exact.Sign() {
		t.Errorf("value %s, want %s", got, exact)
	}
	if _, ok := down.Value(val); ok != exact.IsInt64() {
		t.Errorf("Value fits %v, exact %s", ok, exact)
	}
}
