package testsupport

import (
	"fmt"
	"math/rand"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// RandomCounterModel draws a counter model below the level of systems,
// for engine tests: 2-4 counters holding 1-5 processes in a random
// initial vector, up to twice as many moves as counters (from a counter
// to another, repeats allowed), guards that are boolean combinations of
// linear comparisons over up to three counters with coefficients -3..3,
// sometimes with a bounded quantifier (which engines must expand), half of
// them without the conjunct "From >= 1" that counterabs would add, and
// properties random CTL formulas over such comparisons. The system has
// one group of all processes and one unguarded local transition per move,
// so that counterabs.Assemble accepts the moves as a total-counter model
// (transition i moves by local transition i).
func RandomCounterModel(r *rand.Rand, properties int) (*gsst.System, []Move) {
	m, n := 2+r.Intn(3), 1+r.Intn(5)
	init := make([]int, m)
	left := n
	for i := range m - 1 {
		init[i] = r.Intn(left + 1)
		left -= init[i]
	}
	init[m-1] = left
	sys := &gsst.Spec{Name: "counter-model", States: names(r, m, "x", nil, false),
		Groups: []gsst.Group{{Name: "p", Size: n}}, Init: [][]int{init}}
	var moves []Move
	for range 1 + r.Intn(2*m) {
		from := r.Intn(m)
		to := r.Intn(m - 1)
		if to >= from {
			to++
		}
		g := RandomFormula(r, m, n, 2, true)
		if r.Intn(2) == 0 {
			g = presburger.Conj(presburger.Compare(presburger.VarTerm(presburger.Var(from)), presburger.Ge, presburger.ConstTerm(1)), g)
		}
		moves = append(moves, Move{From: from, To: to, Guard: g})
		sys.Transitions = append(sys.Transitions, gsst.Transition{From: from, To: to,
			Blocks: []gsst.Block{{Groups: []int{0}, Guard: presburger.True}}})
	}
	for i := range properties {
		f := randomCTL(r, 3, func() ctl.Formula { return ctl.Atom{P: RandomFormula(r, m, n, 1, false)} }, false)
		sys.Properties = append(sys.Properties, gsst.Property{Name: fmt.Sprintf("p%d", i), Formula: f, Text: ctl.Format(f, sys.VarName)})
	}
	checked, err := gsst.New(sys)
	if err != nil {
		panic(fmt.Sprintf("testsupport: generated a bad counter model: %v", err))
	}
	return checked, moves
}

// RandomFormula draws a boolean combination of the given depth of linear
// comparisons over m counters holding n processes; quant allows a bounded
// existential quantifier as a leaf.
func RandomFormula(r *rand.Rand, m, n, depth int, quant bool) presburger.Formula {
	v := func(i int) presburger.Term { return presburger.VarTerm(presburger.Var(i)) }
	if depth == 0 || r.Intn(3) == 0 {
		switch r.Intn(12) {
		case 0:
			return presburger.True
		case 1:
			if quant {
				b := presburger.Var(m + 5)
				return presburger.Exists{Vars: []presburger.Bound{{Var: b, Lo: 0, Hi: 2}},
					Body: presburger.Compare(v(r.Intn(m)), presburger.Eq, presburger.VarTerm(b))}
			}
		}
		t := presburger.ConstTerm(int64(r.Intn(2*n+3) - n - 1))
		for range 1 + r.Intn(3) {
			c := int64(r.Intn(7) - 3)
			if c == 0 {
				c = 1
			}
			t = t.Add(v(r.Intn(m)).Scale(c))
		}
		return presburger.Compare(t, presburger.Op(r.Intn(6)), presburger.ConstTerm(0))
	}
	a, b := RandomFormula(r, m, n, depth-1, quant), RandomFormula(r, m, n, depth-1, quant)
	switch r.Intn(3) {
	case 0:
		return presburger.And{a, b}
	case 1:
		return presburger.Or{a, b}
	}
	return presburger.Not{F: a}
}
