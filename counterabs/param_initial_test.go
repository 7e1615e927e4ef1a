package counterabs

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestParamInitialSharedSpread: two groups spread over one state. The
// total counters there do not say how each group starts, so BuildParam
// takes the group-counter model and says why, and BuildParamTotal
// refuses with an input error; the group-counter model's Initial is
// each group's counters summing to its size over its spread.
func TestParamInitialSharedSpread(t *testing.T) {
	sys := spec(`name: two
states: [A, B, C]
groups: {g: 1.., h: 2}
init: {g: [A, B], h: [B, C]}
transitions:
  - {from: A, to: C}
  - {from: B, to: C}
properties:
  p: "AG #A <= n"
`)
	s := z3.New()
	m, err := BuildParam(context.Background(), sys, s)
	if err != nil {
		t.Fatal(err)
	}
	if m.Level != GroupLevel || !strings.Contains(m.Reason, "both start spread over state B") {
		t.Errorf("level %s (%s), want the group-counter model because g and h share B", m.Level, m.Reason)
	}
	if _, err := BuildParamTotal(context.Background(), sys, s); errkind.Of(err) != errkind.Input {
		t.Errorf("BuildParamTotal: %v, want an input error", err)
	}
	// g: #A[g] + #B[g] = |g|, #C[g] = 0; h: #A[h] = 0, #B[h] + #C[h] = 2.
	val := func(ag, bg, cg, ah, bh, ch, size int64) func(presburger.Var) int64 {
		x := map[presburger.Var]int64{0: ag, 1: bg, 2: cg, 3: ah, 4: bh, 5: ch, m.SizeVar(0): size, m.SizeVar(1): 2}
		return func(v presburger.Var) int64 { return x[v] }
	}
	for _, tc := range []struct {
		v    func(presburger.Var) int64
		want bool
	}{
		{val(1, 2, 0, 0, 1, 1, 3), true},
		{val(0, 3, 0, 0, 0, 2, 3), true},
		{val(1, 1, 0, 0, 1, 1, 3), false}, // g has 2 of 3
		{val(1, 2, 0, 1, 0, 1, 3), false}, // h in A
		{val(1, 2, 0, 0, 2, 1, 3), false}, // h has 3
	} {
		if got := presburger.Eval(m.Initial, tc.v); got != tc.want {
			t.Errorf("Initial %s at %v: %v, want %v", m.FormatFormula(m.Initial), []int64{tc.v(0), tc.v(1), tc.v(2), tc.v(3), tc.v(4), tc.v(5)}, got, tc.want)
		}
	}
	for i := range m.NumState() {
		_, fixed := m.InitialValue(i)
		// #C[g] and #A[h] are 0 in every initial state; the others vary.
		if want := i == 2 || i == 3; fixed != want {
			t.Errorf("InitialValue(%s) fixed = %v, want %v", m.VarName(m.StateVar(i)), fixed, want)
		}
	}
}

// TestParamInitialJoinedSpreadRandom: groups that start spread over the
// same states (two groups of one protocol, each starting in V0 or V1)
// get the total-counter model, whose Initial reads them as one group of
// the sum of their sizes (gsst's InitialFormulaJoined). On random
// systems of two or three such groups, and at times a fixed group or one
// spread elsewhere, Initial holds at a vector of totals exactly when
// some initial configuration of the instance has those totals, at every
// size of the ranged groups up to 3 (the configurations listed by gsst's
// Initials, the language's meaning).
func TestParamInitialJoinedSpreadRandom(t *testing.T) {
	r := rand.New(rand.NewSource(29))
	states := []string{"A", "B", "C", "D"}
	checked := 0
	for i := range 60 {
		over := states[:2+r.Intn(2)]
		r.Shuffle(len(over), func(a, b int) { over[a], over[b] = over[b], over[a] })
		var groups, init []string
		joined := 2 + r.Intn(2)
		for g := range joined {
			groups = append(groups, fmt.Sprintf("g%d: %s", g, []string{"1..", "2", "1..2"}[r.Intn(3)]))
			// The same states, at times in another order.
			o := slices.Clone(over)
			if r.Intn(2) == 0 {
				slices.Reverse(o)
			}
			init = append(init, fmt.Sprintf("g%d: [%s]", g, strings.Join(o, ", ")))
		}
		switch r.Intn(3) {
		case 0:
			groups = append(groups, "f: 1..")
			init = append(init, "f: "+states[r.Intn(4)])
		case 1:
			groups = append(groups, "e: 1")
			init = append(init, "e: [D]")
		}
		src := fmt.Sprintf("name: joined%d\nstates: [A, B, C, D]\ngroups: {%s}\ninit: {%s}\ntransitions:\n  - {from: A, to: B}\nproperties:\n  p: \"AG #A <= n\"\n",
			i, strings.Join(groups, ", "), strings.Join(init, ", "))
		sys := spec(src)
		if strings.Contains(src, "e: [D]") && slices.Contains(over, "D") {
			continue // e spreads over D alone: not the same states as the others'
		}
		m, err := BuildParam(context.Background(), sys, z3.New())
		if err != nil {
			t.Fatal(err)
		}
		if m.Level != TotalLevel {
			t.Fatalf("system %d: level %s (%s), want total\n%s", i, m.Level, m.Reason, src)
		}
		sizes := make([]int, len(sys.Groups))
		var each func(g int)
		each = func(g int) {
			if g == len(sizes) {
				checkInitialTotals(t, m, sys, sizes, src)
				checked++
				return
			}
			grp := &sys.Groups[g]
			if !grp.Ranged {
				sizes[g] = grp.Size
				each(g + 1)
				return
			}
			hi := 3
			if b, ok := grp.Bounded(); ok {
				hi = min(hi, b)
			}
			for k := grp.Min(); k <= hi; k++ {
				sizes[g] = k
				each(g + 1)
			}
		}
		each(0)
	}
	if checked < 200 {
		t.Errorf("only %d instances checked", checked)
	}
}

// checkInitialTotals checks m.Initial at the instance of sizes against
// the totals of the instance's initial configurations.
func checkInitialTotals(t *testing.T, m *ParamModel, sys *gsst.System, sizes []int, src string) {
	t.Helper()
	inst, err := sys.InstantiateParams(nil, sizes)
	if err != nil {
		t.Fatal(err)
	}
	confs, err := inst.Initials()
	if err != nil {
		t.Fatal(err)
	}
	want := map[[4]int64]bool{}
	n := 0
	for _, k := range sizes {
		n += k
	}
	for _, c := range confs {
		var x [4]int64
		for g := range c.Counts {
			for s, k := range c.Counts[g] {
				x[s] += int64(k)
			}
		}
		want[x] = true
	}
	for a := range n + 1 {
		for b := range n + 1 - a {
			for c := range n + 1 - a - b {
				x := [4]int64{int64(a), int64(b), int64(c), int64(n - a - b - c)}
				got := presburger.Eval(m.Initial, func(v presburger.Var) int64 {
					for i := range m.NumState() {
						if m.StateVar(i) == v {
							return x[m.Counters[i].State]
						}
					}
					for g := range sys.Groups {
						if m.SizeVar(g) == v {
							return int64(sizes[g])
						}
					}
					if m.NVar() == v {
						return int64(n)
					}
					t.Fatalf("Initial reads variable %s", m.VarName(v))
					return 0
				})
				if got != want[x] {
					t.Fatalf("sizes %v, totals %v: Initial %v, some initial configuration has them: %v\nInitial: %s\n%s", sizes, x, got, want[x], m.FormatFormula(m.Initial), src)
				}
			}
		}
	}
}
