package enginetest

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// unreducedSystems and unreducedSystemsShort are the number of random
// systems unreduced checks, without and with -short.
const (
	unreducedSystems      = 300
	unreducedSystemsShort = 30
)

// unreduced runs the engine on hundreds of random systems, certified and
// not, with properties over total and group counters, and compares it
// with the naive oracle on the unreduced system (testsupport.Unreduced):
//
//   - the group-counter model (counterabs.BuildGroup), for every system:
//     reachable states and deadlocks are those of the group quotient,
//     every verdict that of the unreduced system;
//   - the total-counter model (counterabs.Build, brute-force solver and
//     projector), for the certified systems: states and deadlocks are
//     those of the total quotient, every verdict of a property over total
//     counters that of the unreduced system.
//
// Every trace must show its verdict on the quotient, and on these exact
// models replay on the unreduced system.
func unreduced(t *testing.T, s Suite) {
	r := rand.New(rand.NewSource(20261125))
	systems := unreducedSystems
	if testing.Short() {
		systems = unreducedSystemsShort
	}
	cfg := testsupport.Config{MaxConfigs: 3000, MaxTransitions: 5, Properties: 6, GroupProperties: 6}
	counts := explore.NewConfig(s.Options...).CountStates
	ctx := context.Background()
	var certified, groupProps int
	var st Stats
	for i := range systems {
		sys := testsupport.RandomSystem(r, cfg)
		sys.Name = fmt.Sprintf("rand%d", i)
		for _, p := range sys.Properties {
			if counterabs.PropertyLevel(sys, &p) == counterabs.GroupLevel {
				groupProps++
			}
		}
		sp := testsupport.Unreduced(sys)
		group, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		models := []struct {
			m    *counterabs.Model
			sys  *gsst.System
			quot *testsupport.Graph
			key  func(explore.State) string
		}{{group, sys, sp.Groups(), GroupKey}}
		if testsupport.BruteForce(sys).Certified() {
			certified++
			tsys := testsupport.TotalProperties(sys)
			total, err := counterabs.Build(ctx, tsys, presburger.BruteForce{}, testsupport.Projector{})
			if err != nil {
				t.Fatalf("%s: %v\n%s", sys.Name, err, testsupport.Describe(sys))
			}
			models = append(models, struct {
				m    *counterabs.Model
				sys  *gsst.System
				quot *testsupport.Graph
				key  func(explore.State) string
			}{total, tsys, sp.Totals(), TotalKey})
		}
		t.Run(sys.Name, func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Log(testsupport.Describe(sys))
				}
			}()
			for _, mod := range models {
				where := fmt.Sprintf("%s model, %s engine", mod.m.Level, s.Engine.Name())
				rep, err := s.Engine.Check(ctx, mod.m, s.Options...)
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if counts && (rep.ReachableStates.Int64() != int64(mod.quot.Len()) || rep.Deadlocks.Int64() != int64(mod.quot.Deadlocks())) {
					t.Errorf("%s: %v states, %v deadlocks; oracle %d, %d", where, rep.ReachableStates, rep.Deadlocks,
						mod.quot.Len(), mod.quot.Deadlocks())
				}
				CheckVerdicts(t, where, mod.sys, rep, sp.Graph, mod.quot, mod.key, s.Shortest, &st)
			}
		})
	}
	t.Logf("%s: %d systems (%d certified), %d properties over group counters; %d verdicts and %d traces checked against the unreduced system, %d lifted traces replayed",
		s.Engine.Name(), systems, certified, groupProps, st.Verdicts, st.Traces, st.Lifted)
	if certified < systems/5 || systems-certified < systems/5 || groupProps < systems || st.Traces < systems {
		t.Errorf("the random sample exercises too little")
	}
}
