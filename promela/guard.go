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
// with its update staying in its variables' domains (gsst.Spec.InDomain;
// no upper bound on an unbounded variable, which the step asserts
// instead), is not true.
func newStepGuards(sys *gsst.System, nm *namer, name namefn) (*stepGuards, error) {
	steps := sys.Steps()
	out := &stepGuards{name: make([]string, len(steps))}
	for i := range steps {
		st := &steps[i]
		full, ranged := st.Guard, false
		if dom := sys.InDomain(&st.Update, sys.Shared); dom != presburger.True {
			full, ranged = presburger.Conj(full, dom), true
		}
		if b, ok := full.(presburger.Bool); ok && bool(b) {
			continue
		}
		label, groups, base := stepLabel(sys, st)
		out.name[i] = nm.fresh(base)
		f, err := expr(full, name)
		if err != nil {
			if groups != "" {
				label += " for groups " + groups
			}
			return nil, guardError(label, err)
		}
		if groups != "" {
			label += ", groups " + groups
		}
		out.defs = append(out.defs, fmt.Sprintf("#define %s\t(%s)\n", out.name[i], f.s))
		text := st.Origin.GuardText
		if text == "" {
			text = sys.FormatFormula(st.Guard)
		}
		if ranged {
			text += "; and " + st.Update.Text + " stays in its domain"
		}
		out.notes = append(out.notes, fmt.Sprintf(" *   %-12s %s: %s\n", out.name[i], comment(label), comment(text)))
	}
	return out, nil
}

// stepLabel names step st in the model's comments: the transition and
// the groups of its block ("T -> C" and "a, b"), or the rendezvous
// ("rendezvous P -> P2, C -> C2" and ""); base is the base of its
// guard's macro.
func stepLabel(sys *gsst.System, st *gsst.Step) (label, groups, base string) {
	o := &st.Origin
	if o.Rendezvous >= 0 {
		return "rendezvous " + emit.PartsText(sys, st.Parts), "", fmt.Sprintf("g_rv%d", o.Rendezvous+1)
	}
	t := &sys.Transitions[o.Transition]
	blk := &t.Blocks[o.Block]
	gs := make([]string, len(blk.Groups))
	for x, g := range blk.Groups {
		gs[x] = sys.Groups[g].Name
	}
	return sys.TransitionName(t), strings.Join(gs, ", "), "g_" + sys.States[t.From] + "_" + sys.States[t.To] + "_" + strings.Join(gs, "_")
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
