package prove

import (
	"maps"
	"slices"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// A start step: an initial phase of one step (phase.go). Every process
// starts in a state I that nothing enters, and one environment step,
// unguarded and without update, moves every process of I, of every
// group, to a target of its group at once (a broadcast "Start -> S",
// the translation of a file whose processes are all created by one
// step of the environment); every other step needs a process in
// another state to move (a transition or rendezvous) or waits for
// "#I = 0" (an environment step). So in the initial configuration only
// the start step can fire, and after it I stays empty: the start step
// then moves nobody and writes nothing, a step that changes nothing.
// Every run is the initial configuration, the start step, and a run of
// the rest system (the system without the start step whose processes
// start in their group's target, its shared variables where the
// system's start): the phase is cut as phase.go cuts one, with the
// phase system the start step alone and no link (no variable counts
// the step). A property "AG (#I = 0 -> p)" becomes AG p after it
// (constantPart: #I is 0 throughout the rest system), which is the
// question the prover decides well (Cubicle's germanish4 so written
// was not decided in 20 s, and is proved in 0.6 s so; docs/prove.md, A
// start step). The rest system is asked through
// checkPhased again, so that a threshold automaton written so (Start
// -> I, then ByMC's steps out of I) has its second phase cut too.
//
// The answers carry to the system as written as phase.go's do, with the
// phase's part of the joined invariant the initial configurations
// themselves (carryProof): the invariant re-checked is
//
//	In > 0 & Init  |  In = 0 & (Fixed | RestInv & Stay)
//
// and a run of the rest system is carried with the start step before
// it (carryRun). A proof that does not join, and a run that does not
// replay, are asked of the system as written (checkPhased): no answer
// of the derived systems is printed as one of sys unchecked.

// cutStart finds a start step of sys (see above): the phase it cuts
// (oneStep), ok false when some condition fails.
func cutStart(sys *gsst.System) (*initialPhase, bool, error) {
	if len(sys.Environment) == 0 || len(sys.Groups) == 0 {
		return nil, false, nil
	}
	first, ok := oneInitState(sys)
	if !ok {
		return nil, false, nil
	}
	live := liveStates(sys)
	entersFirst := func(xs []gsst.Transfer) bool { return refills(xs, live, first) }
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		if stutters(t) || !live[t.From] {
			continue
		}
		// A process step out of I could fire before the start step;
		// any other waits for a process that only the start step
		// puts outside I.
		if t.From == first || t.To == first || entersFirst(t.Broadcast) {
			return nil, false, nil
		}
	}
	for i := range sys.Rendezvous {
		rv := &sys.Rendezvous[i]
		for _, p := range rv.Parts {
			if p.From == first || p.To == first {
				return nil, false, nil
			}
		}
		if entersFirst(rv.Broadcast) {
			return nil, false, nil
		}
	}
	step := -1
	targets := make([][]int, len(sys.Groups))
	for e := range sys.Environment {
		env := &sys.Environment[e]
		if emptiesFirst(sys, env.Guard, first) {
			// Disabled while a process is in I, and after the start
			// step I stays empty: its transfers out of I move nobody.
			if entersFirst(env.Broadcast) {
				return nil, false, nil
			}
			continue
		}
		// Not waiting for #I = 0: it must be the start step, the only
		// one, enabled in the initial configuration and writing
		// nothing, so that it changes nothing once I is empty.
		if step >= 0 || liveGuard(sys, live, env.Guard) != presburger.True || len(env.Update.Assign) > 0 {
			return nil, false, nil
		}
		step = e
		for _, b := range env.Broadcast {
			if b.From != first {
				if live[b.From] {
					return nil, false, nil // it would move someone after I is empty
				}
				continue
			}
			if b.To == first {
				return nil, false, nil
			}
			for g := range sys.Groups {
				if b.Groups != nil && !slices.Contains(b.Groups, g) {
					continue
				}
				if targets[g] != nil {
					return nil, false, nil
				}
				targets[g] = []int{b.To}
			}
		}
	}
	if step < 0 {
		return nil, false, nil
	}
	for g := range sys.Groups {
		if targets[g] == nil {
			// Its processes stay in I; the other steps wait for them.
			return nil, false, nil
		}
	}
	ph := oneStepPhase(sys, first)
	ph.startName, ph.targets = sys.EnvironmentName(step), targets
	for _, st := range append([]int{first}, slices.Concat(targets...)...) {
		ph.touched[sys.TotalVar(st)] = true
		for g := range sys.Groups {
			ph.touched[sys.GroupVar(st, g)] = true
		}
	}
	ph.start[sys.TotalVar(first)] = presburger.Term{}
	for g := range sys.Groups {
		ph.start[sys.GroupVar(first, g)] = presburger.Term{}
	}

	// Fairness restricts paths, not the configurations a run reaches:
	// the derived systems, asked safety only, have none (phase.go).
	phase := sys.Spec()
	phase.Properties, phase.Fairness = nil, gsst.Fairness{}
	phase.Transitions, phase.Rendezvous = nil, nil
	phase.Environment = []gsst.Environment{sys.Environment[step]}
	var err error
	if ph.phase, err = gsst.New(phase); err != nil {
		return nil, false, err
	}
	rest := sys.Spec()
	rest.Properties, rest.Fairness = nil, gsst.Fairness{}
	rest.Environment = slices.Delete(rest.Environment, step, step+1)
	for g := range rest.Groups {
		rest.Init[g][targets[g][0]] = rest.Init[g][first]
		rest.Init[g][first] = 0
	}
	if ph.rest, err = gsst.New(rest); err != nil {
		return nil, false, err
	}
	return ph, true, nil
}

