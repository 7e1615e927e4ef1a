package explicit

import (
	"context"
	"fmt"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// The paper's example families, for known-answer tests and benchmarks,
// from the one source of internal/testsupport, with counter models
// written by hand.

func cmp(v presburger.Var, op presburger.Op, k int64) presburger.Formula {
	return presburger.Compare(presburger.VarTerm(v), op, presburger.ConstTerm(k))
}

// rwProperties are the properties the readers-writers tests check.
const rwProperties = `properties:
  mutex: "AG #C <= 1"
  reachable: "EF #C = 1"
  no-deadlock: "AG EX true"
  two-in-C: "EF #C >= 2"
  always-return: "AG AF #C = 0"
  # Nobody can stay out of C forever: N -> T -> C is the only way on.
  eventually-C: "AF #C = 1"
  # But one process may idle in N forever while others cycle.
  all-leave-N: "AF #N = 0"
`

// rwSystem is readers-writers (Fig. 1(b)): states N, T, C; a reader
// enters C when #C = 0 and no writer is trying, a writer when #C = 0.
// The YAML syntax wants groups of at least one process; gsst.New allows
// empty ones, so no readers is one reader removed by hand.
func rwSystem(readers, writers int) *gsst.System {
	spec := testsupport.Parse("rw.yaml", testsupport.ReadersWritersYAML(max(readers, 1), writers, false)+rwProperties).Spec()
	spec.Name = fmt.Sprintf("rw-%d-%d", readers, writers)
	if readers == 0 {
		spec.Groups[0].Size, spec.Init[0] = 0, []int{0, 0, 0}
	}
	sys, err := gsst.New(spec)
	if err != nil {
		panic(err)
	}
	return sys
}

// rwModel is the counter abstraction of rwSystem, written by hand (the
// paper's g_{T->C} = #T >= 1 & #C = 0).
func rwModel(sys *gsst.System) *counterabs.Model {
	N, T, C := presburger.Var(0), presburger.Var(1), presburger.Var(2)
	return assemble(sys, []counterabs.Transition{
		{From: 0, To: 1, Guard: cmp(N, presburger.Ge, 1), Local: 0, Group: -1},
		{From: 1, To: 2, Guard: presburger.Conj(cmp(T, presburger.Ge, 1), cmp(C, presburger.Eq, 0)), Local: 1, Group: -1},
		{From: 2, To: 0, Guard: cmp(C, presburger.Ge, 1), Local: 2, Group: -1},
	})
}

// assemble is counterabs.Assemble of an exact total-counter model, for
// models known to be right.
func assemble(sys *gsst.System, trans []counterabs.Transition) *counterabs.Model {
	m, err := counterabs.Assemble(sys, counterabs.TotalLevel, trans, true)
	if err != nil {
		panic(err)
	}
	return m
}

// checkAbstract runs the explicit engine on a model.
func checkAbstract(ctx context.Context, am *counterabs.Model, opts ...explore.Option) (*explore.Report, error) {
	return Engine{}.Check(ctx, am, opts...)
}

// checkConcrete runs the explicit engine on the group-counter model of
// sys, the unreduced system with group-sorted states.
func checkConcrete(ctx context.Context, sys *gsst.System, opts ...explore.Option) (*explore.Report, error) {
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		return nil, err
	}
	return Engine{}.Check(ctx, m, opts...)
}

// grwModel is the counter abstraction of testsupport.GRW by hand: the entry
// guard is #L_m-1 >= 1 & #L_m = 0 (the highest-priority waiter may go).
func grwModel(sys *gsst.System) *counterabs.Model {
	m := len(sys.States)
	var trans []counterabs.Transition
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		g := cmp(presburger.Var(t.From), presburger.Ge, 1)
		if t.To == m-1 {
			g = presburger.Conj(g, cmp(presburger.Var(m-1), presburger.Eq, 0))
		}
		trans = append(trans, counterabs.Transition{From: t.From, To: t.To, Guard: g, Local: i, Group: -1})
	}
	return assemble(sys, trans)
}

