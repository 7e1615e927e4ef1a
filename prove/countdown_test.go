package prove_test

import (
	"context"
	"os"
	"testing"

	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestCountedDown: ByMC's cc with every message counter counted down
// (left_x = n - x, testdata/styles/cc-safety-countdown.yaml) has its
// safety proved within a small budget of work, as the counted-up file
// has: the count lemmas read a variable counted down as what it lost
// (lemma.go). Without them agreement was left unknown.
func TestCountedDown(t *testing.T) {
	const file = "../testdata/styles/cc-safety-countdown.yaml"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sys, s := load(t, file, src), z3.New()
	rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(200_000))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Verdict != prove.Proved {
			t.Errorf("%s: %v (%s)", r.Property.Name, r.Verdict, r.Reason)
		}
	}
}
