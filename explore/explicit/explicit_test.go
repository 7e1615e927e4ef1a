package explicit

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/internal/testsupport"
)

// randomConfig is what the random cross-checks draw: up to 4 states, 3
// groups of 1-3 processes, 5 transitions, guards of every style, 6 random
// CTL properties over total counters, at most 3000 configurations.
var randomConfig = testsupport.Config{MaxConfigs: 3000, MaxTransitions: 5, Properties: 6}

// TestRandomCrossCheck runs hundreds of random small GSSTs through the
// explicit engine on both models and compares it with the oracles:
//   - the group-counter model against the group quotient of the unreduced
//     system (all systems), its count of configurations against the
//     configurations the reachable group vectors stand for;
//   - the brute-force total-counter model against the existential
//     abstraction (all systems, certified or not);
//   - for certified systems, the total-counter model against the total
//     quotient of the unreduced system (Theorem 7 makes it exact).
//
// Verdicts are those of the unreduced system (of the existential
// abstraction for an uncertified total model). Every trace is checked to
// be a path of the model that demonstrates its verdict (shortest where
// promised), and every lifted trace is replayed on the unreduced system.
func TestRandomCrossCheck(t *testing.T) {
	for _, hash := range []bool{false, true} {
		t.Run(fmt.Sprintf("hash=%v", hash), func(t *testing.T) {
			testNoRank = hash
			defer func() { testNoRank = false }()
			randomCrossCheck(t)
		})
	}
}

func randomCrossCheck(t *testing.T) {
	r := rand.New(rand.NewSource(20261122))
	const systems = 400
	var st traceStats
	certified := 0
	for k := 0; k < systems; k++ {
		sys := testsupport.RandomSystem(r, randomConfig)
		sys.Name = fmt.Sprintf("rand%d", k)
		t.Run(sys.Name, func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Log(testsupport.Describe(sys))
				}
			}()
			sp := testsupport.Unreduced(sys)
			gq := sp.Groups()

			// The group-counter model against the group quotient.
			crep, err := checkConcrete(context.Background(), sys)
			if err != nil {
				t.Fatal(err)
			}
			checkCounts(t, "group", crep, gq, concreteKey)
			owner, init := testsupport.Processes(sys)
			all := testsupport.Unreduced(sys, testsupport.Arrangements(owner, init)...)
			if crep.ConcreteStates == nil || crep.ConcreteStates.Int64() != int64(all.Len()) {
				t.Errorf("group: %v concrete states, oracle %d", crep.ConcreteStates, all.Len())
			}
			checkVerdicts(t, "group", sys, crep, sp.Graph, gq, concreteKey, &st)

			// The brute-force total model against the existential
			// abstraction.
			am, brute := bruteModel(sys)
			arep, err := checkAbstract(context.Background(), am)
			if err != nil {
				t.Fatal(err)
			}
			cert := brute.Certified()
			if arep.Exact != cert {
				t.Errorf("total: exact %v, certified %v", arep.Exact, cert)
			}
			ex := brute.Graph()
			checkCounts(t, "total", arep, ex, abstractKey)
			checkVerdicts(t, "total", sys, arep, ex, ex, abstractKey, &st)
			if !cert {
				// Lifting may fail on an inexact model, but what it returns
				// as complete must replay.
				for _, p := range arep.Properties {
					switch {
					case p.Trace == nil:
					case p.Trace.Lifted == nil:
						t.Errorf("%s: trace not lifted", p.Name)
					case p.Trace.Lifted.Error == "":
						if _, err := testsupport.Replay(sys, enginetest.Trace(p.Trace, abstractKey)); err != nil {
							t.Errorf("forced %s: %v", p.Name, err)
						}
						st.forcedLifted++
					default:
						st.forcedFailed++
					}
				}
				return
			}

			// Certified: the total model is the exact quotient.
			certified++
			checkCounts(t, "total quotient", arep, sp.Totals(), abstractKey)
			for i, p := range arep.Properties {
				if want := testsupport.Holds(sp.Graph, sys.Properties[i].Formula); p.Holds != want {
					t.Errorf("%s: total model says %v, unreduced system %v", p.Name, p.Holds, want)
				}
			}
		})
	}
	t.Logf("%d systems, %d certified; %d verdicts; %d traces (%d lassos, %d with stutter), %d lifted traces replayed; "+
		"uncertified: %d lifted and replayed, %d not liftable",
		systems, certified, st.Verdicts, st.Traces, st.Lassos, st.Stutters, st.Lifted, st.forcedLifted, st.forcedFailed)
	if certified < systems/10 || st.Traces < systems || st.Lassos < systems/10 || st.Lifted < systems || st.Stutters == 0 {
		t.Errorf("the random systems exercise too little: %d certified, %+v", certified, st)
	}
}
