package symbolic

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// TestEnginesAgainstUnreduced runs both engines, through the one
// explore.Engine contract, on hundreds of random systems, certified and
// not, with properties over total and group counters, and compares them
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
// models lift.
func TestEnginesAgainstUnreduced(t *testing.T) {
	r := rand.New(rand.NewSource(20261125))
	systems := 300
	if testing.Short() {
		systems = 60
	}
	cfg := testsupport.Config{MaxConfigs: 3000, MaxTransitions: 5, Properties: 6, GroupProperties: true}
	engines := []explore.Engine{explicit.Engine{}, DefaultBDD()}
	ctx := context.Background()
	var certified, groupProps, verdicts, traces int
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
			m     *counterabs.Model
			quot  *testsupport.Graph
			key   func(explore.State) string
			props []gsst.Property
		}{{group, sp.Groups(), func(s explore.State) string { return testsupport.GroupKey(s.Groups) }, sys.Properties}}
		if testsupport.BruteForce(sys).Certified() {
			certified++
			tsys := testsupport.TotalProperties(sys)
			total, err := counterabs.Build(ctx, tsys, presburger.BruteForce{}, testsupport.Projector{})
			if err != nil {
				t.Fatalf("%s: %v\n%s", sys.Name, err, testsupport.Describe(sys))
			}
			models = append(models, struct {
				m     *counterabs.Model
				quot  *testsupport.Graph
				key   func(explore.State) string
				props []gsst.Property
			}{total, sp.Totals(), func(s explore.State) string { return testsupport.TotalKey(s.Counters) }, tsys.Properties})
		}
		for _, mod := range models {
			for _, e := range engines {
				where := fmt.Sprintf("%s, %s model, %s engine", sys.Name, mod.m.Level, e.Name())
				rep, err := e.Check(ctx, mod.m)
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if rep.ReachableStates.Int64() != int64(mod.quot.Len()) || rep.Deadlocks.Int64() != int64(mod.quot.Deadlocks()) {
					t.Errorf("%s: %v states, %v deadlocks; oracle %d, %d\n%s", where, rep.ReachableStates, rep.Deadlocks,
						mod.quot.Len(), mod.quot.Deadlocks(), testsupport.Describe(sys))
				}
				for j, p := range rep.Properties {
					f := mod.props[j].Formula
					verdicts++
					if want := testsupport.Holds(sp.Graph, f); p.Holds != want {
						t.Errorf("%s: %s = %s holds %v, the unreduced system %v\n%s", where, p.Name, ctl.Format(f, sys.VarName), p.Holds, want, testsupport.Describe(sys))
						continue
					}
					if err := checkEngineTrace(mod.quot, mod.key, f, mod.m.Properties[j].Formula, mod.m.VarName, p); err != nil {
						t.Errorf("%s: %s: %v", where, p.Name, err)
					}
					if p.Trace != nil {
						traces++
						if p.Trace.Lifted == nil || p.Trace.Lifted.Error != "" {
							t.Errorf("%s: %s: the trace of an exact model does not lift: %+v", where, p.Name, p.Trace.Lifted)
						}
					}
				}
			}
		}
	}
	t.Logf("%d systems (%d certified), %d properties over group counters; %d verdicts and %d traces checked against the unreduced system",
		systems, certified, groupProps, verdicts, traces)
	if certified < systems/5 || systems-certified < systems/5 || groupProps < systems || traces < systems {
		t.Errorf("the random sample exercises too little")
	}
}

// checkEngineTrace checks the trace of result p of f on g, the oracle's
// graph of the model, whose states key names (testsupport.CheckEngineTrace);
// mf is the model's formula for f, whose subformulas the segments name
// with name.
func checkEngineTrace(g *testsupport.Graph, key func(explore.State) string, f, mf ctl.Formula, name func(presburger.Var) string, p explore.PropertyResult) error {
	return testsupport.CheckEngineTrace(g, f, p.Holds, engineTrace(p.Trace, key), testsupport.Subformulas(f, mf, name), testsupport.FromInit)
}

// engineTrace restates tr (nil for none) in the terms of a
// testsupport.Graph whose states key names.
func engineTrace(tr *explore.Trace, key func(explore.State) string) *testsupport.Trace {
	if tr == nil {
		return nil
	}
	out := &testsupport.Trace{Loop: tr.Loop}
	for _, s := range tr.States {
		out.Keys = append(out.Keys, key(s))
	}
	for _, sg := range tr.Segments {
		out.Segments = append(out.Segments, testsupport.Segment{Kind: string(sg.Kind), Start: sg.Start, End: sg.End,
			Formula: sg.Formula, Holds: sg.Holds, Target: sg.Target, TargetHolds: sg.TargetHolds})
	}
	for _, b := range tr.Branches {
		out.Branches = append(out.Branches, engineTrace(b, key))
	}
	return out
}
