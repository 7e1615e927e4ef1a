package detect

import (
	"context"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
)

// TestCertifyInitialSets certifies random systems with several initial
// configurations (testsupport.InitialSets) and compares the verdict with
// full virtual symmetry decided on the process-level state space
// (testsupport.FullSymmetry) and with the verdict on the same system
// started in each one of its initial configurations alone: the initial
// set changes nothing of certification (docs/certification.md, "Initial
// configurations").
func TestCertifyInitialSets(t *testing.T) {
	solver := completeSolver(t)
	r := rand.New(rand.NewSource(3011))
	ctx := context.Background()
	certified, violated := 0, 0
	for i := range 60 {
		cfg := testsupport.Small(testsupport.InitialSets, testsupport.AllConstructs)
		sys := testsupport.RandomSystem(r, cfg)
		rep, err := Certify(ctx, sys, solver)
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		if rep.Verdict() == Unknown {
			t.Fatalf("system %d: unknown\n%s", i, testsupport.Describe(sys))
		}
		if ref := testsupport.FullSymmetry(sys, extWindow); rep.Certified() != ref.Symmetric {
			t.Fatalf("system %d: Certify says %v, the state space says symmetric=%v\n%s", i, rep.Verdict(), ref.Symmetric, testsupport.Describe(sys))
		}
		ones, err := testsupport.EachInitial(sys)
		if err != nil {
			t.Fatal(err)
		}
		for _, one := range []int{0, len(ones) - 1} {
			alone, err := Certify(ctx, ones[one], solver)
			if err != nil {
				t.Fatal(err)
			}
			if alone.Verdict() != rep.Verdict() {
				t.Fatalf("system %d: %v, but %v from its initial configuration %d alone\n%s", i, rep.Verdict(), alone.Verdict(), one, testsupport.Describe(sys))
			}
		}
		if rep.Certified() {
			certified++
		} else {
			violated++
		}
	}
	if certified < 5 || violated < 5 {
		t.Fatalf("%d certified and %d violated: too few of one", certified, violated)
	}
}
