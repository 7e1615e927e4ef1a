package presburger_test

import (
	"math/rand"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
	pb "github.com/vsym/vsym/presburger"
)

// shuffled returns f with the operands of each And and Or in a random
// order, at every depth.
func shuffled(r *rand.Rand, f pb.Formula) pb.Formula {
	perm := func(fs []pb.Formula) []pb.Formula {
		out := make([]pb.Formula, len(fs))
		for i, k := range r.Perm(len(fs)) {
			out[i] = shuffled(r, fs[k])
		}
		return out
	}
	switch f := f.(type) {
	case pb.And:
		return pb.And(perm(f))
	case pb.Or:
		return pb.Or(perm(f))
	case pb.Not:
		return pb.Not{F: shuffled(r, f.F)}
	case pb.Exists:
		return pb.Exists{Vars: f.Vars, Body: shuffled(r, f.Body)}
	}
	return f
}

// TestSameUpToOrderRandom checks SameUpToOrder on random formulas: each
// is the same as itself with its operands shuffled at every depth, and
// not the same as its negation, as itself with one more conjunct, or as
// the formula with its top And and Or swapped; and any two formulas it
// calls the same agree on random values of their variables.
func TestSameUpToOrderRandom(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	var drawn []pb.Formula
	extra := pb.Compare(pb.VarTerm(0), pb.Ge, pb.ConstTerm(17))
	for i := range 600 {
		f := testsupport.RandomFormula(r, 3, 4, 3, true)
		drawn = append(drawn, f)
		if g := shuffled(r, f); !pb.SameUpToOrder(f, g) {
			t.Fatalf("%d: %v and %v, the same but for the order, not the same", i, f, g)
		}
		if pb.SameUpToOrder(f, pb.Not{F: f}) {
			t.Fatalf("%d: %v the same as its negation", i, f)
		}
		if pb.SameUpToOrder(pb.And{f}, pb.And{f, extra}) {
			t.Fatalf("%d: %v the same with one more conjunct", i, f)
		}
		switch g := f.(type) {
		case pb.And:
			if len(g) > 1 && pb.SameUpToOrder(f, pb.Or(g)) {
				t.Fatalf("%d: %v the same as the disjunction of its conjuncts", i, f)
			}
		case pb.Or:
			if len(g) > 1 && pb.SameUpToOrder(f, pb.And(g)) {
				t.Fatalf("%d: %v the same as the conjunction of its disjuncts", i, f)
			}
		}
	}
	same := 0
	for i, f := range drawn {
		for _, g := range drawn[:i] {
			if !pb.SameUpToOrder(f, g) {
				continue
			}
			same++
			for range 50 {
				x := []int64{int64(r.Intn(9) - 2), int64(r.Intn(9) - 2), int64(r.Intn(9) - 2)}
				val := func(v pb.Var) int64 { return x[v] }
				if pb.Eval(f, val) != pb.Eval(g, val) {
					t.Fatalf("%v and %v called the same, but they differ at %v", f, g, x)
				}
			}
		}
	}
	if same == 0 {
		t.Fatal("no two drawn formulas the same: the agreement is not tested")
	}
}

// TestSameUpToOrderNilTerm checks that a term with no monomials is one
// term whether its list is nil or empty, as Eval reads it.
func TestSameUpToOrderNilTerm(t *testing.T) {
	a := pb.Cmp{Op: pb.Ge, T: pb.Term{Const: 1}}
	b := pb.Cmp{Op: pb.Ge, T: pb.Term{Monos: []pb.Mono{}, Const: 1}}
	if !pb.SameUpToOrder(pb.And{a, pb.True}, pb.And{pb.True, b}) {
		t.Fatal("a nil and an empty list of monomials read as two terms")
	}
}
