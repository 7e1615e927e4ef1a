package testsupport

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// stepKeys lists the successors of st as sorted keys.
func stepKeys(sys *gsst.System, owner []int, st ProcState) []string {
	var out []string
	for _, s := range ProcSteps(sys, owner, st) {
		out = append(out, s.Next.Key())
	}
	sort.Strings(out)
	return slices.Compact(out)
}

func mustNew(t *testing.T, sp *gsst.Spec) *gsst.System {
	t.Helper()
	sys, err := gsst.New(sp)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func atom(v presburger.Var, op presburger.Op, k int64) presburger.Formula {
	return presburger.Compare(presburger.VarTerm(v), op, presburger.ConstTerm(k))
}

// TestProcStepsBroadcast: I -> M broadcasting S -> I (any group) and
// M -> I of group b only; the mover is not transferred.
func TestProcStepsBroadcast(t *testing.T) {
	sp := &gsst.Spec{Name: "bc", States: []string{"I", "S", "M"},
		Groups: []gsst.Group{{Name: "a", Size: 2}, {Name: "b", Size: 2}},
		Init:   [][]int{{1, 1, 0}, {1, 0, 1}},
		Transitions: []gsst.Transition{{From: 0, To: 2, Blocks: []gsst.Block{{Groups: []int{0, 1}, Guard: presburger.True}},
			Broadcast: []gsst.Transfer{{From: 1, To: 0}, {From: 2, To: 0, Groups: []int{1}}}}},
	}
	sys := mustNew(t, sp)
	owner, init := Processes(sys)
	// processes: 0 a@I, 1 a@S, 2 b@I, 3 b@M
	got := stepKeys(sys, owner, ProcState{Conf: init, Shared: []int{}})
	want := []string{
		ProcState{Conf: []int{0, 0, 2, 0}, Shared: []int{}}.Key(), // process 2 (b) moves; 1 and 3 transferred
		ProcState{Conf: []int{2, 0, 0, 0}, Shared: []int{}}.Key(), // process 0 (a) moves
	}
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("successors %v, want %v", got, want)
	}
	// A group-a process in M is not transferred.
	st := ProcState{Conf: []int{0, 2, 0, 1}, Shared: []int{}} // a@I, a@M, b@I, b@S
	got = stepKeys(sys, owner, st)
	want = []string{
		ProcState{Conf: []int{0, 2, 2, 0}, Shared: []int{}}.Key(),
		ProcState{Conf: []int{2, 2, 0, 0}, Shared: []int{}}.Key(),
	}
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("successors %v, want %v", got, want)
	}
}

// TestProcStepsRendezvous: two parts from P need two distinct processes;
// a group restriction limits who may take a part; the guard reads a
// shared variable and the update is blocked outside the domain.
func TestProcStepsRendezvous(t *testing.T) {
	sp := &gsst.Spec{Name: "rv", States: []string{"P", "Q"},
		Groups: []gsst.Group{{Name: "a", Size: 1}, {Name: "b", Size: 1}},
		Init:   [][]int{{1, 0}, {1, 0}},
		Shared: []gsst.Shared{{Name: "k", Hi: 1}},
	}
	k := sp.SharedVar(0)
	sp.Rendezvous = []gsst.Rendezvous{{
		Parts:  []gsst.Part{{From: 0, To: 1}, {From: 0, To: 1, Groups: []int{1}}},
		Guard:  atom(k, presburger.Le, 1),
		Update: gsst.Update{Assign: []gsst.Assign{{Var: k, Value: presburger.VarTerm(k).Add(presburger.ConstTerm(1))}}, Text: "k := k + 1"},
	}}
	sys := mustNew(t, sp)
	owner, init := Processes(sys)
	steps := ProcSteps(sys, owner, ProcState{Conf: init, Shared: []int{0}})
	// Only process 0 (a) for the first part and 1 (b) for the second.
	if len(steps) != 1 || !slices.Equal(steps[0].Movers, []int{0, 1}) || steps[0].Next.Key() != (ProcState{Conf: []int{1, 1}, Shared: []int{1}}).Key() {
		t.Errorf("steps %+v", steps)
	}
	// k = 1: k + 1 leaves 0..1, the step is not enabled.
	if steps := ProcSteps(sys, owner, ProcState{Conf: init, Shared: []int{1}}); len(steps) != 0 {
		t.Errorf("blocked update: steps %+v", steps)
	}
	// One process in P: no rendezvous.
	if steps := ProcSteps(sys, owner, ProcState{Conf: []int{0, 1}, Shared: []int{0}}); len(steps) != 0 {
		t.Errorf("one process: steps %+v", steps)
	}
}

