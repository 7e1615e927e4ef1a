package gsst

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// bigSpec generates a system with m states in a ring, each transition
// guarded per group, and a property per state.
func bigSpec(m, groups int) []byte {
	var b strings.Builder
	b.WriteString("name: ring\nstates: [")
	for s := 0; s < m; s++ {
		if s > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "S%d", s)
	}
	b.WriteString("]\ngroups:\n")
	for g := 0; g < groups; g++ {
		fmt.Fprintf(&b, "  g%d: %d\n", g, g+1)
	}
	b.WriteString("init: S0\ntransitions:\n")
	for s := 0; s < m; s++ {
		fmt.Fprintf(&b, "  - from: S%d\n    to: S%d\n    guard:\n", s, (s+1)%m)
		for g := 0; g < groups; g++ {
			fmt.Fprintf(&b, "      g%d: \"#S%d[g%d] <= %d & (#S%d < n - 1 | 2*#S%d + #S0 >= 3)\"\n", g, (s+1)%m, g, g, s, s)
		}
	}
	b.WriteString("properties:\n")
	for s := 0; s < m; s++ {
		fmt.Fprintf(&b, "  p%d: \"AG (#S%d >= 1 -> AF #S%d = 0)\"\n", s, s, s)
	}
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	rw, err := os.ReadFile("../specs/readers-writers.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		src  []byte
	}{
		{"readers-writers", rw},
		{"ring-200x5", bigSpec(200, 5)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.src)))
			var sys *System
			for b.Loop() {
				var err error
				if sys, err = Parse("b.yaml", bc.src); err != nil {
					b.Fatal(err)
				}
			}
			guards := 0
			for _, t := range sys.Transitions {
				guards += len(t.Blocks)
			}
			b.ReportMetric(float64(guards+len(sys.Properties))*float64(b.N)/b.Elapsed().Seconds(), "exprs/s")
		})
	}
}
