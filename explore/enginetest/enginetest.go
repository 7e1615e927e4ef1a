package enginetest

import (
	"fmt"
	"testing"

	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/internal/testsupport"
)

// Conformance runs the suite on engine e with options opts, asking the
// shortest paths every engine promises (testsupport.FromInit).
func Conformance(t *testing.T, e explore.Engine, opts ...explore.Option) {
	Suite{Engine: e, Options: opts}.Run(t)
}

// Suite is one engine setting under test: the engine, the options every
// Check gets, and which path segments of its traces must be shortest.
// With a Twin, every model the suite checks is also given to the twin
// with the same options, and the two reports must be the same, byte for
// byte but for their stats (ReportJSON): reports do not depend on the
// engine.
type Suite struct {
	Engine   explore.Engine
	Options  []explore.Option
	Shortest testsupport.Shortest
	Twin     explore.Engine
}

// Run runs the conformance suite on s.
func (s Suite) Run(t *testing.T) {
	s = s.withTwin(t)
	t.Run("corpus", func(t *testing.T) { corpus(t, s) })
	t.Run("unreduced", func(t *testing.T) { unreduced(t, s) })
	t.Run("fair", func(t *testing.T) { fair(t, s.Engine, s.Options) })
	t.Run("processes", func(t *testing.T) { processes(t, s) })
}

// withTwin puts s's engine and its twin behind one engine (twins), when
// it has a twin.
func (s Suite) withTwin(t *testing.T) Suite {
	if s.Twin != nil {
		s.Engine = twins{t: t, a: s.Engine, b: s.Twin}
	}
	return s
}

// Trace restates tr (nil for none) in the terms of the oracles of
// internal/testsupport: key names its states for a testsupport.Graph,
// and the counters and lifted run go along for testsupport.Replay.
func Trace(tr *explore.Trace, key func(explore.State) string) *testsupport.Trace {
	if tr == nil {
		return nil
	}
	out := &testsupport.Trace{Loop: tr.Loop, Kind: string(tr.Kind)}
	for _, s := range tr.States {
		out.Keys = append(out.Keys, key(s))
		out.Totals = append(out.Totals, s.Counters)
		out.Groups = append(out.Groups, s.Groups)
		if s.Shared != nil {
			out.Shared = append(out.Shared, s.Shared)
		}
	}
	if len(out.Shared) != len(out.Keys) {
		out.Shared = nil
	}
	for _, sg := range tr.Segments {
		out.Segments = append(out.Segments, testsupport.Segment{Kind: string(sg.Kind), Start: sg.Start, End: sg.End,
			Formula: sg.Formula, Holds: sg.Holds, Target: sg.Target, TargetHolds: sg.TargetHolds})
	}
	if l := tr.Lifted; l != nil {
		out.Lifted = &testsupport.Lifted{Loop: l.Loop, Error: l.Error}
		for _, s := range l.Steps {
			st := testsupport.Step{Stutter: s.Stutter, Transition: s.Transition,
				Group: s.Group, Process: s.Process, From: s.From, To: s.To, Shared: s.Shared, Rendezvous: -1, Environment: -1}
			if s.Rendezvous != nil {
				st.Rendezvous = *s.Rendezvous
			}
			if s.Environment != nil {
				st.Environment = *s.Environment
			}
			st.Also, st.Transferred = movers(s.Also), movers(s.Transferred)
			out.Lifted.Steps = append(out.Lifted.Steps, st)
		}
	}
	for _, b := range tr.Branches {
		out.Branches = append(out.Branches, Trace(b, key))
	}
	return out
}

// movers restates the other movers of a lifted step.
func movers(ms []explore.Mover) []testsupport.Mover {
	var out []testsupport.Mover
	for _, m := range ms {
		out = append(out, testsupport.Mover{Group: m.Group, Process: m.Process, From: m.From, To: m.To})
	}
	return out
}

// TotalKey and GroupKey name a trace state as the total-counter and the
// group-counter graphs of testsupport do.
func TotalKey(s explore.State) string { return testsupport.TotalKey(s.Counters) }
func GroupKey(s explore.State) string { return testsupport.GroupKey(s.Groups) }

// printKey names a state by its printed counters, for deadlock examples.
func printKey(s explore.State) string { return fmt.Sprint(s) }

// Deadlocks restates rep's deadlock results for testsupport.Oracle.
func Deadlocks(rep *explore.Report) testsupport.Deadlocks {
	d := testsupport.Deadlocks{Free: rep.DeadlockFree}
	for _, s := range rep.DeadlockExamples {
		d.Examples = append(d.Examples, printKey(s))
	}
	for _, tr := range rep.DeadlockTraces {
		d.Traces = append(d.Traces, Trace(tr, printKey))
	}
	return d
}

// Result is what a report says, for testsupport.Level.Compare.
func Result(rep *explore.Report) testsupport.Result {
	r := testsupport.Result{Exact: rep.Exact, States: rep.ReachableStates.Int64(), Deadlocks: rep.Deadlocks.Int64(), Concrete: -1}
	if rep.ConcreteStates != nil {
		r.Concrete = rep.ConcreteStates.Int64()
	}
	for _, p := range rep.Properties {
		r.Verdicts = append(r.Verdicts, testsupport.PropertyVerdict{Name: p.Name, Holds: p.Holds})
	}
	return r
}
