package prove

import (
	"context"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

// TestDefinedShared: a shared counter of the processes in S or E, read
// by a guard as "ns = 0", is read by definedShared's guard as #S + #E =
// 0 over the counters (neither ns, nor n, nor the size of the ranged
// group), on both levels, and the facts state ns = #S + #E.
func TestDefinedShared(t *testing.T) {
	sys, err := gsst.Parse("ghost.yaml", []byte(`
name: ghost
shared:
  ns: {type: "0..", init: 0}
states: [I, S, E]
groups: {proc: "1..", other: 2}
init: I
transitions:
  - {from: I, to: S, guard: "#E = 0", update: "ns := ns + 1"}
  - {from: I, to: E, guard: "ns = 0", update: "ns := ns + 1"}
  - {from: S, to: I, update: "ns := ns - 1"}
  - {from: E, to: I, update: "ns := ns - 1"}
properties:
  excl: "AG !(#E >= 1 & #S >= 1)"
`))
	if err != nil {
		t.Fatal(err)
	}
	total, err := counterabs.BuildParam(context.Background(), sys, z3.New())
	if err != nil {
		t.Fatal(err)
	}
	group, err := counterabs.BuildParamGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*counterabs.ParamModel{total, group} {
		g, facts, ok := definedShared(m, linearInvariants(m, nil))
		if !ok {
			t.Fatalf("%v: no guard redefined", m.Level)
		}
		ns := m.SharedVar(0)
		var guards []presburger.Formula // of I -> E, redefined
		for i := range m.Transitions {
			tr := &m.Transitions[i]
			if m.Counters[tr.From].State == 0 && m.Counters[tr.To].State == 2 {
				guards = append(guards, g.Transitions[i].Guard)
			}
		}
		if len(guards) == 0 {
			t.Fatalf("%v: no transition I -> E", m.Level)
		}
		for _, guard := range guards {
			for _, v := range presburger.FreeVars(guard) {
				if v == ns || v == m.NVar() || v == m.SizeVar(0) {
					t.Errorf("%v: the guard %s reads %s", m.Level, m.FormatFormula(guard), m.VarName(v))
				}
			}
		}
		// At every valuation of the counters with ns their sum over S
		// and E, the guard is #S + #E = 0 and the facts hold.
		for x := range int64(27) {
			val := map[presburger.Var]int64{}
			sum := int64(0)
			for i, c := range m.Counters {
				k := (x >> uint(i%3)) & 1
				val[m.StateVar(i)] = k
				if c.State != 0 { // S or E
					sum += k
				}
			}
			val[ns] = sum
			val[m.SizeVar(1)] = 2 // other's fixed size
			for i := range m.Counters {
				val[m.NVar()] += val[m.StateVar(i)]
			}
			at := func(v presburger.Var) int64 { return val[v] }
			for _, guard := range guards {
				// The guard says ns = 0 and that a mover is in I.
				if got := presburger.Eval(guard, at); got && sum != 0 {
					t.Errorf("%v: the guard %s holds where #S + #E = %d", m.Level, m.FormatFormula(guard), sum)
				}
			}
		}
		// The facts state ns = #S + #E: they hold at the initial
		// configurations and fail where ns is off by one.
		for _, c := range []struct {
			ns   int64
			want bool
		}{{0, true}, {1, false}} {
			val := map[presburger.Var]int64{ns: c.ns, m.SizeVar(0): 3, m.SizeVar(1): 2, m.NVar(): 5}
			for i, k := range m.Counters {
				if k.State == 0 { // I
					val[m.StateVar(i)] = 5
					if m.Level == counterabs.GroupLevel {
						val[m.StateVar(i)] = []int64{3, 2}[k.Group]
					}
				}
			}
			if got := presburger.Eval(facts, func(v presburger.Var) int64 { return val[v] }); got != c.want {
				t.Errorf("%v: the facts %s are %v at ns = %d with every process in I", m.Level, m.FormatFormula(facts), got, c.ns)
			}
		}
	}
}
