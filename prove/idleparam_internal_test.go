package prove

import (
	"fmt"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// TestIdleParams checks which parameters the small instances take at
// one value (idleParams) and that they do: a parameter that nothing but
// the assumption's conditions on itself reads leaves the list of small
// instances as long as without it, each at its least allowed value; one
// that a guard, a group size, an initial value or a condition with
// another parameter reads is a choice like any other.
func TestIdleParams(t *testing.T) {
	const body = `states: [A, B]
groups: {proc: %s}
init: A
shared:
  x: {type: "0..", init: %s}
transitions:
  - {from: A, to: B, guard: "x <= n%s", update: "x := x + 1"}
  - {from: B, to: A, guard: "%s"}
properties:
  safe: "AG (x <= n%s)"
`
	build := func(t *testing.T, params, assume, size, init, guard, guard2, prop string) (*counterabs.ParamModel, presburger.TransitionSystem) {
		t.Helper()
		src := fmt.Sprintf("name: idle\nparams: [%s]\nassume: %q\n", params, assume) + fmt.Sprintf(body, size, init, guard, guard2, prop)
		sys, err := gsst.Parse("idle.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		m, err := counterabs.BuildParamGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		phi, ok := counterabs.SafetyFormula(m.Properties[0].Formula)
		if !ok {
			t.Fatalf("%s: no safety property", src)
		}
		return m, m.TransitionSystem().Question(presburger.Negation(phi))
	}
	m0, ts0 := build(t, "n", "n >= 1", "n", "0", "", "true", "")
	base := len(smallInstances(m0, ts0))
	for _, c := range []struct {
		name                                            string
		params, assume, size, init, guard, guard2, prop string
		idle                                            bool
		least                                           int64
	}{
		{"unused", "n, u", "n >= 1 & u >= 2", "n", "0", "", "true", "", true, 2},
		{"unused, bounded", "n, u", "n >= 1 & u >= 1 & u <= 3", "n", "0", "", "true", "", true, 1},
		{"unconstrained", "n, u", "n >= 1", "n", "0", "", "true", "", true, 0},
		// A step's conjunct that is the assumption's condition (the
		// model conjoins the assumption to every step) is no guard.
		{"guard as assumed", "n, u", "n >= 1 & u >= 1", "n", "0", "", "u >= 1", "", true, 1},
		{"guarded", "n, u", "n >= 1 & u >= 1", "n", "0", "", "u >= 2", "", false, 0},
		{"in a guard with n", "n, u", "n >= 1 & u >= 1", "n", "0", " & x <= u", "true", "", false, 0},
		{"initial value", "n, u", "n >= 1 & u >= 1", "n", "u", "", "true", "", false, 0},
		{"group size", "n, u", "n >= 1 & u >= 1", "n + u - 1", "0", "", "true", "", false, 0},
		{"in the property", "n, u", "n >= 1 & u >= 1", "n", "0", "", "true", " | x <= u", false, 0},
		{"tied to n", "n, u", "n >= 1 & u >= n", "n", "0", "", "true", "", false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, ts := build(t, c.params, c.assume, c.size, c.init, c.guard, c.guard2, c.prop)
			u := m.ParamVar(1)
			_, idle := idleParams(m, ts)[u]
			if idle != c.idle {
				t.Fatalf("u idle = %v, want %v", idle, c.idle)
			}
			if _, nIdle := idleParams(m, ts)[m.ParamVar(0)]; nIdle {
				t.Errorf("n, which guards read, is idle")
			}
			insts := smallInstances(m, ts)
			if !c.idle {
				if len(insts) <= base {
					t.Errorf("%d small instances, no more than the %d without u: u is a choice", len(insts), base)
				}
				return
			}
			if len(insts) != base {
				t.Errorf("%d small instances, want the %d without u", len(insts), base)
			}
			for _, p := range insts {
				if p[u] != c.least {
					t.Fatalf("an instance at u = %d, want %d only", p[u], c.least)
				}
			}
		})
	}
}
