package explore

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
)

// Lifting the steps of a system beyond the paper: shared variables and
// their updates, broadcasts and rendezvous. A step of the trace may then
// move several processes, leave the total counters where they were (a
// broadcast whose transfers undo its mover's move), and change shared
// values, so candidates are found by doing every process move the system
// allows in the configuration and keeping those that lead to the trace's
// next state: its total counters, its group counters when it has them,
// its shared values when it has them. The order of preference extends
// the paper's: by transition, then group, each with the group's
// lowest-numbered process in the source state; then rendezvous, by the
// order of their parts' groups, each part taking the lowest-numbered
// process of its group in its state not taken by an earlier part.

// extCandidates lists the process steps from the configuration to state
// b (a is the trace's current state, which the configuration matches).
func (l *lifter) extCandidates(a, b State) ([]Step, error) {
	sys := l.sys
	if len(b.Counters) != len(sys.States) || len(a.Counters) != len(sys.States) {
		return nil, fmt.Errorf("malformed trace state")
	}
	var out []Step
	for ti := range sys.Transitions {
		t := &sys.Transitions[ti]
		for g := range sys.Groups {
			blk := t.BlockOf(g)
			if blk == nil || l.vals[sys.GroupVar(t.From, g)] == 0 || !l.holds(blk.Guard) {
				continue
			}
			shared, ok := l.update(&blk.Update)
			if !ok {
				continue
			}
			k := slices.Index(l.proc[g], t.From)
			st := Step{Transition: ti, Group: g, GroupName: sys.Groups[g].Name, Process: k,
				From: t.From, To: t.To, FromName: sys.States[t.From], ToName: sys.States[t.To]}
			for _, tr := range t.Broadcast {
				for h := range sys.Groups {
					if tr.Groups != nil && !slices.Contains(tr.Groups, h) {
						continue
					}
					for p, s := range l.proc[h] {
						if s == tr.From && !(h == g && p == k) {
							st.Transferred = append(st.Transferred, l.mover(h, p, tr.From, tr.To))
						}
					}
				}
			}
			l.finishStep(&st, shared)
			if l.leadsTo(st, b) {
				out = append(out, st)
			}
		}
	}
	for ri := range sys.Rendezvous {
		out = append(out, l.rendezvousSteps(ri, b)...)
	}
	if len(out) > 0 {
		return out, nil
	}
	if sameState(a, b) {
		if l.enabled() {
			return nil, fmt.Errorf("the counter model stutters (deadlock) but a process can move in the concrete configuration")
		}
		return []Step{{Stutter: true, Transition: -1, Group: -1, Process: -1, From: -1, To: -1}}, nil
	}
	return nil, fmt.Errorf("no process step of the system leads to the next state of the trace in the concrete configuration " +
		"(the counter model allows it: it is not exact here)")
}

// rendezvousSteps lists the steps of rendezvous ri that lead to b.
func (l *lifter) rendezvousSteps(ri int, b State) []Step {
	sys := l.sys
	r := &sys.Rendezvous[ri]
	if r.Guard != nil && !l.holds(r.Guard) {
		return nil
	}
	shared, ok := l.update(&r.Update)
	if !ok {
		return nil
	}
	var out []Step
	seen := map[string]bool{}
	picked := make([]Mover, len(r.Parts))
	var rec func(i int)
	rec = func(i int) {
		if i == len(r.Parts) {
			key := fmt.Sprint(picked)
			if seen[key] {
				return
			}
			seen[key] = true
			idx := ri
			p := picked[0]
			st := Step{Transition: -1, Group: p.Group, GroupName: p.GroupName, Process: p.Process, From: p.From, To: p.To,
				FromName: p.FromName, ToName: p.ToName, Rendezvous: &idx, Also: slices.Clone(picked[1:])}
			l.finishStep(&st, shared)
			if l.leadsTo(st, b) {
				out = append(out, st)
			}
			return
		}
		part := &r.Parts[i]
		for g := range sys.Groups {
			if part.Groups != nil && !slices.Contains(part.Groups, g) {
				continue
			}
			for k, s := range l.proc[g] {
				if s != part.From || taken(picked[:i], g, k) {
					continue
				}
				picked[i] = l.mover(g, k, part.From, part.To)
				rec(i + 1)
				break
			}
		}
	}
	rec(0)
	return out
}

func taken(ms []Mover, g, k int) bool {
	for _, m := range ms {
		if m.Group == g && m.Process == k {
			return true
		}
	}
	return false
}

func (l *lifter) mover(g, k, from, to int) Mover {
	sys := l.sys
	return Mover{Group: g, GroupName: sys.Groups[g].Name, Process: k, From: from, To: to,
		FromName: sys.States[from], ToName: sys.States[to]}
}

