package testsupport

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Replay beyond the paper's GSSTs: a lifted step of a system with shared
// variables, broadcasts or rendezvous is checked against the language's
// semantics, written here directly: a process takes a transition when
// its block's guard holds and the update keeps every shared variable in
// its domain, and then every other process in a transfer's source (of
// the transfer's groups) moves to its target; a rendezvous moves distinct
// processes, one per part, each from the part's state and of one of its
// groups, when its guard holds and its update stays in the domains.

// Mover is one more process a lifted step moves: a part of a
// rendezvous, or a process a broadcast transfers.
type Mover struct{ Group, Process, From, To int }

// extState is a configuration with shared values, for replay.
type extState struct {
	sys    *gsst.System
	owner  []int
	offset []int
	conf   []int
	shared []int
}

func (x *extState) val() func(presburger.Var) int64 {
	return x.sys.Valuation(counters(x.sys, x.owner, x.conf), x.shared)
}

// update returns the shared values after u, and false when one would
// leave its domain.
func (x *extState) update(u *gsst.Update) ([]int, bool) {
	val := x.val()
	out := slices.Clone(x.shared)
	for _, a := range u.Assign {
		j, ok := x.sys.SharedOf(a.Var)
		if !ok {
			return nil, false
		}
		v := a.Value.Eval(val)
		if v < int64(x.sys.Shared[j].Lo) || !x.sys.Shared[j].Unbounded && v > int64(x.sys.Shared[j].Hi) {
			return nil, false
		}
		out[j] = int(v)
	}
	return out, true
}

// canMove reports whether some step is possible.
func (x *extState) canMove() bool {
	sys := x.sys
	val := x.val()
	for p, s := range x.conf {
		for ti := range sys.Transitions {
			t := &sys.Transitions[ti]
			if b := t.BlockOf(x.owner[p]); t.From == s && b != nil && presburger.Eval(b.Guard, val) {
				if _, ok := x.update(&b.Update); ok {
					return true
				}
			}
		}
	}
	for ri := range sys.Rendezvous {
		r := &sys.Rendezvous[ri]
		if r.Guard != nil && !presburger.Eval(r.Guard, val) {
			continue
		}
		if _, ok := x.update(&r.Update); !ok {
			continue
		}
		var used []int
		var rec func(i int) bool
		rec = func(i int) bool {
			if i == len(r.Parts) {
				return true
			}
			for p, s := range x.conf {
				if s == r.Parts[i].From && inGroups(r.Parts[i].Groups, x.owner[p]) && !slices.Contains(used, p) {
					used = append(used, p)
					if rec(i + 1) {
						return true
					}
					used = used[:len(used)-1]
				}
			}
			return false
		}
		if rec(0) {
			return true
		}
	}
	return false
}

func inGroups(groups []int, g int) bool { return groups == nil || slices.Contains(groups, g) }

// process returns the number of process k of group g, or -1.
func (x *extState) process(g, k int) int {
	if g < 0 || g >= len(x.sys.Groups) || k < 0 || k >= x.sys.Groups[g].Size {
		return -1
	}
	return x.offset[g] + k
}

// step checks s and applies it.
func (x *extState) step(s Step) error {
	sys := x.sys
	if s.Stutter {
		if x.canMove() {
			return fmt.Errorf("it stutters but a process can move")
		}
		return nil
	}
	val := x.val()
	next := slices.Clone(x.conf)
	var shared []int
	if s.Transition >= 0 {
		if s.Transition >= len(sys.Transitions) {
			return fmt.Errorf("it names no transition")
		}
		t := &sys.Transitions[s.Transition]
		p := x.process(s.Group, s.Process)
		if p < 0 || x.conf[p] != s.From || t.From != s.From || t.To != s.To || len(s.Also) > 0 {
			return fmt.Errorf("it is not a move of transition %s", sys.TransitionName(t))
		}
		b := t.BlockOf(s.Group)
		if b == nil || !presburger.Eval(b.Guard, val) {
			return fmt.Errorf("the process cannot take %s", sys.TransitionName(t))
		}
		var ok bool
		if shared, ok = x.update(&b.Update); !ok {
			return fmt.Errorf("its update leaves a shared variable's domain")
		}
		next[p] = t.To
		var want []Mover
		for q, sq := range x.conf {
			for _, tr := range t.Broadcast {
				if q != p && sq == tr.From && inGroups(tr.Groups, x.owner[q]) {
					g := x.owner[q]
					want = append(want, Mover{Group: g, Process: q - x.offset[g], From: tr.From, To: tr.To})
					next[q] = tr.To
				}
			}
		}
		got := slices.Clone(s.Transferred)
		cmp := func(a, b Mover) int { return x.process(a.Group, a.Process) - x.process(b.Group, b.Process) }
		slices.SortFunc(got, cmp)
		if !slices.Equal(got, want) {
			return fmt.Errorf("it transfers %v, the broadcast moves %v", s.Transferred, want)
		}
	} else {
		if s.Rendezvous < 0 || s.Rendezvous >= len(sys.Rendezvous) {
			return fmt.Errorf("it names no transition or rendezvous")
		}
		r := &sys.Rendezvous[s.Rendezvous]
		movers := append([]Mover{{s.Group, s.Process, s.From, s.To}}, s.Also...)
		if len(movers) != len(r.Parts) || len(s.Transferred) > 0 {
			return fmt.Errorf("it moves %d processes, the rendezvous has %d parts", len(movers), len(r.Parts))
		}
		var used []int
		for i, mv := range movers {
			p := x.process(mv.Group, mv.Process)
			part := &r.Parts[i]
			if p < 0 || slices.Contains(used, p) || x.conf[p] != part.From || mv.From != part.From || mv.To != part.To || !inGroups(part.Groups, mv.Group) {
				return fmt.Errorf("part %d is not taken by a distinct process of its state and groups", i+1)
			}
			used = append(used, p)
			next[p] = part.To
		}
		if r.Guard != nil && !presburger.Eval(r.Guard, val) {
			return fmt.Errorf("the rendezvous guard is false")
		}
		var ok bool
		if shared, ok = x.update(&r.Update); !ok {
			return fmt.Errorf("its update leaves a shared variable's domain")
		}
	}
	if s.Shared != nil && !slices.Equal(s.Shared, shared) {
		return fmt.Errorf("it says the shared values become %v, the update gives %v", s.Shared, shared)
	}
	x.conf, x.shared = next, shared
	return nil
}
