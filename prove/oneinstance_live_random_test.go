package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// oneInstanceLiveConfig draws systems of fixed sizes (one instance
// each) with response properties, under fairness or none, with shared
// variables, broadcasts and self-loops at times.
var oneInstanceLiveConfig = testsupport.Config{MaxTransitions: 4, NGuards: true, MaxConfigs: 4000,
	Properties: 3, GroupProperties: 2, Shape: testsupport.Response, Fairness: testsupport.Fairness{Max: 2},
	May: testsupport.SharedVars | testsupport.SelfLoops | testsupport.Broadcasts}

// TestProveLivenessOneInstanceRandom checks that prove decides every
// response property of a family of one instance with few states, where
// the ranking argument may not apply (exploredProof): each verdict
// against the oracle, which explores the instance process by process
// (prove has replayed each refutation's lasso on the instance). Some properties must be
// proved by the exploration, or the test would not exercise it.
func TestProveLivenessOneInstanceRandom(t *testing.T) {
	systems := 60
	if testing.Short() {
		systems = 30
	}
	r := rand.New(rand.NewSource(7))
	s := z3.New()
	ctx := context.Background()
	counts := map[string]int{}
	for i := range systems {
		sys := testsupport.RandomSystem(r, oneInstanceLiveConfig)
		rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		sizes := make([]int, len(sys.Groups))
		for g := range sys.Groups {
			sizes[g] = sys.Groups[g].Size
		}
		inst, err := sys.Instantiate(sizes)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		// nil when the instance has more than oracleStates states (an
		// unbounded shared variable that grows): prove may then leave a
		// property unknown, and its verdicts are not checked.
		g, _ := procOracleWithin(inst, oracleStates)
		for k, res := range rep.Results {
			p := &sys.Properties[k]
			counts[fmt.Sprint(res.Verdict, " by ", res.Method)]++
			if g == nil {
				continue
			}
			holds := g.Holds(p.Formula)
			switch res.Verdict {
			case prove.Proved:
				if !holds {
					t.Errorf("system %d: %s (%s) proved (%s), but fails\n%s", i, p.Name, p.Text, res.Reason, testsupport.Describe(sys))
				}
			case prove.Refuted:
				// prove has replayed the lasso on the instance.
				if holds {
					t.Errorf("system %d: %s (%s) refuted, but holds\n%s", i, p.Name, p.Text, testsupport.Describe(sys))
				}
			default:
				t.Errorf("system %d: %s (%s) %v on a family of one instance of few states: %s\n%s", i, p.Name, p.Text, res.Verdict, res.Reason, testsupport.Describe(sys))
			}
		}
	}
	t.Logf("%d systems: %v", systems, counts)
	if counts[fmt.Sprint(prove.Proved, " by ", prove.ByExploration)] == 0 {
		t.Errorf("no property proved by exploring its one instance: %v", counts)
	}
}

// TestLivenessOneInstanceExplored checks exploredProof. A mutex of
// three processes whose response property holds with no fairness, where
// no rank over the counters decreases along every pending step, is
// proved by exploring its 7 states. Two properties that fail beyond
// what the lasso search explores must not be proved: on a family of one
// instance whose shared variable starts at any value from 0 up, failing
// from x = 3 on only (the search explores the initial values up to the
// number of processes, which is not the whole family), and on a family
// of every size, failing from 6 processes on only (a deadlock). A
// family of one instance whose fairness constraint no reachable
// configuration meets has no fair run, and its property holds
// vacuously: proved so, and said so.
func TestLivenessOneInstanceExplored(t *testing.T) {
	s := z3.New()
	for _, c := range []struct {
		name, text string
		proved     bool
		vacuous    bool
	}{
		{"mutex", `name: mutex
states: [N, T, C]
groups: {proc: 3}
init: N
transitions:
  - {from: N, to: T}
  - {from: T, to: C, guard: "#C = 0"}
  - {from: C, to: N}
properties:
  live: "AG (#N >= 3 -> AF #C >= 1)"
`, true, false},
		{"vacuous", `name: vacuous
states: [A, B, C]
groups: {p: 2}
init: A
transitions:
  - {from: A, to: B}
  - {from: B, to: A}
fairness:
  justice: ["#C > 0"]
properties:
  live: "AG (#A > 0 -> AF #C > 0)"
`, true, true},
		{"initrange", `name: initrange
states: [N, C]
groups: {proc: 2}
init: N
shared:
  x: {type: "0..", init: "0.."}
transitions:
  - {from: N, to: C, guard: "x <= 2"}
  - {from: C, to: N}
properties:
  live: "AG (#N >= 2 -> AF #C >= 1)"
`, false, false},
		{"bign", `name: bign
states: [N, C]
groups: {proc: 1..}
init: N
transitions:
  - {from: N, to: C, guard: "#N <= 5"}
  - {from: C, to: N}
properties:
  live: "AG (#C = 0 -> AF #C >= 1)"
`, false, false},
	} {
		sys, err := gsst.Parse(c.name+".yaml", []byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(liveWork))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		res := rep.Results[0]
		if proved := res.Verdict == prove.Proved; proved != c.proved {
			t.Errorf("%s: %v (%s), want proved %v", c.name, res.Verdict, res.Reason, c.proved)
		}
		if c.proved && res.Method != prove.ByExploration {
			t.Errorf("%s: proved by %s, want %s", c.name, res.Method, prove.ByExploration)
		}
		if vacuous := strings.Contains(res.Reason, "vacuously"); c.proved && vacuous != c.vacuous {
			t.Errorf("%s: %s, want vacuous %v", c.name, res.Reason, c.vacuous)
		}
	}
}