// update returns the shared values after update u from the
// configuration, and false when a value would leave its domain (the step
// is then not enabled).
func (l *lifter) update(u *gsst.Update) ([]int, bool) {
	out := slices.Clone(l.shared)
	for _, a := range u.Assign {
		j, ok := l.sys.SharedOf(a.Var)
		if !ok {
			return nil, false
		}
		v, fits := a.Value.Value(l.val)
		if !fits || v < int64(l.sys.Shared[j].Lo) || !l.sys.Shared[j].Unbounded && v > int64(l.sys.Shared[j].Hi) {
			return nil, false
		}
		out[j] = int(v)
	}
	return out, true
}

// finishStep records the shared values before and after st.
func (l *lifter) finishStep(st *Step, shared []int) {
	if l.shared == nil {
		return
	}
	st.sys, st.before, st.Shared = l.sys, slices.Clone(l.shared), shared
}

// leadsTo reports whether st, from the configuration, reaches the
// counters (and group counters, and shared values, as far as b has them)
// of b.
func (l *lifter) leadsTo(st Step, b State) bool {
	l.apply(st)
	defer l.undo(st)
	for s := range l.sys.States {
		if l.vals[s] != int64(b.Counters[s]) {
			return false
		}
	}
	if b.Groups != nil {
		for g := range b.Groups {
			for s, c := range b.Groups[g] {
				if l.vals[l.sys.GroupVar(s, g)] != int64(c) {
					return false
				}
			}
		}
	}
	return b.Shared == nil || slices.Equal(b.Shared, l.shared)
}

// sameState reports whether a and b have the same counters and shared
// values.
func sameState(a, b State) bool {
	if !slices.Equal(a.Counters, b.Counters) || !slices.Equal(a.Shared, b.Shared) || len(a.Groups) != len(b.Groups) {
		return false
	}
	for g := range a.Groups {
		if !slices.Equal(a.Groups[g], b.Groups[g]) {
			return false
		}
	}
	return true
}

// move moves process k of group g from one state to another.
func (l *lifter) move(g, k, from, to int) {
	l.proc[g][k] = to
	l.vals[from]--
	l.vals[to]++
	l.vals[l.sys.GroupVar(from, g)]--
	l.vals[l.sys.GroupVar(to, g)]++
}

// applyExt does st's further moves and sets the shared values.
func (l *lifter) applyExt(st Step) {
	for _, m := range st.Also {
		l.move(m.Group, m.Process, m.From, m.To)
	}
	for _, m := range st.Transferred {
		l.move(m.Group, m.Process, m.From, m.To)
	}
	if st.Shared != nil {
		l.setShared(st.Shared)
	}
}

// undoExt undoes applyExt.
func (l *lifter) undoExt(st Step) {
	for _, m := range st.Transferred {
		l.move(m.Group, m.Process, m.To, m.From)
	}
	for _, m := range st.Also {
		l.move(m.Group, m.Process, m.To, m.From)
	}
	if st.before != nil {
		l.setShared(st.before)
	}
}

func (l *lifter) setShared(vals []int) {
	copy(l.shared, vals)
	for j, v := range vals {
		l.vals[l.sys.SharedVar(j)] = int64(v)
	}
}

// extEnabled reports whether some step of the system beyond the paper's
// is possible: a transition whose update stays in its domains, or a
// rendezvous with distinct processes for its parts.
func (l *lifter) extEnabled() bool {
	sys := l.sys
	for ti := range sys.Transitions {
		t := &sys.Transitions[ti]
		for g := range sys.Groups {
			b := t.BlockOf(g)
			if b == nil || l.vals[sys.GroupVar(t.From, g)] == 0 || !l.holds(b.Guard) {
				continue
			}
			if _, ok := l.update(&b.Update); ok {
				return true
			}
		}
	}
	for ri := range sys.Rendezvous {
		if l.rendezvousPossible(ri) {
			return true
		}
	}
	return false
}

// rendezvousPossible reports whether rendezvous ri can happen.
func (l *lifter) rendezvousPossible(ri int) bool {
	r := &l.sys.Rendezvous[ri]
	if r.Guard != nil && !l.holds(r.Guard) {
		return false
	}
	if _, ok := l.update(&r.Update); !ok {
		return false
	}
	var picked []Mover
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(r.Parts) {
			return true
		}
		part := &r.Parts[i]
		for g := range l.sys.Groups {
			if part.Groups != nil && !slices.Contains(part.Groups, g) {
				continue
			}
			for k, s := range l.proc[g] {
				// Processes of a group in one state are
				// interchangeable: the lowest free one will do.
				if s == part.From && !taken(picked, g, k) {
					picked = append(picked, Mover{Group: g, Process: k})
					if rec(i + 1) {
						return true
					}
					picked = picked[:len(picked)-1]
					break
				}
			}
		}
		return false
	}
	return rec(0)
}

// sharedLen sizes a lifter's valuation to hold the shared variables.
func sharedLen(sys *gsst.System) int {
	if len(sys.Shared) == 0 {
		return sys.NumVars()
	}
	return int(sys.SharedVar(len(sys.Shared)-1)) + 1
}
