package explore

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// traceStats counts what the random tests checked, so a test that
// silently checks nothing fails.
type traceStats struct {
	traces, lassos, lifted, stutters int
	forcedLifted, forcedFailed       int // traces of uncertified models
}

// TestRandomCrossCheck runs hundreds of random small GSSTs through both
// explicit modes and compares them with the naive references:
//   - concrete mode against the naive explorer of process-indexed
//     configurations (all systems);
//   - abstract mode on the brute-force counter model against the naive
//     explorer of that model (all systems, certified or not);
//   - abstract mode against the naive concrete system (certified systems:
//     Theorem 7 makes the counter model the exact quotient).
//
// Every trace is checked to be a path of the model that demonstrates its
// verdict (shortest where promised), and every lifted trace is replayed on
// the concrete system.
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
	g := gen{rand.New(rand.NewSource(20261122))}
	const systems = 300
	var st traceStats
	certified := 0
	for k := 0; k < systems; k++ {
		sys := g.system(fmt.Sprintf("rand%d", k))
		t.Run(sys.Name, func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Log(describe(sys))
				}
			}()
			group, conf := processes(sys)
			naive := naiveConcrete(sys, group, [][]int{conf})
			gq := quotient(naive, func(i int) string { return groupKey(sys, group, naive.conf[i]) })

			// Concrete mode against the naive explorer.
			crep, err := checkConcrete(context.Background(), sys)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := crep.ReachableStates.Int64(), int64(len(gq.label)); got != want {
				t.Errorf("concrete: %d reachable canonical states, naive %d", got, want)
			}
			if got, want := crep.Deadlocks.Int64(), int64(countTrue(gq.dead)); got != want {
				t.Errorf("concrete: %d deadlocks, naive %d", got, want)
			}
			all := naiveConcrete(sys, group, arrangements(group, conf))
			if crep.ConcreteStates == nil || crep.ConcreteStates.Int64() != int64(len(all.label)) {
				t.Errorf("concrete: %v concrete states, naive %d", crep.ConcreteStates, len(all.label))
			}
			checkDeadlockExamples(t, crep, gq, concreteKey)
			checkVerdicts(t, "concrete", sys, crep, gq, concreteKey, &st)

			// Abstract mode against the naive explorer of the same model.
			am, cert := bruteModel(sys)
			arep, err := checkAbstract(context.Background(), am)
			if err != nil {
				t.Fatal(err)
			}
			if arep.Exact != cert {
				t.Errorf("abstract: exact %v, certified %v", arep.Exact, cert)
			}
			na := naiveAbstract(am)
			if got, want := arep.ReachableStates.Int64(), int64(len(na.label)); got != want {
				t.Errorf("abstract: %d reachable states, naive %d", got, want)
			}
			if got, want := arep.Deadlocks.Int64(), int64(countTrue(na.dead)); got != want {
				t.Errorf("abstract: %d deadlocks, naive %d", got, want)
			}
			checkDeadlockExamples(t, arep, na, abstractKey)
			checkVerdicts(t, "abstract", sys, arep, na, abstractKey, &st)
			if !cert {
				// Lifting may fail on an inexact model, but what it returns
				// as complete must replay.
				for _, p := range arep.Properties {
					switch {
					case p.Trace == nil:
					case p.Trace.Lifted == nil:
						t.Errorf("%s: trace not lifted", p.Name)
					case p.Trace.Lifted.Error == "":
						replayLifted(t, "forced "+p.Name, sys, p.Trace)
						st.forcedLifted++
					default:
						st.forcedFailed++
					}
				}
				return
			}

			// Certified: the abstract model is the exact quotient.
			certified++
			tq := quotient(naive, func(i int) string { return fmt.Sprint(naive.totals[i]) })
			if got, want := arep.ReachableStates.Int64(), int64(len(tq.label)); got != want {
				t.Errorf("abstract: %d reachable states, distinct total vectors of concrete run %d", got, want)
			}
			if got, want := arep.Deadlocks.Int64(), int64(countTrue(tq.dead)); got != want {
				t.Errorf("abstract: %d deadlocks, concrete %d", got, want)
			}
			for i, p := range arep.Properties {
				if p.Holds != crep.Properties[i].Holds {
					t.Errorf("%s: abstract says %v, concrete %v", p.Name, p.Holds, crep.Properties[i].Holds)
				}
			}
		})
	}
	t.Logf("%d systems, %d certified; %d traces (%d lassos, %d with stutter), %d lifted traces replayed; "+
		"uncertified: %d lifted and replayed, %d not liftable",
		systems, certified, st.traces, st.lassos, st.stutters, st.lifted, st.forcedLifted, st.forcedFailed)
	if certified < systems/10 || st.traces < systems || st.lassos < systems/10 || st.lifted < systems || st.stutters == 0 {
		t.Errorf("the random systems exercise too little: %d certified, %+v", certified, st)
	}
}

func countTrue(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}

func abstractKey(s State) string { return fmt.Sprint(s.Counters) }
func concreteKey(s State) string { return fmt.Sprint(s.Groups) }

