package promela

import (
	"fmt"
	"testing"

	"github.com/vsym/vsym/gsst"
)

// TestSpinRangeOverParams runs the real Spin on the exports of the
// instances of testdata/initial/ranged.yaml, whose shared variables start
// in ranges over the parameter f (each instance folds them to integer
// ranges, which init chooses among), and compares every claim's verdict
// with vsym's explicit engine on the counter model; the engines are
// checked against the instances taken one initial configuration at a
// time in explore (TestRangeOverParams). -short: the concrete model at
// f = 2 only.
func TestSpinRangeOverParams(t *testing.T) {
	requireSpin(t)
	fam, err := gsst.Load("../testdata/initial/ranged.yaml")
	if err != nil {
		t.Fatal(err)
	}
	values, kinds := []int{0, 1, 2, 3}, []int{0, 1, 3} // randomCase: concrete, group, total
	if testing.Short() {
		values, kinds = []int{2}, []int{0}
	}
	st := &crossStats{models: map[string]int{}}
	for _, f := range values {
		inst, err := fam.InstantiateParams([]int{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range kinds {
			c, err := randomCase(inst, i)
			if err != nil {
				t.Fatalf("f = %d: %v", f, err)
			}
			c.states = -1 // the exports add the states before the choice
			st.models[c.kind]++
			t.Run(fmt.Sprintf("f=%d-%s", f, c.kind), func(t *testing.T) { checkWithSpin(t, c, st) })
		}
	}
	if st.claims == 0 || st.models["concrete"] == 0 {
		t.Errorf("nothing compared: %v, %d claims", st.models, st.claims)
	}
	t.Logf("models %v, %d claims compared", st.models, st.claims)
}
