package testsupport

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
)

// RandomSplit writes a random system in states A, B, C, D, with a
// shared x in 0..2 and the groups given (a YAML flow mapping of two
// groups p and q, such as "{p: 1.., q: 1}"), whose transitions are
// written in cases as gsst's JoinCases joins them: most as two or three
// named halves of one effect whose guards conjoin a common guard with
// the cases of a split (complementary, as `#S >= 2` and `#S <= 1` or
// `x >= 1` and `x = 0`; overlapping; or with a gap, which must stay),
// some as one guard written by cases, some halves with updates that
// differ (not of one effect); and a rendezvous of two parts and an
// environment step written in cases too. Only where perGroup says so do guards
// read group counters or differ per group (a system that does not may
// be certified). Its properties are two safety properties and the
// liveness property "live".
func RandomSplit(r *rand.Rand, groups string, perGroup bool) string {
	states := []string{"A", "B", "C", "D"}
	count := func() string {
		c := "#" + states[r.Intn(len(states))]
		if perGroup && r.Intn(4) == 0 {
			// A group counter: #S[p] >= 1 holds where a process of p
			// may step out of S, not where one of q may.
			c += []string{"[p]", "[q]"}[r.Intn(2)]
		}
		return c
	}
	atom := func() string {
		switch r.Intn(5) {
		case 0:
			return count() + " = 0"
		case 1:
			return fmt.Sprintf("%s >= %d", count(), 1+r.Intn(2))
		case 2:
			return fmt.Sprintf("%s <= %d", count(), r.Intn(2))
		case 3:
			return fmt.Sprintf("x = %d", r.Intn(3))
		}
		return "x >= 1"
	}
	common := func() string {
		switch r.Intn(4) {
		case 0:
			return ""
		case 1:
			return atom() + " & " + atom()
		case 2:
			return atom() + " | " + atom()
		}
		return atom()
	}
	// cut returns the cases of a split, the mover's source from.
	cut := func(from string) []string {
		s := count()
		switch r.Intn(6) {
		case 0, 1:
			s = "#" + from
		case 2:
			if perGroup {
				s = "#" + from + "[p]"
			}
		}
		switch r.Intn(8) {
		case 6:
			if !perGroup {
				return []string{"#" + from + " >= 1", "x = 2"}
			}
			// Valid only where the mover is of p: a block of p's.
			return []string{"#" + from + "[p] >= 1", "x = 2"}
		case 0, 1:
			k := 1 + r.Intn(2)
			return []string{fmt.Sprintf("%s >= %d", s, k), fmt.Sprintf("%s <= %d", s, k-1)}
		case 2:
			return []string{"x >= 1", "x = 0"}
		case 3:
			return []string{"x <= 1", "x = 2"}
		case 4:
			return []string{s + " >= 1", s + " <= 1"} // overlapping
		case 5:
			return []string{s + " >= 2", s + " = 0"} // a gap: #S = 1
		}
		return []string{s + " = 0", s + " = 1", s + " >= 2"}
	}
	and := func(g, c string) string {
		switch {
		case g == "":
			return c
		case r.Intn(2) == 0:
			return c + " & (" + g + ")"
		}
		return "(" + g + ") & " + c
	}
	updates := []string{"", "x := x + 1", "x := 0", "x := 2 - x"}
	var b strings.Builder
	fmt.Fprintf(&b, "states: [A, B, C, D]\ngroups: %s\ninit: {p: A, q: B}\nshared:\n  x: {type: 0..2, init: 0}\ntransitions:\n", groups)
	for k := range 3 + r.Intn(3) {
		from := states[r.Intn(len(states))]
		to := states[(r.Intn(len(states)-1)+1+slices.Index(states, from))%len(states)]
		g, cases, update := common(), cut(from), updates[r.Intn(len(updates))]
		extra := ""
		if update != "" {
			extra = fmt.Sprintf(", update: %q", update)
		}
		if r.Intn(5) == 0 {
			other := states[r.Intn(len(states))]
			if other != from && other != to {
				extra += fmt.Sprintf(", broadcast: [%q]", other+" -> "+to)
			}
		}
		switch r.Intn(6) {
		case 0:
			// One transition, its guard written by cases.
			parts := make([]string, len(cases))
			for i, c := range cases {
				parts[i] = and(g, c)
			}
			fmt.Fprintf(&b, "  - {name: t%d, from: %s, to: %s, guard: %q%s}\n", k, from, to, strings.Join(parts, " | "), extra)
		case 1:
			if !perGroup {
				for i, c := range cases {
					fmt.Fprintf(&b, "  - {name: t%d_%d, from: %s, to: %s, guard: %q%s}\n", k, i, from, to, and(g, c), extra)
				}
				break
			}
			// Per group: each group's guard split alike.
			for i, c := range cases {
				fmt.Fprintf(&b, "  - {name: t%d_%d, from: %s, to: %s, guard: {p: %q, q: %q}%s}\n", k, i, from, to, and(g, c), and(atom(), c), extra)
			}
		default:
			for i, c := range cases {
				e := extra
				switch {
				case i > 0 && r.Intn(8) == 0:
					// Not one effect: the halves stay apart.
					e = `, update: "x := 1"` + strings.Replace(extra, fmt.Sprintf(", update: %q", update), "", 1)
				case i > 0 && r.Intn(8) == 0 && !strings.Contains(extra, "broadcast"):
					e += fmt.Sprintf(", broadcast: [%q]", from+" -> "+to)
				}
				fmt.Fprintf(&b, "  - {name: t%d_%d, from: %s, to: %s, guard: %q%s}\n", k, i, from, to, and(g, c), e)
			}
		}
	}
	// A rendezvous and an environment step, each written in cases.
	b.WriteString("rendezvous:\n")
	from, to := states[r.Intn(len(states))], states[r.Intn(len(states))]
	g, cases := common(), cut(from)
	for i, c := range cases {
		back := from
		if i > 0 && r.Intn(4) == 0 {
			back = to // not one effect: the halves stay apart
		}
		fmt.Fprintf(&b, "  - {name: r_%d, parts: [{from: %s, to: %s}, {from: %s, to: %s}], guard: %q}\n", i, from, to, to, back, and(g, c))
	}
	b.WriteString("environment:\n")
	g, cases = common(), cut(states[r.Intn(len(states))])
	update := updates[1+r.Intn(len(updates)-1)]
	for i, c := range cases {
		u := update
		if i > 0 && r.Intn(4) == 0 {
			u = "x := 1" // not one effect
		}
		fmt.Fprintf(&b, "  - {name: e_%d, guard: %q, update: %q}\n", i, and(g, c), u)
	}
	fmt.Fprintf(&b, "properties:\n  p0: %q\n  p1: %q\n  live: %q\n", "AG !("+atom()+" & "+atom()+")", "AG "+atom(), "AF "+atom())
	return b.String()
}
