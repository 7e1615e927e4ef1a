package gsst_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// TestControllersAsShared checks ControllersAsShared by brute force on
// random systems with controllers (testsupport.RandomControlled): from
// every configuration the system as written reaches, the steps of the
// system read (the controllers' processes as their variables) lead to
// the configurations the steps as written lead to, read alike, and the
// two reach the same configurations; every atom of every property and
// justice condition has the same value on both.
func TestControllersAsShared(t *testing.T) {
	systems := 300
	if testing.Short() {
		systems = 100
	}
	r := rand.New(rand.NewSource(2901))
	sizes := []string{"{p: 1, q: 1}", "{p: 2, q: 1}", "{p: 1, q: 2}"}
	read, declined, envs, twos := 0, 0, 0, 0
	for i := range systems {
		src := testsupport.RandomControlled(r, sizes[r.Intn(len(sizes))])
		sys, err := gsst.Parse(fmt.Sprintf("ctl%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		c, ok, err := sys.ControllersAsShared()
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		if !ok {
			declined++
			continue
		}
		read++
		if len(c.System.Environment) > 0 {
			envs++
		}
		if len(c.Controllers) == 2 {
			twos++
		}
		sameRuns(t, i, src, sys, c)
	}
	t.Logf("%d systems: %d read (%d with an environment step, %d with two controllers), %d declined", systems, read, envs, twos, declined)
	if read < systems*2/3 || declined == 0 || envs < systems/10 || twos < systems/5 {
		t.Errorf("the sample exercises too little")
	}
}

// sameRuns compares the system as written and c.System step by step
// from every configuration the system as written reaches.
func sameRuns(t *testing.T, i int, src string, sys *gsst.System, c *gsst.Controlled) {
	t.Helper()
	out := c.System
	owner, _ := testsupport.Processes(sys)
	var keep []int // the processes of sys that out has, in its order
	var ctlProc []int
	for _, k := range c.Controllers {
		ctlProc = append(ctlProc, slices.Index(owner, k.Group))
	}
	for p, g := range owner {
		if !slices.ContainsFunc(c.Controllers, func(k gsst.Controller) bool { return k.Group == g }) {
			keep = append(keep, p)
		}
	}
	outOwner, _ := testsupport.Processes(out)
	read := func(st testsupport.ProcState) testsupport.ProcState {
		conf := make([]int, len(keep))
		for k, p := range keep {
			conf[k] = st.Conf[p]
		}
		shared := slices.Clone(st.Shared)
		for k, ctl := range c.Controllers {
			at := slices.Index(ctl.States, st.Conf[ctlProc[k]])
			if at < 0 {
				t.Fatalf("system %d: controller %s's process is in %s, none of its states\n%s", i, sys.Groups[ctl.Group].Name, sys.States[st.Conf[ctlProc[k]]], src)
			}
			shared = append(shared, at)
		}
		return testsupport.ProcState{Conf: conf, Shared: shared}
	}
	sp := testsupport.Procs(sys, 0)
	reached := map[string]bool{}
	for _, st := range sp.States {
		rd := read(st)
		reached[rd.Key()] = true
		var want, got []string
		for _, step := range testsupport.ProcSteps(sys, sp.Owner, st) {
			want = append(want, read(step.Next).Key())
		}
		for _, step := range testsupport.ProcSteps(out, outOwner, rd) {
			got = append(got, step.Next.Key())
		}
		slices.Sort(want)
		slices.Sort(got)
		if want, got = slices.Compact(want), slices.Compact(got); !slices.Equal(want, got) {
			t.Fatalf("system %d: from %v (read %v) the system as written steps to %v, read to %v\n%s\nread:\n%s", i, st.Key(), rd.Key(), want, got, src, testsupport.Describe(out))
		}
		// Every atom of the properties and justice conditions.
		wv, ov := valuation(sys, sp.Owner, st), valuation(out, outOwner, rd)
		for k := range sys.Properties {
			for j, f := range atoms(sys.Properties[k].Formula) {
				if g := atoms(out.Properties[k].Formula)[j]; presburger.Eval(f, wv) != presburger.Eval(g, ov) {
					t.Fatalf("system %d: property %s, atom %d differs at %v\n%s", i, sys.Properties[k].Name, j, st.Key(), src)
				}
			}
		}
		for k := range sys.Fairness.Justice {
			if presburger.Eval(sys.Fairness.Justice[k].Formula, wv) != presburger.Eval(out.Fairness.Justice[k].Formula, ov) {
				t.Fatalf("system %d: justice %d differs at %v\n%s", i, k, st.Key(), src)
			}
		}
	}
	for _, st := range testsupport.Procs(out, 0).States {
		if !reached[st.Key()] {
			t.Fatalf("system %d: the system read reaches %v, the system as written nothing it reads so\n%s", i, st.Key(), src)
		}
	}
}

// valuation reads a configuration of sys on processes (owner[p] the
// group of process p) as the values of sys's variables.
func valuation(sys *gsst.System, owner []int, st testsupport.ProcState) func(presburger.Var) int64 {
	y := make([][]int, len(sys.Groups))
	for g := range y {
		y[g] = make([]int, len(sys.States))
	}
	for p, s := range st.Conf {
		y[owner[p]][s]++
	}
	return sys.Valuation(y, st.Shared)
}

// atoms returns the state formulas of a property, in order.
func atoms(f ctl.Formula) []presburger.Formula {
	var out []presburger.Formula
	ctl.MapAtoms(f, func(g presburger.Formula) presburger.Formula {
		out = append(out, g)
		return g
	})
	return out
}

// TestControllersAsSharedDeclined lists what is no controller.
func TestControllersAsSharedDeclined(t *testing.T) {
	base := `states: [A, B, F0, F1]
groups: {p: 1.., f: 1}
init: {p: A, f: F0}
transitions:
- {from: A, to: B, guard: "#F1 = 1"}
rendezvous:
- {parts: [{from: B, to: A}, {from: F0, to: F1}]}
- {parts: [{from: B, to: A}, {from: F1, to: F0}]}
properties: {safe: "AG #B <= 5"}
`
	sys, err := gsst.Parse("base.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	c, ok, err := sys.ControllersAsShared()
	if err != nil || !ok || len(c.Controllers) != 1 || !c.System.Shared[0].Bool {
		t.Fatalf("the base: %v, %v, %+v", ok, err, c)
	}
	for name, edit := range map[string][2]string{
		"two processes":   {"f: 1}", "f: 2}"},
		"a range":         {"f: 1}", "f: 1..2}"},
		"another enters":  {"- {from: A, to: B, guard: \"#F1 = 1\"}", "- {from: A, to: F1}"},
		"another starts":  {"init: {p: A, f: F0}", "init: {p: F1, f: F0}"},
		"a transfer":      {"- {from: A, to: B, guard: \"#F1 = 1\"}", "- {from: A, to: B, broadcast: [\"F1 -> F0\"]}"},
		"two parts":       {"- {parts: [{from: B, to: A}, {from: F1, to: F0}]}", "- {parts: [{from: F0, to: F1}, {from: F1, to: F0}]}"},
		"a weak fairness": {"properties:", "fairness: {weak: [\"A -> B [p]\"]}\nproperties:"},
	} {
		src := strings.Replace(base, edit[0], edit[1], 1)
		if src == base {
			t.Fatalf("%s: the edit does not apply", name)
		}
		sys, err := gsst.Parse("edit.yaml", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, ok, err := sys.ControllersAsShared(); ok || err != nil {
			t.Errorf("%s: read as a controller (%v)", name, err)
		}
	}
}

// TestControllersAsSharedN: n counts the controller's process as
// written; the system read has one process fewer.
func TestControllersAsSharedN(t *testing.T) {
	src := `states: [A, B, F0, F1]
groups: {p: 1.., f: 1}
init: {p: A, f: F0}
transitions:
- {from: A, to: B, guard: "n >= 3 & #F1 = 1"}
rendezvous:
- {parts: [{from: B, to: A}, {from: F0, to: F1}]}
properties: {safe: "AG #B <= n - 1"}
`
	sys, err := gsst.Parse("n.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c, ok, err := sys.ControllersAsShared()
	if err != nil || !ok {
		t.Fatalf("%v, %v", ok, err)
	}
	out := c.System
	if got := out.Transitions[0].Blocks[0].Text; got != "n >= 2 & f" {
		t.Errorf("guard %q, want %q", got, "n >= 2 & f")
	}
	if got := out.Properties[0].Text; got != "AG (#B - n <= 0)" {
		t.Errorf("property %q, want %q", got, "AG (#B - n <= 0)")
	}
}
