package gsst_test

import (
	"errors"
	"reflect"
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

// TestNew checks that New accepts the Spec of a parsed system and
// refuses each malformation of a hand-edited copy, as bad input.
func TestNew(t *testing.T) {
	load := func(t *testing.T) *gsst.System {
		sys, err := gsst.Parse("two-phase.yaml", []byte(shapeSrc))
		if err != nil {
			t.Fatal(err)
		}
		return sys
	}
	sys := load(t)
	again, err := gsst.New(sys.Spec())
	if err != nil {
		t.Fatalf("parsed system refused: %v", err)
	}
	if !reflect.DeepEqual(again, sys) {
		t.Errorf("New(sys.Spec()) differs from the parsed system")
	}
	if _, err := gsst.New(nil); err == nil || !errors.Is(err, errkind.Input) {
		t.Errorf("nil spec: %v", err)
	}
	tests := []struct {
		name string
		edit func(s *gsst.Spec)
		want string
	}{
		{"no states", func(s *gsst.Spec) { *s = gsst.Spec{File: s.File} }, "two-phase.yaml: system has no local state"},
		{"negative size", func(s *gsst.Spec) { s.Groups[0].Size = -1 }, "two-phase.yaml:4:16: group \"fast\" has size -1"},
		{"too many", func(s *gsst.Spec) { s.Groups[0].Size, s.Groups[1].Size = gsst.MaxProcesses, 1 }, "the total exceeds the limit"},
		{"state out of range", func(s *gsst.Spec) { s.Transitions[1].To = 2 }, "transition 1 has a state out of range"},
		{"negative state", func(s *gsst.Spec) { s.Transitions[0].From = -1 }, "transition 0 has a state out of range"},
		{"group out of range", func(s *gsst.Spec) { s.Transitions[0].Blocks[0].Groups = []int{2} }, "group 2 out of range"},
		{"group in two blocks", func(s *gsst.Spec) { s.Transitions[0].Blocks[1].Groups = []int{0} }, `group "fast" has two guards in Idle -> Busy`},
		{"nil guard", func(s *gsst.Spec) { s.Transitions[0].Blocks[0].Guard = nil }, "two-phase.yaml:10:13: transition Idle -> Busy: missing guard"},
		{"steps named alike", func(s *gsst.Spec) { s.Transitions[0].Name, s.Transitions[1].Name = "go", "go" }, "two steps are named go"},
		{"bad step name", func(s *gsst.Spec) { s.Transitions[0].Name = "1st" }, `step name "1st" is not a name`},
		{"quantified guard", func(s *gsst.Spec) {
			s.Transitions[1].Blocks[0].Guard = presburger.Exists{Vars: []presburger.Bound{{Var: 50, Lo: 0, Hi: 1}}, Body: presburger.True}
		}, "has a quantifier"},
		{"init rows", func(s *gsst.Spec) { s.Init = s.Init[:1] }, "initial configuration has 1 groups, want 2"},
		{"init columns", func(s *gsst.Spec) { s.Init[1] = []int{2} }, "group slow has 1 states, want 2"},
		{"init negative", func(s *gsst.Spec) { s.Init[1] = []int{3, -1} }, `negative number of processes -1 in init of group "slow"`},
		{"init sum", func(s *gsst.Spec) { s.Init[0] = []int{0, 0} }, `init of group "fast" places 0 processes, but the group has 1`},
		{"no formula", func(s *gsst.Spec) { s.Properties[0].Formula = nil }, "property calm has no formula"},
		{"duplicate property", func(s *gsst.Spec) { s.Properties = append(s.Properties, s.Properties[0]) }, `two-phase.yaml:14:9: duplicate property "calm" (first at two-phase.yaml:14:9)`},
		{"bad operator", func(s *gsst.Spec) {
			s.Properties[0].Formula = ctl.Unary{Op: 99, X: ctl.Atom{P: presburger.True}}
		}, "unknown temporal operator 99"},
		{"bad connective", func(s *gsst.Spec) {
			s.Properties[0].Formula = ctl.Binary{Op: 9, L: ctl.Atom{P: presburger.True}, R: ctl.Atom{P: presburger.True}}
		}, "property calm: unknown connective 9"},
		{"bad operator inside", func(s *gsst.Spec) {
			s.Properties[0].Formula = ctl.Not{X: ctl.Unary{Op: 42, X: ctl.Atom{P: presburger.True}}}
		}, "property calm: unknown temporal operator 42"},
		{"empty atom", func(s *gsst.Spec) { s.Properties[0].Formula = ctl.Atom{} }, "property calm: empty atom"},
		{"stray property variable", func(s *gsst.Spec) {
			s.Properties[0].Formula = ctl.Atom{P: presburger.Compare(presburger.VarTerm(-3), presburger.Eq, presburger.ConstTerm(0))}
		}, "property calm uses variable -3"},
		{"stray variable", func(s *gsst.Spec) {
			s.Transitions[0].Blocks[0].Guard = presburger.Compare(presburger.VarTerm(99), presburger.Eq, presburger.ConstTerm(0))
		}, "variable 99, which is not a counter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := sys.Spec()
			tt.edit(spec)
			refused(t, spec, tt.want)
		})
	}
	// The edits changed copies: the System is as parsed.
	if !reflect.DeepEqual(sys, load(t)) {
		t.Errorf("editing a Spec changed the System it came from")
	}
}

