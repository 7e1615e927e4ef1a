package explicit

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
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
						replayLifted(t, "forced "+p.Name, sys, p.Trace)
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
		systems, certified, st.verdicts, st.traces, st.lassos, st.stutters, st.lifted, st.forcedLifted, st.forcedFailed)
	if certified < systems/10 || st.traces < systems || st.lassos < systems/10 || st.lifted < systems || st.stutters == 0 {
		t.Errorf("the random systems exercise too little: %d certified, %+v", certified, st)
	}
}

// replayLifted replays tr.Lifted on sys step by step: each moving process
// is in its from state, belongs to a group of a block of the transition
// whose guard holds, and after each step the counters match the counter
// trace (unrolled around its loop). A closed lifted loop must return to
// the configuration it names.
func replayLifted(t *testing.T, name string, sys *gsst.System, tr *explore.Trace) {
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
	group, conf := testsupport.Processes(sys)
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
		var target explore.State
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
