package explore_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/nusmv"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/promela"
)

// rangedInstances returns the instances of testdata/initial/ranged.yaml,
// whose shared variables start in ranges over f, at f = 0..3.
func rangedInstances(t *testing.T) []*gsst.System {
	t.Helper()
	fam, err := gsst.Load("../testdata/initial/ranged.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var out []*gsst.System
	for f := range 4 {
		inst, err := fam.InstantiateParams([]int{f}, nil)
		if err != nil {
			t.Fatalf("f = %d: %v", f, err)
		}
		if inst.SingleInitial() {
			t.Fatalf("f = %d: one initial configuration", f)
		}
		out = append(out, inst)
	}
	return out
}

// TestRangeOverParams checks the instances of a family whose shared
// variables start in ranges over a parameter: the explicit and BDD
// engines on the group-counter model, and on the total-counter model
// where Z3 certifies it, give the verdicts of the system taken one
// initial configuration at a time on processes (eachInitial, which
// lists them from the spec's fields, apart from gsst).
func TestRangeOverParams(t *testing.T) {
	ctx := context.Background()
	solver := z3.New()
	failing, verdicts := 0, map[string]bool{}
	for _, inst := range rangedInstances(t) {
		want, _, skipped := eachInitial(t, inst)
		if skipped {
			t.Fatalf("%s: skipped", inst.Name)
		}
		gm, err := counterabs.BuildGroup(inst)
		if err != nil {
			t.Fatal(err)
		}
		tm, err := counterabs.Build(ctx, inst, solver, solver)
		if err != nil {
			t.Fatalf("%s: the total-counter model: %v", inst.Name, err)
		}
		models := []*counterabs.Model{gm, tm}
		for _, m := range models {
			for _, e := range []explore.Engine{explicit.Engine{}, symbolic.DefaultBDD()} {
				rep, err := e.Check(ctx, m, explore.Traces(false))
				if err != nil {
					t.Fatalf("%s: %s on the %s model: %v", inst.Name, e.Name(), m.Level, err)
				}
				for i, p := range rep.Properties {
					if p.Holds != want[i] {
						t.Errorf("%s: %s on the %s model: %s is %v, each initial configuration %v", inst.Name, e.Name(), m.Level, p.Name, p.Holds, want[i])
					}
				}
			}
		}
		t.Logf("%s: %v", inst.Name, want)
		for _, w := range want {
			if !w {
				failing++
			}
		}
		verdicts[fmt.Sprint(want)] = true
	}
	if failing == 0 || len(verdicts) < 2 {
		t.Errorf("%d failing verdicts, %d sets of verdicts over the instances: the ranges decide too little", failing, len(verdicts))
	}
}

// TestNuSMVRangeOverParams runs the real NuSMV (NUSMV) on the
// group-counter and concrete models of the instances of testdata/initial/ranged.yaml and
// compares its verdicts with the instances' taken one initial
// configuration at a time.
func TestNuSMVRangeOverParams(t *testing.T) {
	bin := os.Getenv("NUSMV")
	if bin == "" {
		t.Skip("NUSMV is not set: set it to a NuSMV 2.6 binary to run the emitted models through it")
	}
	compared := 0
	for _, inst := range rangedInstances(t) {
		want, _, _ := eachInitial(t, inst)
		gm, err := counterabs.BuildGroup(inst)
		if err != nil {
			t.Fatal(err)
		}
		reduced, err := nusmv.Reduced(gm)
		if err != nil {
			t.Fatal(err)
		}
		concrete, err := nusmv.Concrete(inst)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{reduced, concrete} {
			got := runNuSMV(t, bin, text, "-df")
			for i, p := range inst.Properties {
				g, ok := got[p.Name]
				if !ok {
					t.Fatalf("%s: no verdict for %s from NuSMV\n%s", inst.Name, p.Name, text)
				}
				compared++
				if g != want[i] {
					t.Errorf("%s: %s: NuSMV says %v, each initial configuration %v\n%s", inst.Name, p.Name, g, want[i], text)
				}
			}
		}
	}
	t.Logf("%d verdicts compared", compared)
}

// TestRangeNoGreatestRefused checks that every stage that works at an
// instance refuses a shared variable starting at any value from its
// least up, with gsst's error at the range's position (FiniteInitial),
// and that the instance up to a value (InitialsUpTo) is taken.
func TestRangeNoGreatestRefused(t *testing.T) {
	src := `name: open
shared:
  x: {type: "0..", init: "1.."}
states: [A, B]
groups: {p: 2}
init: A
transitions:
  - {from: A, to: B, guard: "x >= 2"}
properties:
  never: "AG #B = 0"
`
	sys, err := gsst.Parse("open.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := sys.FiniteInitial()
	if want == nil || errkind.Of(want) != errkind.Input {
		t.Fatalf("FiniteInitial = %v", want)
	}
	const at = "open.yaml:3:26: "
	if got := want.Error(); got[:len(at)] != at {
		t.Errorf("the refusal %q is not at %s", got, at)
	}
	solver := z3.New()
	stages := map[string]func() error{
		"group-counter model": func() error { _, err := counterabs.BuildGroup(sys); return err },
		"total-counter model": func() error { _, err := counterabs.Build(context.Background(), sys, solver, solver); return err },
		"concrete NuSMV":      func() error { _, err := nusmv.Concrete(sys); return err },
		"concrete Promela":    func() error { _, err := promela.Concrete(sys); return err },
	}
	for name, stage := range stages {
		if err := stage(); err == nil || err.Error() != want.Error() {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
	capped := sys.InitialsUpTo(2)
	gm, err := counterabs.BuildGroup(capped)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explicit.Engine{}.Check(context.Background(), gm, explore.Traces(false))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Properties[0].Holds {
		t.Error("never holds with x starting at 2")
	}
}
