package detect

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// extWindow is how far above its least value the brute force tries an
// unbounded shared variable. The random systems compare such variables
// (alone or summed with another) with constants up to 3 and only add to
// them, so every valuation beyond the window behaves, for every guard,
// domain and update equality, like one inside it.
const extWindow = 4

// extConfigs rotates over what the cross-check draws: each construct
// alone (with shared variables or without), then anything.
var extConfigs = []testsupport.Config{
	testsupport.Small(testsupport.SharedVars, testsupport.Params),
	testsupport.Small(testsupport.SharedVars, 0),
	testsupport.Small(testsupport.Broadcasts, testsupport.Params),
	testsupport.Small(testsupport.Broadcasts|testsupport.SharedVars, testsupport.Params),
	testsupport.Small(testsupport.Rendezvous, testsupport.Params),
	testsupport.Small(testsupport.Rendezvous|testsupport.SharedVars, testsupport.Params),
	testsupport.Small(testsupport.Params|testsupport.SharedVars, testsupport.AllConstructs&^testsupport.StepConstructs),
	testsupport.Small(0, testsupport.AllConstructs&^testsupport.StepConstructs),
	testsupport.Small(0, testsupport.AllConstructs),
	// The steps of issue 30, each with the constructs it combines with.
	testsupport.Small(testsupport.SelfLoops, testsupport.SharedVars|testsupport.Broadcasts|testsupport.Rendezvous),
	testsupport.Small(testsupport.NamedSteps, testsupport.SharedVars|testsupport.Params),
	testsupport.Small(testsupport.EnvironmentSteps, testsupport.SharedVars|testsupport.Broadcasts|testsupport.Params),
	testsupport.Small(testsupport.Rendezvous|testsupport.RendezvousBroadcasts, testsupport.SharedVars|testsupport.SelfLoops),
}

