package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestGuardCasesRandom cross-checks the safety models' reading of a
// step whose guard is a disjunction as one step per case (guardcases.go)
// on random systems written twice: once with each step once per guard,
// once with the copies of a step (one from, to and update) merged into
// one step whose guard is the disjunction of theirs. The two are the
// same system, so a verdict of one must not contradict the other's; each
// verdict of the merged one is checked against explicit exploration of
// its instances, and each proof's invariant is checked once more on the
// merged system's model as written (no step split, none left out). A
// split that loses a case proves what fails; one that adds a case
// refutes what holds.
func TestGuardCasesRandom(t *testing.T) {
	systems := 80
	if testing.Short() {
		systems = 40
	}
	s := z3.New()
	ctx := context.Background()
	r := rand.New(rand.NewSource(24))
	counts := map[string]int{}
	for i := range systems {
		split, merged := orSystems(r)
		var reps [2]*prove.Report
		var syss [2]*gsst.System
		for j, src := range []string{split, merged} {
			sys, err := gsst.Parse(fmt.Sprintf("or%d-%d.yaml", i, j), []byte(src))
			if err != nil {
				t.Fatalf("system %d: %v\n%s", i, err, src)
			}
			if reps[j], err = prove.Check(ctx, sys, s, s, prove.MaxWork(extWork)); err != nil {
				t.Fatalf("system %d: %v\n%s", i, err, src)
			}
			syss[j] = sys
		}
		sys := syss[1]
		if casesRead(t, ctx, s, sys) {
			counts["split"]++
		}
		for k, res := range reps[1].Results {
			other := reps[0].Results[k].Verdict
			counts[res.Verdict.String()]++
			decided := func(v prove.Verdict) bool { return v == prove.Proved || v == prove.Refuted }
			if decided(res.Verdict) && decided(other) && res.Verdict != other {
				t.Errorf("system %d: %s %v merged, %v as one step per guard\n%s", i, res.Property.Name, res.Verdict, other, merged)
			}
			if res.Verdict == prove.Proved && res.Invariant != nil {
				checkUnsplit(t, ctx, s, i, sys, k, res)
			}
		}
		for n := 1; n <= 3; n++ {
			inst, err := sys.InstantiateParams([]int{n}, nil)
			if err != nil {
				t.Fatalf("system %d at n = %d: %v", i, n, err)
			}
			holds := explorePhase(t, inst)
			if holds == nil {
				continue
			}
			for _, res := range reps[1].Results {
				name := res.Property.Name
				switch {
				case res.Verdict == prove.Proved && !holds[name]:
					t.Errorf("system %d at n = %d: %s proved, fails by exploration (%s)\n%s", i, n, name, res.LevelReason, merged)
				case res.Verdict == prove.Refuted && holds[name] && fmt.Sprint(res.Params) == fmt.Sprint([]int{n}):
					t.Errorf("system %d at n = %d: %s refuted there, holds by exploration\n%s", i, n, name, merged)
				}
			}
		}
	}
	t.Logf("verdicts: %v", counts)
	// A third at least: the group-counter model folds the cases of a
	// guard that read a state no process enters (it has no counter
	// there), which leaves fewer steps to split than when it had one
	// (38 of 80 systems with this seed, 44 before).
	if counts["split"] < systems/3 || counts[prove.Proved.String()] == 0 || counts[prove.Refuted.String()] == 0 {
		t.Errorf("too few systems with a step split, or no property proved or none refuted: %v", counts)
	}
}

// casesRead reports whether the safety model of sys (group level, as
// the safety questions read it) has a step read as its guard's cases:
// more steps than the model as written.
func casesRead(t *testing.T, ctx context.Context, s presburger.Solver, sys *gsst.System) bool {
	t.Helper()
	m, err := counterabs.BuildParamGroup(sys, counterabs.RunSteps())
	if err != nil {
		t.Fatal(err)
	}
	f, err := prove.Firing(ctx, s, m)
	if err != nil {
		t.Fatal(err)
	}
	return len(f.Transitions) > len(m.Transitions)
}

