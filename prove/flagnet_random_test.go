package prove_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
)

// Nets whose places of at most one token are written as groups of one
// process each (a translation that writes every finite shared variable
// so: the process of place x is in x_true when x holds its token, in
// x_false when not), the others as 0..1 or unbounded shared integers. A
// rule that puts a token on such a place is a rendezvous of the net's
// process with the place's, one per value the place may hold: the case
// where the place holds a token already takes no part of its process,
// and loses the token moved (as "x := true" does on a bool). Those
// cases break the place invariants step by step, and the backward
// search leaves them out where the invariants of the other steps
// exclude them (coverhoudini.go); its answers are cross-checked against
// exploration and Spacer.

// randomFlagNet returns such a net: the net's process on its state S,
// the places' processes.
func randomFlagNet(t *testing.T, r *rand.Rand) *gsst.System {
	places := 3 + r.Intn(4)
	const (
		flagPlace = iota
		smallPlace
		natPlace
	)
	kind := make([]int, places)
	init := make([]int, places)
	token := r.Intn(places)
	var shared strings.Builder
	states := []string{"S"}
	groups := []string{"net: 1"}
	inits := []string{"net: S"}
	for p := range places {
		kind[p] = r.Intn(3)
		if p == token {
			init[p] = 1
		}
		switch kind[p] {
		case flagPlace:
			states = append(states, fmt.Sprintf("x%d_false", p), fmt.Sprintf("x%d_true", p))
			groups = append(groups, fmt.Sprintf("g%d: 1", p))
			inits = append(inits, fmt.Sprintf("g%d: x%d_%v", p, p, init[p] == 1))
		case smallPlace:
			fmt.Fprintf(&shared, "  x%d: {type: 0..1, init: %d}\n", p, init[p])
		default:
			if r.Intn(3) == 0 {
				init[p] += r.Intn(2)
			}
			fmt.Fprintf(&shared, "  x%d: {type: \"0..\", init: %d}\n", p, init[p])
		}
	}
	has := func(p int) string {
		if kind[p] == flagPlace {
			return fmt.Sprintf("#x%d_true = 1", p)
		}
		return fmt.Sprintf("x%d >= 1", p)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "name: flagnet\nstates: [%s]\ngroups: {%s}\ninit: {%s}\n", strings.Join(states, ", "), strings.Join(groups, ", "), strings.Join(inits, ", "))
	if shared.Len() > 0 {
		b.WriteString("shared:\n" + shared.String())
	}
	var trans, rdv strings.Builder
	for i := range 2 + r.Intn(5) {
		perm := r.Perm(places)
		np := 1 + r.Intn(2)
		nq := min(1+r.Intn(2), places-np)
		pre, post, rest := perm[:np], perm[np:np+nq], perm[np+nq:]
		if r.Intn(4) > 0 {
			post = post[:min(len(post), len(pre))]
		}
		var guard, update, parts []string
		parts = append(parts, "{from: S, to: S}")
		for _, p := range pre {
			guard = append(guard, has(p))
			if kind[p] == flagPlace {
				parts = append(parts, fmt.Sprintf("{from: x%d_true, to: x%d_false}", p, p))
			} else {
				update = append(update, fmt.Sprintf("x%d := x%d - 1", p, p))
			}
		}
		var flags []int
		for _, p := range post {
			if kind[p] == flagPlace {
				flags = append(flags, p)
			} else {
				update = append(update, fmt.Sprintf("x%d := x%d + 1", p, p))
			}
		}
		if len(rest) >= 2 && r.Intn(3) == 0 && kind[rest[0]] != flagPlace && kind[rest[1]] != flagPlace {
			update = append(update, fmt.Sprintf("x%d := x%d + x%d", rest[0], rest[0], rest[1]), fmt.Sprintf("x%d := 0", rest[1]))
		}
		// A case per value of the flags the rule sets.
		for c := range 1 << len(flags) {
			g, ps := append([]string(nil), guard...), append([]string(nil), parts...)
			for f, p := range flags {
				if c&(1<<f) != 0 {
					g = append(g, fmt.Sprintf("#x%d_true = 1", p)) // already set: no part
				} else {
					ps = append(ps, fmt.Sprintf("{from: x%d_false, to: x%d_true}", p, p))
				}
			}
			if len(ps) == 1 {
				// The net's process alone: a transition.
				fmt.Fprintf(&trans, "  - {name: r%d_c%d, from: S, to: S, guard: %q, update: %q}\n", i, c, strings.Join(g, " & "), strings.Join(update, "; "))
				continue
			}
			fmt.Fprintf(&rdv, "  - name: r%d_c%d\n    parts: [%s]\n    guard: %q\n", i, c, strings.Join(ps, ", "), strings.Join(g, " & "))
			if len(update) > 0 {
				fmt.Fprintf(&rdv, "    update: %q\n", strings.Join(update, "; "))
			}
		}
	}
	if trans.Len() > 0 {
		b.WriteString("transitions:\n" + trans.String())
	}
	if rdv.Len() > 0 {
		b.WriteString("rendezvous:\n" + rdv.String())
	}
	b.WriteString("properties:\n")
	for k := range 2 {
		p, q := r.Intn(places), r.Intn(places)
		bad := has(p)
		if q != p {
			bad += " & " + has(q)
		} else if kind[p] != flagPlace {
			bad = fmt.Sprintf("x%d >= 2", p)
		}
		fmt.Fprintf(&b, "  p%d: \"AG !(%s)\"\n", k, bad)
	}
	sys, err := gsst.Parse("flagnet.yaml", []byte(b.String()))
	if err != nil {
		t.Fatalf("the random net does not parse: %v\n%s", err, b.String())
	}
	return sys
}

// TestCoverFlagNetRandom runs the cross-checks of TestCoverRandom on
// the nets of randomFlagNet (seed 41), and checks that the search
// leaves steps out on a good part of them (the test is not vacuous).
func TestCoverFlagNetRandom(t *testing.T) {
	systems := 90
	if testing.Short() {
		systems = 40
	}
	checkCoverRandom(t, 41, systems, 0, 0, coverFlagNet)
}
