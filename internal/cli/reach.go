package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
)

// check's reachability questions (analysis.Reach) as text and JSON.

// reachAnswer is the answer to one reachability question.
type reachAnswer struct {
	Reachable *bool          `json:"reachable"`        // null: undecided, see reason
	Steps     *int           `json:"steps,omitempty"`  // length of a shortest path from the initial state
	State     *explore.State `json:"state,omitempty"`  // asymmetry: the configuration that path reaches
	Reason    string         `json:"reason,omitempty"` // why it is undecided, with the flag to raise
}

// reachJSON holds the three answers for one violated transition.
type reachJSON struct {
	// Sizes, for a spec whose group sizes are ranges, are those of the
	// witness's instance, which the questions are asked of.
	Sizes     map[string]int `json:"sizes,omitempty"`
	Enabled   reachAnswer    `json:"enabled"`
	Disabled  reachAnswer    `json:"disabled"`
	Asymmetry reachAnswer    `json:"asymmetry"`
}

func newReachJSON(t *analysis.TransitionReach) *reachJSON {
	if t == nil {
		return nil
	}
	return &reachJSON{Sizes: t.Sizes, Enabled: newReachAnswer(t.Enabled), Disabled: newReachAnswer(t.Disabled), Asymmetry: newReachAnswer(t.Asymmetry)}
}

// newReachAnswer returns a, its reason with the flag that changes the
// bound that left it undecided.
func newReachAnswer(a analysis.ReachAnswer) reachAnswer {
	reason := a.Reason
	if flag := limitFlags[a.Limit]; flag != "" {
		reason += "; raise " + flag
	}
	return reachAnswer{Reachable: a.Reachable, Steps: a.Steps, State: a.State, Reason: reason}
}

// writeReach prints the answers for one violated transition or
// rendezvous, t.
func writeReach(w io.Writer, sys *gsst.System, name string, t *detect.TransitionResult, a *reachJSON) {
	// Fairness plays no part (reachSystem); say so where the spec has some.
	anyRun := ""
	if !sys.Fairness.Empty() {
		anyRun = " by any run, fair or not"
	}
	if a.Sizes != nil {
		var sizes []string
		for _, g := range sys.Groups {
			sizes = append(sizes, fmt.Sprintf("%s=%d", g.Name, a.Sizes[g.Name]))
		}
		fmt.Fprintf(w, "    reachable from the initial state of the witness's instance %s%s (decided exactly on its group-counter model):\n", strings.Join(sizes, ", "), anyRun)
	} else {
		fmt.Fprintf(w, "    reachable from the initial state%s (decided exactly on the group-counter model):\n", anyRun)
	}
	fmt.Fprintf(w, "      the enabled configuration: %s\n", describeReach(sys, &a.Enabled))
	fmt.Fprintf(w, "      the disabled configuration: %s\n", describeReach(sys, &a.Disabled))
	asym := describeReach(sys, &a.Asymmetry)
	if r := a.Asymmetry.Reachable; r != nil && !*r {
		asym += ": this asymmetry cannot occur from the initial state"
	}
	if t.Witness.Step != nil {
		same := "total counters"
		if len(sys.Shared) > 0 {
			same += " and shared values"
		}
		fmt.Fprintf(w, "      some configuration from which no step reaches an orbit that %s reaches from one with the same %s: %s\n", name, same, asym)
		return
	}
	same := ""
	if guardShared(sys, t) != "" {
		same = " and shared values"
	}
	fmt.Fprintf(w, "      some configuration where no process can take %s although one with the same total counters%s lets one: %s\n", name, same, asym)
}

func describeReach(sys *gsst.System, a *reachAnswer) string {
	switch {
	case a.Reachable == nil:
		return "unknown (" + a.Reason + ")"
	case !*a.Reachable:
		return "no"
	}
	var b strings.Builder
	b.WriteString("yes")
	if a.Steps != nil {
		fmt.Fprintf(&b, ", in %s", countNoun(*a.Steps, "step", "steps"))
	}
	if a.State != nil {
		fmt.Fprintf(&b, ", e.g. %s", formatState(sys, *a.State))
	}
	return b.String()
}

// writeReachSummary says what the reachability answers mean for the
// whole system.
func writeReachSummary(w io.Writer, sys *gsst.System, rep *detect.Report, reachable *bool) {
	steps := false // some witness's point is a step's effect
	for _, t := range rep.Results() {
		steps = steps || t.Witness != nil && t.Witness.Step != nil
	}
	switch {
	case reachable == nil:
	case *reachable:
		fmt.Fprintf(w, "  an asymmetry can occur from the initial state, so the total-counter model would not be exact for %s; explore, abstract and nusmv use the group-counter model by default, which is exact for any system\n", sys.Name)
	case steps:
		fmt.Fprintf(w, "  but no asymmetry can occur from the initial state: every reachable configuration reaches the same successor orbits as every configuration with the same total counters and shared values; explore, abstract and nusmv still use the group-counter model by default, which is exact for any system\n")
	default:
		fmt.Fprintf(w, "  but no asymmetry can occur from the initial state: in every reachable configuration a transition can be taken exactly when some configuration with the same total counters allows it, so the guards of the total-counter model are exact there; explore, abstract and nusmv still use the group-counter model by default, which is exact for any system\n")
	}
}
