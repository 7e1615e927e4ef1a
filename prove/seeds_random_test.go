package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestSeedingPhaseRandom cross-checks prove.Check on random systems with
// a seeding phase (seeds.go: one process starts in Boot, whose
// self-loops count x and y up by one, unguarded, before it leaves Boot
// by an exit of any guard and update) against explicit exploration of
// their instances: a property proved must hold at each instance
// explored, one refuted must fail at the instance Check names. The
// seeded variables have small greatest values, so that the instances
// are finite and a seed past one is blocked; the exits and the steps
// after read and write them, and the properties read Boot and the
// seeded values, so that a cut that started the rest system elsewhere
// than the phase's configurations proves one that fails. Half the
// systems have workers too, a group of n whose steps wait for "#Boot =
// 0". Some systems break one condition of the cut (a seed with a
// guard, a seed by 2, a step back into Boot, a worker step that does
// not wait, a second process in Boot), where Check must not cut.
func TestSeedingPhaseRandom(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 60
	}
	s := z3.New()
	ctx := context.Background()
	counts := map[string]int{}
	r := rand.New(rand.NewSource(31))
	for i := range n {
		src, family, breaks := seedSystem(r, breakAt(i, "guarded", "bytwo", "reenter", "nowait", "twoboot"))
		seedCheck(t, ctx, s, fmt.Sprintf("seed-%d", i), src, family, breaks, counts)
	}
	// A second batch keeps the phase by a flag: boot, a shared boolean,
	// environment steps that count up while it is true, one that sets
	// it false (the exit), and process steps that wait for !boot.
	r = rand.New(rand.NewSource(32))
	for i := range n / 2 {
		src, family, breaks := seedFlagSystem(r, breakAt(i, "nowait", "unset", "always"))
		seedCheck(t, ctx, s, fmt.Sprintf("flag-%d", i), src, family, breaks, counts)
	}
	t.Logf("verdicts: %v", counts)
	// Kept by the state Boot (one process, no workers: the cut sees
	// it as written; after a start move from Boot0 or not), by the controller read as a variable (ctl, with
	// workers), and by a flag (seeds by the environment, or by
	// self-loops of processes).
	for _, form := range []string{"state", "move", "ctl", "boot", "bootloop"} {
		for _, v := range []prove.Verdict{prove.Proved, prove.Refuted} {
			if counts[fmt.Sprintf("%s %v", form, v)] == 0 {
				t.Errorf("no property %v through a seeding phase kept by %s", v, form)
			}
		}
	}
	checkBroken(t, "a seeding phase", counts, "guarded", "bytwo", "reenter", "nowait", "twoboot", "unset", "always")
	// Seeds guarded by their own variable, some by 2, a start move
	// with a guard on a variable, the flag's exit read as a start
	// move kept by the flag (startstep.go's cutModeMove), and a start
	// move kept by a second flag before the seeds.
	for _, key := range []string{"own guards cut", "guarded move cut", "move kept by a flag cut", "two flags cut"} {
		if counts[key] == 0 {
			t.Errorf("no answer through a seeding phase with %s", strings.TrimSuffix(key, " cut"))
		}
	}
	if n := counts["proof not joined"] + counts["unjoined"]; n > 0 {
		t.Errorf("%d proofs through the seeding phase not joined into an invariant of the system", n)
	}
}

