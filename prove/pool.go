package prove

import (
	"context"
	"maps"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// A pool phase: a net written as token processes dealt by a controller.
// One process, of a group of its own of size 1, starts in a state B
// (Boot) that nothing enters; every other group starts in one state, its
// pool P (the unused tokens). While that process is in B, the only steps
// that can fire are the seeds, moves of one process from its group's
// pool to a target (a net's initially marked place), guarded by B being
// occupied ("#Boot = 1") and at most by a cap on the target's own
// counter ("#x2 < 1"), and the exit, the one step out of B, which moves
// the controller to a state L (Live) under a guard G over the counters
// ("#x2 >= 1 & #x6 >= 1"), writing at most constants into shared
// variables (a flag "live", as a start move writes them). Every other step is
// disabled in the phase's configurations, where the controller is in B,
// every process of the other groups in its pool or a target, the shared
// variables at their initial values: its guard, read there, is false
// ("#Live = 1"). Nothing enters B, so the seeds never fire after the
// exit. The phase's configurations are then every spread of each
// group's processes over its pool and its targets within the caps, and
// the runs are the phase and then a run of the rest system: the system
// without the seeds and the exit, the controller starting in L (the
// variables the exit writes at their values), each
// other group spread over its pool and its targets, from the
// configurations where the link holds (G and the caps).
//
// A shared variable v may keep the phase instead (a flag "open", or the
// controller as the system of the same runs reads it, a variable whose
// value is its state): it starts at b, one environment step alone
// writes it, the exit, whose guard holds at v = b alone and which sets
// v to a constant c != b (and maybe others, as above), and the seeds'
// guards hold at v = b alone. Every group starts in its pool; the rest
// system starts with v = c.
//
// The cut and the carrying are phase.go's: AG phi is asked of the phase
// system (the seeds only) and, under the link, of the rest system; two
// proofs are joined into one invariant of the system's group-counter
// model, re-checked there (derived.go: in the phase, the controller in
// B and every counter outside the pools and targets 0), and a run of
// the rest system is carried with the seeds and the exit before it, and
// replayed. kanban written so, the pool read by the backward search
// beside the net's places, was unknown after 60 s of CPU: the search
// keeps an element per way of dealing the initial tokens (BENCHMARKS.md).

// poolPhase is what cutPool found besides the initialPhase's targets.
type poolPhase struct {
	// ctl is the controller's group, boot and live B and L; -1 when a
	// shared variable keeps the phase (mode: it is at its value there),
	// which the exit sets to after.
	ctl, boot, live int
	mode            *seedMode
	after           int
	pools           []int // each group's pool (-1 for the controller's)
	// caps are the seeds' caps, "#x <= c", which hold throughout the
	// phase (the link states them too).
	caps []presburger.Formula
	// exit is the exit's index in sys.Transitions, or in
	// sys.Environment when a variable keeps the phase; writes are the
	// values it gives shared variables (by index; the variable that
	// keeps the phase among them, at after).
	exit   int
	writes map[int]int
}

// cutPool finds a pool phase of sys (see above); ok is false when some
// condition fails.
func cutPool(sys *gsst.System) (*initialPhase, bool, error) {
	if len(sys.Groups) == 0 {
		return nil, false, nil
	}
	live := liveStates(sys)
	for _, pp := range poolKeepers(sys) {
		if ph, ok, err := cutPoolAs(sys, live, pp); ok || err != nil {
			return ph, ok, err
		}
	}
	return nil, false, nil
}

// cutPoolAs is cutPool with the phase kept as pp says.
func cutPoolAs(sys *gsst.System, live []bool, pp *poolPhase) (*initialPhase, bool, error) {
	// The exit's guard, and what marks a seed's guard as the phase's:
	// an atom on B's counter that holds at 1 and fails at 0, or on the
	// variable that holds at its value alone.
	var exitGuard presburger.Formula
	var keeps func(a presburger.Cmp) bool
	if pp.mode == nil {
		for _, b := range sys.Transitions[pp.exit].Blocks {
			if slices.Contains(b.Groups, pp.ctl) {
				writes, ok := startValues(sys, b.Update)
				if !ok {
					return nil, false, nil
				}
				pp.writes = writes
				exitGuard = liveGuard(sys, live, b.Guard)
			}
		}
		bootVars := map[presburger.Var]bool{sys.TotalVar(pp.boot): true, sys.GroupVar(pp.boot, pp.ctl): true}
		keeps = func(a presburger.Cmp) bool {
			v := a.T.Monos[0].Var
			in, ok := presburger.AtomRange(a, presburger.Bound{Var: v, Lo: 0, Hi: 1})
			return bootVars[v] && ok && in.Lo == 1 && in.Hi == 1
		}
	} else {
		exitGuard = liveGuard(sys, live, sys.Environment[pp.exit].Guard)
		x := sys.SharedVar(pp.mode.shared)
		bounds := sys.Shared[pp.mode.shared].Bounds(x)
		keeps = func(a presburger.Cmp) bool {
			in, ok := presburger.AtomRange(a, bounds)
			return a.T.Monos[0].Var == x && ok && in.Finite() && in.Lo == int64(pp.mode.value) && in.Hi == in.Lo
		}
	}
	if exitGuard == nil {
		return nil, false, nil
	}
	// The shared variables are at their initial values throughout the
	// phase: the link reads the guard with them so, since it is read
	// after the exit, which may write them ("!live", the exit setting
	// live).
	exitGuard, exact := atValues(exitGuard, initialValues(sys, map[presburger.Var]int64{}, func(int) bool { return true }))
	if !exact {
		return nil, false, nil
	}
	// The seeds, each block of a transition out of a group's pool
	// guarded by the phase and at most a cap on its target.
	var seeds []poolSeed
	var seedSteps []int
	targets := make([][]int, len(sys.Groups))
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		if pp.mode == nil && i == pp.exit || stutters(t) || !live[t.From] || len(t.Broadcast) > 0 {
			continue
		}
		var found []poolSeed
		for _, b := range t.Blocks {
			s, ok := readSeed(sys, live, b, t, pp, keeps)
			if !ok {
				found = nil
				break
			}
			found = append(found, s)
		}
		if len(found) == 0 {
			continue
		}
		if pp.mode == nil && (t.To == pp.boot || t.To == pp.live) {
			return nil, false, nil
		}
		seeds = append(seeds, found...)
		seedSteps = append(seedSteps, i)
		for _, b := range t.Blocks {
			for _, g := range b.Groups {
				if g != pp.ctl && !slices.Contains(targets[g], t.To) {
					targets[g] = append(targets[g], t.To)
				}
			}
		}
	}
	if len(seedSteps) == 0 {
		return nil, false, nil
	}
	// A cap holds of every seed that raises its counter: the count
	// stops there, and the link says so.
	caps := map[presburger.Var]int64{}
	for _, s := range seeds {
		for v, c := range s.caps {
			caps[v] = c
		}
	}
	for _, s := range seeds {
		for _, v := range s.raises {
			if c, capped := caps[v]; capped && s.caps[v] != c {
				return nil, false, nil
			}
		}
	}
	// Every other step: disabled in the phase's configurations.
	inPhase := func(st, g int) bool {
		if g == pp.ctl {
			return st == pp.boot
		}
		return st == pp.pools[g] || slices.Contains(targets[g], st)
	}
	at := initialValues(sys, map[presburger.Var]int64{}, func(int) bool { return true })
	for st := range sys.States {
		some := false
		for g := range sys.Groups {
			if inPhase(st, g) {
				some = true
			} else {
				at[sys.GroupVar(st, g)] = 0
			}
		}
		if !some {
			at[sys.TotalVar(st)] = 0
		}
	}
	if pp.mode == nil {
		at[sys.TotalVar(pp.boot)], at[sys.GroupVar(pp.boot, pp.ctl)] = 1, 1
	}
	disabled := func(guard presburger.Formula) bool {
		f, exact := atValues(guard, at)
		return exact && f == presburger.False
	}
	isExit := func(i int, env bool) bool { return (pp.mode != nil) == env && i == pp.exit }
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		if isExit(i, false) || slices.Contains(seedSteps, i) || stutters(t) || !live[t.From] {
			continue
		}
		for _, b := range t.Blocks {
			if !disabled(b.Guard) {
				return nil, false, nil
			}
		}
	}
	for i := range sys.Rendezvous {
		if !disabled(sys.Rendezvous[i].Guard) {
			return nil, false, nil
		}
	}
	for e := range sys.Environment {
		if !isExit(e, true) && !disabled(sys.Environment[e].Guard) {
			return nil, false, nil
		}
	}

	ph := &initialPhase{touched: map[presburger.Var]bool{}, start: map[presburger.Var]presburger.Term{}, first: pp.boot, targets: targets, adds: map[int]map[int]int64{}, incr: map[int]bool{}, pool: pp}
	for _, v := range slices.Sorted(maps.Keys(caps)) {
		pp.caps = append(pp.caps, presburger.Compare(presburger.VarTerm(v), presburger.Le, presburger.ConstTerm(caps[v])))
	}
	ph.link = presburger.Conj(append([]presburger.Formula{exitGuard}, pp.caps...)...)
	touch := func(st int) {
		ph.touched[sys.TotalVar(st)] = true
		for g := range sys.Groups {
			ph.touched[sys.GroupVar(st, g)] = true
		}
	}
	if pp.mode == nil {
		touch(pp.boot)
		touch(pp.live)
		ph.start[sys.TotalVar(pp.boot)] = presburger.Term{}
		for g := range sys.Groups {
			ph.start[sys.GroupVar(pp.boot, g)] = presburger.Term{}
		}
	} else {
		ph.start[sys.SharedVar(pp.mode.shared)] = presburger.ConstTerm(int64(pp.after))
	}
	for j := range pp.writes {
		// A premise read at the start of the phase would be read after
		// the exit at other values.
		ph.touched[sys.SharedVar(j)] = true
	}
	for g := range sys.Groups {
		if g != pp.ctl {
			touch(pp.pools[g])
		}
		for _, t := range targets[g] {
			touch(t)
		}
	}

	phase := sys.Spec()
	phase.Properties, phase.Fairness = nil, gsst.Fairness{}
	phase.Rendezvous, phase.Environment = nil, nil
	phase.Transitions = filter(phase.Transitions, func(i int) bool { return slices.Contains(seedSteps, i) })
	var err error
	if ph.phase, err = gsst.New(phase); err != nil {
		return nil, false, err
	}
	rest := sys.Spec()
	rest.Properties, rest.Fairness = nil, gsst.Fairness{}
	rest.Transitions = filter(rest.Transitions, func(i int) bool {
		return !isExit(i, false) && !slices.Contains(seedSteps, i) && !stutters(&sys.Transitions[i])
	})
	rest.Environment = filter(rest.Environment, func(e int) bool { return !isExit(e, true) })
	if pp.mode == nil {
		rest.Init[pp.ctl][pp.boot], rest.Init[pp.ctl][pp.live] = 0, 1
	}
	startAt(rest, pp.writes, nil)
	for g := range rest.Groups {
		if g == pp.ctl {
			continue
		}
		over := append([]int{pp.pools[g]}, targets[g]...)
		slices.Sort(over)
		k := rest.Init[g][pp.pools[g]]
		rest.Init[g][pp.pools[g]] = 0
		rest.Init[g][over[0]] = k
		if len(over) > 1 {
			if rest.InitOver == nil {
				rest.InitOver = make([][]int, len(rest.Groups))
			}
			rest.InitOver[g] = over
		}
	}
	if ph.rest, err = gsst.New(rest); err != nil {
		return nil, false, err
	}
	return ph, true, nil
}

