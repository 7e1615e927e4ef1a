package explore

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

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
	for i, p := range rep.Properties {
		f := sys.Properties[i].Formula
		want := satNaive(gr, f)[0]
		if p.Holds != want {
			t.Errorf("%s: %s = %s: engine says %v, naive %v", mode, p.Name, ctl.Format(f, sys.VarName), p.Holds, want)
			continue
		}
		checkTrace(t, mode+" "+p.Name, gr, key, f, p.Holds, p.Trace)
		if p.Trace != nil {
			st.traces++
			if p.Trace.Loop >= 0 {
				st.lassos++
			}
			if rep.Exact {
				replayLifted(t, mode+" "+p.Name, sys, p.Trace)
				st.lifted++
				for _, s := range p.Trace.Lifted.Steps {
					if s.Stutter {
						st.stutters++
						break
					}
				}
			}
		}
	}
}

// dualize rewrites a negated temporal operator into its dual, as the
// trace builder does.
func dualize(f ctl.Formula) ctl.Formula {
	if n, ok := f.(ctl.Not); ok {
		if u, ok := n.X.(ctl.Unary); ok {
			d := map[ctl.TempOp]ctl.TempOp{ctl.EX: ctl.AX, ctl.AX: ctl.EX, ctl.EF: ctl.AG, ctl.AG: ctl.EF, ctl.EG: ctl.AF, ctl.AF: ctl.EG}
			return ctl.Unary{Op: d[u.Op], X: ctl.Not{X: u.X}}
		}
	}
	return f
}

// checkTrace checks that tr is a path of gr from its initial state that
// demonstrates the verdict holds on f, that traces promised shortest are
// shortest, and that a trace is present whenever one is promised.
func checkTrace(t *testing.T, name string, gr *graph, key func(State) string, f ctl.Formula, holds bool, tr *Trace) {
	t.Helper()
	f = dualize(f)
	promised := false
	switch f := f.(type) {
	case ctl.Unary:
		promised = holds == (f.Op == ctl.EX || f.Op == ctl.EF || f.Op == ctl.EG)
	case ctl.Until:
		promised = holds != f.All
	}
	if !promised {
		if tr != nil {
			t.Errorf("%s: unexpected trace", name)
		}
		return
	}
	if tr == nil || len(tr.States) == 0 {
		t.Errorf("%s: missing trace", name)
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
	n := len(gr.label)
	in := func(set []bool, from, to int) bool {
		for _, i := range idx[from:to] {
			if !set[i] {
				return false
			}
		}
		return true
	}
	not := func(s []bool) []bool {
		r := make([]bool, len(s))
		for i := range s {
			r[i] = !s[i]
		}
		return r
	}
	allStates := make([]bool, n)
	for i := range allStates {
		allStates[i] = true
	}
	last := len(idx)
	switch f := f.(type) {
	case ctl.Unary:
		x := satNaive(gr, f.X)
		switch f.Op {
		case ctl.EX, ctl.AX:
			if len(idx) != 2 || tr.Loop >= 0 || x[idx[1]] != holds {
				t.Errorf("%s: bad next-state trace", name)
			}
		case ctl.EF, ctl.AG:
			target := x
			if !holds {
				target = not(x)
			}
			if tr.Loop >= 0 || !target[idx[last-1]] || last-1 != gr.dist(allStates, target) {
				t.Errorf("%s: not a shortest path to a target state (length %d, shortest %d)", name, last-1, gr.dist(allStates, target))
			}
		case ctl.EG, ctl.AF:
			p := x
			if !holds {
				p = not(x)
			}
			if tr.Loop < 0 || !in(p, 0, last) {
				t.Errorf("%s: not a lasso inside the path set", name)
			}
		}
	case ctl.Until:
		l, r := satNaive(gr, f.L), satNaive(gr, f.R)
		switch {
		case holds:
			if tr.Loop >= 0 || !in(l, 0, last-1) || !r[idx[last-1]] || last-1 != gr.dist(l, r) {
				t.Errorf("%s: not a shortest until witness", name)
			}
		case tr.Loop < 0:
			nr := not(r)
			bad := make([]bool, n)
			for i := range bad {
				bad[i] = !l[i] && !r[i]
			}
			if !in(nr, 0, last-1) || !bad[idx[last-1]] || last-1 != gr.dist(nr, bad) {
				t.Errorf("%s: not a shortest A[U] counterexample", name)
			}
		default:
			if !in(not(r), 0, last) {
				t.Errorf("%s: A[U] lasso leaves !r", name)
			}
		}
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