// checkUnsplit checks that res's invariant, a proof of property k of
// sys, is an inductive invariant of sys's safety model at res's level
// (as checkAsWritten reads it: the steps no run takes left out) with
// every step's cases joined again (joinCases): each step with its
// whole guard.
func checkUnsplit(t *testing.T, ctx context.Context, s presburger.Solver, i int, sys *gsst.System, k int, res prove.Result) {
	t.Helper()
	m := provedModel(t, ctx, s, i, sys, k, res)
	m = joinCases(m)
	premise, phi, _ := counterabs.PremisedSafety(m.Properties[0].Formula)
	ts := m.TransitionSystem().Question(presburger.Negation(phi))
	ts.Init = presburger.Conj(ts.Init, premise)
	if err := presburger.CheckInvariant(ctx, s, ts, res.Invariant); err != nil {
		t.Errorf("system %d, %s: the invariant %s is no certificate for the model as written: %v\n%s",
			i, sys.Properties[k].Name, res.InvariantText, err, testsupport.Describe(sys))
	}
}

// orSystems draws a system with states A..D (every step forward, so
// that every run is finite), one group of n processes (1 <= n <= 3) and
// shared variables x (0..3), y (0..) and b, and returns it written two
// ways: split has each step once per guard drawn for it (one to three,
// over counters and shared variables, some themselves a disjunction
// or a conjunction with one), merged has those copies as one step
// whose guard is the disjunction of theirs.
func orSystems(r *rand.Rand) (split, merged string) {
	head := "name: or\nparams: [n]\nassume: \"n >= 1 & n <= 3\"\n" +
		"shared:\n  x: {type: \"0..3\", init: 0}\n  y: {type: \"0..\", init: 0}\n  b: {type: bool, init: false}\n" +
		"states: [A, B, C, D]\ngroups: {p: n}\ninit: A\ntransitions:\n"
	var sb, mb strings.Builder
	sb.WriteString(head)
	mb.WriteString(head)
	states := []string{"A", "B", "C", "D"}
	atoms := []string{"x >= 1", "x = 0", "x <= 1", "x >= 2", "y >= 1", "y = 0", "b", "!b", "#B >= 1", "#C >= 1", "#A >= 2", "#D = 0", "x != 2"}
	atom := func() string { return atoms[r.Intn(len(atoms))] }
	guard := func() string {
		switch r.Intn(5) {
		case 0:
			return atom()
		case 1:
			return atom() + " & " + atom()
		case 2:
			return "(" + atom() + " | " + atom() + ") & " + atom()
		case 3:
			return atom() + " | " + atom()
		}
		return "true"
	}
	updates := []string{"", "x := 0", "y := y + 1", "b := true", "x := 1; b := true", "x := 3; b := false", "y := x"}
	step := func(b *strings.Builder, name string, from, to int, guard, update string) {
		fmt.Fprintf(b, "  - {name: %s, from: %s, to: %s, guard: %q", name, states[from], states[to], guard)
		if update != "" {
			fmt.Fprintf(b, ", update: %q", update)
		}
		b.WriteString("}\n")
	}
	for k := range 3 + r.Intn(3) {
		from := r.Intn(3)
		to := from + 1 + r.Intn(3-from)
		update := updates[r.Intn(len(updates))]
		var guards []string
		for c := range 1 + r.Intn(3) {
			g := guard()
			guards = append(guards, "("+g+")")
			step(&sb, fmt.Sprintf("t%d_%d", k, c), from, to, g, update)
		}
		step(&mb, fmt.Sprintf("t%d", k), from, to, strings.Join(guards, " | "), update)
	}
	props := "properties:\n" +
		fmt.Sprintf("  p1: \"AG !(#D >= 1 & %s)\"\n", atom()) +
		fmt.Sprintf("  p2: \"AG !(%s & %s)\"\n", atom(), atom()) +
		fmt.Sprintf("  p3: \"AG (x <= %d | #C = 0)\"\n", r.Intn(3)) +
		fmt.Sprintf("  p4: \"AG !(#D >= %d & y >= 1)\"\n", 1+r.Intn(2))
	sb.WriteString(props)
	mb.WriteString(props)
	return sb.String(), mb.String()
}

// joinCases returns m with each run of consecutive transitions of one
// step (the same Steps and Groups: the cases firing reads a step's
// guard as) joined into one transition whose guard is the disjunction
// of theirs.
func joinCases(m *counterabs.ParamModel) *counterabs.ParamModel {
	out := *m
	out.Transitions = nil
	for _, t := range m.Transitions {
		if n := len(out.Transitions); n > 0 {
			last := &out.Transitions[n-1]
			if slices.Equal(last.Steps, t.Steps) && slices.Equal(last.Groups, t.Groups) {
				last.Guard = presburger.Disj(last.Guard, t.Guard)
				continue
			}
		}
		out.Transitions = append(out.Transitions, t)
	}
	return &out
}
