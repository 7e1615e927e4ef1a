package explicit

import (
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// The cross-checks of this package against the oracles of
// internal/testsupport: the engine's report on a model is compared with
// a naive graph of the same model (the group quotient of the unreduced
// system for the group-counter model, the total quotient for a certified
// total-counter model, the existential abstraction for a forced one).

// bruteModel is the total-counter model of sys built from the
// brute-force existential abstraction (no solver, no counterabs.Build),
// exact when brute force certifies the system.
func bruteModel(sys *gsst.System) (*counterabs.Model, *testsupport.Brute) {
	b := testsupport.BruteForce(sys)
	var trans []counterabs.Transition
	for r := range sys.Transitions {
		t := &sys.Transitions[r]
		trans = append(trans, counterabs.Transition{From: t.From, To: t.To, Guard: b.Guard(r), Case: counterabs.CaseProjection, Local: r, Group: -1})
	}
	m, err := counterabs.Assemble(sys, counterabs.TotalLevel, trans, b.Certified())
	if err != nil {
		panic(err)
	}
	if !m.Exact {
		// The forced model stutters wherever some configuration with
		// those totals is deadlocked (counterabs.Model.MayDeadlock).
		m.MayDeadlock = b.MayDeadlock()
	}
	return m, b
}

// traceStats counts what the random tests checked, so a test that
// silently checks nothing fails.
type traceStats struct {
	verdicts                         int
	traces, lassos, lifted, stutters int
	forcedLifted, forcedFailed       int // traces of uncertified models
}

func abstractKey(s explore.State) string { return testsupport.TotalKey(s.Counters) }
func concreteKey(s explore.State) string { return testsupport.GroupKey(s.Groups) }

// checkCounts compares the reachable states, deadlocks and deadlock
// examples of rep with graph g.
func checkCounts(t *testing.T, mode string, rep *explore.Report, g *testsupport.Graph, key func(explore.State) string) {
	t.Helper()
	if got, want := rep.ReachableStates.Int64(), int64(g.Len()); got != want {
		t.Errorf("%s: %d reachable states, oracle %d", mode, got, want)
	}
	if got, want := rep.Deadlocks.Int64(), int64(g.Deadlocks()); got != want {
		t.Errorf("%s: %d deadlocks, oracle %d", mode, got, want)
	}
	for _, s := range rep.DeadlockExamples {
		if i, ok := g.Index[key(s)]; !ok || !g.Dead[i] {
			t.Errorf("%s: deadlock example %v is not a reachable deadlock", mode, s)
		}
	}
}

// checkVerdicts compares every verdict of rep with the naive checker on
// truth (the unreduced system, or a graph with the same verdicts) and
// checks every trace on g, the graph of the model the engine explored.
func checkVerdicts(t *testing.T, mode string, sys *gsst.System, rep *explore.Report, truth, g *testsupport.Graph, key func(explore.State) string, st *traceStats) {
	t.Helper()
	if len(rep.Properties) != len(sys.Properties) {
		t.Fatalf("%s: %d results for %d properties", mode, len(rep.Properties), len(sys.Properties))
	}
	// The segments name subformulas of the model's properties: at the
	// total level they are the system's, at the group level translated.
	modelFormula := func(i int) ctl.Formula { return sys.Properties[i].Formula }
	name := sys.VarName
	if rep.Model == counterabs.GroupLevel {
		gm, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		modelFormula = func(i int) ctl.Formula { return gm.Properties[i].Formula }
		name = gm.VarName
	}
	for i, p := range rep.Properties {
		f := sys.Properties[i].Formula
		st.verdicts++
		if want := testsupport.Holds(truth, f); p.Holds != want {
			t.Errorf("%s: %s = %s: engine says %v, oracle %v", mode, p.Name, ctl.Format(f, sys.VarName), p.Holds, want)
			continue
		}
		subs := testsupport.Subformulas(f, modelFormula(i), name)
		if err := testsupport.CheckEngineTrace(g, f, p.Holds, engineTrace(p.Trace, key), subs, testsupport.FromStart); err != nil {
			t.Errorf("%s %s: %v", mode, p.Name, err)
		}
		if p.Trace != nil {
			st.traces++
			if p.Trace.Loop >= 0 {
				st.lassos++
			}
			if rep.Exact {
				for _, tr := range append([]*explore.Trace{p.Trace}, p.Trace.Branches...) {
					replayLifted(t, mode+" "+p.Name, sys, tr)
					st.lifted++
					for _, s := range tr.Lifted.Steps {
						if s.Stutter {
							st.stutters++
							break
						}
					}
				}
			}
		}
	}
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
