package explore

import (
	"context"
	"fmt"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Programmatic versions of the paper's example families, for known-answer
// tests and benchmarks.

func cmp(v presburger.Var, op presburger.Op, k int64) presburger.Formula {
	return presburger.Compare(presburger.VarTerm(v), op, presburger.ConstTerm(k))
}

func prop(name string, f ctl.Formula) gsst.Property { return gsst.Property{Name: name, Formula: f} }

// rwSystem is readers-writers (Fig. 1(b)): states N, T, C; a reader
// enters C when #C = 0 and no writer is trying, a writer when #C = 0.
func rwSystem(readers, writers int) *gsst.System {
	sys := &gsst.System{
		Name:   fmt.Sprintf("rw-%d-%d", readers, writers),
		States: []string{"N", "T", "C"},
		Groups: []gsst.Group{{Name: "reader", Size: readers}, {Name: "writer", Size: writers}},
		Init:   [][]int{{readers, 0, 0}, {writers, 0, 0}},
	}
	N, T, C := 0, 1, 2
	sys.Transitions = []gsst.Transition{
		{From: N, To: T, Blocks: []gsst.Block{{Groups: []int{0, 1}, Guard: presburger.True}}},
		{From: T, To: C, Blocks: []gsst.Block{
			{Groups: []int{0}, Guard: presburger.Conj(cmp(sys.TotalVar(C), presburger.Eq, 0), cmp(sys.GroupVar(T, 1), presburger.Eq, 0))},
			{Groups: []int{1}, Guard: cmp(sys.TotalVar(C), presburger.Eq, 0)},
		}},
		{From: C, To: N, Blocks: []gsst.Block{{Groups: []int{0, 1}, Guard: presburger.True}}},
	}
	sys.Properties = []gsst.Property{
		prop("mutex", ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: cmp(sys.TotalVar(C), presburger.Le, 1)}}),
		prop("reachable", ctl.Unary{Op: ctl.EF, X: ctl.Atom{P: cmp(sys.TotalVar(C), presburger.Eq, 1)}}),
		prop("no-deadlock", ctl.Unary{Op: ctl.AG, X: ctl.Unary{Op: ctl.EX, X: ctl.Atom{P: presburger.True}}}),
		prop("two-in-C", ctl.Unary{Op: ctl.EF, X: ctl.Atom{P: cmp(sys.TotalVar(C), presburger.Ge, 2)}}),
		prop("always-return", ctl.Unary{Op: ctl.AG, X: ctl.Unary{Op: ctl.AF, X: ctl.Atom{P: cmp(sys.TotalVar(C), presburger.Eq, 0)}}}),
		// Nobody can stay out of C forever: N -> T -> C is the only way on.
		prop("eventually-C", ctl.Unary{Op: ctl.AF, X: ctl.Atom{P: cmp(sys.TotalVar(C), presburger.Eq, 1)}}),
		// But one process may idle in N forever while others cycle.
		prop("all-leave-N", ctl.Unary{Op: ctl.AF, X: ctl.Atom{P: cmp(sys.TotalVar(N), presburger.Eq, 0)}}),
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
func checkAbstract(ctx context.Context, am *counterabs.Model, opts ...Option) (*Report, error) {
	return Explicit{}.Check(ctx, am, opts...)
}

// checkConcrete runs the explicit engine on the group-counter model of
// sys, the unreduced system with group-sorted states.
func checkConcrete(ctx context.Context, sys *gsst.System, opts ...Option) (*Report, error) {
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		return nil, err
	}
	return Explicit{}.Check(ctx, m, opts...)
}

