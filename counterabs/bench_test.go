package counterabs

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// grw builds the generalized readers-writers of section 6: d groups of q
// processes, local states L1..Lm with Lm critical; L_i -> L_{i+1} and
// Lm -> L1 are free, and a process of group k enters Lm only when Lm is
// empty and no process of a higher-priority group (j < k) waits in
// L_{m-1}.
func grw(d, q, m int) *gsst.System {
	sys := &gsst.System{Name: fmt.Sprintf("grw-%d-%d-%d", d, q, m)}
	for i := 1; i <= m; i++ {
		sys.States = append(sys.States, fmt.Sprintf("L%d", i))
	}
	all := make([]int, d)
	for g := range d {
		all[g] = g
		sys.Groups = append(sys.Groups, gsst.Group{Name: fmt.Sprintf("p%d", g+1), Size: q})
		row := make([]int, m)
		row[0] = q
		sys.Init = append(sys.Init, row)
	}
	free := func(u, v int) gsst.Transition {
		return gsst.Transition{From: u, To: v, Blocks: []gsst.Block{{Groups: all, Guard: presburger.True}}}
	}
	for i := 0; i+2 < m; i++ {
		sys.Transitions = append(sys.Transitions, free(i, i+1))
	}
	enter := gsst.Transition{From: m - 2, To: m - 1}
	for k := range d {
		parts := []presburger.Formula{cmp(presburger.VarTerm(sys.TotalVar(m-1)), presburger.Eq, 0)}
		for j := range k {
			parts = append(parts, cmp(presburger.VarTerm(sys.GroupVar(m-2, j)), presburger.Eq, 0))
		}
		enter.Blocks = append(enter.Blocks, gsst.Block{Groups: []int{k}, Guard: presburger.Conj(parts...)})
	}
	sys.Transitions = append(sys.Transitions, enter, free(m-1, 0))
	return sys
}

// BenchmarkBuildGRW measures Build (construction and the certified check
// of every g_r) with Z3 on generalized readers-writers, q=20 and m=10 as
// in Table 4.
func BenchmarkBuildGRW(b *testing.B) {
	s := z3.New(z3.Timeout(5 * time.Minute))
	for _, d := range []int{5, 15, 100} {
		sys := grw(d, 20, 10)
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			for b.Loop() {
				m, err := Build(context.Background(), sys, s, s)
				if err != nil {
					b.Fatal(err)
				}
				if !m.Exact || m.Transitions[len(m.Transitions)-2].Case != CaseC {
					b.Fatal("unexpected model")
				}
			}
			b.ReportMetric(float64(len(sys.Groups)*len(sys.States)), "groupcounters")
		})
	}
}

// TestGRW checks every guard of a small GRW by brute force, and the text
// of the guard of its critical transition.
func TestGRW(t *testing.T) {
	sys := grw(3, 1, 3)
	m, err := Build(context.Background(), sys, bf, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := explore(sys)
	for i, tr := range m.Transitions {
		for _, a := range c.vectors {
			if evalVec(tr.Guard, a) != c.some[i][vecKey(a)] {
				t.Fatalf("%s wrong at %v", sys.TransitionName(&sys.Transitions[tr.Local]), a)
			}
		}
	}
	if got := presburger.Format(m.Transitions[1].Guard, sys.VarName); got != "#L2 >= 1 & #L3 = 0" {
		t.Errorf("g = %q", got)
	}
}
