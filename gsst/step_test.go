package gsst_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// TestStepsAgainstProcesses checks the one meaning of a step (gsst's
// Steps, Choices, After, Movers, Transferred, CheckMovers, and the
// formulas EnabledFormula and Effect) against testsupport's process-level
// semantics, written from the language's contract alone, on every
// reachable configuration of random small systems with every construct:
// the successors on counters are the oracle's, projected; the processes
// a step names reach one of the oracle's successors with those movers;
// the formulas hold exactly where the configurations say.
func TestStepsAgainstProcesses(t *testing.T) {
	systems := 300
	if testing.Short() {
		systems = 80
	}
	r := rand.New(rand.NewSource(25))
	var configs, steps, multi, transfers, updates, restricted, loops, env, named int
	for i := range systems {
		sys := testsupport.RandomSystem(r, testsupport.Small(0, testsupport.AllConstructs))
		sp, _ := testsupport.ProcsWithin(sys, 6)
		for _, ps := range append(sp.States, randomStates(r, sys, len(sp.Owner), 20)...) {
			configs++
			checkConfig(t, fmt.Sprintf("system %d (%s)", i, sys.Name), sys, sp.Owner, ps)
			if t.Failed() {
				t.Fatalf("system %d:\n%s", i, testsupport.Describe(sys))
			}
		}
		for _, t := range sys.Transitions {
			if t.Name != "" && slices.ContainsFunc(sys.Transitions, func(u gsst.Transition) bool { return u.Name != t.Name && u.From == t.From && u.To == t.To }) {
				named++
			}
		}
		for _, st := range sys.Steps() {
			steps++
			if len(st.Parts) == 0 {
				env++
			}
			if slices.ContainsFunc(st.Parts, func(p gsst.Part) bool { return p.From == p.To }) {
				loops++
			}
			switch {
			case len(st.Parts) > 1:
				multi++
			case len(st.Transfers) > 0:
				transfers++
			}
			if len(st.Update.Assign) > 0 {
				updates++
			}
			for _, p := range st.Parts {
				if p.Groups != nil {
					restricted++
					break
				}
			}
		}
	}
	t.Logf("%d systems, %d configurations, %d steps: %d with several parts, %d broadcasts, %d with updates, %d with parts restricted to groups, %d where a mover stays, %d environment steps, %d named transitions sharing their states",
		systems, configs, steps, multi, transfers, updates, restricted, loops, env, named)
	if multi == 0 || transfers == 0 || updates == 0 || restricted == 0 || loops == 0 || env == 0 || named == 0 {
		t.Fatal("the sample leaves a kind of step unexercised")
	}
}

// randomStates draws k configurations of sys's processes, reachable or
// not: each process in a random state, each shared value in its domain
// (within 5 of its least value).
func randomStates(r *rand.Rand, sys *gsst.System, procs, k int) []testsupport.ProcState {
	out := make([]testsupport.ProcState, k)
	for i := range out {
		for range procs {
			out[i].Conf = append(out[i].Conf, r.Intn(len(sys.States)))
		}
		for _, v := range sys.Shared {
			hi := v.Lo + 5
			if !v.Unbounded {
				hi = min(hi, v.Hi)
			}
			out[i].Shared = append(out[i].Shared, v.Lo+r.Intn(hi-v.Lo+1))
		}
	}
	return out
}

// succKey identifies a successor on counters: the step's origin, the
// movers' groups, and the configuration reached.
func succKey(o gsst.Origin, groups []int, counts [][]int, shared []int) string {
	return fmt.Sprint(o.Transition, o.Rendezvous, o.Environment, groups, counts, shared)
}

