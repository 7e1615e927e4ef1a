package promela

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// TestSpinExt runs the concrete models of random instances with shared
// variables (of every kind), per-block updates, broadcasts and
// rendezvous through the real Spin. pan must store one state per
// configuration of the oracle (testsupport.ProcsWithin, on individual
// processes) plus init's start-up state, and every exported claim's
// verdict must equal the oracle's; the bound assertion must fire exactly
// when some reachable step takes an unbounded variable beyond the
// default bound (verdicts are then not compared: the header says they
// mean nothing).
func TestSpinExt(t *testing.T) {
	requireSpin(t)
	r := rand.New(rand.NewSource(2120))
	runs := 60
	if testing.Short() {
		runs = 15
	}
	var compared, claims, boundFails, rendezvous, broadcast int
	for i := range runs {
		want := gsst.Extension(0)
		if i%4 == 0 {
			want = gsst.ExtShared
		}
		in := testsupport.RandomExtInstance(r, want, 3)
		sys, sp := in.Sys, in.Space
		prog, err := Concrete(sys, Version("test"))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		p, err := buildPan(t, prog)
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, prog.Text)
		}
		res, err := p.run("-N", "_count")
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, prog.Text)
		}
		if res.violated != in.Beyond {
			t.Fatalf("system %d: pan reports a bound assertion violated: %v; the oracle says the bound is exceeded: %v\n%s", i, res.violated, in.Beyond, prog.Text)
		}
		if in.Beyond {
			boundFails++
			continue
		}
		if want := int64(sp.Len()) + 1; res.stored != want {
			t.Fatalf("system %d: pan stores %d states, the oracle has %d configurations (+1 for init's start-up)\n%s\n%s", i, res.stored, sp.Len(), testsupport.Describe(sys), prog.Text)
		}
		compared++
		rendezvous += b2i(in.Rendezvous)
		broadcast += b2i(in.Broadcast)
		for k := range prog.Claims {
			cl := &prog.Claims[k]
			if !cl.Exported() {
				continue
			}
			want := testsupport.Holds(sp.Graph, sys.Properties[k].Formula)
			got, err := p.run(cl.PanArgs(false)...)
			if err != nil {
				t.Fatalf("system %d, %s: %v\n%s", i, cl.Property, err, prog.Text)
			}
			if cl.Holds(got.violated) != want {
				t.Fatalf("system %d, property %s (%s), claim { %s }: Spin says %v, the oracle %v\n%s\n%s", i, cl.Property, cl.Text, cl.LTL, cl.Holds(got.violated), want, testsupport.Describe(sys), prog.Text)
			}
			claims++
		}
	}
	t.Logf("%d systems compared (%d with rendezvous, %d with broadcast), %d claims; %d exceeding the bound", compared, rendezvous, broadcast, claims, boundFails)
	if compared < runs/2 || rendezvous == 0 || broadcast == 0 || boundFails == 0 || claims < compared {
		t.Fatalf("the generator is out of balance: %d compared, %d rendezvous, %d broadcast, %d bound failures, %d claims", compared, rendezvous, broadcast, boundFails, claims)
	}
}

// TestConcreteExtHeader: the header states the parameter values and the
// bound, and the model asserts it.
func TestConcreteExtHeader(t *testing.T) {
	spec := &gsst.Spec{
		Name:   "bounded",
		States: []string{"A", "B"},
		Groups: []gsst.Group{{Name: "p", Size: 3}},
		Init:   [][]int{{3, 0}},
		Shared: []gsst.Shared{{Name: "nsent", Unbounded: true}},
		Params: []gsst.Param{{Name: "t", Fixed: true, Value: 1}},
	}
	x := presburger.VarTerm(spec.SharedVar(0))
	spec.Transitions = []gsst.Transition{{From: 0, To: 1, Blocks: []gsst.Block{{Groups: []int{0}, Guard: presburger.True,
		Update: gsst.Update{Text: "nsent := nsent + 1", Assign: []gsst.Assign{{Var: spec.SharedVar(0), Value: x.Add(presburger.ConstTerm(1))}}}}}}}
	sys, err := gsst.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ bound, hi int }{{0, 3}, {7, 7}} {
		prog, err := Concrete(sys, Bound(tc.bound))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			"Parameters of this instance (folded into constants): t = 1.",
			"nsent: 0.." + itoa(tc.hi) + " (unbounded in the spec",
			"assert(nsent + 1 <= " + itoa(tc.hi) + ")",
			"MEANINGFUL ONLY WHEN NO",
		} {
			if !strings.Contains(prog.Text, want) {
				t.Errorf("bound %d: no %q in\n%s", tc.bound, want, prog.Text)
			}
		}
	}
}
