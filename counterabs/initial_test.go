package counterabs

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestInitialFormula compares, on random systems with initial sets, the
// formula of each model's initial states (both levels; the total level
// sums the group counters away by Gale's theorem) with the initial
// configurations testsupport.EachInitial lists from the spec, on every
// valuation of the model's domain: the formula holds exactly at those.
func TestInitialFormula(t *testing.T) {
	r := rand.New(rand.NewSource(41))
	// Each query bounded by work, as analysis bounds them: unbounded, the
	// forced model's may-deadlock query of one of these systems runs for
	// minutes.
	solver := z3.New(z3.Work(50_000_000))
	cfg := testsupport.Config{MaxGroups: 3, MaxSize: 3, MaxProcesses: 6, MaxTransitions: 2,
		Want: testsupport.InitialSets, May: testsupport.SharedVars}
	n := 120
	if testing.Short() {
		n = 40
	}
	// multi counts the total-counter models of several spread groups,
	// where the formula is more than the groups' own.
	points, initial, totals, multi := 0, 0, 0, 0
	for i := 0; i < n; i++ {
		sys := testsupport.RandomSystem(r, cfg)
		if sys.SingleInitial() {
			continue
		}
		spread := 0
		for _, over := range sys.InitOver {
			if over != nil {
				spread++
			}
		}
		each, err := testsupport.EachInitial(sys)
		if err != nil {
			t.Fatal(err)
		}
		group, err := BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		models := []*Model{group}
		// The total-counter model: exact when certified, forced on the
		// paper's systems otherwise; neither is built for the others.
		total, err := Build(context.Background(), sys, solver, solver)
		if err != nil {
			total, err = Build(context.Background(), sys, solver, solver, Force())
		}
		if err == nil {
			models = append(models, total)
			totals++
			if spread > 1 {
				multi++
			}
		}
		for _, m := range models {
			want := map[string]bool{}
			for _, one := range each {
				want[fmt.Sprint(valuation(m, one.InitConfig()))] = true
			}
			f, ok := m.InitialFormula()
			if !ok {
				t.Fatalf("%s: no initial formula with %d spread groups", m.Level, spread)
			}
			for _, x := range domainPoints(m) {
				points++
				got := presburger.Eval(f, func(v presburger.Var) int64 { return int64(x[v]) })
				if got != want[fmt.Sprint(x)] {
					t.Fatalf("%s model, %v: formula says %v, the listed initial configurations %v\n%s\nformula: %s",
						m.Level, x, got, want[fmt.Sprint(x)], testsupport.Describe(sys), m.FormatFormula(f))
				}
				if got {
					initial++
				}
			}
		}
	}
	if multi < 5 {
		t.Errorf("only %d total-counter models of several spread groups", multi)
	}
	t.Logf("%d valuations compared, %d initial; %d total-counter models, %d of several spread groups", points, initial, totals, multi)
}

// valuation returns configuration c on m's variables.
func valuation(m *Model, c gsst.Config) []int {
	var x []int
	if m.Level == TotalLevel {
		x = c.Totals(len(m.System.States))
	} else {
		for _, row := range c.Counts {
			x = append(x, row...)
		}
	}
	return append(x, c.Shared...)
}

// domainPoints lists every valuation of m's variables in its domain:
// the counters of each pool summing to its sum, each shared variable
// over its type.
func domainPoints(m *Model) [][]int {
	out := [][]int{make([]int, m.NumVars())}
	for _, p := range m.Pools {
		var next [][]int
		for _, x := range out {
			var rec func(i, left int)
			rec = func(i, left int) {
				if i == len(p.Counters)-1 {
					y := slices.Clone(x)
					y[p.Counters[i]] = left
					next = append(next, y)
					return
				}
				for k := 0; k <= left; k++ {
					x[p.Counters[i]] = k
					rec(i+1, left-k)
				}
			}
			rec(0, p.Sum)
		}
		out = next
	}
	for j := range m.Shared {
		v := &m.Shared[j]
		hi := v.Hi
		if v.Unbounded {
			hi = v.InitMax() + 2
		}
		var next [][]int
		for _, x := range out {
			for k := v.Lo; k <= hi; k++ {
				y := slices.Clone(x)
				y[m.SharedVar(j)] = k
				next = append(next, y)
			}
		}
		out = next
	}
	return out
}
