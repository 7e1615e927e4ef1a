package promela

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
)

// TestSpinInitialSets runs the real Spin on both exports of random
// systems with several initial configurations (groups spread over
// several initial states, shared variables starting in a range) and
// compares every exported claim's verdict with vsym's explicit engine
// on the counter model, which starts from all of them (its engines are
// cross-checked one initial configuration at a time in explore). The
// states are not compared: the exports add the states before the choice.
// No existential property is exported (initial.go).
func TestSpinInitialSets(t *testing.T) {
	requireSpin(t)
	// -short: 6 systems still export every kind of model (concrete,
	// group, total) with safety and liveness claims; Spin checks the
	// models that add a kind of model or a construct (constructs.first).
	systems := 40
	if testing.Short() {
		systems = 6
	}
	r := rand.New(rand.NewSource(30))
	cfg := randomConfig
	cfg.Want = testsupport.InitialSets
	cfg.May = testsupport.SharedVars
	st := &crossStats{models: map[string]int{}}
	spun := &constructs{}
	t.Run("systems", func(t *testing.T) {
		for i := 0; i < systems; i++ {
			sys := testsupport.RandomSystem(r, cfg)
			if sys.SingleInitial() {
				t.Fatalf("system %d: one initial configuration", i)
			}
			c, err := randomCase(sys, i)
			if err != nil {
				t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
			}
			if !strings.Contains(c.prog.Text, "started") {
				t.Fatalf("system %d: the %s model does not choose its initial state\n%s", i, c.kind, c.prog.Text)
			}
			c.states = -1
			if !spun.first(c.kind, sys) {
				continue
			}
			st.models[c.kind]++
			t.Run(fmt.Sprintf("%d-%s", i, c.kind), func(t *testing.T) {
				t.Parallel()
				defer func() {
					if t.Failed() {
						t.Log(testsupport.Describe(sys))
					}
				}()
				checkWithSpin(t, c, st)
			})
		}
	})
	t.Logf("models through Spin %v; %d claims compared (%d existential, %d safety, %d liveness), %d properties not exported",
		st.models, st.claims, st.existential, st.safety, st.liveness, st.skipped)
	if st.models["concrete"] == 0 || st.claims < spun.ran || st.safety == 0 || st.liveness == 0 || st.existential != 0 {
		t.Errorf("too few comparisons of some kind: %v, %d claims", st.models, st.claims)
	}
}
