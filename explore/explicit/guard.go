package explicit

import (
	"fmt"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// A guard is a presburger.Formula compiled for the hot loop: a flat array
// of nodes in preorder, evaluated over a slice of counter values indexed
// by variable number. Evaluation does no allocation, map lookup or
// interface call. Bounded quantifiers (Exists) are rare in guards; a
// formula containing one keeps the original formula and evaluates it with
// presburger.Eval, slowly but exactly.
//
// An atom is summed in int64 only when no partial sum can overflow: every
// value of a valuation is a counter (at most gsst.MaxProcesses) or a
// shared variable (at most gsst.MaxValue in magnitude, which
// counterabs.StepInto enforces), so an atom whose Magnitude over that
// range fits in int64 is exact in the hot loop. Any other atom (many
// monomials with large coefficients) is decided by the exact sign of
// its term (presburger.Term.Sign).
type guard struct {
	nodes []gnode
	monos []gmono
	slow  presburger.Formula // non-nil: evaluate with presburger.Eval
	// always is set when the formula is the constant true, so the hot loop
	// can skip the call.
	always bool
}

type gkind uint8

const (
	gTrue gkind = iota
	gFalse
	gCmp
	gNot
	gAnd
	gOr
)

type gnode struct {
	kind   gkind
	op     presburger.Op
	end    int32 // index just past this node's subtree
	lo, hi int32 // gCmp: monos[lo:hi]
	c      int64 // gCmp: constant of the term
	// wide, for a gCmp whose sum could leave int64, is its term, whose
	// sign is computed exactly instead.
	wide *presburger.Term
}

// valueRange is the range of every value of a valuation (valueBound).
var valueRange = presburger.Bound{Lo: -max(gsst.MaxValue, gsst.MaxProcesses), Hi: max(gsst.MaxValue, gsst.MaxProcesses)}

// valueBound bounds every variable of an atom by valueRange.
func valueBound(presburger.Var) (presburger.Bound, bool) { return valueRange, true }

type gmono struct {
	idx  int32
	coef int64
}

// compileGuard compiles f; every free variable must be below nvars.
func compileGuard(f presburger.Formula, nvars int) (*guard, error) {
	for _, v := range presburger.FreeVars(f) {
		if v < 0 || int(v) >= nvars {
			return nil, fmt.Errorf("formula mentions variable %d outside the %d counters", v, nvars)
		}
	}
	g := &guard{}
	if b, ok := f.(presburger.Bool); ok && bool(b) {
		g.always = true
	}
	if !presburger.IsQuantifierFree(f) {
		g.slow = f
		return g, nil
	}
	if err := g.add(f); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *guard) add(f presburger.Formula) error {
	i := len(g.nodes)
	g.nodes = append(g.nodes, gnode{})
	var n gnode
	switch f := f.(type) {
	case presburger.Bool:
		n.kind = gFalse
		if f {
			n.kind = gTrue
		}
	case presburger.Cmp:
		n.kind, n.op, n.c = gCmp, f.Op, f.T.Const
		n.lo = int32(len(g.monos))
		for _, m := range f.T.Monos {
			g.monos = append(g.monos, gmono{int32(m.Var), m.Coef})
		}
		n.hi = int32(len(g.monos))
		if _, ok := f.T.Magnitude(valueBound); !ok {
			t := f.T
			n.wide = &t
		}
	case presburger.Not:
		n.kind = gNot
		if err := g.add(f.F); err != nil {
			return err
		}
	case presburger.And:
		n.kind = gAnd
		for _, h := range f {
			if err := g.add(h); err != nil {
				return err
			}
		}
	case presburger.Or:
		n.kind = gOr
		for _, h := range f {
			if err := g.add(h); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("cannot compile formula of type %T", f)
	}
	n.end = int32(len(g.nodes))
	g.nodes[i] = n
	return nil
}

// eval reports whether the guard holds for the counter values v.
func (g *guard) eval(v []int64) bool {
	if g.always {
		return true
	}
	if g.slow != nil {
		return presburger.Eval(g.slow, func(x presburger.Var) int64 { return v[x] })
	}
	return g.evalNode(0, v)
}

func (g *guard) evalNode(i int32, v []int64) bool {
	n := &g.nodes[i]
	switch n.kind {
	case gTrue:
		return true
	case gFalse:
		return false
	case gCmp:
		if n.wide != nil {
			return n.op.Holds(int64(n.wide.Sign(func(x presburger.Var) int64 { return v[x] })))
		}
		s := n.c
		for _, m := range g.monos[n.lo:n.hi] {
			s += m.coef * v[m.idx]
		}
		return n.op.Holds(s)
	case gNot:
		return !g.evalNode(i+1, v)
	case gAnd:
		for j := i + 1; j < n.end; j = g.nodes[j].end {
			if !g.evalNode(j, v) {
				return false
			}
		}
		return true
	default: // gOr
		for j := i + 1; j < n.end; j = g.nodes[j].end {
			if g.evalNode(j, v) {
				return true
			}
		}
		return false
	}
}
