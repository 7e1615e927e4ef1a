package detect

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// randomOneState writes a random system with one local state S: a Petri
// net written with a group per rule and variations of it. Groups of
// fixed sizes 1..3 or ranges, shared counters X (0..2) and Y (open),
// transitions S -> S whose guards (one per group, per block of groups,
// or one for all) read shared values, group counters #S[g], the total
// #S and n, and whose updates move the shared counters.
func randomOneState(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("name: onestate\nstates: [S]\ngroups:\n")
	k := 1 + r.Intn(4)
	for g := range k {
		switch r.Intn(4) {
		case 0:
			fmt.Fprintf(&b, "  g%d: \"%d..%d\"\n", g, 1+r.Intn(2), 2+r.Intn(2))
		case 1:
			fmt.Fprintf(&b, "  g%d: \"%d..\"\n", g, 1+r.Intn(2))
		default:
			fmt.Fprintf(&b, "  g%d: %d\n", g, 1+r.Intn(3))
		}
	}
	b.WriteString("init: S\nshared:\n  X: {type: \"0..2\", init: 0}\n  Y: {type: \"0..\", init: \"1..\"}\ntransitions:\n")
	atom := func() string {
		g := r.Intn(k)
		switch r.Intn(6) {
		case 0:
			return fmt.Sprintf("#S[g%d] >= %d", g, r.Intn(3))
		case 1:
			return fmt.Sprintf("#S[g%d] = %d", g, r.Intn(3))
		case 2:
			return fmt.Sprintf("#S >= %d", r.Intn(5))
		case 3:
			return fmt.Sprintf("n <= %d", 1+r.Intn(6))
		case 4:
			return fmt.Sprintf("X >= %d", r.Intn(3))
		}
		return fmt.Sprintf("Y >= %d", r.Intn(3))
	}
	guard := func() string {
		a := atom()
		if r.Intn(2) == 0 {
			a += [2]string{" & ", " | "}[r.Intn(2)] + atom()
		}
		return a
	}
	updates := []string{"", "X := X + 1", "X := X - 1; Y := Y + 1", "Y := Y - 1", "Y := Y + 1; X := 0"}
	for i := range 1 + r.Intn(3) {
		fmt.Fprintf(&b, "  - {name: r%d, from: S, to: S", i)
		switch r.Intn(3) {
		case 0:
			fmt.Fprintf(&b, ", guard: {g%d: %q}", r.Intn(k), guard())
		case 1:
			if k > 1 {
				fmt.Fprintf(&b, ", guard: {g0: %q, g%d: %q}", guard(), 1+r.Intn(k-1), guard())
			} else {
				fmt.Fprintf(&b, ", guard: %q", guard())
			}
		default:
			fmt.Fprintf(&b, ", guard: %q", guard())
		}
		if u := updates[r.Intn(len(updates))]; u != "" {
			fmt.Fprintf(&b, ", update: %q", u)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// TestPinnedCrossCheck: on random systems with one local state, every
// query writes the group counters as the group sizes (query.pinned) and
// reads no group counter, and Certify's verdicts are those of the
// queries with the group counters as variables (the form every other
// system gets, itself cross-checked against brute force): certified or
// symmetric, as they must be with one local state.
func TestPinnedCrossCheck(t *testing.T) {
	systems := 300
	if testing.Short() {
		systems = 120
	}
	solver := completeSolver(t)
	r := rand.New(rand.NewSource(20261129))
	ctx := context.Background()
	counts := map[Verdict]int{}
	for i := 0; i < systems; i++ {
		src := randomOneState(r)
		sys, err := gsst.Parse("onestate.yaml", []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		all := members(sys)
		for item := range len(sys.Transitions) {
			q := newQuery(sys, all, item, map[[2]int]bool{}, true)
			if !q.pinned {
				t.Fatalf("system %d item %d: query not pinned\n%s", i, item, src)
			}
			for _, v := range presburger.FreeVars(q.formula([2]int{0, len(q.own)})) {
				if v < q.totalVar(0) {
					t.Errorf("system %d item %d: the query reads group counter %d\n%s", i, item, v, src)
				}
			}
		}
		pinned, err := Certify(ctx, sys, solver, Workers(1))
		if err != nil {
			t.Fatalf("system %d pinned: %v\n%s", i, err, src)
		}
		pinCounters = false
		free, err := Certify(ctx, sys, solver, Workers(1))
		pinCounters = true
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		for j, res := range pinned.Transitions {
			counts[res.Verdict]++
			// One local state: a configuration is the group sizes, so
			// two of one instance with equal totals are the same and
			// every transition is certified (or symmetric).
			if want := free.Transitions[j].Verdict; res.Verdict != want || !res.Verdict.OK() {
				t.Errorf("system %d %s: pinned %v (%s), counters as variables %v (%s)\n%s", i, res.Name(sys),
					res.Verdict, res.Reason, want, free.Transitions[j].Reason, src)
			}
		}
	}
	t.Logf("%d systems: %v", systems, counts)
	if counts[Certified] < systems/2 {
		t.Errorf("too few queries in the sample: %v", counts)
	}
}

// TestShiftEffects: two effects that shift every total and shared
// variable by constants (member.shift) can be equal exactly when they
// are the same effect, which newQuery reads off their numbers instead of
// asking canEqual: compared here with canEqual on every pair of members
// of random systems, one-state ones and others with updates.
func TestShiftEffects(t *testing.T) {
	r := rand.New(rand.NewSource(29))
	var pairs, equal int
	for i := range 200 {
		var sys *gsst.System
		if i%2 == 0 {
			var err error
			if sys, err = gsst.Parse("onestate.yaml", []byte(randomOneState(r))); err != nil {
				t.Fatal(err)
			}
		} else {
			sys = testsupport.RandomSystem(r, testsupport.Small(0, testsupport.AllConstructs))
		}
		all := members(sys)
		q := &query{sys: sys}
		for _, nb := range all {
			for _, mb := range all {
				if !nb.shift || !mb.shift {
					continue
				}
				pairs++
				want := canEqual(nb.z, nb.w, renameTerms(mb.z, q.sideApart), renameTerms(mb.w, q.sideApart))
				if got := nb.effect == mb.effect; got != want {
					t.Fatalf("system %d: effects %v %v and %v %v: same number %v, canEqual %v", i, nb.z, nb.w, mb.z, mb.w, got, want)
				}
				if want && nb.item != mb.item {
					equal++
				}
			}
		}
	}
	t.Logf("%d pairs of shift effects, %d equal across items", pairs, equal)
	if pairs < 500 || equal == 0 {
		t.Errorf("sample too small: %d pairs, %d equal across items", pairs, equal)
	}
}