// refused checks that New refuses spec, as bad input, with an error
// containing want.
func refused(t *testing.T, spec *gsst.Spec, want string) {
	t.Helper()
	got, err := gsst.New(spec)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("New() = %v, want an error containing %q", err, want)
	}
	if got != nil {
		t.Errorf("New() returned a System with its error")
	}
	if !errors.Is(err, errkind.Input) {
		t.Errorf("New() error is not bad input: %v", err)
	}
}

// TestNewCopies checks that a System does not share its description
// with the Spec given to New: changing the Spec afterwards changes
// nothing the analyses read.
func TestNewCopies(t *testing.T) {
	sys, err := gsst.Parse("two-phase.yaml", []byte(shapeSrc))
	if err != nil {
		t.Fatal(err)
	}
	spec := sys.Spec()
	built, err := gsst.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	spec.States[0] = "Gone"
	spec.Groups[0].Size = 7
	spec.Init[0][0] = 7
	spec.Transitions[0].Blocks[0].Groups[0] = 1
	spec.Transitions[0].Blocks[0].Guard = presburger.False
	spec.Properties[0].Name = "gone"
	if !reflect.DeepEqual(built, sys) {
		t.Errorf("changes to the Spec after New reached the System")
	}
}

// TestSystemSealed checks the type's promise: System has no field that
// another package could set in a composite literal, so a System with
// content comes only from Parse, Load, New or a System already checked.
func TestSystemSealed(t *testing.T) {
	typ := reflect.TypeFor[gsst.System]()
	for i := range typ.NumField() {
		if f := typ.Field(i); f.IsExported() {
			t.Errorf("gsst.System has the exported field %s", f.Name)
		}
	}
	if typ.NumField() == 0 {
		t.Error("gsst.System has no fields")
	}
}

// TestWithProperties checks that WithProperties keeps the chosen
// properties in the order asked and leaves the system it came from alone.
func TestWithProperties(t *testing.T) {
	src := shapeSrc + "  busy: \"EF #Busy = 3\"\n  idle: \"AG #Idle >= 0\"\n"
	sys, err := gsst.Parse("two-phase.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	names := func(s *gsst.System) (out []string) {
		for _, p := range s.Properties {
			out = append(out, p.Name)
		}
		return out
	}
	if got := names(sys.WithProperties(2, 0)); !reflect.DeepEqual(got, []string{"idle", "calm"}) {
		t.Errorf("WithProperties(2, 0) has %v", got)
	}
	if got := sys.WithProperties(); len(got.Properties) != 0 || got.Name != sys.Name || len(got.Transitions) != 2 {
		t.Errorf("WithProperties() = %+v", got)
	}
	if got := names(sys); !reflect.DeepEqual(got, []string{"calm", "busy", "idle"}) {
		t.Errorf("the system now has %v", got)
	}
}

