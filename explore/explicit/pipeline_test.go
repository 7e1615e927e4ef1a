package explicit

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
)

// TestPipelineRandom runs random systems through the real abstraction,
// counterabs.Build with Z3, and checks the engine's run of the model
// against the existential abstraction computed by brute force (which it
// must be, certified or built with Force) and, for certified systems, its
// verdicts against the unreduced system.
func TestPipelineRandom(t *testing.T) {
	r := rand.New(rand.NewSource(4242))
	solver := z3.New()
	// Quotas of certified and uncertified systems (10 each with -short), so
	// that both paths are exercised whatever the mix the generator draws.
	wantCertified, wantForced := 60, 66
	if testing.Short() {
		wantCertified, wantForced = 10, 10
	}
	built, certified, forced := 0, 0, 0
	var st traceStats
	for k := 0; k < 5000 && (certified < wantCertified || forced < wantForced); k++ {
		sys := testsupport.RandomSystem(r, randomConfig)
		sys.Name = fmt.Sprintf("pipe%d", k)
		brute := testsupport.BruteForce(sys)
		cert := brute.Certified()
		if cert && certified >= wantCertified || !cert && forced >= wantForced {
			continue
		}
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
			t.Errorf("%s: Build says certified %v, brute force %v\n%s", sys.Name, am.Exact, cert, testsupport.Describe(sys))
			continue
		}
		rep, err := checkAbstract(context.Background(), am)
		if err != nil {
			t.Fatal(err)
		}
		ex := brute.Graph()
		checkCounts(t, sys.Name, rep, ex, abstractKey)
		checkVerdicts(t, sys.Name, sys, rep, ex, ex, abstractKey, &st)
		if !cert {
			forced++
			continue
		}
		certified++
		sp := testsupport.Unreduced(sys)
		for i, p := range rep.Properties {
			if want := testsupport.Holds(sp.Graph, sys.Properties[i].Formula); p.Holds != want {
				t.Errorf("%s: %s: total model %v, unreduced system %v", sys.Name, p.Name, p.Holds, want)
			}
		}
	}
	t.Logf("%d systems built, %d certified, %d forced; %d verdicts", built, certified, forced, st.Verdicts)
	if certified < wantCertified || forced < wantForced {
		t.Errorf("too few systems built: %d certified, %d forced", certified, forced)
	}
}
