package prove

import (
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
	ph := &initialPhase{touched: map[presburger.Var]bool{}, start: map[presburger.Var]presburger.Term{}, first: first, adds: map[int]map[int]int64{}, incr: map[int]bool{}, link: presburger.True, oneStep: true, startName: sys.EnvironmentName(step), targets: targets}
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
