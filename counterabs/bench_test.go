package counterabs

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// BenchmarkBuildGRW measures Build (construction and the certified check
// of every g_r) with Z3 on generalized readers-writers, q=20 and m=10 as
// in Table 4.
func BenchmarkBuildGRW(b *testing.B) {
	s := z3.New(z3.Timeout(5 * time.Minute))
	for _, d := range []int{5, 15, 100} {
		sys := testsupport.GRW(d, 20, 10)
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
	sys := testsupport.GRW(3, 1, 3)
	m, err := Build(context.Background(), sys, bf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkGuards(m, testsupport.BruteForce(sys)); err != nil {
		t.Fatal(err)
	}
	if got := presburger.Format(m.Transitions[1].Guard, sys.VarName); got != "#L2 >= 1 & #L3 = 0" {
		t.Errorf("g = %q", got)
	}
}