// poolKeepers returns what may keep a pool phase of sys, with each
// group's pool: a controller, the one process of a group of size 1,
// that starts in a state B nothing enters, with one step out of B (the
// exit), every other group starting in one state; or, failing that,
// each shared variable written by one environment step alone (the
// exit), which a conjunct of its guard pins at the variable's initial
// value and which sets it to another constant, every group starting in
// one state (a controller read as a variable, and a flag it sets, are
// two such: the seeds say which keeps the phase).
func poolKeepers(sys *gsst.System) []*poolPhase {
	pp := &poolPhase{ctl: -1, boot: -1, live: -1, exit: -1, pools: make([]int, len(sys.Groups))}
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		pp.pools[g] = -1
		if sys.InitOver != nil && len(sys.InitOver[g]) > 0 {
			return nil
		}
		at := -1
		for st, k := range sys.Init[g] {
			if k > 0 {
				if at >= 0 {
					return nil
				}
				at = st
			}
		}
		if at < 0 {
			return nil
		}
		if pp.ctl < 0 && grp.Size == 1 && !grp.Ranged && !grp.OverParams() && oneStarts(sys, at) && !enters(sys, at) && len(sys.Groups) > 1 {
			pp.ctl, pp.boot = g, at
			continue
		}
		pp.pools[g] = at
	}
	if pp.ctl >= 0 {
		for i := range sys.Transitions {
			t := &sys.Transitions[i]
			if t.From != pp.boot || stutters(t) {
				continue
			}
			if pp.exit >= 0 || len(t.Broadcast) > 0 || t.To == pp.boot {
				return nil
			}
			pp.exit = i
		}
		if pp.exit < 0 || slices.Contains(pp.pools, pp.boot) {
			return nil
		}
		pp.live = sys.Transitions[pp.exit].To
		return []*poolPhase{pp}
	}
	written := writtenShared(sys)
	var out []*poolPhase
	for e := range sys.Environment {
		env := &sys.Environment[e]
		if len(env.Broadcast) > 0 {
			continue
		}
		// It sets v to a constant other than b, and may set others as
		// a start move does.
		writes, ok := startValues(sys, env.Update)
		if !ok {
			continue
		}
		for _, c := range presburger.Conjuncts(env.Guard) {
			a, isCmp := c.(presburger.Cmp)
			if !isCmp || len(a.T.Monos) != 1 {
				continue
			}
			v, isShared := sys.SharedOf(a.T.Monos[0].Var)
			if !isShared || written[v] != 1 {
				continue
			}
			sv := &sys.Shared[v]
			in, ok := presburger.AtomRange(a, sv.Bounds(a.T.Monos[0].Var))
			after, sets := writes[v]
			if !ok || !in.Finite() || in.Lo != in.Hi || in.Lo != int64(sv.Init) || !sets || after == sv.Init ||
				!slices.ContainsFunc(env.Update.Assign, func(a gsst.Assign) bool { return a.Var == sys.SharedVar(v) && a.Value.IsConst() }) {
				continue
			}
			keeper := *pp
			keeper.mode, keeper.after, keeper.exit, keeper.writes = &seedMode{shared: v, value: sv.Init}, after, e, writes
			out = append(out, &keeper)
		}
	}
	return out
}

