package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	exploration "github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestInitialPhaseRandom cross-checks prove.Check on random systems with
// an initial phase (phase.go: every process starts in I, unguarded steps
// out of I adding constants to shared variables, "#I = 0" on the other
// steps) against explicit exploration of their instances: a property
// proved must hold at each instance explored, one refuted must fail at
// the instance Check names. Some systems break one condition of the cut
// (a step without "#I = 0", a guard on a step out of I, two steps out
// of I into one state), where Check must not cut, and the properties
// read I, the incremented variables and the states the steps reach
// after the phase, so that a cut that skips the phase's own check or
// links the variables wrongly proves one that fails. A second batch
// (its own seed, so that the first draws what it drew before) gives the
// incremented variables small greatest values, which block steps out of
// I in the instances explored, some leaving processes in I for ever; it
// must have blocking, and a proof and a run through the cut. Every
// proof through the cut must be joined into one invariant of the system
// and re-checked there; where the join fails (a last batch has every
// join fail), the property must be asked of the system as written.
func TestInitialPhaseRandom(t *testing.T) {
	systems, bounded := 100, 28
	if testing.Short() {
		systems, bounded = 60, 20
	}
	s := z3.New()
	ctx := context.Background()
	counts := map[string]int{}
	for batch, n := range []int{systems, bounded} {
		r := rand.New(rand.NewSource(int64(20 + batch)))
		for i := range n {
			phaseRandomSystem(t, ctx, s, r, fmt.Sprintf("b%d-%d", batch, i), batch == 1, counts)
		}
	}
	// A third batch writes the steps out of I in other styles: guarded
	// by "the mover is there" (#I >= 1, #I != 0), or written twice
	// under two names, which cut as the plain steps do; or guarded by
	// #I >= 2 (the last process cannot take it), which must not cut; or
	// counting down from a small start, which cuts, blocking at 0.
	styled := 80
	if testing.Short() {
		styled = 40
	}
	r := rand.New(rand.NewSource(22))
	for i := range styled {
		phaseRandomSystemStyled(t, ctx, s, r, fmt.Sprintf("s-%d", i), counts)
	}
	// A fourth batch adds a state Z no process starts in, with steps
	// out of it that break the cut's conditions if taken (one enters I
	// and adds to x, one has no "#I = 0"); half the systems also enter
	// Z, two steps after I, which must not cut, and a quarter enter it
	// only by a step no run takes (its guard reads a boolean no step
	// sets), which must cut.
	dead := 40
	if testing.Short() {
		dead = 24
	}
	r = rand.New(rand.NewSource(23))
	for i := range dead {
		phaseRandomSystemDead(t, ctx, s, r, fmt.Sprintf("d-%d", i), false, counts)
	}
	// A fifth batch: Z as in the fourth, entered by nothing, and the
	// step ia out of I reads it (a transfer out of Z, or "#Z = 0" in
	// its guard), which must cut; or reads B (a transfer out of it, or
	// "#B = 0"), a state the phase enters, which must not.
	r = rand.New(rand.NewSource(24))
	for i := range dead {
		phaseRandomSystemDead(t, ctx, s, r, fmt.Sprintf("r-%d", i), true, counts)
	}
	// A sixth batch starts z at n - 1, a term over the parameter, which
	// the join's Frozen must state as such (a count down from n,
	// "left_x: {init: n}", is ByMC's cc written so): every proof there
	// joins.
	again := dead / 2
	r = rand.New(rand.NewSource(25))
	for i := range again {
		src, family := phaseSystem(r, false)
		for !family {
			src, family = phaseSystem(r, false)
		}
		src = strings.Replace(src, "  z: {type: \"0..\", init: 0}\n", "  z: {type: \"0..\", init: n - 1}\n", 1)
		phaseCheck(t, ctx, s, fmt.Sprintf("n-%d", i), src, family, false, "paramstart ", counts)
	}
	if counts["paramstart "+prove.Proved.String()+" cut=true"] == 0 {
		t.Errorf("no property proved through an initial phase beside a shared variable starting at n")
	}
	// (Counted over the batches so far: the next one has every join
	// fail.)
	if counts["proof asked again"] > 0 {
		t.Errorf("%d proofs through the phase did not join, and were asked as written", counts["proof asked again"])
	}
	// A seventh batch has every join fail (as one the checker refutes
	// would): two proofs through the phase that do not join are no
	// certificate of the system, so each such property must be asked
	// as written, never reported proved by the cut.
	restore := prove.WithoutPhaseJoin()
	r = rand.New(rand.NewSource(26))
	for i := range again {
		src, family := phaseSystem(r, false)
		phaseCheck(t, ctx, s, fmt.Sprintf("u-%d", i), src, family, false, "unjoined ", counts)
	}
	restore()
	if counts["unjoined proof asked again"] == 0 {
		t.Errorf("no property proved on both sides of an initial phase was asked as written when the join failed")
	}
	t.Logf("verdicts: %v", counts)
	for _, tag := range []string{"deadxfer ", "deadguard "} {
		if counts[tag+prove.Proved.String()+" cut=true"] == 0 || counts[tag+prove.Refuted.String()+" cut=true"] == 0 {
			t.Errorf("%s: no property proved, or none refuted, through an initial phase whose step out of I reads a state no process enters", tag)
		}
	}
	for _, tag := range []string{"livexfer ", "liveguard "} {
		if n := counts[tag+prove.Proved.String()+" cut=true"] + counts[tag+prove.Refuted.String()+" cut=true"]; n > 0 {
			t.Errorf("%s: %d systems whose step out of I reads B (a transfer out of it, or #B = 0) were cut", tag, n)
		}
	}
	if counts["dead "+prove.Proved.String()+" cut=true"] == 0 || counts["dead "+prove.Refuted.String()+" cut=true"] == 0 {
		t.Errorf("no property proved, or none refuted, through an initial phase beside a state no process enters")
	}
	if counts["guarded "+prove.Proved.String()+" cut=true"] == 0 || counts["guarded "+prove.Refuted.String()+" cut=true"] == 0 {
		t.Errorf("no property proved, or none refuted, through an initial phase beside a state only a step no run takes enters")
	}
	if counts["entered "+prove.Proved.String()+" cut=true"]+counts["entered "+prove.Refuted.String()+" cut=true"] > 0 {
		t.Errorf("a system whose processes enter I again, through Z, was cut")
	}
	if counts["entered "+prove.Refuted.String()+" cut=false"] == 0 {
		t.Errorf("no property refuted where processes enter I again through Z")
	}
	if counts["styled "+prove.Proved.String()+" cut=true"] == 0 || counts["styled "+prove.Refuted.String()+" cut=true"] == 0 {
		t.Errorf("no property proved, or none refuted, through an initial phase whose steps out of I are styled")
	}
	if counts["countdown "+prove.Proved.String()+" cut=true"] == 0 || counts["countdown "+prove.Refuted.String()+" cut=true"] == 0 {
		t.Errorf("no property proved, or none refuted, through an initial phase that counts down")
	}
	if counts[prove.Proved.String()+" cut=true"] == 0 || counts[prove.Refuted.String()+" cut=true"] == 0 {
		t.Errorf("no property proved, or none refuted, through an initial phase")
	}
	if counts["bounded "+prove.Proved.String()+" cut=true"] == 0 || counts["bounded "+prove.Refuted.String()+" cut=true"] == 0 {
		t.Errorf("no property proved, or none refuted, through an initial phase with a bounded incremented variable")
	}
	if counts["blocked"] == 0 || counts["stuck"] == 0 {
		t.Errorf("no instance explored where a bound blocks a step out of I, or none where processes stay in I")
	}
	if counts["proof not joined"] > 0 {
		t.Errorf("%d proofs through the phase not joined into an invariant of the system", counts["proof not joined"])
	}
}