// TestHandModelsMatchOracle checks the hand-written abstractions used by
// the known-answer tests and benchmarks against the naive oracle on small
// instances: the engine's reachable states and deadlocks on the hand
// model are those of the total quotient of the unreduced system, and its
// verdicts those of the unreduced system.
func TestHandModelsMatchOracle(t *testing.T) {
	cases := []struct {
		sys  *gsst.System
		hand func(*gsst.System) *counterabs.Model
	}{
		{rwSystem(1, 2), rwModel},
		{rwSystem(2, 2), rwModel},
		{rwSystem(3, 1), rwModel},
		{testsupport.GRW(2, 2, 4), grwModel},
		{testsupport.GRW(3, 1, 3), grwModel},
	}
	for _, c := range cases {
		t.Run(c.sys.Name, func(t *testing.T) {
			if !testsupport.BruteForce(c.sys).Certified() {
				t.Fatal("brute force says the system is not certified")
			}
			rep, err := checkAbstract(context.Background(), c.hand(c.sys))
			if err != nil {
				t.Fatal(err)
			}
			sp := testsupport.Unreduced(c.sys)
			tq := sp.Totals()
			if rep.ReachableStates.Int64() != int64(tq.Len()) || rep.Deadlocks.Int64() != int64(tq.Deadlocks()) {
				t.Errorf("hand model: %v states %v deadlocks; oracle %d, %d", rep.ReachableStates, rep.Deadlocks, tq.Len(), tq.Deadlocks())
			}
			for i, p := range rep.Properties {
				if want := testsupport.Holds(sp.Graph, c.sys.Properties[i].Formula); p.Holds != want {
					t.Errorf("%s: hand model %v, oracle %v", p.Name, p.Holds, want)
				}
			}
		})
	}
	t.Logf("%d hand models against the oracle: counts and verdicts", len(cases))
}

// TestReadersWritersKnownAnswers checks verdicts and counts worked out by
// hand. Abstract: the counter vectors with #C <= 1, 2n+1 of them, all
// reachable. Concrete RW(1,2): 13 group-sorted states standing for 20
// configurations (see docs/explore.md).
func TestReadersWritersKnownAnswers(t *testing.T) {
	verdicts := map[string]bool{
		"mutex": true, "reachable": true, "no-deadlock": true, "two-in-C": false,
		"always-return": true, "eventually-C": true, "all-leave-N": false,
	}
	for _, size := range [][2]int{{1, 2}, {2, 2}, {5, 3}, {200, 200}} {
		sys := rwSystem(size[0], size[1])
		t.Run(sys.Name, func(t *testing.T) {
			rep, err := checkAbstract(context.Background(), rwModel(sys))
			if err != nil {
				t.Fatal(err)
			}
			if want := int64(2*sys.N() + 1); rep.ReachableStates.Int64() != want {
				t.Errorf("abstract reachable %v, want %d", rep.ReachableStates, want)
			}
			if rep.Deadlocks.Sign() != 0 {
				t.Errorf("deadlocks %v, want 0", rep.Deadlocks)
			}
			if len(rep.Properties) != len(verdicts) {
				t.Fatalf("%d properties checked, want %d", len(rep.Properties), len(verdicts))
			}
			for _, p := range rep.Properties {
				if p.Holds != verdicts[p.Name] {
					t.Errorf("%s: holds %v, want %v", p.Name, p.Holds, verdicts[p.Name])
				}
			}
			// all-leave-N fails on a lasso that keeps a process in N.
			for _, p := range rep.Properties {
				if p.Name == "all-leave-N" && (p.Trace == nil || p.Trace.Loop < 0 || p.Trace.Kind != explore.Counterexample) {
					t.Errorf("all-leave-N: want a lasso counterexample, got %+v", p.Trace)
				}
				if p.Name == "two-in-C" && p.Trace != nil {
					t.Errorf("two-in-C fails; an EF has no counterexample trace")
				}
			}
		})
	}
	rep, err := checkConcrete(context.Background(), rwSystem(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if rep.ReachableStates.Int64() != 13 || rep.ConcreteStates.Int64() != 20 {
		t.Errorf("concrete RW(1,2): %v canonical, %v concrete; want 13, 20", rep.ReachableStates, rep.ConcreteStates)
	}
	// Concrete RW(r, w) by counting: every group-counter vector with at
	// most one process in C is reachable (writers may move to T after a
	// reader entered), so the count is (r+1)(w+1) + r(w+1) + (r+1)w for
	// no one / a reader / a writer in C, each group's other processes
	// split freely between N and T.
	for _, size := range [][2]int{{3, 4}, {200, 200}} {
		r, w := size[0], size[1]
		rep, err := checkConcrete(context.Background(), rwSystem(r, w), explore.Properties())
		if err != nil {
			t.Fatal(err)
		}
		want := int64((r+1)*(w+1) + r*(w+1) + (r+1)*w)
		if rep.ReachableStates.Int64() != want {
			t.Errorf("concrete RW(%d,%d): %v states, want %d", r, w, rep.ReachableStates, want)
		}
	}
}
