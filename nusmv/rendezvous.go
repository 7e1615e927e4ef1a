package nusmv

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
)

// A step of several parts (a rendezvous) is one value of tr in the
// concrete model: the j-th pick input chooses the process of part j,
// and TRANS requires the picks to choose distinct processes, each in its
// part's source and of its groups, with the step's guard holding.

// maxParts is the largest number of parts of a step (1 without
// rendezvous): one pick input variable per part.
func maxParts(steps []gsst.Step) int {
	k := 1
	for i := range steps {
		k = max(k, len(steps[i].Parts))
	}
	return k
}

// joinMoves are the case lines of process i (of group g) for the parts
// of steps of several parts it may take.
func joinMoves(steps []gsst.Step, i, g int, trVar string, picks, stepVal, st []string) []string {
	var out []string
	for s := range steps {
		if len(steps[s].Parts) == 1 {
			continue
		}
		for j, pt := range steps[s].Parts {
			if pt.Allows(g) {
				out = append(out, fmt.Sprintf("%s = %d & %s = %s : %s;", picks[j], i+1, trVar, stepVal[s], st[pt.To]))
			}
		}
	}
	return out
}

// partsChoice is the condition that the pick inputs choose distinct
// processes for the parts of step st, each in its part's source state
// and of its groups, and that the guard holds (for an environment step,
// which has no part, the guard alone).
func partsChoice(step *gsst.Step, procs []proc, picks, st []string, guard string) string {
	parts := step.Parts
	var cs []string
	for j, pt := range parts {
		var ws []string
		for i, pr := range procs {
			if pt.Allows(pr.group) {
				ws = append(ws, fmt.Sprintf("%s = %d & %s = %s", picks[j], i+1, pr.name, st[pt.From]))
			}
		}
		if len(ws) == 0 {
			return "FALSE"
		}
		cs = append(cs, "("+wrapJoin(ws, " | ", "          ")+")")
	}
	for j := range parts {
		for k := j + 1; k < len(parts); k++ {
			cs = append(cs, picks[j]+" != "+picks[k])
		}
	}
	if guard != "" {
		cs = append(cs, guard)
	}
	if len(cs) == 0 {
		return "TRUE" // an environment step without a guard
	}
	return strings.Join(cs, "\n        & ")
}

// writeRendezvousComments lists the values of tr that name rendezvous
// and the pick inputs of their parts.
func writeRendezvousComments(p func(string, ...any), sys *gsst.System, rvVal, picks []string) {
	if len(sys.Rendezvous) == 0 {
		return
	}
	p("-- Rendezvous (value of tr: parts; the part i moves the process chosen by\n")
	p("-- %s, distinct processes):\n", strings.Join(picks, ", "))
	for r := range sys.Rendezvous {
		p("--   %-12s %s\n", rvVal[r], comment(emit.PartsText(sys, sys.Rendezvous[r].Parts)))
	}
}
