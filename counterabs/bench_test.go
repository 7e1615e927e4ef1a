package counterabs

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vsym/vsym/gsst"
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

// BenchmarkParamInitialManyGroups measures BuildParamGroup's and
// BuildParam's reading of the initial set of k one-process groups, each
// in a state of its own pair, beside a shared variable that starts
// anywhere from 1 up (a Petri net with its 1-safe places as processes
// and an unbounded place as a shared variable, styles14's placeproc):
// the groups' counters are their initial counts at once (9 ms at k =
// 80 on the lead's machine), where a fresh variable for each group and
// state, eliminated one by one, made `vsym prove` of such a net take
// 0.17, 1.37 and 8.8 s of CPU at k = 30, 50 and 80.
func BenchmarkParamInitialManyGroups(b *testing.B) {
	s := z3.New()
	for _, k := range []int{30, 80} {
		var src strings.Builder
		src.WriteString("name: hub\nshared:\n  x: {type: \"0..\", init: \"1..\"}\nstates: [")
		for i := range k {
			fmt.Fprintf(&src, "P%d_0, P%d_1, ", i, i)
		}
		src.WriteString("Z]\ngroups:\n")
		for i := range k {
			fmt.Fprintf(&src, "  g%d: 1\n", i)
		}
		src.WriteString("init:\n")
		for i := range k {
			fmt.Fprintf(&src, "  g%d: P%d_0\n", i, i)
		}
		src.WriteString("transitions:\n")
		for i := range k {
			fmt.Fprintf(&src, "  - {from: P%d_0, to: P%d_1, guard: \"x >= 1\", update: \"x := x - 1\"}\n", i, i)
		}
		src.WriteString("properties:\n  safe: \"AG #Z = 0\"\n")
		sys, err := gsst.Parse("hub.yaml", []byte(src.String()))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			for b.Loop() {
				if _, err := BuildParam(context.Background(), sys, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
