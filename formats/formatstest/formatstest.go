// Package formatstest holds what the tests of the readers of package
// formats share: the check that the YAML of an import reads back as the
// system the import translates to (ReadsBack, Golden), the checks of a
// fuzzed input (Fuzzed) and of expected errors (Errors), the outcome of
// a suite's file (Outcome), and the breadth-first exploration of a
// counter model projected to total counters and shared values
// (ModelReach, Diff), on which the cross-checks against each source
// format's own semantics compare reachable states.
package formatstest

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// ProcReach explores inst on processes (testsupport.ProcSteps, the
// reference semantics of GSST) breadth first to depth, and returns the
// states it reaches projected by project, each with the least depth at
// which a state of that projection is reached.
func ProcReach(inst *gsst.System, depth int, project func(totals, shared []int) string) map[string]int {
	out, _ := ProcReachWithin(inst, depth, 0, project)
	return out
}

// ProcReachWithin is ProcReach bounded by work: it stops inside the
// first layer that takes the states it has seen beyond limit (0: no
// limit), or its work beyond procWork times limit (a process's step, a
// choice of processes for a rendezvous). reached is the last layer
// explored in full: every state of depth at most reached is in out,
// with its least depth (out may hold some of the next layer too).
func ProcReachWithin(inst *gsst.System, depth, limit int, project func(totals, shared []int) string) (out map[string]int, reached int) {
	owner, _ := testsupport.Processes(inst)
	totals := func(st testsupport.ProcState) []int {
		x := make([]int, len(inst.States))
		for _, s := range st.Conf {
			x[s]++
		}
		return x
	}
	// From every initial configuration, listed apart from gsst.
	ones, err := testsupport.EachInitial(inst)
	if err != nil {
		panic(fmt.Sprintf("formatstest: the initial configurations of %s: %v", inst.Name, err))
	}
	out = map[string]int{}
	seen := map[string]bool{}
	var frontier []testsupport.ProcState
	for _, one := range ones {
		_, conf := testsupport.Processes(one)
		start := testsupport.ProcState{Conf: conf, Shared: one.InitShared()}
		out[project(totals(start), start.Shared)] = 0
		if !seen[start.Key()] {
			seen[start.Key()] = true
			frontier = append(frontier, start)
		}
	}
	// The work of a state's steps: one per process and per choice of
	// the processes of a rendezvous (ProcSteps tries every one), so that
	// a rendezvous of five among a hundred processes stops the search
	// rather than try 10^10 choices.
	work := 0
	return out, layers(depth, limit, seen, frontier, func(st testsupport.ProcState, visit func(testsupport.ProcState, string)) bool {
		x := totals(st)
		work += len(st.Conf)
		for _, rv := range inst.Rendezvous {
			choices := 1
			for _, p := range rv.Parts {
				choices *= x[p.From]
				if limit > 0 && choices > limit*procWork {
					return false
				}
			}
			work += choices
		}
		if limit > 0 && work > limit*procWork {
			return false
		}
		for _, step := range testsupport.ProcSteps(inst, owner, st) {
			visit(step.Next, step.Next.Key())
		}
		return true
	}, func(st testsupport.ProcState, d int) {
		k := project(totals(st), st.Shared)
		if _, dup := out[k]; !dup {
			out[k] = d
		}
	})
}

// procWork is the work ProcReachWithin may do per state of its limit.
const procWork = 50

// layers runs a breadth-first search from frontier (whose keys are in
// seen) to depth, calling found on every new state with its depth, and
// stopping inside the first layer that takes seen beyond limit (0: no
// limit) or in which next says the work is over. It returns the last
// layer explored in full.
func layers[S any](depth, limit int, seen map[string]bool, frontier []S, next func(S, func(S, string)) bool, found func(S, int)) int {
	reached := 0
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var layer []S
		over := false
		for _, x := range frontier {
			ok := next(x, func(y S, key string) {
				if over || seen[key] {
					return
				}
				seen[key] = true
				layer = append(layer, y)
				found(y, d)
				over = limit > 0 && len(seen) > limit
			})
			if over || !ok {
				return reached
			}
		}
		reached = d
		frontier = layer
	}
	if len(frontier) == 0 {
		return depth // nothing lies beyond: every layer is complete
	}
	return reached
}

