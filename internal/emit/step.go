package emit

import (
	"strconv"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// StepGuard returns what step st of sys needs besides its movers in an
// export whose shared variables have the given domains (sys.Shared, or
// Domains): its guard, and its update keeping every variable in its
// domain (gsst.Spec.InDomain); ranged reports whether the second is part
// of it.
func StepGuard(sys *gsst.System, st *gsst.Step, domains []gsst.Shared) (full presburger.Formula, ranged bool) {
	full = st.Guard
	if dom := sys.InDomain(&st.Update, domains); dom != presburger.True {
		full, ranged = presburger.Conj(full, dom), true
	}
	return full, ranged
}

// EnvironmentIdent is the base of an identifier for environment step k
// of sys: "env_" and its name, or "env" and its number from 1.
func EnvironmentIdent(sys *gsst.System, k int) string {
	if name := sys.Environment[k].Name; name != "" {
		return "env_" + name
	}
	return "env" + strconv.Itoa(k+1)
}

// GuardText writes the guard of st as the spec did (or from its formula
// for a spec built by hand), followed, when ranged, by "; and UPDATE
// stays" and where (stays: "in range", "in its domain").
func GuardText(sys *gsst.System, st *gsst.Step, ranged bool, stays string) string {
	text := st.Origin.GuardText
	if text == "" {
		text = sys.FormatFormula(st.Guard)
	}
	if ranged {
		text += "; and " + st.Update.Text + " stays " + stays
	}
	return text
}

// StepLabel names step st of sys in an export's comments: the transition
// and the names of the groups of its block ("T -> C", [a b]), the
// rendezvous ("rendezvous P -> P2, C -> C2", nil), or the environment
// step ("environment step tick", nil).
func StepLabel(sys *gsst.System, st *gsst.Step) (label string, groups []string) {
	o := &st.Origin
	switch {
	case o.Environment >= 0:
		if sys.Environment[o.Environment].Name != "" {
			return "environment step " + sys.EnvironmentName(o.Environment), nil
		}
		return sys.EnvironmentName(o.Environment), nil
	case o.Rendezvous >= 0:
		label := "rendezvous " + PartsText(sys, st.Parts)
		if name := sys.Rendezvous[o.Rendezvous].Name; name != "" {
			label = name + " (" + label + ")"
		}
		return label, nil
	}
	t := &sys.Transitions[o.Transition]
	for _, g := range t.Blocks[o.Block].Groups {
		groups = append(groups, sys.Groups[g].Name)
	}
	return sys.TransitionName(t), groups
}
