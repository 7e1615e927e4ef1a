package testsupport

import (
	"fmt"
	"math/rand"
	"strings"
)

// RandomControlled writes a random system in states A, B, C, D of the
// groups p and q (a YAML flow mapping such as "{p: 1.., q: 1}"), with a
// shared x in 0..2 and one or two controllers as gsst's
// ControllersAsShared reads them: f, one process in F0 / F1, and
// sometimes g, one process in G0 / G1 / G2. Guards, properties and
// justice read the controllers' counters (#F1 = 1, #G2 >= 1, #F0[f] =
// 0, #F1[p] = 0) and n; their states are written by rendezvous with a
// part of the controller, in every style a translation uses: one
// rendezvous per value before (F0 -> F1 and F1 -> F1), only the value
// the guard demands, a part restricted to the controller's group (or to
// another group: never taken), a rendezvous of the controller and two
// processes, and a move of the controller alone (an environment step of
// the system read). Some systems have a process of p that may enter F0
// (no controller then), or two parts from F's states (a rendezvous
// ControllersAsShared declines).
func RandomControlled(r *rand.Rand, groups string) string {
	states := []string{"A", "B", "C", "D"}
	two := r.Intn(2) == 0
	count := func() string {
		switch r.Intn(8) {
		case 0:
			return []string{"#F1", "#F0", "#F1[f]", "#F0[f]"}[r.Intn(4)]
		case 1:
			if two {
				return []string{"#G0", "#G1", "#G2", "#G2[g]"}[r.Intn(4)]
			}
		case 2:
			return []string{"#F1[p]", "#A[f]", "#B[p]"}[r.Intn(3)]
		}
		return "#" + states[r.Intn(len(states))]
	}
	atom := func() string {
		switch r.Intn(7) {
		case 0:
			return count() + " = 0"
		case 1:
			return fmt.Sprintf("%s >= %d", count(), 1+r.Intn(2))
		case 2:
			return fmt.Sprintf("%s <= %d", count(), r.Intn(2))
		case 3:
			return fmt.Sprintf("x = %d", r.Intn(3))
		case 4:
			return "#F1 + " + count() + " >= 2"
		case 5:
			return "n >= 3 & #F0 + #G1 = 1"
		}
		return "x >= 1"
	}
	guard := func() string {
		switch r.Intn(4) {
		case 0:
			return "true"
		case 1:
			return atom() + " & " + atom()
		case 2:
			return atom() + " | " + atom()
		}
		return atom()
	}
	state := func() string { return states[r.Intn(len(states))] }
	var b strings.Builder
	fmt.Fprintf(&b, "states: [A, B, C, D, F0, F1, G0, G1, G2]\n")
	ctl := "f: 1"
	init := "f: F0"
	if two {
		ctl += ", g: 1"
		init += ", g: G" + fmt.Sprint(r.Intn(3))
	}
	fmt.Fprintf(&b, "groups: {%s, %s}\ninit: {p: A, q: B, %s}\n", strings.TrimSuffix(strings.TrimPrefix(groups, "{"), "}"), ctl, init)
	b.WriteString("shared:\n  x: {type: 0..2, init: 0}\ntransitions:\n")
	updates := []string{"", "x := x + 1", "x := 0", "x := 2 - x"}
	for k := range 2 + r.Intn(3) {
		from, to := state(), state()
		extra := ""
		if u := updates[r.Intn(len(updates))]; u != "" {
			extra = fmt.Sprintf(", update: %q", u)
		}
		if other := state(); other != to && r.Intn(6) == 0 {
			extra += fmt.Sprintf(", broadcast: [%q]", other+" -> "+to)
		}
		fmt.Fprintf(&b, "  - {name: t%d, from: %s, to: %s, guard: %q%s}\n", k, from, to, guard(), extra)
	}
	if r.Intn(3) == 0 {
		// The controller alone: an environment step as read.
		fmt.Fprintf(&b, "  - {name: alone, from: F1, to: F0, guard: %q}\n", guard())
	}
	if r.Intn(12) == 0 {
		// A process of p may enter F's states: f is no controller.
		fmt.Fprintf(&b, "  - {name: leak, from: %s, to: F0, guard: %q}\n", state(), guard())
	}
	b.WriteString("rendezvous:\n")
	for k := range 2 + r.Intn(3) {
		from, to := state(), state()
		g := guard()
		list := ""
		switch r.Intn(6) {
		case 0:
			list = ", groups: [f]"
		case 1:
			list = ", groups: [p]" // never taken: only f is in F's states
		}
		target := []string{"F0", "F1"}[r.Intn(2)]
		switch r.Intn(4) {
		case 0:
			// One per value before: the write reads nothing.
			for _, before := range []string{"F0", "F1"} {
				fmt.Fprintf(&b, "  - {name: w%d%s, parts: [{from: %s, to: %s}, {from: %s, to: %s%s}], guard: %q}\n", k, before, from, to, before, target, list, g)
			}
		case 1:
			// Three movers: the controller and two processes.
			fmt.Fprintf(&b, "  - {name: w%d, parts: [{from: %s, to: %s}, {from: %s, to: %s}, {from: F%d, to: %s%s}], guard: %q}\n", k, from, to, state(), state(), r.Intn(2), target, list, g)
		case 2:
			if two {
				fmt.Fprintf(&b, "  - {name: w%d, parts: [{from: %s, to: %s}, {from: G%d, to: G%d}, {from: F%d, to: %s}], guard: %q}\n", k, from, to, r.Intn(3), r.Intn(3), r.Intn(2), target, g)
				break
			}
			fallthrough
		default:
			fmt.Fprintf(&b, "  - {name: w%d, parts: [{from: %s, to: %s}, {from: F%d, to: %s%s}], guard: %q}\n", k, from, to, r.Intn(2), target, list, g)
		}
	}
	if r.Intn(12) == 0 {
		// Two parts from F's states: declined.
		fmt.Fprintf(&b, "  - {name: both, parts: [{from: F0, to: F1}, {from: F1, to: F0}], guard: %q}\n", guard())
	}
	if r.Intn(4) == 0 {
		fmt.Fprintf(&b, "fairness: {justice: [%q]}\n", atom())
	}
	fmt.Fprintf(&b, "properties:\n  p0: %q\n  p1: %q\n  live: %q\n", "AG !("+atom()+" & "+atom()+")", "AG ("+atom()+")", "AF ("+atom()+")")
	return b.String()
}
