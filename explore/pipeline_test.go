package explore

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger/z3"
)

// TestPipelineRandom runs random systems through the real abstraction,
// counterabs.Build with Z3, and checks the abstract run against the
// brute-force references: for certified systems against the naive
// concrete run, for the others (built with Force, the existential
// abstraction) against the naive run of the brute-force counter model.
func TestPipelineRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("uses Z3")
	}
	g := gen{rand.New(rand.NewSource(4242))}
	solver := z3.New(z3.Timeout(10 * time.Second))
	const systems = 120
	built, certified := 0, 0
	for k := 0; k < systems; k++ {
		sys := g.system(fmt.Sprintf("pipe%d", k))
		brute, cert := bruteModel(sys)
		var opts []counterabs.Option
		if !cert {
			opts = append(opts, counterabs.Force())
		}
		am, err := counterabs.Build(context.Background(), sys, solver, solver, opts...)
		if err != nil {
			// Projections that need divisibility constraints are refused by
			// design; anything else is worth seeing.
			t.Logf("%s: Build: %v", sys.Name, err)
			continue
		}
		built++
		if am.Exact != cert {
			t.Errorf("%s: Build says certified %v, brute force %v\n%s", sys.Name, am.Exact, cert, describe(sys))
			continue
		}
		rep, err := checkAbstract(context.Background(), am)
		if err != nil {
			t.Fatal(err)
		}
		na := naiveAbstract(brute)
		if rep.ReachableStates.Int64() != int64(len(na.label)) || rep.Deadlocks.Int64() != int64(countTrue(na.dead)) {
			t.Errorf("%s: %v states %v deadlocks; brute-force model %d, %d\n%s", sys.Name,
				rep.ReachableStates, rep.Deadlocks, len(na.label), countTrue(na.dead), describe(sys))
		}
		var st traceStats
		checkVerdicts(t, sys.Name, sys, rep, na, abstractKey, &st)
		if !cert {
			continue
		}
		certified++
		group, conf := processes(sys)
		naive := naiveConcrete(sys, group, [][]int{conf})
		for i, p := range rep.Properties {
			if want := satNaive(naive, sys.Properties[i].Formula)[0]; p.Holds != want {
				t.Errorf("%s: %s: abstract %v, concrete %v", sys.Name, p.Name, p.Holds, want)
			}
		}
	}
	t.Logf("%d systems, %d built, %d certified", systems, built, certified)
	if built < systems*3/4 || certified < systems/10 {
		t.Errorf("too few systems built (%d) or certified (%d)", built, certified)
	}
}
