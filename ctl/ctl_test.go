package ctl

import (
	"testing"

	"github.com/vsym/vsym/presburger"
)

func name(v presburger.Var) string { return []string{"#N", "#T", "#C"}[v] }

func atom(v presburger.Var, op presburger.Op, k int64) Formula {
	return Atom{presburger.Compare(presburger.VarTerm(v), op, presburger.ConstTerm(k))}
}

func TestFormat(t *testing.T) {
	p, q := atom(2, presburger.Le, 1), atom(1, presburger.Gt, 0)
	tests := []struct {
		f    Formula
		want string
	}{
		{Unary{AG, p}, "AG (#C <= 1)"},
		{Binary{Implies, Unary{AG, q}, p}, "(AG (#T > 0) -> (#C <= 1))"},
		{Unary{AG, Binary{Implies, q, Unary{EF, p}}}, "AG ((#T > 0) -> EF (#C <= 1))"},
		{Not{Until{All: true, L: q, R: p}}, "!A[(#T > 0) U (#C <= 1)]"},
		{Until{L: Binary{Or, p, q}, R: Unary{EX, Binary{And, p, q}}}, "E[((#C <= 1) | (#T > 0)) U EX ((#C <= 1) & (#T > 0))]"},
		{Unary{EG, Unary{AF, Unary{AX, p}}}, "EG AF AX (#C <= 1)"},
	}
	for _, tc := range tests {
		if got := Format(tc.f, name); got != tc.want {
			t.Errorf("Format = %q, want %q", got, tc.want)
		}
	}
}

func TestAtoms(t *testing.T) {
	p, q, r := atom(0, presburger.Eq, 3), atom(1, presburger.Ge, 1), atom(2, presburger.Eq, 0)
	f := Binary{And, Unary{EF, p}, Until{All: true, L: Not{q}, R: r}}
	got := Atoms(f)
	want := []Formula{p, q, r}
	if len(got) != len(want) {
		t.Fatalf("Atoms returned %d atoms, want %d", len(got), len(want))
	}
	for i := range want {
		if g, w := presburger.Format(got[i], name), presburger.Format(want[i].(Atom).P, name); g != w {
			t.Errorf("atom %d = %s, want %s", i, g, w)
		}
	}
}

func TestDual(t *testing.T) {
	want := map[TempOp]TempOp{EX: AX, AX: EX, EF: AG, AG: EF, EG: AF, AF: EG}
	for op, d := range want {
		if got := op.Dual(); got != d {
			t.Errorf("Dual(%v) = %v, want %v", op, got, d)
		}
		if op.Existential() == d.Existential() {
			t.Errorf("%v and its dual %v are both existential or both universal", op, d)
		}
	}
	if !EF.Existential() || AG.Existential() {
		t.Error("EF must be existential and AG universal")
	}
}

func TestUniversal(t *testing.T) {
	p := Atom{P: presburger.True}
	cases := []struct {
		f    Formula
		want bool
	}{
		{p, true},
		{Unary{Op: AG, X: p}, true},
		{Unary{Op: AG, X: Binary{Op: Implies, L: p, R: Unary{Op: AF, X: p}}}, true},
		{Not{X: Unary{Op: EF, X: p}}, true},
		{Not{X: Until{L: p, R: p}}, true},
		{Until{All: true, L: p, R: Unary{Op: AX, X: p}}, true},
		{Binary{Op: Implies, L: Unary{Op: EX, X: p}, R: Unary{Op: AG, X: p}}, true}, // !EX p | AG p
		{Unary{Op: EF, X: p}, false},
		{Unary{Op: AG, X: Unary{Op: EF, X: p}}, false},
		{Not{X: Unary{Op: AG, X: p}}, false},
		{Binary{Op: Implies, L: Unary{Op: AG, X: p}, R: p}, false}, // EF !p | p
		{Until{L: p, R: p}, false},
		{Not{X: Until{All: true, L: p, R: p}}, false},
		{Binary{Op: And, L: Unary{Op: AX, X: p}, R: Unary{Op: EG, X: p}}, false},
	}
	for _, c := range cases {
		if got := Universal(c.f); got != c.want {
			t.Errorf("Universal(%s) = %v, want %v", Format(c.f, func(presburger.Var) string { return "x" }), got, c.want)
		}
	}
}
