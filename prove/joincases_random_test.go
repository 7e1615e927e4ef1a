package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestJoinCasesRandom cross-checks prove.Check on random systems written
// in cases (testsupport.RandomSplit: transitions as halves of one
// effect, guards by cases) against explicit exploration of every
// instance in the box: a property proved holds in every state reached
// (for the liveness property, on every fair run), one refuted fails at
// its instance, whose run replays there (checkReportByExploration); and
// against the answers with the joining off. The report's certification
// must be the system as written's. It counts the answers of the joined
// system carried to the system as written, proofs and replayed runs,
// which a carrying that never succeeds would leave at 0.
func TestJoinCasesRandom(t *testing.T) {
	systems := 40
	if testing.Short() {
		systems = 14
	}
	r := rand.New(rand.NewSource(2802))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	confirmed, joinedProofs, replayed, joinedLive, certified := 0, 0, 0, 0, 0
	groups := []string{"{p: 1.., q: 1}", "{p: 1..2, q: 1}", "{p: 1.., q: 1..2}"}
	for i := range systems {
		src := testsupport.RandomSplit(r, groups[r.Intn(len(groups))], r.Intn(2) == 0)
		sys, err := gsst.Parse(fmt.Sprintf("split%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		restore := prove.SetCaseJoining(false)
		plain, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
		restore()
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		for k, res := range rep.Results {
			counts[res.Verdict]++
			want := plain.Results[k].Verdict
			if (res.Verdict == prove.Proved || res.Verdict == prove.Refuted) && (want == prove.Proved || want == prove.Refuted) && res.Verdict != want {
				t.Errorf("system %d: %s is %v with the cases joined, %v as written\n%s", i, sys.Properties[k].Name, res.Verdict, want, src)
			}
			if strings.Contains(res.LevelReason, "case splits joined") {
				switch {
				case res.Verdict == prove.Refuted:
					replayed++
				case res.Verdict == prove.Proved && res.Live != nil:
					joinedLive++
				case res.Verdict == prove.Proved:
					joinedProofs++
				}
			}
		}
		cert, err := detect.Certify(ctx, sys, s)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		if rep.Cert != nil && (rep.Cert.System != sys || len(rep.Cert.Transitions) != len(sys.Transitions) || rep.Cert.Certified() != cert.Certified()) {
			t.Errorf("system %d: the report's certification (%d transitions, certified %v) is not the system as written's (%d, %v)\n%s",
				i, len(rep.Cert.Transitions), rep.Cert.Certified(), len(sys.Transitions), cert.Certified(), src)
		}
		if cert.Certified() {
			certified++
		}
		// The last property is the liveness one, which exploration of
		// the group-counter model checks.
		live := len(sys.Properties) - 1
		safety := *rep
		safety.Results = rep.Results[:live]
		c, _ := checkReportByExploration(t, i, sys, &safety)
		confirmed += c
		checkLiveByExploration(t, i, sys, rep.Results[live], src)
	}
	t.Logf("%d systems (%d certified): %v; carried from the joined system: %d safety proofs, %d liveness proofs, %d runs replayed; safety refutations confirmed by exploration %d", systems, certified, counts, joinedProofs, joinedLive, replayed, confirmed)
	if counts[prove.Proved] < systems/2 || counts[prove.Refuted] < systems/4 || joinedProofs < systems/2 || replayed < systems/5 || joinedLive == 0 || confirmed < systems/5 || certified == 0 {
		t.Errorf("the sample exercises too little")
	}
}
