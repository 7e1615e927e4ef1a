package gsst

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// TestGroupSumsRead: a comparison that counts a state's processes in
// every group, with one coefficient, reads that state's total counter
// (the total-counter model can check it); a sum over some groups only,
// or with different coefficients, still reads group counters.
func TestGroupSumsRead(t *testing.T) {
	src := `
name: sums
states: [A, B, C]
groups: {p: 2, q: 1, r: 1}
init: A
transitions:
  - {from: A, to: B, guard: "#B[p] + #B[q] + #B[r] = 0"}
  - {from: B, to: C}
properties:
  all: "AG (#C[p] + #C[q] + #C[r] <= 1)"
  twice: "AG (2*#C[p] + 2*#C[q] + 2*#C[r] + #C <= 9)"
  mixed: "AG (#B[p] + #B[q] + #B[r] < 4 - #C[r] - #C[q] - #C[p])"
  some: "AG (#C[p] + #C[q] <= 1)"
  unequal: "AG (#C[p] + 2*#C[q] + #C[r] <= 1)"
`
	sys, err := Parse("sums.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if g := sys.Transitions[0].Blocks[0].Guard; !sys.IsTotal(g) {
		t.Errorf("guard %s reads group counters", presburger.Format(g, sys.VarName))
	}
	want := map[string]string{
		"all":     "#C <= 1",
		"twice":   "3*#C <= 9",
		"mixed":   "#B + #C < 4",
		"some":    "#C[p] + #C[q] <= 1",
		"unequal": "#C[p] + 2*#C[q] + #C[r] <= 1",
	}
	for _, p := range sys.Properties {
		atoms := ctl.Atoms(p.Formula)
		if len(atoms) != 1 {
			t.Fatalf("%s: %d atoms", p.Name, len(atoms))
		}
		got := presburger.Format(atoms[0], sys.VarName)
		if norm(got) != norm(want[p.Name]) {
			t.Errorf("%s reads %s, want %s", p.Name, got, want[p.Name])
		}
		if total := !strings.Contains(want[p.Name], "["); sys.IsTotal(atoms[0]) != total {
			t.Errorf("%s: IsTotal = %v", p.Name, !total)
		}
	}
}

func norm(s string) string { return strings.ReplaceAll(s, " ", "") }

// TestFoldGroupSumsRandom checks foldGroupSums on random terms over the
// counters of 1 to 3 groups (often every group of a state with one
// coefficient): the folded term has the same value in every
// configuration (each total counter the sum of its group counters), and
// reads no group counter of a state whose group counters all had one
// coefficient.
func TestFoldGroupSumsRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	folded := 0
	for i := range 2000 {
		s := &Spec{States: []string{"A", "B", "C"}}
		for g := range 1 + r.Intn(3) {
			s.Groups = append(s.Groups, Group{Name: fmt.Sprint("g", g), Size: 1})
		}
		var term presburger.Term
		uniform := map[int]bool{} // the states whose group counters share one coefficient
		for st := range s.States {
			if r.Intn(3) == 0 {
				term = term.Add(presburger.VarTerm(s.TotalVar(st)).Scale(int64(r.Intn(5) - 2)))
			}
			switch r.Intn(3) {
			case 0: // every group, one coefficient
				c := int64(r.Intn(7) - 3)
				for g := range s.Groups {
					term = term.Add(presburger.VarTerm(s.GroupVar(st, g)).Scale(c))
				}
				uniform[st] = c != 0
			case 1: // at random
				for g := range s.Groups {
					term = term.Add(presburger.VarTerm(s.GroupVar(st, g)).Scale(int64(r.Intn(3))))
				}
			}
		}
		term = term.Add(presburger.ConstTerm(int64(r.Intn(5))))
		got := s.foldGroupSums(term)
		for st := range s.States {
			reads := false
			for _, m := range got.Monos {
				if c, g, ok := s.Counter(m.Var); ok && c == st && g >= 0 {
					reads = true
				}
			}
			if uniform[st] && reads {
				t.Fatalf("term %d: %v folded to %v, which still reads the group counters of %s", i, term, got, s.States[st])
			}
			if uniform[st] {
				folded++
			}
		}
		for range 20 {
			y := make([][]int64, len(s.States))
			for st := range y {
				for range s.Groups {
					y[st] = append(y[st], int64(r.Intn(4)))
				}
			}
			val := func(v presburger.Var) int64 {
				st, g, _ := s.Counter(v)
				if g >= 0 {
					return y[st][g]
				}
				sum := int64(0)
				for _, k := range y[st] {
					sum += k
				}
				return sum
			}
			if a, b := term.Eval(val), got.Eval(val); a != b {
				t.Fatalf("term %d: %v = %d but folded %v = %d at %v", i, term, a, got, b, y)
			}
		}
	}
	if folded < 500 {
		t.Errorf("only %d folds", folded)
	}
}
