package counterabs

import (
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
)

// Asymmetry returns, over the counters of the group-counter model group,
// the configurations where local transition local breaks symmetry on the
// disabled side: no process can take it, although some configuration with
// the same total counters lets a process take it.
//
//	Asym_r(y) = !Dom_r(y) & g_r(#S := sum_g y[S][g])
//
// where Dom_r is the disjunction of group's transitions for r and g_r is
// the guard of r in total, the total-counter model of the same system
// built with Force (the existential abstraction of Dom_r). These are
// exactly the configurations where total's move for r is spurious, so
// when no reachable configuration of group satisfies Asym_r for any r,
// every g_r is exact on the reachable configurations: the moves of the
// counter abstraction (stuttering where no g_r holds) are bisimilar to
// the system's from the initial state, certified or not (total's own
// MayDeadlock may still stutter more). Certified transitions have
// Asym_r = false.
func Asymmetry(group, total *Model, local int) (presburger.Formula, error) {
	switch {
	case group.Level != GroupLevel || total.Level != TotalLevel:
		return nil, errkind.Errorf(errkind.Input, "counterabs: Asymmetry needs a group-counter and a total-counter model")
	case group.System != total.System:
		return nil, errkind.Errorf(errkind.Input, "counterabs: Asymmetry needs two models of one system")
	case local < 0 || local >= len(group.System.Transitions):
		return nil, errkind.Errorf(errkind.Input, "counterabs: no local transition %d", local)
	}
	var dom []presburger.Formula
	for i := range group.Transitions {
		if t := &group.Transitions[i]; t.Local == local {
			dom = append(dom, t.Guard)
		}
	}
	var gr []presburger.Formula // one per update of the local transition
	for i := range total.Transitions {
		if t := &total.Transitions[i]; t.Local == local {
			// Counter s of total is System.TotalVar(s), which Translate
			// turns into the sum of group's counters of state s; its
			// shared variables are the system's.
			g, err := group.Translate(presburger.Rename(t.Guard, func(v presburger.Var) presburger.Var {
				if sh := total.SharedAt(v); sh != nil {
					return group.System.SharedVar(int(v) - len(total.Counters))
				}
				return v
			}))
			if err != nil {
				return nil, err
			}
			gr = append(gr, g)
		}
	}
	return presburger.Conj(presburger.Negation(presburger.Disj(dom...)), presburger.Disj(gr...)), nil
}