// TestFullSymmetryCrossCheck certifies random systems with shared
// variables, per-group updates, broadcasts (restricted to groups and
// not), rendezvous (with and without group restrictions) and parameters
// folded at small instances, and systems within the paper, and compares
// the verdict with full virtual symmetry decided directly on the
// process-level state space (testsupport.FullSymmetry: in every orbit,
// every state reaches the same successor orbits). They must agree
// exactly; a violation's witness is also replayed on the process-level
// semantics (testsupport.ProcSteps), which shares no code with detect. It
// logs the counts per construct; -short runs a smaller sample that still
// covers every construct.
func TestFullSymmetryCrossCheck(t *testing.T) {
	systems := 480
	if testing.Short() {
		systems = 144
	}
	solver := completeSolver(t)
	r := rand.New(rand.NewSource(2026112620))
	// Systems within the paper come from their own source, one after
	// every eighth system of the others.
	rp := rand.New(rand.NewSource(2026112625))
	ctx := context.Background()
	type count struct{ systems, certified, violated int }
	counts := map[string]*count{}
	items := map[string]int{} // "transitions certified", "rendezvous violated", ...
	add := func(key string, ok bool) {
		c := counts[key]
		if c == nil {
			c = &count{}
			counts[key] = c
		}
		c.systems++
		if ok {
			c.certified++
		} else {
			c.violated++
		}
	}
	for i := range systems + systems/8 {
		var sys *gsst.System
		if k := i % 9; k < 8 {
			sys = testsupport.RandomSystem(r, extConfigs[(i-i/9)%len(extConfigs)])
		} else {
			sys = testsupport.RandomSystem(rp, fullSymmetryConfig)
		}
		rep, err := Certify(ctx, sys, solver)
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		ref := testsupport.FullSymmetry(sys, extWindow)
		if rep.Verdict() == Unknown {
			t.Fatalf("system %d: unknown\n%s", i, testsupport.Describe(sys))
		}
		if rep.Certified() != ref.Symmetric {
			t.Fatalf("system %d: Certify says %v, the state space says symmetric=%v (states %v and %v, orbit %s)\n%s",
				i, rep.Verdict(), ref.Symmetric, ref.A, ref.B, ref.Orbit, testsupport.Describe(sys))
		}
		for k, res := range rep.Results() {
			tr, rv := resultItem(sys, k)
			kind := "transitions"
			switch {
			case res.Environment != nil:
				kind = "environment"
			case rv >= 0:
				kind = "rendezvous"
			}
			items[kind+" "+res.Verdict.String()]++
			if got, want := res.Verdict == Violated, ref.Violating[k]; got != want {
				t.Fatalf("system %d: %s is %v, the state space says violating=%v\n%s", i, resultName(sys, &res), res.Verdict, want, testsupport.Describe(sys))
			}
			if res.Verdict == Violated {
				if err := replayWitness(sys, tr, res.Witness); err != nil {
					t.Fatalf("system %d: witness of %s: %v\n%s", i, resultName(sys, &res), err, testsupport.Describe(sys))
				}
			}
		}
		ok := rep.Certified()
		add("all", ok)
		if testsupport.ConstructsOf(sys) == 0 {
			add("none (within the paper)", ok)
		}
		for _, k := range constructs(sys) {
			add(k, ok)
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		c := counts[k]
		fmt.Fprintf(&b, "\n  %-28s %4d systems, %4d certified, %4d violated", k, c.systems, c.certified, c.violated)
	}
	fmt.Fprintf(&b, "\n  verdicts: transitions %d symmetric, %d certified, %d violated; rendezvous %d symmetric, %d certified, %d violated; environment steps %d symmetric, %d certified, %d violated",
		items["transitions symmetric"], items["transitions certified"], items["transitions violated"],
		items["rendezvous symmetric"], items["rendezvous certified"], items["rendezvous violated"],
		items["environment symmetric"], items["environment certified"], items["environment violated"])
	t.Logf("extended cross-check against the process-level state space:%s", b.String())
	for _, k := range []string{"shared bool", "shared enum", "shared bounded", "shared unbounded", "per-group update",
		"broadcast", "broadcast restricted", "rendezvous", "rendezvous restricted", "params", "none (within the paper)",
		"self-loop", "named", "environment", "rendezvous-broadcast"} {
		if c := counts[k]; c == nil || c.certified == 0 || c.violated == 0 {
			t.Errorf("%s: no certified or no violated system in the sample: %+v", k, c)
		}
	}
}

// fullSymmetryConfig draws the systems within the paper of the
// cross-check: few enough processes for FullSymmetry.
var fullSymmetryConfig = testsupport.Config{MaxTransitions: 3, MaxConfigs: 1 << 10}

// resultItem returns the transition (or the rendezvous, tr -1) of result
// k of Report.Results; both -1 for an environment step.
func resultItem(sys *gsst.System, k int) (tr, rv int) {
	switch nt := len(sys.Transitions); {
	case k < nt:
		return k, -1
	case k < nt+len(sys.Rendezvous):
		return -1, k - nt
	}
	return -1, -1
}

// constructs names what sys uses, for the counts.
func constructs(sys *gsst.System) []string {
	var out []string
	for j := range sys.Shared {
		out = append(out, "shared "+testsupport.SharedKind(&sys.Shared[j]))
	}
	if len(sys.Params) > 0 {
		out = append(out, "params")
	}
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for _, b := range t.Blocks[min(1, len(t.Blocks)):] {
			if b.Update.Text != t.Blocks[0].Update.Text {
				out = append(out, "per-group update")
			}
		}
		if len(t.Broadcast) > 0 {
			out = append(out, "broadcast")
		}
		for _, x := range t.Broadcast {
			if x.Groups != nil {
				out = append(out, "broadcast restricted")
			}
		}
	}
	for _, rv := range sys.Rendezvous {
		out = append(out, "rendezvous")
		for _, p := range rv.Parts {
			if p.Groups != nil {
				out = append(out, "rendezvous restricted")
			}
		}
	}
	c := testsupport.ConstructsOf(sys)
	for _, k := range []testsupport.Constructs{testsupport.SelfLoops, testsupport.NamedSteps, testsupport.EnvironmentSteps, testsupport.RendezvousBroadcasts} {
		if c&k != 0 {
			out = append(out, k.String())
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func resultName(sys *gsst.System, res *TransitionResult) string {
	if res.Environment != nil {
		return sys.EnvironmentStepName(res.Environment)
	}
	if res.Rendezvous != nil {
		return sys.RendezvousName(res.Rendezvous)
	}
	return sys.TransitionName(res.Transition)
}

// replayWitness checks a witness on the process-level semantics: laid
// out process by process, Enabled has a step (of the witness's step's
// transition or rendezvous, or of transition tr for a witness without a
// step, by its group) to an orbit, that of the witness's step when it
// has one, and no step of Disabled reaches that orbit. A witness without
// a step also has no step of tr in Disabled.
func replayWitness(sys *gsst.System, tr int, w *Witness) error {
	owner, _ := testsupport.Processes(sys)
	rv, env := -1, -1
	if w.Step != nil {
		o := sys.Steps()[w.Step.Step].Origin
		tr, rv, env = o.Transition, o.Rendezvous, o.Environment
	}
	shared := w.Shared
	if shared == nil {
		shared = []int{}
	}
	steps := func(conf [][]int) []testsupport.ProcStep {
		return testsupport.ProcSteps(sys, owner, testsupport.ProcState{Conf: testsupport.Layout(conf), Shared: shared})
	}
	orbit := ""
	for _, s := range steps(w.Enabled) {
		if s.Transition != tr || s.Rendezvous != rv || s.Environment != env || len(s.Movers) > 0 && owner[s.Movers[0]] != w.Group {
			continue
		}
		o := testsupport.OrbitKey(sys, owner, s.Next)
		if w.Step == nil || o == fmt.Sprint(w.Step.Next.Totals(len(sys.States)), orEmpty(w.Step.Next.Shared)) {
			orbit = o
			break
		}
	}
	if orbit == "" {
		return fmt.Errorf("%v with %v has no step of the witness by group %d (to its orbit)", w.Enabled, w.Shared, w.Group)
	}
	for _, s := range steps(w.Disabled) {
		if testsupport.OrbitKey(sys, owner, s.Next) == orbit {
			return fmt.Errorf("%v with %v reaches %s", w.Disabled, w.Shared, orbit)
		}
		if w.Step == nil && s.Transition == tr {
			return fmt.Errorf("%v with %v has a step of the transition", w.Disabled, w.Shared)
		}
	}
	return nil
}

// orEmpty is vals, or an empty slice for nil, as OrbitKey prints them.
func orEmpty(vals []int) []int {
	if vals == nil {
		return []int{}
	}
	return vals
}

// familyBox is the greatest parameter value (and group size) the family
// cross-checks try.
const familyBox = 3

// TestFamilyCrossCheck certifies random families with parameters (group
// sizes over them, guards and updates reading them, an assumption that
// bounds them half the time) for every parameter value, and compares
// with FullSymmetry at every instance with parameters in 0..familyBox
// (testsupport.FoldParams); see familyCrossCheck.
func TestFamilyCrossCheck(t *testing.T) {
	cfg := testsupport.Small(0, testsupport.AllConstructs)
	cfg.Family = true
	familyCrossCheck(t, cfg, 2026112621,
		func(sys *gsst.System) []*gsst.System {
			var out []*gsst.System
			for _, values := range paramBox(len(sys.Params), familyBox) {
				if inst, ok := testsupport.FoldParams(sys, values); ok {
					out = append(out, inst)
				}
			}
			return out
		},
		func(sys *gsst.System, w *Witness) (*gsst.System, bool) { return testsupport.FoldParams(sys, w.Params) },
		func(sys *gsst.System) bool {
			// Every instance is in the box when none has a parameter
			// just beyond it: the assumptions drawn bound every
			// parameter or none, and the sizes grow with them.
			for _, values := range paramBox(len(sys.Params), familyBox+1) {
				if slices.Contains(values, familyBox+1) {
					if _, ok := testsupport.FoldParams(sys, values); ok {
						return false
					}
				}
			}
			return true
		})
}

// TestRangesCrossCheck is TestFamilyCrossCheck for families over group
// sizes (ranges k..k+1 and k..) with the constructs beyond the paper,
// their instances those of testsupport.Box (sizes at most familyBox).
func TestRangesCrossCheck(t *testing.T) {
	cfg := testsupport.Small(0, testsupport.AllConstructs)
	cfg.Ranges = true
	familyCrossCheck(t, cfg, 2026112622,
		func(sys *gsst.System) []*gsst.System {
			var out []*gsst.System
			for _, sizes := range testsupport.Box(sys, familyBox) {
				inst, err := sys.Instantiate(sizes)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, inst)
			}
			return out
		},
		func(sys *gsst.System, w *Witness) (*gsst.System, bool) {
			inst, err := sys.Instantiate(w.Sizes)
			return inst, err == nil
		},
		func(sys *gsst.System) bool {
			for g := range sys.Groups {
				if hi, ok := sys.Groups[g].Bounded(); !ok || hi > familyBox {
					return false
				}
			}
			return true
		})
}

// familyCrossCheck certifies random families drawn with cfg for every
// instance and compares with FullSymmetry on the instances given by
// instances, transition by transition and rendezvous by rendezvous:
//
//   - certified: no instance tried violates;
//   - covered (every instance is among those tried): the verdict is
//     exactly the conjunction over them;
//   - violated: the witness's instance (at) exists, the witness replays
//     there on the process-level semantics, and it has no more processes
//     than the smallest violating instance tried.
func familyCrossCheck(t *testing.T, cfg testsupport.Config, seed int64, instances func(*gsst.System) []*gsst.System,
	at func(*gsst.System, *Witness) (*gsst.System, bool), covered func(*gsst.System) bool) {
	systems := 240
	if testing.Short() {
		systems = 48
	}
	solver := completeSolver(t)
	r := rand.New(rand.NewSource(seed))
	ctx := context.Background()
	counts := map[string]int{}
	for i := range systems {
		sys := testsupport.RandomSystem(r, cfg)
		rep, err := Certify(ctx, sys, solver)
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(sys))
		}
		if rep.Verdict() == Unknown {
			t.Fatalf("system %d: unknown\n%s", i, testsupport.Describe(sys))
		}
		bounded := covered(sys)
		results := rep.Results()
		// least[k]: processes of the smallest instance tried where item
		// k violates, -1 for none.
		least := make([]int, len(results))
		for k := range least {
			least[k] = -1
		}
		for _, inst := range instances(sys) {
			counts["instances"]++
			ref := testsupport.FullSymmetry(inst, extWindow)
			for k := range results {
				if ref.Violating[k] && (least[k] < 0 || inst.N() < least[k]) {
					least[k] = inst.N()
				}
			}
		}
		for k, res := range results {
			switch {
			case res.Verdict.OK() && least[k] >= 0:
				t.Fatalf("system %d: %s certified for every instance, but violates at one with %d processes\n%s", i, resultName(sys, &res), least[k], testsupport.Describe(sys))
			case bounded && !res.Verdict.OK() && least[k] < 0:
				t.Fatalf("system %d: every instance tried: %s %v, but none violates\n%s", i, resultName(sys, &res), res.Verdict, testsupport.Describe(sys))
			}
		}
		if rep.Certified() {
			counts["certified"]++
			continue
		}
		counts["violated"]++
		for k, res := range results {
			if res.Verdict != Violated {
				continue
			}
			w := res.Witness
			inst, ok := at(sys, w)
			if !ok {
				t.Fatalf("system %d: witness at parameters %v, sizes %v: no instance\n%s", i, w.Params, w.Sizes, testsupport.Describe(sys))
			}
			n := 0
			for g := range inst.Groups {
				if inst.Groups[g].Size != w.Sizes[g] {
					t.Fatalf("system %d: witness sizes %v, its instance has %d in group %d", i, w.Sizes, inst.Groups[g].Size, g)
				}
				n += w.Sizes[g]
			}
			fixed := *w
			fixed.Params = nil
			tr, _ := resultItem(sys, k)
			if err := replayWitness(inst, tr, &fixed); err != nil {
				t.Fatalf("system %d: witness at %v %v: %v\n%s", i, w.Params, w.Sizes, err, testsupport.Describe(sys))
			}
			if least[k] >= 0 && n > least[k] {
				t.Fatalf("system %d: witness of %s with %d processes, an instance tried violates with %d", i, resultName(sys, &res), n, least[k])
			}
			if least[k] < 0 {
				counts["violated beyond the instances tried"]++
			}
		}
	}
	t.Logf("%d families, %d certified for every instance, %d violated (%d witnesses beyond the instances tried); %d instances compared",
		systems, counts["certified"], counts["violated"], counts["violated beyond the instances tried"], counts["instances"])
	if counts["certified"] == 0 || counts["violated"] == 0 {
		t.Errorf("one-sided sample: %v", counts)
	}
}

