package explore_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/internal/testsupport/pickmodel"
	"github.com/vsym/vsym/nusmv"
	"github.com/vsym/vsym/presburger/z3"
)

// TestInitialSetsDecompose checks both engines on systems with several
// initial configurations (groups spread over initial states, shared
// variables starting in a range) against the same systems taken one
// initial configuration at a time (testsupport.EachInitial, which lists
// them apart from gsst): a property holds exactly when it holds from
// each, a deadlock is reachable exactly when one is from some, and a
// trace starts in one of them.
func TestInitialSetsDecompose(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewSource(30))
	cfg := testsupport.Small(testsupport.InitialSets, testsupport.SharedVars)
	cfg.Properties = 3
	// Unbounded shared variables may grow forever: such systems are
	// skipped.
	const maxStates = 5000
	runs, multi, failing, skipped, totals := 0, 0, 0, 0, 0
	solver := z3.New()
	for k := 0; k < 60; k++ {
		sys := testsupport.RandomSystem(r, cfg)
		if sys.SingleInitial() {
			t.Fatalf("system %d: InitialSets drew one initial configuration", k)
		}
		m, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatalf("system %d: %v", k, err)
		}
		if len(m.Starts()) > 1 {
			multi++
		}
		want, wantDead, limited := eachInitial(t, sys)
		if limited {
			skipped++
			continue
		}
		// The group-counter model always; the total-counter model too
		// when the system is fully virtually symmetric, decided on its
		// processes (its initial states are the totals of the initial
		// configurations).
		models := []*counterabs.Model{m}
		if testsupport.FullSymmetry(sys, 4).Symmetric {
			tm, err := counterabs.Build(ctx, sys, solver, solver)
			if err != nil {
				t.Fatalf("system %d: %v", k, err)
			}
			models = append(models, tm)
			totals++
		}
		for run := range 2 * len(engines()) {
			ei, m := run%len(engines()), models[min(run/len(engines()), len(models)-1)]
			if run >= len(engines()) && len(models) == 1 {
				break
			}
			eng := engines()[ei]
			opts := append([]explore.Option{explore.CheckDeadlocks(true), explore.MaxStates(maxStates)}, engineOptions[ei]...)
			rep, err := eng.Check(ctx, m, opts...)
			if errors.Is(err, errkind.Limit) {
				// Each initial configuration's space fits, but not
				// their union.
				continue
			}
			if err != nil {
				t.Fatalf("system %d, engine %d: %v", k, ei, err)
			}
			runs++
			for i, p := range rep.Properties {
				if p.Holds != want[i] {
					t.Errorf("system %d, engine %d: property %s holds = %v, but %v from each initial configuration\n%s",
						k, ei, sys.Properties[i].Text, p.Holds, want[i], testsupport.Describe(sys))
				}
				if !p.Holds {
					failing++
				}
				if tr := p.Trace; tr != nil && len(tr.States) > 0 && !startsInitially(m, tr.States[0]) {
					t.Errorf("system %d, engine %d: the trace of %s starts in %v, no initial state", k, ei, sys.Properties[i].Name, tr.States[0])
				}
			}
			if rep.DeadlockFree != nil && !*rep.DeadlockFree != wantDead {
				t.Errorf("system %d, engine %d: deadlock reachable = %v, from some initial configuration %v", k, ei, !*rep.DeadlockFree, wantDead)
			}
		}
	}
	t.Logf("%d systems (%d skipped), %d with several initial states, %d total-counter models, %d engine runs, %d failing verdicts", 60, skipped, multi, totals, runs, failing)
	if multi < 30 || failing == 0 || runs < 60 || skipped > 20 || totals < 5 {
		t.Fatalf("only %d of the models had several initial states, %d failing verdicts in %d runs, %d systems skipped, %d total-counter models", multi, failing, runs, skipped, totals)
	}
}

// startsInitially reports whether s is one of m's initial states.
func startsInitially(m *counterabs.Model, s explore.State) bool {
	for _, x := range m.Starts() {
		if reflect.DeepEqual(explore.CounterState(m, x), s) {
			return true
		}
	}
	return false
}

