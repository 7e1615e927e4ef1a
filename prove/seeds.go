package prove

import (
	"slices"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// A seeding phase: one process starts in a state I that nothing
// enters, and while it is there it may count shared variables up, each
// by a self-loop on I of its own, unguarded, whose update is "x := x +
// 1" (seeds: a translation that has a controller put the initial
// tokens of a net in place one by one, "Boot" with a loop per seeded
// place, before it moves on). Every other step either leaves I (an
// exit, any guard and update) or cannot fire while the process is in I
// (the system has that one process, so a step needs it elsewhere, or
// the step waits for "#I = 0"). The seeds commute, and none fires once
// the process has left I, so the configurations a run reaches are
// exactly those of the rest system, the system without the seeds
// whose seeded variables start anywhere from their initial value up
// (to their greatest value: a seed past it is not enabled, domain
// blocking): its initial configurations are the phase's (I with any
// seeded values), and from one of them it runs as the system does
// once the seeds are done. No link is needed: a safety property (its
// premise reading no seeded variable) holds on the system exactly when
// it holds on the rest system.
//
// The cut is phase.go's with the phase system the seeds alone and the
// rest system so started (kanban seeded so, from a Boot state, was
// unknown after 20 s: the backward search keeps one Boot element per
// element after it, "x4 = 0 while in Boot" being no linear invariant;
// refuted in 0.05 s so). The answers carry to the system as a start
// step's do (derived.go), with the rest system's initial set for the
// phase's configurations: the invariant re-checked is
//
//	In > 0 & RestInit  |  In = 0 & (Fixed | RestInv & Stay)
//
// and a run of the rest system is carried with the seeds that reach its
// start before it, one step per unit, replayed on the system.

// maxSeedSteps bounds the seeds carryRun writes before a run of the
// rest system: a start further out is left to the system as written.
const maxSeedSteps = 100_000

// cutSeeds finds a seeding phase of sys (see above), kept by a state or
// by a shared variable; ok is false when some condition fails.
func cutSeeds(sys *gsst.System) (*initialPhase, bool, error) {
	if len(sys.Groups) == 0 || len(sys.Shared) == 0 {
		return nil, false, nil
	}
	live := liveStates(sys)
	ph, seeds, ok := seedsInState(sys, live)
	if !ok {
		if ph, seeds, ok = seedsInMode(sys, live); !ok {
			return nil, false, nil
		}
	}
	for j := range ph.seeded {
		ph.touched[sys.SharedVar(j)] = true
	}
	isSeed := func(i int) bool { return slices.Contains(seeds.trans, i) }
	isEnvSeed := func(i int) bool { return slices.Contains(seeds.env, i) }
	phase := sys.Spec()
	phase.Properties, phase.Fairness = nil, gsst.Fairness{}
	phase.Rendezvous = nil
	phase.Transitions, phase.Environment = filter(phase.Transitions, isSeed), filter(phase.Environment, isEnvSeed)
	var err error
	if ph.phase, err = gsst.New(phase); err != nil {
		return nil, false, err
	}
	rest := sys.Spec()
	rest.Properties, rest.Fairness = nil, gsst.Fairness{}
	rest.Transitions = filter(rest.Transitions, func(i int) bool { return !isSeed(i) })
	rest.Environment = filter(rest.Environment, func(i int) bool { return !isEnvSeed(i) })
	rest.Shared = slices.Clone(rest.Shared)
	for j := range ph.seeded {
		v := &rest.Shared[j]
		v.InitRange, v.InitText = true, ""
		v.InitHiTerm = presburger.Term{}
		if v.Unbounded {
			v.InitNoHi = true
		} else {
			v.InitHi = v.Hi
		}
	}
	if ph.rest, err = gsst.New(rest); err != nil {
		return nil, false, err
	}
	return ph, true, nil
}

// filter returns the elements of xs whose index keep accepts, in a new
// slice.
func filter[T any](xs []T, keep func(int) bool) []T {
	var out []T
	for i, x := range xs {
		if keep(i) {
			out = append(out, x)
		}
	}
	return out
}

// seedSteps are a seeding phase's seeds: indices into a system's
// Transitions and Environment.
type seedSteps struct{ trans, env []int }

// newSeeding returns the initialPhase of a seeding phase, its fields
// but the systems set.
func newSeeding(sys *gsst.System, first int, mode *seedMode, seeded map[int]bool) *initialPhase {
	return &initialPhase{touched: map[presburger.Var]bool{}, start: map[presburger.Var]presburger.Term{}, first: first, targets: make([][]int, len(sys.Groups)), adds: map[int]map[int]int64{}, incr: map[int]bool{}, link: presburger.True, oneStep: true, seeded: seeded, mode: mode}
}

// seedMode is the shared variable (by index) that keeps a seeding
// phase, and its value throughout the phase.
type seedMode struct{ shared, value int }

// seedsInState finds a seeding phase kept by a state I (see above): the
// phase without its systems, and the seeds (indices into
// sys.Transitions).
func seedsInState(sys *gsst.System, live []bool) (ph *initialPhase, seeds seedSteps, ok bool) {
	// I is the state of the self-loops that count up (all of them).
	first := -1
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		if t.From != t.To || stutters(t) || !live[t.From] {
			continue
		}
		if _, ok := seedOf(sys, live, t, t.From); ok {
			if first >= 0 && t.From != first {
				return nil, seedSteps{}, false
			}
			first = t.From
		}
	}
	if first < 0 || !oneStarts(sys, first) {
		return nil, seedSteps{}, false
	}
	alone := oneProcess(sys)
	seeded := map[int]bool{}
	entersFirst := func(xs []gsst.Transfer) bool { return refills(xs, live, first) }
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		if stutters(t) || !live[t.From] {
			continue
		}
		if entersFirst(t.Broadcast) {
			return nil, seedSteps{}, false
		}
		switch {
		case t.To == first && t.From != first:
			return nil, seedSteps{}, false
		case t.From == first && t.To == first:
			j, ok := seedOf(sys, live, t, first)
			if !ok {
				return nil, seedSteps{}, false
			}
			seeded[j] = true
			seeds.trans = append(seeds.trans, i)
		case t.From == first:
			// An exit: the rest system keeps it as written.
		case !alone:
			// Another process's step: it must wait for I to empty.
			for _, b := range t.Blocks {
				if !emptiesFirst(sys, b.Guard, first) {
					return nil, seedSteps{}, false
				}
			}
		}
	}
	for i := range sys.Rendezvous {
		rv := &sys.Rendezvous[i]
		// One process meets no other; with more, a rendezvous must
		// wait for I to empty.
		if !alone && !emptiesFirst(sys, rv.Guard, first) || entersFirst(rv.Broadcast) {
			return nil, seedSteps{}, false
		}
		for _, p := range rv.Parts {
			if p.From == first || p.To == first {
				return nil, seedSteps{}, false
			}
		}
	}
	for e := range sys.Environment {
		env := &sys.Environment[e]
		if !emptiesFirst(sys, env.Guard, first) || entersFirst(env.Broadcast) {
			return nil, seedSteps{}, false
		}
	}
	return newSeeding(sys, first, nil, seeded), seeds, true
}

