package enginetest

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// FairStats counts what the fairness cross-checks covered, so that a
// sample exercising too little fails.
type FairStats struct {
	Verdicts, Holds, Fails, Vacuous, Traces, Lassos, Branches, FairSystems, Deadlocked int
	Segments                                                                           map[explore.SegmentKind]int
}

// CheckAgainstOracle runs eng on m and compares each verdict with the
// oracle's fair CTL on the unreduced system, and checks each trace with
// the oracle (replayed on the unreduced system, segments and fair
// cycles).
func CheckAgainstOracle(t *testing.T, eng explore.Engine, opts []explore.Option, sys *gsst.System, m *counterabs.Model, o *testsupport.Oracle, st *FairStats) {
	t.Helper()
	rep, err := eng.Check(context.Background(), m, opts...)
	if err != nil {
		t.Fatalf("%s on the %s model: %v", eng.Name(), m.Level, err)
	}
	if cfg := explore.NewConfig(opts...); cfg.CountStates || cfg.CheckDeadlocks {
		if err := o.CheckDeadlocks(Deadlocks(rep)); err != nil {
			t.Errorf("%s, %s model: deadlocks: %v", eng.Name(), m.Level, err)
		}
	}
	if rep.DeadlockFree != nil && !*rep.DeadlockFree {
		st.Deadlocked++
	}
	if len(rep.Fairness) != len(m.Justice) {
		t.Errorf("%s: report lists %d fairness constraints, the model has %d", eng.Name(), len(rep.Fairness), len(m.Justice))
	}
	for i, p := range rep.Properties {
		sf := sys.Properties[i].Formula
		want := o.Holds(sf)
		st.Verdicts++
		if p.Holds != want {
			t.Errorf("%s, %s model: %s = %s: engine says %v, oracle %v", eng.Name(), m.Level, p.Name, ctl.Format(sf, sys.VarName), p.Holds, want)
			continue
		}
		if p.Vacuous != !o.Fair()[0] {
			t.Errorf("%s: %s vacuous %v, oracle's initial state fair %v", eng.Name(), p.Name, p.Vacuous, o.Fair()[0])
		}
		switch {
		case p.Vacuous:
			st.Vacuous++
		case p.Holds:
			st.Holds++
		default:
			st.Fails++
		}
		if p.Trace == nil {
			continue
		}
		st.Traces++
		if p.Trace.Loop >= 0 {
			st.Lassos++
		}
		st.Branches += len(p.Trace.Branches)
		for _, sg := range p.Trace.Segments {
			st.Segments[sg.Kind]++
		}
		subs := testsupport.Subformulas(sf, m.Properties[i].Formula, m.FormatProperty)
		if err := o.CheckTrace(Trace(p.Trace, printKey), subs); err != nil {
			t.Errorf("%s, %s model: %s = %s (%v): trace: %v\n%+v", eng.Name(), m.Level, p.Name, ctl.Format(sf, sys.VarName), p.Holds, err, p.Trace.Segments)
		}
	}
}

// fairSystems and fairSystemsShort are the number of random systems fair
// checks, in the full run and with -short.
const (
	fairSystems      = 300
	fairSystemsShort = 30
)

// fair checks eng, on hundreds of random small systems (30 with
// -short) with random fairness constraints (justice conditions over total
// and group counters, weak fairness per transition and per group) and
// properties over total and group counters, against the oracle's fair CTL
// on the unreduced, process-indexed state space: on the group-counter
// model for every system, and on the total-counter model for the
// certified systems whose fairness and properties it can express. Every
// trace is replayed on the unreduced system, and the cycle of every lasso
// meets every fairness constraint.
func fair(t *testing.T, eng explore.Engine, opts []explore.Option) {
	r := rand.New(rand.NewSource(20261123))
	systems := fairSystems
	if testing.Short() {
		systems = fairSystemsShort
	}
	st := FairStats{Segments: map[explore.SegmentKind]int{}}
	totalChecked := 0
	for k := 0; k < systems; k++ {
		// Every other system keeps to what the total-counter model can
		// express, so that the certified ones are checked on it too.
		total := k%2 == 1
		sys := testsupport.RandomSystem(r, testsupport.FairConfig(fmt.Sprintf("fair%d", k), total))
		if !sys.Fairness.Empty() {
			st.FairSystems++
		}
		t.Run(sys.Name, func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Log(testsupport.Describe(sys))
				}
			}()
			o := testsupport.NewOracle(sys)
			gm, err := counterabs.BuildGroup(sys)
			if err != nil {
				t.Fatal(err)
			}
			CheckAgainstOracle(t, eng, opts, sys, gm, o, &st)
			if !total {
				return
			}
			am, certified := BruteCertified(sys)
			if !certified {
				return
			}
			totalChecked++
			CheckAgainstOracle(t, eng, opts, sys, am, o, &st)
		})
	}
	t.Logf("%s: %d systems (%d with fairness, %d also on the total-counter model): %d verdicts (%d hold, %d fail, %d vacuous); %d traces (%d lassos, %d branches), segments %v; %d reports with reachable deadlocks",
		eng.Name(), systems, st.FairSystems, totalChecked, st.Verdicts, st.Holds, st.Fails, st.Vacuous, st.Traces, st.Lassos, st.Branches, st.Segments, st.Deadlocked)
	if st.FairSystems < systems/2 || totalChecked < systems/20 || st.Vacuous == 0 || st.Fails < systems || st.Holds < systems ||
		st.Lassos < systems || st.Branches == 0 || st.Deadlocked < systems/10 || st.Segments[explore.FairContinuation] == 0 || st.Segments[explore.StepSegment] == 0 {
		t.Errorf("the random sample exercises too little")
	}
}