// phaseRandomSystem draws one system (phaseSystem), checks it and
// compares with exploration (see TestInitialPhaseRandom), counting the
// verdicts in counts.
func phaseRandomSystem(t *testing.T, ctx context.Context, s *z3.Solver, r *rand.Rand, id string, bounded bool, counts map[string]int) {
	t.Helper()
	src, family := phaseSystem(r, bounded)
	phaseCheck(t, ctx, s, id, src, family, bounded, "", counts)
}

// phaseRandomSystemStyled draws a system as phaseRandomSystem does
// (unbounded) and rewrites its step ia out of I: a guard that the mover
// implies, a second copy under another name, or the guard #I >= 2 that
// the mover does not imply (it breaks the cut's conditions).
func phaseRandomSystemStyled(t *testing.T, ctx context.Context, s *z3.Solver, r *rand.Rand, id string, counts map[string]int) {
	t.Helper()
	src, family := phaseSystem(r, false)
	style := r.Intn(5)
	if style == 4 {
		// A count down: ia also takes one from w, which starts at 0
		// to 3, so that the domain's 0 blocks ia in some instances;
		// the properties on w fail where fewer processes than w's
		// start take ia.
		src = strings.Replace(src, "  z: {type: \"0..\", init: 0}\n", fmt.Sprintf("  z: {type: \"0..\", init: 0}\n  w: {type: \"0..\", init: %d}\n", r.Intn(4)), 1)
		src = strings.Replace(src, "properties:\n", "properties:\n  pw: \"AG (#I = 0 -> w = 0)\"\n  pwd: \"AG (#D >= 1 -> w = 0)\"\n", 1)
	}
	start := strings.Index(src, "  - {name: ia,")
	end := start + strings.Index(src[start:], "\n") + 1
	ia := src[start:end]
	switch style {
	case 0:
		ia = strings.Replace(ia, "to: A,", `to: A, guard: "#I >= 1",`, 1)
	case 1:
		ia = strings.Replace(ia, "to: A,", `to: A, guard: "#I != 0 & #I > 0",`, 1)
	case 2:
		ia += strings.Replace(ia, "name: ia,", "name: ia_again,", 1)
	case 3:
		ia = strings.Replace(ia, "to: A,", `to: A, guard: "#I >= 2",`, 1)
	default:
		ia = strings.Replace(ia, `update: "`, `update: "w := w - 1; `, 1)
	}
	tag := "styled "
	if style == 4 {
		tag = "countdown "
	}
	phaseCheck(t, ctx, s, id, src[:start]+ia+src[end:], family, false, tag, counts)
}

