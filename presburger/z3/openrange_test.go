package z3_test

import (
	"context"
	"testing"

	pb "github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestOpenRanges checks Solve on variables with open ranges: the model
// lies in the range, a value beyond any finite box is found, and a
// constraint that only an unbounded variable can meet is not refuted.
func TestOpenRanges(t *testing.T) {
	x, y := pb.Var(0), pb.Var(1)
	ge := func(v pb.Var, k int64) pb.Formula {
		return pb.Compare(pb.VarTerm(v), pb.Ge, pb.ConstTerm(k))
	}
	tests := []struct {
		name   string
		p      pb.Problem
		result pb.Result
	}{
		{"above any box", pb.Problem{Bounds: []pb.Bound{pb.AtLeast(x, 1)}, F: ge(x, 1_000_000_000_000)}, pb.Sat},
		{"below zero", pb.Problem{Bounds: []pb.Bound{pb.AnyInt(x)}, F: pb.Compare(pb.VarTerm(x), pb.Lt, pb.ConstTerm(-5))}, pb.Sat},
		{"lower bound holds", pb.Problem{Bounds: []pb.Bound{pb.AtLeast(x, 3)}, F: pb.Compare(pb.VarTerm(x), pb.Lt, pb.ConstTerm(3))}, pb.Unsat},
		{"closed side of an intersection", pb.Problem{Bounds: []pb.Bound{pb.AtLeast(x, 0), {Var: x, Lo: -10, Hi: 4}}, F: ge(x, 5)}, pb.Unsat},
		{"sum", pb.Problem{Bounds: []pb.Bound{pb.AtLeast(x, 0), pb.AtLeast(y, 0)},
			F: pb.Conj(pb.Compare(pb.VarTerm(x).Add(pb.VarTerm(y)), pb.Eq, pb.ConstTerm(7)), pb.Compare(pb.VarTerm(x).Sub(pb.VarTerm(y)), pb.Eq, pb.ConstTerm(3)))}, pb.Sat},
	}
	s := z3.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := s.Solve(context.Background(), tt.p)
			if err != nil {
				t.Fatal(err)
			}
			if a.Result != tt.result {
				t.Fatalf("got %v (%s), want %v", a.Result, a.Reason, tt.result)
			}
			if a.Result != pb.Sat {
				return
			}
			for _, b := range pb.Intersect(tt.p.Bounds) {
				if v, ok := a.Model[b.Var]; !ok || !b.Contains(v) {
					t.Errorf("model %v: variable %d outside %s", a.Model, b.Var, b.Range())
				}
			}
			if !pb.Eval(tt.p.F, func(v pb.Var) int64 { return a.Model[v] }) {
				t.Errorf("model %v does not satisfy the formula", a.Model)
			}
		})
	}
	if _, err := (pb.BruteForce{}).Solve(context.Background(), pb.Problem{Bounds: []pb.Bound{pb.AtLeast(x, 0)}, F: ge(x, 1)}); err == nil {
		t.Error("BruteForce accepted an open range")
	}
}
