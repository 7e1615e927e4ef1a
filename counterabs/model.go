package counterabs

import (
	"fmt"
	"math/big"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Level says what the counters of a model count.
type Level int

const (
	// TotalLevel has one counter #S per local state S: the counter
	// abstraction of the paper, bisimilar to the symmetry quotient under
	// the full symmetry group when the system is certified.
	TotalLevel Level = iota
	// GroupLevel has one counter #S[g] per group g and local state S: the
	// quotient under the permutations inside each group, exact for every
	// GSST, certified or not.
	GroupLevel
)

var levelNames = [...]string{TotalLevel: "total", GroupLevel: "group"}

func (l Level) String() string {
	if l < 0 || int(l) >= len(levelNames) {
		return fmt.Sprintf("Level(%d)", int(l))
	}
	return levelNames[l]
}

// MarshalText writes the level's name in JSON.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// ParseLevel returns the level named s ("total" or "group").
func ParseLevel(s string) (Level, error) {
	for i, n := range levelNames {
		if n == s {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("unknown model level %q (want total or group)", s)
}

// Model is a counter model of a GSST: a vector of counters, each counting
// the processes in one local state (of one group, at GroupLevel), and
// transitions that move one process between two counters when a guard
// holds. Counter i is the presburger variable presburger.Var(i); guards
// and the atoms of Properties are formulas over these variables. At
// TotalLevel counter i counts local state i, so it is also the system's
// total-counter variable System.TotalVar(i).
//
// The counters are partitioned into Pools whose sums never change: one
// pool of all counters, summing to N, at TotalLevel; one pool per group,
// summing to the group's size, at GroupLevel. Engines and emitters take a
// Model from Build or BuildGroup, which check everything about it once,
// and trust it.
type Model struct {
	System   *gsst.System
	Level    Level
	N        int       // number of processes
	Counters []Counter // what each counter counts
	Pools    []Pool
	Init     []int // initial value of each counter
	// Initials, when the system has several initial configurations
	// (gsst.Spec.Initials), holds every initial valuation of the
	// model's variables, Init first; nil when Init is the only one.
	// Starts returns them either way.
	Initials    [][]int
	Transitions []Transition
	// Properties are the system's properties with their atoms over the
	// model's counters (a total counter is a sum of group counters at
	// GroupLevel).
	Properties []Property
	// Justice are the system's fairness constraints on this model's
	// edges: a fair path takes, infinitely often, an edge that meets
	// each of them. CTL path quantifiers range over fair paths (see
	// Justice). Empty when the system has no fairness constraints.
	Justice []Justice
	// Exact is false for a total-counter model forced on a system that is
	// not certified fully virtually symmetric: it then over-approximates
	// the quotient (every behaviour of the system has a counterpart, not
	// conversely). Group-level models are always exact.
	Exact bool
	// MayDeadlock, set on a forced model (Exact false, from Build), holds
	// at the counter vectors for which some configuration with those
	// totals is deadlocked (maydeadlock.go). Engines give those states a
	// stutter self-loop besides their transitions, so that a deadlock of
	// the system has an abstract counterpart. When nil, a state stutters
	// exactly when no transition is enabled (Deadlock).
	MayDeadlock presburger.Formula

	// Shared are the system's shared variables: model variable
	// len(Counters)+j is shared variable j (SharedVar), and Init holds
	// their initial values after the counters'. Nil when the system has
	// none.
	Shared []gsst.Shared

	// deadlock is Deadlock simplified with the solver, set by Build;
	// deadlockKey identifies the guards it was computed for, so that a
	// copy of the model with other transitions does not use it.
	deadlock    presburger.Formula
	deadlockKey string
}

// Counter says what one counter counts: the processes in local state
// State, of group Group at GroupLevel (Group is -1 at TotalLevel).
type Counter struct {
	State int
	Group int
}

// Pool is a set of counters whose sum is Sum in every state of the model.
type Pool struct {
	Counters []int
	Sum      int
}

// Transition is one move of the model: when Guard holds, counter From
// decreases by one and counter To increases by one, and the rest of what
// its step does happens at once, all read in the state before it
// (StepInto): Also moves one more process per entry (the other parts of
// a rendezvous), Transfers move every process a counter holds that is
// not a mover into another (a broadcast), and Assign sets shared
// variables. Guard implies that the movers exist and, in every state
// whose shared variables lie in their domains (every state a model
// reaches), that every assigned value lies in its variable's domain.
//
// A transition is a compiled form of steps of the system (gsst.Step):
// Steps are their indices in System.Steps(), and what the transition
// does is derived from them in one place (numbering.compile), its guard from
// System.EnabledFormula. At GroupLevel a transition takes one step by
// processes of Groups (Groups[i] for part i); at TotalLevel it takes the
// guard blocks of one local transition that share an update (their
// effect on the orbit is one), or one rendezvous, by processes of any
// group (Groups nil).
type Transition struct {
	From, To  int
	Guard     presburger.Formula // over the model's variables presburger.Var(i)
	Case      Case               // how Guard was built
	Steps     []int
	Groups    []int
	Also      []Move
	Transfers []Move
	Assign    []Assign
	// Local, Group, Rendezvous and Environment say where the steps were
	// written, read off the first step's Origin: Local is the index of
	// the local transition in System.Transitions (-1 for a rendezvous or
	// an environment step), Rendezvous that of the rendezvous in
	// System.Rendezvous (-1 otherwise) and Environment that of the
	// environment step in System.Environment, read only when Local and
	// Rendezvous are both -1 (IsEnvironment), and Group, at GroupLevel, the
	// group of the process taking a local transition (-1 at TotalLevel
	// and for the others).
	Local       int
	Group       int
	Rendezvous  int
	Environment int
}

// IsEnvironment reports whether t takes an environment step (Local and
// Rendezvous -1): Environment then says which.
func (t *Transition) IsEnvironment() bool { return t.Local < 0 && t.Rendezvous < 0 }

// Moves returns the moves of t's movers: From -> To, then Also; none
// for a step that moves no process (From is then -1).
func (t *Transition) Moves() []Move { return movesOf(t.From, t.To, t.Also) }

// movesOf returns the moves of a model transition's movers: from -> to
// (unless from is -1, no mover), then also.
func movesOf(from, to int, also []Move) []Move {
	if from < 0 {
		return nil
	}
	return append([]Move{{From: from, To: to}}, also...)
}

// Move is a move between two counters: one process, in Transition.Also,
// or, in Transition.Transfers, every process From holds that is not a
// mover of the step.
type Move struct{ From, To int }

// Assign sets model variable Var (a shared variable) to Value, a linear
// term over the model's variables read before the step.
type Assign struct {
	Var   int
	Value presburger.Term
}

// NumVars returns the number of model variables: the counters, then the
// shared variables.
func (m *Model) NumVars() int { return len(m.Counters) + len(m.Shared) }

// SharedVar returns the model variable of shared variable j.
func (m *Model) SharedVar(j int) int { return len(m.Counters) + j }

// Step returns the state after t from x, a value per model variable; t
// must be enabled in x (Guard holds). Engines and oracles take a step's
// meaning from here: the movers (From -> To and each of Also) move, every
// other process of a transfer's source moves to its target, and the
// assignments, read in x, set the shared variables. An assigned value
// beyond gsst.MaxValue is an errkind.Limit error (StepInto).
func (m *Model) Step(t *Transition, x []int) ([]int, error) {
	y := make([]int, len(x))
	if err := StepInto(m, t, x, y); err != nil {
		return nil, err
	}
	return y, nil
}

// StepInto writes the state after t from x into y (of x's length), as
// Step does, without allocating: for engines that take many steps.
//
// Every assigned value is computed exactly. One whose magnitude passes
// gsst.MaxValue, which only an unbounded shared variable can reach (t's
// guard keeps a bounded one in its domain), is an errkind.Limit error
// naming the variable and the value: the run would leave the values
// vsym works with, so the analysis stops rather than wrap around or go
// on.
func StepInto[T ~int | ~int64](m *Model, t *Transition, x, y []T) error {
	copy(y, x)
	if t.From >= 0 {
		y[t.From]--
		y[t.To]++
	}
	for _, mv := range t.Also {
		y[mv.From]--
		y[mv.To]++
	}
	// A transfer moves every process of its source that is not a mover:
	// those the source held before the step less those that left it by a
	// move (a mover that arrives in a source stays there). Transfers read
	// the state before the step: sources are distinct, and a target that
	// is also a source keeps only what moves into it.
	for _, mv := range t.Transfers {
		moved := x[mv.From]
		if t.From == mv.From {
			moved--
		}
		for _, o := range t.Also {
			if o.From == mv.From {
				moved--
			}
		}
		y[mv.From] -= moved
		y[mv.To] += moved
	}
	for _, a := range t.Assign {
		read := func(v presburger.Var) int64 { return int64(x[v]) }
		v, ok := a.Value.Value(read)
		if !ok || v > gsst.MaxValue || v < -gsst.MaxValue {
			return m.beyondMaxValue(t, a, a.Value.BigValue(read))
		}
		y[a.Var] = T(v)
	}
	return nil
}

// beyondMaxValue is the error of a step t that would give a shared
// variable the value x, beyond gsst.MaxValue.
func (m *Model) beyondMaxValue(t *Transition, a Assign, x *big.Int) error {
	return fmt.Errorf("%s: %w", m.TransitionName(t), &gsst.LimitError{Var: m.VarName(presburger.Var(a.Var)), Value: x})
}

// UnitMoves reports whether every transition of m moves one process from
// one counter to another and nothing else, and m has no shared
// variables: the models of the paper's GSSTs. Engines key their fast
// paths on it (a successor's key is then the state's key plus a constant
// offset).
func (m *Model) UnitMoves() bool {
	if len(m.Shared) > 0 {
		return false
	}
	for i := range m.Transitions {
		t := &m.Transitions[i]
		if len(t.Also) > 0 || len(t.Transfers) > 0 || len(t.Assign) > 0 || t.From == t.To || t.From < 0 {
			return false
		}
	}
	return true
}

// Property is a property of the system with its atoms translated to the
// model's counters.
type Property struct {
	Name    string
	Text    string // as written in the spec
	Pos     gsst.Pos
	Formula ctl.Formula
}

// Justice is one fairness constraint of a model, a set of edges that every
// fair path takes infinitely often. An edge is a move of the model from a
// state (a transition, or the stutter step of a deadlock). Exactly one of
// the two forms is set:
//
//   - State != nil (a justice condition): the edges leaving a state that
//     satisfies State, a formula over the model's counters;
//   - Weak (weak fairness of a local transition): the edges that take one
//     of Transitions (indices into Model.Transitions), the stutter steps,
//     and every edge leaving a state where none of Transitions is
//     enabled. A path meets it infinitely often exactly when, if from
//     some point on one of Transitions is always enabled, one of them is
//     taken infinitely often.
//
// At TotalLevel weak fairness of a transition "for any process" is its
// one abstract transition; at GroupLevel it is the transitions of every
// group that may take it, and weak fairness for group g is g's transition
// alone. Per-group weak fairness has no counterpart at TotalLevel.
type Justice struct {
	Text        string   // "#C >= 1" as written, or "weak T -> C [g]"
	Pos         gsst.Pos // of the constraint in the spec
	State       presburger.Formula
	Weak        bool
	Transitions []int
}

// Case says how a guard was constructed: at TotalLevel as in section 5 of
// Wei, Gurfinkel and Chechik, or by exact projection beyond the paper's
// fragment; at GroupLevel it is always CaseGroup.
type Case int

const (
	CaseA          Case = iota // one guard over total counters
	CaseB                      // several guards, all over total counters
	CaseC                      // group counters on the source state only: orbit formulas with summed bounds
	CaseProjection             // any other guard: existential projection of Dom(R_r) onto total counters
	CaseGroup                  // group level: the group's own guard, exactly
)

func (c Case) String() string {
	return [...]string{CaseA: "a", CaseB: "b", CaseC: "c", CaseProjection: "projection", CaseGroup: "group"}[c]
}

// Local returns the local transition that t moves by; nil for a
// rendezvous (Local -1).
func (m *Model) Local(t *Transition) *gsst.Transition {
	if t.Local < 0 {
		return nil
	}
	return &m.System.Transitions[t.Local]
}

// Counter returns the index of the counter of local state s and group g
// (g is ignored at TotalLevel).
func (m *Model) Counter(s, g int) int {
	if m.Level == TotalLevel {
		return s
	}
	return g*len(m.System.States) + s
}

// CounterName names counter i as the GSST language writes it: "#S" or
// "#S[g]".
func (m *Model) CounterName(i int) string {
	if i < 0 || i >= len(m.Counters) {
		return fmt.Sprintf("v%d", i)
	}
	c := m.Counters[i]
	if c.Group < 0 {
		return "#" + m.System.States[c.State]
	}
	return "#" + m.System.States[c.State] + "[" + m.System.Groups[c.Group].Name + "]"
}

// VarName names a model variable, for printing formulas: a counter as
// CounterName does, a shared variable by its name.
func (m *Model) VarName(v presburger.Var) string {
	if j := int(v) - len(m.Counters); j >= 0 && j < len(m.Shared) {
		return m.Shared[j].Name
	}
	return m.CounterName(int(v))
}

// TypedAtom writes an atom over the model's variables that reads a
// boolean or an enumeration as the language does (gsst.TypedAtom), for
// presburger.FormatAtoms and ctl.FormatAtoms; ok is false for any other
// atom.
func (m *Model) TypedAtom(f presburger.Cmp) (text string, prec int, ok bool) {
	return gsst.TypedAtom(f, m.VarName, m.SharedAt)
}

// FormatFormula writes f, a condition over the model's variables, in the
// expression language (see gsst.Spec.FormatFormula).
func (m *Model) FormatFormula(f presburger.Formula) string {
	return presburger.FormatAtoms(f, m.VarName, m.TypedAtom)
}

// FormatProperty writes f, a property over the model's variables, as
// ctl.FormatAtoms does with TypedAtom.
func (m *Model) FormatProperty(f ctl.Formula) string {
	return ctl.FormatAtoms(f, m.VarName, m.TypedAtom)
}

// TransitionName names t as "U -> V" (at TotalLevel) or "U -> V [g]"; a
// rendezvous as "rendezvous P -> P2, C -> C2" (with each part's group at
// GroupLevel).
func (m *Model) TransitionName(t *Transition) string {
	steps := m.System.Steps()
	if len(t.Steps) == 0 || t.Steps[0] < 0 || t.Steps[0] >= len(steps) || !validGroups(m.System, &steps[t.Steps[0]], t.Groups) {
		if t.From < 0 {
			return "a step that moves no process"
		}
		return fmt.Sprintf("%s -> %s", m.CounterName(t.From), m.CounterName(t.To))
	}
	return stepName(m.System, &steps[t.Steps[0]], t.Groups)
}

// validGroups reports whether groups is nil or names a group of sys for
// each part of st.
func validGroups(sys *gsst.System, st *gsst.Step, groups []int) bool {
	if groups == nil {
		return true
	}
	if len(groups) != len(st.Parts) {
		return false
	}
	for _, g := range groups {
		if g < 0 || g >= len(sys.Groups) {
			return false
		}
	}
	return true
}

// SharedAt returns the shared variable model variable x stands for, nil
// for a counter.
func (m *Model) SharedAt(x presburger.Var) *gsst.Shared {
	if j := int(x) - len(m.Counters); j >= 0 && j < len(m.Shared) {
		return &m.Shared[j]
	}
	return nil
}

// SharedValues returns the values of the shared variables in the model
// state x (a value per model variable); nil when the model has none.
func (m *Model) SharedValues(x []int) []int {
	if len(m.Shared) == 0 {
		return nil
	}
	return append([]int(nil), x[len(m.Counters):m.NumVars()]...)
}

// Totals returns the total counter of every local state in the model
// state x (a value per counter).
func (m *Model) Totals(x []int) []int {
	if m.Level == TotalLevel {
		return append([]int(nil), x[:len(m.Counters)]...)
	}
	out := make([]int, len(m.System.States))
	for i, c := range m.Counters {
		out[c.State] += x[i]
	}
	return out
}

// Groups returns the group counters [group][state] of the model state x,
// or nil at TotalLevel.
func (m *Model) Groups(x []int) [][]int {
	if m.Level == TotalLevel {
		return nil
	}
	out := make([][]int, len(m.System.Groups))
	for g := range out {
		out[g] = make([]int, len(m.System.States))
	}
	for i, c := range m.Counters {
		out[c.Group][c.State] = x[i]
	}
	return out
}

// Translate rewrites a formula over the system's counter variables
// (System.TotalVar, System.GroupVar) into one over the model's counters.
// At GroupLevel a total counter becomes the sum of its group counters; at
// TotalLevel a group counter has no counterpart and is an error.
func (m *Model) Translate(f presburger.Formula) (presburger.Formula, error) {
	counter := func(s, g int) presburger.Term { return presburger.VarTerm(presburger.Var(m.Counter(s, g))) }
	return translate(m.System, m.Level, f, counter, m.other)
}

// other translates a variable of the system that is not a counter: a
// shared variable to the model's, a fixed parameter to its value.
func (m *Model) other(v presburger.Var) (presburger.Term, error) {
	if j, ok := m.System.SharedOf(v); ok && j < len(m.Shared) {
		return presburger.VarTerm(presburger.Var(m.SharedVar(j))), nil
	}
	if k, ok := m.System.ParamOf(v); ok && m.System.Params[k].Fixed {
		return presburger.ConstTerm(int64(m.System.Params[k].Value)), nil
	}
	return presburger.Term{}, fmt.Errorf("variable %d is not a counter of the system", v)
}

// TranslateTerm rewrites a term over the system's variables (an update's
// right-hand side) into one over the model's variables.
func (m *Model) TranslateTerm(t presburger.Term) (presburger.Term, error) {
	var bad error
	out, ok := t.SubstExact(func(v presburger.Var) presburger.Term {
		if _, _, ok := m.System.Counter(v); ok {
			bad = fmt.Errorf("%s is a counter, which an update may not read", m.System.VarName(v))
			return presburger.VarTerm(v)
		}
		r, err := m.other(v)
		if err != nil && bad == nil {
			bad = err
		}
		return r
	})
	if bad != nil {
		return presburger.Term{}, errkind.Wrap(errkind.Input, bad)
	}
	if !ok {
		return presburger.Term{}, errBeyondInt64
	}
	return out, nil
}

// errBeyondInt64 refuses a formula or term whose translation to the
// model's variables has a coefficient or constant beyond int64 (a sum of
// total counters' coefficients, a parameter's value folded in).
var errBeyondInt64 = errkind.Errorf(errkind.Input, "a coefficient or constant of the counter model would be beyond the 64-bit integers")

// translate rewrites f, over the counter variables of sys, into the
// counters of a model at level whose counter of state s and group g is
// the term counter(s, g) (g is -1 at TotalLevel): its variable, or 0
// for a counter the model leaves out (ParamModel.Counter). other
// translates the variables that are not counters, or says why it
// cannot. An error is errkind.Input.
func translate(sys *gsst.System, level Level, f presburger.Formula, counter func(s, g int) presburger.Term, other func(presburger.Var) (presburger.Term, error)) (presburger.Formula, error) {
	var bad error
	fail := func(err error) {
		if bad == nil {
			bad = err
		}
	}
	out, exact := presburger.SubstExact(f, func(v presburger.Var) presburger.Term {
		s, g, ok := sys.Counter(v)
		switch {
		case !ok:
			t, err := other(v)
			if err == nil {
				return t
			}
			fail(err)
		case level == GroupLevel && g >= 0:
			return counter(s, g)
		case level == GroupLevel:
			var t presburger.Term
			for h := range sys.Groups {
				t = t.Add(counter(s, h))
			}
			return t
		case g >= 0:
			fail(fmt.Errorf("%s is a group counter, which the total-counter model does not have", sys.VarName(v)))
		default:
			return counter(s, -1)
		}
		return presburger.VarTerm(v)
	})
	if bad != nil {
		return nil, errkind.Wrap(errkind.Input, bad)
	}
	if !exact {
		return nil, errBeyondInt64
	}
	return out, nil
}

// translateProperties returns the properties of sys with their atoms
// translated by tr. A property the model cannot express is errkind.Input.
func translateProperties(sys *gsst.System, tr func(presburger.Formula) (presburger.Formula, error)) ([]Property, error) {
	var out []Property
	for i := range sys.Properties {
		p := &sys.Properties[i]
		var bad error
		f := ctl.MapAtoms(p.Formula, func(a presburger.Formula) presburger.Formula {
			t, err := tr(a)
			if err != nil && bad == nil {
				bad = err
			}
			return t
		})
		if bad != nil {
			return nil, errkind.Wrap(errkind.Input, &gsst.Error{Pos: p.Pos, Msg: fmt.Sprintf("property %s: %v; check it on the group-counter model", p.Name, bad)})
		}
		out = append(out, Property{Name: p.Name, Text: p.Text, Pos: p.Pos, Formula: f})
	}
	return out, nil
}

// MentionsGroups reports whether a system formula reads a group counter,
// which only the group-counter model can evaluate.
func MentionsGroups(sys *gsst.System, f presburger.Formula) bool { return !sys.IsTotal(f) }

// FairnessLevel returns the coarsest level that can express the
// fairness constraints of sys: TotalLevel unless a justice condition
// reads a group counter or a weak fairness constraint is per group.
func FairnessLevel(sys *gsst.System) Level {
	for _, j := range sys.Fairness.Justice {
		if MentionsGroups(sys, j.Formula) {
			return GroupLevel
		}
	}
	for _, w := range sys.Fairness.Weak {
		if w.Group >= 0 {
			return GroupLevel
		}
	}
	return TotalLevel
}

// PropertyLevel returns the coarsest level that can check property p of
// sys: TotalLevel unless one of its atoms reads a group counter.
func PropertyLevel(sys *gsst.System, p *gsst.Property) Level {
	for _, a := range ctl.Atoms(p.Formula) {
		if MentionsGroups(sys, a) {
			return GroupLevel
		}
	}
	return TotalLevel
}

// GroupReason says in words why sys needs the group-counter model
// whatever certification says: a property that reads group counters, or,
// when fairness counts, a fairness constraint the total-counter model
// cannot express (a justice condition over group counters, weak fairness
// per group), or a broadcast restricted to groups. It returns "" when the total-counter model can express
// them all. This is the first half of the one rule by which vsym picks
// a model's level (package analysis has the second: certification).
// A question about safety for every size asks it without fairness: the
// parametric model carries none.
func GroupReason(sys *gsst.System, fairness bool) string {
	for i := range sys.Properties {
		if p := &sys.Properties[i]; PropertyLevel(sys, p) == GroupLevel {
			return fmt.Sprintf("property %s reads group counters, which only the group-counter model keeps", p.Name)
		}
	}
	if why := restrictedBroadcast(sys); why != "" {
		return why
	}
	if !fairness {
		return ""
	}
	for _, j := range sys.Fairness.Justice {
		if MentionsGroups(sys, j.Formula) {
			return fmt.Sprintf("justice condition %s reads group counters, which only the group-counter model keeps", j.Text)
		}
	}
	for i := range sys.Fairness.Weak {
		if w := &sys.Fairness.Weak[i]; w.Group >= 0 {
			return fmt.Sprintf("weak fairness of %s is per group, which only the group-counter model keeps", sys.WeakName(w))
		}
	}
	return ""
}

// SpecLevel returns the coarsest level that can check every property of
// sys under its fairness constraints (and express its steps: a broadcast
// restricted to groups needs the group-counter model).
func SpecLevel(sys *gsst.System) Level {
	if FairnessLevel(sys) == GroupLevel || restrictedBroadcast(sys) != "" {
		return GroupLevel
	}
	for i := range sys.Properties {
		if PropertyLevel(sys, &sys.Properties[i]) == GroupLevel {
			return GroupLevel
		}
	}
	return TotalLevel
}
