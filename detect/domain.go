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
// configurations in which some process can take t, its guards read as
// they are (an update's domains are not part of it): the disjunction of
// BlockDomain over the blocks of t (false when t has no block).
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
// a process of one of the block's groups is in t.From (gsst's
// MoversFormula for one part: the sum of their counters is at least 1,
// the total counter for a block of every group) and the block's guard
// holds. t need not be one of sys's own transitions.
func BlockDomain(sys *gsst.System, t *gsst.Transition, i int, y Counters) presburger.Formula {
	b := &t.Blocks[i]
	movers := sys.MoversFormula([]gsst.Part{{From: t.From, To: t.To, Groups: b.Groups}})
	return Guard(sys, presburger.Conj(movers, b.Guard), y)
}

// stepsOfTransition returns the steps gsst lowers t, one of sys's
// transitions, to.
func stepsOfTransition(sys *gsst.System, t *gsst.Transition) []*gsst.Step {
	var out []*gsst.Step
	steps := sys.Steps()
	for k := range steps {
		if o := &steps[k].Origin; o.Transition >= 0 && &sys.Transitions[o.Transition] == t {
			out = append(out, &steps[k])
		}
	}
	return out
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

// FiringGroups returns the groups that have a process able to take t in
// the configuration conf (conf[g][s] processes of group g in state s),
// in increasing order, by gsst's steps of t, one of sys's transitions
// (Choices), shared variables at their initial values. For a parametric
// system, n is the number of processes of conf.
func FiringGroups(sys *gsst.System, t *gsst.Transition, conf [][]int) []int {
	// A configuration of the wrong shape has no firing group (rather than
	// an index out of range).
	if !shaped(sys, conf) || t.From < 0 || t.From >= len(sys.States) {
		return nil
	}
	c := gsst.Config{Counts: conf, Shared: sys.InitShared()}
	can := make([]bool, len(sys.Groups))
	for _, st := range stepsOfTransition(sys, t) {
		// A transition's steps move one process: its group is the
		// choice. An update beyond gsst.MaxValue (Choices' error) fires
		// no group.
		if err := sys.Choices(st, c, func(groups, _ []int) bool { can[groups[0]] = true; return true }); err != nil {
			continue
		}
	}
	var out []int
	for g, ok := range can {
		if ok {
			out = append(out, g)
		}
	}
	return out
}

// NeedsQuery reports whether t's domain can fail to be closed under
// orbits as far as its syntax shows: false only when its steps treat
// every process alike (one block that holds every group, a guard that
// reads total counters only, no transfer restricted to groups). Such a
// transition, one of sys's, is symmetric.
func NeedsQuery(sys *gsst.System, t *gsst.Transition) bool {
	return !symmetric(sys, stepsOfTransition(sys, t))
}