// phaseRandomSystemDead draws a system as phaseRandomSystem does
// (unbounded) and adds a state Z that no process starts in, with a step
// zi from Z into I that adds 3 to x (and counts itself in w) and a step
// zd from Z to D guarded
// without "#I = 0": either breaks the cut's conditions, but neither is
// ever taken unless a process enters Z. With half the draws a step dz
// from D (entered after the phase) into Z, or a broadcast from A into Z
// with a step from B, lets processes back into I after the phase, where
// the cut must not be made; with a quarter a step gz from A into Z
// guarded by a boolean no step sets, which no run takes, so that the
// cut must be made as when nothing enters Z: there a process that took zi leaves I
// again, which a rest system (without the steps out of I) that let it
// into I would not show ("pw"). With reads, nothing enters Z and ia
// reads Z or B (see TestInitialPhaseRandom).
func phaseRandomSystemDead(t *testing.T, ctx context.Context, s *z3.Solver, r *rand.Rand, id string, reads bool, counts map[string]int) {
	t.Helper()
	src, family := phaseSystem(r, false)
	src = strings.Replace(src, "states: [I, A, B, C, D, E]", "states: [I, A, B, Z, C, D, E]", 1)
	src = strings.Replace(src, "  z: {type: \"0..\", init: 0}\n", "  z: {type: \"0..\", init: 0}\n  w: {type: \"0..\", init: 0}\n", 1)
	steps := "  - {name: zi, from: Z, to: I, update: \"x := x + 3; w := w + 1\"}\n  - {name: zd, from: Z, to: D, guard: \"x >= 0\"}\n"
	tag := "dead "
	// The step into Z comes first in the file, before those that make
	// its source reachable, so that a search that reads the steps once
	// in order misses Z.
	enter := ""
	draw := 3 // nothing enters Z
	if !reads {
		draw = r.Intn(4)
	}
	switch draw {
	case 0:
		enter = "  - {name: dz, from: D, to: Z, guard: \"#I = 0\"}\n"
		tag = "entered "
	case 1:
		// Z entered by a broadcast only: the processes left in A
		// when one in B moves on.
		enter = "  - {name: bz, from: B, to: E, guard: \"#I = 0\", broadcast: [\"A -> Z\"]}\n"
		tag = "entered "
	case 2:
		// Z entered only by a step whose guard no run makes true (no
		// step sets never): Z is as dead as when nothing enters it,
		// which the guards tell (gsst's MayOccupy), not the graph.
		src = strings.Replace(src, "  z: {type: \"0..\", init: 0}\n", "  z: {type: \"0..\", init: 0}\n  never: {type: bool, init: false}\n", 1)
		enter = "  - {name: gz, from: A, to: Z, guard: \"#I = 0 & never\"}\n"
		tag = "guarded "
	}
	src = strings.Replace(src, "transitions:\n", "transitions:\n"+enter, 1)
	if reads {
		// The step ia out of I reads Z, as translations that write a
		// dead location into every step do: a transfer out of Z, or
		// "#Z = 0" conjoined to its guard. No process enters Z, so
		// these change no run, and the cut must be made as without
		// them. A transfer out of B instead, or "#B = 0", reads a
		// state the phase enters: the cut must not be made.
		ia := "{name: ia, from: I, to: A,"
		switch r.Intn(4) {
		case 0:
			src = strings.Replace(src, ia, ia+` broadcast: ["Z -> C"],`, 1)
			tag = "deadxfer "
		case 1:
			src = strings.Replace(src, ia, ia+` guard: "#Z = 0 & #Z + #Z <= 0",`, 1)
			tag = "deadguard "
		case 2:
			src = strings.Replace(src, ia, ia+` broadcast: ["B -> C"],`, 1)
			tag = "livexfer "
		default:
			src = strings.Replace(src, ia, ia+` guard: "#B = 0",`, 1)
			tag = "liveguard "
		}
	}
	src = strings.Replace(src, "properties:\n", steps+"properties:\n  pz: \"AG (#I >= 1 -> #D + #E + #Z = 0)\"\n  pw: \"AG (w >= 1 -> #I >= 1)\"\n", 1)
	phaseCheck(t, ctx, s, id, src, family, false, tag, counts)
}

