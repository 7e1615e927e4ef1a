package gsst

import (
	"fmt"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// Limits on what a GSST file may ask for. They keep every value that guard
// evaluation can produce far inside int64 (a coefficient times a counter is
// at most 1e15), so the formula layer needs no overflow checks.
const (
	MaxProcesses = 1_000_000     // total number of processes n
	MaxConstant  = 1_000_000_000 // magnitude of any constant or coefficient in a guard
)

// System is a checked GSST: every name is resolved, every guard is a
// Presburger formula over the system's counter variables, and n (the
// number of processes) has been replaced by its value.
//
// Counter variables: TotalVar(s) is #S, the number of processes in local
// state s; GroupVar(s, g) is #S[g], the number of processes of group g in
// s. Guards and properties may use both.
type System struct {
	Name        string
	File        string
	States      []string
	Groups      []Group
	Init        [][]int // Init[g][s]: processes of group g that start in state s
	Transitions []Transition
	Properties  []Property
	// Fairness restricts the paths the path quantifiers of properties
	// range over; the zero value restricts nothing.
	Fairness Fairness
}

// Fairness holds the fairness constraints of a system. A path is fair
// when it meets every constraint infinitely often; CTL path quantifiers
// range over fair paths only, as in NuSMV 2.6 (JUSTICE), and
// docs/fairness.md says exactly how.
type Fairness struct {
	Justice []Justice
	Weak    []Weak
}

// Justice is a condition on configurations that every fair path meets
// infinitely often.
type Justice struct {
	Formula presburger.Formula // over the system's counter variables
	Text    string             // as written
	Pos     Pos
}

// Weak is weak fairness of the local transition Transition (an index
// into System.Transitions): a fair path on which, from some point on, a
// process (of group Group, or of any group when Group is -1) can take the
// transition in every configuration, has such a process take it
// infinitely often. Equivalently, infinitely often either no such process
// can take it or one does. With Group -1 it constrains the transition as
// a whole, not each group; it is never a constraint on single processes.
type Weak struct {
	Transition int
	Group      int // -1: any process
	Pos        Pos // of the entry that asked for it
}

// Empty reports whether f constrains nothing.
func (f *Fairness) Empty() bool { return len(f.Justice) == 0 && len(f.Weak) == 0 }

// WeakName names a weak fairness constraint as the fairness key writes
// it: "T -> C" (any process) or "T -> C [g]".
func (s *System) WeakName(w *Weak) string {
	if w.Transition < 0 || w.Transition >= len(s.Transitions) {
		return fmt.Sprintf("transition %d", w.Transition)
	}
	name := s.TransitionName(&s.Transitions[w.Transition])
	if w.Group >= 0 && w.Group < len(s.Groups) {
		name += " [" + s.Groups[w.Group].Name + "]"
	}
	return name
}

// Group is a block of identical processes.
type Group struct {
	Name string
	Size int
	Pos  Pos
}

// Transition is a local transition From -> To with its guards. A process
// of group g may take it when g belongs to one of the Blocks and that
// block's guard holds; groups in no block cannot take it.
type Transition struct {
	From, To int
	Blocks   []Block
	Pos      Pos
}

// Block is a set of groups sharing one guard of a transition.
type Block struct {
	Groups []int              // sorted group indices
	Guard  presburger.Formula // over the system's counter variables
	Text   string             // the guard as written; "" when unguarded
	Pos    Pos                // position of the guard (or of the transition when unguarded)
}

// Property is a named CTL formula over total counters.
type Property struct {
	Name    string
	Formula ctl.Formula
	Text    string
	Pos     Pos
}

// N returns the number of processes.
func (s *System) N() int {
	n := 0
	for _, g := range s.Groups {
		n += g.Size
	}
	return n
}

// NumVars returns the number of counter variables: one total counter per
// state and one group counter per state and group.
func (s *System) NumVars() int { return len(s.States) * (1 + len(s.Groups)) }

// TotalVar returns the variable of the total counter #S of state s.
func (s *System) TotalVar(state int) presburger.Var { return presburger.Var(state) }

// GroupVar returns the variable of the group counter #S[g].
func (s *System) GroupVar(state, group int) presburger.Var {
	return presburger.Var(len(s.States) + state*len(s.Groups) + group)
}

// Counter returns the state and group of a counter variable; group is -1
// for a total counter. ok is false for a variable that is not a counter.
func (s *System) Counter(v presburger.Var) (state, group int, ok bool) {
	m, d := len(s.States), len(s.Groups)
	switch {
	case v < 0 || int(v) >= s.NumVars():
		return 0, 0, false
	case int(v) < m:
		return int(v), -1, true
	}
	i := int(v) - m
	return i / d, i % d, true
}

// VarName names a counter variable as the GSST language writes it: "#S"
// or "#S[g]".
func (s *System) VarName(v presburger.Var) string {
	st, g, ok := s.Counter(v)
	switch {
	case !ok:
		return fmt.Sprintf("v%d", v)
	case g < 0:
		return "#" + s.States[st]
	}
	return "#" + s.States[st] + "[" + s.Groups[g].Name + "]"
}

// IsTotal reports whether f mentions total counters only.
func (s *System) IsTotal(f presburger.Formula) bool {
	for _, v := range presburger.FreeVars(f) {
		if _, g, _ := s.Counter(v); g >= 0 {
			return false
		}
	}
	return true
}

// TransitionName returns "U -> V" for transition t.
func (s *System) TransitionName(t *Transition) string {
	return s.States[t.From] + " -> " + s.States[t.To]
}

// BlockOf returns the block of t that group g belongs to, or nil when g
// cannot take t.
func (t *Transition) BlockOf(g int) *Block {
	for i := range t.Blocks {
		for _, h := range t.Blocks[i].Groups {
			if h == g {
				return &t.Blocks[i]
			}
		}
	}
	return nil
}

// Valuation returns the assignment of counter variables in a configuration
// given by its group counters: y[g][s] processes of group g are in state s.
func (s *System) Valuation(y [][]int) func(presburger.Var) int64 {
	return func(v presburger.Var) int64 {
		st, g, ok := s.Counter(v)
		switch {
		case !ok:
			return 0
		case g >= 0:
			return int64(y[g][st])
		}
		total := 0
		for g := range y {
			total += y[g][st]
		}
		return int64(total)
	}
}