// seedsInMode finds a seeding phase kept by a shared variable v, the
// mode, at its initial value b (a controller read as a shared variable,
// gsst.ControllersAsShared, or a flag "boot" a translation writes): the
// seeds are environment steps whose guard holds exactly where v = b and
// whose update is "x := x + 1"; every other step that can fire while v
// = b sets v to another value (an exit), and no step sets v to b. The
// phase without its systems, and the seeds (indices into
// sys.Environment).
func seedsInMode(sys *gsst.System, live []bool) (ph *initialPhase, seeds seedSteps, ok bool) {
	mode, value := -1, 0
	seeded := map[int]bool{}
	// seed reads a step as a seed: -1 when it is none, -2 when it is
	// one of another mode than those before.
	seed := func(guard presburger.Formula, u gsst.Update) int {
		v, b, ok := pinned(sys, guard)
		if !ok {
			return -1
		}
		// "v := b" changes nothing where the guard holds (a controller
		// read as a variable writes its value again on a self-loop).
		u.Assign = slices.DeleteFunc(slices.Clone(u.Assign), func(a gsst.Assign) bool {
			return a.Var == sys.SharedVar(v) && a.Value.IsConst() && a.Value.Const == int64(b)
		})
		j, ok := countsUp(sys, u)
		switch {
		case !ok:
			return -1
		case v == j || mode >= 0 && (v != mode || b != value):
			return -2
		}
		mode, value = v, b
		return j
	}
	for e := range sys.Environment {
		env := &sys.Environment[e]
		if len(env.Broadcast) > 0 {
			continue
		}
		switch j := seed(env.Guard, env.Update); {
		case j == -2:
			return nil, seedSteps{}, false
		case j >= 0:
			seeded[j] = true
			seeds.env = append(seeds.env, e)
		}
	}
	// A self-loop of a process that no step moves in the phase (one of
	// a group of fixed size that starts there, which only an exit can
	// move, and an exit ends the phase), each block a seed of one
	// variable, is a seed too: a net written as one process in one
	// state, its tokens put in place while "boot" holds.
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		if t.From != t.To || len(t.Broadcast) > 0 || stutters(t) || !live[t.From] || !stays(sys, t, t.From) {
			continue
		}
		j := -1
		for _, b := range t.Blocks {
			k := seed(b.Guard, b.Update)
			if k == -2 || k >= 0 && j >= 0 && k != j {
				return nil, seedSteps{}, false
			}
			if k < 0 {
				j = -1
				break
			}
			j = k
		}
		if j >= 0 {
			seeded[j] = true
			seeds.trans = append(seeds.trans, i)
		}
	}
	if mode < 0 {
		return nil, seedSteps{}, false
	}
	// Every other step: enabled while v = b only as an exit, and none
	// setting v to b.
	x := sys.SharedVar(mode)
	other := func(guard presburger.Formula, u gsst.Update) bool {
		at, exact := presburger.SubstExact(guard, func(w presburger.Var) presburger.Term {
			if w == x {
				return presburger.ConstTerm(int64(value))
			}
			return presburger.VarTerm(w)
		})
		if !exact {
			return false
		}
		exits := false
		for _, a := range u.Assign {
			if a.Var != x {
				continue
			}
			if !a.Value.IsConst() || a.Value.Const == int64(value) {
				return false
			}
			exits = true
		}
		return exits || at == presburger.False
	}
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		if stutters(t) || !live[t.From] || slices.Contains(seeds.trans, i) {
			continue
		}
		for _, b := range t.Blocks {
			if !other(b.Guard, b.Update) {
				return nil, seedSteps{}, false
			}
		}
	}
	for i := range sys.Rendezvous {
		if rv := &sys.Rendezvous[i]; !other(rv.Guard, rv.Update) {
			return nil, seedSteps{}, false
		}
	}
	for e := range sys.Environment {
		if env := &sys.Environment[e]; !slices.Contains(seeds.env, e) && !other(env.Guard, env.Update) {
			return nil, seedSteps{}, false
		}
	}
	return newSeeding(sys, -1, &seedMode{mode, value}, seeded), seeds, true
}

