package promela

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
)

// A concrete model whose steps move more than the process taking them
// keeps the local states of all processes in one global array (ps): a
// step of one part is a d_step of the process taking it, a broadcast a
// loop over the other processes inside it, a step of several parts (a
// rendezvous) one d_step in init per choice of distinct processes for
// its parts.

// MaxRendezvousSteps bounds the d_step options of the rendezvous of a
// concrete model: one per choice of distinct processes for the parts.
const MaxRendezvousSteps = 10_000

// moveText writes the statements that move process p (an expression)
// of group g from state u to v: its entry of ps and the counters.
func moveText(sv *sharedVars, p string, g, u, v int, st []string, grp [][]string, total []string) string {
	return fmt.Sprintf("%s[%s] = %s; %s--; %s++; %s--; %s++", sv.ps, p, st[v], grp[u][g], grp[v][g], total[u], total[v])
}

// writeArrayProcs writes the proctypes and init of a concrete model
// that keeps the local states in the array; guard[i] names the macro of
// step i's guard ("" when true).
func writeArrayProcs(w *writer, sys *gsst.System, sv *sharedVars, procName, st []string, grp [][]string, total []string, guard []string, name namefn, enAny, started string) error {
	steps := sys.Steps()
	first := make([]int, len(sys.Groups)+1)
	for g := range sys.Groups {
		first[g+1] = first[g] + sys.Groups[g].Size
	}
	n := first[len(sys.Groups)]
	groupOf := func(p int) int {
		for g := range sys.Groups {
			if p < first[g+1] {
				return g
			}
		}
		return -1
	}
	for g, G := range sys.Groups {
		if G.Size == 0 {
			continue
		}
		w.p("\nproctype %s(byte me)\n{\n", procName[g])
		var moves []string
		for i := range steps {
			step := &steps[i]
			if len(step.Parts) != 1 || !step.Parts[0].Allows(g) {
				continue
			}
			pt := &step.Parts[0]
			cond := fmt.Sprintf("%s[me] == %s", sv.ps, st[pt.From])
			if guard[i] != "" {
				cond += " && " + guard[i]
			}
			body := []string{moveText(sv, "me", g, pt.From, pt.To, st, grp, total)}
			up, err := sv.update(step.Update, name)
			if err != nil {
				return guardError(sys.StepName(step), err)
			}
			body = append(body, up...)
			if len(step.Transfers) > 0 {
				body = append(body, broadcastLoop(sys, sv, step, []string{"me"}, n, first, st, grp, total))
			}
			moves = append(moves, fmt.Sprintf("\t:: d_step { %s ->\n\t\t%s }\n", cond, strings.Join(body, ";\n\t\t")))
		}
		if len(moves) == 0 {
			w.p("\tfalse\t/* group %s takes no local transition */\n}\n", comment(G.Name))
			continue
		}
		w.p("\tdo\n%s\tod\n}\n", strings.Join(moves, ""))
	}

	var joins []string
	for i := range steps {
		step := &steps[i]
		if len(step.Parts) == 1 {
			continue
		}
		label, _ := emit.StepLabel(sys, step) // a rendezvous, or an environment step (no part)
		up, err := sv.update(step.Update, name)
		if err != nil {
			return guardError(label, err)
		}
		var rec func(j int, chosen []int) error
		rec = func(j int, chosen []int) error {
			if j == len(step.Parts) {
				if len(joins) >= MaxRendezvousSteps {
					return errkind.Errorf(errkind.Limit, "promela: the rendezvous need more than %d d_step options (one per choice of distinct processes for the parts)", MaxRendezvousSteps)
				}
				var conds, body, movers []string
				for x, p := range chosen {
					pt := step.Parts[x]
					conds = append(conds, fmt.Sprintf("%s[%d] == %s", sv.ps, p, st[pt.From]))
					body = append(body, moveText(sv, strconv.Itoa(p), groupOf(p), pt.From, pt.To, st, grp, total))
					movers = append(movers, strconv.Itoa(p))
				}
				if guard[i] != "" {
					conds = append(conds, guard[i])
				}
				if len(conds) == 0 {
					conds = []string{"true"} // an environment step without a guard
				}
				body = append(body, up...)
				if len(step.Transfers) > 0 {
					body = append(body, broadcastLoop(sys, sv, step, movers, n, first, st, grp, total))
				}
				joins = append(joins, fmt.Sprintf("\t:: d_step { %s ->\n\t\t%s }\t/* %s */\n", strings.Join(conds, " && "), strings.Join(body, ";\n\t\t"), comment(label)))
				return nil
			}
			for p := range n {
				if step.Parts[j].Allows(groupOf(p)) && !containsInt(chosen, p) {
					if err := rec(j+1, append(chosen, p)); err != nil {
						return err
					}
				}
			}
			return nil
		}
		if err := rec(0, nil); err != nil {
			return err
		}
	}

	w.p("\ninit\n{\n\tatomic {\n")
	var runs []string
	p := 0
	for g := range sys.Groups {
		for s := range sys.States {
			for c := 0; c < sys.Init[g][s] && started == ""; c++ {
				runs = append(runs, fmt.Sprintf("\t\t%s[%d] = %s", sv.ps, p, st[s]))
				p++
			}
		}
	}
	if started != "" {
		// Several initial configurations: each process placed by a
		// choice (initial.go), with its counters.
		place := func(g, p, s int) string {
			return fmt.Sprintf("%s[%d] = %s; %s++; %s++", sv.ps, p, st[s], grp[s][g], total[s])
		}
		var err error
		if runs, err = concreteStarts(sys, sv, place, started); err != nil {
			return err
		}
	}
	p = 0
	for g := range sys.Groups {
		for c := 0; c < sys.Groups[g].Size; c++ {
			runs = append(runs, fmt.Sprintf("\t\trun %s(%d)", procName[g], p))
			p++
		}
	}
	w.p("%s\n\t}\n", strings.Join(runs, ";\n"))
	w.p("\tdo\n\t:: !%s\t/* no process can move: stutter */\n%s\tod\n}\n", enAny, strings.Join(joins, ""))
	return nil
}