// poolSeed is a seed block read by readSeed: the counters it raises,
// and the caps its guard puts on them.
type poolSeed struct {
	raises []presburger.Var
	caps   map[presburger.Var]int64
}

// readSeed reads block b of transition t as a seed of the pool phase
// pp: its groups all start in t's source, their pool (but the
// controller's, which is in B throughout the phase); its guard, with
// the counters of states no process enters at 0 (liveGuard), is a
// conjunction of an atom on B's counter that holds at 1 and fails at 0
// and at most one cap "#x < c" (or "<=") on a counter of t's target that
// holds at 0; it writes nothing.
func readSeed(sys *gsst.System, live []bool, b gsst.Block, t *gsst.Transition, pp *poolPhase, keeps func(presburger.Cmp) bool) (s poolSeed, ok bool) {
	if len(b.Update.Assign) > 0 || len(b.Groups) == 0 {
		return s, false
	}
	s.raises = []presburger.Var{sys.TotalVar(t.To)}
	for _, g := range b.Groups {
		if g == pp.ctl {
			// In B throughout the phase, never in a pool: the seed
			// never moves it.
			continue
		}
		if pp.pools[g] != t.From {
			return s, false
		}
		s.raises = append(s.raises, sys.GroupVar(t.To, g))
	}
	s.caps = map[presburger.Var]int64{}
	inB := false
	for _, c := range presburger.Conjuncts(liveGuard(sys, live, b.Guard)) {
		if c == presburger.True {
			continue
		}
		a, isCmp := c.(presburger.Cmp)
		if !isCmp || len(a.T.Monos) != 1 {
			return s, false
		}
		v := a.T.Monos[0].Var
		switch {
		case keeps(a):
			inB = true
		case slices.Contains(s.raises, v) && len(s.caps) == 0:
			in, ok := presburger.AtomRange(a, presburger.AtLeast(v, 0))
			if !ok || in.Lo != 0 || in.NoHi {
				return s, false
			}
			s.caps[v] = in.Hi + 1
		default:
			return s, false
		}
	}
	return s, inB
}