// oneStepPhase returns the initialPhase of a phase of one step out of
// first (-1: one a variable keeps), its kind's fields, its systems and
// the variables a premise must not read left to set.
func oneStepPhase(sys *gsst.System, first int) *initialPhase {
	return &initialPhase{touched: map[presburger.Var]bool{}, start: map[presburger.Var]presburger.Term{}, first: first, targets: make([][]int, len(sys.Groups)), adds: map[int]map[int]int64{}, incr: map[int]bool{}, link: presburger.True, oneStep: true}
}

// A start move: the start step as one process's move. One process
// starts alone in a state I (seeds.go's oneStarts), nothing enters I,
// and the one step out of I is a transition of it, unguarded, moving
// nobody else, whose update sets shared variables that start at one
// value to constants or adds constants to them; every other step needs
// a process elsewhere (the system has that one process) or waits for
// "#I = 0". So in the initial configuration only that step can fire,
// and it fires once: every run is the initial configuration, the step,
// and a run of the rest system, the system whose process starts in the
// step's target and whose written variables start at the values the
// step gives them (a controller that moves from Boot1 to Boot2 before
// it seeds, or puts the fixed initial tokens in place in one step).
// The cut and the carrying are the start step's, with the run carried
// from the run's start with the process back in I and the written
// variables at their initial values (derived.go).

