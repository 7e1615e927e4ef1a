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
// with its update staying in the model's ranges (gsst.Spec.InDomain over
// the export's domains), is not TRUE; tval names the transitions' values
// of tr, after which the defines are named.
func newStepGuards(sys *gsst.System, sv *sharedVars, tval []string, nm *namer, atom atomfn) (*stepGuards, error) {
	steps := sys.Steps()
	out := &stepGuards{name: make([]string, len(steps))}
	domains := sv.domains()
	for i := range steps {
		st := &steps[i]
		full, ranged := st.Guard, false
		if dom := sys.InDomain(&st.Update, domains); dom != presburger.True {
			full, ranged = presburger.Conj(full, dom), true
		}
		if b, ok := full.(presburger.Bool); ok && bool(b) {
			continue
		}
		label, groups, base := stepLabel(sys, st, tval)
		out.name[i] = nm.fresh(base)
		f, err := formula(full, atom)
		if err != nil {
			if groups != "" {
				label += " for groups " + groups
			}
			return nil, fmt.Errorf("nusmv: guard of %s: %w", label, err)
		}
		if groups != "" {
			label += ", groups " + groups
		}
		out.defs = append(out.defs, fmt.Sprintf("  %s := %s;\n", out.name[i], f.s))
		text := st.Origin.GuardText
		if text == "" {
			text = sys.FormatFormula(st.Guard)
		}
		if ranged {
			text += "; and " + st.Update.Text + " stays in range"
		}
		out.notes = append(out.notes, fmt.Sprintf("--   %-12s %s: %s\n", out.name[i], comment(label), comment(text)))
	}
	return out, nil
}

// stepLabel names step st in the model's comments: the transition and
// the groups of its block ("T -> C" and "a, b"), or the rendezvous
// ("rendezvous P -> P2, C -> C2" and ""); base is the base of its
// guard's define.
func stepLabel(sys *gsst.System, st *gsst.Step, tval []string) (label, groups, base string) {
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
	return sys.TransitionName(t), strings.Join(gs, ", "), "g_" + tval[o.Transition] + "_" + strings.Join(gs, "_")
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