func checkConfig(t *testing.T, where string, sys *gsst.System, owner []int, ps testsupport.ProcState) {
	t.Helper()
	d, m := len(sys.Groups), len(sys.States)
	states := make([][]int, d)
	counts := make([][]int, d)
	for g := range counts {
		counts[g] = make([]int, m)
	}
	for p, s := range ps.Conf {
		states[owner[p]] = append(states[owner[p]], s)
		counts[owner[p]][s]++
	}
	// number[p] is process p's number within its group.
	number := make([]int, len(owner))
	seen := make([]int, d)
	for p, g := range owner {
		number[p] = seen[g]
		seen[g]++
	}
	c := gsst.Config{Counts: counts, Shared: ps.Shared}

	// The oracle's successors, projected to counters, and by movers.
	oracle := map[string]bool{}
	byMovers := map[string]testsupport.ProcState{}
	for _, os := range testsupport.ProcSteps(sys, owner, ps) {
		groups := make([]int, len(os.Movers))
		movers := make([]gsst.Mover, len(os.Movers))
		for i, p := range os.Movers {
			groups[i] = owner[p]
			movers[i] = gsst.Mover{Group: owner[p], Process: number[p]}
		}
		next := make([][]int, d)
		for g := range next {
			next[g] = make([]int, m)
		}
		for p, s := range os.Next.Conf {
			next[owner[p]][s]++
		}
		o := gsst.Origin{Transition: os.Transition, Rendezvous: os.Rendezvous, Environment: os.Environment}
		oracle[succKey(o, groups, next, os.Next.Shared)] = true
		byMovers[fmt.Sprint(os.Transition, os.Rendezvous, os.Environment, movers)] = os.Next
	}

	succs, err := sys.Successors(c)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	got := map[string]bool{}
	stepsOf := sys.Steps()
	for _, sc := range succs {
		st := &stepsOf[sc.Step]
		key := succKey(st.Origin, sc.Groups, sc.Next.Counts, sc.Next.Shared)
		got[key] = true
		if !oracle[key] {
			t.Errorf("%s: at %v %v, %s by groups %v reaches %v %v, which no process step reaches", where, counts, ps.Shared, sys.StepName(st), sc.Groups, sc.Next.Counts, sc.Next.Shared)
			continue
		}
		// The named processes reach the oracle's successor for them.
		procs := sys.ProcsOf(states, ps.Shared, nil)
		movers := sys.Movers(st, procs, sc.Groups)
		if movers == nil && len(st.Parts) > 0 {
			t.Errorf("%s: %s by groups %v: no movers", where, sys.StepName(st), sc.Groups)
			continue
		}
		ids := make([]gsst.Mover, len(movers))
		for i, mv := range movers {
			ids[i] = gsst.Mover{Group: mv.Group, Process: mv.Process}
		}
		want, ok := byMovers[fmt.Sprint(st.Origin.Transition, st.Origin.Rendezvous, st.Origin.Environment, ids)]
		if !ok {
			t.Errorf("%s: %s: movers %v take no step of the oracle", where, sys.StepName(st), movers)
			continue
		}
		transferred, shared, err := sys.CheckMovers(st, procs, movers)
		if err != nil {
			t.Errorf("%s: %s: CheckMovers: %v", where, sys.StepName(st), err)
			continue
		}
		if !slices.Equal(transferred, sys.Transferred(st, procs, movers)) || !slices.Equal(shared, sc.Next.Shared) {
			t.Errorf("%s: %s: CheckMovers disagrees with Transferred and Choices", where, sys.StepName(st))
		}
		procs.Take(movers, transferred, shared)
		for p := range owner {
			if procs.State(owner[p], number[p]) != want.Conf[p] {
				t.Errorf("%s: %s by %v: process %d of group %d ends in %d, the oracle says %d", where, sys.StepName(st), movers, number[p], owner[p], procs.State(owner[p], number[p]), want.Conf[p])
			}
		}
		if !slices.Equal(procs.Shared, want.Shared) {
			t.Errorf("%s: %s: shared values %v, the oracle says %v", where, sys.StepName(st), procs.Shared, want.Shared)
		}
	}
	for key := range oracle {
		if !got[key] {
			t.Errorf("%s: at %v %v the oracle's successor %s is missing", where, counts, ps.Shared, key)
		}
	}

	// The formulas say the same as the configurations.
	val := sys.ValuationOf(c)
	for i := range stepsOf {
		st := &stepsOf[i]
		var choices [][]int
		if err := sys.Choices(st, c, func(groups, _ []int) bool { choices = append(choices, slices.Clone(groups)); return true }); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if got := presburger.Eval(sys.EnabledFormula(st), val); got != (len(choices) > 0) {
			t.Errorf("%s: at %v %v EnabledFormula of %s is %v, but %d choices", where, counts, ps.Shared, sys.StepName(st), got, len(choices))
		}
		eachAssignment(sys, st, func(groups []int) {
			one := st.WithGroups(groups)
			in := slices.ContainsFunc(choices, func(c []int) bool { return slices.Equal(c, groups) })
			if got := presburger.Eval(sys.EnabledFormula(&one), val); got != in {
				t.Errorf("%s: at %v %v EnabledFormula of %s by groups %v is %v, Choices says %v", where, counts, ps.Shared, sys.StepName(st), groups, got, in)
			}
			if !in {
				return
			}
			shared, _, _ := sys.Updated(&st.Update, val, c.Shared)
			next := sys.After(st, c, groups, shared)
			dz, w := sys.Effect(&one)
			before, after := c.Totals(m), next.Totals(m)
			for s := range m {
				if dz[s].Eval(val) != int64(after[s]-before[s]) {
					t.Errorf("%s: Effect of %s by %v changes #%s by %d, After by %d", where, sys.StepName(st), groups, sys.States[s], dz[s].Eval(val), after[s]-before[s])
				}
			}
			for j := range w {
				if w[j].Eval(val) != int64(shared[j]) {
					t.Errorf("%s: Effect of %s sets %s to %d, After to %d", where, sys.StepName(st), sys.Shared[j].Name, w[j].Eval(val), shared[j])
				}
			}
		})
	}
}