// phaseCheck checks the system src, compares with exploration and counts
// the verdicts (see TestInitialPhaseRandom), each count's key prefixed
// with tag too.
func phaseCheck(t *testing.T, ctx context.Context, s *z3.Solver, id, src string, family, bounded bool, tag string, counts map[string]int) {
	t.Helper()
	sys, err := gsst.Parse(fmt.Sprintf("phase%s.yaml", id), []byte(src))
	if err != nil {
		t.Fatalf("system %s: %v\n%s", id, err, src)
	}
	rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
	if err != nil {
		t.Fatalf("system %s: %v\n%s", id, err, src)
	}
	for k, res := range rep.Results {
		cut := strings.Contains(res.LevelReason, "initial phase")
		counts[fmt.Sprintf("%s%v cut=%v", tag, res.Verdict, cut)]++
		if bounded {
			counts[fmt.Sprintf("bounded %v cut=%v", res.Verdict, cut)]++
		}
		// What the cut answers is carried to the system: a proof by
		// one invariant of the system's model, checked here again on
		// the model as written; a run replayed on the system, never
		// asked again.
		joined := strings.Contains(res.LevelReason, "joined into one")
		if strings.Contains(res.LevelReason, "proofs did not join") {
			counts["proof asked again"]++
			if tag != "" {
				counts[tag+"proof asked again"]++
			}
		}
		switch {
		case cut && res.Verdict != prove.Proved && res.Verdict != prove.Refuted:
			t.Errorf("system %s: %s: answered %v through the phase; only proofs and runs are", id, res.Property.Name, res.Verdict)
		case prove.AskedAgain(res):
			t.Errorf("system %s: %s refuted through the phase, and asked again\n%s", id, res.Property.Name, src)
		case cut && res.Verdict == prove.Proved && !joined:
			counts["proof not joined"]++
		case joined:
			checkAsWritten(t, ctx, s, 0, sys, k, res)
		}
	}
	sizes := [][]int{nil}
	if family {
		sizes = [][]int{{1}, {2}, {3}}
	}
	for _, params := range sizes {
		holds := explorePhase(t, instanceAt(t, id, sys, params))
		if holds == nil {
			continue
		}
		// The properties "blocked" and "stuck" fail where a bound
		// blocks a step out of I, and where it blocks all of them.
		for _, name := range []string{"blocked", "stuck"} {
			if h, ok := holds[name]; ok && !h {
				counts[name]++
			}
		}
		compareExplored(t, id, src, params, family, rep, holds)
	}
}

