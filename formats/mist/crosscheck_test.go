package mist_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/formats/formatstest"
	"github.com/vsym/vsym/formats/mist"
	"github.com/vsym/vsym/gsst"
)

// The cross-check of an import: at small initial markings, the markings
// that mist's semantics reaches (sim_test.go) must be those that the
// imported GSST reaches, projected to places (a process place counts its
// processes, a counter place is its shared variable), on processes
// (testsupport.ProcSteps, the reference semantics of GSST) and on
// vsym's exact group-counter model (counterabs.BuildGroup, stepped with
// Model.Step); and where the marking graph is finite, the explicit
// engine's verdict on the property safe must be that the target is not
// covered. Both sides are explored breadth first to the same depth, so
// that a net whose counters grow without bound is compared on the
// markings within that depth.

const (
	maxDepth  = 40
	maxStates = 4000
)

// crossCheck checks src, which must translate; it returns the number of
// initial markings compared, and the verdict on safe (the target is not
// covered) at each of those compared in full.
func crossCheck(t *testing.T, name string, src []byte, instances int) (compared int, safe []bool) {
	t.Helper()
	imp := mist.Translate(name, src)
	sys, err := imp.System()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	f, err := mist.ParseFile(name, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sim := newNetSim(f)
	// Where each place lives in the GSST.
	state := make([]int, len(sim.places))
	shared := make([]int, len(sim.places))
	for p, pl := range sim.places {
		state[p] = slices.Index(sys.States, pl)
		shared[p] = slices.IndexFunc(sys.Shared, func(v gsst.Shared) bool { return v.Name == pl || v.Name == pl+"_" })
		if (state[p] < 0) == (shared[p] < 0) {
			t.Fatalf("%s: place %s is neither a state nor a shared variable of the import", name, pl)
		}
	}
	for _, m0 := range sim.initials(instances) {
		sizes := make([]int, len(sys.Groups))
		ok := true
		for g := range sys.Groups {
			p := slices.Index(sim.places, sys.Groups[g].Name)
			sizes[g] = int(m0[p])
			ok = ok && sys.Groups[g].Allows(sizes[g])
		}
		for p := range sim.places {
			if j := shared[p]; j >= 0 && (m0[p] < int64(sys.Shared[j].Init) || m0[p] > int64(sys.Shared[j].InitMax())) {
				ok = false
			}
			if state[p] >= 0 && m0[p] > 0 && !slices.ContainsFunc(sys.Groups, func(g gsst.Group) bool { return g.Name == sim.places[p] }) {
				ok = false
			}
		}
		if !ok {
			continue // a marking the import does not start from (not one of its instances)
		}
		inst, err := sys.Instantiate(sizes)
		if err != nil {
			t.Fatalf("%s: instance %v: %v", name, sizes, err)
		}
		// A counter that starts in a range starts at m0's value here.
		inst = startAt(t, inst, func(j int) int64 { return m0[slices.Index(shared, j)] })
		want, done := sim.reach(m0, maxDepth, maxStates)
		depth := maxDepth
		if !done {
			depth = 0
			for _, d := range want {
				depth = max(depth, d)
			}
			depth-- // the last layer may be partial
		}
		within := func(set map[string]int) map[string]bool {
			out := map[string]bool{}
			for k, d := range set {
				if d <= depth {
					out[k] = true
				}
			}
			return out
		}
		project := func(totals, sh []int) string {
			m := make([]int, len(sim.places))
			for p := range m {
				if state[p] >= 0 {
					m[p] = totals[state[p]]
				} else {
					m[p] = sh[shared[p]]
				}
			}
			return key(m)
		}
		wantSet := within(want)
		t.Logf("%s from %v: %d markings within depth %d", name, m0, len(wantSet), depth)
		procs := within(formatstest.ProcReach(inst, depth, project))
		if d := formatstest.Diff(wantSet, procs); d != "" {
			t.Errorf("%s from %v: mist's semantics and the GSST on processes differ (depth %d): %s", name, m0, depth, d)
		}
		model, err := counterabs.BuildGroup(inst)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		counters := within(formatstest.ModelReach(model, depth, project))
		if d := formatstest.Diff(wantSet, counters); d != "" {
			t.Errorf("%s from %v: mist's semantics and the group-counter model differ (depth %d): %s", name, m0, depth, d)
		}
		compared++
		if !done {
			continue
		}
		covered := false
		for k := range want {
			covered = covered || sim.covers(parseKey(k))
		}
		rep, err := explicit.Engine{}.Check(context.Background(), model)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := rep.Properties[0].Holds; got == covered {
			t.Errorf("%s from %v: the engine says safe %v, mist's semantics covers the target: %v", name, m0, got, covered)
		}
		safe = append(safe, !covered)
	}
	return compared, safe
}

func parseKey(k string) []int64 {
	var out []int64
	var x int64
	neg, any := false, false
	flush := func() {
		if any {
			if neg {
				x = -x
			}
			out = append(out, x)
		}
		x, neg, any = 0, false, false
	}
	for _, c := range k {
		switch {
		case c == ' ':
			flush()
		case c == '-':
			neg = true
		default:
			x = 10*x + int64(c-'0')
			any = true
		}
	}
	flush()
	return out
}

// TestCrossCheckTestdata cross-checks every net of testdata that
// translates.
func TestCrossCheckTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.spec")
	// testdata/initial: nets with several initial markings, which vsym
	// prove does not take yet (so not in the hand-written suite).
	initial, _ := filepath.Glob("testdata/initial/*.spec")
	files = append(files, initial...)
	if len(files) < 4 {
		t.Fatalf("found %d nets in testdata", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			compared, safe := crossCheck(t, file, src, 8)
			t.Logf("%s: %d initial markings compared, %d in full", file, compared, len(safe))
			if compared == 0 || len(safe) == 0 {
				t.Errorf("%s: compared %d initial markings, %d in full", file, compared, len(safe))
			}
		})
	}
}

// startAt returns inst with every shared variable that starts in a range
// starting at value(j) alone.
func startAt(t *testing.T, inst *gsst.System, value func(j int) int64) *gsst.System {
	t.Helper()
	if inst.SingleInitial() {
		return inst
	}
	spec := inst.Spec()
	for j := range spec.Shared {
		if v := &spec.Shared[j]; v.InitRange {
			v.Init, v.InitRange, v.InitHi = int(value(j)), false, 0
		}
	}
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("%s: %v", inst.Name, err)
	}
	return out
}