// eachInitial returns sys's verdicts taken one initial configuration at
// a time (testsupport.EachInitial, which lists them apart from gsst),
// each decided on the process-level state space (testsupport.Procs,
// CTL by textbook fixpoints): whether each property holds from all of
// them, and whether a deadlock is reachable from some. A system with an
// unbounded shared variable, whose space may be infinite, is skipped
// (skipped true).
func eachInitial(t *testing.T, sys *gsst.System) (want []bool, dead, skipped bool) {
	t.Helper()
	if slices.ContainsFunc(sys.Shared, func(v gsst.Shared) bool { return v.Unbounded }) {
		return nil, false, true
	}
	ones, err := testsupport.EachInitial(sys)
	if err != nil {
		t.Fatalf("%s: %v", sys.Name, err)
	}
	want = make([]bool, len(sys.Properties))
	for i := range want {
		want[i] = true
	}
	for _, one := range ones {
		if !one.SingleInitial() {
			t.Fatalf("%s: EachInitial gave a system with several initial configurations", sys.Name)
		}
		sp := testsupport.Procs(one, 0)
		for i, p := range one.Properties {
			want[i] = want[i] && testsupport.Holds(sp.Graph, p.Formula)
		}
		dead = dead || sp.Deadlocks() > 0
	}
	return want, dead, false
}

// TestNuSMVInitialSets runs the real NuSMV (NUSMV) on the group-counter
// and concrete models of random systems with several initial
// configurations (an INIT constraint; a set of initial states per
// process, a range per shared variable) and compares its verdicts with
// the systems' taken one initial configuration at a time.
func TestNuSMVInitialSets(t *testing.T) {
	bin := os.Getenv("NUSMV")
	if bin == "" {
		t.Skip("NUSMV is not set: set it to a NuSMV 2.6 binary to run the emitted models through it")
	}
	r := rand.New(rand.NewSource(301))
	cfg := testsupport.Small(testsupport.InitialSets, testsupport.SharedVars)
	cfg.Properties = 3
	// Each query bounded by work, as analysis bounds them.
	solver := z3.New(z3.Work(50_000_000))
	compared, systems, totals := 0, 0, 0
	for k := 0; k < 40; k++ {
		cfg.Name = fmt.Sprintf("init%d", k)
		sys := testsupport.RandomSystem(r, cfg)
		want, _, skipped := eachInitial(t, sys)
		if skipped {
			continue // the concrete export bounds unbounded variables
		}
		gm, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		reduced, err := nusmv.Reduced(gm)
		if err != nil {
			t.Fatal(err)
		}
		concrete, err := nusmv.Concrete(sys)
		if err != nil {
			t.Fatal(err)
		}
		models := []struct {
			what, text string
			sys        *gsst.System
			want       []bool
		}{{"group-counter model", reduced, sys, want}, {"concrete model", concrete, sys, want}}
		// The total-counter model, where Z3 certifies the system (every
		// other one, with its properties over totals only): its INIT sums
		// the group counters away (counterabs.Model.InitialFormula).
		if tsys, tm, total, err := pickmodel.Pick(sys, k|1, solver); err != nil {
			t.Fatal(err)
		} else if total {
			text, err := nusmv.Reduced(tm)
			if err != nil {
				t.Fatal(err)
			}
			twant, _, _ := eachInitial(t, tsys)
			models = append(models, struct {
				what, text string
				sys        *gsst.System
				want       []bool
			}{"total-counter model", text, tsys, twant})
			totals++
		}
		systems++
		for _, m := range models {
			got := runNuSMV(t, bin, m.text, "-df")
			for i, p := range m.sys.Properties {
				g, ok := got[p.Name]
				if !ok {
					t.Fatalf("%s: %s: no verdict for %s from NuSMV\n%s", sys.Name, m.what, p.Name, m.text)
				}
				compared++
				if g != m.want[i] {
					t.Errorf("%s: %s: property %s: NuSMV says %v, each initial configuration %v\n%s\n%s", sys.Name, m.what, p.Name, g, m.want[i], testsupport.Describe(m.sys), m.text)
				}
			}
		}
	}
	if compared < 100 || totals < 5 {
		t.Errorf("only %d verdicts compared, %d total-counter models", compared, totals)
	}
	t.Logf("%d verdicts compared, on %d systems' models (%d total-counter ones)", compared, systems, totals)
}
