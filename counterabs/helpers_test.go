package counterabs

import (
	"fmt"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// Test helpers over the oracles of internal/testsupport: systems are
// parsed from YAML, guards are checked against the brute-force semantics
// over L^n, and testsupport.Projector stands in for Z3's projection.

var (
	bf   = presburger.BruteForce{}
	proj = testsupport.Projector{}
)

// spec parses a test's GSST spec.
func spec(src string) *gsst.System { return testsupport.Parse("test.yaml", src) }

// readersWriters is the three-process R&W of Figure 1(b): one reader,
// two writers; a reader enters C only when no writer is trying.
func readersWriters() *gsst.System { return spec(testsupport.ReadersWritersYAML(1, 2, false)) }

// evalVec evaluates a guard of a total-counter model at counter vector a.
func evalVec(f presburger.Formula, a []int) bool {
	return presburger.Eval(f, func(v presburger.Var) int64 {
		if int(v) < len(a) {
			return int64(a[v])
		}
		panic(fmt.Sprintf("guard uses variable %d, not a total counter", v))
	})
}

// checkGuards checks every g_r of m against the existential abstraction
// computed by brute force, on every total-counter vector, and returns
// the first disagreement.
func checkGuards(m *Model, b *testsupport.Brute) error {
	sys := m.System
	for _, tr := range m.Transitions {
		for i, a := range b.Vectors {
			if got, want := evalVec(tr.Guard, a), b.Some[tr.Local][i]; got != want {
				return fmt.Errorf("%s: g = %s (case %v) is %v at %v, brute force says %v\n%s",
					sys.TransitionName(&sys.Transitions[tr.Local]), presburger.Format(tr.Guard, sys.VarName), tr.Case, got, a, want, testsupport.Describe(sys))
			}
		}
	}
	return nil
}

func cmp(t presburger.Term, op presburger.Op, k int64) presburger.Formula {
	return presburger.Compare(t, op, presburger.ConstTerm(k))
}
