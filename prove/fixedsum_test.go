package prove_test

import (
	"context"
	"testing"

	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestCoverFixedSums: germanish4 with its shared variables as groups of
// one process reads "!(#Exgntd_true = 1)" in its guards; the two
// counters of that group sum to 1, so the backward search reads the
// bound from below, not lossily, and its fixpoint, with that sum, is an
// invariant of the model. crash with a fixed size of ten spread over
// two initial states is read with the constant sum there. Without the
// fixed sums (NoFixedSums) the first one's search ends with no
// invariant: a chain through a step whose caps fail.
func TestCoverFixedSums(t *testing.T) {
	ctx, s := context.Background(), z3.New()
	for _, file := range []string{"germanish4-flagproc.yaml", "crash-fixed10.yaml"} {
		m, ts := firstSafety(t, s, "styles", file)
		a := prove.Cover(ctx, m, ts, fixedSumWork)
		if !a.Applies || a.Invariant == nil {
			t.Fatalf("%s: applies %v, invariant %v; want an invariant", file, a.Applies, a.Invariant != nil)
		}
		if err := presburger.CheckInvariant(ctx, s, ts, a.Invariant); err != nil {
			t.Fatalf("%s: the fixpoint is no invariant of the model: %v", file, err)
		}
	}
	m, ts := firstSafety(t, s, "styles", "germanish4-flagproc.yaml")
	restore := prove.NoFixedSums()
	a := prove.Cover(ctx, m, ts, fixedSumWork)
	restore()
	if a.Invariant != nil || a.Cex != nil {
		t.Errorf("without the fixed sums, invariant %v, run %v; want neither", a.Invariant != nil, a.Cex != nil)
	}
}

// fixedSumWork is the backward search's work in TestCoverFixedSums,
// prove's own.
const fixedSumWork = 200_000_000
