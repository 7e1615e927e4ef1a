package prove_test

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/prove"
)

// TestLinearInvariantsHold: every linear invariant prove reads off the
// steps of a random system with shared variables, parameters,
// broadcasts and rendezvous (constructs_random_test.go) holds in every
// configuration that exploring its instances reaches, by the language's
// semantics; and each group's processes summing to its size is among
// them (the test is not vacuous), so every system has at least one
// invariant per group, and at least one defines a variable.
func TestLinearInvariantsHold(t *testing.T) {
	r := rand.New(rand.NewSource(29))
	systems := 150
	if testing.Short() {
		systems = 40
	}
	total, defining := 0, 0
	for i := range systems {
		sys := testsupport.RandomSystem(r, constructsConfig(i))
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		invs, pivots := prove.LinearInvariants(m)
		if len(invs) < len(sys.Groups) || pivots == 0 {
			t.Errorf("system %d: %d linear invariants (%d define a variable), want at least one per group (%d)\n%s",
				i, len(invs), pivots, len(sys.Groups), testsupport.Describe(sys))
		}
		total, defining = total+len(invs), defining+pivots
		for _, inst := range testsupport.Instances(sys, extParamMax, extSizeMax) {
			for _, st := range explore(sys, inst) {
				val := modelValuation(m, inst, st)
				for _, f := range invs {
					if !presburger.Eval(f, val) {
						t.Fatalf("system %d at %v, state %s: invariant %s fails\n%s",
							i, inst, st.key(), m.FormatFormula(f), testsupport.Describe(sys))
					}
				}
			}
		}
	}
	t.Logf("%d systems: %d linear invariants, %d defining a variable", systems, total, defining)
}

// TestLinearInvariantsKnown: the invariants of small specs, as printed.
// A guard that fixes a shared variable makes an assignment an increment
// (lock := true under !lock adds one), so the lock is the number of
// processes in C when leaving C tests it; without that test, leaving
// sets the lock whatever it was, and no invariant reads it.
func TestLinearInvariantsKnown(t *testing.T) {
	const lock = `name: lock
states: [N, C]
groups:
  p: 1..
shared:
  lock: {type: bool, init: false}
init: N
transitions:
  - {from: N, to: C, guard: "!lock", update: "lock := true"}
  - {from: C, to: N%s, update: "lock := false"}
properties:
  mutex: "AG #C <= 1"
`
	for _, tc := range []struct {
		name, guard string
		want        []string
	}{
		{"tested", `, guard: "lock"`, []string{"#N[p] + #C[p] - |p| = 0", "#N[p] - |p| + lock = 0"}},
		{"untested", ``, []string{"#N[p] + #C[p] - |p| = 0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := load(t, "lock.yaml", []byte(fmt.Sprintf(lock, tc.guard)))
			m, err := counterabs.BuildParamGroup(sys)
			if err != nil {
				t.Fatal(err)
			}
			invs, _ := prove.LinearInvariants(m)
			var got []string
			for _, f := range invs {
				got = append(got, presburger.Format(f, m.VarName))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
