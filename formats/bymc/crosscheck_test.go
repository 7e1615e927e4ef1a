package bymc_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/formats/formatstest"
	"github.com/vsym/vsym/gsst"
)

// The cross-check of an import: for small values of the parameters, the
// configurations that the automaton's own semantics reaches
// (sim_test.go) must be those that the imported GSST reaches, projected
// to locations and shared variables, on processes
// (testsupport.ProcSteps) and on the group-counter model
// (counterabs.BuildGroup, stepped with Model.Step); and every
// specification's verdict by ByMC's meaning, decided on the automaton's
// configuration graph, must be the explicit engine's on the property it
// became.

// crossCheck checks src, which must translate, at every assignment of
// 0..most to the parameters that meets the assumptions and makes the
// group's size at least 1; it returns the number of instances checked.
func crossCheck(t *testing.T, name string, src []byte, most int) int {
	return crossCheckUpTo(t, name, src, most, 20000, 0)
}

// crossCheckUpTo is crossCheck with a bound on the configurations of an
// instance, limit, beyond which the check fails; or, when enough is
// positive, stops after enough instances and passes over those beyond
// the bound.
func crossCheckUpTo(t *testing.T, name string, src []byte, most, limit, enough int) int {
	t.Helper()
	imp := bymc.Translate(name, src)
	sys, err := imp.System()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	f, err := bymc.ParseFile(name, src)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	values := make([]int, len(sys.Params))
	var rec func(k int)
	rec = func(k int) {
		if enough > 0 && checked == enough {
			return
		}
		if k < len(values) {
			for v := 0; v <= most; v++ {
				values[k] = v
				rec(k + 1)
			}
			return
		}
		inst, err := sys.InstantiateParams(values, nil)
		if err != nil {
			return // outside the assumptions, or no process
		}
		params := map[string]int64{}
		for i, p := range sys.Params {
			params[p.Name] = int64(values[i])
		}
		sim := newTASim(f, params)
		for _, a := range f.Assumptions {
			if !sim.holds(a, nil) {
				t.Fatalf("%s with %v: the GSST takes values its assumptions refuse", name, params)
			}
		}
		inits := sim.initials(int64(inst.N()))
		// A shared variable the inits leave free starts at any natural
		// number: up to N, as in the simulation.
		inst = inst.InitialsUpTo(inst.N())
		g, done := sim.explore(inits, limit)
		switch {
		case !done && enough > 0:
			return
		case !done:
			t.Fatalf("%s with %v: more than %d configurations", name, params, limit)
		}
		distinct := map[string]bool{}
		for _, c := range inits {
			distinct[fmt.Sprint(c)] = true
		}
		checkInstance(t, fmt.Sprintf("%s with %v", name, params), sim, g, len(distinct), inst)
		checked++
	}
	rec(0)
	return checked
}

// checkInstance compares the automaton's configuration graph g, whose
// first ninit states are its initial configurations, with inst.
func checkInstance(t *testing.T, name string, sim *taSim, g *graph, ninit int, inst *gsst.System) {
	t.Helper()
	locs := make([]int, len(sim.locs))
	for i, l := range sim.locs {
		locs[i] = slices.Index(inst.States, l)
	}
	shared := make([]int, len(sim.shared))
	for j, v := range sim.shared {
		shared[j] = slices.IndexFunc(inst.Shared, func(s gsst.Shared) bool { return s.Name == v || s.Name == v+"_" })
	}
	confs, err := inst.Initials()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// The processes the translation leaves out (translate.go:
	// withoutInert) stay in their location: where the automaton starts
	// with a fixed number and the GSST with another, the difference is
	// added to the GSST's counter in every configuration. Nothing else
	// is excused: were those processes to move, or a specification to
	// read the location, the graphs or the verdicts below would differ.
	offset := make([]int, len(locs))
	for i, s := range locs {
		a, b := map[int64]bool{}, map[int]bool{}
		for _, c := range g.states[:ninit] {
			a[c[i]] = true
		}
		for _, c := range confs {
			b[c.Totals(len(inst.States))[s]] = true
		}
		if len(a) == 1 && len(b) == 1 {
			for x := range a {
				for y := range b {
					offset[i] = int(x) - y
				}
			}
		}
	}
	project := func(totals, sh []int) string {
		c := make([]int, 0, len(locs)+len(shared))
		for i, s := range locs {
			c = append(c, totals[s]+offset[i])
		}
		for _, j := range shared {
			c = append(c, sh[j])
		}
		return fmt.Sprint(c)
	}
	want := map[string]bool{}
	for _, c := range g.states {
		want[fmt.Sprint(c)] = true
	}
	// The initial configurations: the automaton's, and the GSST's
	// projected (its listing is gsst's, the reach below is not).
	wantInit, gotInit := map[string]bool{}, map[string]bool{}
	for _, c := range g.states[:ninit] {
		wantInit[fmt.Sprint(c)] = true
	}
	for _, c := range confs {
		gotInit[project(c.Totals(len(inst.States)), c.Shared)] = true
	}
	if d := formatstest.Diff(wantInit, gotInit); d != "" {
		t.Errorf("%s: the initial configurations of the automaton and the GSST differ: %s", name, d)
	}
	// On processes, and on the group-counter model, to any depth: the
	// graph of the automaton is finite.
	procs := map[string]bool{}
	for k := range formatstest.ProcReach(inst, 1<<30, project) {
		procs[k] = true
	}
	if d := formatstest.Diff(want, procs); d != "" {
		t.Errorf("%s: the automaton and the GSST on processes differ: %s", name, d)
	}
	m, err := counterabs.BuildGroup(inst)
	if err != nil {
		t.Fatal(err)
	}
	model := map[string]bool{}
	for k := range formatstest.ModelReach(m, 1<<30, project) {
		model[k] = true
	}
	if d := formatstest.Diff(want, model); d != "" {
		t.Errorf("%s: the automaton and the group-counter model differ: %s", name, d)
	}
	// The verdicts.
	rep, err := explicit.Engine{}.Check(context.Background(), m)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(rep.Properties) != len(inst.Properties) {
		t.Fatalf("%s: %d verdicts for %d properties", name, len(rep.Properties), len(inst.Properties))
	}
	for i, p := range inst.Properties {
		k := slices.IndexFunc(sim.f.Specs, func(sp *bymc.Spec) bool { return sp.Name.Name == p.Name })
		if k < 0 {
			t.Fatalf("%s: property %s is no specification of the automaton", name, p.Name)
		}
		want := true
		for init := range ninit {
			want = want && sim.specHolds(g, init, sim.f.Specs[k].X)
		}
		if got := rep.Properties[i].Holds; got != want {
			t.Errorf("%s: specification %s: the engine says %v, ByMC's meaning %v", name, p.Name, got, want)
		}
	}
}

func TestCrossCheckTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.ta")
	if len(files) < 4 {
		t.Fatalf("found %d automata in testdata", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if n := crossCheck(t, file, src, 5); n < 2 {
				t.Errorf("%d instances checked", n)
			}
		})
	}
}
