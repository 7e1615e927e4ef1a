package mist_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fmt"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/formats/formatstest"
	"github.com/vsym/vsym/formats/mist"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// The cross-check of an import: at small initial markings, the markings
// that mist's semantics reaches (sim_test.go) must be those that the
// imported GSST reaches, projected to places (a process place counts its
// processes, a counter place is its shared variable), on processes
// (testsupport.ProcSteps, the reference semantics of GSST) and on
// vsym's exact group-counter model (counterabs.BuildGroup, stepped with
// Model.Step); and where the marking graph is finite, the explicit
// engine's verdict on the property safe must be that the target is not
// covered. Every initial marking tried must be one the import starts
// from: the instance whose groups hold its tokens (a group spread over a
// place and the state outside, which is no place, with the rest of its
// processes outside; an observer, a group named after no place, alone
// outside) and whose counters hold its numbers.
//
// Each side is explored breadth first within a budget of states (a net
// whose counters grow with no process moving has markings without end,
// and a layer of processes outgrows its markings), and stops inside the
// first layer that takes it beyond the budget. Every layer before that
// one is complete, so the three are compared on the markings of depth at
// most the least complete layer of the three: one rule is one step on
// every side, so that a marking's least depth is the same on each.

const (
	maxDepth = 200
	// The budgets of states of each side, per initial marking.
	maxMarkings   = 4000
	maxProcStates = 60000
	maxModel      = 30000
	// smallSize is the number of processes up to which the budget of
	// work must leave a step to compare on processes.
	smallSize = 20
)

// comparison is what compare found from one initial marking.
type comparison struct {
	from      []int64
	processes int
	procDepth int  // the layers compared on processes
	depth     int  // the layers compared on the group-counter model
	markings  int  // the markings of depth at most depth
	full      bool // every reachable marking compared
	safe      bool // when full: the target is not covered
	problems  []string
}

