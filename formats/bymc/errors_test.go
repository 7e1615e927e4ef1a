package bymc_test

import (
	"testing"

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
	{"no CTL equivalent", ta(decls, "  0: loc0 -> loc1 when (true) do { };\n", "  s: <>[](x >= 0);\n"),
		[]string{"12:6: specification s: vsym translates"}},
	{"comment not closed", "skel Proc { /* ...", []string{"1:13: comment not closed"}},
	{"illegal character", ta(decls, "  0: loc0 -> loc1 when (x # 1) do { };\n", "  s: [](x >= 0);\n"),
		[]string{"9:27: unexpected character '#'"}},
	{"integer too large", ta(decls, "  0: loc0 -> loc1 when (x >= 12345678901) do { };\n", "  s: [](x >= 0);\n"),
		[]string{"9:30: integer 12345678901 is too large"}},
	{"macro through itself", ta("  shared x;\n  parameters N;\n  define A == B + 1;\n  define B == A;\n", "  0: loc0 -> loc1 when (x >= A) do { };\n", "  s: [](x >= 0);\n"),
		[]string{"6:15: macro A is defined through itself"}},
	{"unknowns", ta("  shared x;\n  parameters N;\n  unknowns a;\n", "", ""),
		[]string{"5:3: unknowns a: an automaton with unknowns"}},
	{"missing construct", ta(decls, "  0: loc0 -> loc1 when (true) do { };\n", "  s: [](x >= 0) -> [](x >= 0);\n"),
		[]string{"12:6: specification s assumes [] c: only the paths on which a condition always holds: needs a fairness assumption of one property"}},
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
