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
// by self-loops on I of its own whose update is "x := x + c" (c >= 1)
// and whose guard reads x alone, if anything (seeds: a translation that
// has a controller put the initial tokens of a net in place one by
// one, "Boot" with a loop per seeded place, "x6 < 5" for a place of 5,
// before it moves on). Every other step either leaves I (an exit, any
// guard and update) or cannot fire while the process is in I (the
// system has that one process, so a step needs it elsewhere, or the
// step waits for "#I = 0"). The seeds of one variable touch no other,
// and none fires once the process has left I, so the configurations a
// run reaches are exactly those of the rest system, the system without
// the seeds whose seeded variables start at the values the seeds give
// them, when those are an interval (seedValues; a seed past the
// domain's greatest value is not enabled, domain blocking): its initial
// configurations are the phase's (I with any seeded values), and from
// one of them it runs as the system does once the seeds are done. No
// link is needed: a safety property (its premise reading no seeded
// variable) holds on the system exactly when it holds on the rest
// system. The phase may also be kept by a shared variable at its
// initial value instead of a state (seedsInMode).
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
// start before it, the fewest for each variable, replayed on the
// system.

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
	for j, rules := range ph.seeded {
		v := &rest.Shared[j]
		hi, noHi, ok := seedValues(v, sys.SharedVar(j), rules)
		if !ok || !noHi && hi == int64(v.Init) {
			// No interval; or seeds that never fire, whose variable
			// the rest system's models fold to its constant while the
			// system's keep it (a proof would not join).
			return nil, false, nil
		}
		setInitial(v, int64(v.Init), hi, noHi)
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
func newSeeding(sys *gsst.System, first int, mode *seedMode, seeded map[int][]seedRule) *initialPhase {
	ph := oneStepPhase(sys, first)
	ph.seeded, ph.mode = seeded, mode
	return ph
}

// seedMode is the shared variable (by index) that keeps a seeding
// phase, and its value throughout the phase.
type seedMode struct{ shared, value int }

// seedsInState finds a seeding phase kept by a state I (see above): the
// phase without its systems, and the seeds (indices into
// sys.Transitions).
func seedsInState(sys *gsst.System, live []bool) (ph *initialPhase, seeds seedSteps, ok bool) {
	// I is the state of the self-loops that count up where one process
	// starts (all of them: a net's rule that only adds, a self-loop of
	// a state entered later, is no seed).
	first := -1
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		if t.From != t.To || stutters(t) || !live[t.From] || !oneStarts(sys, t.From) {
			continue
		}
		if _, _, ok := seedOf(sys, live, t, t.From); ok {
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
	seeded := map[int][]seedRule{}
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
			j, rule, ok := seedOf(sys, live, t, first)
			if !ok {
				return nil, seedSteps{}, false
			}
			seeded[j] = append(seeded[j], rule)
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
	seeded := map[int][]seedRule{}
	// seed reads a step as a seed of variable j: j -1 when it is none,
	// -2 when it is one of another mode than those before.
	seed := func(guard presburger.Formula, u gsst.Update) (j int, rule seedRule) {
		v, b, at, ok := pinned(sys, guard)
		if !ok {
			return -1, rule
		}
		// "v := b" changes nothing where the guard holds (a controller
		// read as a variable writes its value again on a self-loop).
		u.Assign = slices.DeleteFunc(slices.Clone(u.Assign), func(a gsst.Assign) bool {
			return a.Var == sys.SharedVar(v) && a.Value.IsConst() && a.Value.Const == int64(b)
		})
		j, c, ok := countUp(sys, u)
		switch {
		case !ok || !readsOnly(at, sys.SharedVar(j)):
			return -1, rule
		case v == j || mode >= 0 && (v != mode || b != value):
			return -2, rule
		}
		mode, value = v, b
		return j, seedRule{c: c, guard: at}
	}
	for e := range sys.Environment {
		env := &sys.Environment[e]
		if len(env.Broadcast) > 0 {
			continue
		}
		switch j, rule := seed(env.Guard, env.Update); {
		case j == -2:
			return nil, seedSteps{}, false
		case j >= 0:
			seeded[j] = append(seeded[j], rule)
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
		var rule seedRule
		for _, b := range t.Blocks {
			k, r := seed(b.Guard, b.Update)
			if k == -2 || k >= 0 && j >= 0 && (k != j || !sameRule(r, rule)) {
				return nil, seedSteps{}, false
			}
			if k < 0 {
				j = -1
				break
			}
			j, rule = k, r
		}
		if j >= 0 {
			seeded[j] = append(seeded[j], rule)
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
		at, exact := atValue(guard, x, value)
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

// countUp reads u as a seed's update, "x := x + c" (c >= 1) of one
// integer shared variable x that starts at one value; j is x's index.
func countUp(sys *gsst.System, u gsst.Update) (j int, c int64, ok bool) {
	adds, ok := increments(sys, u)
	if !ok || len(adds) != 1 {
		return 0, 0, false
	}
	for k, d := range adds {
		if d < 1 || !sys.Shared[k].InitTerm.IsConst() {
			return 0, 0, false
		}
		j, c = k, d
	}
	return j, c, true
}

// pinned reads guard as "v = b & g" for a shared variable v that starts
// at b, one value, and that some step writes: a conjunct of the guard
// holds at v = b alone, and at is the guard there (g, its other atoms
// on v folded away, and the variables no step writes at their values);
// v is v's index. A variable no step writes keeps no phase: after a
// start move kept by a flag "seeded", the rest system's seeds
// "seeded & !live" are kept by live.
func pinned(sys *gsst.System, guard presburger.Formula) (v, b int, at presburger.Formula, ok bool) {
	v = -1
	written := writtenShared(sys)
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
		if sv.InitSeveral() || !sv.InitTerm.IsConst() || written[j] == 0 {
			continue
		}
		in, ok := presburger.AtomRange(a, sv.Bounds(a.T.Monos[0].Var))
		if ok && in.Finite() && in.Lo == in.Hi && in.Lo == int64(sv.Init) {
			v = j
			break
		}
	}
	if v < 0 {
		return 0, 0, nil, false
	}
	b = sys.Shared[v].Init
	// The variables no step writes are constants: folded too, so that
	// "seeded & !live" at live = false reads as true.
	values := map[presburger.Var]int64{sys.SharedVar(v): int64(b)}
	for j, k := range constantShared(sys) {
		values[sys.SharedVar(j)] = int64(k)
	}
	at, exact := atValues(guard, values)
	return v, b, at, exact
}

// atValue is f with x replaced by b, folded (SubstExact; exact false
// when a constant would leave int64).
func atValue(f presburger.Formula, x presburger.Var, b int) (at presburger.Formula, exact bool) {
	return atValues(f, map[presburger.Var]int64{x: int64(b)})
}

// atValues is f with each variable of values replaced by its value,
// folded (SubstExact; exact false when a constant would leave int64).
func atValues(f presburger.Formula, values map[presburger.Var]int64) (at presburger.Formula, exact bool) {
	return presburger.SubstExact(f, func(w presburger.Var) presburger.Term {
		if c, ok := values[w]; ok {
			return presburger.ConstTerm(c)
		}
		return presburger.VarTerm(w)
	})
}

// initialValues adds to values the initial value of each shared
// variable of sys that starts at one constant and that keep (by index)
// accepts, and returns values.
func initialValues(sys *gsst.System, values map[presburger.Var]int64, keep func(j int) bool) map[presburger.Var]int64 {
	for j := range sys.Shared {
		if v := &sys.Shared[j]; keep(j) && !v.InitSeveral() && v.InitTerm.IsConst() {
			values[sys.SharedVar(j)] = int64(v.Init)
		}
	}
	return values
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
// block with the update "x := x + c" (c >= 1) of one integer shared
// variable x that starts at one value, and the same guard beyond "the
// mover is there", one that reads x alone (true for none); j is x's
// index.
func seedOf(sys *gsst.System, live []bool, t *gsst.Transition, first int) (j int, rule seedRule, ok bool) {
	if len(t.Broadcast) > 0 || len(t.Blocks) == 0 {
		return 0, rule, false
	}
	j = -1
	for _, b := range t.Blocks {
		var own []presburger.Formula
		for _, c := range presburger.Conjuncts(liveGuard(sys, live, b.Guard)) {
			if !moverImplied(sys, b.Groups, c, first) {
				own = append(own, c)
			}
		}
		k, c, ok := countUp(sys, b.Update)
		r := seedRule{c: c, guard: presburger.Conj(own...)}
		if !ok || !readsOnly(r.guard, sys.SharedVar(k)) || j >= 0 && (k != j || !sameRule(r, rule)) {
			return 0, rule, false
		}
		j, rule = k, r
	}
	return j, rule, true
}

// A seedRule is one seed of a variable x: it adds c to x where guard, a
// formula over x alone (true for none), holds.
type seedRule struct {
	c     int64
	guard presburger.Formula
}

func sameRule(a, b seedRule) bool {
	return a.c == b.c && presburger.Format(a.guard, numbered) == presburger.Format(b.guard, numbered)
}

// readsOnly reports whether f reads no variable but x.
func readsOnly(f presburger.Formula, x presburger.Var) bool {
	for _, v := range presburger.FreeVars(f) {
		if v != x {
			return false
		}
	}
	return true
}

// seedValues returns the values the seeds rules of variable v (x in the
// formulas) give it in the phase, from its initial value on: ok when
// they are an interval, init..hi, or init and up (noHi). Past top, the
// greatest constant of the guards, every guard is true or false for
// good. The values are computed up to top + 2w + 1 (w the widest
// increment; the domain's greatest value when less): when they reach
// past top + w, some seed enabled past top fired, and from any value
// past top its least increment reaches the next ones, every value past
// top reached, up to the domain's greatest; else they end at last, at
// most top + w, from where no seed reaches past the values computed.
func seedValues(v *gsst.Shared, x presburger.Var, rules []seedRule) (hi int64, noHi, ok bool) {
	init := int64(v.Init)
	top := init
	var widest int64
	for _, r := range rules {
		widest = max(widest, r.c)
		for a := range presburger.Atoms(r.guard) {
			in, ok := presburger.AtomRange(a, presburger.AtLeast(x, init))
			if !ok {
				return 0, false, false
			}
			if !in.NoLo {
				top = max(top, in.Lo)
			}
			if !in.NoHi {
				top = max(top, in.Hi)
			}
		}
	}
	limit := top + 2*widest + 1
	if !v.Unbounded {
		limit = min(limit, int64(v.Hi))
	}
	if limit-init > maxSeedSteps {
		return 0, false, false
	}
	reached := make([]bool, limit-init+1)
	reached[0] = true
	for k := init; k <= limit; k++ {
		if !reached[k-init] {
			continue
		}
		for _, r := range rules {
			if k+r.c <= limit && presburger.Eval(r.guard, func(presburger.Var) int64 { return k }) {
				reached[k+r.c-init] = true
			}
		}
	}
	last := init
	for last < limit && reached[last+1-init] {
		last++
	}
	if slices.Contains(reached[last+1-init:], true) {
		return 0, false, false
	}
	switch {
	case last <= top+widest:
		return last, false, true
	case last < limit:
		return 0, false, false // not so: every value past top is reached
	case v.Unbounded:
		return 0, true, true
	}
	// Every value past top, up to the domain's greatest.
	return int64(v.Hi), false, true
}

// seededNames lists the seeded variables of ph by name, in the order
// sys declares them.
func (ph *initialPhase) seededNames(sys *gsst.System) string {
	var names []string
	for j := range sys.Shared {
		if _, ok := ph.seeded[j]; ok {
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
// values, through the seeds that reach end's values one variable after
// another (the fewest for each), to end (a run of the seeding phase);
// ok false when end is not so reached or is too far (maxSeedSteps).
func (ph *initialPhase) seedRun(inst *gsst.System, end gsst.Config) (run []gsst.Config, ok bool) {
	cur := end.Clone()
	for j := range ph.seeded {
		cur.Shared[j] = inst.Shared[j].Init
	}
	run = append(run, cur.Clone())
	for j := range inst.Shared {
		rules, seeded := ph.seeded[j]
		if !seeded {
			continue
		}
		path, ok := seedPath(int64(inst.Shared[j].Init), int64(end.Shared[j]), rules)
		if !ok || len(run)+len(path) > maxSeedSteps {
			return nil, false
		}
		for _, k := range path {
			cur.Shared[j] = int(k)
			run = append(run, cur.Clone())
		}
	}
	return run, true
}

// seedPath returns the values after each seed of a shortest way from
// init to target by rules (breadth first over init..target: the seeds
// only add); ok false when there is none.
func seedPath(init, target int64, rules []seedRule) ([]int64, bool) {
	if target < init || target-init > maxSeedSteps {
		return nil, false
	}
	from := make([]int64, target-init+1) // the value each was reached from, -1 for none
	for i := range from {
		from[i] = -1
	}
	from[0] = init
	for k := init; k < target; k++ {
		if from[k-init] < 0 {
			continue
		}
		for _, r := range rules {
			if n := k + r.c; n <= target && from[n-init] < 0 && presburger.Eval(r.guard, func(presburger.Var) int64 { return k }) {
				from[n-init] = k
			}
		}
	}
	if from[target-init] < 0 {
		return nil, false
	}
	var path []int64
	for k := target; k != init; k = from[k-init] {
		path = append(path, k)
	}
	slices.Reverse(path)
	return path, true
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

// writtenShared returns, for each shared variable of sys (by index),
// how many steps write it.
func writtenShared(sys *gsst.System) map[int]int {
	out := map[int]int{}
	for _, st := range sys.Steps() {
		for _, a := range st.Update.Assign {
			if j, ok := sys.SharedOf(a.Var); ok {
				out[j]++
			}
		}
	}
	return out
}
