package nusmv

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
)

// Fairness constraints become NuSMV JUSTICE constraints, which NuSMV 2.6
// evaluates on (state, input) pairs: a fair path meets each of them
// infinitely often, and CTL path quantifiers range over fair paths, as in
// vsym's engines. A justice condition over counters is written as it is.
// Weak fairness of a local transition is a condition on the edge, and the
// input variables say which edge a step takes: the step takes one of the
// transitions, or stutters (nobody can move), or leaves a state where none
// of them is enabled:
//
//	JUSTICE tr = t_T_C | tr = stutter | !(en_t_T_C)
//
// so no auxiliary state variable is needed.

// justice is one JUSTICE line and the comment describing it.
type justice struct {
	expr, text string
}

// reducedJustice writes the justice constraints of m; ctr names the
// counters, tval the values of the transition variable and en the
// enabledness defines of m's transitions.
func reducedJustice(m *counterabs.Model, atom atomfn, trVar, stutter string, tval, en []string) ([]justice, error) {
	var out []justice
	for _, j := range m.Justice {
		if !j.Weak {
			f, err := formula(j.State, atom)
			if err != nil {
				return nil, exprError("justice condition "+j.Text, err)
			}
			out = append(out, justice{f.s, j.Text})
			continue
		}
		if len(j.Transitions) == 0 {
			// Nobody can ever take the transition: every edge meets it.
			out = append(out, justice{"TRUE", j.Text})
			continue
		}
		terms := []string{trVar + " = " + stutter}
		var ens []string
		for _, k := range j.Transitions {
			terms = append(terms, trVar+" = "+tval[k])
			ens = append(ens, en[k])
		}
		terms = append(terms, "!("+strings.Join(ens, " | ")+")")
		out = append(out, justice{strings.Join(terms, " | "), j.Text})
	}
	return out, nil
}

// concreteJustice writes the justice constraints of sys for the concrete
// model: pick values first[g]+1 .. first[g]+size(g) choose the processes
// of group g; atom writes comparisons of counters, guard[i] names the
// define of step i's guard ("" when TRUE). Weak fairness of a transition
// is met where none of its steps is enabled for a process of the groups
// it names (gsst.Spec.MoversFormula of the step taken by that group).
func concreteJustice(sys *gsst.System, atom atomfn, pick, trVar, stutter string, tval []string, guard []string, first []int) ([]justice, error) {
	var out []justice
	for _, j := range sys.Fairness.Justice {
		f, err := formula(j.Formula, atom)
		if err != nil {
			return nil, exprError("justice condition "+j.Text, err)
		}
		out = append(out, justice{f.s, j.Text})
	}
	steps := sys.Steps()
	for i := range sys.Fairness.Weak {
		w := &sys.Fairness.Weak[i]
		take := trVar + " = " + tval[w.Transition]
		var ens []string
		for g := range sys.Groups {
			s := stepOf(steps, w.Transition, g)
			if s < 0 || (w.Group >= 0 && g != w.Group) || sys.Groups[g].Size == 0 {
				continue
			}
			some, err := formula(byGroups(sys, sys.MoversFormula(steps[s].Restrict(0, []int{g}).Parts)), atom)
			if err != nil {
				return nil, exprError("weak fairness "+sys.WeakName(w), err)
			}
			en := some.in(precAnd)
			if guard[s] != "" {
				en += " & " + guard[s]
			}
			ens = append(ens, en)
		}
		if w.Group >= 0 {
			lo, hi := first[w.Group]+1, first[w.Group]+sys.Groups[w.Group].Size
			take = fmt.Sprintf("%s & %s >= %d & %s <= %d", take, pick, lo, pick, hi)
		}
		if len(ens) == 0 {
			// Nobody can ever take the transition: every edge meets it.
			out = append(out, justice{"TRUE", "weak " + sys.WeakName(w)})
			continue
		}
		terms := []string{trVar + " = " + stutter, "(" + take + ")", "!(" + strings.Join(ens, " | ") + ")"}
		out = append(out, justice{strings.Join(terms, " | "), "weak " + sys.WeakName(w)})
	}
	return out, nil
}

// stepOf returns the index of the step of transition t that a process
// of group g takes (the step of its guard block), or -1.
func stepOf(steps []gsst.Step, t, g int) int {
	for i := range steps {
		if steps[i].Origin.Transition == t && steps[i].Parts[0].Allows(g) {
			return i
		}
	}
	return -1
}

func writeJusticeComments(p func(string, ...any), js []justice) {
	if len(js) == 0 {
		return
	}
	p("-- Fairness: CTL path quantifiers range over paths that meet each JUSTICE\n")
	p("-- constraint infinitely often (weak fairness of a transition: infinitely\n")
	p("-- often it is taken, or nobody can move, or it is not enabled):\n")
	for _, j := range js {
		p("--   %s\n", comment(j.text))
	}
}

func writeJustice(p func(string, ...any), js []justice) {
	for _, j := range js {
		p("JUSTICE %s;\n", j.expr)
	}
}
