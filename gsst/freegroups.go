package gsst

import "slices"

// FreeGroups returns s with the group lists dropped that no run reads:
// a transition's one guard block that names some groups, and a
// rendezvous part or a transfer restricted to some controllers (groups
// of one process), where no process of another group may ever be in
// the state it moves processes out of (MayOccupy, which holds of every
// reachable configuration); a transition's blocks of groups never in
// its source are left out first (never taken), so that one block may
// be the only one left. Such a list picks the same processes as no
// list, in every reachable configuration, so that the system returned
// has the same runs, step for step: the steps any run takes, in the
// same order, each with the same parts, guard and update (prove
// re-checks every answer of it as written all the same). A controller
// written as a group of one
// process with states of its own, which moves with the others by
// rendezvous parts naming its group (a shared variable written as a
// process), is so read as a system every group may move in alike, which
// certification may then find symmetric. ok is false when nothing is
// dropped, or when s has weak fairness (a constraint per group names
// the blocks it reads; none is read differently here, but the lists are
// left as written there).
func (s *System) FreeGroups() (*System, bool, error) {
	if len(s.Groups) < 2 || len(s.Fairness.Weak) > 0 {
		return nil, false, nil
	}
	occ := s.MayOccupy()
	// private says that list names controllers only (groups of one
	// process, fixed) and only they may ever be in st. Lists naming
	// bigger groups stay: a system of tokens written as groups (a
	// shared counter as a group of n tokens in states of its own) is
	// proved on its group counters best, and its free system, certified,
	// asks the total-counter model a harder question (ByMC's cc so
	// written: 0.6 s as written, unknown at 15 s free).
	// alone says that only the groups of list may ever be in st.
	alone := func(list []int, st int) bool {
		for h := range s.Groups {
			if !slices.Contains(list, h) && occ[h][st] {
				return false
			}
		}
		return true
	}
	private := func(list []int, st int) bool {
		for _, g := range list {
			if grp := &s.Groups[g]; grp.Ranged || grp.OverParams() || grp.Size != 1 {
				return false
			}
		}
		return alone(list, st)
	}
	spec := s.Spec()
	dropped := false
	free := func(xs []Transfer) []Transfer {
		out := cloneTransfers(xs)
		for k := range out {
			if out[k].Groups != nil && private(out[k].Groups, out[k].From) {
				out[k].Groups, dropped = nil, true
			}
		}
		return out
	}
	all := make([]int, len(s.Groups))
	for g := range all {
		all[g] = g
	}
	spec.Rendezvous = slices.Clone(spec.Rendezvous)
	for i := range spec.Rendezvous {
		r := &spec.Rendezvous[i]
		r.Parts = slices.Clone(r.Parts)
		for k := range r.Parts {
			if p := &r.Parts[k]; p.Groups != nil && private(p.Groups, p.From) {
				p.Groups, dropped = nil, true
			}
		}
		r.Broadcast = free(r.Broadcast)
	}
	spec.Environment = slices.Clone(spec.Environment)
	for i := range spec.Environment {
		spec.Environment[i].Broadcast = free(spec.Environment[i].Broadcast)
	}
	spec.Transitions = slices.Clone(spec.Transitions)
	for i := range spec.Transitions {
		spec.Transitions[i].Broadcast = free(spec.Transitions[i].Broadcast)
	}
	// A part or transfer that keeps its list (a token group's) keeps
	// the system from certification whatever the transitions: their
	// lists then go only where they name controllers, as theirs.
	listed := func(xs []Transfer) bool {
		return slices.ContainsFunc(xs, func(x Transfer) bool { return x.Groups != nil })
	}
	tokens := slices.ContainsFunc(spec.Rendezvous, func(r Rendezvous) bool {
		return listed(r.Broadcast) || slices.ContainsFunc(r.Parts, func(p Part) bool { return p.Groups != nil })
	}) || slices.ContainsFunc(spec.Environment, func(e Environment) bool { return listed(e.Broadcast) }) ||
		slices.ContainsFunc(spec.Transitions, func(t Transition) bool { return listed(t.Broadcast) })
	// A transition none of whose groups is ever in its source is
	// never taken (a rule written once per group, {producer: G} on a
	// step only consumers take): left out, it leaves the copy that
	// is taken alone.
	taken := slices.DeleteFunc(slices.Clone(spec.Transitions), func(t Transition) bool {
		return !slices.ContainsFunc(t.Blocks, func(b Block) bool {
			return slices.ContainsFunc(b.Groups, func(g int) bool { return occ[g][t.From] })
		})
	})
	if !tokens && len(taken) < len(spec.Transitions) && len(taken)+len(spec.Rendezvous)+len(spec.Environment) > 0 {
		spec.Transitions, dropped = taken, true
	}
	for i := range spec.Transitions {
		t := &spec.Transitions[i]
		// Only a transition of one block: with several, the groups
		// left out of every block could not be given one guard. Its
		// list goes whatever the sizes of its groups, where no part
		// or transfer keeps one: a transition that only they may take
		// is a local step of theirs, which certification reads best
		// with every group in the block (mist's consprod with one
		// rule written {consumer: G}: 4 s as written, past 10 s with
		// #whilec <= n as G, 0.03 s free). Blocks of groups that are
		// never in From are never taken (a guard written per group
		// for every group): read without them, the one block left may
		// be the only one that counts.
		var used []Block
		for _, b := range t.Blocks {
			if slices.ContainsFunc(b.Groups, func(g int) bool { return occ[g][t.From] }) {
				used = append(used, b)
			}
		}
		if !tokens && len(used) == 1 && len(t.Blocks) > 1 && alone(used[0].Groups, t.From) {
			t.Blocks = used
		}
		if len(t.Blocks) == 1 && len(t.Blocks[0].Groups) < len(s.Groups) && (private(t.Blocks[0].Groups, t.From) || !tokens && alone(t.Blocks[0].Groups, t.From)) {
			t.Blocks = slices.Clone(t.Blocks)
			t.Blocks[0].Groups, t.Blocks[0].GroupPos = slices.Clone(all), nil
			dropped = true
		}
	}
	if !dropped {
		return nil, false, nil
	}
	out, err := New(spec)
	if err != nil {
		return nil, false, err
	}
	return out, true, nil
}
