package presburger_test

import (
	"math/rand"
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

// canonical reports why t breaks the Term invariant, or "".
func canonical(t pb.Term) string {
	for i, m := range t.Monos {
		if m.Coef == 0 {
			return "zero coefficient"
		}
		if i > 0 && t.Monos[i-1].Var >= m.Var {
			return "monomials not strictly sorted"
		}
	}
	return ""
}

// randTerm builds a term by adding scaled variables in random order, so
// that the same variable may be added several times and cancel out.
func randTerm(r *rand.Rand) pb.Term {
	t := pb.ConstTerm(int64(r.Intn(21) - 10))
	for k := r.Intn(6); k > 0; k-- {
		t = t.Add(pb.VarTerm(pb.Var(r.Intn(4))).Scale(int64(r.Intn(7) - 3)))
	}
	return t
}

// TestTermArithmetic checks Add, Sub and Scale against evaluation and the
// canonical form on random terms.
func TestTermArithmetic(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	vals := []int64{0, 0, 0, 0}
	val := func(v pb.Var) int64 { return vals[v] }
	for i := 0; i < 2000; i++ {
		a, b := randTerm(r), randTerm(r)
		k := int64(r.Intn(9) - 4)
		for j := range vals {
			vals[j] = int64(r.Intn(21) - 10)
		}
		for _, c := range []struct {
			name string
			t    pb.Term
			want int64
		}{
			{"a", a, a.Eval(val)},
			{"a+b", a.Add(b), a.Eval(val) + b.Eval(val)},
			{"a-b", a.Sub(b), a.Eval(val) - b.Eval(val)},
			{"k*a", a.Scale(k), k * a.Eval(val)},
		} {
			if why := canonical(c.t); why != "" {
				t.Fatalf("%s = %+v: %s", c.name, c.t, why)
			}
			if got := c.t.Eval(val); got != c.want {
				t.Fatalf("%s = %s evaluates to %d, want %d", c.name, c.t.Format(name), got, c.want)
			}
		}
		// Equal values as terms: canonical forms coincide.
		if !a.Add(b).Equal(b.Add(a)) {
			t.Fatalf("a+b != b+a for %s, %s", a.Format(name), b.Format(name))
		}
		if d := a.Sub(a); !d.Equal(pb.Term{}) || !d.IsConst() {
			t.Fatalf("a-a = %+v, want the zero term", d)
		}
		if s := a.Scale(0); !s.Equal(pb.Term{}) {
			t.Fatalf("0*a = %+v", s)
		}
	}
}

func TestTermSubst(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 500; i++ {
		a := randTerm(r)
		subs := make([]pb.Term, 4)
		for j := range subs {
			subs[j] = randTerm(r)
		}
		vals := []int64{int64(r.Intn(7) - 3), int64(r.Intn(7) - 3), int64(r.Intn(7) - 3), int64(r.Intn(7) - 3)}
		val := func(v pb.Var) int64 { return vals[v] }
		got := a.Subst(func(v pb.Var) pb.Term { return subs[v] })
		want := a.Eval(func(v pb.Var) int64 { return subs[v].Eval(val) })
		if why := canonical(got); why != "" {
			t.Fatalf("%+v: %s", got, why)
		}
		if got.Eval(val) != want {
			t.Fatalf("subst of %s: %s = %d, want %d", a.Format(name), got.Format(name), got.Eval(val), want)
		}
	}
}

func TestSum(t *testing.T) {
	got := pb.Sum(2, 0, 2, 1)
	want := pb.Term{Monos: []pb.Mono{{Var: 0, Coef: 1}, {Var: 1, Coef: 1}, {Var: 2, Coef: 2}}}
	if !got.Equal(want) {
		t.Errorf("Sum = %+v, want %+v", got, want)
	}
	if !pb.Sum().Equal(pb.ConstTerm(0)) {
		t.Errorf("empty Sum = %+v", pb.Sum())
	}
}

func TestTermFormat(t *testing.T) {
	x, y, z := pb.VarTerm(0), pb.VarTerm(1), pb.VarTerm(2)
	for _, tc := range []struct {
		t    pb.Term
		want string
	}{
		{pb.ConstTerm(0), "0"},
		{pb.ConstTerm(-7), "-7"},
		{x, "x"},
		{x.Scale(-1), "-x"},
		{x.Scale(-3).Add(pb.ConstTerm(2)), "-3*x + 2"},
		{x.Sub(y.Scale(2)).Add(pb.ConstTerm(-4)), "x - 2*y - 4"},
		{z.Add(x).Add(y.Scale(-1)), "x - y + z"},
		{y.Scale(5).Add(x.Scale(-1)), "-x + 5*y"},
	} {
		if got := tc.t.Format(name); got != tc.want {
			t.Errorf("Format(%+v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}