// cutStartMove finds a start move of sys (see above).
func cutStartMove(sys *gsst.System) (*initialPhase, bool, error) {
	if len(sys.Groups) == 0 {
		return nil, false, nil
	}
	live := liveStates(sys)
	step := -1
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		if stutters(t) || !live[t.From] || !oneStarts(sys, t.From) {
			continue
		}
		if step >= 0 && sys.Transitions[step].From == t.From || t.To == t.From {
			return nil, false, nil
		}
		if step < 0 {
			step = i
		}
	}
	if step < 0 {
		return nil, false, nil
	}
	t := &sys.Transitions[step]
	first := t.From
	if movesOthers(t, live) {
		return nil, false, nil
	}
	writes := map[int]int{} // the values the move gives the variables it writes
	var ranges map[int]presburger.Bound
	for k, b := range t.Blocks {
		got, ok := startValues(sys, b.Update)
		if !ok || k > 0 && !maps.Equal(got, writes) {
			return nil, false, nil
		}
		writes = got
		in, ok := startRanges(sys, live, &b, first, writes)
		if !ok || k > 0 && !maps.Equal(in, ranges) {
			return nil, false, nil
		}
		ranges = in
	}
	alone := oneProcess(sys)
	entersFirst := func(xs []gsst.Transfer) bool { return refills(xs, live, first) }
	for i := range sys.Transitions {
		u := &sys.Transitions[i]
		if i == step || stutters(u) || !live[u.From] {
			continue
		}
		if u.To == first || entersFirst(u.Broadcast) {
			return nil, false, nil
		}
		if !alone {
			for _, b := range u.Blocks {
				if !emptiesFirst(sys, b.Guard, first) {
					return nil, false, nil
				}
			}
		}
	}
	for i := range sys.Rendezvous {
		rv := &sys.Rendezvous[i]
		if !alone && !emptiesFirst(sys, rv.Guard, first) || entersFirst(rv.Broadcast) {
			return nil, false, nil
		}
		for _, p := range rv.Parts {
			if p.From == first || p.To == first {
				return nil, false, nil
			}
		}
	}
	for e := range sys.Environment {
		env := &sys.Environment[e]
		if !emptiesFirst(sys, env.Guard, first) || entersFirst(env.Broadcast) {
			return nil, false, nil
		}
	}

	ph := oneStepPhase(sys, first)
	ph.startName, ph.startMove, ph.startWrites = sys.TransitionName(t), true, writes
	for _, st := range []int{first, t.To} {
		ph.touched[sys.TotalVar(st)] = true
		for g := range sys.Groups {
			ph.touched[sys.GroupVar(st, g)] = true
		}
	}
	for j := range writes {
		ph.touched[sys.SharedVar(j)] = true
	}
	ph.start[sys.TotalVar(first)] = presburger.Term{}
	for g := range sys.Groups {
		ph.start[sys.GroupVar(first, g)] = presburger.Term{}
		if sys.Init[g][first] > 0 {
			ph.targets[g] = []int{t.To}
		}
	}
	phase := sys.Spec()
	phase.Properties, phase.Fairness = nil, gsst.Fairness{}
	phase.Transitions, phase.Rendezvous, phase.Environment = []gsst.Transition{*t}, nil, nil
	var err error
	if ph.phase, err = gsst.New(phase); err != nil {
		return nil, false, err
	}
	rest := sys.Spec()
	rest.Properties, rest.Fairness = nil, gsst.Fairness{}
	rest.Transitions = slices.Delete(slices.Clone(rest.Transitions), step, step+1)
	rest.Init = slices.Clone(rest.Init)
	for g := range rest.Init {
		if rest.Init[g][first] > 0 {
			rest.Init[g] = slices.Clone(rest.Init[g])
			rest.Init[g][first]--
			rest.Init[g][t.To]++
		}
	}
	startAt(rest, writes, ranges)
	for j := range ranges {
		ph.touched[sys.SharedVar(j)] = true
	}
	if ph.rest, err = gsst.New(rest); err != nil {
		return nil, false, err
	}
	return ph, true, nil
}

// startAt starts rest's shared variables where a start move leaves
// them: each of writes at its value, each of ranges in its interval
// (the values the move's guard leaves: the move fires only there, and
// elsewhere the phase's configurations, In > 0 & Init, are all there
// is).
func startAt(rest *gsst.Spec, writes map[int]int, ranges map[int]presburger.Bound) {
	rest.Shared = slices.Clone(rest.Shared)
	for j, k := range writes {
		setInitial(&rest.Shared[j], int64(k), int64(k), false)
	}
	for j, in := range ranges {
		setInitial(&rest.Shared[j], in.Lo, in.Hi, in.NoHi)
	}
}

// setInitial makes v start anywhere from lo to hi (from lo up, with
// noHi), constants.
func setInitial(v *gsst.Shared, lo, hi int64, noHi bool) {
	v.Init, v.InitTerm, v.InitText, v.InitHiTerm = int(lo), presburger.ConstTerm(lo), "", presburger.Term{}
	v.InitRange, v.InitNoHi, v.InitHi = noHi || hi > lo, noHi, int(hi)
	if noHi {
		v.InitHi = v.Init
	}
}

// startValues reads a start move's update: each assignment sets an
// integer shared variable that starts at one value (not over the
// parameters) to a constant, or adds one to it, within its domain (a
// value outside would block the move, which then never fires); the
// values it gives them, by index.
func startValues(sys *gsst.System, u gsst.Update) (map[int]int, bool) {
	out := map[int]int{}
	for _, a := range u.Assign {
		j, ok := sys.SharedOf(a.Var)
		if !ok {
			return nil, false
		}
		v := &sys.Shared[j]
		if v.InitSeveral() || !v.InitTerm.IsConst() {
			return nil, false
		}
		var k int64
		switch ms := a.Value.Monos; {
		case len(ms) == 0:
			k = a.Value.Const
		case len(ms) == 1 && ms[0].Var == a.Var && ms[0].Coef == 1:
			k = int64(v.Init) + a.Value.Const
		default:
			return nil, false
		}
		if k < int64(v.Lo) || !v.Unbounded && k > int64(v.Hi) {
			return nil, false
		}
		out[j] = int(k)
	}
	return out, true
}

