package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestCoverFuseRandom cross-checks the fusion of transient states
// (coverfuse.go) on random Petri nets written as processes that fire
// the rules from a hub (randomHub), with near misses, by the oracles of
// checkCoverRandom (exploration of every instance up to extSizeMax
// processes, the run replayed and the fixpoint's complement checked on
// the model, Spacer) and the search without the fusion, which must
// answer alike. A fused variable whose return a run does not take, or
// a fixpoint not read through the fusion, fails it under -short
// (measured, seed 12, 200 systems: 400 properties, both models, every
// search fusing some variable, 166 refuted and 234 proved, the search
// without fusion and Spacer, then asked about all, agreeing on all;
// -short, 60 systems without
// Spacer, and TestCoverFuseBroken: 1.7 CPU-s together).
func TestCoverFuseRandom(t *testing.T) {
	systems := 200
	if testing.Short() {
		systems = 60
	}
	checkCoverRandom(t, 12, systems, 0, 0, coverHub)
}

// TestCoverFusesHub: the search on testdata/mist/pncsacover.yaml, a
// Petri net written as one process with a hub, fuses the 36 rule states
// (35 of them first merged into the other as twins, covertwins.go: each
// returns to the hub unguarded) and finds a run (70 steps) that
// replays on the model, in a small part of the comparisons of the
// search without fusion and merge (measured: 98,658 against 134
// million, 81 steps; that search, 5 CPU-s, is skipped under -short).
func TestCoverFusesHub(t *testing.T) {
	checkCoverHub(t, "mist", "pncsacover.yaml", func(a prove.CoverAnswer) bool { return a.Fused > 0 && a.Fused+a.Twins == 36 },
		"the 36 rule states fused or merged, some fused", prove.WithoutFusion, prove.WithoutTwins)
}

// checkCoverHub runs the search on the first safety property of
// testdata/dir/file, a hub translation refuted: want says what its
// answer must read (wanted), and the run must replay on the model;
// then, but under -short, the search with offs turned off must fuse
// nothing and take more than ten times the comparisons.
func checkCoverHub(t *testing.T, dir, file string, want func(prove.CoverAnswer) bool, wanted string, offs ...func() (restore func())) {
	ctx, s := context.Background(), z3.New()
	m, ts := firstSafety(t, s, dir, file)
	const work = 200_000_000
	a := prove.Cover(ctx, m, ts, work)
	if !want(a) || a.Cex == nil {
		t.Fatalf("%d variables fused, %d merged, a run: %v; want %s, and a run", a.Fused, a.Twins, a.Cex != nil, wanted)
	}
	if err := presburger.Replay(ctx, s, ts, *a.Cex); err != nil {
		t.Fatalf("the run does not replay: %v", err)
	}
	t.Logf("%d fused, %d merged: %d comparisons, a run of %d steps", a.Fused, a.Twins, a.Work, len(a.Cex.Steps))
	if testing.Short() {
		return
	}
	for _, off := range offs {
		defer off()()
	}
	u := prove.Cover(ctx, m, ts, work)
	t.Logf("without: %d comparisons, a run of %d steps", u.Work, len(u.Cex.Steps))
	if u.Fused != 0 || u.Cex == nil || 10*a.Work > u.Work {
		t.Errorf("without: %d fused, a run %v, %d comparisons; want none fused, a run, and more than ten times %d comparisons", u.Fused, u.Cex != nil, u.Work, a.Work)
	}
}

// TestCoverFuseBroken: the cross-check of TestCoverFuseRandom catches a
// fusion of a state that a guard reads (seed 13, 40 systems whose rules
// may ask for a process in a rule's state, any number of processes: 12
// errors caught under -short).
func TestCoverFuseBroken(t *testing.T) {
	checkCoverBroken(t, "the fusion", prove.BreakFusion, &hubMiss, 0, 13, coverHub)
}

// checkCoverBroken runs the cross-checks of checkCoverRandom on 40
// systems drawn with seed and variant v, with a reading of the search
// broken (brk) and every system a near miss of kind miss (*kinds, set
// back to -1 after): some error must be caught.
func checkCoverBroken(t *testing.T, what string, brk func() (restore func()), kinds *int, miss int, seed int64, v coverVariant) {
	restore := brk()
	defer restore()
	*kinds = miss
	defer func() { *kinds = -1 }()
	caught := 0
	checkCoverRandomWith(t, seed, 40, 0, testsupport.SharedVars|testsupport.Rendezvous, v,
		func(string, ...any) { caught++ })
	t.Logf("%d errors caught", caught)
	if caught == 0 {
		t.Errorf("nothing caught with %s broken", what)
	}
}

// hubMiss, when not -1, is the kind of near miss of every system
// randomHub draws, each with any number of processes from 1
// (TestCoverFuseBroken).
var hubMiss = -1

