package gsst_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

const shapeSrc = `
name: two-phase
states: [Idle, Busy]
groups: {fast: 1, slow: 2}
init: Idle
transitions:
  - from: Idle
    to: Busy
    guard:
      fast: "#Busy < 2"
      slow: "#Busy = 0 & #Idle[fast] = 0"
  - {from: Busy, to: Idle}
properties:
  calm: "AG #Busy <= 2"
`

// TestCheck checks that a parsed system passes and that each malformation
// of a hand-edited copy is reported, as bad input.
func TestCheck(t *testing.T) {
	load := func(t *testing.T) *gsst.System {
		sys, err := gsst.Parse("two-phase.yaml", []byte(shapeSrc))
		if err != nil {
			t.Fatal(err)
		}
		return sys
	}
	if err := load(t).Check(); err != nil {
		t.Fatalf("parsed system rejected: %v", err)
	}
	var nilSys *gsst.System
	if err := nilSys.Check(); err == nil {
		t.Error("nil system accepted")
	}
	tests := []struct {
		name string
		edit func(s *gsst.System)
		want string
	}{
		{"negative size", func(s *gsst.System) { s.Groups[0].Size = -1 }, "group fast has size -1"},
		{"too many", func(s *gsst.System) { s.Groups[0].Size, s.Groups[1].Size = gsst.MaxProcesses, 1 }, "exceed the limit"},
		{"state out of range", func(s *gsst.System) { s.Transitions[1].To = 2 }, "transition 1 has a state out of range"},
		{"negative state", func(s *gsst.System) { s.Transitions[0].From = -1 }, "transition 0 has a state out of range"},
		{"group out of range", func(s *gsst.System) { s.Transitions[0].Blocks[0].Groups = []int{2} }, "group 2 out of range"},
		{"group in two blocks", func(s *gsst.System) { s.Transitions[0].Blocks[1].Groups = []int{0} }, "group fast is in two blocks"},
		{"nil guard", func(s *gsst.System) { s.Transitions[0].Blocks[0].Guard = nil }, "missing guard"},
		{"self-loop", func(s *gsst.System) { s.Transitions[1].To = 1 }, "self-loop Busy -> Busy"},
		{"quantified guard", func(s *gsst.System) {
			s.Transitions[1].Blocks[0].Guard = presburger.Exists{Vars: []presburger.Bound{{Var: 50, Lo: 0, Hi: 1}}, Body: presburger.True}
		}, "has a quantifier"},
		{"init rows", func(s *gsst.System) { s.Init = s.Init[:1] }, "initial configuration has 1 groups, want 2"},
		{"init columns", func(s *gsst.System) { s.Init[1] = []int{2} }, "group slow has 1 states, want 2"},
		{"init negative", func(s *gsst.System) { s.Init[1] = []int{3, -1} }, "initial count -1 of group slow"},
		{"init sum", func(s *gsst.System) { s.Init[0] = []int{0, 0} }, "group fast sum to 0, want its size 1"},
		{"no formula", func(s *gsst.System) { s.Properties[0].Formula = nil }, "property calm has no formula"},
		{"bad operator", func(s *gsst.System) {
			s.Properties[0].Formula = ctl.Unary{Op: 99, X: ctl.Atom{P: presburger.True}}
		}, "unknown temporal operator 99"},
		{"stray property variable", func(s *gsst.System) {
			s.Properties[0].Formula = ctl.Atom{P: presburger.Compare(presburger.VarTerm(-3), presburger.Eq, presburger.ConstTerm(0))}
		}, "property calm uses variable -3"},
		{"stray variable", func(s *gsst.System) {
			s.Transitions[0].Blocks[0].Guard = presburger.Compare(presburger.VarTerm(99), presburger.Eq, presburger.ConstTerm(0))
		}, "variable 99, which is not a counter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := load(t)
			tt.edit(sys)
			err := sys.Check()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Check() = %v, want an error containing %q", err, tt.want)
			}
			if !errors.Is(err, errkind.Input) {
				t.Errorf("Check() error is not bad input: %v", err)
			}
		})
	}
}
