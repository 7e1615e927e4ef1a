package testsupport

import (
	"fmt"
	"math/rand"
	"strings"
)

// RandomPerGroup writes a random system in states A, B, C, D of three
// groups p (two processes), q and r (one each), p and q starting in A
// and r in D, with a shared x in 0..2, whose transitions are written as
// a translation may write a rule once per group: one entry for the
// groups that take it, or a copy per group (named t_g, guard {g: G}),
// some for groups never in its source, some with a guard or update of
// their own; and a rendezvous whose parts name groups. gsst's
// JoinCases and FreeGroups read such copies as one transition.
func RandomPerGroup(r *rand.Rand) string {
	states := []string{"A", "B", "C", "D"}
	groups := []string{"p", "q", "r"}
	atom := func() string {
		switch r.Intn(5) {
		case 0:
			return fmt.Sprintf("#%s = 0", states[r.Intn(4)])
		case 1:
			return fmt.Sprintf("#%s >= 1", states[r.Intn(4)])
		case 2:
			return fmt.Sprintf("#%s <= n - 1", states[r.Intn(4)])
		case 3:
			return fmt.Sprintf("x = %d", r.Intn(3))
		}
		return "true"
	}
	updates := []string{"", "x := 0", "x := 2 - x"}
	var b strings.Builder
	b.WriteString("states: [A, B, C, D]\ngroups: {p: 2, q: 1, r: 1}\ninit: {p: A, q: A, r: D}\nshared:\n  x: {type: 0..2, init: 0}\ntransitions:\n")
	for k := range 3 + r.Intn(3) {
		from, to := states[r.Intn(4)], states[r.Intn(4)]
		g, u := atom(), updates[r.Intn(len(updates))]
		extra := ""
		if u != "" {
			extra = fmt.Sprintf(", update: %q", u)
		}
		if r.Intn(3) == 0 {
			fmt.Fprintf(&b, "  - {name: t%d, from: %s, to: %s, guard: %q%s}\n", k, from, to, g, extra)
			continue
		}
		for _, grp := range groups {
			if r.Intn(4) == 0 {
				continue // this group does not take it
			}
			gg, e := g, extra
			switch r.Intn(8) {
			case 0:
				gg = atom() // a guard of its own
			case 1:
				e = `, update: "x := 1"` // an update of its own
			}
			fmt.Fprintf(&b, "  - {name: t%d_%s, from: %s, to: %s, guard: {%s: %q}%s}\n", k, grp, from, to, grp, gg, e)
		}
	}
	b.WriteString("rendezvous:\n")
	from, to := states[r.Intn(4)], states[r.Intn(4)]
	list := ""
	if r.Intn(2) == 0 {
		list = ", groups: [" + groups[r.Intn(3)] + "]"
	}
	fmt.Fprintf(&b, "  - {parts: [{from: %s, to: %s%s}, {from: %s, to: %s}], guard: %q}\n", from, to, list, states[r.Intn(4)], states[r.Intn(4)], atom())
	fmt.Fprintf(&b, "properties:\n  p0: %q\n", "AG !(#A >= 1 & #C >= 1)")
	return b.String()
}