// broadcastLoop writes the loop that moves, at a step, every process
// that is none of its movers (expressions) and is in a transfer's
// source (of its groups) to its target; each process is looked at once,
// in its state before the step. The loop index is reset after the loop:
// besides leaving no trace, a statement after the od keeps Spin 6 from
// jumping to a label it never defines when break ends a d_step.
func broadcastLoop(sys *gsst.System, sv *sharedVars, step *gsst.Step, movers []string, n int, first []int, st []string, grp [][]string, total []string) string {
	i := sv.loop
	var others []string
	for _, m := range movers {
		others = append(others, i+" != "+m)
	}
	if len(others) == 0 {
		others = []string{"true"} // an environment step: every process may be transferred
	}
	other := strings.Join(others, " && ")
	var opts []string
	for _, tf := range step.Transfers {
		for g, G := range sys.Groups {
			if G.Size == 0 || !tf.Allows(g) {
				continue
			}
			cond := fmt.Sprintf("%s && %s[%s] == %s", other, sv.ps, i, st[tf.From])
			if len(sys.Groups) > 1 {
				cond = fmt.Sprintf("%s && %s >= %d && %s < %d && %s[%s] == %s", other, i, first[g], i, first[g+1], sv.ps, i, st[tf.From])
			}
			opts = append(opts, fmt.Sprintf("\t\t   :: %s -> %s\n", cond, moveText(sv, i, g, tf.From, tf.To, st, grp, total)))
		}
	}
	return fmt.Sprintf("%s = 0;\n\t\tdo\n\t\t:: %s < %d ->\n\t\t   if\n%s\t\t   :: else -> skip\n\t\t   fi;\n\t\t   %s++\n\t\t:: else -> break\n\t\tod;\n\t\t%s = 0", i, i, n, strings.Join(opts, ""), i, i)
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