// paramBox lists every vector of k values in 0..most.
func paramBox(k, most int) [][]int {
	out := [][]int{nil}
	for range k {
		var next [][]int
		for _, p := range out {
			for v := 0; v <= most; v++ {
				next = append(next, append(slices.Clone(p), v))
			}
		}
		out = next
	}
	return out
}

// TestVerifyWitnessTampered: VerifyWitness accepts the witnesses Certify
// reports for systems with shared variables and rejects each of them
// tampered with: a shared value outside its domain, another group (one
// that the process-level replay finds cannot take the step), the
// disabled configuration replaced by the enabled one (which does reach
// the orbit), and for a witness with a step another configuration after
// it, a shared value after it outside its domain, or, for a rendezvous,
// no step.
func TestVerifyWitnessTampered(t *testing.T) {
	solver := completeSolver(t)
	r := rand.New(rand.NewSource(5))
	ctx := context.Background()
	checked, otherGroup := 0, 0
	for i := 0; checked < 40 && i < 2000; i++ {
		sys := testsupport.RandomSystem(r, testsupport.Small(testsupport.SharedVars, testsupport.AllConstructs))
		rep, err := Certify(ctx, sys, solver)
		if err != nil {
			t.Fatal(err)
		}
		for k, res := range rep.Results() {
			if res.Verdict != Violated {
				continue
			}
			checked++
			w := res.Witness
			if err := VerifyWitness(sys, res.Transition, w); err != nil {
				t.Fatalf("reported witness rejected: %v", err)
			}
			clone := func() *Witness {
				c := *w
				c.Shared = slices.Clone(w.Shared)
				if w.Step != nil {
					st := *w.Step
					st.Groups, st.Next = slices.Clone(st.Groups), st.Next.Clone()
					c.Step = &st
				}
				return &c
			}
			var bad []*Witness
			v := &sys.Shared[0]
			if w.Step != nil {
				c := clone()
				c.Step.Next.Counts[0][0]++
				bad = append(bad, c)
				c = clone()
				c.Step.Next.Shared[0] = v.Lo - 1
				bad = append(bad, c)
				if res.Transition == nil {
					c = clone()
					c.Step = nil
					bad = append(bad, c)
				}
			}
			c := clone()
			c.Group = (w.Group + 1) % len(sys.Groups)
			// Another group may take the step as well (the guard
			// reads no group counter and the group has a process in
			// the source): the process-level replay says when it
			// cannot.
			if tr, _ := resultItem(sys, k); len(sys.Groups) > 1 && replayWitness(sys, tr, c) != nil {
				bad = append(bad, c)
				otherGroup++
			}
			c = clone()
			c.Disabled = c.Enabled
			bad = append(bad, c)
			c = clone()
			c.Shared[0] = v.Lo - 1
			bad = append(bad, c)
			for k, b := range bad {
				if err := VerifyWitness(sys, res.Transition, b); err == nil {
					t.Fatalf("tampered witness %d accepted: %+v (step %+v)\n%s", k, b, b.Step, testsupport.Describe(sys))
				}
			}
		}
	}
	if checked < 40 || otherGroup < 10 {
		t.Errorf("only %d violations to tamper with, %d of them with another group", checked, otherGroup)
	}
}