// eachAssignment calls f with every assignment of a group to each part
// of st that the parts allow.
func eachAssignment(sys *gsst.System, st *gsst.Step, f func(groups []int)) {
	groups := make([]int, len(st.Parts))
	var rec func(i int)
	rec = func(i int) {
		if i == len(st.Parts) {
			f(groups)
			return
		}
		for g := range sys.Groups {
			if st.Parts[i].Allows(g) {
				groups[i] = g
				rec(i + 1)
			}
		}
	}
	rec(0)
}

// TestEveryGroupWrittenOut: a transfer or a part that lists every group
// is "any group", as nil is: the step's effect is fixed and a broadcast
// from the mover's own state moves one process fewer than the state
// holds (the mover is not transferred).
func TestEveryGroupWrittenOut(t *testing.T) {
	sp := &gsst.Spec{Name: "all-groups", States: []string{"S", "I"},
		Groups: []gsst.Group{{Name: "a", Size: 2}, {Name: "b", Size: 1}}, Init: [][]int{{2, 0}, {1, 0}},
		Transitions: []gsst.Transition{{From: 0, To: 1, Blocks: []gsst.Block{{Groups: []int{0, 1}, Guard: presburger.True}},
			Broadcast: []gsst.Transfer{{From: 0, To: 1, Groups: []int{0, 1}}}}},
		Rendezvous: []gsst.Rendezvous{{Parts: []gsst.Part{{From: 0, To: 1, Groups: []int{0, 1}}, {From: 0, To: 1}}, Guard: presburger.True}},
	}
	sys, err := gsst.New(sp)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range sys.Steps() {
		for _, p := range st.Parts {
			if p.Groups != nil {
				t.Errorf("%s: a part of every group has groups %v, want nil", sys.StepName(&st), p.Groups)
			}
		}
		for _, x := range st.Transfers {
			if x.Groups != nil {
				t.Errorf("%s: a transfer of every group has groups %v, want nil", sys.StepName(&st), x.Groups)
			}
		}
	}
	st := &sys.Steps()[0]
	if !sys.EffectFixed(st) {
		t.Fatalf("the broadcast's effect is not fixed")
	}
	dz, _ := sys.Effect(st)
	val := sys.ValuationOf(sys.InitConfig())
	if got := dz[0].Eval(val); got != -3 {
		t.Errorf("the broadcast changes #S by %d from 3 processes in S, want -3 (the mover, and the 2 others transferred)", got)
	}
}