// enters reports whether some step of sys may move a process into state
// st: a transition, a broadcast's transfer, a rendezvous part.
func enters(sys *gsst.System, st int) bool {
	into := func(from, to int) bool { return to == st && from != st }
	transfers := func(xs []gsst.Transfer) bool {
		return slices.ContainsFunc(xs, func(x gsst.Transfer) bool { return into(x.From, x.To) })
	}
	for i := range sys.Transitions {
		if t := &sys.Transitions[i]; into(t.From, t.To) || transfers(t.Broadcast) {
			return true
		}
	}
	for i := range sys.Rendezvous {
		rv := &sys.Rendezvous[i]
		if transfers(rv.Broadcast) || slices.ContainsFunc(rv.Parts, func(p gsst.Part) bool { return into(p.From, p.To) }) {
			return true
		}
	}
	for e := range sys.Environment {
		if transfers(sys.Environment[e].Broadcast) {
			return true
		}
	}
	return false
}

// poolRun returns the configurations of inst from its initial one to
// end, the start of a run of the rest system of a pool phase: each
// process that end has in a target moved there from its group's pool,
// one at a time, then the exit. ok is false when end is no such
// configuration (replayStates checks the steps themselves).
func (ph *initialPhase) poolRun(inst *gsst.System, end gsst.Config) (run []gsst.Config, ok bool) {
	pp := ph.pool
	cur := inst.InitConfig()
	run = append(run, cur.Clone())
	for g := range cur.Counts {
		if g == pp.ctl {
			continue
		}
		for _, t := range ph.targets[g] {
			for range end.Counts[g][t] {
				if cur.Counts[g][pp.pools[g]] == 0 || len(run) > maxSeedSteps {
					return nil, false
				}
				cur.Counts[g][pp.pools[g]]--
				cur.Counts[g][t]++
				run = append(run, cur.Clone())
			}
		}
	}
	for j, k := range pp.writes {
		cur.Shared[j] = k
	}
	if pp.mode != nil {
		return append(run, cur), true
	}
	if cur.Counts[pp.ctl][pp.boot] != 1 {
		return nil, false
	}
	cur.Counts[pp.ctl][pp.boot]--
	cur.Counts[pp.ctl][pp.live]++
	return append(run, cur), true
}