// compareExplored compares the verdicts of rep, on system src, with
// holds, what exploration found at the parameter values params (nil
// for a system without a family): a property proved must hold there,
// one refuted at params (anywhere, without a family) must fail.
func compareExplored(t *testing.T, id, src string, params []int, family bool, rep *prove.Report, holds map[string]bool) {
	t.Helper()
	for _, res := range rep.Results {
		name := res.Property.Name
		switch {
		case res.Verdict == prove.Proved && !holds[name]:
			t.Errorf("system %s at %v: %s proved, fails by exploration (%s)\n%s", id, params, name, res.LevelReason, src)
		case res.Verdict == prove.Refuted && holds[name] && (!family || fmt.Sprint(res.Params) == fmt.Sprint(params)):
			t.Errorf("system %s at %v: %s refuted there, holds by exploration\n%s", id, params, name, src)
		}
	}
}

// instanceAt returns the instance of sys at the parameter values
// params, sys itself for nil.
func instanceAt(t *testing.T, id string, sys *gsst.System, params []int) *gsst.System {
	t.Helper()
	if params == nil {
		return sys
	}
	inst, err := sys.InstantiateParams(params, nil)
	if err != nil {
		t.Fatalf("system %s at n = %v: %v", id, params, err)
	}
	return inst
}

// explorePhase returns, for each property of the instance inst, whether
// explicit exploration finds it holds; nil when the instance is too
// large.
func explorePhase(t *testing.T, inst *gsst.System) map[string]bool {
	t.Helper()
	gm, err := counterabs.BuildGroup(inst)
	if err != nil {
		t.Fatalf("%v", err)
	}
	r, err := explicit.Engine{}.Check(context.Background(), gm, exploration.MaxStates(20000), exploration.Traces(false))
	if errkind.Of(err) == errkind.Limit {
		return nil
	}
	if err != nil {
		t.Fatalf("%v", err)
	}
	holds := map[string]bool{}
	for _, p := range r.Properties {
		holds[p.Name] = p.Holds
	}
	return holds
}

