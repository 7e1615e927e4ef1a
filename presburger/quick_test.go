package presburger_test

import (
	"context"
	"math"
	"math/rand"
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

// checkQuick asks Quick about p and fails t when the answer contradicts
// want (Unknown: no expectation beyond an exact answer) or a model does
// not satisfy p. It returns Quick's answer.
func checkQuick(t *testing.T, q pb.Quick, p pb.Problem, want pb.Result) pb.Answer {
	t.Helper()
	a, err := q.Solve(context.Background(), p)
	if err != nil {
		t.Fatalf("%s: %v", pb.Format(p.F, name), err)
	}
	if a.Result != pb.Unknown && want != pb.Unknown && a.Result != want {
		t.Fatalf("%s over %v: quick %v, want %v", pb.Format(p.F, name), p.Bounds, a.Result, want)
	}
	if a.Result == pb.Sat {
		for _, b := range p.Bounds {
			if x, ok := a.Model[b.Var]; !ok || !b.Contains(x) {
				t.Fatalf("%s: model %v leaves the range %s of %s", pb.Format(p.F, name), a.Model, b.Range(), name(b.Var))
			}
		}
		if !pb.Eval(p.F, func(v pb.Var) int64 { return a.Model[v] }) {
			t.Fatalf("%s: model %v does not satisfy it", pb.Format(p.F, name), a.Model)
		}
	}
	if a.Result == pb.Unknown && a.Reason == "" {
		t.Fatalf("%s: Unknown without a reason", pb.Format(p.F, name))
	}
	return a
}

// linear makes random conjunctions and small disjunctions of linear
// atoms, the shape of the queries that re-check invariants: sums of a
// few variables compared with constants, over ranges of a few values.
func linear(r *rand.Rand) pb.Problem {
	n := 2 + r.Intn(4)
	bs := make([]pb.Bound, n)
	vs := make([]pb.Var, n)
	for i := range bs {
		lo := int64(r.Intn(3) - 1)
		vs[i] = pb.Var(i)
		bs[i] = pb.Bound{Var: vs[i], Lo: lo, Hi: lo + int64(r.Intn(5))}
	}
	atom := func() pb.Formula {
		t := pb.ConstTerm(int64(r.Intn(9) - 4))
		for k := 1 + r.Intn(3); k > 0; k-- {
			t = t.Add(pb.VarTerm(vs[r.Intn(n)]).Scale([]int64{-3, -2, -1, 1, 1, 2, 3}[r.Intn(7)]))
		}
		return pb.Cmp{Op: pb.Op(r.Intn(6)), T: t}
	}
	var fs []pb.Formula
	for k := 1 + r.Intn(5); k > 0; k-- {
		if r.Intn(3) == 0 {
			fs = append(fs, pb.Or{atom(), atom()})
		} else {
			fs = append(fs, atom())
		}
	}
	return pb.Problem{Bounds: bs, F: pb.And(fs)}
}

// wide makes conjunctions of equalities and inequalities with larger
// coefficients over 3 or 4 variables of 13 values each: what solving
// equalities, the forms' rounding and branch and bound are for.
func wide(r *rand.Rand) pb.Problem {
	n := 3 + r.Intn(2)
	bs := make([]pb.Bound, n)
	for i := range bs {
		bs[i] = pb.Bound{Var: pb.Var(i), Lo: -6, Hi: 6}
	}
	var fs []pb.Formula
	for k := 1 + r.Intn(4); k > 0; k-- {
		t := pb.ConstTerm(int64(r.Intn(21) - 10))
		for j := 0; j < n; j++ {
			if r.Intn(3) > 0 {
				t = t.Add(pb.VarTerm(pb.Var(j)).Scale(int64(r.Intn(11) - 5)))
			}
		}
		op := []pb.Op{pb.Eq, pb.Eq, pb.Le, pb.Ge, pb.Lt, pb.Ne}[r.Intn(6)]
		fs = append(fs, pb.Cmp{Op: op, T: t})
	}
	return pb.Problem{Bounds: bs, F: pb.And(fs)}
}

// tableau makes conjunctions of 4 to 9 inequalities and equalities of
// 2 to 6 variables each over 9 variables of 3 values: relaxations of
// many rows whose pivots fill them in, which the sparse tableau keeps
// by entry, and branch and bound on top.
func tableau(r *rand.Rand) pb.Problem {
	const n = 9
	bs := make([]pb.Bound, n)
	for i := range bs {
		lo := int64(r.Intn(3) - 1)
		bs[i] = pb.Bound{Var: pb.Var(i), Lo: lo, Hi: lo + 2}
	}
	var fs []pb.Formula
	for k := 4 + r.Intn(6); k > 0; k-- {
		t := pb.ConstTerm(int64(r.Intn(13) - 6))
		for j := 2 + r.Intn(5); j > 0; j-- {
			t = t.Add(pb.VarTerm(pb.Var(r.Intn(n))).Scale([]int64{-3, -2, -1, -1, 1, 1, 2, 3}[r.Intn(8)]))
		}
		op := []pb.Op{pb.Le, pb.Le, pb.Ge, pb.Ge, pb.Lt, pb.Gt, pb.Eq}[r.Intn(7)]
		fs = append(fs, pb.Cmp{Op: op, T: t})
	}
	return pb.Problem{Bounds: bs, F: pb.And(fs)}
}

// consecution makes the query that re-checks a candidate invariant
// under the steps of a net: Inv & (g1 & !Inv1' | g2 & !Inv2' | ...),
// Inv a conjunction of lemmas "x = 0 | y >= k" and of a sum of places,
// gi a step's guard and Inv' Inv at the step's next state. Its
// disjunctions nest three deep, and the cases of one split narrow the
// others', which the residuals of judge carry down.
func consecution(r *rand.Rand) pb.Problem {
	const n = 7
	bs := make([]pb.Bound, n)
	for i := range bs {
		bs[i] = pb.Bound{Var: pb.Var(i), Lo: 0, Hi: 2}
	}
	x := func(i int, shift []int64) pb.Term { return pb.VarTerm(pb.Var(i)).Add(pb.ConstTerm(shift[i])) }
	type lemma struct {
		a, b int
		k    int64
	}
	var lemmas []lemma
	for k := 2 + r.Intn(5); k > 0; k-- {
		lemmas = append(lemmas, lemma{r.Intn(n), r.Intn(n), int64(1 + r.Intn(2))})
	}
	total := int64(1 + r.Intn(3))
	inv := func(shift []int64) pb.Formula {
		var fs []pb.Formula
		sum := pb.ConstTerm(0)
		for i := 0; i < n; i++ {
			sum = sum.Add(x(i, shift))
		}
		fs = append(fs, pb.Compare(sum, []pb.Op{pb.Eq, pb.Le}[r.Intn(2)], pb.ConstTerm(total)))
		for _, l := range lemmas {
			fs = append(fs, pb.Disj(pb.Compare(x(l.a, shift), pb.Eq, pb.ConstTerm(0)), pb.Compare(x(l.b, shift), pb.Ge, pb.ConstTerm(l.k))))
		}
		return pb.Conj(fs...)
	}
	var steps []pb.Formula
	for k := 2 + r.Intn(4); k > 0; k-- {
		from, to := r.Intn(n), r.Intn(n)
		shift := make([]int64, n)
		shift[from]--
		shift[to]++
		guard := pb.Compare(pb.VarTerm(pb.Var(from)), pb.Ge, pb.ConstTerm(1))
		if r.Intn(2) == 0 {
			guard = pb.Conj(guard, pb.Compare(pb.VarTerm(pb.Var(r.Intn(n))), pb.Eq, pb.ConstTerm(0)))
		}
		steps = append(steps, pb.Conj(guard, pb.Not{F: inv(shift)}))
	}
	return pb.Problem{Bounds: bs, F: pb.Conj(inv(make([]int64, n)), pb.Disj(steps...))}
}

// TestQuickAgainstBruteForce compares Quick with enumeration on random
// problems with finite ranges: every Sat and Unsat must be enumeration's
// answer, and a fair share of them must be decided at all.
func TestQuickAgainstBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		seed   int64
		n      int
		random func(r *rand.Rand, g *gen) pb.Problem
		share  int // at least 1/share of the problems decided
	}{
		{"linear", 1, 3000, func(r *rand.Rand, _ *gen) pb.Problem { return linear(r) }, 2},
		{"wide", 3, 1000, func(r *rand.Rand, _ *gen) pb.Problem { return wide(r) }, 2},
		{"tableau", 5, 300, func(r *rand.Rand, _ *gen) pb.Problem { return tableau(r) }, 2},
		{"consecution", 7, 500, func(r *rand.Rand, _ *gen) pb.Problem { return consecution(r) }, 2},
		{"nested", 2, 3000, func(r *rand.Rand, g *gen) pb.Problem {
			for {
				g.next = pb.Var(g.nvars)
				f := g.formula(3, g.vars())
				if pb.IsQuantifierFree(f) {
					return pb.Problem{Bounds: g.bounds(), F: f}
				}
			}
		}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(tc.seed))
			g := newGen(tc.seed, 3)
			n := tc.n
			if testing.Short() {
				n /= 5
			}
			count := map[pb.Result]int{}
			for i := 0; i < n; i++ {
				p := tc.random(r, g)
				want, err := pb.BruteForce{}.Solve(context.Background(), p)
				if err != nil || want.Result == pb.Unknown {
					t.Fatalf("brute force: %v %v", want, err)
				}
				count[checkQuick(t, pb.Quick{}, p, want.Result).Result]++
			}
			t.Logf("%d problems: %v", n, count)
			if count[pb.Sat] < n/(4*tc.share) || count[pb.Unsat] < n/(4*tc.share) || count[pb.Sat]+count[pb.Unsat] < n/tc.share {
				t.Errorf("Quick decides too few: %v", count)
			}
		})
	}
}

