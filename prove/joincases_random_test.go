package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
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
	confirmed, joinedProofs, replayed, lassos, joinedLive, certified := 0, 0, 0, 0, 0, 0
	groups := []string{"{p: 1.., q: 1}", "{p: 1..2, q: 1}", "{p: 1.., q: 1..2}"}
	for i := range systems {
		src := testsupport.RandomSplit(r, groups[r.Intn(len(groups))], r.Intn(2) == 0)
		sys, err := gsst.Parse(fmt.Sprintf("split%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		rep := proveBothWays(t, ctx, s, i, sys, src, prove.SetCaseJoining, "with the cases joined", "as written")
		for _, res := range rep.Results {
			counts[res.Verdict]++
			if strings.Contains(res.LevelReason, "case splits joined") {
				switch {
				case res.Verdict == prove.Refuted && res.Trace != nil && res.Trace.Loop >= 0:
					lassos++
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
		confirmed += checkSafetyAndLive(t, i, sys, rep, src)
	}
	t.Logf("%d systems (%d certified): %v; carried from the joined system: %d safety proofs, %d liveness proofs, %d runs and %d fair lassos replayed; safety refutations confirmed by exploration %d", systems, certified, counts, joinedProofs, joinedLive, replayed, lassos, confirmed)
	if counts[prove.Proved] < systems/2 || counts[prove.Refuted] < systems/4 || joinedProofs < systems/2 || replayed < systems/5 || lassos == 0 || joinedLive == 0 || confirmed < systems/5 || certified == 0 {
		t.Errorf("the sample exercises too little")
	}
}

// TestJoinCasesRandomFamily is TestJoinCasesRandom for families: the
// random systems with a group of k processes, k a parameter of 1..3,
// where JoinCases reads the parameter and the sizes through the
// instance condition alone. Safety answers are checked against
// exploration of each instance, every answer against the one with the
// joining off, and some must be carried from the joined system.
func TestJoinCasesRandomFamily(t *testing.T) {
	systems := 24
	if testing.Short() {
		systems = 8
	}
	r := rand.New(rand.NewSource(3203))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	carried, confirmed := 0, 0
	for i := range systems {
		src := "params: [k]\nassume: \"k >= 1 & k <= 3\"\n" + testsupport.RandomSplit(r, "{p: k, q: 1}", r.Intn(2) == 0)
		sys, err := gsst.Parse(fmt.Sprintf("family%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		rep := proveBothWays(t, ctx, s, i, sys, src, prove.SetCaseJoining, "with the cases joined", "as written")
		for _, res := range rep.Results {
			counts[res.Verdict]++
			if strings.Contains(res.LevelReason, "case splits joined") && (res.Verdict == prove.Proved || res.Verdict == prove.Refuted) {
				carried++
			}
		}
		safety := *rep
		safety.Results = rep.Results[:len(rep.Results)-1] // the last is the liveness property
		n, _ := checkReportByExploration(t, i, sys, &safety)
		confirmed += n
	}
	t.Logf("%d families: %v; %d answers carried from the joined system; safety refutations confirmed by exploration %d", systems, counts, carried, confirmed)
	if counts[prove.Proved] < systems/2 || counts[prove.Refuted] < systems/4 || carried < systems/2 || confirmed == 0 {
		t.Errorf("the sample exercises too little")
	}
}

// checkSafetyAndLive checks rep, the report of a random system whose
// last property is a liveness one, by exploration: the safety answers
// on every instance in the box (checkReportByExploration), the
// liveness answer on the group-counter model (checkLiveByExploration).
// It returns the safety refutations exploration confirmed.
func checkSafetyAndLive(t *testing.T, i int, sys *gsst.System, rep *prove.Report, src string) int {
	t.Helper()
	live := len(sys.Properties) - 1
	safety := *rep
	safety.Results = rep.Results[:live]
	confirmed, _ := checkReportByExploration(t, i, sys, &safety)
	checkLiveByExploration(t, i, sys, rep.Results[live], src)
	return confirmed
}

// checkTampered checks the verdicts of rep, found with a tampered system
// asked in place of the one written (SetSameRuns, SetAbsorbed): each
// property's is want's, and carried lists those whose answers the
// system asked gives (its reason says "tampered"); the others were asked
// as written.
func checkTampered(t *testing.T, rep *prove.Report, want map[string]prove.Verdict, carried []string) {
	t.Helper()
	for _, res := range rep.Results {
		name := res.Property.Name
		got := strings.Contains(res.LevelReason, "tampered")
		if res.Verdict != want[name] || got != slices.Contains(carried, name) {
			t.Errorf("%s: %v (%s), want %v, carried %v", name, res.Verdict, res.LevelReason, want[name], slices.Contains(carried, name))
		}
	}
}

// TestJoinCasesTampered gives prove, as the system of the same runs,
// systems of other runs. One has two steps the system as written does
// not have (B -> A and B -> C): its run into C and its fair lasso
// through A and B refute safe and live, which hold as written; neither
// may be reported (the run does not replay, the lasso does not lift),
// both are asked again as written and proved. The other cannot take the
// step A -> B: its proof of stay, which fails as written, does not
// re-check there, and stay is refuted as written; its proof of safe is
// too strong to re-check (#B = 0), and its deadlock in A, a lasso
// refuting live, does not lift, where a process can move: both are
// asked again as written and proved. The system itself,
// asked so, has every answer carried.
func TestJoinCasesTampered(t *testing.T) {
	written := `states: [A, B, C]
groups: {p: 1..2}
init: A
transitions:
- {name: go, from: A, to: B}
properties:
  safe: "AG #C = 0"
  live: "AF #A = 0"
  stay: "AG #B = 0"
`
	sys, err := gsst.Parse("written.yaml", []byte(written))
	if err != nil {
		t.Fatal(err)
	}
	more, err := gsst.Parse("more.yaml", []byte(strings.Replace(written, "transitions:\n", "transitions:\n- {name: back, from: B, to: A}\n- {name: out, from: B, to: C}\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	fewer, err := gsst.Parse("fewer.yaml", []byte(strings.Replace(written, "to: B}", "to: B, guard: \"#C >= 1\"}", 1)))
	if err != nil {
		t.Fatal(err)
	}
	asWritten := map[string]prove.Verdict{"safe": prove.Proved, "live": prove.Proved, "stay": prove.Refuted}
	tests := []struct {
		name  string
		alike *gsst.System
		// carried lists the properties whose answers the system asked
		// gives (its reason says so); the others are asked as written.
		carried []string
	}{
		{"more runs", more, []string{"stay"}},
		{"fewer runs", fewer, nil},
		{"the same runs", sys.WithProperties(0, 1, 2), []string{"safe", "live", "stay"}},
	}
	s := z3.New()
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			restore := prove.SetSameRuns(func(*gsst.System) *gsst.System { return tc.alike })
			rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
			restore()
			if err != nil {
				t.Fatal(err)
			}
			checkTampered(t, rep, asWritten, tc.carried)
		})
	}
}
