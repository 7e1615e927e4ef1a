package formats

import (
	"slices"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Transitions collects the transitions of a translation. The GSST
// language joins two states by at most one transition: a step between
// the same states with the same effect (broadcast and update) as an
// earlier one is merged into it, its guard either guard; one with
// another effect needs several transitions between the same two states
// (ParallelRules), which Add reports to its caller.
type Transitions struct {
	spec  *gsst.Spec
	notes *Notes
	edges map[[2]int]*edge
}

type edge struct {
	index    int
	effect   string
	guards   []string // the text of each merged guard; "" for none
	formulas []presburger.Formula
}

// NewTransitions collects transitions into spec, their comments into
// notes.
func NewTransitions(spec *gsst.Spec, notes *Notes) *Transitions {
	return &Transitions{spec: spec, notes: notes, edges: map[[2]int]*edge{}}
}

// Add adds t, a transition with one block for every group, whose
// effect (broadcast and update) effect describes, with note as its
// comment. When a transition between the same states has another
// effect, it adds nothing and returns that transition's index and
// false.
func (ts *Transitions) Add(t gsst.Transition, effect string, note []string) (clash int, ok bool) {
	key := [2]int{t.From, t.To}
	b := &t.Blocks[0]
	e, dup := ts.edges[key]
	if !dup {
		ts.edges[key] = &edge{index: len(ts.spec.Transitions), effect: effect, guards: []string{b.Text}, formulas: []presburger.Formula{b.Guard}}
		ts.spec.Transitions = append(ts.spec.Transitions, t)
		ts.notes.Transitions = append(ts.notes.Transitions, note)
		return 0, true
	}
	if e.effect != effect {
		return e.index, false
	}
	e.guards = append(e.guards, b.Text)
	e.formulas = append(e.formulas, b.Guard)
	merged := &ts.spec.Transitions[e.index].Blocks[0]
	merged.Guard = presburger.Disj(e.formulas...)
	merged.Text = disjunction(e.guards)
	ts.notes.Transitions[e.index] = append(ts.notes.Transitions[e.index], note...)
	return 0, true
}

// disjunction joins guards with |; an empty guard (true) makes the whole
// true.
func disjunction(guards []string) string {
	if slices.Contains(guards, "") {
		return ""
	}
	if len(guards) == 1 {
		return guards[0]
	}
	parts := make([]string, len(guards))
	for i, g := range guards {
		parts[i] = "(" + g + ")"
	}
	return strings.Join(parts, " | ")
}

// SafeName returns name, with "_" added while GSST reserves it for
// parameters and shared variables (true, false, the temporal operators,
// n).
func SafeName(name string) string {
	for name == "n" || name == "true" || name == "false" || len(name) == 2 && strings.Contains("AG AF EG EF AX EX", name) {
		name += "_"
	}
	return name
}