// TestQuickKnown checks problems with known answers: what propagation
// over forms refutes, integer gaps that real-valued reasoning would
// miss, models that need a value far from zero, and numbers near the
// ends of int64, where Quick must decline or answer exactly.
func TestQuickKnown(t *testing.T) {
	x, y, z := pb.Var(0), pb.Var(1), pb.Var(2)
	X, Y, Z := pb.VarTerm(x), pb.VarTerm(y), pb.VarTerm(z)
	k := pb.ConstTerm
	open := []pb.Bound{pb.AnyInt(x), pb.AnyInt(y), pb.AnyInt(z)}
	counters := []pb.Bound{pb.AtLeast(x, 0), pb.AtLeast(y, 0), pb.AtLeast(z, 0)}
	const big = math.MaxInt64
	tests := []struct {
		name   string
		bounds []pb.Bound
		f      pb.Formula
		want   pb.Result // Unknown: either exact answer, or none
		must   bool      // Quick must answer (not Unknown)
	}{
		{"same form both sides", open, pb.Conj(pb.Compare(X.Add(Y), pb.Le, k(1)), pb.Compare(X.Add(Y), pb.Ge, k(2))), pb.Unsat, true},
		{"same form scaled", open, pb.Conj(pb.Compare(X.Scale(2).Add(Y.Scale(2)), pb.Le, k(3)), pb.Compare(X.Add(Y).Scale(-3), pb.Le, k(-6))), pb.Unsat, true},
		{"state equation consecution", counters, pb.Conj(pb.Compare(X.Add(Y), pb.Le, k(1)), pb.Compare(X, pb.Ge, k(1)),
			pb.Compare(X.Sub(k(1)).Add(Y.Add(k(1))).Add(Z), pb.Gt, k(1)), pb.Compare(Z, pb.Eq, k(0))), pb.Unsat, true},
		{"opposite forms", open, pb.Conj(pb.Compare(X.Sub(Y), pb.Ge, k(1)), pb.Compare(Y.Sub(X), pb.Ge, k(1))), pb.Unsat, true},
		{"even equals odd", open, pb.Compare(X.Scale(2).Add(Y.Scale(4)), pb.Eq, k(3)), pb.Unsat, true},
		{"gap of one variable", open, pb.Conj(pb.Compare(X.Scale(3), pb.Ge, k(1)), pb.Compare(X.Scale(3), pb.Le, k(2))), pb.Unsat, true},
		{"gap not found by bounds", open, pb.Conj(pb.Compare(X.Scale(2).Sub(Y.Scale(2)), pb.Ge, k(1)), pb.Compare(X.Scale(2).Sub(Y.Scale(2)), pb.Le, k(1))), pb.Unsat, true},
		{"integer gap two forms", []pb.Bound{{Var: x, Lo: 0, Hi: 10}, {Var: y, Lo: 0, Hi: 10}},
			pb.Conj(pb.Compare(X.Scale(3).Add(Y.Scale(3)), pb.Eq, k(4)).(pb.Cmp), pb.Compare(X, pb.Ge, k(0))), pb.Unsat, true},
		{"no integer between", open, pb.Conj(pb.Compare(X.Scale(2).Add(Y), pb.Eq, k(1)), pb.Compare(X.Scale(2).Sub(Y), pb.Eq, k(0))), pb.Unsat, false},
		{"disjunction all false", counters, pb.Conj(pb.Compare(X, pb.Le, k(2)), pb.Disj(pb.Compare(X, pb.Ge, k(3)), pb.Compare(X.Add(Y), pb.Lt, k(0)))), pb.Unsat, true},
		{"not equal splits", []pb.Bound{{Var: x, Lo: 0, Hi: 0}}, pb.Compare(X, pb.Ne, k(0)), pb.Unsat, true},
		{"far model", counters, pb.Compare(X.Add(Y), pb.Ge, k(1_000_000_000_000)), pb.Sat, true},
		{"negative model", open, pb.Compare(X, pb.Lt, k(-5)), pb.Sat, true},
		{"open both ways", open, pb.Compare(X.Sub(Y), pb.Eq, k(7)), pb.Sat, true},
		{"unbounded chain", counters, pb.Conj(pb.Compare(X, pb.Lt, Y), pb.Compare(Y, pb.Lt, Z)), pb.Sat, true},
		{"descent", open, pb.Conj(pb.Compare(X, pb.Lt, Y), pb.Compare(Y, pb.Lt, X.Add(k(1)))), pb.Unsat, false},
		{"near the top", []pb.Bound{{Var: x, Lo: big - 2, Hi: big}}, pb.Compare(X, pb.Ge, k(big-1)), pb.Sat, false},
		{"below the limit", []pb.Bound{{Var: x, Lo: 1 << 61, Hi: 1<<61 + 5}}, pb.Compare(X, pb.Ge, k(1<<61+3)), pb.Sat, true},
		{"sum beyond int64", []pb.Bound{{Var: x, Lo: big - 2, Hi: big}, {Var: y, Lo: big - 2, Hi: big}}, pb.Compare(X.Add(Y), pb.Le, k(0)), pb.Unsat, false},
		{"sum beyond int64 sat", []pb.Bound{{Var: x, Lo: big - 2, Hi: big}, {Var: y, Lo: big - 2, Hi: big}}, pb.Compare(X.Sub(Y), pb.Eq, k(2)), pb.Sat, false},
		{"big coefficients", open, pb.Conj(pb.Cmp{Op: pb.Ge, T: pb.Term{Monos: []pb.Mono{{Var: x, Coef: big}, {Var: y, Coef: big - 1}}, Const: -1}},
			pb.Cmp{Op: pb.Le, T: pb.Term{Monos: []pb.Mono{{Var: x, Coef: big}, {Var: y, Coef: big - 1}}, Const: math.MinInt64 + 1}}), pb.Sat, false},
		{"big coefficient small range", []pb.Bound{{Var: x, Lo: -3, Hi: 3}, {Var: y, Lo: -3, Hi: 3}},
			pb.Cmp{Op: pb.Eq, T: pb.Term{Monos: []pb.Mono{{Var: x, Coef: big / 2}, {Var: y, Coef: big / 2}}, Const: 0}}, pb.Sat, false},
		{"min int constant", open, pb.Cmp{Op: pb.Lt, T: pb.Term{Monos: []pb.Mono{{Var: x, Coef: 1}}, Const: math.MinInt64}}, pb.Unknown, false},
		{"max int constant", counters, pb.Cmp{Op: pb.Gt, T: pb.Term{Monos: []pb.Mono{{Var: x, Coef: -1}}, Const: math.MaxInt64}}, pb.Sat, false},
		{"value beyond int64 needed", counters, pb.Cmp{Op: pb.Ge, T: pb.Term{Monos: []pb.Mono{{Var: x, Coef: 1}, {Var: y, Coef: -1}}, Const: math.MinInt64 + 1}}, pb.Sat, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := checkQuick(t, pb.Quick{}, pb.Problem{Bounds: tt.bounds, F: tt.f}, tt.want)
			if tt.must && a.Result == pb.Unknown {
				t.Errorf("Unknown (%s), want %v", a.Reason, tt.want)
			}
		})
	}
}

