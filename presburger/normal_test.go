package presburger_test

import (
	"math"
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

// isNNFAtom reports whether f may appear as a leaf of an NNF formula.
func isNNFAtom(f pb.Formula) bool {
	switch f := f.(type) {
	case pb.Cmp:
		return f.Op != pb.Ne
	case pb.Exists:
		return isNNF(f.Body)
	case pb.Not:
		e, ok := f.F.(pb.Exists)
		return ok && isNNF(e.Body)
	}
	return false
}

// isNNF checks the shape NNF promises: And/Or over atoms without Ne,
// negation only in front of an Exists, bodies of Exists in NNF too.
func isNNF(f pb.Formula) bool {
	switch f := f.(type) {
	case pb.Bool:
		return true
	case pb.And:
		for _, g := range f {
			if !isNNF(g) {
				return false
			}
		}
		return true
	case pb.Or:
		for _, g := range f {
			if !isNNF(g) {
				return false
			}
		}
		return true
	}
	return isNNFAtom(f)
}

// TestNormalForms checks on random formulas that NNF and DNF are
// equivalent to the input under every assignment in range and have the
// promised shape.
func TestNormalForms(t *testing.T) {
	g := newGen(4, 3)
	mixed := 0 // formulas true somewhere and false somewhere in their box
	for i := 0; i < 400; i++ {
		bs := g.bounds()
		f := g.formula(4, g.vars())
		n := pb.NNF(f)
		if !isNNF(n) {
			t.Fatalf("NNF(%s) = %s is not in NNF", pb.Format(f, name), pb.Format(n, name))
		}
		d := pb.DNF(f)
		// DNFSize counts the clauses without building them, and
		// saturates below their number.
		if got := pb.DNFSize(f, len(d)); got != len(d) {
			t.Fatalf("DNFSize(%s) = %d, DNF has %d clauses", pb.Format(f, name), got, len(d))
		}
		if len(d) > 0 {
			if got := pb.DNFSize(f, len(d)-1); got != len(d) {
				t.Fatalf("DNFSize(%s, %d) = %d, want the limit+1 %d", pb.Format(f, name), len(d)-1, got, len(d))
			}
			if _, ok := pb.DNFWithin(f, len(d)-1); ok {
				t.Fatalf("DNFWithin(%s, %d) builds %d clauses", pb.Format(f, name), len(d)-1, len(d))
			}
		}
		for _, clause := range d {
			for _, a := range clause {
				if !isNNFAtom(a) {
					t.Fatalf("DNF(%s) has non-atom %s", pb.Format(f, name), pb.Format(a, name))
				}
			}
		}
		seen := map[bool]bool{}
		forAll(bs, func(val func(pb.Var) int64) {
			want := pb.Eval(f, val)
			seen[want] = true
			if got := pb.Eval(n, val); got != want {
				t.Fatalf("NNF(%s) = %s: %v, want %v", pb.Format(f, name), pb.Format(n, name), got, want)
			}
			got := false
			for _, clause := range d {
				if pb.Eval(pb.And(clause), val) {
					got = true
					break
				}
			}
			if got != want {
				t.Fatalf("DNF(%s) = %v: %v, want %v", pb.Format(f, name), d, got, want)
			}
		})
		if len(seen) == 2 {
			mixed++
		}
	}
	// Constant formulas would make the comparison above prove little.
	if mixed < 40 {
		t.Errorf("only %d of 400 formulas take both truth values", mixed)
	}
}

func TestDNFKnown(t *testing.T) {
	a := pb.Compare(tx, pb.Lt, k(1))
	b := pb.Compare(ty, pb.Lt, k(1))
	for _, tc := range []struct {
		name string
		f    pb.Formula
		want int // number of clauses
	}{
		{"true", pb.True, 1},
		{"false", pb.False, 0},
		{"atom", a, 1},
		{"ne-splits", pb.Compare(tx, pb.Ne, k(0)), 2},
		{"and-of-ors", pb.And{pb.Or{a, b}, pb.Or{a, b}}, 4},
		{"not-and", pb.Not{F: pb.And{a, b}}, 2},
		{"false-clause-dropped", pb.Or{pb.And{a, pb.False}, b}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := pb.DNF(tc.f); len(got) != tc.want {
				t.Errorf("DNF has %d clauses, want %d: %v", len(got), tc.want, got)
			}
			if got := pb.DNFSize(tc.f, 100); got != tc.want {
				t.Errorf("DNFSize = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestDNFSizeExponential: the conjunction of 64 negated guards (2^64
// clauses, which DNF could never build) is counted in linear time and
// saturates at the limit; a part without clauses makes the whole none,
// even after the count has saturated.
func TestDNFSizeExponential(t *testing.T) {
	var parts []pb.Formula
	for i := range 64 {
		x := pb.VarTerm(pb.Var(i))
		guard := pb.Conj(pb.Compare(x, pb.Ge, k(1)), pb.Compare(ty, pb.Le, k(int64(i))))
		parts = append(parts, pb.Negation(guard))
	}
	f := pb.Conj(parts...)
	if got := pb.DNFSize(f, 1000); got != 1001 {
		t.Errorf("DNFSize = %d, want 1001 (saturated)", got)
	}
	if d, ok := pb.DNFWithin(f, 1<<20); ok || d != nil {
		t.Errorf("DNFWithin built %d clauses of a 2^64-clause DNF (ok %v)", len(d), ok)
	}
	if got := pb.DNFSize(pb.And{f, pb.False}, 1000); got != 0 {
		t.Errorf("DNFSize of f & false = %d, want 0", got)
	}
	if d, ok := pb.DNFWithin(pb.Conj(parts[:3]...), 8); !ok || len(d) != 8 {
		t.Errorf("DNFWithin of 3 negated guards: %d clauses (ok %v), want 8", len(d), ok)
	}
}

// TestExpandRandom: Expand(f) agrees with f under every assignment of
// the free variables in a box, and refuses open ranges and expansions
// over the limit.
func TestExpandRandom(t *testing.T) {
	g := newGen(13, 3)
	n := 0
	for i := 0; i < 400; i++ {
		ex, ok := g.formula(3, g.vars()).(pb.Exists)
		if !ok {
			continue
		}
		n++
		got, err := pb.Expand(ex, 1000)
		if err != nil {
			t.Fatal(err)
		}
		forAll(g.bounds(), func(val func(pb.Var) int64) {
			if pb.Eval(got, val) != pb.Eval(ex, val) {
				t.Fatalf("Expand(%s) = %s differs", pb.Format(ex, name), pb.Format(got, name))
			}
		})
	}
	if n < 50 {
		t.Errorf("only %d Exists formulas", n)
	}
	body := pb.Compare(tx, pb.Eq, ty)
	for _, tc := range []struct {
		vars  []pb.Bound
		limit int64
		ok    bool
	}{
		{[]pb.Bound{{Var: vx, Lo: 0, Hi: 9}, {Var: vy, Lo: 0, Hi: 9}}, 100, true},
		{[]pb.Bound{{Var: vx, Lo: 0, Hi: 9}, {Var: vy, Lo: 0, Hi: 9}}, 99, false},
		{[]pb.Bound{pb.AtLeast(vx, 0)}, 100, false},
		{[]pb.Bound{{Var: vx, Lo: math.MinInt64, Hi: math.MaxInt64}}, 100, false},
		{[]pb.Bound{{Var: vx, Lo: math.MaxInt64 - 2, Hi: math.MaxInt64}}, 100, true},
	} {
		f, err := pb.Expand(pb.Exists{Vars: tc.vars, Body: body}, tc.limit)
		if (err == nil) != tc.ok {
			t.Errorf("Expand over %v, limit %d: %v %v", tc.vars, tc.limit, f, err)
		}
	}
}
