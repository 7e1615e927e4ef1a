package gsst

import (
	"slices"
	"strings"

	"github.com/vsym/vsym/presburger"
)

// This file holds what one step of a system is. The checker lowers every
// guard block of every transition, and every rendezvous, into one list of
// steps (Spec.Steps); what a step needs to be taken and what it does are
// defined here once, as formulas over the system's variables (for the
// analyses that reason symbolically: certification, counter models,
// exports) and on configurations of counters and of single processes (for
// the engines, the lifting of traces and the replay of runs). No analysis
// writes that meaning again.
//
// The paper's local transition is the simplest step: one part, no
// update, no transfer (Step.Simple). Beyond it, a step may move several
// distinct processes (a rendezvous), move every other process of some
// states with them (a broadcast), and update shared variables.

// Step is one kind of move of a system. It is taken by one process per
// part, distinct processes, each in its part's From and of one of its
// Groups, when Guard holds and Update keeps every shared variable in its
// domain; each mover goes to its part's To, every other process in a
// transfer's From (of its groups) goes to the transfer's To, and Update
// sets the shared variables. Guard, Update and Transfers read the
// configuration before the step.
type Step struct {
	Parts     []Part
	Transfers []Transfer
	Guard     presburger.Formula // over the system's variables; never nil
	Update    Update
	Origin    Origin
}

// Origin says where a step was written: a guard block of a local
// transition, a rendezvous, or an environment step (the indices of the
// other two are -1).
type Origin struct {
	Transition  int    // index in Spec.Transitions
	Block       int    // index in that transition's Blocks
	Rendezvous  int    // index in Spec.Rendezvous
	Environment int    // index in Spec.Environment
	Pos         Pos    // of the guard (of the transition when unguarded), or of the rendezvous or environment step
	GuardText   string // the guard as written; "" when unguarded
}

// Simple reports whether st is a step of the paper's GSSTs: one process
// moves, nothing else changes. Fast paths key on it.
func (st *Step) Simple() bool {
	return len(st.Parts) == 1 && len(st.Transfers) == 0 && len(st.Update.Assign) == 0
}

// Simple reports whether s is one of the paper's GSSTs: every step is
// Simple, and there is no shared variable or parameter. Paths measured
// on such systems (prove's order of steps) key on it.
func (s *Spec) Simple() bool {
	if len(s.Shared) > 0 || len(s.Params) > 0 {
		return false
	}
	steps := s.Steps() // lowered anew on each call for a Spec not sealed
	for i := range steps {
		if !steps[i].Simple() {
			return false
		}
	}
	return true
}

// Steps returns the steps of s: the blocks of each transition in order,
// then the rendezvous, then the environment steps. The slice belongs to s; do not change it.
func (s *Spec) Steps() []Step {
	if s.steps != nil {
		return s.steps
	}
	return s.lower() // a Spec not sealed: nothing to keep it in safely
}

// lower builds the steps of s from its transitions and rendezvous.
func (s *Spec) lower() []Step {
	out := make([]Step, 0, len(s.Transitions)+len(s.Rendezvous)+len(s.Environment)) // never nil: sealed
	for i := range s.Transitions {
		t := &s.Transitions[i]
		for j := range t.Blocks {
			b := &t.Blocks[j]
			guard := b.Guard
			if guard == nil {
				guard = presburger.True
			}
			out = append(out, Step{
				Parts:     []Part{{From: t.From, To: t.To, Groups: s.normalGroups(b.Groups), Pos: t.Pos}},
				Transfers: s.normalTransfers(t.Broadcast),
				Guard:     guard,
				Update:    b.Update,
				Origin:    Origin{Transition: i, Block: j, Rendezvous: -1, Environment: -1, Pos: b.Pos, GuardText: b.Text},
			})
		}
	}
	for k := range s.Rendezvous {
		r := &s.Rendezvous[k]
		guard := r.Guard
		if guard == nil {
			guard = presburger.True
		}
		parts := make([]Part, len(r.Parts))
		for i, p := range r.Parts {
			p.Groups = s.normalGroups(p.Groups)
			parts[i] = p
		}
		out = append(out, Step{
			Parts:     parts,
			Transfers: s.normalTransfers(r.Broadcast),
			Guard:     guard,
			Update:    r.Update,
			Origin:    Origin{Transition: -1, Block: -1, Rendezvous: k, Environment: -1, Pos: r.Pos, GuardText: r.Text},
		})
	}
	for k := range s.Environment {
		e := &s.Environment[k]
		guard := e.Guard
		if guard == nil {
			guard = presburger.True
		}
		out = append(out, Step{
			Transfers: s.normalTransfers(e.Broadcast),
			Guard:     guard,
			Update:    e.Update,
			Origin:    Origin{Transition: -1, Block: -1, Rendezvous: -1, Environment: k, Pos: e.Pos, GuardText: e.Text},
		})
	}
	return out
}

// normalGroups returns groups, or nil when it lists every group of s:
// nil is how a part or a transfer says "any group".
func (s *Spec) normalGroups(groups []int) []int {
	if len(groups) == len(s.Groups) {
		return nil
	}
	return groups
}

// normalTransfers returns xs with the groups of a transfer that moves
// every group written nil, as a part's are: one way to say "any group",
// so that comparing a part's groups with a transfer's is exact.
func (s *Spec) normalTransfers(xs []Transfer) []Transfer {
	if len(xs) == 0 {
		return nil
	}
	out := make([]Transfer, len(xs))
	for i, x := range xs {
		x.Groups = s.normalGroups(x.Groups)
		out[i] = x
	}
	return out
}

// Allows reports whether a process of group g may take part p.
func (p *Part) Allows(g int) bool { return p.Groups == nil || slices.Contains(p.Groups, g) }

// Allows reports whether transfer x moves the processes of group g.
func (x *Transfer) Allows(g int) bool { return x.Groups == nil || slices.Contains(x.Groups, g) }

// StepName names a step as messages do: "T -> C" for a transition's
// block (with its groups when the transition has several blocks:
// "T -> C [reader]"), "rendezvous P -> P2, C -> C2" for a rendezvous.
func (s *Spec) StepName(st *Step) string {
	o := &st.Origin
	switch {
	case o.Rendezvous >= 0:
		return s.RendezvousName(&s.Rendezvous[o.Rendezvous])
	case o.Environment >= 0:
		return s.EnvironmentName(o.Environment)
	}
	t := &s.Transitions[o.Transition]
	name := s.TransitionName(t)
	if len(t.Blocks) > 1 {
		name += " [" + s.groupNames(t.Blocks[o.Block].Groups) + "]"
	}
	return name
}

// groupNames joins the names of groups with ", ".
func (s *Spec) groupNames(groups []int) string {
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = s.Groups[g].Name
	}
	return strings.Join(names, ", ")
}

// WithGroups returns st taken by processes of the given groups, one per
// part (groups[i] for part i): the step of a group-counter model. Each
// group must be one that its part allows.
func (st *Step) WithGroups(groups []int) Step {
	out := *st
	out.Parts = slices.Clone(st.Parts)
	for i := range out.Parts {
		out.Parts[i].Groups = []int{groups[i]}
	}
	return out
}

// Restrict returns st with part i taken only by processes of groups (a
// subset of what the part allows; nil: every group).
func (st *Step) Restrict(i int, groups []int) Step {
	out := *st
	out.Parts = slices.Clone(st.Parts)
	out.Parts[i].Groups = groups
	return out
}