// ModelReach explores the counter model m breadth first to depth and
// returns every state it reaches, projected by project (from the total
// counters and the shared values), with the least depth at which a
// state of that projection is reached.
func ModelReach(m *counterabs.Model, depth int, project func(totals, shared []int) string) map[string]int {
	out, _ := ModelReachWithin(m, depth, 0, project)
	return out
}

// ModelReachWithin is ModelReach bounded by work, as ProcReachWithin:
// reached is the last layer explored in full.
func ModelReachWithin(m *counterabs.Model, depth, limit int, project func(totals, shared []int) string) (out map[string]int, reached int) {
	out = map[string]int{}
	seen := map[string]bool{}
	var frontier [][]int
	for _, start := range m.Starts() {
		out[project(m.Totals(start), m.SharedValues(start))] = 0
		seen[fmt.Sprint(start)] = true
		frontier = append(frontier, slices.Clone(start))
	}
	return out, layers(depth, limit, seen, frontier, func(x []int, visit func([]int, string)) bool {
		val := func(v presburger.Var) int64 { return int64(x[v]) }
		for i := range m.Transitions {
			tr := &m.Transitions[i]
			if !presburger.Eval(tr.Guard, val) {
				continue
			}
			y, err := m.Step(tr, x)
			if err != nil {
				// The readers' tests run small instances, far from
				// gsst.MaxValue: a limit here is a defect to see.
				panic(fmt.Sprintf("formatstest: %v", err))
			}
			visit(y, fmt.Sprint(y))
		}
		return true
	}, func(y []int, d int) {
		k := project(m.Totals(y), m.SharedValues(y))
		if _, dup := out[k]; !dup {
			out[k] = d
		}
	})
}

