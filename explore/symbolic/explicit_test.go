package symbolic

import (
	"context"
	"errors"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// compareReports checks that the BDD report agrees with the explicit
// engine's on counts and verdicts.
func compareReports(t *testing.T, what string, bdd, exp *explore.Report) {
	t.Helper()
	if bdd.ReachableStates.Cmp(exp.ReachableStates) != 0 || bdd.Deadlocks.Cmp(exp.Deadlocks) != 0 {
		t.Fatalf("%s: bdd reachable %v deadlocks %v, explicit %v %v", what, bdd.ReachableStates, bdd.Deadlocks, exp.ReachableStates, exp.Deadlocks)
	}
	if len(bdd.Properties) != len(exp.Properties) {
		t.Fatalf("%s: %d properties, explicit %d", what, len(bdd.Properties), len(exp.Properties))
	}
	for i := range bdd.Properties {
		b, x := bdd.Properties[i], exp.Properties[i]
		if b.Name != x.Name || b.Holds != x.Holds {
			t.Fatalf("%s: property %s: bdd %v, explicit %s %v", what, b.Name, b.Holds, x.Name, x.Holds)
		}
		if (b.Trace == nil) != (x.Trace == nil) {
			t.Fatalf("%s: property %s (%s, holds %v): bdd trace %v, explicit trace %+v", what, b.Name, b.Text, b.Holds, b.Trace != nil, x.Trace)
		}
		if b.Trace != nil && b.Trace.Loop < 0 && x.Trace.Loop < 0 && len(b.Trace.States) != len(x.Trace.States) {
			// Both engines build shortest finite traces.
			t.Fatalf("%s: property %s: bdd trace of %d states, explicit %d", what, b.Name, len(b.Trace.States), len(x.Trace.States))
		}
	}
}

// TestAgainstExplicitRandom cross-checks the BDD engine with package
// explore's explicit engine on random counter models and random CTL.
func TestAgainstExplicitRandom(t *testing.T) {
	r := rand.New(rand.NewSource(77))
	models := 215
	if testing.Short() {
		models = 40
	}
	var holds, traces, nontrivial int
	for i := 0; i < models; i++ {
		mod := randomModel(r, 5)
		g := modelGraph(mod)
		exp, err := explicit.Engine{}.Check(context.Background(), mod)
		if err != nil {
			t.Fatalf("model %d: explicit: %v", i, err)
		}
		bdd, _, err := exploreModel(context.Background(), mod)
		if err != nil {
			t.Fatalf("model %d: bdd: %v", i, err)
		}
		compareReports(t, "random model", bdd, exp)
		for j, p := range bdd.Properties {
			if p.Holds {
				holds++
			}
			if p.Trace != nil {
				traces++
			}
			checkTrace(t, mod, g, mod.Properties[j].Formula, mod.Properties[j].Formula, p)
		}
		if bdd.ReachableStates.Int64() > 1 {
			nontrivial++
		}
	}
	t.Logf("%d models (%d with more than one reachable state): %d of %d verdicts hold, %d traces", models, nontrivial, holds, 5*models, traces)
	if nontrivial < models/2 || holds < models || 5*models-holds < models || traces < models {
		t.Errorf("the random sample exercises too little")
	}
}

// TestSelectedProperties: the BDD engine picks and orders properties as
// the explicit one does, and an unknown name is bad input in both.
func TestSelectedProperties(t *testing.T) {
	mod := grw(4, 3)
	atom := ctl.Atom{P: presburger.Compare(v(0), presburger.Ge, k(1))}
	mod.System.Properties = append(mod.System.Properties,
		gsst.Property{Name: "ef", Formula: ctl.Unary{Op: ctl.EF, X: atom}},
		gsst.Property{Name: "ag", Formula: ctl.Unary{Op: ctl.AG, X: atom}})
	mod = reassemble(mod)
	names := []string{"ag", "mutex"}
	exp, err := explicit.Engine{}.Check(context.Background(), mod, explore.Properties(names...))
	if err != nil {
		t.Fatal(err)
	}
	bdd, err := DefaultBDD().Check(context.Background(), mod, explore.Properties(names...))
	if err != nil {
		t.Fatal(err)
	}
	if len(bdd.Properties) != len(names) {
		t.Fatalf("%d results for %d names", len(bdd.Properties), len(names))
	}
	for i, p := range bdd.Properties {
		if p.Name != names[i] {
			t.Errorf("result %d is %s, want %s", i, p.Name, names[i])
		}
	}
	compareReports(t, "selected", bdd, exp)
	for _, e := range []explore.Engine{explicit.Engine{}, DefaultBDD()} {
		if _, err := e.Check(context.Background(), mod, explore.Properties("mutex", "nope")); !errors.Is(err, errkind.Input) {
			t.Errorf("%s: unknown property name: %v, want bad input", e.Name(), err)
		}
	}
	all, err := DefaultBDD().Check(context.Background(), mod)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Properties) != len(mod.Properties) {
		t.Errorf("no selection: %d results, want all %d", len(all.Properties), len(mod.Properties))
	}
}
