package presburger_test

import (
	"slices"
	"testing"

	"github.com/vsym/vsym/presburger"
)

// TestAtoms checks that Atoms visits every comparison once, in order,
// under negations, both connectives and a quantifier, and stops when
// asked.
func TestAtoms(t *testing.T) {
	x, y := presburger.VarTerm(0), presburger.VarTerm(1)
	atom := func(tm presburger.Term, c int64) presburger.Cmp {
		return presburger.Cmp{Op: presburger.Ge, T: tm.Add(presburger.ConstTerm(c))}
	}
	a, b, c, d := atom(x, 1), atom(y, 2), atom(x.Add(y), 3), atom(x, 4)
	f := presburger.And{
		a,
		presburger.Not{F: presburger.Or{b, presburger.True}},
		presburger.Exists{Vars: []presburger.Bound{{Var: 2}}, Body: presburger.And{c, presburger.False}},
		d,
	}
	var got []presburger.Cmp
	for at := range presburger.Atoms(f) {
		got = append(got, at)
	}
	if want := []presburger.Cmp{a, b, c, d}; !slices.EqualFunc(got, want, func(p, q presburger.Cmp) bool { return p.Op == q.Op && p.T.Equal(q.T) }) {
		t.Errorf("Atoms = %v, want %v", got, want)
	}
	n := 0
	for range presburger.Atoms(f) {
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("stopped after %d atoms, want 2", n)
	}
	for range presburger.Atoms(presburger.True) {
		t.Errorf("an atom of true")
	}
}
