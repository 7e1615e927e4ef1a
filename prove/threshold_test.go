package prove_test

import (
	"context"
	"testing"
	"time"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// strb is reliable broadcast in the style of Srikanth and Toueg, as the
// threshold automaton of the ByMC suite: n-f correct processes, t of
// which the resilience condition allows to be faulty, f faulty ones
// present. nsent counts the correct processes that sent. lower lowers
// the threshold of the echo rule by one (the mutation).
func strb(t *testing.T, lower int) *gsst.System {
	t.Helper()
	b := newBuilder("strb", []string{"V0", "V1", "SE", "AC"}, []string{"correct"}, []string{"n", "t", "f"}, []string{"nsent"})
	b.group(0, "n -f", "V0")
	b.assume("n > 3*t & t >= f & f >= 0")
	echo := "nsent >= t +1 -f"
	if lower > 0 {
		echo = "nsent >= t -f"
	}
	b.trans("V1", "SE", "", "nsent := nsent +1")
	b.trans("V0", "SE", echo, "nsent := nsent +1")
	b.trans("V0", "AC", "nsent >= n -t -f", "nsent := nsent +1")
	b.trans("SE", "AC", "nsent >= n -t -f", "")
	b.safety("unforgeability", "#AC = 0")
	sys, err := b.system()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func TestThresholdHandmade(t *testing.T) {
	s := z3.New()
	for _, tc := range []struct {
		name string
		sys  *gsst.System
		want prove.Verdict
	}{
		{"strb", strb(t, 0), prove.Proved},
		{"strb-mutated", strb(t, 1), prove.Refuted},
		{"cc", cc(t, 0), prove.Proved},
		{"cc-mutated", cc(t, 1), prove.Refuted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := prove.Check(context.Background(), tc.sys, s, s, prove.Timeout(120*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rep.Results {
				t.Logf("%s: %v %s (%s) lemmas %d reason %s sizes %v params %v", r.Property.Name, r.Verdict, r.InvariantText, r.Duration, len(r.Lemmas), r.Reason, r.Sizes, r.Params)
				for _, l := range r.Lemmas {
					t.Logf("  lemma %s: %s", l.Kind, l.Text)
				}
				for _, m := range r.Moves {
					t.Logf("  %s", m)
				}
				if r.Verdict != tc.want {
					t.Errorf("%s: %v, want %v", r.Property.Name, r.Verdict, tc.want)
				}
			}
		})
	}
}

// cc is the condition-based consensus of the ByMC suite (Mostefaoui,
// Mourgaya, Parvedy, Raynal, DSN 2003) with crash faults: each process
// picks its initial value (I -> V0, I -> V1: both initial values, in
// any mix), sends it, moves to phase 1 with the value most sent, and
// accepts by majority. lower lowers the acceptance thresholds by one.
func cc(t *testing.T, lower int) *gsst.System {
	t.Helper()
	b := newBuilder("cc", []string{"I", "V0", "V1", "P0", "P10", "P11", "AC0", "AC1", "CR"}, []string{"proc"}, []string{"n", "t", "f"},
		[]string{"nsnt00", "nsnt01", "nsnt10", "nsnt11", "nsnt0x", "nfaulty"})
	b.group(0, "n", "I")
	b.assume("n > 2*t & t >= f & f >= 0")
	acc := "2*nsnt10 >= n +1"
	acc1 := "2*nsnt11 >= n +1"
	if lower > 0 {
		acc, acc1 = "2*nsnt10 >= n", "2*nsnt11 >= n"
	}
	b.trans("I", "V0", "", "")
	b.trans("I", "V1", "", "")
	b.trans("V0", "P0", "", "nsnt00 := nsnt00 +1; nsnt0x := nsnt0x +1")
	b.trans("V1", "P0", "", "nsnt01 := nsnt01 +1; nsnt0x := nsnt0x +1")
	// Phase 1 is split by the value sent (P10, P11), since a pair of
	// states has one transition.
	b.trans("P0", "P10", "nsnt0x >= n -t & 2*nsnt00 >= n -t +1", "nsnt10 := nsnt10 +1")
	b.trans("P0", "P11", "nsnt0x >= n -t & 2*nsnt01 >= n -t +1", "nsnt11 := nsnt11 +1")
	for _, p := range []string{"P10", "P11"} {
		b.trans(p, "AC0", acc, "")
		b.trans(p, "AC1", acc1, "")
	}
	for _, s := range []string{"P0", "P10", "P11", "AC0", "AC1"} {
		b.trans(s, "CR", "nfaulty < f", "nfaulty := nfaulty +1")
	}
	b.safety("agreement", "#AC0 = 0 | #AC1 = 0")
	sys, err := b.system()
	if err != nil {
		t.Fatal(err)
	}
	return sys
}
