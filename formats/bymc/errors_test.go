package bymc_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/formats/formatstest"
)

// ta wraps the body of an automaton in the sections it needs.
func ta(decls, rules, specs string) string {
	return "skel Proc {\n  local pc;\n" + decls +
		"  assumptions (0) { N >= 1; }\n" +
		"  locations (0) { loc0: [0]; loc1: [1]; }\n" +
		"  inits (0) { loc0 == N; loc1 == 0; x == 0; }\n" +
		"  rules (0) {\n" + rules + "  }\n" +
		"  specifications (0) {\n" + specs + "  }\n}\n"
}

const decls = "  shared x;\n  parameters N;\n"

// Each input's errors, every one at its line and column.
var errorTests = []struct {
	name, src string
	want      []string // "line:col: part of the message"
}{
	{"no automaton", "", []string{"1:1: expected skel, threshAuto or thresholdAutomaton and the automaton's name, found end of file"}},
	{"unknown location", ta(decls, "  0: loc0 -> loc2 when (true) do { };\n", "  s: [](x >= 0);\n"),
		[]string{"9:14: rule 0: loc2 is not a location"}},
	{"undeclared name", ta(decls, "  0: loc0 -> loc1 when (y >= 1) do { };\n", "  s: [](x >= 0);\n"),
		[]string{"9:25: y is not declared"}},
	{"syntax error in a rule", ta(decls, "  0: loc0 -> loc1 when (x >= ) do { };\n  1: loc1 -> loc0 when (x <= ) do { };\n", "  s: [](x >= 0);\n"),
		[]string{"9:30: expected an expression", "10:30: expected an expression"}},
	{"chained comparison", ta(decls, "  0: loc0 -> loc1 when (0 < x < 2) do { };\n", "  s: [](x >= 0);\n"),
		[]string{"9:31: comparisons do not chain"}},
	{"action on a location", ta(decls, "  0: loc0 -> loc1 when (true) do { loc0' == loc0 + 1; };\n", "  s: [](x >= 0);\n"),
		[]string{"9:36: rule 0 assigns loc0, which is a location, not a shared variable"}},
	{"decreasing action", ta(decls, "  0: loc0 -> loc1 when (true) do { x' == x - 1; };\n", "  s: [](x >= 0);\n"),
		[]string{"9:42: rule 0: x' == x - 1 does not add a number that is never negative to x"}},
	{"contradictory actions", ta(decls, "  0: loc0 -> loc1 when (true) do { x' == x + 1; unchanged(x); };\n", "  s: [](x >= 0);\n"),
		[]string{"9:59: rule 0 gives x' twice, differently"}},
	{"nonlinear guard", ta(decls, "  0: loc0 -> loc1 when (x * N >= 1) do { };\n", "  s: [](x >= 0);\n"),
		[]string{"9:27: product of two expressions that are not constants"}},
	{"temporal guard", ta(decls, "  0: loc0 -> loc1 when ([](x >= 1)) do { };\n", "  s: [](x >= 0);\n"),
		[]string{"9:25: temporal operator [] in the guard of rule 0"}},
	{"comment not closed", "skel Proc { /* ...", []string{"1:13: comment not closed"}},
	{"illegal character", ta(decls, "  0: loc0 -> loc1 when (x # 1) do { };\n", "  s: [](x >= 0);\n"),
		[]string{"9:27: unexpected character '#'"}},
	{"integer too large", ta(decls, "  0: loc0 -> loc1 when (x >= 12345678901) do { };\n", "  s: [](x >= 0);\n"),
		[]string{"9:30: integer 12345678901 is too large"}},
	{"macro through itself", ta("  shared x;\n  parameters N;\n  define A == B + 1;\n  define B == A;\n", "  0: loc0 -> loc1 when (x >= A) do { };\n", "  s: [](x >= 0);\n"),
		[]string{"6:15: macro A is defined through itself"}},
	{"unknowns", ta("  shared x;\n  parameters N;\n  unknowns a;\n", "", ""),
		[]string{"5:3: unknowns a: an automaton with unknowns"}},
	{"error in a refused specification", ta(decls, "  0: loc0 -> loc1 when (true) do { };\n", "  s: <>[](y >= 0);\n"),
		[]string{"12:11: y is not declared"}},
}

func TestErrors(t *testing.T) {
	for _, tc := range errorTests {
		t.Run(tc.name, func(t *testing.T) {
			imp := bymc.Translate("f.ta", []byte(tc.src))
			err := imp.Err()
			if err == nil {
				_, err = imp.System()
			}
			formatstest.Errors(t, err, "f.ta", tc.want)
		})
	}
}

// Each specification that has no reading is refused alone, at its line
// and column, and the others are read.
var refusalTests = []struct {
	name, specs string
	want        []string // "property: line:col: part of the reason"
	read        []string // the properties stated
}{
	{"no CTL equivalent", "  s: <>[](x >= 0);\n  t: [](x >= 0);\n",
		[]string{"s: f.ta:12:6: vsym translates [] f, <> c"}, []string{"t"}},
	{"disjunction of temporal formulas", "  s: [](x >= 0) || <>(loc1 == N);\n  t: <>(loc1 == N);\n",
		[]string{"s: f.ta:12:6: vsym translates"}, []string{"t"}},
	{"premise with no translation", "  s: <>(x >= 0) -> <>(loc1 == N);\n  t: [](x >= 0) -> <>(loc1 == N);\n",
		[]string{"s: f.ta:12:6: a premise is a condition, <>[] c or [] c"}, []string{"t"}},
	{"every specification", "  s: <>[](x >= 0);\n", []string{"s: f.ta:12:6: vsym translates"}, nil},
}

func TestRefusals(t *testing.T) {
	for _, tc := range refusalTests {
		t.Run(tc.name, func(t *testing.T) {
			imp := bymc.Translate("f.ta", []byte(ta(decls, "  0: loc0 -> loc1 when (true) do { x' == x + 1; };\n", tc.specs)))
			if _, err := imp.System(); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range imp.Refused {
				got = append(got, r.Property+": "+r.Pos.String()+": "+r.Why)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("refused %q, want %q", got, tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("refused %q, want %q", got[i], tc.want[i])
				}
			}
			var read []string
			for _, p := range imp.Spec.Properties {
				read = append(read, p.Name)
			}
			if !slices.Equal(read, tc.read) {
				t.Errorf("stated %v, want %v", read, tc.read)
			}
			// convert writes each refusal as a comment.
			var b strings.Builder
			if err := formats.Write(&b, imp); err != nil {
				t.Fatal(err)
			}
			for _, r := range imp.Refused {
				if !strings.Contains(b.String(), "# not stated: "+r.String()) {
					t.Errorf("the YAML does not say that %s is not stated:\n%s", r.Property, b.String())
				}
			}
		})
	}
}