// seedCheck checks the system src and compares with exploration at
// n = 1, 2 (one instance when it has no workers), counting the verdicts
// by tag and by whether the seeding phase was cut.
func seedCheck(t *testing.T, ctx context.Context, s *z3.Solver, id, src string, family bool, breaks string, counts map[string]int) {
	t.Helper()
	sys, err := gsst.Parse(id+".yaml", []byte(src))
	if err != nil {
		t.Fatalf("system %s: %v\n%s", id, err, src)
	}
	rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
	if err != nil {
		t.Fatalf("system %s: %v\n%s", id, err, src)
	}
	if breaks != "" {
		counts[breaks+" drawn"]++
	}
	for k, res := range rep.Results {
		cut := strings.Contains(res.LevelReason, "seeding phase")
		if strings.Contains(res.LevelReason, "did not join") {
			// A cut whose rest system starts where the phase does not
			// end proves what the system as written may not: the
			// re-check refuses the join.
			counts["unjoined"]++
		}
		if cut && breaks != "" {
			counts[breaks+" cut"]++
		}
		if cut {
			form := "state"
			switch {
			case strings.Contains(res.LevelReason, "start step e0"):
				form = "move"
			case strings.Contains(res.LevelReason, "up while ctl = "):
				form = "ctl"
			case strings.Contains(res.LevelReason, "up while boot = ") && strings.Contains(src, "name: sx, from: A"):
				form = "bootloop"
			case strings.Contains(res.LevelReason, "up while boot = "):
				form = "boot"
			}
			counts[fmt.Sprintf("%s %v", form, res.Verdict)]++
			if strings.Contains(src, "name: sx2,") {
				counts["own guards cut"]++
			}
			if form == "move" && strings.Contains(src, "to: Boot, guard: ") {
				counts["guarded move cut"]++
			}
			if strings.Contains(res.LevelReason, "the one step that can fire while boot = true") {
				counts["move kept by a flag cut"]++
			}
			if strings.Contains(src, "name: fix,") {
				counts["two flags cut"]++
			}
		}
		switch {
		case cut && res.Verdict != prove.Proved && res.Verdict != prove.Refuted:
			t.Errorf("system %s: %s: answered %v through the seeding phase; only proofs and runs are", id, res.Property.Name, res.Verdict)
		case prove.AskedAgain(res):
			t.Errorf("system %s: %s refuted through the seeding phase, and asked again\n%s", id, res.Property.Name, src)
		case cut && res.Verdict == prove.Proved && !strings.Contains(res.LevelReason, "joined into one"):
			counts["proof not joined"]++
		case cut && res.Verdict == prove.Proved:
			checkAsWritten(t, ctx, s, 0, sys, k, res)
		}
	}
	sizes := [][]int{nil}
	if family {
		sizes = [][]int{{1}, {2}}
	}
	for _, params := range sizes {
		holds := explorePhase(t, instanceAt(t, id, sys, params))
		if holds == nil {
			t.Fatalf("system %s at %v: too large to explore\n%s", id, params, src)
		}
		compareExplored(t, id, src, params, family, rep, holds)
	}
}

// checkBroken checks the counts of a random test of a cut: for each
// condition, some system drawn breaks it ("COND drawn") and no answer
// of one came through the cut ("COND cut").
func checkBroken(t *testing.T, cut string, counts map[string]int, conditions ...string) {
	t.Helper()
	for _, c := range conditions {
		if k := counts[c+" cut"]; k > 0 {
			t.Errorf("%s: %d answers through %s of a system that breaks its conditions", c, k, cut)
		}
		if counts[c+" drawn"] == 0 {
			t.Errorf("%s: no system drawn that breaks the cut so", c)
		}
	}
}

// breakAt returns the condition of the cut the i-th system drawn breaks:
// every fourth breaks one, in turn, the others none ("").
func breakAt(i int, conditions ...string) string {
	if i%4 != 3 {
		return ""
	}
	return conditions[i/4%len(conditions)]
}

