package presburger_test

import (
	"context"
	"math"
	"math/rand"
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

// oneVarFormula is a random formula of depth at most depth over vs
// whose atoms each read one variable: a*v + c op 0 with a in -3..3 but
// 0 and c in -8..8, so that every atom's truth changes inside -9..9.
func oneVarFormula(r *rand.Rand, depth int, vs []pb.Var) pb.Formula {
	if depth == 0 || r.Intn(4) == 0 {
		a := int64(r.Intn(6) - 3)
		if a >= 0 {
			a++
		}
		t := pb.VarTerm(vs[r.Intn(len(vs))]).Scale(a).Add(pb.ConstTerm(int64(r.Intn(17) - 8)))
		return pb.Cmp{Op: pb.Op(r.Intn(6)), T: t}
	}
	parts := make([]pb.Formula, 1+r.Intn(3))
	for i := range parts {
		parts[i] = oneVarFormula(r, depth-1, vs)
	}
	switch r.Intn(3) {
	case 0:
		return pb.Not{F: parts[0]}
	case 1:
		return pb.And(parts)
	}
	return pb.Or(parts)
}

// oneVarBounds are random ranges of vs, some open on a side when open
// is set, and some variables given twice (their ranges intersect).
func oneVarBounds(r *rand.Rand, vs []pb.Var, open bool) []pb.Bound {
	var out []pb.Bound
	for _, v := range vs {
		lo := int64(r.Intn(15) - 10)
		b := pb.Bound{Var: v, Lo: lo, Hi: lo + int64(r.Intn(12))}
		if open {
			b.NoLo, b.NoHi = r.Intn(3) == 0, r.Intn(3) == 0
		}
		out = append(out, b)
		if r.Intn(6) == 0 {
			lo := int64(r.Intn(15) - 10)
			out = append(out, pb.Bound{Var: v, Lo: lo, Hi: lo + int64(r.Intn(12))})
		}
	}
	return out
}

// TestSolveByValuesAgainstBruteForce compares SolveByValues with
// enumeration on random problems whose atoms read one variable each:
// over finite ranges as they are, and over ranges open on a side
// through the window -40..40, which holds values on both sides of every
// point where an atom's truth changes (inside -9..9) and so decides the
// open problem as well. Every Sat model must satisfy the problem, and
// Quick, where it answers, must agree.
func TestSolveByValuesAgainstBruteForce(t *testing.T) {
	for _, open := range []bool{false, true} {
		r := rand.New(rand.NewSource(11))
		n := 4000
		if testing.Short() {
			n = 1000
		}
		count := map[pb.Result]int{}
		for i := 0; i < n; i++ {
			vs := []pb.Var{0, 1, 2}[:1+r.Intn(3)]
			p := pb.Problem{Bounds: oneVarBounds(r, vs, open), F: oneVarFormula(r, 3, vs)}
			got, ok := pb.SolveByValues(p, 1000)
			if !ok {
				t.Fatalf("declined %s over %v", pb.Format(p.F, name), p.Bounds)
			}
			window := make([]pb.Bound, len(p.Bounds))
			for k, b := range p.Bounds {
				window[k] = b.Intersect(pb.Bound{Var: b.Var, Lo: -40, Hi: 40})
			}
			want, err := pb.BruteForce{}.Solve(context.Background(), pb.Problem{Bounds: window, F: p.F})
			if err != nil && !emptyRange(window) {
				t.Fatal(err)
			}
			if err != nil {
				want.Result = pb.Unsat // an empty intersection
			}
			if got.Result != want.Result {
				t.Fatalf("%s over %v: SolveByValues %v, enumeration %v", pb.Format(p.F, name), p.Bounds, got.Result, want.Result)
			}
			if got.Result == pb.Sat {
				checkModel(t, p, got.Model)
			}
			if q, err := (pb.Quick{}).Solve(context.Background(), p); err == nil && q.Result != pb.Unknown && q.Result != got.Result {
				t.Fatalf("%s over %v: SolveByValues %v, Quick %v", pb.Format(p.F, name), p.Bounds, got.Result, q.Result)
			}
			count[got.Result]++
		}
		t.Logf("open %v: %d problems: %v", open, n, count)
		if count[pb.Sat] < n/5 || count[pb.Unsat] < n/5 {
			t.Errorf("open %v: too one-sided to test much: %v", open, count)
		}
	}
}

// emptyRange reports whether some variable's ranges in bs do not meet.
func emptyRange(bs []pb.Bound) bool {
	for _, b := range pb.Intersect(bs) {
		if b.Empty() {
			return true
		}
	}
	return false
}

// checkModel fails t unless m puts every variable of p in its ranges
// and satisfies p.F.
func checkModel(t *testing.T, p pb.Problem, m pb.Model) {
	t.Helper()
	for _, b := range p.Bounds {
		if x, ok := m[b.Var]; !ok || !b.Contains(x) {
			t.Fatalf("%s over %v: model %v leaves %s's range %s", pb.Format(p.F, name), p.Bounds, m, name(b.Var), b.Range())
		}
	}
	if !pb.Eval(p.F, func(v pb.Var) int64 { return m[v] }) {
		t.Fatalf("%s over %v: model %v does not satisfy it", pb.Format(p.F, name), p.Bounds, m)
	}
}

// TestSolveByValuesKnown checks answers that need the values beside a
// point (an integer gap, a range that starts past every point), the
// problems it declines, and constants near int64's ends.
func TestSolveByValuesKnown(t *testing.T) {
	x, y := pb.Var(0), pb.Var(1)
	X, Y := pb.VarTerm(x), pb.VarTerm(y)
	k := pb.ConstTerm
	for _, tt := range []struct {
		name   string
		bounds []pb.Bound
		f      pb.Formula
		want   pb.Result // Unknown: declined
	}{
		{"gap", []pb.Bound{pb.AnyInt(x)}, pb.Compare(X.Scale(2), pb.Eq, k(1)), pb.Unsat},
		{"between", []pb.Bound{pb.AnyInt(x)}, pb.Conj(pb.Compare(X.Scale(3), pb.Gt, k(4)), pb.Compare(X.Scale(3), pb.Lt, k(8))), pb.Sat},
		{"no integer between", []pb.Bound{pb.AnyInt(x)}, pb.Conj(pb.Compare(X.Scale(3), pb.Gt, k(4)), pb.Compare(X.Scale(3), pb.Lt, k(6))), pb.Unsat},
		{"past every point", []pb.Bound{pb.AtLeast(x, 100)}, pb.Conj(pb.Compare(X, pb.Ne, k(3)), pb.Compare(X, pb.Gt, k(5))), pb.Sat},
		{"below every point", []pb.Bound{{Var: x, NoLo: true, Hi: -100}}, pb.Compare(X, pb.Lt, k(-99)), pb.Sat},
		{"one value left out", []pb.Bound{{Var: x, Lo: 3, Hi: 3}}, pb.Compare(X, pb.Ne, k(3)), pb.Unsat},
		{"every value of a controller", []pb.Bound{{Var: x, Lo: 0, Hi: 3}},
			pb.Not{F: pb.Disj(pb.Compare(X, pb.Eq, k(0)), pb.Compare(X, pb.Eq, k(1)), pb.Compare(X, pb.Eq, k(2)), pb.Compare(X, pb.Eq, k(3)))}, pb.Unsat},
		{"ranges that do not meet", []pb.Bound{{Var: x, Lo: 0, Hi: 1}, {Var: x, Lo: 2, Hi: 3}}, pb.True, pb.Unsat},
		{"a variable only in the bounds", []pb.Bound{pb.AnyInt(x), {Var: y, NoLo: true, Hi: -5}}, pb.Compare(X, pb.Ge, k(0)), pb.Sat},
		{"two variables in an atom", []pb.Bound{pb.AnyInt(x), pb.AnyInt(y)}, pb.Compare(X, pb.Lt, Y), pb.Unknown},
		{"a quantifier", []pb.Bound{pb.AnyInt(x)}, pb.Exists{Vars: []pb.Bound{{Var: y, Lo: 0, Hi: 1}}, Body: pb.Compare(X, pb.Eq, Y)}, pb.Unknown},
		{"near the top", []pb.Bound{pb.AnyInt(x)}, pb.Compare(X, pb.Gt, k(math.MaxInt64-1)), pb.Unknown},
		{"a large coefficient", []pb.Bound{pb.AnyInt(x)}, pb.Compare(X.Scale(math.MaxInt64/2), pb.Gt, k(0)), pb.Unknown},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := pb.Problem{Bounds: tt.bounds, F: tt.f}
			got, ok := pb.SolveByValues(p, 1000)
			if !ok {
				got.Result = pb.Unknown
			}
			if got.Result != tt.want {
				t.Fatalf("got %v (ok %v), want %v", got.Result, ok, tt.want)
			}
			if got.Result == pb.Sat {
				checkModel(t, p, got.Model)
			}
		})
	}
	// The limit on assignments: three variables of 0..9 each, every value
	// a representative, need 1000.
	var f []pb.Formula
	var bs []pb.Bound
	for v := pb.Var(0); v < 3; v++ {
		bs = append(bs, pb.Bound{Var: v, Lo: 0, Hi: 9})
		for c := int64(0); c < 10; c++ {
			f = append(f, pb.Compare(pb.VarTerm(v), pb.Ne, k(c)))
		}
	}
	p := pb.Problem{Bounds: bs, F: pb.Disj(f...)}
	if _, ok := pb.SolveByValues(p, 999); ok {
		t.Errorf("answered within 999 assignments a problem that needs 1000")
	}
	if a, ok := pb.SolveByValues(p, 1000); !ok || a.Result != pb.Sat {
		t.Errorf("got %v (ok %v) within 1000 assignments, want sat", a.Result, ok)
	}
}
