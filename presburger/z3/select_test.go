package z3_test

import (
	"context"
	"math/rand"
	"testing"

	pb "github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestSelectAgainstBruteForce asks random questions of Select, each with
// fewer parts selected from one call to the next as Houdini's filter
// drops candidates (and then some parts selected again), and compares
// every answer with enumeration: Sat exactly when some valuation in the
// bounds satisfies base, every selected pre and fails some selected
// post, and every model one such valuation.
func TestSelectAgainstBruteForce(t *testing.T) {
	questions := 300
	if testing.Short() {
		questions = 60
	}
	g := &gen{r: rand.New(rand.NewSource(71)), mild: true}
	s := z3.New()
	ctx := context.Background()
	answers := map[pb.Result]int{}
	for q := range questions {
		bs := g.bounds(2 + g.r.Intn(3))
		vs := make([]pb.Var, len(bs))
		for i, b := range bs {
			vs[i] = b.Var
		}
		n := 1 + g.r.Intn(6)
		base := g.formula(1, vs)
		pre := make([]pb.Formula, n)
		post := make([]pb.Formula, n)
		for i := range pre {
			pre[i], post[i] = g.formula(1, vs), g.formula(2, vs)
		}
		sel, err := s.Select(ctx, bs, base, pre, post)
		if err != nil {
			t.Fatal(err)
		}
		on := make([]bool, n)
		for i := range on {
			on[i] = true
		}
		for call := 0; call < n+2; call++ {
			a, err := sel.Solve(ctx, on)
			if err != nil {
				t.Fatalf("question %d, call %d: %v", q, call, err)
			}
			// The question with the parts on, written out.
			var selPre, selPost []pb.Formula
			for i := range on {
				if on[i] {
					selPre, selPost = append(selPre, pre[i]), append(selPost, post[i])
				}
			}
			p := pb.Problem{Bounds: bs, F: pb.Conj(base, pb.Conj(selPre...), pb.Negation(pb.Conj(selPost...)))}
			want := pb.Unsat
			forAll(bs, func(val map[pb.Var]int64) {
				if pb.Eval(p.F, func(v pb.Var) int64 { return val[v] }) {
					want = pb.Sat
				}
			})
			if a.Result != want {
				t.Fatalf("question %d, call %d (on %v): Select says %v, enumeration %v", q, call, on, a.Result, want)
			}
			answers[a.Result]++
			if a.Result == pb.Sat {
				if err := modelOK(p, a.Model); err != nil {
					t.Fatalf("question %d, call %d: %v", q, call, err)
				}
			}
			// Drop a part, or select one again.
			on[g.r.Intn(n)] = g.r.Intn(4) == 0
		}
		sel.Close()
	}
	if answers[pb.Sat] == 0 || answers[pb.Unsat] == 0 {
		t.Fatalf("answers %v: the questions do not exercise both", answers)
	}
	t.Logf("answers: %v", answers)
}
