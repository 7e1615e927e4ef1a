package prove_test

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestLiveWitnessesRandom checks the answers that the sample's states
// give the liveness certificate's search (livewitness.go) on the
// random systems of TestProveLivenessRandom: every question they
// answer is satisfiable (asked of Z3, a solver of its own), some are
// answered, and each property gets the same verdict and, when proved,
// the same ranks, helpful constraints, justice conditions and kind of
// certificate as when the solver answers every question. A state that
// failed a question, taken as its witness, would make a satisfiable
// answer of an unsatisfiable question, and the search would take
// another course.
func TestLiveWitnessesRandom(t *testing.T) {
	systems := 40
	if testing.Short() {
		systems = 12
	}
	r := rand.New(rand.NewSource(1))
	ctx := context.Background()
	judge := z3.New()
	answered := 0
	defer prove.OnLiveWitness(func(p presburger.Problem) {
		answered++
		a, err := judge.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if a.Result != presburger.Sat {
			t.Fatalf("a question answered satisfiable by a sampled state is %v", a.Result)
		}
	})()
	for i := range systems {
		sys := testsupport.RandomSystem(r, liveConfig)
		rep, err := prove.Check(ctx, sys, z3.New(), z3.New(), prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		restore := prove.WithoutLiveWitnesses()
		plain, err := prove.Check(ctx, sys, z3.New(), z3.New(), prove.MaxWork(liveWork))
		restore()
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		for k, res := range rep.Results {
			other := plain.Results[k]
			name := sys.Properties[k].Name
			if res.Verdict != other.Verdict {
				t.Fatalf("system %d, %s: %v with the sampled states' answers, %v without (%s)\n%s", i, name, res.Verdict, other.Verdict, res.Reason, testsupport.Describe(sys))
			}
			if res.Live == nil || other.Live == nil {
				if (res.Live == nil) != (other.Live == nil) {
					t.Fatalf("system %d, %s: a certificate only with or only without the sampled states' answers", i, name)
				}
				continue
			}
			a, b := res.Live, other.Live
			if a.Settled != b.Settled || !slices.Equal(a.RankTexts, b.RankTexts) || !slices.Equal(a.Helpful, b.Helpful) || !slices.Equal(a.Justice, b.Justice) {
				t.Fatalf("system %d, %s: the certificate differs with the sampled states' answers: ranks %v helpful %v justice %v settled %v, without: %v %v %v %v\n%s",
					i, name, a.RankTexts, a.Helpful, a.Justice, a.Settled, b.RankTexts, b.Helpful, b.Justice, b.Settled, testsupport.Describe(sys))
			}
		}
	}
	t.Logf("%d systems, %d questions answered by sampled states", systems, answered)
	if answered == 0 {
		t.Fatal("no question was answered by a sampled state")
	}
}
