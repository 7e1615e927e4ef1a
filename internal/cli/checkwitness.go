package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// What vsym check prints for rendezvous results, shared values and
// parameters, and witnesses whose point is a step (detect.Witness.Step).

// rendezvousCount is ", 1 rendezvous" or ", 2 rendezvous" after the
// count of transitions, and ", 1 environment step" after it; "" without
// rendezvous and environment steps.
func rendezvousCount(sys *gsst.System) string {
	out := ""
	if len(sys.Rendezvous) > 0 {
		out = fmt.Sprintf(", %d rendezvous", len(sys.Rendezvous))
	}
	if len(sys.Environment) > 0 {
		out += ", " + countNoun(len(sys.Environment), "environment step", "environment steps")
	}
	return out
}

// certifiedNoun names what the solver certified, k of them (1: one).
func certifiedNoun(sys *gsst.System, k int) string {
	switch {
	case len(sys.Environment) > 0 && k == 1:
		return "step certified"
	case len(sys.Environment) > 0:
		return "steps certified"
	case len(sys.Rendezvous) > 0 && k == 1:
		return "transition or rendezvous certified"
	case len(sys.Rendezvous) > 0:
		return "transitions and rendezvous certified"
	case k == 1:
		return "transition certified"
	}
	return "transitions certified"
}

// freeParams reports whether sys is a family over parameters (some
// parameter is not fixed).
func freeParams(sys *gsst.System) bool {
	for _, p := range sys.Params {
		if !p.Fixed {
			return true
		}
	}
	return false
}

// sizeText writes a group's size as the spec does: "3", "1..", or the
// expression over the parameters, "n - f".
func sizeText(g *gsst.Group) string {
	if g.OverParams() && g.SizeTermText != "" {
		return g.SizeTermText
	}
	return g.SizeText()
}

// resultName names the transition, rendezvous or environment step of a
// result.
func resultName(sys *gsst.System, t *detect.TransitionResult) string { return t.Name(sys) }

// sharedText writes shared values as "turn=reader lock=false".
func sharedText(sys *gsst.System, vals []int) string { return sys.FormatShared(vals) }

// totalsText writes total counters as "#I=1 #T=0".
func totalsText(sys *gsst.System, x []int) string { return sys.FormatTotals(x) }

// paramsText writes parameter values as "n = 4, t = 1".
func paramsText(sys *gsst.System, vals []int) string {
	parts := make([]string, len(vals))
	for k, v := range vals {
		parts[k] = fmt.Sprintf("%s = %d", sys.Params[k].Name, v)
	}
	return strings.Join(parts, ", ")
}

// stepWitnessText is the explanation of a witness whose point is a step,
// in two sentences: what the configurations share, and what the step
// does that no step of the other configuration does.
func stepWitnessText(sys *gsst.System, name string, wit *detect.Witness) (at, same, diff string) {
	at = witnessAt(sys, wit)
	same = "the two configurations below have equal total counters"
	if len(sys.Shared) > 0 {
		same += " and the same shared values, " + sharedText(sys, wit.Shared)
	}
	st := wit.Step
	var who string
	switch {
	case len(st.Groups) == 0:
		who = "the environment" // an environment step moves no process of its own
	case sys.Steps()[st.Step].Origin.Rendezvous < 0:
		who = "a process of group " + sys.Groups[st.Groups[0]].Name
	default:
		names := make([]string, len(st.Groups))
		for i, g := range st.Groups {
			names[i] = sys.Groups[g].Name
		}
		who = "processes of groups " + strings.Join(names, ", ") + " (one per part)"
	}
	diff = fmt.Sprintf("in the first %s can take %s to %s", who, name, totalsText(sys, st.Next.Totals(len(sys.States))))
	if len(sys.Shared) > 0 {
		diff += " with " + sharedText(sys, st.Next.Shared)
	}
	diff += "; in the second no step reaches that orbit"
	return at, same, diff
}

// witnessAt says at which instance a witness is, for a family: " at
// sizes reader=1, writer=2", or with the parameter values; "" for a
// system of fixed sizes.
func witnessAt(sys *gsst.System, wit *detect.Witness) string {
	switch {
	case wit.Params != nil:
		return " at " + paramsText(sys, wit.Params) + " (sizes " + sys.FormatSizes(wit.Sizes) + ")"
	case sys.Parametric():
		return " at sizes " + sys.FormatSizes(wit.Sizes)
	}
	return ""
}

// guardShared is " and the same shared values, lock=false" for the
// shared variables that the guards of a violated transition read, whose
// witness is one of enabledness (no step): the values its enabledness
// depends on; "" when its guards read none.
func guardShared(sys *gsst.System, t *detect.TransitionResult) string {
	read := map[int]bool{}
	for _, st := range sys.Steps() {
		if o := st.Origin; o.Transition < 0 || &sys.Transitions[o.Transition] != t.Transition {
			continue
		}
		for _, v := range presburger.FreeVars(st.Guard) {
			if j, ok := sys.SharedOf(v); ok {
				read[j] = true
			}
		}
	}
	var parts []string
	for j := range sys.Shared {
		if read[j] {
			parts = append(parts, sys.Shared[j].Assignment(t.Witness.Shared[j]))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " and the same shared values, " + strings.Join(parts, " ")
}

// writeStepWitness prints a violation whose witness is a step.
func writeStepWitness(w io.Writer, sys *gsst.System, name string, wit *detect.Witness) {
	at, same, diff := stepWitnessText(sys, name, wit)
	fmt.Fprintf(w, "  %s: violated%s: %s;\n", name, at, same)
	fmt.Fprintf(w, "    %s\n", diff)
	writeWitnessTables(w, sys, wit)
}
