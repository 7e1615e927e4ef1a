package promela

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/presburger"
)

// reducedSupports are the constructs beyond the paper that the reduced
// model carries (TestSpinReducedExt runs them through Spin against the
// oracle).
const reducedSupports = gsst.ExtShared | gsst.ExtBroadcast | gsst.ExtRendezvous

// reducedStep writes the statements of a step of t in a counter model
// beyond the paper: the counters (one process each for the movers; for a
// rendezvous or a broadcast, every counter the step changes gets its new
// value, a linear term over the counters before it, emit.CounterEffect),
// the totals kept in step at the group level, and the assignments to the
// shared variables with their bound assertions.
func reducedStep(m *counterabs.Model, t *counterabs.Transition, sv *sharedVars, ctr, total []string, name namefn) ([]string, error) {
	k := len(m.Counters)
	var out []string
	changed := map[int]bool{} // local states whose counters change
	if len(t.Also) == 0 && len(t.Transfers) == 0 {
		out = append(out, ctr[t.From]+"--", ctr[t.To]+"++")
		changed[m.Counters[t.From].State], changed[m.Counters[t.To].State] = true, true
	} else {
		after := emit.CounterEffect(t, k)
		var pre, set []string
		for c := range after {
			if after[c].Equal(presburger.VarTerm(presburger.Var(c))) {
				continue
			}
			e, err := emit.Linear(after[c], func(v presburger.Var) (string, error) {
				r, err := name(v)
				return r.name, err
			})
			if err != nil {
				return nil, err
			}
			tmp := fmt.Sprintf("%s_%d", sv.tmp, len(pre)+1)
			pre = append(pre, tmp+" = "+e)
			set = append(set, ctr[c]+" = "+tmp)
			changed[m.Counters[c].State] = true
		}
		out = append(append(out, pre...), set...)
	}
	if total != nil {
		for s := range m.System.States {
			if !changed[s] {
				continue
			}
			var parts []string
			for g := range m.System.Groups {
				parts = append(parts, ctr[m.Counter(s, g)])
			}
			out = append(out, total[s]+" = "+strings.Join(parts, " + "))
		}
	}
	as := make([]assignment, len(t.Assign))
	for x, a := range t.Assign {
		as[x] = assignment{a.Var - k, a.Value}
	}
	upd, err := sv.assign(as, name)
	if err != nil {
		return nil, err
	}
	return append(out, upd...), nil
}
