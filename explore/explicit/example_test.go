package explicit_test

import (
	"context"
	"fmt"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Three identical processes competing for a critical section (MUTEX,
// Fig. 1(a) of Wei, Gurfinkel and Chechik), checked on the group-counter
// model: the unreduced system with group-sorted states.
func ExampleEngine() {
	spec := &gsst.Spec{
		Name:   "mutex",
		States: []string{"N", "T", "C"},
		Groups: []gsst.Group{{Name: "proc", Size: 3}},
		Init:   [][]int{{3, 0, 0}},
	}
	all := []int{0}
	noneInC := presburger.Compare(presburger.VarTerm(spec.TotalVar(2)), presburger.Eq, presburger.ConstTerm(0))
	spec.Transitions = []gsst.Transition{
		{From: 0, To: 1, Blocks: []gsst.Block{{Groups: all, Guard: presburger.True}}},
		{From: 1, To: 2, Blocks: []gsst.Block{{Groups: all, Guard: noneInC}}},
		{From: 2, To: 0, Blocks: []gsst.Block{{Groups: all, Guard: presburger.True}}},
	}
	spec.Properties = []gsst.Property{{
		Name: "never-C", Text: "AG #C = 0",
		Formula: ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: noneInC}},
	}}
	sys, err := gsst.New(spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := explicit.Engine{}.Check(context.Background(), m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("canonical states:", rep.ReachableStates, "configurations:", rep.ConcreteStates)
	for _, p := range rep.Properties {
		fmt.Println(p.Name, "holds:", p.Holds)
		for _, s := range p.Trace.Lifted.Steps {
			fmt.Println(" ", s)
		}
	}
	// Output:
	// canonical states: 7 configurations: 20
	// never-C holds: false
	//   proc[0]: N -> T
	//   proc[0]: T -> C
}
