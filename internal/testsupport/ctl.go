package testsupport

import (
	"fmt"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// Sat returns the states of g that satisfy f, computed by the textbook
// fixpoints over explicit successor sets: no BDDs, no dualities between
// the path quantifiers, no sharing of code with the engines. Every state
// has a successor (deadlocks stutter), so every path is infinite.
func Sat(g *Graph, f ctl.Formula) []bool { return satisfy(g, allPaths{g}, f) }

// Holds reports whether f holds in the initial state of g.
func Holds(g *Graph, f ctl.Formula) bool { return Sat(g, f)[g.Init] }

// paths decides the temporal operators of CTL over sets of states. The
// boolean structure of a formula and its atoms are the same under every
// notion of path; only this part changes. allPaths quantifies over all
// infinite paths. Fair CTL goes here: a fairPaths with justice sets
// J1..Jk quantifies over the paths that visit every Ji infinitely often,
// with EG computed by the Emerson-Lei fixpoint
// nu Z. p & AND_i EX E[p U (Z & Ji)], fair = EG true, EX p = EX (p &
// fair), E[p U q] = E[p U (q & fair)], and the universal operators as the
// duals of the existential ones (AX p = !EX !p, AF p = !EG !p, A[p U q] =
// !E[!q U !p & !q] & !EG !q), since the direct fixpoints of allPaths do
// not hold for fair paths. A FairSat(g, f, justice) then calls satisfy
// with it.
type paths interface {
	ex(p []bool) []bool
	ax(p []bool) []bool
	eu(p, q []bool) []bool
	au(p, q []bool) []bool
	eg(p []bool) []bool
	ag(p []bool) []bool
}

// satisfy evaluates f on g with the temporal operators of pq.
func satisfy(g *Graph, pq paths, f ctl.Formula) []bool {
	n := g.Len()
	out := make([]bool, n)
	switch f := f.(type) {
	case ctl.Atom:
		for i := range out {
			out[i] = g.Eval(i, f.P)
		}
	case ctl.Not:
		x := satisfy(g, pq, f.X)
		for i := range out {
			out[i] = !x[i]
		}
	case ctl.Binary:
		l, r := satisfy(g, pq, f.L), satisfy(g, pq, f.R)
		for i := range out {
			switch f.Op {
			case ctl.And:
				out[i] = l[i] && r[i]
			case ctl.Or:
				out[i] = l[i] || r[i]
			case ctl.Implies:
				out[i] = !l[i] || r[i]
			default:
				panic(fmt.Sprintf("testsupport: connective %d", f.Op))
			}
		}
	case ctl.Unary:
		x := satisfy(g, pq, f.X)
		all := make([]bool, n)
		for i := range all {
			all[i] = true
		}
		switch f.Op {
		case ctl.EX:
			out = pq.ex(x)
		case ctl.AX:
			out = pq.ax(x)
		case ctl.EF:
			out = pq.eu(all, x)
		case ctl.AF:
			out = pq.au(all, x)
		case ctl.EG:
			out = pq.eg(x)
		case ctl.AG:
			out = pq.ag(x)
		default:
			panic(fmt.Sprintf("testsupport: temporal operator %d", f.Op))
		}
	case ctl.Until:
		l, r := satisfy(g, pq, f.L), satisfy(g, pq, f.R)
		if f.All {
			out = pq.au(l, r)
		} else {
			out = pq.eu(l, r)
		}
	default:
		panic(fmt.Sprintf("testsupport: CTL formula %T", f))
	}
	return out
}

// allPaths is CTL over all infinite paths, each operator by its own
// fixpoint:
//
//	EX p      some successor in p          AX p      every successor in p
//	E[p U q]  mu Z. q | (p & EX Z)         A[p U q]  mu Z. q | (p & AX Z)
//	EG p      nu Z. p & EX Z               AG p      nu Z. p & AX Z
type allPaths struct{ g *Graph }

func (a allPaths) next(z []bool, some bool) []bool {
	out := make([]bool, len(z))
	for i, succ := range a.g.Succ {
		out[i] = !some
		for _, j := range succ {
			if z[j] == some {
				out[i] = some
				break
			}
		}
	}
	return out
}

func (a allPaths) ex(p []bool) []bool { return a.next(p, true) }
func (a allPaths) ax(p []bool) []bool { return a.next(p, false) }

// fix iterates z := step(z) from z0 until nothing changes.
func fix(z []bool, step func([]bool) []bool) []bool {
	for {
		next := step(z)
		same := true
		for i := range z {
			same = same && z[i] == next[i]
		}
		if same {
			return z
		}
		z = next
	}
}

func (a allPaths) until(p, q []bool, some bool) []bool {
	return fix(make([]bool, len(p)), func(z []bool) []bool {
		x := a.next(z, some)
		for i := range x {
			x[i] = q[i] || p[i] && x[i]
		}
		return x
	})
}

func (a allPaths) eu(p, q []bool) []bool { return a.until(p, q, true) }
func (a allPaths) au(p, q []bool) []bool { return a.until(p, q, false) }

func (a allPaths) globally(p []bool, some bool) []bool {
	z0 := make([]bool, len(p))
	for i := range z0 {
		z0[i] = true
	}
	return fix(z0, func(z []bool) []bool {
		x := a.next(z, some)
		for i := range x {
			x[i] = p[i] && x[i]
		}
		return x
	})
}

func (a allPaths) eg(p []bool) []bool { return a.globally(p, true) }
func (a allPaths) ag(p []bool) []bool { return a.globally(p, false) }

// HoldsNow evaluates a CTL formula without temporal operators (atoms
// under !, &, | and ->) at the valuation val, apart from the readings of
// the packages under test.
func HoldsNow(f ctl.Formula, val func(presburger.Var) int64) bool {
	switch f := f.(type) {
	case ctl.Atom:
		return presburger.Eval(f.P, val)
	case ctl.Not:
		return !HoldsNow(f.X, val)
	case ctl.Binary:
		l, r := HoldsNow(f.L, val), HoldsNow(f.R, val)
		switch f.Op {
		case ctl.And:
			return l && r
		case ctl.Or:
			return l || r
		case ctl.Implies:
			return !l || r
		}
	}
	panic(fmt.Sprintf("testsupport: not a state formula: %T", f))
}