// startText says what ph's start step does, for the reasons printed.
func (ph *initialPhase) startText(sys *gsst.System) string {
	if ph.mode != nil {
		v := &sys.Shared[ph.mode.shared]
		return "the one step that can fire while " + v.Name + " = " + v.ValueName(ph.mode.value) + ", which changes it"
	}
	if ph.startMove {
		return "the one move out of " + sys.States[ph.first] + " of the one process there"
	}
	return "which moves every process out of " + sys.States[ph.first] + " at once"
}

// startRanges reads the guard of b, a block of a start move out of
// first (-1: a move kept by a variable) that writes the variables of
// writes, beyond "the mover is there", as a conjunction of atoms each on one integer shared
// variable the move does not write, whose initial values are constants:
// the values of each such variable where the guard holds, within its
// initial ones (none empty); ok false when the guard is of another form.
func startRanges(sys *gsst.System, live []bool, b *gsst.Block, first int, writes map[int]int) (map[int]presburger.Bound, bool) {
	out := map[int]presburger.Bound{}
	for _, c := range presburger.Conjuncts(liveGuard(sys, live, b.Guard)) {
		if c == presburger.True || first >= 0 && moverImplied(sys, b.Groups, c, first) {
			continue
		}
		a, ok := c.(presburger.Cmp)
		if !ok || len(a.T.Monos) != 1 {
			return nil, false
		}
		x := a.T.Monos[0].Var
		j, ok := sys.SharedOf(x)
		if !ok {
			return nil, false
		}
		v := &sys.Shared[j]
		if _, written := writes[j]; written || v.Bool || v.Values != nil || !v.InitLow().IsConst() {
			return nil, false
		}
		in, seen := out[j]
		if !seen {
			hi, bounded := v.InitHigh()
			if bounded && !hi.IsConst() {
				return nil, false
			}
			in = presburger.Bound{Var: x, Lo: int64(v.Init), Hi: hi.Const, NoHi: !bounded}
		}
		in, ok = presburger.AtomRange(a, in)
		if !ok || !in.NoHi && in.Hi < in.Lo || in.NoLo {
			return nil, false
		}
		out[j] = in
	}
	return out, true
}

// A start move may also be kept by a shared variable v at its initial
// value b instead of a state (seeds.go's mode: a flag "started" a
// translation writes, or a controller read as a variable): one step,
// an environment step or a self-loop of a process that stays in its
// state until a step moves it (seeds.go's stays), has a guard with the
// conjunct v = b and otherwise atoms on single variables (startRanges),
// writes v a constant other than b and other variables as a start move
// does; every other step is false at the initial configurations (read
// with v = b and the shared variables of one initial value at it), and
// none writes v anything but a constant other than b. While v = b only
// that step can fire, once (the configuration stays initial until it
// does, and v never returns to b); the rest system starts with v at its
// value, the guarded variables where the guard holds, the written ones
// at their values. mist's kanban written with a flag "seeded" set by
// the step that puts the fixed tokens in place, and the net's rules
// waiting for a flag "live" that the seeds' end sets, reads false only
// so.