// Instance returns an instance of sys: its smallest sizes, and, when it
// has parameters, the first values in 0..5 (in lexicographic order)
// that make one (with each ranged group at its least size).
func Instance(sys *gsst.System) (*gsst.System, error) {
	if len(sys.Params) == 0 {
		return sys.Smallest()
	}
	values := make([]int, len(sys.Params))
	// Each ranged group at its least size, the others at theirs (-1:
	// over the parameters), when some group is ranged.
	var sizes []int
	if slices.ContainsFunc(sys.Groups, func(g gsst.Group) bool { return g.Ranged }) {
		for _, g := range sys.Groups {
			size := g.Size
			if g.OverParams() {
				size = -1
			}
			sizes = append(sizes, size)
		}
	}
	var found *gsst.System
	var rec func(k int)
	rec = func(k int) {
		if found != nil {
			return
		}
		if k == len(values) {
			if inst, err := sys.InstantiateParams(values, sizes); err == nil {
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
// with the same depths, within 30 steps of an instance (fewer when the
// states pass 5000).
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
	if !slices.EqualFunc(got.InitOver, want.InitOver, slices.Equal) {
		t.Errorf("the spreads over initial states read back as %v, want %v", got.InitOver, want.InitOver)
	}
	for j := range want.Shared {
		if a, b := got.InitText(j), want.InitText(j); a != b {
			t.Errorf("the initial value of shared variable %d reads back as %s, want %s", j, a, b)
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
	// A shared variable that starts at any value from its least up: up
	// to the number of processes on both sides, some of the initial
	// configurations, finitely many.
	a, b = a.InitialsUpTo(a.N()), b.InitialsUpTo(b.N())
	project := func(totals, shared []int) string { return fmt.Sprint(totals, shared) }
	ma, err := counterabs.BuildGroup(a)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := counterabs.BuildGroup(b)
	if err != nil {
		t.Fatal(err)
	}
	rb, depth := ModelReachWithin(mb, 30, 5000, project)
	maps.DeleteFunc(rb, func(_ string, d int) bool { return d > depth }) // the layer the budget ended in
	ra := ModelReach(ma, depth, project)
	if len(ra) != len(rb) {
		t.Fatalf("the YAML reaches %d states within %d steps, the translation %d", len(ra), depth, len(rb))
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

// Golden writes the YAML of imp, compares it with the file golden
// (rewriting it first when update is set), and checks that it reads
// back (ReadsBack).
func Golden(t *testing.T, imp *formats.Import, golden string, update bool) {
	t.Helper()
	var b bytes.Buffer
	if err := formats.Write(&b, imp); err != nil {
		t.Fatal(err)
	}
	if update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if d := testsupport.FirstDiff(string(want), b.String()); d != "" {
		t.Errorf("%s differs (run with -update to rewrite): %s", golden, d)
	}
	ReadsBack(t, imp, b.Bytes())
}

// Fuzzed checks what a reader made of any input, named file: either
// every error at a position of the file, or a system that gsst.New
// accepts and whose YAML reads back as a system of as many states,
// transitions, rendezvous and properties.
func Fuzzed(t *testing.T, imp *formats.Import, file string) {
	t.Helper()
	if err := imp.Err(); err != nil {
		list, ok := err.(gsst.ErrorList)
		if !ok || len(list) == 0 {
			t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
		}
		for _, e := range list {
			if e.Pos.File != file || e.Pos.Line < 1 || e.Pos.Col < 1 {
				t.Fatalf("error without a position: %v", e)
			}
		}
		return
	}
	sys, err := imp.System()
	if err != nil {
		t.Fatalf("translation accepted, gsst.New refuses: %v", err)
	}
	var b bytes.Buffer
	if err := formats.Write(&b, imp); err != nil {
		t.Fatal(err)
	}
	back, err := gsst.Parse("f.yaml", b.Bytes())
	if err != nil {
		t.Fatalf("the YAML does not read back: %v\n%s", err, b.String())
	}
	if len(back.States) != len(sys.States) || len(back.Transitions) != len(sys.Transitions) ||
		len(back.Rendezvous) != len(sys.Rendezvous) || len(back.Properties) != len(sys.Properties) {
		t.Fatalf("the YAML reads back as another system:\n%s", b.String())
	}
}

// Errors checks that err, the error of an import of file (or of its
// system), lists exactly the errors of want, in order, each given as
// "line:col: the start of the message".
func Errors(t *testing.T, err error, file string, want []string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	list, ok := err.(gsst.ErrorList)
	if !ok {
		t.Fatalf("error %T is not a gsst.ErrorList: %v", err, err)
	}
	if len(list) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(list), len(want), err)
	}
	for i, e := range list {
		if !strings.HasPrefix(e.Error(), file+":"+want[i]) {
			t.Errorf("error %d: got %q, want %s:%s...", i+1, e.Error(), file, want[i])
		}
	}
}

// constructNames are the short names of the constructs in the tables
// of the suite tests.
var constructNames = map[formats.Construct]string{
	formats.SplitInit: "SplitInit", formats.SharedInitRange: "SharedInitRange",
	formats.ParallelRules: "ParallelRules", formats.SelfLoopUpdate: "SelfLoopUpdate", formats.IdleStep: "IdleStep",
	formats.RendezvousBroadcast: "RendezvousBroadcast", formats.BroadcastMoverStays: "BroadcastMoverStays",
	formats.CounterTransfer: "CounterTransfer",
}

// Outcome writes what a reader made of a file as the suite tables do:
// "" when it translates, the short names of the constructs it needs
// ("SplitInit IdleStep"), or "error: " and the first error's message.
func Outcome(imp *formats.Import) string {
	if len(imp.Errors) > 0 {
		return "error: " + imp.Errors[0].Msg
	}
	var names []string
	for _, c := range imp.Needs() {
		names = append(names, constructNames[c])
	}
	return strings.Join(names, " ")
}

// Diff describes how two sets of states differ: "" when they are equal,
// otherwise one state that only one of them has.
func Diff(want, got map[string]bool) string {
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if !got[k] {
			return "state [" + k + "] reachable by the source's semantics only"
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if !want[k] {
			return "state [" + k + "] reachable in the GSST only"
		}
	}
	return ""
}
