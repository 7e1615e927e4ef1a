package presburger_test

import (
	"math"
	"reflect"
	"testing"

	pb "github.com/vsym/vsym/presburger"
)

var (
	vx, vy, vz = pb.Var(0), pb.Var(1), pb.Var(2)
	tx, ty, tz = pb.VarTerm(vx), pb.VarTerm(vy), pb.VarTerm(vz)
)

func k(c int64) pb.Term { return pb.ConstTerm(c) }

func TestFormat(t *testing.T) {
	a := pb.Compare(tx, pb.Le, k(3))
	b := pb.Compare(ty, pb.Gt, tx)
	c := pb.Compare(tz.Scale(2), pb.Eq, k(0))
	for _, tc := range []struct {
		f    pb.Formula
		want string
	}{
		{pb.True, "true"},
		{pb.False, "false"},
		{a, "x <= 3"},
		{pb.Compare(tx.Add(k(2)), pb.Ne, ty.Add(k(-1))), "x - y != -3"},
		{pb.Cmp{Op: pb.Lt, T: k(4)}, "0 < -4"},
		{pb.And{a, b}, "x <= 3 & -x + y > 0"},
		{pb.Or{a, pb.And{b, c}}, "x <= 3 | -x + y > 0 & 2*z = 0"},
		{pb.And{pb.Or{a, b}, c}, "(x <= 3 | -x + y > 0) & 2*z = 0"},
		{pb.Not{F: a}, "!(x <= 3)"},
		{pb.Not{F: pb.Or{a, b}}, "!(x <= 3 | -x + y > 0)"},
		{pb.Not{F: pb.Not{F: pb.True}}, "!!true"},
		{pb.Exists{Vars: []pb.Bound{{Var: vz, Lo: 0, Hi: 4}}, Body: pb.And{a, c}}, "(exists z in 0..4: x <= 3 & 2*z = 0)"},
		{pb.And{pb.Exists{Vars: []pb.Bound{{Var: vy, Lo: -1, Hi: 1}, {Var: vz, Lo: 0, Hi: 0}}, Body: pb.Or{a, b}}, c},
			"(exists y in -1..1, z in 0..0: x <= 3 | -x + y > 0) & 2*z = 0"},
	} {
		if got := pb.Format(tc.f, name); got != tc.want {
			t.Errorf("Format(%#v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

func TestConstructors(t *testing.T) {
	a := pb.Compare(tx, pb.Le, k(3))
	b := pb.Compare(ty, pb.Gt, tx)
	for _, tc := range []struct {
		name string
		got  pb.Formula
		want pb.Formula
	}{
		{"compare-folds-true", pb.Compare(tx.Add(k(1)), pb.Gt, tx), pb.True},
		{"compare-folds-false", pb.Compare(tx, pb.Ne, tx), pb.False},
		{"compare-moves-right", pb.Compare(tx, pb.Ge, ty.Add(k(2))), pb.Cmp{Op: pb.Ge, T: tx.Sub(ty).Add(k(-2))}},
		{"conj-empty", pb.Conj(), pb.True},
		{"conj-single", pb.Conj(pb.True, a), a},
		{"conj-false", pb.Conj(a, pb.False, b), pb.False},
		{"conj-flattens", pb.Conj(a, pb.Conj(b, a)), pb.And{a, b, a}},
		{"disj-empty", pb.Disj(), pb.False},
		{"disj-true", pb.Disj(a, pb.True), pb.True},
		{"disj-flattens", pb.Disj(pb.Disj(a, b), pb.False, a), pb.Or{a, b, a}},
		{"negation-bool", pb.Negation(pb.True), pb.False},
		{"negation-cmp", pb.Negation(a), pb.Cmp{Op: pb.Gt, T: tx.Add(k(-3))}},
		{"negation-double", pb.Negation(pb.Not{F: pb.And{a, b}}), pb.And{a, b}},
		{"negation-and", pb.Negation(pb.And{a, b}), pb.Not{F: pb.And{a, b}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !reflect.DeepEqual(tc.got, tc.want) {
				t.Errorf("got %#v, want %#v", tc.got, tc.want)
			}
		})
	}
}

// TestConnectivesTruthTable checks Implies, Iff and Negation on all
// combinations of truth values, via atoms over x in 0..1.
func TestConnectivesTruthTable(t *testing.T) {
	p := pb.Compare(tx, pb.Eq, k(1))
	q := pb.Compare(ty, pb.Eq, k(1))
	bs := []pb.Bound{{Var: vx, Lo: 0, Hi: 1}, {Var: vy, Lo: 0, Hi: 1}}
	forAll(bs, func(val func(pb.Var) int64) {
		P, Q := val(vx) == 1, val(vy) == 1
		for _, c := range []struct {
			name string
			f    pb.Formula
			want bool
		}{
			{"implies", pb.Implies(p, q), !P || Q},
			{"iff", pb.Iff(p, q), P == Q},
			{"not", pb.Negation(pb.And{p, q}), !(P && Q)},
		} {
			if got := pb.Eval(c.f, val); got != c.want {
				t.Errorf("%s at P=%v Q=%v: got %v", c.name, P, Q, got)
			}
		}
	})
}

// TestOpNegate: "t op 0" and "t op.Negate() 0" disagree everywhere.
func TestOpNegate(t *testing.T) {
	for op := pb.Eq; op <= pb.Ge; op++ {
		if op.Negate().Negate() != op {
			t.Errorf("%v: double negation is %v", op, op.Negate().Negate())
		}
		for x := int64(-2); x <= 2; x++ {
			a := pb.Eval(pb.Cmp{Op: op, T: k(x)}, nil)
			b := pb.Eval(pb.Cmp{Op: op.Negate(), T: k(x)}, nil)
			if a == b {
				t.Errorf("%v and %v agree at %d", op, op.Negate(), x)
			}
		}
	}
}

// TestOpConverse: "a op b" and "b op.Converse() a" agree everywhere.
func TestOpConverse(t *testing.T) {
	for op := pb.Eq; op <= pb.Ge; op++ {
		for a := int64(-2); a <= 2; a++ {
			for b := int64(-2); b <= 2; b++ {
				if op.Holds(a-b) != op.Converse().Holds(b-a) {
					t.Errorf("%d %v %d but not %d %v %d", a, op, b, b, op.Converse(), a)
				}
			}
		}
	}
}

func TestEvalExists(t *testing.T) {
	even := pb.Exists{Vars: []pb.Bound{{Var: vy, Lo: 0, Hi: 3}}, Body: pb.Compare(tx, pb.Eq, ty.Scale(2))}
	shadow := pb.Exists{Vars: []pb.Bound{{Var: vx, Lo: 0, Hi: 1}}, Body: pb.Compare(tx, pb.Eq, k(1))}
	empty := pb.Exists{Vars: []pb.Bound{{Var: vy, Lo: 1, Hi: 0}}, Body: pb.True}
	// y in MaxInt64-1..MaxInt64 with y > MaxInt64: an enumeration that
	// stepped past MaxInt64 would wrap to MinInt64, where y - MaxInt64 is 1.
	top := pb.Exists{Vars: []pb.Bound{{Var: vy, Lo: math.MaxInt64 - 1, Hi: math.MaxInt64}},
		Body: pb.Cmp{Op: pb.Gt, T: ty.Add(k(-math.MaxInt64))}}
	two := pb.Exists{Vars: []pb.Bound{{Var: vy, Lo: 0, Hi: 2}, {Var: vz, Lo: 0, Hi: 2}},
		Body: pb.Conj(pb.Compare(ty.Add(tz), pb.Eq, tx), pb.Compare(ty, pb.Gt, tz))}
	for _, tc := range []struct {
		name string
		f    pb.Formula
		x    int64
		want bool
	}{
		{"even-4", even, 4, true},
		{"even-6", even, 6, true},
		{"even-5", even, 5, false},
		{"even-8-out-of-range", even, 8, false},
		{"shadow-ignores-outer", shadow, 5, true},
		{"empty-range", empty, 0, false},
		{"two-vars-3", two, 3, true},  // 2+1
		{"two-vars-0", two, 0, false}, // only 0+0, not y > z
		{"two-vars-4", two, 4, false}, // 2+2 fails y > z
		{"negated", pb.Not{F: even}, 5, true},
		{"top-of-int64", top, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := pb.Eval(tc.f, func(v pb.Var) int64 {
				if v != vx {
					t.Fatalf("asked for free variable %d", v)
				}
				return tc.x
			})
			if got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFreeVars(t *testing.T) {
	f := pb.And{
		pb.Compare(tx, pb.Lt, tz),
		pb.Exists{Vars: []pb.Bound{{Var: vx, Lo: 0, Hi: 1}, {Var: 5, Lo: 0, Hi: 1}},
			Body: pb.Compare(tx.Add(pb.VarTerm(5)), pb.Eq, pb.VarTerm(7))},
		pb.Not{F: pb.Compare(pb.VarTerm(4), pb.Eq, k(0))},
	}
	if got, want := pb.FreeVars(f), []pb.Var{0, 2, 4, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("FreeVars = %v, want %v", got, want)
	}
	if got := pb.FreeVars(pb.True); len(got) != 0 {
		t.Errorf("FreeVars(true) = %v", got)
	}
}

// TestSubstRandom: evaluating Subst(f, sub) under val equals evaluating f
// under v -> sub(v)(val), on random formulas with Exists, including
// substitutions whose terms mention variables that f binds.
func TestSubstRandom(t *testing.T) {
	g := newGen(3, 3)
	mixed := 0 // substituted formulas true somewhere and false somewhere
	for i := 0; i < 600; i++ {
		f := g.formula(4, g.vars())
		// Images may use the free variables and the first few
		// variables that Exists binds, to exercise capture.
		pool := append(g.vars(), pb.Var(g.nvars), pb.Var(g.nvars+1))
		subs := map[pb.Var]pb.Term{}
		for _, v := range g.vars() {
			subs[v] = g.term(pool)
		}
		sub := func(v pb.Var) pb.Term { return subs[v] }
		got := pb.Subst(f, sub)
		var bs []pb.Bound
		for _, v := range pool {
			bs = append(bs, pb.Bound{Var: v, Lo: -1, Hi: 1})
		}
		seen := map[bool]bool{}
		forAll(bs, func(val func(pb.Var) int64) {
			want := pb.Eval(f, func(v pb.Var) int64 { return subs[v].Eval(val) })
			seen[want] = true
			if pb.Eval(got, val) != want {
				t.Fatalf("Subst(%s) = %s disagrees (want %v)", pb.Format(f, name), pb.Format(got, name), want)
			}
		})
		if len(seen) == 2 {
			mixed++
		}
	}
	// Constant results would make the comparison above prove little.
	if mixed < 80 {
		t.Errorf("only %d of 600 substituted formulas take both truth values", mixed)
	}
}

// TestSubstCapture: substituting a term that mentions a variable bound
// inside f must not let the quantifier capture it.
func TestSubstCapture(t *testing.T) {
	// f = exists y in 0..1: x = y, i.e. x in 0..1.
	f := pb.Exists{Vars: []pb.Bound{{Var: vy, Lo: 0, Hi: 1}}, Body: pb.Compare(tx, pb.Eq, ty)}
	// x := y + 5: the result must say y + 5 in 0..1, i.e. y in -5..-4.
	got := pb.Subst(f, func(v pb.Var) pb.Term { return ty.Add(k(5)) })
	for y := int64(-6); y <= 2; y++ {
		want := y == -5 || y == -4
		if pb.Eval(got, func(pb.Var) int64 { return y }) != want {
			t.Errorf("Subst = %s at y=%d: got %v, want %v", pb.Format(got, name), y, !want, want)
		}
	}
	if fv := pb.FreeVars(got); !reflect.DeepEqual(fv, []pb.Var{vy}) {
		t.Errorf("FreeVars(%s) = %v, want [y]", pb.Format(got, name), fv)
	}
	// Rename goes through Subst: x -> y.
	ren := pb.Rename(f, func(pb.Var) pb.Var { return vy })
	for y := int64(-1); y <= 2; y++ {
		want := y == 0 || y == 1
		if pb.Eval(ren, func(pb.Var) int64 { return y }) != want {
			t.Errorf("Rename = %s at y=%d: got %v, want %v", pb.Format(ren, name), y, !want, want)
		}
	}
}

func TestFormatEmpty(t *testing.T) {
	for _, tc := range []struct {
		f    pb.Formula
		want string
	}{
		{pb.And{}, "true"},
		{pb.Or{}, "false"},
		{pb.And{pb.Or{}, pb.True}, "false & true"},
		{pb.Not{F: pb.And{}}, "!true"},
	} {
		if got := pb.Format(tc.f, name); got != tc.want {
			t.Errorf("Format(%#v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

// TestConjuncts: Conjuncts undoes Conj, nested conjunctions flattened
// and true dropped, whatever shape the conjunction was built in.
func TestConjuncts(t *testing.T) {
	x, y := pb.Var(0), pb.Var(1)
	a := pb.Compare(pb.VarTerm(x), pb.Ge, pb.ConstTerm(1))
	b := pb.Compare(pb.VarTerm(y), pb.Ge, pb.ConstTerm(2))
	c := pb.Not{F: a}
	for _, tc := range []struct {
		f    pb.Formula
		want []pb.Formula
	}{
		{pb.True, nil},
		{pb.False, []pb.Formula{pb.False}},
		{a, []pb.Formula{a}},
		{pb.And{a, pb.True, pb.And{b, pb.And{c}}}, []pb.Formula{a, b, c}},
		{pb.Conj(a, pb.Conj(b, c)), []pb.Formula{a, b, c}},
		{pb.Disj(a, b), []pb.Formula{pb.Disj(a, b)}},
	} {
		if got := pb.Conjuncts(tc.f); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Conjuncts(%v) = %v, want %v", tc.f, got, tc.want)
		}
	}
}

// TestSolveFor: t = 0 solved for a variable of coefficient 1 or -1, and
// refused for another coefficient, an absent variable or a solution
// beyond int64.
func TestSolveFor(t *testing.T) {
	x, y := pb.Var(0), pb.Var(1)
	term := func(cx, cy, k int64) pb.Term {
		return pb.VarTerm(x).Scale(cx).Add(pb.VarTerm(y).Scale(cy)).Add(pb.ConstTerm(k))
	}
	for _, tc := range []struct {
		t    pb.Term
		v    pb.Var
		want pb.Term
		ok   bool
	}{
		{term(1, 2, -3), x, term(0, -2, 3), true},                             // x + 2y - 3 = 0: x = -2y + 3
		{term(-1, 2, -3), x, term(0, 2, -3), true},                            // -x + 2y - 3 = 0: x = 2y - 3
		{term(2, 1, 0), x, pb.Term{}, false},                                  // coefficient 2
		{term(0, 1, 0), x, pb.Term{}, false},                                  // x absent
		{pb.VarTerm(x).Add(pb.ConstTerm(math.MinInt64)), x, pb.Term{}, false}, // -MinInt64 does not fit
	} {
		got, ok := tc.t.SolveFor(tc.v)
		if ok != tc.ok || ok && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("(%v).SolveFor(%d) = %v, %v; want %v, %v", tc.t, tc.v, got, ok, tc.want, tc.ok)
		}
	}
}
