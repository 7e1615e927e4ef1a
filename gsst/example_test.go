package gsst_test

import (
	"fmt"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

func ExampleParse() {
	src := `
name: two-phase
states: [Idle, Busy]
groups: {fast: 1, slow: 2}
init: Idle
transitions:
  - from: Idle
    to: Busy
    guard:
      fast: "#Busy < 2"
      slow: "#Busy = 0 & #Idle[fast] = 0"
  - {from: Busy, to: Idle}
properties:
  bounded: "AG #Busy <= 2"
`
	sys, err := gsst.Parse("two-phase.yaml", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sys.Name, "with", sys.N(), "processes")
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for _, b := range t.Blocks {
			fmt.Printf("%s for groups %v: %s\n", sys.TransitionName(t), b.Groups, presburger.Format(b.Guard, sys.VarName))
		}
	}
	for _, p := range sys.Properties {
		fmt.Println(p.Name+":", ctl.Format(p.Formula, sys.VarName))
	}

	// Every error of a file is reported at once, with its position.
	_, err = gsst.Parse("bad.yaml", []byte(`
states: [Idle, Busy]
groups: {fast: 1}
init: Idle
transitions:
  - {from: Idle, to: Busy, guard: "#Busy < 2 & #Wait = 0"}
properties:
  p: "AG #Busy[slow] <= 1"
`))
	fmt.Println(err)
	// Output:
	// two-phase with 3 processes
	// Idle -> Busy for groups [0]: #Busy < 2
	// Idle -> Busy for groups [1]: #Busy = 0 & #Idle[fast] = 0
	// Busy -> Idle for groups [0 1]: true
	// bounded: AG (#Busy <= 2)
	// bad.yaml:6:49: unknown local state "Wait" in guard of Idle -> Busy
	// bad.yaml:8:16: unknown group "slow" in property p
}

// A generator fills in a Spec and checks it with New, the same rules
// Parse applies; only the System it returns reaches the analyses.
func ExampleNew() {
	spec := &gsst.Spec{
		Name:   "pair",
		States: []string{"Idle", "Busy"},
		Groups: []gsst.Group{{Name: "p", Size: 2}},
		Init:   [][]int{{2, 0}},
	}
	free := []gsst.Block{{Groups: []int{0}, Guard: presburger.True}}
	spec.Transitions = []gsst.Transition{{From: 0, To: 1, Blocks: free}, {From: 1, To: 0, Blocks: free}}
	sys, err := gsst.New(spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sys.Name, "with", sys.N(), "processes and", len(sys.Transitions), "transitions")

	// A mistake is bad input, reported as Parse reports it.
	spec.Init = [][]int{{1, 0}}
	_, err = gsst.New(spec)
	fmt.Println(err)
	// Output:
	// pair with 2 processes and 2 transitions
	// init of group "p" places 1 processes, but the group has 2
}