func checkDeadlockExamples(t *testing.T, rep *Report, gr *graph, key func(State) string) {
	t.Helper()
	for _, s := range rep.DeadlockExamples {
		i, ok := gr.index[key(s)]
		if !ok || !gr.dead[i] {
			t.Errorf("deadlock example %v is not a reachable deadlock", s)
		}
	}
}

// checkVerdicts compares every verdict with the naive checker on gr and
// validates the traces.
func checkVerdicts(t *testing.T, mode string, sys *gsst.System, rep *Report, gr *graph, key func(State) string, st *traceStats) {
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
		want := satNaive(gr, f)[0]
		if p.Holds != want {
			t.Errorf("%s: %s = %s: engine says %v, naive %v", mode, p.Name, ctl.Format(f, sys.VarName), p.Holds, want)
			continue
		}
		subs := Subformulas(f, modelFormula(i), name)
		checkTrace(t, mode+" "+p.Name, gr, key, f, subs, p.Holds, p.Trace)
		if p.Trace != nil {
			st.traces++
			if p.Trace.Loop >= 0 {
				st.lassos++
			}
			if rep.Exact {
				for _, tr := range append([]*Trace{p.Trace}, p.Trace.Branches...) {
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

// promised reports whether a verdict must come with a trace: an
// existential claim at the top (after negations), which one path shows.
func promised(f ctl.Formula, holds bool) bool {
	switch f := f.(type) {
	case ctl.Not:
		return promised(f.X, !holds)
	case ctl.Unary:
		return holds == f.Op.Existential()
	case ctl.Until:
		return holds != f.All
	}
	return false
}

// checkTrace checks that tr (and each branch) is a path of gr from its
// initial state whose segments explain the verdict: each segment's
// formula has the claimed truth value where it starts and its target
// where it ends (all along a lasso); paths are shortest from where they
// start; the segments connect and cover the trace. subs maps segment
// texts to subformulas of f.
func checkTrace(t *testing.T, name string, gr *graph, key func(State) string, f ctl.Formula, subs map[string]ctl.Formula, holds bool, tr *Trace) {
	t.Helper()
	if tr == nil {
		if promised(f, holds) {
			t.Errorf("%s: missing trace", name)
		}
		return
	}
	if len(tr.States) == 0 || len(tr.Segments) == 0 {
		t.Errorf("%s: empty trace or no segments", name)
		return
	}
	idx := make([]int, len(tr.States))
	for i, s := range tr.States {
		j, ok := gr.index[key(s)]
		if !ok {
			t.Errorf("%s: trace state %d %v is not reachable", name, i, s)
			return
		}
		idx[i] = j
	}
	if idx[0] != 0 {
		t.Errorf("%s: trace does not start in the initial state", name)
	}
	edge := func(a, b int) bool {
		for _, c := range gr.succ[a] {
			if c == b {
				return true
			}
		}
		return false
	}
	for i := 0; i+1 < len(idx); i++ {
		if !edge(idx[i], idx[i+1]) {
			t.Errorf("%s: trace step %d is not a transition", name, i+1)
		}
	}
	if tr.Loop >= len(idx) || tr.Loop >= 0 && !edge(idx[len(idx)-1], idx[tr.Loop]) {
		t.Errorf("%s: bad loop %d", name, tr.Loop)
	}
	sat := func(text string) []bool {
		g, ok := subs[text]
		if !ok {
			t.Errorf("%s: segment names %q, not a subformula", name, text)
			return nil
		}
		return satNaive(gr, g)
	}
	segs := tr.Segments
	if segs[0].Start != 0 || segs[len(segs)-1].End != len(idx)-1 {
		t.Errorf("%s: segments %+v do not cover %d states", name, segs, len(idx))
		return
	}
	for k, sg := range segs {
		if k > 0 && sg.Start != segs[k-1].End || sg.End < sg.Start || sg.End >= len(idx) {
			t.Errorf("%s: segment %d (%+v) does not connect", name, k, sg)
			return
		}
		if sg.Kind == FairContinuation {
			t.Errorf("%s: a fair continuation without fairness constraints", name)
			continue
		}
		if x := sat(sg.Formula); x == nil || x[idx[sg.Start]] != sg.Holds {
			t.Errorf("%s: segment %d: %s is not %v where it starts", name, k, sg.Formula, sg.Holds)
			continue
		}
		target := sat(sg.Target)
		if target == nil {
			continue
		}
		want := target
		if !sg.TargetHolds {
			want = not(target)
		}
		switch sg.Kind {
		case StepSegment, PathSegment:
			if !want[idx[sg.End]] {
				t.Errorf("%s: segment %d does not end where %s is %v", name, k, sg.Target, sg.TargetHolds)
			}
			through := make([]bool, len(gr.label))
			for i := range through {
				through[i] = true
			}
			if u, ok := subs[sg.Formula].(ctl.Until); ok {
				through = satNaive(gr, u.L)
				if u.All {
					through = not(satNaive(gr, u.R))
				}
			}
			for _, i := range idx[sg.Start:sg.End] {
				if !through[i] {
					t.Errorf("%s: segment %d leaves the states it must go through", name, k)
				}
			}
			if sg.Kind == StepSegment && sg.End != sg.Start+1 {
				t.Errorf("%s: step segment %d has %d steps", name, k, sg.End-sg.Start)
			}
			if d := gr.distFrom(idx[sg.Start], through, want); sg.Kind == PathSegment && d != sg.End-sg.Start {
				t.Errorf("%s: segment %d is a path of length %d, shortest %d", name, k, sg.End-sg.Start, d)
			}
		case LassoSegment:
			if tr.Loop < sg.Start || sg.End != len(idx)-1 {
				t.Errorf("%s: lasso segment %d is not the end of a lasso", name, k)
			}
			for _, i := range idx[sg.Start:] {
				if !want[i] {
					t.Errorf("%s: lasso segment %d leaves the states where %s is %v", name, k, sg.Target, sg.TargetHolds)
					break
				}
			}
		default:
			t.Errorf("%s: unknown segment kind %q", name, sg.Kind)
		}
	}
	for i, b := range tr.Branches {
		checkTrace(t, fmt.Sprintf("%s branch %d", name, i), gr, key, f, subs, holds, b)
	}
}

// replayLifted replays tr.Lifted on sys step by step: each moving process
// is in its from state, belongs to a group of a block of the transition
// whose guard holds, and after each step the counters match the counter
// trace (unrolled around its loop). A closed lifted loop must return to
// the configuration it names.
func replayLifted(t *testing.T, name string, sys *gsst.System, tr *Trace) {
	t.Helper()
	L := tr.Lifted
	if L == nil {
		t.Errorf("%s: no lifted trace", name)
		return
	}
	if L.Error != "" {
		t.Errorf("%s: lifting failed on an exact model: %s", name, L.Error)
		return
	}
	m, d := len(sys.States), len(sys.Groups)
	offset := make([]int, d+1)
	for g := 0; g < d; g++ {
		offset[g+1] = offset[g] + sys.Groups[g].Size
	}
	_, conf := processes(sys)
	group, _ := processes(sys)
	y := func() [][]int {
		out := make([][]int, d)
		for g := range out {
			out[g] = make([]int, m)
		}
		for p, s := range conf {
			out[group[p]][s]++
		}
		return out
	}
	confs := []string{fmt.Sprint(conf)}
	want := len(tr.States) - 1
	if tr.Loop >= 0 {
		want = len(tr.States) // at least one closing step
	}
	if len(L.Steps) < want {
		t.Errorf("%s: %d lifted steps for %d trace steps", name, len(L.Steps), want)
	}
	loopLen := len(tr.States) - tr.Loop
	for k, s := range L.Steps {
		var target State
		switch o := k - (len(tr.States) - 1); {
		case o < 0:
			target = tr.States[k+1]
		case tr.Loop < 0:
			t.Errorf("%s: lifted trace longer than a loop-free trace", name)
			return
		case o%loopLen == 0:
			target = tr.States[tr.Loop]
		default:
			target = tr.States[tr.Loop+o%loopLen]
		}
		val := sys.Valuation(y())
		if s.Stutter {
			for p := range conf {
				for _, tt := range sys.Transitions {
					if b := tt.BlockOf(group[p]); tt.From == conf[p] && b != nil && presburger.Eval(b.Guard, val) {
						t.Errorf("%s: step %d stutters but process %d can move", name, k, p)
					}
				}
			}
		} else {
			if s.Group < 0 || s.Group >= d || s.Process < 0 || s.Process >= sys.Groups[s.Group].Size ||
				s.Transition < 0 || s.Transition >= len(sys.Transitions) {
				t.Errorf("%s: step %d names no process or transition: %+v", name, k, s)
				return
			}
			p := offset[s.Group] + s.Process
			tt := &sys.Transitions[s.Transition]
			b := tt.BlockOf(s.Group)
			if conf[p] != s.From || tt.From != s.From || tt.To != s.To || b == nil || !presburger.Eval(b.Guard, val) {
				t.Errorf("%s: step %d (%v) cannot be taken", name, k, s)
				return
			}
			conf[p] = s.To
		}
		tot := make([]int, m)
		for _, s := range conf {
			tot[s]++
		}
		if fmt.Sprint(tot) != fmt.Sprint(target.Counters) || target.Groups != nil && fmt.Sprint(y()) != fmt.Sprint(target.Groups) {
			t.Errorf("%s: after lifted step %d counters %v, trace says %v", name, k, tot, target.Counters)
			return
		}
		confs = append(confs, fmt.Sprint(conf))
	}
	if (L.Loop >= 0) != (tr.Loop >= 0) {
		t.Errorf("%s: lifted loop %d, trace loop %d", name, L.Loop, tr.Loop)
	}
	if L.Loop >= 0 && (L.Loop >= len(confs) || confs[L.Loop] != confs[len(confs)-1]) {
		t.Errorf("%s: lifted loop does not return to configuration %d", name, L.Loop)
	}
}
