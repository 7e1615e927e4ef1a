package gsst_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// stepsText writes what every stage reads of sys's steps: each step's
// guard, writes (FormatUpdate of the checked update), transfers and
// whether it is Simple (the paper's step). Two systems with the same
// stepsText are the same to every analysis that asks which steps write
// which variable.
func stepsText(sys *gsst.System) string {
	var b strings.Builder
	for _, st := range sys.Steps() {
		o := st.Origin
		var parts []string
		for _, pt := range st.Parts {
			parts = append(parts, fmt.Sprintf("%d->%d%v", pt.From, pt.To, pt.Groups))
		}
		fmt.Fprintf(&b, "t%d b%d r%d e%d parts %v guard %s writes {%s} transfers %v simple %v\n", o.Transition, o.Block, o.Rendezvous, o.Environment, parts,
			presburger.Format(st.Guard, sys.VarName), sys.FormatUpdate(&st.Update), st.Transfers, st.Simple())
	}
	return b.String()
}

// An update that lists every variable, the unchanged ones as x := x, is
// the system that lists only what changes: the same steps and writes,
// per whole step, per group and in a rendezvous and an environment step,
// and x := x + f with f = 0 once instantiated or pinned.
func TestIdentityAssignIsNoWrite(t *testing.T) {
	const head = `states: [U, V]
groups: {a: 2, b: 1}
init: U
params: [f]
assume: f = 0
shared:
  x: {type: "0..", init: 0}
  y: {type: "0..3", init: 0}
  c: {type: "0..", init: 0}
  g: {type: bool, init: false}
  e: {type: [lo, hi], init: lo}
properties:
  p: AG (y <= 3 | x >= 0)
transitions:
`
	listed := testsupport.Parse("listed.yaml", head+`  - {from: U, to: V, update: "x := x; y := y + 1; g := g; e := e"}
  - {from: V, to: U, update: {a: "x := x + 0; g := true", b: "e := e; c := c"}}
  - {from: V, to: V, guard: "y = 3", update: "c := c + f; x := x"}
rendezvous:
  - {parts: [{from: U, to: V}, {from: U, to: V}], update: "x := x; y := y; e := hi"}
environment:
  - {guard: "x < 3", update: "x := x + 1; y := y; g := g"}
  - {guard: "y = 3", update: "y := 0; x := x"}
  - {guard: "y = 2", update: "x := x"}
`)
	// The same steps writing only what changes (but for b's update and
	// the last environment step, which are only x := x in both: an
	// update key the language asks for).
	const steps = `  - {from: U, to: V, update: "y := y + 1"}
  - {from: V, to: U, update: {a: "g := true", b: "e := e"}}
  - {from: V, to: V, guard: "y = 3", update: "c := c + f"}
rendezvous:
  - {parts: [{from: U, to: V}, {from: U, to: V}], update: "e := hi"}
environment:
  - {guard: "x < 3", update: "x := x + 1"}
  - {guard: "y = 3", update: "y := 0"}
  - {guard: "y = 2", update: "x := x"}
`
	plain := testsupport.Parse("plain.yaml", head+steps)
	if a, b := stepsText(listed), stepsText(plain); a != b {
		t.Fatalf("with x := x written:\n%s\nwithout:\n%s", a, b)
	}
	// What each step writes, as the file says it (an independent check
	// of what counts as an identity: x := x + 1 writes).
	want := []string{"y := y + 1", "g := true", "", "c := c + f", "e := hi", "x := x + 1", "y := 0", ""}
	for k, st := range plain.Steps() {
		if k >= len(want) {
			t.Fatalf("%d steps, want %d", len(plain.Steps()), len(want))
		}
		if got := plain.FormatUpdate(&st.Update); got != want[k] {
			t.Errorf("step %d writes %q, want %q", k, got, want[k])
		}
	}
	for _, st := range listed.Steps() {
		for _, a := range st.Update.Assign {
			if a.Identity() {
				t.Errorf("step %+v holds the identity %s := %s", st.Origin, listed.VarName(a.Var), a.Value.Format(listed.VarName))
			}
		}
	}
	// Printed as vsym convert writes a translation (the text as
	// written) and read back, the same (the printer writes the integers
	// and booleans of mist's and ByMC's translations).
	const counters = "states: [U, V]\ngroups: {a: 2}\ninit: U\nshared:\n  x: {type: \"0..\", init: 0}\n  g: {type: bool, init: false}\ntransitions:\n"
	listedC := testsupport.Parse("listed.yaml", counters+`  - {from: U, to: V, update: "x := x + 1; g := g"}
  - {from: V, to: U, update: "x := x; g := g"}
`)
	plainC := testsupport.Parse("plain.yaml", counters+`  - {from: U, to: V, update: "x := x + 1"}
  - {from: V, to: U}
`)
	if a, b := stepsText(printed(t, listedC)), stepsText(plainC); a != b {
		t.Errorf("printed and read back:\n%s\nwant:\n%s", a, b)
	}
	// The text stays as written, for what prints it back.
	if got := listed.Transitions[0].Blocks[0].Update.Text; got != "x := x; y := y + 1; g := g; e := e" {
		t.Errorf("update text %q, want it as written", got)
	}
	// The environment step of only x := x is kept, as an idle step.
	if env := listed.Steps()[len(listed.Steps())-1]; len(env.Update.Assign) != 0 || env.Origin.Environment != 2 {
		t.Errorf("the last step is %+v, want the environment step with nothing to write", env)
	}
	// c := c + f with f = 0 is an identity once f is fixed: the instance
	// and the pinned family write c nowhere, as the parse of the file
	// with c := c + 0 does.
	inst, err := plain.InstantiateParams([]int{0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pinned, ok, err := plain.PinParams()
	if err != nil || !ok {
		t.Fatalf("PinParams: %v, %v", ok, err)
	}
	folded := testsupport.Parse("folded.yaml", strings.Replace(head, "params: [f]\nassume: f = 0\n", "", 1)+
		strings.Replace(steps, "c := c + f", "c := c + 0", 1))
	for name, sys := range map[string]*gsst.System{"instance": inst, "pinned": pinned} {
		if a, b := stepsText(sys), stepsText(folded); a != b {
			t.Errorf("%s:\n%s\nthe file with f = 0:\n%s", name, a, b)
		}
	}
	// c is written nowhere and read by nothing: SliceUnread leaves it
	// out of the instance, whose updates' texts then name it nowhere.
	sliced, names, err := inst.SliceUnread()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names, "c") {
		t.Errorf("sliced %v, want c among them", names)
	}
	for _, st := range sliced.Steps() {
		if strings.Contains(st.Update.Text, "c :=") {
			t.Errorf("the sliced system's update %q assigns c", st.Update.Text)
		}
	}
}

// withIdentities returns sys with x := x added to its updates at random
// (every step, per block, rendezvous and environment steps), the text
// written from the assignments, as a file that lists unchanged variables
// says it.
func withIdentities(t *testing.T, r *rand.Rand, sys *gsst.System) *gsst.System {
	sp := sys.Spec()
	add := func(u *gsst.Update) {
		for j := range sp.Shared {
			x := sp.SharedVar(j)
			if r.Intn(2) == 0 || slices.ContainsFunc(u.Assign, func(a gsst.Assign) bool { return a.Var == x }) {
				continue
			}
			at := r.Intn(len(u.Assign) + 1)
			u.Assign = slices.Insert(slices.Clone(u.Assign), at, gsst.Assign{Var: x, Value: presburger.VarTerm(x)})
		}
		if len(u.Assign) > 0 {
			u.Text = sp.FormatUpdate(u)
		}
	}
	for i := range sp.Transitions {
		for j := range sp.Transitions[i].Blocks {
			add(&sp.Transitions[i].Blocks[j].Update)
		}
	}
	for i := range sp.Rendezvous {
		add(&sp.Rendezvous[i].Update)
	}
	for i := range sp.Environment {
		add(&sp.Environment[i].Update)
	}
	with, err := gsst.New(sp)
	if err != nil {
		t.Fatalf("%v\n%s", err, testsupport.Describe(sys))
	}
	return with
}

// printed is sys written by the YAML printer (vsym print, convert)
// and read back.
func printed(t *testing.T, sys *gsst.System) *gsst.System {
	var buf bytes.Buffer
	if err := formats.Write(&buf, &formats.Import{Spec: sys.Spec()}); err != nil {
		t.Fatal(err)
	}
	again, err := gsst.Parse("printed.yaml", buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return again
}

// Random systems of every construct with x := x added to their updates
// are the systems without: the same steps and writes (what every stage
// reads), the same YAML, the same instances and pinned families, the same slice, and the same state
// space explored process by process.
func TestIdentityAssignRandom(t *testing.T) {
	r := rand.New(rand.NewSource(2911))
	cfgs := []testsupport.Config{
		testsupport.Small(testsupport.SharedVars, testsupport.AllConstructs),
		{MaxGroups: 2, MaxSize: 2, MaxProcesses: 4, Want: testsupport.SharedVars, May: testsupport.AllConstructs, Family: true},
	}
	added, explored, families := 0, 0, 0
	for i := range 160 {
		sys := testsupport.RandomSystem(r, cfgs[i%2])
		with := withIdentities(t, r, sys)
		for _, st := range with.Steps() {
			for _, a := range st.Update.Assign {
				if a.Identity() {
					t.Fatalf("system %d: a step of the checked system holds %s := %s", i, with.VarName(a.Var), a.Value.Format(with.VarName))
				}
			}
		}
		if testsupport.Describe(with) != testsupport.Describe(sys) { // Describe writes the texts
			added++
		}
		if a, b := stepsText(with), stepsText(sys); a != b {
			t.Fatalf("system %d with x := x:\n%s\nwithout:\n%s", i, a, b)
		}
		if a, b := testsupport.YAML(with), testsupport.YAML(sys); a != b {
			t.Fatalf("system %d: YAML with x := x\n%s\nwithout\n%s", i, a, b)
		}
		ws, wn, err1 := with.SliceUnread()
		ps, pn, err2 := sys.SliceUnread()
		if err1 != nil || err2 != nil {
			t.Fatalf("system %d: SliceUnread: %v, %v", i, err1, err2)
		}
		if !slices.Equal(wn, pn) || testsupport.YAML(ws) != testsupport.YAML(ps) {
			t.Fatalf("system %d: sliced %v with x := x, %v without", i, wn, pn)
		}
		if len(sys.Params) > 0 && !sys.Params[0].Fixed {
			families++
			for range 3 {
				vals := make([]int, len(sys.Params))
				for k := range vals {
					vals[k] = r.Intn(4)
				}
				wi, err1 := with.InstantiateParams(vals, nil)
				pi, err2 := sys.InstantiateParams(vals, nil)
				if (err1 == nil) != (err2 == nil) {
					t.Fatalf("system %d at %v: %v with x := x, %v without", i, vals, err1, err2)
				}
				if err1 == nil && stepsText(wi) != stepsText(pi) {
					t.Fatalf("system %d at %v: the instances differ\n%s\n%s", i, vals, stepsText(wi), stepsText(pi))
				}
			}
			wp, wok, err1 := with.PinParams()
			pp, pok, err2 := sys.PinParams()
			if err1 != nil || err2 != nil || wok != pok || stepsText(wp) != stepsText(pp) {
				t.Fatalf("system %d: pinned %v %v with x := x, %v %v without", i, wok, err1, pok, err2)
			}
			continue
		}
		// The runs are the same: x := x never blocks, and writes nothing.
		a, _ := testsupport.ProcsWithin(with, 4)
		b, _ := testsupport.ProcsWithin(sys, 4)
		if len(a.States) != len(b.States) {
			t.Fatalf("system %d: %d states with x := x, %d without", i, len(a.States), len(b.States))
		}
		for k := range a.States {
			if a.States[k].Key() != b.States[k].Key() || !slices.Equal(a.Succ[k], b.Succ[k]) {
				t.Fatalf("system %d: state %d differs: %s %v with x := x, %s %v without", i, k, a.States[k].Key(), a.Succ[k], b.States[k].Key(), b.Succ[k])
			}
		}
		explored++
	}
	t.Logf("%d systems (%d with x := x added), %d explored, %d families", 160, added, explored, families)
	if added < 40 || explored < 40 || families < 20 {
		t.Errorf("the sample exercises too little: %d with identities, %d explored, %d families", added, explored, families)
	}
}