// TestProcStepsUpdates: per-group updates read values before the step
// (a swap), and a block whose update leaves the domain is disabled.
func TestProcStepsUpdates(t *testing.T) {
	sp := &gsst.Spec{Name: "up", States: []string{"A", "B"},
		Groups: []gsst.Group{{Name: "a", Size: 1}, {Name: "b", Size: 1}},
		Init:   [][]int{{1, 0}, {1, 0}},
		Shared: []gsst.Shared{{Name: "x", Hi: 2}, {Name: "y", Hi: 2}},
	}
	x, y := presburger.VarTerm(sp.SharedVar(0)), presburger.VarTerm(sp.SharedVar(1))
	sp.Transitions = []gsst.Transition{{From: 0, To: 1, Blocks: []gsst.Block{
		{Groups: []int{0}, Guard: presburger.True, Update: gsst.Update{Assign: []gsst.Assign{{Var: sp.SharedVar(0), Value: y}, {Var: sp.SharedVar(1), Value: x}}}},
		{Groups: []int{1}, Guard: presburger.True, Update: gsst.Update{Assign: []gsst.Assign{{Var: sp.SharedVar(0), Value: x.Add(presburger.ConstTerm(2))}}}},
	}}}
	sys := mustNew(t, sp)
	owner, init := Processes(sys)
	got := stepKeys(sys, owner, ProcState{Conf: init, Shared: []int{0, 2}})
	want := []string{
		ProcState{Conf: []int{1, 0}, Shared: []int{2, 0}}.Key(),
		ProcState{Conf: []int{0, 1}, Shared: []int{2, 2}}.Key(),
	}
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("successors %v, want %v", got, want)
	}
	got = stepKeys(sys, owner, ProcState{Conf: init, Shared: []int{1, 2}})
	if want := []string{(ProcState{Conf: []int{1, 0}, Shared: []int{2, 1}}).Key()}; !slices.Equal(got, want) {
		t.Errorf("successors %v, want %v (b's update leaves 0..2)", got, want)
	}
}

// TestProcsAgreeWithUnreduced: on systems within the paper, Procs is
// Unreduced and FullSymmetry is Theorem 6 (BruteForce).
func TestProcsAgreeWithUnreduced(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	runs := 300
	if testing.Short() {
		runs = 60
	}
	agree := map[bool]int{}
	for range runs {
		sys := RandomSystem(r, Config{})
		sp, pr := Unreduced(sys), Procs(sys, 0)
		if sp.Len() != pr.Len() {
			t.Fatalf("%d states, Unreduced %d\n%s", pr.Len(), sp.Len(), Describe(sys))
		}
		for i := range sp.Confs {
			j := pr.Index[ProcState{Conf: sp.Confs[i], Shared: []int{}}.Key()]
			var a, b []string
			for _, k := range sp.Succ[i] {
				a = append(a, fmt.Sprint(sp.Confs[k]))
			}
			for _, k := range pr.Succ[j] {
				b = append(b, fmt.Sprint(pr.States[k].Conf))
			}
			sort.Strings(a)
			sort.Strings(b)
			if !slices.Equal(a, b) {
				t.Fatalf("successors of %v: %v, Unreduced %v\n%s", sp.Confs[i], b, a, Describe(sys))
			}
		}
		fs, want := FullSymmetry(sys, 0), BruteForce(sys).Certified()
		if fs.Symmetric != want {
			t.Fatalf("FullSymmetry %v, Theorem 6 %v\n%s", fs.Symmetric, want, Describe(sys))
		}
		agree[want]++
	}
	if agree[true] == 0 || agree[false] == 0 {
		t.Errorf("one-sided sample: %v", agree)
	}
}

// TestFullSymmetryWitness: a violation names two states of one orbit
// and a successor orbit of the second that the first lacks.
func TestFullSymmetryWitness(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	found := 0
	for range 200 {
		sys := RandomSystem(r, language)
		res := FullSymmetry(sys, 3)
		if res.Symmetric {
			continue
		}
		found++
		owner, _ := Processes(sys)
		if OrbitKey(sys, owner, res.A) != OrbitKey(sys, owner, res.B) {
			t.Fatalf("states %v and %v in different orbits", res.A, res.B)
		}
		if OrbitKey(sys, owner, res.Step.Next) != res.Orbit {
			t.Fatalf("step leads to %s, not %s", OrbitKey(sys, owner, res.Step.Next), res.Orbit)
		}
		for _, s := range ProcSteps(sys, owner, res.A) {
			if OrbitKey(sys, owner, s.Next) == res.Orbit {
				t.Fatalf("%v does reach orbit %s", res.A, res.Orbit)
			}
		}
	}
	if found == 0 {
		t.Error("no violation in 200 random systems")
	}
}

