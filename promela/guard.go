package promela

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/presburger"
)

// stepGuards holds the guard macros of the steps of a concrete model.
type stepGuards struct {
	name  []string // per step: the macro of its guard, with its update in its domain; "" when true
	defs  []string
	notes []string
}

// newStepGuards writes one macro per step of sys whose guard, together
// with its update staying in its variables' domains (emit.StepGuard; no
// upper bound on an unbounded variable, which the step asserts instead),
// is not true.
func newStepGuards(sys *gsst.System, nm *namer, name namefn) (*stepGuards, error) {
	steps := sys.Steps()
	out := &stepGuards{name: make([]string, len(steps))}
	for i := range steps {
		st := &steps[i]
		full, ranged := emit.StepGuard(sys, st, sys.Shared)
		if b, ok := full.(presburger.Bool); ok && bool(b) {
			continue
		}
		label, groups := emit.StepLabel(sys, st)
		switch o := &st.Origin; {
		case o.Rendezvous >= 0:
			out.name[i] = nm.fresh(fmt.Sprintf("g_rv%d", o.Rendezvous+1))
		case o.Environment >= 0:
			out.name[i] = nm.fresh("g_" + emit.EnvironmentIdent(sys, o.Environment))
		default:
			pt := &st.Parts[0]
			out.name[i] = nm.fresh("g_" + sys.States[pt.From] + "_" + sys.States[pt.To] + "_" + strings.Join(groups, "_"))
		}
		f, err := expr(full, name)
		if err != nil {
			if groups != nil {
				label += " for groups " + strings.Join(groups, ", ")
			}
			return nil, guardError(label, err)
		}
		if groups != nil {
			label += ", groups " + strings.Join(groups, ", ")
		}
		out.defs = append(out.defs, fmt.Sprintf("#define %s\t(%s)\n", out.name[i], f.s))
		out.notes = append(out.notes, fmt.Sprintf(" *   %-12s %s: %s\n", out.name[i], comment(label), comment(emit.GuardText(sys, st, ranged, "in its domain"))))
	}
	return out, nil
}

// byGroups writes every total counter #S in f as the sum of the group
// counters #S[g] of the groups that have processes, and the counter of
// a group without processes as 0: how the concrete model counts the
// movers of a step.
func byGroups(sys *gsst.System, f presburger.Formula) presburger.Formula {
	return presburger.Subst(f, func(v presburger.Var) presburger.Term {
		s, g, ok := sys.Counter(v)
		switch {
		case !ok:
			return presburger.VarTerm(v)
		case g >= 0 && sys.Groups[g].Size == 0:
			return presburger.Term{}
		case g >= 0:
			return presburger.VarTerm(v)
		}
		var sum presburger.Term
		for h := range sys.Groups {
			if sys.Groups[h].Size > 0 {
				sum = sum.Add(presburger.VarTerm(sys.GroupVar(s, h)))
			}
		}
		return sum
	})
}
