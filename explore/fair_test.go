package explore_test

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// fairStats counts what the fairness cross-checks covered, so that a
// sample exercising too little fails.
type fairStats struct {
	verdicts, holds, fails, vacuous, traces, lassos, branches, fairSystems, deadlocked int
	segments                                                                           map[explore.SegmentKind]int
}

// engines are the engines every verdict is checked with.
func engines() []explore.Engine {
	reach := symbolic.DefaultBDD()
	reach.ReachFirst = true
	return []explore.Engine{explore.Explicit{}, symbolic.DefaultBDD(), reach}
}

// engineOptions are the options each of engines() runs with: the BDD
// engine without reachable states is asked for the deadlock check.
var engineOptions = [][]explore.Option{nil, {explore.CountStates(false), explore.CheckDeadlocks(true)}, nil}

// enginesFor returns the indices into engines() that random system k is
// checked with: the explicit engine always, and one of the two BDD
// settings in turn (the BDD engine costs most on tiny models).
func enginesFor(k int) []int { return []int{0, 1 + k%2} }

// checkAgainstOracle runs every engine on m and compares each verdict
// with the oracle's fair CTL on the unreduced system, and checks each
// trace with the oracle (replayed on the unreduced system, segments and
// fair cycles).
func checkAgainstOracle(t *testing.T, sys *gsst.System, m *counterabs.Model, o *explore.Oracle, which []int, st *fairStats) {
	t.Helper()
	for _, k := range which {
		eng := engines()[k]
		rep, err := eng.Check(context.Background(), m, engineOptions[k]...)
		if err != nil {
			t.Fatalf("%s on the %s model: %v", eng.Name(), m.Level, err)
		}
		if err := o.CheckDeadlocks(rep); err != nil {
			t.Errorf("%s, %s model: deadlocks: %v", eng.Name(), m.Level, err)
		}
		if rep.DeadlockFree != nil && !*rep.DeadlockFree {
			st.deadlocked++
		}
		if len(rep.Fairness) != len(m.Justice) {
			t.Errorf("%s: report lists %d fairness constraints, the model has %d", eng.Name(), len(rep.Fairness), len(m.Justice))
		}
		for i, p := range rep.Properties {
			sf := sys.Properties[i].Formula
			want := o.Holds(sf)
			st.verdicts++
			if p.Holds != want {
				t.Errorf("%s, %s model: %s = %s: engine says %v, oracle %v", eng.Name(), m.Level, p.Name, ctl.Format(sf, sys.VarName), p.Holds, want)
				continue
			}
			if p.Vacuous != !o.Fair()[0] {
				t.Errorf("%s: %s vacuous %v, oracle's initial state fair %v", eng.Name(), p.Name, p.Vacuous, o.Fair()[0])
			}
			switch {
			case p.Vacuous:
				st.vacuous++
			case p.Holds:
				st.holds++
			default:
				st.fails++
			}
			if p.Trace == nil {
				continue
			}
			st.traces++
			if p.Trace.Loop >= 0 {
				st.lassos++
			}
			st.branches += len(p.Trace.Branches)
			for _, sg := range p.Trace.Segments {
				st.segments[sg.Kind]++
			}
			subs := testsupport.Subformulas(sf, m.Properties[i].Formula, m.VarName)
			if err := o.CheckTrace(p.Trace, subs); err != nil {
				t.Errorf("%s, %s model: %s = %s (%v): trace: %v\n%+v", eng.Name(), m.Level, p.Name, ctl.Format(sf, sys.VarName), p.Holds, err, p.Trace.Segments)
			}
		}
	}
}

// TestFairAgainstOracle checks both engines, on hundreds of random small
// systems (100 with -short) with random fairness constraints (justice
// conditions over total and group counters, weak fairness per transition
// and per group) and properties over total and group counters, against the
// oracle's fair CTL on the unreduced, process-indexed state space: on the
// group-counter model for every system, and on the total-counter model for
// the certified systems whose fairness and properties it can express. The
// explicit engine checks every system, the BDD engine every system too,
// with and without reachable states in turn. Every trace is replayed on
// the unreduced system, and the cycle of every lasso meets every fairness
// constraint.
func TestFairAgainstOracle(t *testing.T) {
	r := rand.New(rand.NewSource(20261123))
	systems := 300
	if testing.Short() {
		systems = 100
	}
	st := fairStats{segments: map[explore.SegmentKind]int{}}
	totalChecked := 0
	for k := 0; k < systems; k++ {
		// Every other system keeps to what the total-counter model can
		// express, so that the certified ones are checked on it too.
		total := k%2 == 1
		sys := explore.RandomSystem(r, fmt.Sprintf("fair%d", k), !total, total)
		if !sys.Fairness.Empty() {
			st.fairSystems++
		}
		t.Run(sys.Name, func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Log(explore.Describe(sys))
				}
			}()
			o := explore.NewOracle(sys)
			gm, err := counterabs.BuildGroup(sys)
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstOracle(t, sys, gm, o, enginesFor(k), &st)
			if !total {
				return
			}
			am, certified := explore.BruteCertified(sys)
			if !certified {
				return
			}
			totalChecked++
			checkAgainstOracle(t, sys, am, o, enginesFor(k+1), &st)
		})
	}
	t.Logf("%d systems (%d with fairness, %d also on the total-counter model): %d verdicts (%d hold, %d fail, %d vacuous); %d traces (%d lassos, %d branches), segments %v; %d reports with reachable deadlocks",
		systems, st.fairSystems, totalChecked, st.verdicts, st.holds, st.fails, st.vacuous, st.traces, st.lassos, st.branches, st.segments, st.deadlocked)
	if st.fairSystems < systems/2 || totalChecked < systems/20 || st.vacuous == 0 || st.fails < systems || st.holds < systems ||
		st.lassos < systems || st.branches == 0 || st.deadlocked < systems/10 || st.segments[explore.FairContinuation] == 0 || st.segments[explore.StepSegment] == 0 {
		t.Errorf("the random sample exercises too little")
	}
}
