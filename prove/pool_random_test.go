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

// TestPoolPhaseRandom cross-checks prove.Check on random systems with a
// pool phase (pool.go: token processes dealt from a pool into a net's
// places before it runs) against explicit exploration of their
// instances at n = 1, 2, 3: a property proved must hold at each, one
// refuted must fail at the instance Check names. Half the systems keep
// the phase by a controller in Boot (seeds guarded "#Boot = 1", the
// exit Boot -> Live, the net's steps waiting for "#Live = 1"), half by
// a flag open (seeds guarded by open, the exit an environment step that
// clears it, the net's steps waiting for !open), with one or two token
// groups. The seeds may be capped by their own target ("#A < 2"); the
// exit's guard reads the places, and the exit may write a flag the
// net's steps wait for ("live := true") or a stage the properties read,
// and read it; the net's steps move tokens between the places and back
// to and out of the pool, so that a cut that started the rest system
// elsewhere than the phase's ends proves one that fails or refutes one
// that holds. Every system that meets the conditions must have each
// answer through the cut (a proof that did not join, a run that did not
// replay, would be asked as written). Every fourth system breaks one
// condition of the cut (a step of the net that does not wait, a seed
// guarded by another place, the controller entering Boot again, a
// second step out of Boot, a seed that does not wait for the phase),
// where Check must not cut.
func TestPoolPhaseRandom(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 40
	}
	s := z3.New()
	ctx := context.Background()
	counts := map[string]int{}
	r := rand.New(rand.NewSource(41))
	conditions := []string{"nowait", "crossguard", "reenter", "twoexits", "unguarded"}
	for i := range n {
		breaks := breakAt(i, conditions...)
		src, breaks := poolSystem(r, breaks)
		poolCheck(t, ctx, s, fmt.Sprintf("pool-%d", i), src, breaks, counts)
	}
	t.Logf("verdicts: %v", counts)
	for _, form := range []string{"state", "flag"} {
		for _, v := range []prove.Verdict{prove.Proved, prove.Refuted} {
			if counts[fmt.Sprintf("%s %v", form, v)] == 0 {
				t.Errorf("no property %v through a pool phase kept by a %s", v, form)
			}
		}
	}
	for _, key := range []string{"capped cut", "exit writes cut", "exit reads what it writes cut"} {
		if counts[key] == 0 {
			t.Errorf("no answer through a pool phase with %s", strings.TrimSuffix(key, " cut"))
		}
	}
	checkBroken(t, "a pool phase", counts, conditions...)
	if k := counts["not through the cut"]; k > 0 {
		t.Errorf("%d answers of systems with a pool phase not through it", k)
	}
	if k := counts["proof not joined"]; k > 0 {
		t.Errorf("%d proofs through the pool phase not joined into an invariant of the system", k)
	}
}

// poolCheck checks the system src and compares with exploration at n =
// 1, 2, 3, counting the verdicts by the phase's keeper and by whether
// the pool phase was cut.
func poolCheck(t *testing.T, ctx context.Context, s *z3.Solver, id, src, breaks string, counts map[string]int) {
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
		cut := strings.Contains(res.LevelReason, "pool phase")
		if !cut {
			if breaks == "" {
				// A proof that did not join, a run that did not
				// replay: asked as written.
				counts["not through the cut"]++
				t.Logf("system %s: %s %v not through the cut: %s\n%s", id, res.Property.Name, res.Verdict, res.LevelReason, src)
			}
			continue
		}
		if breaks != "" {
			counts[breaks+" cut"]++
		}
		form := "state"
		if strings.Contains(src, "open: {") {
			form = "flag"
		}
		counts[fmt.Sprintf("%s %v", form, res.Verdict)]++
		if strings.Contains(src, "< 2\"") {
			counts["capped cut"]++
		}
		if strings.Contains(src, "live := true") || strings.Contains(src, "stage := 1") {
			counts["exit writes cut"]++
		}
		if strings.Contains(src, "!live & (") || strings.Contains(src, "stage = 0 & (") {
			counts["exit reads what it writes cut"]++
		}
		switch {
		case res.Verdict != prove.Proved && res.Verdict != prove.Refuted:
			t.Errorf("system %s: %s: answered %v through the pool phase; only proofs and runs are", id, res.Property.Name, res.Verdict)
		case prove.AskedAgain(res):
			t.Errorf("system %s: %s refuted through the pool phase, and asked again\n%s", id, res.Property.Name, src)
		case res.Verdict == prove.Proved && !strings.Contains(res.LevelReason, "joined into one"):
			counts["proof not joined"]++
		case res.Verdict == prove.Proved:
			checkAsWritten(t, ctx, s, 0, sys, k, res)
		}
	}
	for n := 1; n <= 3; n++ {
		params := []int{n}
		holds := explorePhase(t, instanceAt(t, id, sys, params))
		if holds == nil {
			t.Fatalf("system %s at %v: too large to explore\n%s", id, params, src)
		}
		compareExplored(t, id, src, params, true, rep, holds)
	}
}

