package detect

// The reference for certification for all sizes is in internal/testsupport:
// random parametric GSSTs (Config.Ranges, NGuards), the box of their
// instances (Box) and Theorem 6 decided on each instance by brute force
// (BruteForce). This file holds what is particular to detect's tests.

import (
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// boxMax is the greatest size the reference tries for a group whose
// range goes beyond it: the box of instances is every choice of sizes
// with each group's size in its range and at most boxMax.
const boxMax = 4

// paramConfig draws parametric GSSTs: 2-4 states, 1-3 groups, some group
// sizes ranges (fixed, k..k+j or k..), 1-2 transitions with guards over
// total and group counters and n, at most 30000 configurations in the
// box.
var paramConfig = testsupport.Config{MaxTransitions: 2, Ranges: true, NGuards: true, BoxMax: boxMax, MaxConfigs: 30000}

// coveredByBox reports whether every instance of sys lies in the box:
// then the verdict for all sizes must equal the conjunction over the box.
func coveredByBox(sys *gsst.System) bool {
	for g := range sys.Groups {
		if hi, ok := sys.Groups[g].Bounded(); !ok || hi > boxMax {
			return false
		}
	}
	return true
}

// closedInBox decides Theorem 6 for every transition at every instance
// of the box by brute force: closed[k][j] for instance k, transition j.
func closedInBox(insts []*gsst.System) [][]bool {
	out := make([][]bool, len(insts))
	for k, inst := range insts {
		b := testsupport.BruteForce(inst)
		for j := range inst.Transitions {
			out[k] = append(out[k], b.Closed(j))
		}
	}
	return out
}