// randomHub draws a Petri net of 2 to 4 places (unbounded shared
// integers starting at 0 to 2) and 2 to 5 rules, written as a group
// net of 1, 1..2 or 1.. processes that fire the rules from a hub S, as
// testdata/mist does: rule i is S -> ri with its guard (at least so
// many tokens in a place or two) and update (those taken, one or two
// places given some), and ri returns unguarded, with no update, to S
// or, one time in five, to another rule's state (a transient state
// returning to a transient state). The property asks that no state
// have so many tokens in one or two places, and, now and then, a
// process in S. One time in three, besides, a place is a transit place
// (above). Each system is one time in two a near miss of one of
// these kinds: a rule's guard asks for a process in some rj; the
// property does; a return is guarded or updates a place; a rule's
// guard asks for two processes in S (which may be fused: a guard reads
// the target upward).
func randomHub(t *testing.T, r *rand.Rand) *gsst.System {
	return parseHub(t, randomHubText(r))
}

// parseHub parses a random hub's text.
func parseHub(t *testing.T, text string) *gsst.System {
	sys, err := gsst.Parse("hub.yaml", []byte(text))
	if err != nil {
		t.Fatalf("the random hub: %v\n%s", err, text)
	}
	return sys
}

// randomHubText is the text of randomHub's system.
func randomHubText(r *rand.Rand) string {
	places, rules := 2+r.Intn(3), 2+r.Intn(4)
	// One time in three the last place is a transit place: no rule
	// reads it, an environment step moves its tokens to x0 one by one
	// (a shared variable returning to another), and the rules may move
	// a token of x0 there with no guard on x0 (the domain's bound is
	// the guard).
	transit := r.Intn(3) == 0
	read := places // the places guards read and rules take from
	if transit {
		places = max(places, 3)
		read = places - 1
	}
	var b strings.Builder
	b.WriteString("name: hub\nstates: [S")
	for i := range rules {
		fmt.Fprintf(&b, ", r%d", i)
	}
	size := []string{"1", "1..2", "1.."}[r.Intn(3)]
	if hubMiss >= 0 {
		size = "1.."
	}
	fmt.Fprintf(&b, "]\ngroups:\n  net: %s\ninit:\n  net: S\nshared:\n", size)
	for p := range places {
		init := r.Intn(3)
		if transit && p == places-1 && r.Intn(4) > 0 {
			init = 0
		}
		fmt.Fprintf(&b, "  x%d: {type: \"0..\", init: %d}\n", p, init)
	}
	miss := -1
	if r.Intn(2) == 0 {
		miss = r.Intn(5)
	}
	if hubMiss >= 0 {
		miss = hubMiss
	}
	missRule := r.Intn(rules)
	b.WriteString("transitions:\n")
	for i := range rules {
		delta := make([]int, places)
		var guard []string
		for range 1 + r.Intn(2) {
			p, c := r.Intn(read), 1+r.Intn(2)
			guard = append(guard, fmt.Sprintf("x%d >= %d", p, c))
			if r.Intn(4) > 0 {
				delta[p] -= c
			}
		}
		for range 1 + r.Intn(2) {
			delta[r.Intn(places)] += 1 + r.Intn(2)
		}
		if transit && r.Intn(2) == 0 {
			// A token of x0 through the transit place, taken with no
			// guard on x0 (the counter model adds x0 >= 1).
			delta[0]--
			delta[places-1]++
		}
		var update []string
		for p, d := range delta {
			if d != 0 {
				update = append(update, fmt.Sprintf("x%d := x%d + %d", p, p, d))
			}
		}
		if i == missRule {
			switch miss {
			case 0:
				guard = append(guard, fmt.Sprintf("#r%d >= 1", r.Intn(rules)))
			case 4:
				guard = append(guard, "#S >= 2")
			}
		}
		fmt.Fprintf(&b, "  - {from: S, to: r%d, guard: %q", i, strings.Join(guard, " & "))
		if len(update) > 0 {
			fmt.Fprintf(&b, ", update: %q", strings.Join(update, "; "))
		}
		b.WriteString("}\n")
		to := "S"
		if j := r.Intn(rules); r.Intn(5) == 0 && j != i {
			to = fmt.Sprintf("r%d", j)
		}
		fmt.Fprintf(&b, "  - {from: r%d, to: %s", i, to)
		if i == missRule {
			switch miss {
			case 2:
				fmt.Fprintf(&b, ", guard: \"x%d >= 1\"", r.Intn(places))
			case 3:
				fmt.Fprintf(&b, ", update: \"x%d := x%d + 1\"", i%places, i%places)
			}
		}
		b.WriteString("}\n")
	}
	if transit {
		fmt.Fprintf(&b, "environment:\n  - {guard: \"x%d >= 1\", update: \"x%d := x%d - 1; x0 := x0 + 1\"}\n", places-1, places-1, places-1)
	}
	var bad []string
	for range 1 + r.Intn(2) {
		bad = append(bad, fmt.Sprintf("x%d >= %d", r.Intn(places), 1+r.Intn(3)))
	}
	if r.Intn(4) == 0 {
		bad = append(bad, "#S >= 1")
	}
	if miss == 1 {
		bad = append(bad, fmt.Sprintf("#r%d >= 1", r.Intn(rules)))
	}
	fmt.Fprintf(&b, "properties:\n  target: \"AG !(%s)\"\n", strings.Join(bad, " & "))
	return b.String()
}