// countsUp reads u as a seed's update, "x := x + 1" of one integer
// shared variable x that starts at one value; j is x's index.
func countsUp(sys *gsst.System, u gsst.Update) (j int, ok bool) {
	adds, ok := increments(sys, u)
	if !ok || len(adds) != 1 {
		return 0, false
	}
	for k, c := range adds {
		if c != 1 || !sys.Shared[k].InitTerm.IsConst() {
			return 0, false
		}
		j = k
	}
	return j, true
}

// pinned reads guard as "v = b" for a shared variable v that starts at
// b, one value: the guard holds where v = b and at no other value of
// v's domain (its other atoms, if any, fold away there); v is v's
// index.
func pinned(sys *gsst.System, guard presburger.Formula) (v, b int, ok bool) {
	v = -1
	for _, c := range presburger.Conjuncts(guard) {
		a, isCmp := c.(presburger.Cmp)
		if !isCmp || len(a.T.Monos) != 1 {
			continue
		}
		j, isShared := sys.SharedOf(a.T.Monos[0].Var)
		if !isShared {
			continue
		}
		sv := &sys.Shared[j]
		if sv.InitSeveral() || !sv.InitTerm.IsConst() {
			continue
		}
		in, ok := presburger.AtomRange(a, sv.Bounds(a.T.Monos[0].Var))
		if ok && in.Finite() && in.Lo == in.Hi && in.Lo == int64(sv.Init) {
			v = j
			break
		}
	}
	if v < 0 {
		return 0, 0, false
	}
	b = sys.Shared[v].Init
	x := sys.SharedVar(v)
	at, exact := presburger.SubstExact(guard, func(w presburger.Var) presburger.Term {
		if w == x {
			return presburger.ConstTerm(int64(b))
		}
		return presburger.VarTerm(w)
	})
	return v, b, exact && at == presburger.True
}

// oneStarts reports whether exactly one process of sys starts in state
// first, at every instance: no group that spreads over it, no group of
// a ranged size or one over the parameters starting there.
func oneStarts(sys *gsst.System, first int) bool {
	n := 0
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		if sys.InitOver != nil && slices.Contains(sys.InitOver[g], first) {
			return false
		}
		if k := sys.Init[g][first]; k > 0 {
			if grp.Ranged || grp.OverParams() {
				return false
			}
			n += k
		}
	}
	return n == 1
}

