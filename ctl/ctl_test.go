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