// compare checks the import imp of the net f from up to instances of
// its initial markings.
func compare(t *testing.T, name string, imp *formats.Import, f *mist.File, instances int) []comparison {
	t.Helper()
	sys, err := imp.System()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sim := newNetSim(f)
	// Where each place lives in the GSST.
	state := make([]int, len(sim.places))
	shared := make([]int, len(sim.places))
	for p, pl := range sim.places {
		state[p] = slices.Index(sys.States, pl)
		shared[p] = slices.IndexFunc(sys.Shared, func(v gsst.Shared) bool { return v.Name == pl || v.Name == pl+"_" })
		if (state[p] < 0) == (shared[p] < 0) {
			t.Fatalf("%s: place %s is neither a state nor a shared variable of the import", name, pl)
		}
	}
	var out []comparison
	for _, m0 := range sim.initials(instances) {
		// A group named after a place holds m0's tokens there; one
		// spread over that place and a state that is no place (outside)
		// holds at least one process, the others waiting outside; a
		// group named after no place (an observer) keeps its size.
		sizes := make([]int, len(sys.Groups))
		ok := true
		for g := range sys.Groups {
			p := slices.Index(sim.places, sys.Groups[g].Name)
			switch {
			case p < 0:
				sizes[g] = sys.Groups[g].Size
			case sys.InitOver != nil && sys.InitOver[g] != nil && !sys.Groups[g].Ranged:
				sizes[g] = sys.Groups[g].Size
				ok = ok && m0[p] <= int64(sizes[g])
			case sys.InitOver != nil && sys.InitOver[g] != nil:
				sizes[g] = max(int(m0[p]), sys.Groups[g].Size)
			default:
				sizes[g] = int(m0[p])
			}
			ok = ok && sys.Groups[g].Allows(sizes[g])
		}
		// A counter that starts at a parameter's value (any number from
		// some k up) takes m0's value there.
		params := make([]int, len(sys.Params))
		for p := range sim.places {
			j := shared[p]
			if j < 0 {
				continue
			}
			if k := slices.IndexFunc(sys.Params, func(x gsst.Param) bool { return x.Name == sys.Shared[j].InitText }); k >= 0 {
				params[k] = int(m0[p])
				continue
			}
			if m0[p] < int64(sys.Shared[j].Init) || m0[p] > int64(sys.Shared[j].InitMax()) {
				ok = false
			}
		}
		for p := range sim.places {
			if state[p] >= 0 && m0[p] > 0 && !slices.ContainsFunc(sys.Groups, func(g gsst.Group) bool { return g.Name == sim.places[p] }) {
				ok = false
			}
		}
		if !ok {
			// Every initial marking of the net must be one of the
			// import's: a translation that drops some would prove
			// safe what is not.
			out = append(out, comparison{from: m0, problems: []string{"the import has no instance that starts at this initial marking of the net"}})
			continue
		}
		inst, err := sys.InstantiateParams(params, sizes)
		if err != nil {
			t.Fatalf("%s: instance %v: %v", name, sizes, err)
		}
		// A counter that starts in a range starts at m0's value here,
		// and a spread group with m0's tokens in its place.
		inst = startAt(t, inst, func(j int) int64 { return m0[slices.Index(shared, j)] },
			func(st int) (int64, bool) {
				p := slices.Index(sim.places, inst.States[st])
				if p < 0 {
					return 0, false
				}
				return m0[p], true
			})
		project := func(totals, sh []int) string {
			m := make([]int, len(sim.places))
			for p := range m {
				if state[p] >= 0 {
					m[p] = totals[state[p]]
				} else {
					m[p] = sh[shared[p]]
				}
			}
			return key(m)
		}
		c := comparison{from: m0}
		for _, k := range sizes {
			c.processes += k
		}
		want, depth, done := sim.reach(m0, maxDepth, maxMarkings)
		procs, dp := formatstest.ProcReachWithin(inst, depth, maxProcStates, project)
		model, err := counterabs.BuildGroup(inst)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		counters, dm := formatstest.ModelReachWithin(model, depth, maxModel, project)
		c.procDepth, c.depth = min(depth, dp), min(depth, dm)
		c.full = done && c.depth == depth
		within := func(set map[string]int, depth int) map[string]bool {
			out := map[string]bool{}
			for k, d := range set {
				if d <= depth {
					out[k] = true
				}
			}
			return out
		}
		c.markings = len(within(want, c.depth))
		if d := formatstest.Diff(within(want, c.procDepth), within(procs, c.procDepth)); d != "" {
			c.problems = append(c.problems, fmt.Sprintf("mist's semantics and the GSST on processes differ (depth %d): %s", c.procDepth, d))
		}
		if d := formatstest.Diff(within(want, c.depth), within(counters, c.depth)); d != "" {
			c.problems = append(c.problems, fmt.Sprintf("mist's semantics and the group-counter model differ (depth %d): %s", c.depth, d))
		}
		if c.full {
			covered := false
			for k := range want {
				covered = covered || sim.covers(parseKey(k))
			}
			rep, err := explicit.Engine{}.Check(context.Background(), model)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got := rep.Properties[0].Holds; got == covered {
				c.problems = append(c.problems, fmt.Sprintf("the engine says safe %v, mist's semantics covers the target: %v", got, covered))
			}
			c.safe = !covered
		}
		out = append(out, c)
	}
	return out
}

