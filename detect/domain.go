package detect

import (
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Counters says how Domain writes counters in terms of the caller's
// variables. Group(S, g) stands for the group counter #S[g]; Total(S) for
// the total counter #S, and when Total is nil #S is written as the sum
// over all groups of Group(S, g). The terms must range over nonnegative
// values and agree with each other (Total(S) = sum_g Group(S, g)), as the
// counters they stand for do.
//
// Size(g) stands for the size of group g of a parametric system: Guard
// writes System.SizeVar(g) as Size(g) and n (System.NVar) as the sum of
// Size over the groups. When Size is nil those variables are left alone.
type Counters struct {
	Group func(state, group int) presburger.Term
	Total func(state int) presburger.Term
	Size  func(group int) presburger.Term
}

// Domain returns phi_r, the formula that holds in exactly the
// configurations of Dom(R_t): those in which some process can take t. It
// is the disjunction of BlockDomain over the blocks of t (false when t has
// no block).
//
// Domain reads the counters of t's source state and of the states that
// t's guards mention, no others.
func Domain(sys *gsst.System, t *gsst.Transition, y Counters) presburger.Formula {
	parts := make([]presburger.Formula, len(t.Blocks))
	for i := range t.Blocks {
		parts[i] = BlockDomain(sys, t, i, y)
	}
	return presburger.Disj(parts...)
}

// BlockDomain returns the part of Dom(R_t) contributed by block i of t:
// some process of one of the block's groups is in t.From, and the block's
// guard holds. Since counters are nonnegative, "some group g of B has
// #From[g] >= 1" is written as the single atom sum_{g in B} #From[g] >= 1.
func BlockDomain(sys *gsst.System, t *gsst.Transition, i int, y Counters) presburger.Formula {
	b := &t.Blocks[i]
	var src presburger.Term
	if len(b.Groups) == len(sys.Groups) && y.Total != nil {
		src = y.Total(t.From)
	} else {
		for _, g := range b.Groups {
			src = src.Add(y.Group(t.From, g))
		}
	}
	return presburger.Conj(
		presburger.Compare(src, presburger.Ge, presburger.ConstTerm(1)),
		Guard(sys, b.Guard, y),
	)
}

// Guard rewrites a guard (or any formula over sys's counter variables) in
// terms of y. Variables that are not counters of sys are left alone.
func Guard(sys *gsst.System, f presburger.Formula, y Counters) presburger.Formula {
	return presburger.Subst(f, func(v presburger.Var) presburger.Term {
		s, g, ok := sys.Counter(v)
		switch {
		case !ok:
			return y.param(sys, v)
		case g >= 0:
			return y.Group(s, g)
		case y.Total != nil:
			return y.Total(s)
		}
		var sum presburger.Term
		for h := range sys.Groups {
			sum = sum.Add(y.Group(s, h))
		}
		return sum
	})
}

// param writes a variable that is not a counter: a size variable or n
// in terms of y.Size, anything else as itself.
func (y Counters) param(sys *gsst.System, v presburger.Var) presburger.Term {
	g, ok := sys.Param(v)
	switch {
	case !ok || y.Size == nil:
		return presburger.VarTerm(v)
	case g >= 0:
		return y.Size(g)
	}
	var n presburger.Term
	for h := range sys.Groups {
		n = n.Add(y.Size(h))
	}
	return n
}

// FiringGroups returns the groups that have a process able to take t in the
// configuration conf (conf[g][s] processes of group g in state s), in
// increasing order, by direct evaluation of t's guards. It is the
// reference semantics (Definition 3) that witnesses are checked against.
// For a parametric system, n is the number of processes of conf.
func FiringGroups(sys *gsst.System, t *gsst.Transition, conf [][]int) []int {
	// A configuration of the wrong shape has no firing group (rather than
	// an index out of range).
	if len(conf) != len(sys.Groups) || t.From < 0 || t.From >= len(sys.States) {
		return nil
	}
	for _, row := range conf {
		if len(row) != len(sys.States) {
			return nil
		}
	}
	val := sys.Valuation(conf, nil)
	var out []int
	for g := range sys.Groups {
		b := t.BlockOf(g)
		if b == nil || conf[g][t.From] < 1 {
			continue
		}
		if presburger.Eval(b.Guard, val) {
			out = append(out, g)
		}
	}
	return out
}

// NeedsQuery reports whether t's domain can fail to be closed under
// orbits as far as its syntax shows: false only when t has one block that
// holds every group of sys and whose guard reads total counters only.
// Such a transition treats all processes alike and is symmetric.
func NeedsQuery(sys *gsst.System, t *gsst.Transition) bool {
	return !(len(t.Blocks) == 1 &&
		len(t.Blocks[0].Groups) == len(sys.Groups) &&
		sys.IsTotal(t.Blocks[0].Guard))
}