// TestWithDerivedProperties checks that WithDerivedProperties puts the
// properties given in place of the system's, leaves the system it came
// from alone, and refuses what New refuses in a spec's properties.
func TestWithDerivedProperties(t *testing.T) {
	sys, err := gsst.Parse("two-phase.yaml", []byte(shapeSrc))
	if err != nil {
		t.Fatal(err)
	}
	calm := sys.Properties[0]
	part := gsst.Property{Name: "calm (part 1 of 2)", Formula: ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.True}}, Text: "AG true", Pos: calm.Pos}
	got, err := sys.WithDerivedProperties([]gsst.Property{part, calm})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Properties) != 2 || got.Properties[0].Name != part.Name || got.Properties[1].Name != "calm" || len(got.Transitions) != 2 {
		t.Errorf("WithDerivedProperties = %+v", got.Properties)
	}
	if len(sys.Properties) != 1 || sys.Properties[0].Name != "calm" {
		t.Errorf("the system now has %+v", sys.Properties)
	}
	outside := presburger.Compare(presburger.VarTerm(-3), presburger.Eq, presburger.ConstTerm(0))
	for _, tc := range []struct {
		name string
		ps   []gsst.Property
		want string
	}{
		{"duplicate", []gsst.Property{calm, calm}, `duplicate property "calm"`},
		{"no formula", []gsst.Property{{Name: "none"}}, "property none has no formula"},
		{"foreign variable", []gsst.Property{{Name: "far", Formula: ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: outside}}}}, "property far"},
	} {
		if _, err := sys.WithDerivedProperties(tc.ps); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestNewMatchesParse checks that the rules exist once: a mistake made
// in the text, and the same mistake made by hand in the Spec of the
// correct text, give New and Parse byte-identical errors, positions
// included.
func TestNewMatchesParse(t *testing.T) {
	const src = `
states: [Idle, Busy, Done]
groups: {fast: 100000, slow: 2}
init:
  fast: Idle
  slow: {Idle: 2, Busy: 0}
transitions:
  - from: Idle
    to: Busy
    guard: {"fast, slow": "#Busy < 2"}
  - {from: Busy, to: Idle}
  - from: Busy
    to: Done
    guard: {fast: "true"}
properties:
  calm: "AG #Busy <= 2"
  busy: "EF #Busy = 1"
fairness:
  weak:
    - Busy -> Done [fast]
`
	sys, err := gsst.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tests := []parseEdit{
		{"step named all", "{from: Busy, to: Idle}", "{name: all, from: Busy, to: Idle}", func(s *gsst.Spec) {
			s.Transitions[1].Name, s.Transitions[1].NamePos = "all", gsst.Pos{File: s.File, Line: 11, Col: 12}
		}},
		{"init sum", "{Idle: 2, Busy: 0}", "{Idle: 1, Busy: 0}", func(s *gsst.Spec) { s.Init[1][0] = 1 }},
		{"init count", "{Idle: 2, Busy: 0}", "{Idle: 2, Busy: 9}", func(s *gsst.Spec) { s.Init[1][1] = 9 }},
		{"init negative", "{Idle: 2, Busy: 0}", "{Idle: 2, Busy: -1}", func(s *gsst.Spec) { s.Init[1][1] = -1 }},
		{"two guards", `"fast, slow"`, `"fast, fast"`, func(s *gsst.Spec) { s.Transitions[0].Blocks[0].Groups = []int{0, 0} }},
		{"size", "slow: 2}", "slow: 3}", func(s *gsst.Spec) { s.Groups[1].Size = 3 }},
		{"too many", "fast: 100000", "fast: 999999", func(s *gsst.Spec) { s.Groups[0].Size = 999999; s.Init[0][0] = 999999 }},
		{"range", "slow: 2}", "slow: 2..}", func(s *gsst.Spec) { s.Groups[1].Ranged, s.Groups[1].Max = true, gsst.Unbounded }},
		{"weak group", "Done [fast]", "Done [slow]", func(s *gsst.Spec) { s.Fairness.Weak[0].Group = 1 }},
	}
	matchParse(t, sys, src, tests)
}

// parseEdit is a mistake made twice: in the text (old replaced by new)
// and by hand in the Spec.
type parseEdit struct {
	name     string
	old, new string // the text edit
	edit     func(s *gsst.Spec)
}

// matchParse checks that each mistake gives Parse and New identical
// errors; sys is src parsed as m.yaml.
func matchParse(t *testing.T, sys *gsst.System, src string, tests []parseEdit) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(src, tt.old, tt.new, 1)
			if text == src {
				t.Fatalf("%q not in the source", tt.old)
			}
			_, perr := gsst.Parse("m.yaml", []byte(text))
			spec := sys.Spec()
			tt.edit(spec)
			_, nerr := gsst.New(spec)
			if perr == nil || nerr == nil {
				t.Fatalf("Parse: %v\nNew: %v", perr, nerr)
			}
			if perr.Error() != nerr.Error() {
				t.Errorf("Parse:\n%v\nNew:\n%v", perr, nerr)
			}
		})
	}
}
