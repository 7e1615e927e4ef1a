package counterabs

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
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
	sameModelProperties(t, plain, scaled)
}

// sameModelProperties checks that the group-counter models of the
// systems plain and other state the same properties, and returns
// other's model.
func sameModelProperties(t *testing.T, plain, other string) *ParamModel {
	t.Helper()
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
	want, got := build("plain.yaml", plain), build("other.yaml", other)
	for i, w := range want.Properties {
		if g := got.Properties[i]; !reflect.DeepEqual(g.Formula, w.Formula) {
			t.Errorf("%s: the model formula is %s, want %s as written plainly", w.Name, ctl.Format(g.Formula, got.VarName), ctl.Format(w.Formula, want.VarName))
		}
	}
	return got
}

// TestParamPropertiesFolded: the parametric models state a property
// whose atoms under a temporal operator the types decide ("#A >= 0",
// "lock <= 1" of a 0..1 integer, "#B != -1") without those atoms, as
// they do a guard, so that the searches of prove read the same bad
// states either way; a premise is left as written, and so is a
// property none of whose atoms is decided (its negations as written).
func TestParamPropertiesFolded(t *testing.T) {
	const sys = `name: decided
shared:
  x: {type: "0..", init: 0}
  lock: {type: "0..1", init: 0}
states: [A, B]
groups: {p: 1..}
init: A
transitions:
  - {from: A, to: B, update: "x := x + 1; lock := 1"}
  - {from: B, to: A, guard: "x >= 2", update: "lock := 0"}
properties:
`
	plain := sys + `  p1: "AG !(#B >= 1 & lock = 1)"
  p2: "x <= 0 & lock <= 1 -> AG (#A + x <= 2 | #B >= 1)"
  p3: "AG (#B >= 1 -> AF x >= 3)"
  p4: "AG true"
`
	decided := sys + `  p1: "AG !(#B >= 1 & lock = 1 & #A >= 0)"
  p2: "x <= 0 & lock <= 1 -> AG (#A + x <= 2 | #B >= 1 | #A < 0)"
  p3: "AG (#B >= 1 & lock < 2 -> AF (x >= 3 | x + #A < 0))"
  p4: "AG (#A <= 1 | #B != -1)"
`
	got := sameModelProperties(t, plain, decided)
	// The premise's decided atom stays.
	if f := ctl.Format(got.Property("p2").Formula, got.VarName); !strings.HasPrefix(f, "((x <= 0 & lock <= 1) -> AG") {
		t.Errorf("p2: the model formula is %s, want the premise as written", f)
	}
	// A formula none of whose atoms is decided keeps its shape: folding
	// would write the negated atom as "#B != 1".
	b := presburger.Var(1)
	ranges := []presburger.Bound{presburger.AtLeast(b, 0)}
	f := presburger.Not{F: presburger.Cmp{Op: presburger.Eq, T: presburger.VarTerm(b).Sub(presburger.Term{Const: 1})}}
	if g := foldDecided(f, presburger.NewBox(ranges)); !reflect.DeepEqual(g, presburger.Formula(f)) {
		t.Errorf("foldDecided(%v) = %v, want it as written", f, g)
	}
	if g := foldDecided(presburger.Disj(f, presburger.Cmp{Op: presburger.Lt, T: presburger.VarTerm(b)}), presburger.NewBox(ranges)); !reflect.DeepEqual(g, presburger.Formula(presburger.Cmp{Op: presburger.Ne, T: f.F.(presburger.Cmp).T})) {
		t.Errorf("foldDecided(%v | #B < 0) = %v, want %v folded", f, g, f)
	}
}
