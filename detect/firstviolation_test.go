package detect

import (
	"context"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// TestFirstViolation certifies random systems with and without
// FirstViolation: the verdict of the system is the same, every step the
// stopped certification answers has the full one's verdict, and a step
// it does not ask is Unknown, said to be not asked, only when the
// system is violated.
func TestFirstViolation(t *testing.T) {
	r := rand.New(rand.NewSource(20261201))
	solver := presburger.BruteForce{Limit: 1 << 18}
	var stopped, violated int
	for i := range 300 {
		sys := testsupport.RandomSystem(r, testsupport.Config{MaxTransitions: 4})
		full, err := Certify(context.Background(), sys, solver)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		for _, workers := range []int{1, 2} {
			first, err := Certify(context.Background(), sys, solver, FirstViolation(), Workers(workers))
			if err != nil {
				t.Fatalf("system %d: %v", i, err)
			}
			if first.Verdict() != full.Verdict() {
				t.Fatalf("system %d, %d workers: verdict %v, want %v\n%s", i, workers, first.Verdict(), full.Verdict(), testsupport.Describe(sys))
			}
			want := full.Results()
			for k, res := range first.Results() {
				if res.Verdict == want[k].Verdict {
					continue
				}
				if res.Verdict != Unknown || !strings.HasPrefix(res.Reason, "not asked") || full.Verdict() != Violated {
					t.Fatalf("system %d, %d workers, %s: %v (%s), want %v\n%s", i, workers, res.Name(sys), res.Verdict, res.Reason, want[k].Verdict, testsupport.Describe(sys))
				}
				stopped++
			}
		}
		if full.Verdict() == Violated {
			violated++
		}
	}
	t.Logf("%d violated systems, %d steps not asked", violated, stopped)
	if violated < 20 || stopped < 20 {
		t.Errorf("sample too small: %d violated systems, %d steps not asked", violated, stopped)
	}
}