// phaseSystem draws a system with an initial state I and the YAML that
// says it; family says whether its group's size is the parameter n.
// States A, B and C are the targets of the steps out of I, D and E the
// states after; the other steps go forward (A..E in order), so that
// every run is finite. With bounded, x and (half the time) y have a
// greatest value of 1 to 3, and the properties "blocked" and "stuck"
// say that no bound blocks ia (a process in I) and that not all steps
// out of I are blocked, "full" and "fullD" that x stays below its
// bound; breaking a condition is rarer. These are drawn only then, after the other
// draws, so that the unbounded systems are those drawn before.
func phaseSystem(r *rand.Rand, bounded bool) (src string, family bool) {
	var b strings.Builder
	family, size := writeHead(r, &b, "phase", 3)
	hx, hy := -1, -1 // the greatest values, -1 for none
	if bounded {
		hx = 1 + r.Intn(3)
		if r.Intn(2) == 0 {
			hy = 1 + r.Intn(3)
		}
	}
	typ := func(h int) string {
		if h < 0 {
			return "0.."
		}
		return fmt.Sprintf("0..%d", h)
	}
	fmt.Fprintf(&b, "shared:\n  x: {type: %q, init: 0}\n  y: {type: %q, init: 0}\n  z: {type: \"0..\", init: 0}\n", typ(hx), typ(hy))
	b.WriteString("states: [I, A, B, C, D, E]\n")
	two := r.Intn(4) == 0
	writeGroups(&b, size, two)
	b.WriteString("init: I\ntransitions:\n")
	// Which condition of the cut this system breaks, if any.
	breaks := r.Intn(5)
	if bounded {
		breaks = r.Intn(8) // most bounded systems meet the conditions
	}
	cx, cy := 1+r.Intn(2), 1+r.Intn(2)
	fmt.Fprintf(&b, "  - {name: ia, from: I, to: A, update: \"x := x + %d\"}\n", cx)
	// blocks are the conditions under which a bound blocks each step
	// out of I ("" for a step no bound blocks).
	blocks := []string{""}
	if hx >= 0 {
		blocks[0] = fmt.Sprintf("x >= %d", hx-cx+1)
	}
	switch r.Intn(3) {
	case 0:
		fmt.Fprintf(&b, "  - {name: ib, from: I, to: B, update: \"y := y + %d\"}\n", cy)
		blocks = append(blocks, "")
		if hy >= 0 {
			blocks[1] = fmt.Sprintf("y >= %d", hy-cy+1)
		}
	case 1:
		fmt.Fprintf(&b, "  - {name: ib, from: I, to: B, update: \"x := x + %d\"}\n", cy)
		blocks = append(blocks, "")
		if hx >= 0 {
			blocks[1] = fmt.Sprintf("x >= %d", hx-cy+1)
		}
	default:
		b.WriteString("  - {name: ib, from: I, to: B}\n")
		blocks = append(blocks, "")
	}
	if r.Intn(2) == 0 {
		blocks = append(blocks, "")
		guard := ""
		if breaks == 1 {
			guard = ", guard: \"x >= 1\""
		}
		fmt.Fprintf(&b, "  - {name: ic, from: I, to: C%s}\n", guard)
	}
	if breaks == 2 {
		fmt.Fprintf(&b, "  - {name: ia2, from: I, to: A, update: \"y := y + %d\"}\n", cy)
		blocks = append(blocks, "")
		if hy >= 0 {
			blocks[len(blocks)-1] = fmt.Sprintf("y >= %d", hy-cy+1)
		}
	}
	empties := []string{"#I = 0", "#I < 1", "#I <= 0", "1 > #I"}
	atoms := []string{"x >= 1", "x >= 2", "y >= 1", "z >= 1", "#A >= 1", "#B = 0", "x + y >= 2", "#D >= 1"}
	states := []string{"A", "B", "C", "D", "E"}
	// The first step goes from A to D: a way out of the phase's
	// targets that the properties on D read.
	steps := 3 + r.Intn(3)
	for k := range steps {
		from := r.Intn(4)
		to := from + 1 + r.Intn(4-from)
		if k == 0 {
			from, to = 0, 3
		}
		guard := empties[r.Intn(len(empties))]
		if r.Intn(2) == 0 && k > 0 {
			guard += " & " + atoms[r.Intn(len(atoms))]
		}
		if breaks == 0 && k == 0 {
			guard = "x >= 1"
		}
		update := ""
		switch r.Intn(4) {
		case 0:
			update = ", update: \"z := z + 1\""
		case 1:
			if k > 0 {
				update = ", update: \"x := x + 1\""
			}
		}
		fmt.Fprintf(&b, "  - {name: s%d, from: %s, to: %s, guard: \"%s\"%s}\n", k, states[from], states[to], guard, update)
	}
	total := size
	if two {
		total = size + " + 1"
	}
	props := []string{
		"AG (#I >= 1 -> #A = 0)",
		"AG (#I >= 1 -> #D + #E = 0)",
		"AG (#I >= 1 -> x <= 1)",
		"AG (#I = 0 & x = 0 -> #E = 0)",
		"AG (#I = 0 & x = " + total + " -> #E = 0)",
		"AG (#D >= 1 -> x <= 1)",
		"AG (#D >= 1 -> x <= " + total + ")",
		"AG (#D >= 1 -> x >= 1)",
		"AG (#E >= 1 -> x + y <= 2)",
		"AG (z <= 1)",
		"AG (z = 0)",
		"AG (x <= 2*#A + 2*#B)",
		"AG (#E = 0)",
		"AG (#I = 0 -> x + y >= 1)",
		"z = 0 -> AG (#D >= 1 -> #A + #B >= 1)",
	}
	b.WriteString("properties:\n")
	for k := range 5 {
		prop := props[r.Intn(len(props))]
		// The first property is one that a cut ignoring the broken
		// condition would prove wrongly.
		switch {
		case k == 0 && breaks == 0:
			prop = "AG (#I >= 1 -> #D + #E = 0)"
		case k == 0 && breaks == 2:
			prop = "AG (#D >= 1 -> x >= 1)"
		}
		fmt.Fprintf(&b, "  p%d: %q\n", k, prop)
	}
	if bounded {
		// x reaches its bound at the end of the phase (and after it)
		// in some instances: a rest system that starts below the
		// bound proves these wrongly.
		fmt.Fprintf(&b, "  full: \"AG (#I = 0 -> x <= %d)\"\n  fullD: \"AG (#D >= 1 -> x <= %d)\"\n", hx-1, hx-1)
		fmt.Fprintf(&b, "  blocked: %q\n", "AG (#I >= 1 -> !("+blocks[0]+"))")
		if !slices.Contains(blocks, "") {
			fmt.Fprintf(&b, "  stuck: %q\n", "AG (#I >= 1 -> !("+strings.Join(blocks, " & ")+"))")
		}
	}
	return b.String(), family
}