// carryPoolProof is carryProof for a pool phase: the invariant
// re-checked on m is
//
//	InB > 0 & PhaseInv & Frozen  |  InB = 0 & (Fixed | RestInv)
//
// with InB the counter of B and Frozen what holds throughout the phase:
// every counter 0 but B's (the controller's) and those of each group's
// pool and targets, each shared variable at its initial value, the
// pools' sums, the premise. While the controller is in B only the seeds
// fire, which keep PhaseInv and Frozen; the exit ends in one of the rest
// system's initial configurations where the link (its guard, the caps)
// and the premise hold, so where RestInv holds unless Fixed does; nothing
// enters B after.
func (c *phaseCarrier) carryPoolProof(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, premise, phaseInv, fixedNow, restInv presburger.Formula, restRes *Result) (bool, error) {
	ph, pp := c.ph, c.ph.pool
	var inB presburger.Term
	_, caps := premisedSafetyOf(m, capsName)
	if caps == nil {
		return false, nil
	}
	frozen := []presburger.Formula{phaseInv, premise, caps}
	for i, ctr := range m.Counters {
		x := presburger.VarTerm(presburger.Var(i))
		if pp.mode == nil && ctr.State == pp.boot {
			inB = inB.Add(x)
		}
		in := ctr.State == pp.boot && ctr.Group == pp.ctl ||
			ctr.Group != pp.ctl && (ctr.State == pp.pools[ctr.Group] || slices.Contains(ph.targets[ctr.Group], ctr.State))
		if !in {
			frozen = append(frozen, presburger.Compare(x, presburger.Eq, presburger.Term{}))
		}
	}
	facts, ok := phaseFacts(m, func(int) bool { return false })
	if !ok {
		return false, nil
	}
	frozen = append(frozen, facts...)
	inPhase := presburger.Compare(inB, presburger.Ge, presburger.ConstTerm(1))
	afterPhase := presburger.Compare(inB, presburger.Eq, presburger.Term{})
	if pp.mode != nil {
		// The variable at its value in the phase; the exit sets it to
		// after, which no step changes again (the rest system's
		// constants, below, say so).
		var ok bool
		if inPhase, afterPhase, ok = modeTests(m, pp.mode); !ok {
			return false, nil
		}
	}
	during := presburger.Conj(append([]presburger.Formula{inPhase}, frozen...)...)
	after := presburger.Conj(afterPhase, presburger.Disj(fixedNow, restInv))
	// The variables the rest system never writes keep the values it
	// starts them at (the exit's, or their initial ones); its models
	// fold them to those constants, which its invariant need not say.
	for j, k := range constantShared(ph.rest) {
		if x, ok := modelShared(m, j); ok {
			after = presburger.Conj(after, presburger.Compare(presburger.VarTerm(x), presburger.Eq, presburger.ConstTerm(int64(k))))
		}
	}
	return recheck(ctx, c.solver, m, ts, conjOnce(paramPart(ts), presburger.Disj(during, after)), lemmasAfter(restRes.proof.m, m, restRes.Lemmas, afterPhase, fixedNow), restRes)
}

// capsName names the property of the model carryProof builds that
// carries a pool phase's caps (derived.go's linkName).
const capsName = " caps"

// poolText says what a pool phase is, for the reasons printed.
func (ph *initialPhase) poolText(sys *gsst.System) string {
	pp := ph.pool
	if pp.mode != nil {
		v := &sys.Shared[pp.mode.shared]
		return "the seeds out of the pools while " + v.Name + " = " + v.ValueName(pp.mode.value) + ", and " + sys.EnvironmentName(pp.exit) + ", which sets it to " + v.ValueName(pp.after)
	}
	return "the seeds out of the pools while " + sys.Groups[pp.ctl].Name + " is in " + sys.States[pp.boot] + ", and its exit to " + sys.States[pp.live]
}

// poolTest writes what holds in a pool phase and what after it.
func (ph *initialPhase) poolTest(sys *gsst.System) (in, after string) {
	pp := ph.pool
	if pp.mode != nil {
		v := &sys.Shared[pp.mode.shared]
		return v.Name + " = " + v.ValueName(pp.mode.value), v.Name + " = " + v.ValueName(pp.after)
	}
	return "#" + sys.States[pp.boot] + " > 0", "= 0"
}
