package counterabs

import (
	"reflect"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
)

// TestParamPropertiesTightened: the parametric models state a property
// whose atoms are written scaled (both sides times a factor) with the
// atoms of the property written plainly, as they do a guard's, so that
// the searches of prove read the same target either way.
func TestParamPropertiesTightened(t *testing.T) {
	const sys = `name: scaled
shared:
  x: {type: "0..", init: 0}
states: [A, B]
groups: {p: 1..}
init: A
transitions:
  - {from: A, to: B, update: "x := x + 1"}
  - {from: B, to: A, guard: "x >= 2"}
properties:
`
	plain := sys + `  p1: "AG !(#B >= 1 & x = 2)"
  p2: "x <= 0 -> AG (#A + x <= 2 | #B >= 1)"
  p3: "AG (#B >= 1 -> AF x >= 3)"
`
	scaled := sys + `  p1: "AG !(2*#B >= 2 & 2*x = 4)"
  p2: "2*x < 1 -> AG (3*#A + 3*x < 7 | 2*#B >= 1)"
  p3: "AG (4*#B >= 4 -> AF 2*x > 5)"
`
	build := func(name, src string) *ParamModel {
		s, err := gsst.Parse(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		m, err := BuildParamGroup(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	want, got := build("plain.yaml", plain), build("scaled.yaml", scaled)
	for i, w := range want.Properties {
		if g := got.Properties[i]; !reflect.DeepEqual(g.Formula, w.Formula) {
			t.Errorf("%s: the scaled property's model formula is %s, want %s", w.Name, ctl.Format(g.Formula, got.VarName), ctl.Format(w.Formula, want.VarName))
		}
	}
}