// cutModeMove finds a start move kept by a shared variable (see above).
func cutModeMove(sys *gsst.System) (*initialPhase, bool, error) {
	if len(sys.Groups) == 0 {
		return nil, false, nil
	}
	live := liveStates(sys)
	type found struct {
		trans, env int // the step: an index into one, -1 in the other
		v, b       int
		writes     map[int]int
		ranges     map[int]presburger.Bound
	}
	var move *found
	// read reads a step as the move: ok false when it is none.
	read := func(guard presburger.Formula, u gsst.Update) (f found, ok bool) {
		v, b, at, ok := pinned(sys, guard)
		if !ok {
			return f, false
		}
		x := sys.SharedVar(v)
		rest := u
		rest.Assign = nil
		setsV := false
		for _, a := range u.Assign {
			if a.Var != x {
				rest.Assign = append(rest.Assign, a)
				continue
			}
			if !a.Value.IsConst() || a.Value.Const == int64(b) {
				return f, false
			}
			setsV = true
		}
		if !setsV {
			return f, false
		}
		writes, ok := startValues(sys, rest)
		if !ok {
			return f, false
		}
		ranges, ok := startRanges(sys, live, &gsst.Block{Guard: at}, -1, writes)
		if !ok {
			return f, false
		}
		for _, a := range u.Assign {
			if a.Var == x {
				writes[v] = int(a.Value.Const)
			}
		}
		return found{v: v, b: b, writes: writes, ranges: ranges}, true
	}
	for e := range sys.Environment {
		env := &sys.Environment[e]
		if len(env.Broadcast) > 0 {
			continue
		}
		if f, ok := read(env.Guard, env.Update); ok {
			if move != nil {
				return nil, false, nil
			}
			f.trans, f.env = -1, e
			move = &f
		}
	}
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		if t.From != t.To || len(t.Broadcast) > 0 || len(t.Blocks) != 1 || stutters(t) || !live[t.From] || !stays(sys, t, t.From) {
			continue
		}
		if f, ok := read(t.Blocks[0].Guard, t.Blocks[0].Update); ok {
			if move != nil {
				return nil, false, nil
			}
			f.trans, f.env = i, -1
			move = &f
		}
	}
	if move == nil {
		return nil, false, nil
	}
	x := sys.SharedVar(move.v)
	// Every other step: false at the initial configurations, read with
	// v = b and every other shared variable of one initial value at it
	// (a flag "live" that the steps after the seeding wait for), and v
	// written only constants other than b.
	initial := initialValues(sys, map[presburger.Var]int64{x: int64(move.b)}, func(j int) bool { return j != move.v })
	other := func(guard presburger.Formula, u gsst.Update) bool {
		if at, exact := atValues(guard, initial); !exact || at != presburger.False {
			return false
		}
		for _, a := range u.Assign {
			if a.Var == x && (!a.Value.IsConst() || a.Value.Const == int64(move.b)) {
				return false
			}
		}
		return true
	}
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		if i == move.trans || stutters(t) || !live[t.From] {
			continue
		}
		for _, b := range t.Blocks {
			if !other(b.Guard, b.Update) {
				return nil, false, nil
			}
		}
	}
	for i := range sys.Rendezvous {
		if rv := &sys.Rendezvous[i]; !other(rv.Guard, rv.Update) {
			return nil, false, nil
		}
	}
	for e := range sys.Environment {
		if env := &sys.Environment[e]; e != move.env && !other(env.Guard, env.Update) {
			return nil, false, nil
		}
	}

	name := ""
	if move.env >= 0 {
		name = sys.EnvironmentName(move.env)
	} else {
		name = sys.TransitionName(&sys.Transitions[move.trans])
	}
	ph := oneStepPhase(sys, -1)
	ph.startName, ph.startMove, ph.startWrites, ph.mode = name, true, move.writes, &seedMode{move.v, move.b}
	for j := range move.writes {
		ph.touched[sys.SharedVar(j)] = true
	}
	for j := range move.ranges {
		ph.touched[sys.SharedVar(j)] = true
	}
	phase := sys.Spec()
	phase.Properties, phase.Fairness = nil, gsst.Fairness{}
	phase.Rendezvous, phase.Transitions, phase.Environment = nil, nil, nil
	rest := sys.Spec()
	rest.Properties, rest.Fairness = nil, gsst.Fairness{}
	if move.env >= 0 {
		phase.Environment = []gsst.Environment{sys.Environment[move.env]}
		rest.Environment = slices.Delete(slices.Clone(rest.Environment), move.env, move.env+1)
	} else {
		phase.Transitions = []gsst.Transition{sys.Transitions[move.trans]}
		rest.Transitions = slices.Delete(slices.Clone(rest.Transitions), move.trans, move.trans+1)
	}
	var err error
	if ph.phase, err = gsst.New(phase); err != nil {
		return nil, false, err
	}
	startAt(rest, move.writes, move.ranges)
	if ph.rest, err = gsst.New(rest); err != nil {
		return nil, false, err
	}
	return ph, true, nil
}

// constantShared returns the shared variables of sys that start at one
// constant value and that no step writes, with that value, by index.
func constantShared(sys *gsst.System) map[int]int {
	written := writtenShared(sys)
	out := map[int]int{}
	for j := range sys.Shared {
		v := &sys.Shared[j]
		if written[j] == 0 && !v.InitSeveral() && v.InitTerm.IsConst() {
			out[j] = v.Init
		}
	}
	return out
}