// language is what the cross-checks of the whole language draw: small
// systems (for Procs and FullSymmetry) that may use every construct.
var language = Config{MaxGroups: 2, MaxSize: 2, MaxProcesses: 4, May: AllConstructs}

// TestRandomSystemConstructs: the generator draws every construct and
// kind, and Want and May hold.
func TestRandomSystemConstructs(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	seen := map[string]int{}
	for range 300 {
		sys := RandomSystem(r, language)
		x := ConstructsOf(sys)
		for i, name := range constructNames {
			if x&(1<<i) != 0 {
				seen[name]++
			}
		}
		if x == 0 {
			seen["none"]++
		}
		for j := range sys.Shared {
			seen[SharedKind(&sys.Shared[j])]++
		}
		for i := range sys.Transitions {
			tr := &sys.Transitions[i]
			for _, b := range tr.Blocks {
				if len(b.Update.Assign) > 0 {
					seen["update"]++
				}
			}
			for _, x := range tr.Broadcast {
				seen[fmt.Sprint("broadcast restricted ", x.Groups != nil)]++
			}
			if len(tr.Blocks) > 1 && !blocksAlike(tr) {
				seen["per-group"]++
			}
		}
		for _, rv := range sys.Rendezvous {
			restricted := false
			for _, p := range rv.Parts {
				restricted = restricted || p.Groups != nil
			}
			seen[fmt.Sprint("rendezvous restricted ", restricted)]++
			seen[fmt.Sprint("rendezvous of ", len(rv.Parts))]++
		}
	}
	for _, k := range []string{"none", "shared", "params", "rendezvous", "broadcast", "bool", "enum", "bounded", "unbounded", "update",
		"broadcast restricted true", "broadcast restricted false", "rendezvous restricted true", "rendezvous restricted false",
		"rendezvous of 2", "rendezvous of 3", "per-group"} {
		if seen[k] == 0 {
			t.Errorf("no %s in 300 systems: %v", k, seen)
		}
	}
	for _, c := range []Config{{Want: Rendezvous, May: SharedVars | Params}, {Want: Broadcasts | SharedVars}, {Family: true, May: AllConstructs}} {
		for range 20 {
			x := ConstructsOf(RandomSystem(r, c))
			if x&c.Want != c.Want || x&^(c.Want|c.May|Params) != 0 || c.Family && x&Params == 0 {
				t.Fatalf("%+v: drew %v", c, x)
			}
		}
	}
}

// blocksAlike reports whether every block of t has the same guard and
// update text.
func blocksAlike(t *gsst.Transition) bool {
	for _, b := range t.Blocks[1:] {
		if b.Text != t.Blocks[0].Text || b.Update.Text != t.Blocks[0].Update.Text {
			return false
		}
	}
	return true
}

// TestDescribeConstructs: Describe names every construct.
func TestDescribeConstructs(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	sys := RandomSystem(r, Config{MaxGroups: 2, MaxSize: 2, MaxProcesses: 4, Want: SharedVars | Rendezvous | Broadcasts})
	d := Describe(sys)
	for _, w := range []string{"shared v0", "rendezvous", "broadcast"} {
		if !strings.Contains(d, w) {
			t.Errorf("Describe lacks %q:\n%s", w, d)
		}
	}
}

