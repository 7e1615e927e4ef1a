package counterabs_test

import (
	"context"
	"fmt"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// The readers-writers of Figure 1(b): one reader, two writers; a reader
// enters C only when C is empty and no writer is trying.
func ExampleBuild() {
	spec := &gsst.Spec{
		States: []string{"N", "T", "C"},
		Groups: []gsst.Group{{Name: "reader", Size: 1}, {Name: "writer", Size: 2}},
		Init:   [][]int{{1, 0, 0}, {2, 0, 0}},
	}
	N, T, C := 0, 1, 2
	total := func(s int) presburger.Term { return presburger.VarTerm(spec.TotalVar(s)) }
	zero := func(t presburger.Term) presburger.Formula {
		return presburger.Compare(t, presburger.Eq, presburger.ConstTerm(0))
	}
	free := []gsst.Block{{Groups: []int{0, 1}, Guard: presburger.True}}
	spec.Transitions = []gsst.Transition{
		{From: N, To: T, Blocks: free},
		{From: T, To: C, Blocks: []gsst.Block{
			{Groups: []int{0}, Guard: presburger.Conj(zero(total(C)), zero(presburger.VarTerm(spec.GroupVar(T, 1))))},
			{Groups: []int{1}, Guard: zero(total(C))},
		}},
		{From: C, To: N, Blocks: free},
	}
	// New checks the description once; everything downstream trusts
	// the System it returns.
	sys, err := gsst.New(spec)
	if err != nil {
		fmt.Println(err)
		return
	}

	// The brute-force solver suffices for three processes; use
	// z3.New() for real systems.
	m, err := counterabs.Build(context.Background(), sys, presburger.BruteForce{}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("init", m.Init, "exact", m.Exact)
	for _, t := range m.Transitions {
		fmt.Printf("%s: %s [case %v]\n", m.TransitionName(&t), presburger.Format(t.Guard, m.VarName), t.Case)
	}
	fmt.Println("deadlock:", presburger.Format(m.Deadlock(), sys.VarName))
	// Output:
	// init [3 0 0] exact true
	// N -> T: #N >= 1 [case a]
	// T -> C: #T >= 1 & #C = 0 [case c]
	// C -> N: #C >= 1 [case a]
	// deadlock: false
}
