package prove_test

import (
	"context"
	"os"
	"testing"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/internal/testsupport"
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

// TestCountedDownLive: ByMC's cc and cf1s termination and c1cs fast0
// with every message and choice counter counted down (left_x = n - x,
// testdata/styles/*-countdown-live.yaml) are proved within vsym prove's
// default budget of work, as the counted-up files are, and hold on the
// small instances explored: the liveness lemmas read a variable counted
// down as the count it mirrors, what it lost (rank.go: the bound a
// guard keeps, which cc and c1cs need; the flows, which c1cs needs;
// entrycount.go: the entry counts, which cf1s needs). Without them all
// three were left unknown.
func TestCountedDownLive(t *testing.T) {
	for _, file := range []string{"cc-countdown-live.yaml", "c1cs-countdown-live.yaml", "cf1s-countdown-live.yaml"} {
		t.Run(file, func(t *testing.T) {
			path := "../testdata/styles/" + file
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// vsym prove's bounds on each query and each property, the
			// same on every machine: a regression ends unknown.
			sys, s := load(t, path, src), z3.New(z3.Work(analysis.QueryWork))
			rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(analysis.PropertyWork))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rep.Results {
				if r.Verdict != prove.Proved || r.Live == nil {
					t.Errorf("%s: %v (%s)", r.Property.Name, r.Verdict, r.Reason)
				}
			}
			if testing.Short() {
				return
			}
			explored := 0
			// Parameters up to 4: c1cs and cf1s assume n > 3t and t >= 1,
			// which no value up to 3 meets.
			for _, in := range testsupport.Instances(sys, 4, extSizeMax) {
				holds, ok := exploreHolds(t, sys, in, 0)
				if ok && !holds {
					t.Errorf("proved, but exploration finds it failing at %v", in)
				}
				if ok {
					explored++
				}
			}
			if explored == 0 {
				t.Error("no instance explored")
			}
		})
	}
}
