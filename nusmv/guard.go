package nusmv

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/presburger"
)

// stepGuards holds the guard defines of the steps of a concrete model.
type stepGuards struct {
	name  []string // per step: the define of its guard, with its update in range; "" when TRUE
	defs  []string
	notes []string
}

// newStepGuards writes one define per step of sys whose guard, together
// with its update staying in the model's ranges (emit.StepGuard over the
// export's domains), is not TRUE; stepVal names the steps' values of tr,
// after which the defines are named.
func newStepGuards(sys *gsst.System, sv *sharedVars, stepVal []string, nm *namer, atom atomfn) (*stepGuards, error) {
	steps := sys.Steps()
	out := &stepGuards{name: make([]string, len(steps))}
	domains := sv.domains()
	for i := range steps {
		st := &steps[i]
		full, ranged := emit.StepGuard(sys, st, domains)
		if b, ok := full.(presburger.Bool); ok && bool(b) {
			continue
		}
		label, groups := emit.StepLabel(sys, st)
		switch o := &st.Origin; {
		case o.Rendezvous >= 0:
			out.name[i] = nm.fresh(fmt.Sprintf("g_rv%d", o.Rendezvous+1))
		case o.Environment >= 0:
			out.name[i] = nm.fresh("g_" + stepVal[i])
		default:
			out.name[i] = nm.fresh("g_" + stepVal[i] + "_" + strings.Join(groups, "_"))
		}
		f, err := formula(full, atom)
		if err != nil {
			if groups != nil {
				label += " for groups " + strings.Join(groups, ", ")
			}
			return nil, exprError("guard of "+label, err)
		}
		if groups != nil {
			label += ", groups " + strings.Join(groups, ", ")
		}
		out.defs = append(out.defs, fmt.Sprintf("  %s := %s;\n", out.name[i], f.s))
		out.notes = append(out.notes, fmt.Sprintf("--   %-12s %s: %s\n", out.name[i], comment(label), comment(emit.GuardText(sys, st, ranged, "in range"))))
	}
	return out, nil
}

// byGroups writes every total counter #S in f as the sum of its group
// counters #S[g]: the concrete model counts processes of each group, and
// a count over the same processes shares its Boolean form (countCompiler)
// whichever way it is written.
func byGroups(sys *gsst.System, f presburger.Formula) presburger.Formula {
	return presburger.Subst(f, func(v presburger.Var) presburger.Term {
		s, g, ok := sys.Counter(v)
		if !ok || g >= 0 {
			return presburger.VarTerm(v)
		}
		var sum presburger.Term
		for h := range sys.Groups {
			sum = sum.Add(presburger.VarTerm(sys.GroupVar(s, h)))
		}
		return sum
	})
}
