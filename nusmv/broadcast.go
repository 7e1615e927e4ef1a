package nusmv

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/gsst"
)

// transferMoves are the case lines of process i (of group g, variable
// self) for the transfers that carry it along: when a step with
// transfers is taken and i is none of its movers, i moves from a
// transfer's source (when its group is one the transfer moves) to its
// target. The blocks of one transition share their transfers and their
// value of tr, so their lines are written once.
func transferMoves(steps []gsst.Step, i, g int, trVar string, picks, stepVal, st []string, self string) []string {
	var out []string
	for s := range steps {
		cond := []string{trVar + " = " + stepVal[s]}
		for j := range steps[s].Parts { // an environment step has no mover
			cond = append(cond, fmt.Sprintf("%s != %d", picks[j], i+1))
		}
		for _, tf := range steps[s].Transfers {
			if !tf.Allows(g) {
				continue
			}
			line := fmt.Sprintf("%s & %s = %s : %s;", strings.Join(cond, " & "), self, st[tf.From], st[tf.To])
			if !slices.Contains(out, line) {
				out = append(out, line)
			}
		}
	}
	return out
}