// TestMoversManyParts: a rendezvous with many parts from one state,
// written as mist's tests of a place ("x10 >= 45" as 45 parts x10 -> x10):
// MoversFormula enumerates the classes of parts (the groups they allow),
// not the parts, whose subsets were 2^k (it never returned at 45 parts,
// and at 64 or more the shift wrapped and the condition was left out).
// Here 30 parts of group a and 40 of any group need #A[a] >= 30 and
// #A >= 70 (Hall's condition on two nested classes), checked on every
// count of the two groups up to 80; and a rendezvous whose parts from one
// state allow more than MaxPartClasses sets of groups is refused.
func TestMoversManyParts(t *testing.T) {
	part := func(groups string) string { return "{from: A, to: A" + groups + "}, " }
	src := "name: many\nstates: [A, B]\ngroups: {a: 1.., b: 1..}\ninit: A\nrendezvous:\n  - parts: [" +
		strings.Repeat(part(", groups: [a]"), 30) + strings.Repeat(part(""), 39) + "{from: A, to: B}]\n"
	sys, err := gsst.Parse("many.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	st := &sys.Steps()[0]
	if len(st.Parts) != 70 {
		t.Fatalf("%d parts", len(st.Parts))
	}
	f := sys.MoversFormula(st.Parts)
	for na := 0; na <= 80; na += 2 {
		for nb := 0; nb <= 80; nb += 3 {
			y := [][]int{{na, 0}, {nb, 0}}
			want := na >= 30 && na+nb >= 70
			if got := presburger.Eval(f, sys.Valuation(y, nil)); got != want {
				t.Fatalf("at #A[a] = %d, #A[b] = %d: %s is %v, want %v", na, nb, presburger.Format(f, sys.VarName), got, want)
			}
		}
	}
	// Thirteen classes: each group alone, of thirteen groups.
	var groups, parts strings.Builder
	for g := range gsst.MaxPartClasses + 1 {
		fmt.Fprintf(&groups, "g%d: 1, ", g)
		parts.WriteString(part(fmt.Sprintf(", groups: [g%d]", g)))
	}
	src = "name: classes\nstates: [A, B]\ngroups: {" + strings.TrimSuffix(groups.String(), ", ") + "}\ninit: A\nrendezvous:\n  - parts: [" + parts.String() + "{from: A, to: B}]\n"
	if _, err := gsst.Parse("classes.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), "different sets of groups") {
		t.Errorf("13 classes of parts: err %v, want a refusal", err)
	}
}

// TestBlocksWithOneGuardMerged: Parse joins the blocks of a transition
// that have one guard and one update, as written ({a: G, b: G} is one
// block of a and b: the paper's symmetric case when they are every
// group), and keeps apart blocks whose guards or updates differ, even
// where they mean the same (#W = 0 and #W <= 0); New keeps a spec's
// blocks as they are.
func TestBlocksWithOneGuardMerged(t *testing.T) {
	blocks := func(guard string) [][]int {
		sys, err := gsst.Parse("blocks.yaml", []byte(`states: [U, V, W]
groups: {a: 2, b: 1, c: 1}
init: U
shared:
  x: {type: "0..", init: 0}
transitions:
  - {from: U, to: V, guard: `+guard+`}
`))
		if err != nil {
			t.Fatal(err)
		}
		var out [][]int
		for _, b := range sys.Transitions[0].Blocks {
			out = append(out, b.Groups)
		}
		if len(sys.Steps()) != len(out) {
			t.Errorf("%s: %d steps for %d blocks", guard, len(sys.Steps()), len(out))
		}
		return out
	}
	for _, tc := range []struct {
		guard string
		want  string
	}{
		{`{a: "#W = 0", b: "#W = 0", c: "#W = 0"}`, "[[0 1 2]]"},
		{`{a: "#W = 0", c: "#W = 0", b: "#V >= 1"}`, "[[0 2] [1]]"},
		{`{a: "#W = 0", b: "#W <= 0"}`, "[[0] [1]]"},
	} {
		if got := fmt.Sprint(blocks(tc.guard)); got != tc.want {
			t.Errorf("%s: blocks of groups %s, want %s", tc.guard, got, tc.want)
		}
	}
	// Updates count: one guard, two updates, two blocks.
	sys, err := gsst.Parse("upd.yaml", []byte(`states: [U, V]
groups: {a: 1, b: 1}
init: U
shared:
  x: {type: "0..", init: 0}
transitions:
  - {from: U, to: V, guard: {a: "x >= 0", b: "x >= 0"}, update: {a: "x := x + 1", b: "x := x + 2"}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sys.Transitions[0].Blocks); n != 2 {
		t.Errorf("one guard, two updates: %d blocks, want 2", n)
	}
	// New keeps two blocks alike as a spec states them.
	spec := sys.Spec()
	spec.Transitions[0].Blocks[1].Update = spec.Transitions[0].Blocks[0].Update
	again, err := gsst.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(again.Transitions[0].Blocks); n != 2 {
		t.Errorf("New: %d blocks, want the spec's 2", n)
	}
}
