package analysis

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
)

// TestReachabilityAgainstProcesses: on random small uncertified systems
// with shared variables, updates, broadcasts and rendezvous (fixed seed;
// shared variables bounded, so that the reachable states are finitely
// many), every answer of Reach, with the explicit and with the BDD
// engine, equals a forward search of the concrete states of processes
// (testsupport.Procs, on the process-level semantics of
// testsupport.ProcSteps, which share no code with detect, counterabs or
// the engines): whether the witness's configurations (group counters and
// shared values) are reachable and in how many steps at least, and
// whether an asymmetric configuration of the transition or rendezvous
// is, how near, and that the one reported is one. A state is asymmetric
// for r when some state with the same total counters and shared values
// (reachable or not) has a step of r to an orbit that no step of it
// reaches.
func TestReachabilityAgainstProcesses(t *testing.T) {
	want := 120
	if testing.Short() {
		want = 40
	}
	configs := []testsupport.Config{
		testsupport.Small(testsupport.SharedVars, testsupport.Params),
		testsupport.Small(testsupport.Broadcasts, testsupport.AllConstructs),
		testsupport.Small(testsupport.Rendezvous, testsupport.AllConstructs),
		testsupport.Small(0, testsupport.AllConstructs),
	}
	r := rand.New(rand.NewSource(2026112627))
	ctx := context.Background()
	solver := z3.New()
	systems := 0
	yes, no := map[string]int{}, map[string]int{}
	kinds := map[string]int{}
	for try := 0; systems < want && try < 40*want; try++ {
		sys := testsupport.RandomSystem(r, configs[try%len(configs)])
		if slices.ContainsFunc(sys.Shared, func(v gsst.Shared) bool { return v.Unbounded }) {
			continue
		}
		cert, err := detect.Certify(ctx, sys, solver)
		if err != nil {
			t.Fatal(err)
		}
		if cert.Verdict() != detect.Violated {
			continue
		}
		systems++
		engine := []string{"explicit", "bdd"}[systems%2]
		got := Reach(ctx, cert, solver, ReachRequest{Engine: engine})
		o := newProcOracle(sys)
		for i, res := range cert.Results() {
			a := got.Transitions[i]
			if (a != nil) != (res.Verdict == detect.Violated) {
				t.Fatalf("try %d: result %d is %v, reachability answered: %v", try, i, res.Verdict, a != nil)
			}
			if a == nil {
				continue
			}
			kind := "transition"
			switch {
			case res.Rendezvous != nil:
				kind = "rendezvous"
			case res.Environment != nil:
				kind = "environment step"
			}
			if res.Witness.Step == nil {
				kind += " (enabledness)"
			}
			kinds[kind]++
			label := fmt.Sprintf("try %d (%s engine), result %d\n%s", try, engine, i, testsupport.Describe(sys))
			w := res.Witness
			at := func(conf [][]int) func(testsupport.ProcState) bool {
				return func(st testsupport.ProcState) bool {
					return fmt.Sprint(o.counts(st.Conf)) == fmt.Sprint(conf) && slices.Equal(st.Shared, orEmpty(w.Shared))
				}
			}
			asym := o.asymmetric(i)
			for _, q := range []struct {
				name string
				ans  *ReachAnswer
				f    func(testsupport.ProcState) bool
			}{
				{"enabled", &a.Enabled, at(w.Enabled)},
				{"disabled", &a.Disabled, at(w.Disabled)},
				{"asymmetry", &a.Asymmetry, asym},
			} {
				steps, reachable := o.nearest(q.f)
				compareAnswer(t, label, q.name, q.ans, steps, reachable)
				if reachable {
					yes[q.name]++
				} else {
					no[q.name]++
				}
				if q.name != "asymmetry" || !reachable {
					continue
				}
				s := q.ans.State
				if s == nil {
					t.Fatalf("%s: no asymmetric configuration reported", label)
				}
				ok := false
				for _, st := range o.sp.States {
					ok = ok || fmt.Sprint(o.counts(st.Conf)) == fmt.Sprint(s.Groups) && slices.Equal(st.Shared, orEmpty(s.Shared)) && asym(st)
				}
				if !ok {
					t.Fatalf("%s: reported configuration %v %v is not a reachable asymmetric one", label, s.Groups, s.Shared)
				}
			}
		}
	}
	t.Logf("%d uncertified systems (%v); reachable %v, unreachable %v", systems, kinds, yes, no)
	if systems < want {
		t.Fatalf("only %d uncertified systems generated", systems)
	}
	for _, q := range []string{"enabled", "disabled", "asymmetry"} {
		if yes[q] < 5 || no[q] < 5 {
			t.Errorf("%s: %d reachable and %d unreachable answers; the sample does not exercise both", q, yes[q], no[q])
		}
	}
	for _, k := range []string{"transition", "transition (enabledness)", "rendezvous"} {
		if kinds[k] < 5 {
			t.Errorf("only %d violated results of kind %s", kinds[k], k)
		}
	}
}