// TestInitialPhaseStrb checks that ByMC's strb as its reader's style
// writes it (an initial state I, the choice counted in chose0) has its
// unforgeability, whose premise reads the end of the phase, proved
// through the cut: unknown after 60 s without it.
func TestInitialPhaseStrb(t *testing.T) {
	src := `name: strb-choice
params: [n, t, f]
assume: "n > 3*t & t >= f & t >= 1"
shared:
  nsnt: {type: "0..", init: 0}
  chose0: {type: "0..", init: 0}
states: [I, V0, V1, SE, AC]
groups:
  correct: n - f
init: I
transitions:
  - {from: I, to: V0, update: "chose0 := chose0 + 1"}
  - {from: I, to: V1}
  - {from: V1, to: SE, guard: "#I = 0", update: "nsnt := nsnt + 1"}
  - {from: V0, to: SE, guard: "#I = 0 & nsnt >= t + 1 - f", update: "nsnt := nsnt + 1"}
  - {from: SE, to: AC, guard: "#I = 0 & nsnt >= n - t - f"}
properties:
  unforg: "AG (#I = 0 & chose0 = n - f -> #AC = 0)"
  wrong: "AG (#I = 0 & chose0 = 0 -> #AC = 0)"
`
	sys, err := gsst.Parse("strb-choice.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(extWork))
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Results[0]; r.Verdict != prove.Proved || !strings.Contains(r.LevelReason, "joined into one of the system") {
		t.Errorf("unforg: %v (%s), want proved through the initial phase, by an invariant of the system", r.Verdict, r.LevelReason)
	}
	// With every correct process choosing 1, t + 1 - f of them suffice:
	// the run after the phase, preceded by the phase, is one of the
	// system, never asked of it again.
	if r := rep.Results[1]; r.Verdict != prove.Refuted || !strings.Contains(r.LevelReason, "replayed on the system") || prove.AskedAgain(r) {
		t.Errorf("wrong: %v (%s), want refuted through the initial phase, the run replayed on the system", r.Verdict, r.LevelReason)
	} else if r.Trace.States[0].Counters[0] == 0 || len(r.Instance.Shared) != len(sys.Shared) {
		t.Errorf("wrong: the run does not start in I, or is not of the system's instance")
	}
	// A translation that types the choice counter with a greatest
	// value (0..1000000: the steps out of I block there) keeps the
	// cut: unknown after 30 s without it.
	bound := strings.Replace(src, `chose0: {type: "0..", init: 0}`, `chose0: {type: "0..1000000", init: 0}`, 1)
	if sys, err = gsst.Parse("strb-bound.yaml", []byte(bound)); err != nil {
		t.Fatal(err)
	}
	if rep, err = prove.Check(context.Background(), sys.WithProperties(0), s, s, prove.MaxWork(extWork)); err != nil {
		t.Fatal(err)
	}
	if r := rep.Results[0]; r.Verdict != prove.Proved || !strings.Contains(r.LevelReason, "joined into one of the system") {
		t.Errorf("unforg with chose0 bounded: %v (%s), want proved through the initial phase, by an invariant of the system", r.Verdict, r.LevelReason)
	}
	// ByMC's idle self-loops on every state, I's included, change no
	// configuration: the phase is cut all the same.
	idle := strings.Replace(src, "properties:", `  - {from: I, to: I}
  - {from: V0, to: V0}
  - {from: V1, to: V1}
  - {from: SE, to: SE}
  - {from: AC, to: AC}
properties:`, 1)
	if sys, err = gsst.Parse("strb-idle.yaml", []byte(idle)); err != nil {
		t.Fatal(err)
	}
	rep, err = prove.Check(context.Background(), sys.WithProperties(0), s, s, prove.MaxWork(extWork))
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Results[0]; r.Verdict != prove.Proved || !strings.Contains(r.LevelReason, "initial phase") {
		t.Errorf("unforg with idle self-loops: %v (%s), want proved after the initial phase", r.Verdict, r.LevelReason)
	}
	// Steps out of I guarded by "the mover is there" (#I >= 1, implied
	// by the process that takes the step), and a step out of I written
	// twice under two names, are the same phase: cut all the same (the
	// ByMC safety properties so written took 3-4 times as long).
	for _, tc := range []struct{ name, from, to string }{
		{"guarded", `  - {from: I, to: V0, update: "chose0 := chose0 + 1"}
  - {from: I, to: V1}`, `  - {from: I, to: V0, guard: "#I >= 1", update: "chose0 := chose0 + 1"}
  - {from: I, to: V1, guard: "#I > 0 & #I[correct] != 0"}`},
		{"twice", `  - {from: I, to: V0, update: "chose0 := chose0 + 1"}`, `  - {name: choose0, from: I, to: V0, update: "chose0 := chose0 + 1"}
  - {name: choose0_again, from: I, to: V0, update: "chose0 := chose0 + 1"}`},
		// The choice counted down: left0 = n - f - chose0, the
		// processes that have not chosen 0 (unknown after 30 s
		// without the cut).
		{"counted down", "chose0", "left0"},
	} {
		styled := strings.Replace(src, tc.from, tc.to, 1)
		if tc.from == "chose0" {
			styled = strings.NewReplacer(`chose0: {type: "0..", init: 0}`, `left0: {type: "0..", init: n - f}`,
				"chose0 := chose0 + 1", "left0 := left0 - 1", "chose0 = n - f", "left0 = 0", "chose0 = 0", "left0 = n - f").Replace(src)
		}
		if sys, err = gsst.Parse("strb-"+tc.name+".yaml", []byte(styled)); err != nil {
			t.Fatal(err)
		}
		if rep, err = prove.Check(context.Background(), sys, s, s, prove.MaxWork(extWork)); err != nil {
			t.Fatal(err)
		}
		if r := rep.Results[0]; r.Verdict != prove.Proved || !strings.Contains(r.LevelReason, "initial phase") {
			t.Errorf("unforg, steps out of I %s: %v (%s), want proved after the initial phase", tc.name, r.Verdict, r.LevelReason)
		}
		if r := rep.Results[1]; r.Verdict != prove.Refuted || !strings.Contains(r.LevelReason, "replayed on the system") {
			t.Errorf("wrong, steps out of I %s: %v (%s), want refuted through the initial phase", tc.name, r.Verdict, r.LevelReason)
		}
	}
}

// writeGroups writes the groups of a random system of the initial-phase
// tests: p of the given size, and q of one process when two says so.
func writeGroups(b *strings.Builder, size string, two bool) {
	if two {
		fmt.Fprintf(b, "groups:\n  p: %s\n  q: 1\n", size)
	} else {
		fmt.Fprintf(b, "groups:\n  p: %s\n", size)
	}
}

// writeHead draws whether a random system of the initial-phase tests is
// a family (its group's size the parameter n, 1 to 3) or of one size, 1
// to most, and writes its name and parameters.
func writeHead(r *rand.Rand, b *strings.Builder, name string, most int) (family bool, size string) {
	family = r.Intn(2) == 0
	b.WriteString("name: " + name + "\n")
	size = fmt.Sprint(1 + r.Intn(most))
	if family {
		b.WriteString("params: [n]\nassume: \"n >= 1 & n <= 3\"\n")
		size = "n"
	}
	return family, size
}