// stays reports whether every block of t is of a group of fixed size
// with a process that starts in state st: there is one there until a
// step moves it.
func stays(sys *gsst.System, t *gsst.Transition, st int) bool {
	for _, b := range t.Blocks {
		for _, g := range b.Groups {
			grp := &sys.Groups[g]
			spread := sys.InitOver != nil && sys.InitOver[g] != nil
			if grp.Ranged || grp.OverParams() || spread || sys.Init[g][st] == 0 {
				return false
			}
		}
	}
	return true
}

// oneProcess reports whether every instance of sys has one process.
func oneProcess(sys *gsst.System) bool {
	n := 0
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		if grp.Ranged || grp.OverParams() {
			return false
		}
		n += grp.Size
	}
	return n == 1
}

// seedOf reads t, a self-loop on first, as a seed: no transfer, every
// block unguarded (or guarded by "the mover is there") with the update
// "x := x + 1" of one integer shared variable x that starts at one
// value; j is x's index.
func seedOf(sys *gsst.System, live []bool, t *gsst.Transition, first int) (j int, ok bool) {
	if len(t.Broadcast) > 0 || len(t.Blocks) == 0 {
		return 0, false
	}
	j = -1
	for _, b := range t.Blocks {
		if guard := liveGuard(sys, live, b.Guard); guard != presburger.True && !moverImplied(sys, b.Groups, guard, first) {
			return 0, false
		}
		k, ok := countsUp(sys, b.Update)
		if !ok || j >= 0 && k != j {
			return 0, false
		}
		j = k
	}
	return j, true
}

// seededNames lists the seeded variables of ph by name, in the order
// sys declares them.
func (ph *initialPhase) seededNames(sys *gsst.System) string {
	var names []string
	for j := range sys.Shared {
		if ph.seeded[j] {
			names = append(names, sys.Shared[j].Name)
		}
	}
	return strings.Join(names, ", ")
}

// restInit returns the rest system's initial configurations over the
// variables of m, sys's group-counter model; ok false when they do not
// carry.
func (c *phaseCarrier) restInit(m *counterabs.ParamModel) (presburger.Formula, bool) {
	rm, err := counterabs.BuildParamGroup(c.ph.rest)
	if err != nil {
		return nil, false
	}
	return liftFormula(rm, m, rm.InitialStates())
}

// seedRun returns the configurations of inst from the one with end's
// processes and values but the seeded variables at their initial
// values, through one seed per unit, to end (a run of the seeding
// phase); ok false when end is not so reached or is too far
// (maxSeedSteps).
func (ph *initialPhase) seedRun(inst *gsst.System, end gsst.Config) (run []gsst.Config, ok bool) {
	cur := end.Clone()
	for j := range ph.seeded {
		cur.Shared[j] = inst.Shared[j].Init
		if end.Shared[j] < cur.Shared[j] {
			return nil, false
		}
	}
	run = append(run, cur.Clone())
	for j := range inst.Shared {
		if !ph.seeded[j] {
			continue
		}
		for cur.Shared[j] < end.Shared[j] {
			if len(run) > maxSeedSteps {
				return nil, false
			}
			cur.Shared[j]++
			run = append(run, cur.Clone())
		}
	}
	return run, true
}

// modelShared returns the variable of m that is shared variable j of
// the system m was built from; ok false when m left it out.
func modelShared(m *counterabs.ParamModel, j int) (presburger.Var, bool) {
	for k := range m.Shared {
		if m.SharedIndex(k) == j {
			return m.SharedVar(k), true
		}
	}
	return 0, false
}

// seedsText says what a seeding phase's seeds are, for the reasons
// printed: "the self-loops on Boot that count x, y up".
func (ph *initialPhase) seedsText(sys *gsst.System) string {
	if ph.mode != nil {
		v := &sys.Shared[ph.mode.shared]
		return "the steps that count " + ph.seededNames(sys) + " up while " + v.Name + " = " + v.ValueName(ph.mode.value)
	}
	return "the self-loops on " + sys.States[ph.first] + " that count " + ph.seededNames(sys) + " up"
}

// phaseTest writes what holds in a seeding phase and what after it:
// "#Boot > 0", "= 0", or "boot = true", "!= true".
func (ph *initialPhase) phaseTest(sys *gsst.System) (in, after string) {
	if ph.mode != nil {
		v := &sys.Shared[ph.mode.shared]
		return v.Name + " = " + v.ValueName(ph.mode.value), "!= " + v.ValueName(ph.mode.value)
	}
	return "#" + sys.States[ph.first] + " > 0", "= 0"
}
