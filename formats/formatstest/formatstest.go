// Package formatstest holds what the tests of the readers of package
// formats share: the check that the YAML of an import reads back as the
// system the import translates to, and the breadth-first exploration of
// a counter model projected to total counters and shared values, on
// which the cross-checks against each source format's own semantics
// compare reachable states.
package formatstest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// ModelReach explores the counter model m breadth first to depth and
// returns every state it reaches, projected by project (from the total
// counters and the shared values), with the least depth at which a
// state of that projection is reached.
func ModelReach(m *counterabs.Model, depth int, project func(totals, shared []int) string) map[string]int {
	start := slices.Clone(m.Init)
	out := map[string]int{project(m.Totals(start), m.SharedValues(start)): 0}
	seen := map[string]bool{fmt.Sprint(start): true}
	frontier := [][]int{start}
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var next [][]int
		for _, x := range frontier {
			val := func(v presburger.Var) int64 { return int64(x[v]) }
			for i := range m.Transitions {
				tr := &m.Transitions[i]
				if !presburger.Eval(tr.Guard, val) {
					continue
				}
				y := m.Step(tr, x)
				if seen[fmt.Sprint(y)] {
					continue
				}
				seen[fmt.Sprint(y)] = true
				next = append(next, y)
				k := project(m.Totals(y), m.SharedValues(y))
				if _, dup := out[k]; !dup {
					out[k] = d
				}
			}
		}
		frontier = next
	}
	return out
}

// Instance returns an instance of sys: its smallest sizes, and, when it
// has parameters, the first values in 0..5 (in lexicographic order)
// that make one.
func Instance(sys *gsst.System) (*gsst.System, error) {
	if len(sys.Params) == 0 {
		return sys.Smallest()
	}
	values := make([]int, len(sys.Params))
	var found *gsst.System
	var rec func(k int)
	rec = func(k int) {
		if found != nil {
			return
		}
		if k == len(values) {
			if inst, err := sys.InstantiateParams(values, nil); err == nil {
				found = inst
			}
			return
		}
		for v := range 6 {
			values[k] = v
			rec(k + 1)
		}
	}
	rec(0)
	if found == nil {
		return nil, fmt.Errorf("%s: no instance with parameters in 0..5", sys.Name)
	}
	return found, nil
}

// ReadsBack checks that yaml, the YAML formats.Write wrote for imp,
// reads back (gsst.Parse) as the system imp translates to: the same
// name, states, groups, initial configuration, parameters, shared
// variables, properties and fairness, and the same reachable states,
// with the same depths, within 30 steps of an instance.
func ReadsBack(t testing.TB, imp *formats.Import, yaml []byte) {
	t.Helper()
	want, err := imp.System()
	if err != nil {
		t.Fatal(err)
	}
	got, err := gsst.Parse("converted.yaml", yaml)
	if err != nil {
		t.Fatalf("the YAML does not read back: %v\n%s", err, yaml)
	}
	switch {
	case got.Name != want.Name || !slices.Equal(got.States, want.States):
		t.Fatalf("read back as %s %v, want %s %v", got.Name, got.States, want.Name, want.States)
	case len(got.Groups) != len(want.Groups) || len(got.Shared) != len(want.Shared) || len(got.Properties) != len(want.Properties) ||
		len(got.Params) != len(want.Params) || len(got.Fairness.Justice) != len(want.Fairness.Justice):
		t.Fatalf("read back with %d groups, %d shared variables, %d parameters, %d properties, %d justice conditions; want %d, %d, %d, %d, %d",
			len(got.Groups), len(got.Shared), len(got.Params), len(got.Properties), len(got.Fairness.Justice),
			len(want.Groups), len(want.Shared), len(want.Params), len(want.Properties), len(want.Fairness.Justice))
	}
	for g := range want.Groups {
		a, b := &got.Groups[g], &want.Groups[g]
		if a.Name != b.Name || a.SizeText() != b.SizeText() || a.SizeTermText != b.SizeTermText || !slices.Equal(got.Init[g], want.Init[g]) {
			t.Errorf("group %d read back as %s %s %q %v, want %s %s %q %v", g, a.Name, a.SizeText(), a.SizeTermText, got.Init[g], b.Name, b.SizeText(), b.SizeTermText, want.Init[g])
		}
	}
	for k := range want.Params {
		if got.Params[k].Name != want.Params[k].Name {
			t.Errorf("parameter %d read back as %s, want %s", k, got.Params[k].Name, want.Params[k].Name)
		}
	}
	for j := range want.Shared {
		a, b := &got.Shared[j], &want.Shared[j]
		if a.Name != b.Name || a.TypeText() != b.TypeText() || a.Init != b.Init {
			t.Errorf("shared variable %d read back as %s %s %d, want %s %s %d", j, a.Name, a.TypeText(), a.Init, b.Name, b.TypeText(), b.Init)
		}
	}
	for i := range want.Properties {
		if got.Properties[i].Name != want.Properties[i].Name || got.Properties[i].Text != want.Properties[i].Text {
			t.Errorf("property %d read back as %s: %s, want %s: %s", i, got.Properties[i].Name, got.Properties[i].Text, want.Properties[i].Name, want.Properties[i].Text)
		}
	}
	for i := range want.Fairness.Justice {
		if got.Fairness.Justice[i].Text != want.Fairness.Justice[i].Text {
			t.Errorf("justice condition %d read back as %s, want %s", i, got.Fairness.Justice[i].Text, want.Fairness.Justice[i].Text)
		}
	}
	if got.Assume.Text != want.Assume.Text {
		t.Errorf("assumption read back as %q, want %q", got.Assume.Text, want.Assume.Text)
	}
	a, err := Instance(got)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Instance(want)
	if err != nil {
		t.Fatal(err)
	}
	project := func(totals, shared []int) string { return fmt.Sprint(totals, shared) }
	ma, err := counterabs.BuildGroup(a)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := counterabs.BuildGroup(b)
	if err != nil {
		t.Fatal(err)
	}
	ra, rb := ModelReach(ma, 30, project), ModelReach(mb, 30, project)
	if len(ra) != len(rb) {
		t.Fatalf("the YAML reaches %d states within 30 steps, the translation %d", len(ra), len(rb))
	}
	for k, d := range rb {
		if da, ok := ra[k]; !ok || da != d {
			t.Fatalf("state %s: reached at depth %d by the translation, not so from the YAML", k, d)
		}
	}
	// The properties read from the YAML's texts must have the verdicts
	// of those the translation built, where the explicit engine
	// finishes.
	repA, errA := explicit.Engine{}.Check(context.Background(), ma, explore.MaxStates(20000))
	repB, errB := explicit.Engine{}.Check(context.Background(), mb, explore.MaxStates(20000))
	if errA != nil || errB != nil {
		return // too large to decide here: the states compared above stand
	}
	for i := range repB.Properties {
		if repA.Properties[i].Holds != repB.Properties[i].Holds {
			t.Errorf("property %s: %v read from the YAML, %v as translated", want.Properties[i].Name, repA.Properties[i].Holds, repB.Properties[i].Holds)
		}
	}
}
