package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	exploration "github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestInitialPhaseRandom cross-checks prove.Check on random systems with
// an initial phase (phase.go: every process starts in I, unguarded steps
// out of I adding constants to shared variables, "#I = 0" on the other
// steps) against explicit exploration of their instances: a property
// proved must hold at each instance explored, one refuted must fail at
// the instance Check names. Some systems break one condition of the cut
// (a step without "#I = 0", a guard on a step out of I, two steps out
// of I into one state), where Check must not cut, and the properties
// read I, the incremented variables and the states the steps reach
// after the phase, so that a cut that skips the phase's own check or
// links the variables wrongly proves one that fails.
func TestInitialPhaseRandom(t *testing.T) {
	systems := 100
	if testing.Short() {
		systems = 60
	}
	r := rand.New(rand.NewSource(20))
	s := z3.New()
	ctx := context.Background()
	counts := map[string]int{}
	for i := range systems {
		src, family := phaseSystem(r)
		sys, err := gsst.Parse(fmt.Sprintf("phase%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		for k, res := range rep.Results {
			cut := strings.Contains(res.LevelReason, "initial phase")
			counts[fmt.Sprintf("%v cut=%v", res.Verdict, cut)]++
			// What the cut answers is carried to the system: a proof by
			// one invariant of the system's model, checked here again
			// on the model as written; a run replayed on the system,
			// never asked again.
			joined := strings.Contains(res.LevelReason, "joined into one")
			switch {
			case cut && res.Verdict != prove.Proved && res.Verdict != prove.Refuted:
				t.Errorf("system %d: %s: answered %v through the phase; only proofs and runs are", i, res.Property.Name, res.Verdict)
			case prove.AskedAgain(res):
				t.Errorf("system %d: %s refuted through the phase, and asked again\n%s", i, res.Property.Name, src)
			case cut && res.Verdict == prove.Proved && !joined:
				counts["proof not joined"]++
			case joined:
				checkAsWritten(t, ctx, s, i, sys, k, res)
			}
		}
		sizes := [][]int{nil}
		if family {
			sizes = [][]int{{1}, {2}, {3}}
		}
		for _, params := range sizes {
			inst := sys
			if family {
				if inst, err = sys.InstantiateParams(params, nil); err != nil {
					t.Fatalf("system %d at n = %v: %v", i, params, err)
				}
			}
			holds := explorePhase(t, inst)
			if holds == nil {
				continue
			}
			for _, res := range rep.Results {
				name := res.Property.Name
				switch {
				case res.Verdict == prove.Proved && !holds[name]:
					t.Errorf("system %d at %v: %s proved, fails by exploration (%s)\n%s", i, params, name, res.LevelReason, src)
				case res.Verdict == prove.Refuted && holds[name] && (!family || fmt.Sprint(res.Params) == fmt.Sprint(params)):
					t.Errorf("system %d at %v: %s refuted there, holds by exploration\n%s", i, params, name, src)
				}
			}
		}
	}
	t.Logf("verdicts: %v", counts)
	if counts[prove.Proved.String()+" cut=true"] == 0 || counts[prove.Refuted.String()+" cut=true"] == 0 {
		t.Errorf("no property proved, or none refuted, through an initial phase")
	}
	if counts["proof not joined"] > 0 {
		t.Errorf("%d proofs through the phase not joined into an invariant of the system", counts["proof not joined"])
	}
}

// explorePhase returns, for each property of the instance inst, whether
// explicit exploration finds it holds; nil when the instance is too
// large.
func explorePhase(t *testing.T, inst *gsst.System) map[string]bool {
	t.Helper()
	gm, err := counterabs.BuildGroup(inst)
	if err != nil {
		t.Fatalf("%v", err)
	}
	r, err := explicit.Engine{}.Check(context.Background(), gm, exploration.MaxStates(20000), exploration.Traces(false))
	if errkind.Of(err) == errkind.Limit {
		return nil
	}
	if err != nil {
		t.Fatalf("%v", err)
	}
	holds := map[string]bool{}
	for _, p := range r.Properties {
		holds[p.Name] = p.Holds
	}
	return holds
}

// phaseSystem draws a system with an initial state I and the YAML that
// says it; family says whether its group's size is the parameter n.
// States A, B and C are the targets of the steps out of I, D and E the
// states after; the other steps go forward (A..E in order), so that
// every run is finite.
func phaseSystem(r *rand.Rand) (src string, family bool) {
	family = r.Intn(2) == 0
	var b strings.Builder
	b.WriteString("name: phase\n")
	size := fmt.Sprint(1 + r.Intn(3))
	if family {
		b.WriteString("params: [n]\nassume: \"n >= 1 & n <= 3\"\n")
		size = "n"
	}
	b.WriteString("shared:\n  x: {type: \"0..\", init: 0}\n  y: {type: \"0..\", init: 0}\n  z: {type: \"0..\", init: 0}\n")
	b.WriteString("states: [I, A, B, C, D, E]\n")
	two := r.Intn(4) == 0
	if two {
		fmt.Fprintf(&b, "groups:\n  p: %s\n  q: 1\n", size)
	} else {
		fmt.Fprintf(&b, "groups:\n  p: %s\n", size)
	}
	b.WriteString("init: I\ntransitions:\n")
	// Which condition of the cut this system breaks, if any.
	breaks := r.Intn(5)
	cx, cy := 1+r.Intn(2), 1+r.Intn(2)
	fmt.Fprintf(&b, "  - {name: ia, from: I, to: A, update: \"x := x + %d\"}\n", cx)
	switch r.Intn(3) {
	case 0:
		fmt.Fprintf(&b, "  - {name: ib, from: I, to: B, update: \"y := y + %d\"}\n", cy)
	case 1:
		fmt.Fprintf(&b, "  - {name: ib, from: I, to: B, update: \"x := x + %d\"}\n", cy)
	default:
		b.WriteString("  - {name: ib, from: I, to: B}\n")
	}
	if r.Intn(2) == 0 {
		guard := ""
		if breaks == 1 {
			guard = ", guard: \"x >= 1\""
		}
		fmt.Fprintf(&b, "  - {name: ic, from: I, to: C%s}\n", guard)
	}
	if breaks == 2 {
		fmt.Fprintf(&b, "  - {name: ia2, from: I, to: A, update: \"y := y + %d\"}\n", cy)
	}
	empties := []string{"#I = 0", "#I < 1", "#I <= 0", "1 > #I"}
	atoms := []string{"x >= 1", "x >= 2", "y >= 1", "z >= 1", "#A >= 1", "#B = 0", "x + y >= 2", "#D >= 1"}
	states := []string{"A", "B", "C", "D", "E"}
	// The first step goes from A to D: a way out of the phase's
	// targets that the properties on D read.
	steps := 3 + r.Intn(3)
	for k := range steps {
		from := r.Intn(4)
		to := from + 1 + r.Intn(4-from)
		if k == 0 {
			from, to = 0, 3
		}
		guard := empties[r.Intn(len(empties))]
		if r.Intn(2) == 0 && k > 0 {
			guard += " & " + atoms[r.Intn(len(atoms))]
		}
		if breaks == 0 && k == 0 {
			guard = "x >= 1"
		}
		update := ""
		switch r.Intn(4) {
		case 0:
			update = ", update: \"z := z + 1\""
		case 1:
			if k > 0 {
				update = ", update: \"x := x + 1\""
			}
		}
		fmt.Fprintf(&b, "  - {name: s%d, from: %s, to: %s, guard: \"%s\"%s}\n", k, states[from], states[to], guard, update)
	}
	total := size
	if two {
		total = size + " + 1"
	}
	props := []string{
		"AG (#I >= 1 -> #A = 0)",
		"AG (#I >= 1 -> #D + #E = 0)",
		"AG (#I >= 1 -> x <= 1)",
		"AG (#I = 0 & x = 0 -> #E = 0)",
		"AG (#I = 0 & x = " + total + " -> #E = 0)",
		"AG (#D >= 1 -> x <= 1)",
		"AG (#D >= 1 -> x <= " + total + ")",
		"AG (#D >= 1 -> x >= 1)",
		"AG (#E >= 1 -> x + y <= 2)",
		"AG (z <= 1)",
		"AG (z = 0)",
		"AG (x <= 2*#A + 2*#B)",
		"AG (#E = 0)",
		"AG (#I = 0 -> x + y >= 1)",
		"z = 0 -> AG (#D >= 1 -> #A + #B >= 1)",
	}
	b.WriteString("properties:\n")
	for k := range 5 {
		prop := props[r.Intn(len(props))]
		// The first property is one that a cut ignoring the broken
		// condition would prove wrongly.
		switch {
		case k == 0 && breaks == 0:
			prop = "AG (#I >= 1 -> #D + #E = 0)"
		case k == 0 && breaks == 2:
			prop = "AG (#D >= 1 -> x >= 1)"
		}
		fmt.Fprintf(&b, "  p%d: %q\n", k, prop)
	}
	return b.String(), family
}

// TestInitialPhaseStrb checks that ByMC's strb as its reader's style
// writes it (an initial state I, the choice counted in chose0) has its
// unforgeability, whose premise reads the end of the phase, proved
// through the cut: unknown after 60 s without it.
func TestInitialPhaseStrb(t *testing.T) {
	src := `name: strb-choice
params: [n, t, f]
assume: "n > 3*t & t >= f & t >= 1"
shared:
  nsnt: {type: "0..", init: 0}
  chose0: {type: "0..", init: 0}
states: [I, V0, V1, SE, AC]
groups:
  correct: n - f
init: I
transitions:
  - {from: I, to: V0, update: "chose0 := chose0 + 1"}
  - {from: I, to: V1}
  - {from: V1, to: SE, guard: "#I = 0", update: "nsnt := nsnt + 1"}
  - {from: V0, to: SE, guard: "#I = 0 & nsnt >= t + 1 - f", update: "nsnt := nsnt + 1"}
  - {from: SE, to: AC, guard: "#I = 0 & nsnt >= n - t - f"}
properties:
  unforg: "AG (#I = 0 & chose0 = n - f -> #AC = 0)"
  wrong: "AG (#I = 0 & chose0 = 0 -> #AC = 0)"
`
	sys, err := gsst.Parse("strb-choice.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(extWork))
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Results[0]; r.Verdict != prove.Proved || !strings.Contains(r.LevelReason, "joined into one of the system") {
		t.Errorf("unforg: %v (%s), want proved through the initial phase, by an invariant of the system", r.Verdict, r.LevelReason)
	}
	// With every correct process choosing 1, t + 1 - f of them suffice:
	// the run after the phase, preceded by the phase, is one of the
	// system, never asked of it again.
	if r := rep.Results[1]; r.Verdict != prove.Refuted || !strings.Contains(r.LevelReason, "replayed on the system") || prove.AskedAgain(r) {
		t.Errorf("wrong: %v (%s), want refuted through the initial phase, the run replayed on the system", r.Verdict, r.LevelReason)
	} else if r.Trace.States[0].Counters[0] == 0 || len(r.Instance.Shared) != len(sys.Shared) {
		t.Errorf("wrong: the run does not start in I, or is not of the system's instance")
	}
	// ByMC's idle self-loops on every state, I's included, change no
	// configuration: the phase is cut all the same.
	idle := strings.Replace(src, "properties:", `  - {from: I, to: I}
  - {from: V0, to: V0}
  - {from: V1, to: V1}
  - {from: SE, to: SE}
  - {from: AC, to: AC}
properties:`, 1)
	if sys, err = gsst.Parse("strb-idle.yaml", []byte(idle)); err != nil {
		t.Fatal(err)
	}
	rep, err = prove.Check(context.Background(), sys.WithProperties(0), s, s, prove.MaxWork(extWork))
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Results[0]; r.Verdict != prove.Proved || !strings.Contains(r.LevelReason, "initial phase") {
		t.Errorf("unforg with idle self-loops: %v (%s), want proved after the initial phase", r.Verdict, r.LevelReason)
	}
}
