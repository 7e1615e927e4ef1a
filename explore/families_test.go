package explore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/specs"
)

// TestFamilies runs the bundled specifications and small members of the
// GR&W and ASR families through the whole pipeline (parse, Build with
// Z3, both explicit modes) and checks them against the naive explorer:
// concrete mode against the group quotient of the naive run, abstract
// mode (for certified systems) against its total-counter quotient.
func TestFamilies(t *testing.T) {
	if testing.Short() {
		t.Skip("uses Z3")
	}
	type input struct {
		name string
		src  func() ([]byte, error)
	}
	var inputs []input
	for _, name := range specs.List() {
		name := name
		inputs = append(inputs, input{name, func() ([]byte, error) { return specs.Read(name) }})
	}
	for _, p := range [][3]int{{2, 2, 4}, {3, 1, 5}, {1, 4, 3}} {
		p := p
		inputs = append(inputs, input{fmt.Sprintf("grw-%v", p), func() ([]byte, error) { return specs.GRW(p[0], p[1], p[2]) }})
	}
	for _, p := range [][3]int{{4, 2, 2}, {5, 2, 1}, {3, 3, 1}} {
		p := p
		inputs = append(inputs, input{fmt.Sprintf("asr-%v", p), func() ([]byte, error) { return specs.ASR(p[0], p[1], p[2]) }})
	}
	solver := z3.New(z3.Timeout(20 * time.Second))
	t.Logf("%d systems: concrete mode against the naive group quotient, abstract mode of certified ones against the total quotient", len(inputs))
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			src, err := in.src()
			if err != nil {
				t.Fatal(err)
			}
			sys, err := gsst.Parse(in.name, src)
			if err != nil {
				t.Fatal(err)
			}
			group, conf := processes(sys)
			naive := naiveConcrete(sys, group, [][]int{conf})
			gq := quotient(naive, func(i int) string { return groupKey(sys, group, naive.conf[i]) })
			crep, err := checkConcrete(context.Background(), sys)
			if err != nil {
				t.Fatal(err)
			}
			if crep.ReachableStates.Int64() != int64(len(gq.label)) {
				t.Errorf("concrete: %v states, naive %d", crep.ReachableStates, len(gq.label))
			}
			var st traceStats
			checkVerdicts(t, "concrete", sys, crep, gq, concreteKey, &st)

			_, cert := bruteModel(sys)
			var opts []counterabs.Option
			if !cert {
				opts = append(opts, counterabs.Force())
			}
			am, err := counterabs.Build(context.Background(), sys, solver, solver, opts...)
			if err != nil {
				t.Fatal(err)
			}
			arep, err := checkAbstract(context.Background(), am)
			if err != nil {
				t.Fatal(err)
			}
			if !cert {
				if arep.Exact {
					t.Error("uncertified system explored as exact")
				}
				return
			}
			tq := quotient(naive, func(i int) string { return fmt.Sprint(naive.totals[i]) })
			if arep.ReachableStates.Int64() != int64(len(tq.label)) || arep.Deadlocks.Int64() != int64(countTrue(tq.dead)) {
				t.Errorf("abstract: %v states %v deadlocks; concrete quotient %d, %d",
					arep.ReachableStates, arep.Deadlocks, len(tq.label), countTrue(tq.dead))
			}
			checkVerdicts(t, "abstract", sys, arep, tq, abstractKey, &st)
			t.Logf("%s: %v canonical, %v configurations, %v counter vectors; %d traces",
				sys.Name, crep.ReachableStates, crep.ConcreteStates, arep.ReachableStates, st.traces)
		})
	}
}