// procOracle answers the reachability questions on the concrete states
// of processes.
type procOracle struct {
	sys   *gsst.System
	sp    *testsupport.ProcSpace
	dist  []int // from the initial state; -1: unreachable (never, the space is of reachable states)
	byTot map[string][][][]int
}

func newProcOracle(sys *gsst.System) *procOracle {
	o := &procOracle{sys: sys, sp: testsupport.Procs(sys, 0), byTot: testsupport.ConfigsByTotals(sys)}
	o.dist = make([]int, len(o.sp.States))
	for i := range o.dist {
		o.dist[i] = -1
	}
	o.dist[o.sp.Init] = 0
	queue := []int{o.sp.Init}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range o.sp.Succ[i] {
			if o.dist[j] < 0 {
				o.dist[j] = o.dist[i] + 1
				queue = append(queue, j)
			}
		}
	}
	return o
}

// counts returns the group counters of a process configuration.
func (o *procOracle) counts(conf []int) [][]int {
	out := make([][]int, len(o.sys.Groups))
	for g := range out {
		out[g] = make([]int, len(o.sys.States))
	}
	for p, s := range conf {
		out[o.sp.Owner[p]][s]++
	}
	return out
}

// nearest returns the distance of the nearest reachable state where f
// holds.
func (o *procOracle) nearest(f func(testsupport.ProcState) bool) (int, bool) {
	best, found := 0, false
	for i, st := range o.sp.States {
		if d := o.dist[i]; d >= 0 && (!found || d < best) && f(st) {
			best, found = d, true
		}
	}
	return best, found
}

// asymmetric returns the test for result i of Report.Results (transition
// i, or rendezvous i - len(Transitions)): some state with the same total
// counters and shared values has a step of it to an orbit no step of st
// reaches.
func (o *procOracle) asymmetric(i int) func(testsupport.ProcState) bool {
	sys, owner := o.sys, o.sp.Owner
	return func(st testsupport.ProcState) bool {
		reached := map[string]bool{}
		for _, s := range testsupport.ProcSteps(sys, owner, st) {
			reached[testsupport.OrbitKey(sys, owner, s.Next)] = true
		}
		totals := testsupport.Totals(o.counts(st.Conf))
		for _, y := range o.byTot[testsupport.TotalKey(totals)] {
			other := testsupport.ProcState{Conf: testsupport.Layout(y), Shared: st.Shared}
			for _, s := range testsupport.ProcSteps(sys, owner, other) {
				if testsupport.Item(sys, &s) == i && !reached[testsupport.OrbitKey(sys, owner, s.Next)] {
					return true
				}
			}
		}
		return false
	}
}

// orEmpty is vals, or an empty slice for nil, as the process states hold
// shared values.
func orEmpty(vals []int) []int {
	if vals == nil {
		return []int{}
	}
	return vals
}
