package testsupport_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/nusmv"
	"github.com/vsym/vsym/presburger"
)

// TestOneCheckpoint feeds every entry point that takes a system built by
// other means than the parser the same malformed systems, and requires
// from each the error of gsst's one checkpoint, System.Check: the same
// message and errkind.Input. The entry points are the producers of
// everything downstream: certification (detect.Certify), the counter
// models (counterabs.Build, BuildGroup, Assemble, BuildParam,
// BuildParamGroup) and the concrete NuSMV model (nusmv.Concrete). The
// engines (explicit.Engine, symbolic.BDD) and nusmv.Reduced take only
// models, which these refuse to build, so a malformed system reaches them
// through no path.
func TestOneCheckpoint(t *testing.T) {
	good := func() *gsst.System {
		return testsupport.Parse("rw.yaml", testsupport.ReadersWritersYAML(1, 2, false)+"properties:\n  mutex: \"AG #C <= 1\"\n")
	}
	bad := []struct {
		name string
		edit func(s *gsst.System)
	}{
		{"bad init", func(s *gsst.System) { s.Init[1] = []int{1, 0, 0} }},
		{"oversized system", func(s *gsst.System) {
			s.Groups[1].Size = gsst.MaxProcesses
			s.Init[1] = []int{gsst.MaxProcesses, 0, 0}
		}},
		{"transition out of range", func(s *gsst.System) { s.Transitions[2].To = 7 }},
		{"property with a stray variable", func(s *gsst.System) {
			s.Properties[0].Formula = ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Compare(presburger.VarTerm(99), presburger.Le, presburger.ConstTerm(1))}}
		}},
	}
	ctx := context.Background()
	solver := presburger.BruteForce{}
	paths := []struct {
		name string
		run  func(sys *gsst.System) error
	}{
		{"detect.Certify", func(sys *gsst.System) error { _, err := detect.Certify(ctx, sys, solver); return err }},
		{"counterabs.Build", func(sys *gsst.System) error {
			_, err := counterabs.Build(ctx, sys, solver, testsupport.Projector{})
			return err
		}},
		{"counterabs.Build (Force)", func(sys *gsst.System) error {
			_, err := counterabs.Build(ctx, sys, solver, testsupport.Projector{}, counterabs.Force())
			return err
		}},
		{"counterabs.BuildGroup", func(sys *gsst.System) error { _, err := counterabs.BuildGroup(sys); return err }},
		{"counterabs.Assemble", func(sys *gsst.System) error {
			_, err := counterabs.Assemble(sys, counterabs.TotalLevel, nil, true)
			return err
		}},
		{"counterabs.BuildParam", func(sys *gsst.System) error { _, err := counterabs.BuildParam(ctx, sys, solver); return err }},
		{"counterabs.BuildParamGroup", func(sys *gsst.System) error { _, err := counterabs.BuildParamGroup(sys); return err }},
		{"nusmv.Concrete", func(sys *gsst.System) error { _, err := nusmv.Concrete(sys); return err }},
	}
	for _, p := range paths {
		if err := p.run(good()); err != nil {
			t.Fatalf("%s refuses the good system: %v", p.name, err)
		}
	}
	for _, b := range bad {
		sys := good()
		b.edit(sys)
		want := sys.Check()
		if want == nil || !errors.Is(want, errkind.Input) {
			t.Fatalf("%s: the checkpoint says %v", b.name, want)
		}
		for _, p := range paths {
			err := p.run(sys)
			switch {
			case err == nil:
				t.Errorf("%s: %s accepts it", b.name, p.name)
			case err.Error() != want.Error() || !errors.Is(err, errkind.Input):
				t.Errorf("%s: %s says %q (input: %v), the checkpoint %q", b.name, p.name, err, errors.Is(err, errkind.Input), want)
			}
		}
		t.Logf("%s: %v", b.name, want)
	}
}
