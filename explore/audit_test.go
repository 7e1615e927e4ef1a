package explore_test

import (
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/specs"
)

// TestBundledAudits checks the bundled audit specs against the answers
// worked out by hand in their comments, under their fairness and, where
// the comment says so, without it: the oracle's fair CTL on the
// unreduced system must give the hand's answer, and every engine on the
// group-counter model must give the oracle's, with every trace replayed.
func TestBundledAudits(t *testing.T) {
	for _, c := range []struct {
		spec              string
		fair, withoutFair map[string]bool
	}{
		{"grw-audit",
			map[string]bool{"mutex": true, "g1-gets-in": true, "g3-gets-in": false, "g3-can-get-in": true},
			map[string]bool{"mutex": true, "g1-gets-in": true, "g3-gets-in": false, "g3-can-get-in": true}},
		{"asr-audit",
			map[string]bool{"all_used": true, "mutex1": true, "mutex2": true, "owner1-gets-in": true, "guest1-gets-in": false},
			map[string]bool{"all_used": true, "mutex1": true, "mutex2": true, "owner1-gets-in": false, "guest1-gets-in": false}},
	} {
		t.Run(c.spec, func(t *testing.T) {
			src, err := specs.Read(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			for _, fair := range []bool{true, false} {
				sys, err := gsst.Parse(c.spec+".yaml", src)
				if err != nil {
					t.Fatal(err)
				}
				want := c.fair
				if !fair {
					sys.Fairness = gsst.Fairness{}
					want = c.withoutFair
				} else if sys.Fairness.Empty() {
					t.Fatal("the audit spec has no fairness section")
				}
				o := testsupport.NewOracle(sys)
				if len(sys.Properties) != len(want) {
					t.Fatalf("%d properties, %d answers worked out", len(sys.Properties), len(want))
				}
				for _, p := range sys.Properties {
					if h, ok := want[p.Name]; !ok || o.Holds(p.Formula) != h {
						t.Errorf("fairness %v: %s: oracle says %v, worked out by hand %v (known: %v)", fair, p.Name, o.Holds(p.Formula), h, ok)
					}
				}
				m, err := counterabs.BuildGroup(sys)
				if err != nil {
					t.Fatal(err)
				}
				st := enginetest.FairStats{Segments: map[explore.SegmentKind]int{}}
				for i, eng := range engines() {
					enginetest.CheckAgainstOracle(t, eng, engineOptions[i], sys, m, o, &st)
				}
				if st.Fails == 0 || st.Lassos == 0 {
					t.Errorf("fairness %v: %d failures, %d lassos: the audit shows no starvation", fair, st.Fails, st.Lassos)
				}
			}
		})
	}
}