// TestQuickDeclines checks that Quick answers Unknown, with a reason,
// on what it does not decide: a quantifier, a budget spent, a
// cancelled context; and errors on a malformed problem as every Solver
// does.
func TestQuickDeclines(t *testing.T) {
	x, y := pb.Var(0), pb.Var(1)
	X, Y := pb.VarTerm(x), pb.VarTerm(y)
	ex := pb.Exists{Vars: []pb.Bound{{Var: y, Lo: 0, Hi: 3}}, Body: pb.Compare(X, pb.Eq, Y)}
	a := checkQuick(t, pb.Quick{}, pb.Problem{Bounds: []pb.Bound{pb.AtLeast(x, 0)}, F: ex}, pb.Unknown)
	if a.Result != pb.Unknown {
		t.Errorf("an Exists: %v, want Unknown", a.Result)
	}
	// x < y < z < x has no solution, which the linear relaxation shows;
	// propagation over these ranges narrows them by a few units a
	// round, and a small budget runs out first.
	z := pb.Var(2)
	Z := pb.VarTerm(z)
	descent := pb.Problem{Bounds: []pb.Bound{{Var: x, Lo: 0, Hi: 1_000_000}, {Var: y, Lo: 0, Hi: 1_000_000}, {Var: z, Lo: 0, Hi: 1_000_000}},
		F: pb.Conj(pb.Compare(X, pb.Lt, Y), pb.Compare(Y, pb.Lt, Z), pb.Compare(Z, pb.Lt, X))}
	if a := checkQuick(t, pb.Quick{Steps: 100}, descent, pb.Unsat); a.Result != pb.Unknown {
		t.Errorf("100 steps: %v, want Unknown", a.Result)
	}
	if a := checkQuick(t, pb.Quick{}, descent, pb.Unsat); a.Result != pb.Unsat {
		t.Errorf("default steps: %v, want Unsat", a.Result)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, err := pb.Quick{}.Solve(ctx, pb.Problem{Bounds: []pb.Bound{pb.AtLeast(x, 0)}, F: pb.Compare(X, pb.Ge, pb.ConstTerm(1))})
	if err != nil || a.Result != pb.Unknown || !a.Stopped {
		t.Errorf("cancelled: %+v %v, want Unknown and Stopped", a, err)
	}
	for _, p := range []pb.Problem{
		{F: pb.Compare(X, pb.Ge, Y)},
		{Bounds: []pb.Bound{pb.AnyInt(x)}, F: pb.Compare(Y, pb.Eq, X.Add(pb.ConstTerm(1)))},
		{Bounds: []pb.Bound{pb.AnyInt(x)}, F: pb.Compare(Y.Scale(2), pb.Eq, X.Add(pb.ConstTerm(1)))},
		{Bounds: []pb.Bound{{Var: x, Lo: 1, Hi: 0}}, F: pb.Compare(X, pb.Ge, pb.ConstTerm(0))},
	} {
		if _, err := (pb.Quick{}).Solve(context.Background(), p); err == nil {
			t.Errorf("%s over %v: no error", pb.Format(p.F, name), p.Bounds)
		}
	}
}

// TestChain checks that a Chain returns the first answer that is not
// Unknown and counts who gave it.
func TestChain(t *testing.T) {
	x := pb.Var(0)
	X := pb.VarTerm(x)
	c := pb.NewChain(pb.Quick{}, pb.BruteForce{})
	ctx := context.Background()
	easy := pb.Problem{Bounds: []pb.Bound{{Var: x, Lo: 0, Hi: 5}}, F: pb.Compare(X, pb.Gt, pb.ConstTerm(5))}
	hard := pb.Problem{Bounds: []pb.Bound{{Var: x, Lo: 0, Hi: 5}}, F: pb.Exists{Vars: []pb.Bound{{Var: 1, Lo: 0, Hi: 2}}, Body: pb.Compare(X, pb.Eq, pb.VarTerm(1).Scale(2).Add(pb.ConstTerm(1)))}}
	for _, p := range []pb.Problem{easy, hard, hard} {
		want, _ := pb.BruteForce{}.Solve(ctx, p)
		a, err := c.Solve(ctx, p)
		if err != nil || a.Result != want.Result {
			t.Fatalf("%s: %v %v, want %v", pb.Format(p.F, name), a.Result, err, want.Result)
		}
	}
	if got, want := c.Asked(), []int64{3, 2}; got[0] != want[0] || got[1] != want[1] {
		t.Errorf("asked %v, want %v", got, want)
	}
	if got, want := c.Answered(), []int64{1, 2}; got[0] != want[0] || got[1] != want[1] {
		t.Errorf("answered %v, want %v", got, want)
	}
}