// crossCheck checks src, which must translate; it returns the number of
// initial markings compared, and the verdict on safe (the target is not
// covered) at each of those compared in full.
func crossCheck(t *testing.T, name string, src []byte, instances int) (compared int, safe []bool) {
	t.Helper()
	f, err := mist.ParseFile(name, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, c := range compare(t, name, mist.Translate(name, src), f, instances) {
		t.Logf("%s from %v: %d markings within depth %d (in full: %v), %d processes compared within depth %d", name, c.from, c.markings, c.depth, c.full, c.processes, c.procDepth)
		for _, p := range c.problems {
			t.Errorf("%s from %v: %s", name, c.from, p)
		}
		// The budgets must leave a step to compare; on processes, at
		// small sizes (a rendezvous of five among the 98 processes of
		// extendedread-write.spec has 10^10 choices in a state).
		if len(c.problems) == 0 && (c.depth < 1 || c.procDepth < 1 && c.processes <= smallSize) {
			t.Errorf("%s from %v: compared no step (the budgets end inside the first layer): %d on the model, %d on %d processes", name, c.from, c.depth, c.procDepth, c.processes)
		}
		compared++
		if c.full {
			safe = append(safe, c.safe)
		}
	}
	return compared, safe
}

func parseKey(k string) []int64 {
	var out []int64
	var x int64
	neg, any := false, false
	flush := func() {
		if any {
			if neg {
				x = -x
			}
			out = append(out, x)
		}
		x, neg, any = 0, false, false
	}
	for _, c := range k {
		switch {
		case c == ' ':
			flush()
		case c == '-':
			neg = true
		default:
			x = 10*x + int64(c-'0')
			any = true
		}
	}
	flush()
	return out
}

// TestCrossCheckTestdata cross-checks every net of testdata that
// translates.
func TestCrossCheckTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.spec")
	// testdata/initial: nets with several initial markings (counters
	// that start in a range or at a parameter's value, places that may
	// start empty) and nets with no process.
	initial, _ := filepath.Glob("testdata/initial/*.spec")
	files = append(files, initial...)
	// testdata/steps: one net per kind of step (environment steps,
	// transfers alone, self-loops and rendezvous that broadcast).
	steps, _ := filepath.Glob("testdata/steps/*.spec")
	files = append(files, steps...)
	if len(files) < 4 {
		t.Fatalf("found %d nets in testdata", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			compared, safe := crossCheck(t, file, src, 8)
			t.Logf("%s: %d initial markings compared, %d in full", file, compared, len(safe))
			// A net whose counters grow without end is compared within
			// the budgets only.
			grows := map[string]bool{"environment.spec": true, "counterinit.spec": true, "twice.spec": true}
			if compared == 0 || len(safe) == 0 && !grows[filepath.Base(file)] {
				t.Errorf("%s: compared %d initial markings, %d in full", file, compared, len(safe))
			}
		})
	}
}

// startAt returns inst with every shared variable that starts in a range
// starting at value(j) alone, and every group spread over several states
// starting with tokens(st) processes in each state st that is a place
// (ok), the rest of the group in the one that is not.
func startAt(t *testing.T, inst *gsst.System, value func(j int) int64, tokens func(st int) (int64, bool)) *gsst.System {
	t.Helper()
	if inst.SingleInitial() {
		return inst
	}
	spec := inst.Spec()
	for j := range spec.Shared {
		if v := &spec.Shared[j]; v.InitRange {
			v.Init, v.InitRange, v.InitHi = int(value(j)), false, 0
		}
	}
	for g, over := range spec.InitOver {
		if over == nil {
			continue
		}
		row := make([]int, len(spec.States))
		rest, outside := spec.Groups[g].Size, -1
		for _, st := range over {
			k, isPlace := tokens(st)
			if !isPlace {
				outside = st
				continue
			}
			row[st] = int(k)
			rest -= int(k)
		}
		if outside < 0 || rest < 0 {
			t.Fatalf("%s: group %s spreads over %v, which the cross-check cannot start at one marking", inst.Name, spec.Groups[g].Name, over)
		}
		row[outside] = rest
		spec.Init[g] = row
	}
	spec.InitOver = nil
	out, err := gsst.New(spec)
	if err != nil {
		t.Fatalf("%s: %v", inst.Name, err)
	}
	return out
}