// seedSystem draws a system with a seeding phase that breaks the
// condition breaks of the cut ("" for none) and the YAML that says it;
// family says whether it has workers (a group of n, which "nowait"
// needs); the third result is breaks.
func seedSystem(r *rand.Rand, breaks string) (src string, family bool, _ string) {
	var b strings.Builder
	pick := func(xs ...string) string { return xs[r.Intn(len(xs))] }
	family = r.Intn(2) == 0 || breaks == "nowait"
	hx, hy, x0 := 1+r.Intn(3), 1+r.Intn(3), r.Intn(2)
	if breaks == "bytwo" {
		// x takes 0 and 2 in the phase, not 1: no interval.
		hx, x0 = 3, 0
	}
	b.WriteString("name: seeded\n")
	if family {
		b.WriteString("params: [n]\nassume: \"n >= 1\"\n")
	}
	fmt.Fprintf(&b, "shared:\n  x: {type: \"0..%d\", init: %d}\n  y: {type: \"0..%d\", init: 0}\n  z: {type: \"0..3\", init: %d}\n", hx, x0, hy, r.Intn(2))
	// A third of the systems without workers start the controller in
	// Boot0, whose one step, to Boot, may write z or count x up once
	// (a start move, startstep.go): the seeding phase is then cut
	// after that one is.
	chain := !family && breaks == "" && r.Intn(3) == 0
	b.WriteString("states: [Boot, A, B, C, W0, W1, Boot0]\ngroups:\n")
	boot := 1
	if breaks == "twoboot" {
		boot = 2
	}
	fmt.Fprintf(&b, "  ctl: %d\n", boot)
	if family {
		b.WriteString("  w: n\n")
	}
	if chain {
		b.WriteString("init:\n  ctl: Boot0\n")
	} else {
		b.WriteString("init:\n  ctl: Boot\n")
	}
	if family {
		b.WriteString("  w: W0\n")
	}
	b.WriteString("transitions:\n")
	if chain {
		fmt.Fprintf(&b, "  - {name: e0, from: Boot0, to: Boot%s%s}\n", pick("", `, guard: "z = 0"`, `, guard: "#Boot0 >= 1 & y <= 0"`), pick("", `, update: "z := 1"`, `, update: "x := x + 1"`, `, update: "z := 2; y := y + 1"`))
	}
	seedx := `{name: sx, from: Boot, to: Boot, update: "x := x + 1"}`
	switch {
	case breaks == "guarded":
		// y counts up too (sy below), so that the guard is no
		// constant.
		seedx = `{name: sx, from: Boot, to: Boot, guard: "y = 0", update: "x := x + 1"}`
	case breaks == "bytwo":
		seedx = `{name: sx, from: Boot, to: Boot, update: "x := x + 2"}`
	case r.Intn(3) == 0:
		seedx = `{name: sx, from: Boot, to: Boot, guard: "#Boot >= 1", update: "x := x + 1"}`
	case r.Intn(2) == 0:
		// Seeds guarded by x itself, some by 2: x's values in the
		// phase may be an interval (cut) or not.
		seedx = pick(`{name: sx, from: Boot, to: Boot, guard: "x <= 1", update: "x := x + 1"}`,
			`{name: sx, from: Boot, to: Boot, guard: "x = 0", update: "x := x + 1"}`) +
			"\n  - " + pick(`{name: sx2, from: Boot, to: Boot, update: "x := x + 2"}`,
			`{name: sx2, from: Boot, to: Boot, guard: "#Boot >= 1 & x >= 1", update: "x := x + 2"}`,
			`{name: sx2, from: Boot, to: Boot, guard: "x = 1", update: "x := x + 1"}`)
	}
	fmt.Fprintf(&b, "  - %s\n", seedx)
	if r.Intn(3) > 0 || breaks == "guarded" {
		b.WriteString("  - {name: sy, from: Boot, to: Boot, update: \"y := y + 1\"}\n")
	}
	guard := func() string {
		return pick("x >= 1", "x = y", "x + y <= 2", "y >= 1 & x <= 1", "z = 0 | x >= 2", "true")
	}
	update := func() string {
		return pick("z := x", "x := x - 1", "y := 0", "z := z + 1", "x := y; y := x", "")
	}
	step := func(name, from, to string) {
		fmt.Fprintf(&b, "  - {name: %s, from: %s, to: %s, guard: %q", name, from, to, guard())
		if u := update(); u != "" {
			fmt.Fprintf(&b, ", update: %q", u)
		}
		b.WriteString("}\n")
	}
	step("e1", "Boot", "A")
	if r.Intn(2) == 0 {
		step("e2", "Boot", "B")
	}
	step("ab", "A", "B")
	step("bc", "B", "C")
	step("aa", "A", "A")
	if r.Intn(2) == 0 {
		step("cc", "C", "C")
	}
	if breaks == "reenter" {
		// An unguarded exit to B and back: B is entered in some run.
		b.WriteString("  - {name: eb, from: Boot, to: B}\n  - {name: bb, from: B, to: Boot}\n")
	}
	if family {
		wait := `"#Boot = 0 & x >= 1"`
		if breaks == "nowait" {
			wait = `"x >= 1"`
		}
		fmt.Fprintf(&b, "  - {name: w01, from: W0, to: W1, guard: %s, update: %q}\n", wait, pick("x := x - 1", "y := y + 1", "z := x"))
	}
	b.WriteString("properties:\n")
	atoms := []string{"x <= 1", "x + y <= 2", "y = 0", "z <= 1", "z <= x", "x >= 1", "#A = 0", "#C = 0", "#Boot = 1"}
	for k := range 4 {
		p, q := atoms[r.Intn(len(atoms))], atoms[r.Intn(len(atoms))]
		fmt.Fprintf(&b, "  p%d: \"AG (%s -> %s)\"\n", k, p, q)
	}
	if family {
		b.WriteString("  pw: \"AG (#W1 >= 1 -> #Boot = 0)\"\n")
	}
	return b.String(), family, breaks
}