// TestPaperOnly: the oracle of the paper's systems refuses each
// construct beyond them, naming the process-level oracle, and still
// takes a system of the paper; Procs takes both.
func TestPaperOnly(t *testing.T) {
	plain := &gsst.Spec{Name: "plain", States: []string{"A", "B"},
		Groups: []gsst.Group{{Name: "g", Size: 2}}, Init: [][]int{{2, 0}},
		Transitions: []gsst.Transition{{From: 0, To: 1, Blocks: []gsst.Block{{Groups: []int{0}, Guard: presburger.True}}}},
	}
	bc := *plain
	bc.Name = "bc"
	bc.Transitions = []gsst.Transition{{From: 0, To: 1, Blocks: []gsst.Block{{Groups: []int{0}, Guard: presburger.True}},
		Broadcast: []gsst.Transfer{{From: 0, To: 1}}}}
	rv := *plain
	rv.Name = "rv"
	rv.Transitions = nil
	rv.Rendezvous = []gsst.Rendezvous{{Parts: []gsst.Part{{From: 0, To: 1}, {From: 0, To: 1}}, Guard: presburger.True}}
	oracles := map[string]func(sys *gsst.System){
		"BruteForce": func(sys *gsst.System) { BruteForce(sys) },
		"Unreduced":  func(sys *gsst.System) { Unreduced(sys) },
		"NewOracle":  func(sys *gsst.System) { NewOracle(sys) },
		"Firing":     func(sys *gsst.System) { Firing(sys, &sys.Transitions[0], [][]int{{2, 0}}) },
	}
	refused := func(f func()) (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprint(r)
			}
		}()
		f()
		return ""
	}
	for _, sp := range []*gsst.Spec{plain, &bc, &rv} {
		sys := mustNew(t, sp)
		if got, want := Procs(sys, 0).Len(), map[string]int{"plain": 4, "bc": 2, "rv": 2}[sp.Name]; got != want {
			t.Errorf("%s: Procs finds %d states, want %d", sp.Name, got, want)
		}
		for name, f := range oracles {
			if name == "Firing" && len(sys.Transitions) == 0 {
				continue
			}
			msg := refused(func() { f(sys) })
			switch {
			case sp.Name == "plain" && msg != "":
				t.Errorf("%s refuses a system of the paper: %s", name, msg)
			case sp.Name != "plain" && !(strings.Contains(msg, name) && strings.Contains(msg, sp.Name) && strings.Contains(msg, ConstructsOf(sys).String()) && strings.Contains(msg, "Procs")):
				t.Errorf("%s on %s: panic %q, want a refusal naming it, the construct and Procs", name, sp.Name, msg)
			}
		}
	}
}

// TestOrbits: on systems of the paper, Orbits is the existential
// abstraction BruteForce gives, stutters included; on systems with any
// construct that FullSymmetry finds fully virtually symmetric, it is the
// quotient of Procs by orbits.
func TestOrbits(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	runs := 200
	if testing.Short() {
		runs = 50
	}
	same := func(a, b *Graph) error {
		if a.Len() != b.Len() || a.Deadlocks() != b.Deadlocks() {
			return fmt.Errorf("%d states and %d deadlocks, want %d and %d", a.Len(), a.Deadlocks(), b.Len(), b.Deadlocks())
		}
		for i, k := range a.Keys {
			j, ok := b.Index[k]
			if !ok {
				return fmt.Errorf("state %s missing", k)
			}
			var x, y []string
			for _, s := range a.Succ[i] {
				x = append(x, a.Keys[s])
			}
			for _, s := range b.Succ[j] {
				y = append(y, b.Keys[s])
			}
			sort.Strings(x)
			sort.Strings(y)
			if !slices.Equal(x, y) {
				return fmt.Errorf("successors of %s: %v, want %v", k, x, y)
			}
		}
		return nil
	}
	paper, symmetric := 0, 0
	for range runs {
		sys := RandomSystem(r, Config{MaxGroups: 2, MaxProcesses: 4})
		// BruteForce keys orbits by totals alone; OrbitKey adds the
		// (empty) shared values.
		bg := BruteForce(sys).Graph()
		renamed := &Graph{Index: map[string]int{}, Succ: bg.Succ, Dead: bg.Dead, Init: bg.Init}
		for i, k := range bg.Keys {
			renamed.Keys = append(renamed.Keys, k+" []")
			renamed.Index[k+" []"] = i
		}
		if err := same(Orbits(sys, 0), renamed); err != nil {
			t.Fatalf("paper system: %v\n%s", err, Describe(sys))
		}
		paper++
		sys = RandomSystem(r, Small(0, AllConstructs))
		sp, beyond := ProcsWithin(sys, 6)
		if beyond || !FullSymmetry(sys, 3).Symmetric {
			continue
		}
		quot := sp.Quotient(func(i int) string { return OrbitKey(sys, sp.Owner, sp.States[i]) })
		if err := same(Orbits(sys, 0), quot); err != nil {
			t.Fatalf("fully virtually symmetric system: %v\n%s", err, Describe(sys))
		}
		symmetric++
	}
	t.Logf("%d systems of the paper, %d fully virtually symmetric with constructs", paper, symmetric)
	if symmetric < runs/10 {
		t.Errorf("only %d fully virtually symmetric systems with constructs", symmetric)
	}
}
