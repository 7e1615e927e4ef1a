package gsst_test

import (
	"strings"
	"testing"

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
`

// TestCheckShape checks that a parsed system passes and that each
// malformation of a hand-edited copy is reported.
func TestCheckShape(t *testing.T) {
	load := func(t *testing.T) *gsst.System {
		sys, err := gsst.Parse("two-phase.yaml", []byte(shapeSrc))
		if err != nil {
			t.Fatal(err)
		}
		return sys
	}
	if err := load(t).CheckShape(); err != nil {
		t.Fatalf("parsed system rejected: %v", err)
	}
	var nilSys *gsst.System
	if err := nilSys.CheckShape(); err == nil {
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
		{"nil guard", func(s *gsst.System) { s.Transitions[0].Blocks[0].Guard = nil }, "nil guard"},
		{"stray variable", func(s *gsst.System) {
			s.Transitions[0].Blocks[0].Guard = presburger.Compare(presburger.VarTerm(99), presburger.Eq, presburger.ConstTerm(0))
		}, "variable 99, which is not a counter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := load(t)
			tt.edit(sys)
			err := sys.CheckShape()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("CheckShape() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