// TestCrossCheckCatchesWrongSteps shows that the cross-check, bounded by
// work, still fails a wrong translation of each kind of step it checks:
// an environment step that adds 2 where the rule adds 1, a self-loop
// that keeps every token where the rule moves all but one, a rendezvous
// that forgets its broadcast, a rule split into rendezvous (one per
// choice of the places its tokens come from) that forgets a choice; and
// of the initial conditions that need the state outside (outside.go): a
// group that may start empty that does not, an observer that starts in
// a place, and, in a net with no process, a zero test left out of an
// environment step's guard. The right translations pass, and the
// environment step's net is compared within its budget (its counter
// grows without end), the path the wrong one is caught on.
func TestCrossCheckCatchesWrongSteps(t *testing.T) {
	addTo := func(u *gsst.Update, k int64) {
		u.Assign[0].Value = u.Assign[0].Value.Add(presburger.ConstTerm(k))
	}
	cases := []struct {
		file  string
		wrong func(s *gsst.Spec)
	}{
		{"testdata/steps/environment.spec", func(s *gsst.Spec) { addTo(&s.Environment[0].Update, 1) }},
		{"testdata/steps/selfloop.spec", func(s *gsst.Spec) {
			for i := range s.Transitions {
				if s.Transitions[i].From == s.Transitions[i].To {
					s.Transitions[i].Broadcast = nil
				}
			}
		}},
		{"testdata/steps/rdvbcast.spec", func(s *gsst.Spec) { s.Rendezvous[0].Broadcast = nil }},
		{"testdata/steps/rdvsplit.spec", func(s *gsst.Spec) { s.Rendezvous = slices.Delete(s.Rendezvous, 1, 2) }},
		// Every process of a group that may start empty starts in its
		// place: the markings where it is empty are dropped.
		{"testdata/initial/mayempty.spec", func(s *gsst.Spec) { s.InitOver = nil }},
		// The observer starts in a place, where it counts as a token.
		{"testdata/initial/nostart.spec", func(s *gsst.Spec) {
			s.Init[0] = make([]int, len(s.States))
			s.Init[0][slices.Index(s.States, "idle")] = 1
		}},
		// A zero test of the counters dropped (c = 0).
		{"testdata/initial/observer.spec", func(s *gsst.Spec) {
			s.Environment[1].Guard = s.Environment[1].Guard.(presburger.And)[0]
		}},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			src, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			f, err := mist.ParseFile(c.file, src)
			if err != nil {
				t.Fatal(err)
			}
			problems := func(imp *formats.Import) (n int, bounded bool) {
				for _, r := range compare(t, c.file, imp, f, 4) {
					n += len(r.problems)
					bounded = bounded || !r.full
					if len(r.problems) > 0 {
						t.Logf("from %v, within depth %d: %s", r.from, r.depth, r.problems[0])
					}
				}
				return n, bounded
			}
			right := mist.Translate(c.file, src)
			n, bounded := problems(right)
			if n > 0 {
				t.Fatalf("the right translation fails the cross-check")
			}
			if strings.HasSuffix(c.file, "environment.spec") && !bounded {
				t.Errorf("every initial marking compared in full: the budget is not exercised")
			}
			wrong := mist.Translate(c.file, src)
			c.wrong(wrong.Spec)
			if n, _ := problems(wrong); n == 0 {
				t.Errorf("the cross-check passes a wrong translation")
			}
		})
	}
}

// TestOutsideRenamed: when a place is called outside, the state of the
// processes outside is outside_, and the import still cross-checks.
func TestOutsideRenamed(t *testing.T) {
	src := "vars outside q\nrules\n  outside >= 1 -> outside' = outside - 1, q' = q + 1;\ninit outside >= 0, q = 0\ntarget q >= 2\n"
	imp := mist.Translate("f.spec", []byte(src))
	if err := imp.Err(); err != nil {
		t.Fatal(err)
	}
	if got := imp.Spec.States; !slices.Equal(got, []string{"outside", "q", "outside_"}) {
		t.Errorf("states %v, want [outside q outside_]", got)
	}
	if compared, safe := crossCheck(t, "f.spec", []byte(src), 3); compared != 3 || len(safe) != 3 || safe[0] != true || safe[2] != false {
		t.Errorf("compared %d initial markings, verdicts %v; want 3, safe from 0 and 1 tokens, not from 2", compared, safe)
	}
}