// poolSystem draws a system with a pool phase that breaks the condition
// breaks of the cut ("" for none), and the YAML that says it. The token
// groups have n processes each, starting in Pool; the net's places are
// A, B (the seeds' targets) and C, D.
func poolSystem(r *rand.Rand, breaks string) (src, _ string) {
	var b strings.Builder
	pick := func(xs ...string) string { return xs[r.Intn(len(xs))] }
	flag := r.Intn(2) == 0 && breaks != "reenter" && breaks != "twoexits"
	twoGroups := r.Intn(3) == 0
	b.WriteString("name: pooled\nparams: [n]\nassume: \"n >= 1\"\n")
	// Half the exits also write a shared variable: the flag live the
	// net's steps wait for, or a stage the properties read.
	writes := r.Intn(2) == 0
	inPhase, after, exitUpdate := "#Boot = 1", "#Live = 1", ""
	switch {
	case flag && writes:
		b.WriteString("shared:\n  open: {type: bool, init: true}\n  stage: {type: \"0..2\", init: 0}\n")
		inPhase, after, exitUpdate = "open", "!open", "; stage := 1"
	case flag:
		b.WriteString("shared:\n  open: {type: bool, init: true}\n")
		inPhase, after = "open", "!open"
	case writes:
		b.WriteString("shared:\n  live: {type: bool, init: false}\n")
		after, exitUpdate = "live", "live := true"
	}
	if flag {
		b.WriteString("states: [Pool, A, B, C, D]\ngroups:\n  tok: n\n")
	} else {
		b.WriteString("states: [Boot, Live, Stop, Pool, A, B, C, D]\ngroups:\n  ctl: 1\n  tok: n\n")
	}
	if twoGroups {
		b.WriteString("  more: n\n")
	}
	b.WriteString("init:\n")
	if !flag {
		b.WriteString("  ctl: Boot\n")
	}
	b.WriteString("  tok: Pool\n")
	if twoGroups {
		b.WriteString("  more: Pool\n")
	}
	b.WriteString("transitions:\n")
	// The seeds: into A always, into B half the time; capped or not.
	seed := func(to string) {
		g := inPhase
		switch {
		case breaks == "unguarded" && to == "A":
			g = "true"
		case breaks == "crossguard" && to == "A":
			g += " & #B >= 1"
		case r.Intn(3) == 0:
			g += " & #" + to + " < 2"
		}
		fmt.Fprintf(&b, "  - {name: seed%s, from: Pool, to: %s, guard: %q}\n", to, to, g)
	}
	seed("A")
	if r.Intn(2) == 0 || breaks == "crossguard" {
		seed("B")
	}
	exitGuard := pick("#A >= 1", "#A >= 2", "#A >= 1 & #B >= 1", "#A = 1", "#B <= 1", "true")
	if breaks == "reenter" {
		// An exit that fires, and a step back that fires after it:
		// neither is a step no run takes, which the stages drop.
		exitGuard = "#A >= 1"
	}
	// An exit that writes may read what it writes, at its value in
	// the phase.
	switch {
	case writes && !flag && r.Intn(2) == 0:
		exitGuard = "!live & (" + exitGuard + ")"
	case writes && flag && r.Intn(2) == 0:
		exitGuard = "stage = 0 & (" + exitGuard + ")"
	}
	if !flag {
		if exitUpdate != "" {
			fmt.Fprintf(&b, "  - {name: exit, from: Boot, to: Live, guard: %q, update: %q}\n", exitGuard, exitUpdate)
		} else {
			fmt.Fprintf(&b, "  - {name: exit, from: Boot, to: Live, guard: %q}\n", exitGuard)
		}
		if breaks == "twoexits" {
			b.WriteString("  - {name: stop, from: Boot, to: Stop, guard: \"#A = 0\"}\n")
		}
		if breaks == "reenter" {
			b.WriteString("  - {name: again, from: Live, to: Boot}\n")
		}
	}
	guard := func() string {
		return pick("true", "#A >= 1", "#B >= 1", "#C = 0", "#D <= 1", "#A + #B >= 2")
	}
	for k, st := range [][2]string{{"A", "C"}, {"B", "D"}, {"C", "A"}, {"Pool", "D"}, {"D", "Pool"}, {"A", "B"}} {
		if r.Intn(3) == 0 && (breaks != "nowait" || k > 0) {
			continue
		}
		g := after + " & " + guard()
		if breaks == "nowait" && k == 0 {
			g = guard()
		}
		fmt.Fprintf(&b, "  - {from: %s, to: %s, guard: %q}\n", st[0], st[1], g)
	}
	if r.Intn(2) == 0 {
		fmt.Fprintf(&b, "rendezvous:\n  - {parts: [{from: A, to: C}, {from: Pool, to: B}], guard: %q}\n", after)
	}
	if flag {
		fmt.Fprintf(&b, "environment:\n  - {name: close, guard: \"open & (%s)\", update: \"open := false%s\"}\n", exitGuard, exitUpdate)
	}
	b.WriteString("properties:\n")
	atoms := []string{"#A <= 1", "#A + #B <= 2", "#C = 0", "#D <= 1", "#C + #D <= 2", "#Pool >= 1", "#A >= 1", "#B = 0"}
	if flag && writes {
		atoms = append(atoms, "stage = 0", "stage = 1")
	}
	for k := range 4 {
		p, q := atoms[r.Intn(len(atoms))], atoms[r.Intn(len(atoms))]
		fmt.Fprintf(&b, "  p%d: \"AG (%s | %s)\"\n", k, p, q)
	}
	return b.String(), breaks
}
