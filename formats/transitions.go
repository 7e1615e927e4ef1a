package formats

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Transitions collects the transitions of a translation. A step between
// the same states with the same effect (broadcast and update) as an
// earlier one is merged into it, its guard either guard; one with
// another effect becomes a transition of its own between the same two
// states, and every transition between them is then named (the name
// each was added with: a ByMC rule's label, a net rule's number). Two
// named transitions never share a name: ByMC's files repeat labels
// (random19's rules 2 and 3 are each written twice, for the correct and
// for the faulty processes), and a later one takes the name with _2,
// _3, ... added.
type Transitions struct {
	spec  *gsst.Spec
	notes *Notes
	edges map[[2]int][]*edge
	named map[string]bool // the names given so far
}

type edge struct {
	index    int
	name     string // the name the transition takes when another joins its states
	effect   string
	guards   []string // the text of each merged guard; "" for none
	formulas []presburger.Formula
}

// NewTransitions collects transitions into spec, their comments into
// notes.
func NewTransitions(spec *gsst.Spec, notes *Notes) *Transitions {
	return &Transitions{spec: spec, notes: notes, edges: map[[2]int][]*edge{}, named: map[string]bool{}}
}

// Add adds t, a transition with one block for every group, whose
// effect (broadcast and update) effect describes, with note as its
// comment; name is the transition's name should another with another
// effect join the same states (a name of GSST: letters, digits, _).
func (ts *Transitions) Add(t gsst.Transition, name, effect string, note []string) {
	key := [2]int{t.From, t.To}
	b := &t.Blocks[0]
	for _, e := range ts.edges[key] {
		if e.effect != effect {
			continue
		}
		e.guards = append(e.guards, b.Text)
		e.formulas = append(e.formulas, b.Guard)
		merged := &ts.spec.Transitions[e.index].Blocks[0]
		merged.Guard = presburger.Disj(e.formulas...)
		merged.Text = disjunction(e.guards)
		ts.notes.Transitions[e.index] = append(ts.notes.Transitions[e.index], note...)
		return
	}
	e := &edge{index: len(ts.spec.Transitions), name: name, effect: effect, guards: []string{b.Text}, formulas: []presburger.Formula{b.Guard}}
	ts.edges[key] = append(ts.edges[key], e)
	ts.spec.Transitions = append(ts.spec.Transitions, t)
	ts.notes.Transitions = append(ts.notes.Transitions, note)
	if es := ts.edges[key]; len(es) > 1 {
		for _, o := range es { // several transitions join these states: each has its name
			if t := &ts.spec.Transitions[o.index]; t.Name == "" {
				t.Name = ts.unique(o.name)
			}
		}
	}
}

// unique returns name, or name with _2, _3, ... added where an earlier
// transition has it, and notes it as given.
func (ts *Transitions) unique(name string) string {
	out := name
	for k := 2; ts.named[out]; k++ {
		out = fmt.Sprintf("%s_%d", name, k)
	}
	ts.named[out] = true
	return out
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
