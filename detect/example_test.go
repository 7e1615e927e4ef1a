package detect_test

import (
	"context"
	"fmt"
	"log"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// The reader's guard "#C = 0 & #T = 2" (section 4.3 of the paper) makes
// T -> C depend on who is trying, not only on how many: with one process
// in T, a writer may enter C but the reader may not.
func ExampleCertify() {
	src := `
states: [N, T, C]
groups: {reader: 1, writer: 2}
init: N
transitions:
  - {from: N, to: T}
  - from: T
    to: C
    guard: {reader: "#C = 0 & #T = 2", writer: "#C = 0"}
  - {from: C, to: N}
`
	sys, err := gsst.Parse("broken.yaml", []byte(src))
	if err != nil {
		log.Fatal(err)
	}
	rep, err := detect.Certify(context.Background(), sys, z3.New())
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range rep.Transitions {
		fmt.Printf("%s: %v\n", sys.TransitionName(t.Transition), t.Verdict)
		if w := t.Witness; w != nil {
			// The two configurations differ per group but agree on
			// every total counter.
			for s, name := range sys.States {
				fmt.Printf("  #%s = %d\n", name, w.Enabled[0][s]+w.Enabled[1][s])
			}
			fmt.Printf("  %s can move in the first, nobody in the second\n", sys.Groups[w.Group].Name)
		}
	}
	fmt.Println("system:", rep.Verdict())
	// Output:
	// N -> T: symmetric
	// T -> C: violated
	//   #N = 2
	//   #T = 1
	//   #C = 0
	//   writer can move in the first, nobody in the second
	// C -> N: symmetric
	// system: violated
}

// Domain writes Dom(R_r) over variables of the caller's choice; here over
// the system's own counters, where it can be printed.
func ExampleDomain() {
	src := `
states: [N, T, C]
groups: {reader: 1, writer: 2}
init: N
transitions:
  - from: T
    to: C
    guard: {reader: "#C = 0 & #T[writer] = 0", writer: "#C = 0"}
`
	sys, err := gsst.Parse("rw.yaml", []byte(src))
	if err != nil {
		log.Fatal(err)
	}
	t := &sys.Transitions[0]
	phi := detect.Domain(sys, t, detect.Counters{
		Group: func(s, g int) presburger.Term { return presburger.VarTerm(sys.GroupVar(s, g)) },
		Total: func(s int) presburger.Term { return presburger.VarTerm(sys.TotalVar(s)) },
	})
	fmt.Println(presburger.Format(phi, sys.VarName))
	// Output:
	// #T[reader] >= 1 & #C = 0 & #T[writer] = 0 | #T[writer] >= 1 & #C = 0
}
