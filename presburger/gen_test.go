package presburger_test

import (
	"fmt"
	"math/rand"

	pb "github.com/vsym/vsym/presburger"
)

// gen makes random small formulas for property tests: atoms with
// coefficients in -3..3, nested Not/And/Or and bounded Exists (which may
// shadow a free variable). Free variables are 0..nvars-1.
type gen struct {
	r     *rand.Rand
	nvars int
	next  pb.Var // next fresh variable for an Exists
}

func newGen(seed int64, nvars int) *gen {
	return &gen{r: rand.New(rand.NewSource(seed)), nvars: nvars, next: pb.Var(nvars)}
}

func (g *gen) vars() []pb.Var {
	vs := make([]pb.Var, g.nvars)
	for i := range vs {
		vs[i] = pb.Var(i)
	}
	return vs
}

func (g *gen) bounds() []pb.Bound {
	bs := make([]pb.Bound, g.nvars)
	for i := range bs {
		lo := int64(g.r.Intn(3) - 1)
		bs[i] = pb.Bound{Var: pb.Var(i), Lo: lo, Hi: lo + int64(g.r.Intn(4))}
	}
	return bs
}

func (g *gen) term(vs []pb.Var) pb.Term {
	t := pb.ConstTerm(int64(g.r.Intn(9) - 4))
	for k := 1 + g.r.Intn(3); k > 0; k-- {
		t = t.Add(pb.VarTerm(vs[g.r.Intn(len(vs))]).Scale(int64(g.r.Intn(7) - 3)))
	}
	return t
}

func (g *gen) formula(depth int, vs []pb.Var) pb.Formula {
	if depth == 0 || g.r.Intn(4) == 0 {
		if g.r.Intn(20) == 0 {
			return pb.Bool(g.r.Intn(2) == 0)
		}
		return pb.Cmp{Op: pb.Op(g.r.Intn(6)), T: g.term(vs)}
	}
	switch k := g.r.Intn(10); {
	case k < 2:
		return pb.Not{F: g.formula(depth-1, vs)}
	case k < 5:
		out := make(pb.And, g.r.Intn(4))
		for i := range out {
			out[i] = g.formula(depth-1, vs)
		}
		return out
	case k < 8:
		out := make(pb.Or, g.r.Intn(4))
		for i := range out {
			out[i] = g.formula(depth-1, vs)
		}
		return out
	default:
		var bs []pb.Bound
		inner := append([]pb.Var(nil), vs...)
		for n := 1 + g.r.Intn(2); n > 0; n-- {
			v := g.next
			if g.r.Intn(4) == 0 {
				v = vs[g.r.Intn(len(vs))] // shadow
			} else {
				g.next++
			}
			lo := int64(g.r.Intn(3) - 1)
			bs = append(bs, pb.Bound{Var: v, Lo: lo, Hi: lo + int64(g.r.Intn(4))})
			inner = append(inner, v)
		}
		return pb.Exists{Vars: bs, Body: g.formula(depth-1, inner)}
	}
}

// forAll calls f with every assignment of bs in range.
func forAll(bs []pb.Bound, f func(val func(pb.Var) int64)) {
	vals := map[pb.Var]int64{}
	val := func(v pb.Var) int64 { return vals[v] }
	var rec func(i int)
	rec = func(i int) {
		if i == len(bs) {
			f(val)
			return
		}
		for x := bs[i].Lo; x <= bs[i].Hi; x++ {
			vals[bs[i].Var] = x
			rec(i + 1)
		}
	}
	rec(0)
}

func name(v pb.Var) string {
	if v < 3 {
		return string(rune('x' + v))
	}
	return fmt.Sprintf("v%d", v)
}