// seedFlagSystem draws a system whose seeding phase a flag keeps (see
// TestSeedingPhaseRandom) that breaks the condition breaks of the cut
// ("" for none: "nowait", a process step that does not wait for !boot;
// "unset", a step that sets boot again; "always", a seed enabled after
// the phase too), the YAML that says it, whether its group's size is
// n, and breaks.
func seedFlagSystem(r *rand.Rand, breaks string) (src string, family bool, _ string) {
	var b strings.Builder
	pick := func(xs ...string) string { return xs[r.Intn(len(xs))] }
	family = r.Intn(2) == 0
	b.WriteString("name: flagged\n")
	size := fmt.Sprint(1 + r.Intn(2))
	if family {
		b.WriteString("params: [n]\nassume: \"n >= 1\"\n")
		size = "n"
	}
	fmt.Fprintf(&b, "shared:\n  boot: {type: bool, init: true}\n  x: {type: \"0..%d\", init: %d}\n  y: {type: \"0..%d\", init: 0}\n  z: {type: \"0..3\", init: %d}\n", 1+r.Intn(3), r.Intn(2), 1+r.Intn(3), r.Intn(2))
	// A third of them put x in place first, by an environment step
	// "fix" kept by a second flag seeded, which the seeds and the exit
	// read too (a start move kept by a flag, then the seeding phase in
	// its rest system, where seeded never changes); the steps after
	// wait for !boot only.
	seeded := breaks == "" && r.Intn(3) == 0
	within := "boot"
	if seeded {
		b.WriteString("  seeded: {type: bool, init: false}\n")
		within = "seeded & boot"
	}
	fmt.Fprintf(&b, "states: [A, B, C]\ngroups:\n  p: %s\ninit: A\n", size)
	guard := func() string {
		return pick("x >= 1", "x = y", "x + y <= 2", "y >= 1 & x <= 1", "z = 0 | x >= 2", "true")
	}
	update := func() string {
		return pick("z := x", "x := x - 1", "y := 0", "z := z + 1", "x := y; y := x", "")
	}
	wait := "!boot"
	// The seeds are environment steps, or (at a fixed size, half the
	// time) self-loops of the processes in A, which no step moves
	// while boot holds.
	var seeds strings.Builder
	loops := !family && r.Intn(2) == 0
	seed := func(name, guard, update string) {
		if loops {
			fmt.Fprintf(&seeds, "  - {name: %s, from: A, to: A, guard: %q, update: %q}\n", name, guard, update)
		} else {
			fmt.Fprintf(&b, "  - {name: %s, guard: %q, update: %q}\n", name, guard, update)
		}
	}
	b.WriteString("environment:\n")
	if seeded {
		b.WriteString("  - {name: fix, guard: \"!seeded\", update: \"seeded := true; x := 1\"}\n")
	}
	if breaks == "always" {
		seed("sx", "true", "x := x + 1")
	} else {
		seed("sx", within, "x := x + 1")
	}
	if r.Intn(3) > 0 {
		seed("sy", within+" & boot = true", "y := y + 1")
	}
	exit := "boot := false"
	if u := update(); u != "" {
		exit += "; " + u
	}
	fmt.Fprintf(&b, "  - {name: go, guard: \"%s & (%s)\", update: %q}\n", within, guard(), exit)
	if breaks == "unset" {
		b.WriteString("  - {name: again, guard: \"!boot & #C >= 1\", update: \"boot := true\"}\n")
	}
	b.WriteString("transitions:\n")
	b.WriteString(seeds.String())
	for k, st := range [][2]string{{"A", "B"}, {"B", "C"}, {"A", "A"}, {"C", "C"}} {
		g := wait + " & (" + guard() + ")"
		if breaks == "nowait" && k == 0 {
			g = guard()
		}
		fmt.Fprintf(&b, "  - {name: t%d, from: %s, to: %s, guard: %q", k, st[0], st[1], g)
		if u := update(); u != "" {
			fmt.Fprintf(&b, ", update: %q", u)
		}
		b.WriteString("}\n")
	}
	b.WriteString("properties:\n")
	atoms := []string{"x <= 1", "x + y <= 2", "y = 0", "z <= 1", "z <= x", "x >= 1", "#A = 0", "#C = 0", "boot"}
	for k := range 4 {
		p, q := atoms[r.Intn(len(atoms))], atoms[r.Intn(len(atoms))]
		fmt.Fprintf(&b, "  p%d: \"AG (%s -> %s)\"\n", k, p, q)
	}
	return b.String(), family, breaks
}
