package nusmv

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// meetsDirect decides, from the system itself, whether a step of the
// configuration y (group counters) meets fairness constraint c (justice
// conditions first, then weak fairness): local is the local transition
// taken and group the moving process's group, local -1 for a stutter.
func meetsDirect(sys *gsst.System, y [][]int, local, group, c int) bool {
	val := sys.Valuation(y, nil)
	if c < len(sys.Fairness.Justice) {
		return presburger.Eval(sys.Fairness.Justice[c].Formula, val)
	}
	w := sys.Fairness.Weak[c-len(sys.Fairness.Justice)]
	if local < 0 || local == w.Transition && (w.Group < 0 || group == w.Group) {
		return true
	}
	t := &sys.Transitions[w.Transition]
	for g := range sys.Groups {
		if b := t.BlockOf(g); b != nil && (w.Group < 0 || g == w.Group) && y[g][t.From] > 0 && presburger.Eval(b.Guard, val) {
			return false
		}
	}
	return true
}

// checkJustice evaluates every JUSTICE constraint of the emitted model on
// every edge (state, input) of its reachable graph and compares it with
// meetsDirect; step maps an edge from s to t to the configuration of s
// and the local transition and group of the move (local -1: stutter).
func checkJustice(t *testing.T, sys *gsst.System, text string, step func(s, t []value) (y [][]int, local, group int)) int {
	t.Helper()
	sm, err := parseSMV(text)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}
	want := len(sys.Fairness.Justice) + len(sys.Fairness.Weak)
	if len(sm.justice) != want {
		t.Fatalf("%d JUSTICE constraints for %d fairness constraints", len(sm.justice), want)
	}
	if len(sm.invarspecs) != 0 {
		t.Fatalf("an INVARSPEC in a model with fairness: NuSMV would check it ignoring fairness")
	}
	g, err := sm.explore(100_000)
	if err != nil {
		t.Fatal(err)
	}
	edges := 0
	for _, s := range g.states {
		err := sm.edges(s, func(in, next []value) {
			y, local, group := step(s, next)
			for c, j := range sm.justice {
				got, err := sm.env(s, in, nil).boolOf(j)
				if err != nil {
					t.Fatalf("JUSTICE %d: %v", c, err)
				}
				if exp := meetsDirect(sys, y, local, group, c); got != exp {
					t.Fatalf("JUSTICE %d is %v on the step from %s by %s, the system says %v\n%s", c, got, stateKey(s), stateKey(in), exp, text)
				}
			}
			edges++
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return edges
}

// TestJusticeEdges checks the JUSTICE constraints of emitted models edge
// by edge against the fairness constraints' meaning, on random systems:
// the group-counter model and the concrete model. (Fair CTL verdicts are
// checked with the real NuSMV in explore's TestNuSMV.)
func TestJusticeEdges(t *testing.T) {
	r := rand.New(rand.NewSource(77))
	edges := 0
	kinds := map[string]int{}
	cfg := randomConfig(4)
	cfg.Fairness = testsupport.Fairness{Min: 1, Max: 3}
	for i := 0; i < 100; i++ {
		sys := testsupport.RandomSystem(r, cfg)
		kinds["justice"] += len(sys.Fairness.Justice)
		for _, w := range sys.Fairness.Weak {
			kinds[fmt.Sprint("weak per group ", w.Group >= 0)]++
		}
		m, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		red, err := Reduced(m)
		if err != nil {
			t.Fatal(err)
		}
		ints := func(s []value) []int {
			x := make([]int, len(s))
			for i, v := range s {
				x[i] = int(v.i)
			}
			return x
		}
		edges += checkJustice(t, sys, red, func(s, next []value) ([][]int, int, int) {
			x, y := ints(s), ints(next)
			from, to := -1, -1
			for c := range x {
				switch y[c] - x[c] {
				case -1:
					from = c
				case 1:
					to = c
				}
			}
			if from < 0 {
				return m.Groups(x), -1, -1
			}
			for _, tr := range m.Transitions {
				if tr.From == from && tr.To == to {
					return m.Groups(x), tr.Local, tr.Group
				}
			}
			t.Fatalf("step %v -> %v is no transition of the model", x, y)
			return nil, 0, 0
		})
		con, err := Concrete(sys)
		if err != nil {
			t.Fatal(err)
		}
		group, _ := testsupport.Processes(sys)
		sm, err := parseSMV(con)
		if err != nil {
			t.Fatal(err)
		}
		// The process variables range over the local states in order.
		dom := sm.vars[0].dom
		stateOf := func(v value) int {
			for i, d := range dom {
				if d == v {
					return i
				}
			}
			t.Fatalf("value %v is no local state", v)
			return -1
		}
		edges += checkJustice(t, sys, con, func(s, next []value) ([][]int, int, int) {
			y := make([][]int, len(sys.Groups))
			for g := range y {
				y[g] = make([]int, len(sys.States))
			}
			local, grp := -1, -1
			for p := range s {
				y[group[p]][stateOf(s[p])]++
				if s[p] != next[p] {
					for k, tr := range sys.Transitions {
						if tr.From == stateOf(s[p]) && tr.To == stateOf(next[p]) {
							local, grp = k, group[p]
						}
					}
				}
			}
			return y, local, grp
		})
	}
	t.Logf("%d edges checked; fairness constraints %v", edges, kinds)
	if edges < 1000 || kinds["justice"] == 0 || kinds["weak per group true"] == 0 || kinds["weak per group false"] == 0 {
		t.Errorf("too few edges checked, or a kind of fairness constraint left out")
	}
}