// grwSystem is generalized readers-writers (section 6): m local states
// L1..Lm, d groups of q processes ordered by priority. L_i -> L_i+1 and
// L_m -> L_1 are free; a process of group k enters L_m when #L_m = 0 and
// no process of a higher-priority group (j < k) waits in L_m-1.
func grwSystem(d, q, m int) *gsst.System {
	sys := &gsst.System{Name: fmt.Sprintf("grw-%d-%d-%d", d, q, m)}
	for i := 1; i <= m; i++ {
		sys.States = append(sys.States, fmt.Sprintf("L%d", i))
	}
	all := make([]int, d)
	for k := 0; k < d; k++ {
		sys.Groups = append(sys.Groups, gsst.Group{Name: fmt.Sprintf("g%d", k+1), Size: q})
		init := make([]int, m)
		init[0] = q
		sys.Init = append(sys.Init, init)
		all[k] = k
	}
	for i := 0; i+2 < m; i++ {
		sys.Transitions = append(sys.Transitions, gsst.Transition{From: i, To: i + 1,
			Blocks: []gsst.Block{{Groups: all, Guard: presburger.True}}})
	}
	enter := gsst.Transition{From: m - 2, To: m - 1}
	for k := 0; k < d; k++ {
		g := []presburger.Formula{cmp(sys.TotalVar(m-1), presburger.Eq, 0)}
		for j := 0; j < k; j++ {
			g = append(g, cmp(sys.GroupVar(m-2, j), presburger.Eq, 0))
		}
		enter.Blocks = append(enter.Blocks, gsst.Block{Groups: []int{k}, Guard: presburger.Conj(g...)})
	}
	sys.Transitions = append(sys.Transitions, enter,
		gsst.Transition{From: m - 1, To: 0, Blocks: []gsst.Block{{Groups: all, Guard: presburger.True}}})
	sys.Properties = []gsst.Property{
		prop("mutex", ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: cmp(sys.TotalVar(m-1), presburger.Le, 1)}}),
	}
	return sys
}

// grwModel is the counter abstraction of grwSystem by hand: the entry
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

// TestHandModelsMatchBruteForce checks the hand-written abstractions used
// by the known-answer tests and benchmarks against the brute-force
// abstraction on small instances: same reachable states and verdicts.
func TestHandModelsMatchBruteForce(t *testing.T) {
	cases := []struct {
		sys  *gsst.System
		hand func(*gsst.System) *counterabs.Model
	}{
		{rwSystem(1, 2), rwModel},
		{rwSystem(2, 2), rwModel},
		{rwSystem(3, 1), rwModel},
		{grwSystem(2, 2, 4), grwModel},
		{grwSystem(3, 1, 3), grwModel},
	}
	for _, c := range cases {
		t.Run(c.sys.Name, func(t *testing.T) {
			brute, cert := bruteModel(c.sys)
			if !cert {
				t.Fatal("brute force says the system is not certified")
			}
			a, err := checkAbstract(context.Background(), c.hand(c.sys))
			if err != nil {
				t.Fatal(err)
			}
			b, err := checkAbstract(context.Background(), brute)
			if err != nil {
				t.Fatal(err)
			}
			if a.ReachableStates.Cmp(b.ReachableStates) != 0 || a.Deadlocks.Cmp(b.Deadlocks) != 0 {
				t.Errorf("hand model: %v states %v deadlocks; brute force %v, %v", a.ReachableStates, a.Deadlocks, b.ReachableStates, b.Deadlocks)
			}
			for i := range a.Properties {
				if a.Properties[i].Holds != b.Properties[i].Holds {
					t.Errorf("%s: hand %v, brute %v", a.Properties[i].Name, a.Properties[i].Holds, b.Properties[i].Holds)
				}
			}
		})
	}
	t.Logf("%d hand models against the brute-force model: counts and verdicts", len(cases))
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
				if p.Name == "all-leave-N" && (p.Trace == nil || p.Trace.Loop < 0 || p.Trace.Kind != Counterexample) {
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
		rep, err := checkConcrete(context.Background(), rwSystem(r, w), Properties())
		if err != nil {
			t.Fatal(err)
		}
		want := int64((r+1)*(w+1) + r*(w+1) + (r+1)*w)
		if rep.ReachableStates.Int64() != want {
			t.Errorf("concrete RW(%d,%d): %v states, want %d", r, w, rep.ReachableStates, want)
		}
	}
}
