package counterabs

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// ParamModel is the counter model of a GSST for all its instances at
// once: the group sizes are symbolic, so the counters are unbounded and
// each pool sums to a size variable (or to n) instead of a number. It is
// the input of a safety prover for every number of processes; it is not
// for the engines, which need finite models (Model).
//
// Variables: counter i is presburger.Var(i), as in Model; then SizeVar(g)
// for each group (the group's size, in its range; a fixed group's is its
// size), then NVar (n, the sum of the sizes), then the local variables of
// the guards (LocalVar). Guards, initial values and the atoms of
// Properties are over these variables.
//
// At TotalLevel (BuildParamTotal: the system is certified fully virtually
// symmetric for every size) a guard is the exact existential abstraction
// of Dom(R_r): "some configuration with these totals, in the instance of
// these sizes, lets a process take r". It is written with existentially
// read local variables, the group counters of that configuration, so that
// no quantifier elimination is needed: see ParamTransition. At GroupLevel
// (BuildParamGroup, any system) each group's transition has the group's
// own guard and no local variables.
//
// A group-level model built with RunSteps is sparse: it has a counter
// #S[g] only where gsst's MayOccupy allows a process of g in S, and reads
// every other group counter as the constant 0, in guards, properties,
// fairness and the initial set alike; its pools list the counters it
// has. This is sound because with RunSteps the model is exact on the
// reachable configurations only, and a counter MayOccupy rules out is 0
// in every one of them: reading it as 0 changes no reachable state, no
// step and no verdict. Where a step would move a process into a state
// its group never occupies, MayOccupy found that no run takes it (it
// would allow the state otherwise), and the model leaves it out as it
// leaves out the steps out of such states; a transfer out of one moves
// nobody and is left out of its step. Counter says which counter, if
// any, is a group's in a state: no other code numbers them.
type ParamModel struct {
	System   *gsst.System
	Level    Level
	Counters []Counter // as in Model
	Pools    []ParamPool
	// Init is the initial value of each counter, over the size
	// variables: the only one when the system has one initial
	// configuration (SingleInitial), else that of the first of them
	// (all of a spread group's processes in its first state).
	Init []presburger.Term
	// Initial is every initial state, over the counters, the shared
	// variables and the parameters: Init and the shared variables'
	// initial values as equations, or the system's initial set
	// (param_initial.go).
	Initial     presburger.Formula
	Transitions []ParamTransition
	// Properties are the system's properties over the model's variables
	// (a total counter is a sum at GroupLevel; n is NVar).
	Properties []Property
	// Reason says in words why the model has its level (BuildParam).
	Reason string
	// Cert is the certification for all sizes, when it ran.
	Cert *detect.Report
	// SumFacts are the identities on the pools' sums (each pool's
	// counters sum to its size, n to the sizes) by which ShortenSums
	// rewrote some atom of the guards or properties, as equations;
	// nil when it rewrote none. An invariant of the model is a
	// certificate for the guards and properties as written when it
	// implies them (WithSumFacts).
	SumFacts presburger.Formula

	// Shared are the system's shared variables that some step assigns
	// or that start at a value not a constant (a range, a term over the
	// parameters), state variables of the model (SharedVar; SharedIndex
	// gives each one's index in System.Shared); Initial says their
	// initial values. A shared variable no step assigns keeps its
	// initial value in every run: when that is a constant, the model
	// reads it as that constant, so that a variable nothing changes
	// changes nothing of the model.
	Shared []gsst.Shared
	// Constraint is what the parameters of a run satisfy beyond their
	// Domain ranges (SizeBounds): the system's assumption and, for a
	// group whose size is a term over the parameters, that its size
	// variable equals the term. It reads ParamVar, SizeVar and NVar
	// only; True for a system without parameters.
	Constraint presburger.Formula
	// Scope says, for a system with parameters, which instances the model
	// has: the parameter values satisfying the assumption at which every
	// group has at least one process. Empty otherwise.
	Scope string

	byName      map[string]int // the index in Properties of each property's name
	counterAt   []int          // at GroupLevel, Counter's answer for group g and state s at g*len(System.States)+s (-1: none)
	locals      []Counter      // what each local variable counts: #State[Group]
	sharedIndex []int          // the index in System.Shared of each of Shared
	initValue   []presburger.Term
	initFixed   []bool // InitialValue
}

// ParamPool is a set of counters whose sum is Sum (a size variable, or
// NVar) in every state of the model.
type ParamPool struct {
	Counters []int
	Sum      presburger.Term
}

// ParamTransition is one move of a ParamModel: when Guard holds, counter
// From decreases by one and counter To increases by one, and the rest of
// its step happens at once, read in the state before it (StepTerms):
// Also moves one more process per entry (the other parts of a
// rendezvous), Transfers move every process a counter holds before the
// step, except the movers, into another counter (a broadcast), and
// Assign sets shared variables. Guard implies that the movers exist
// (distinct processes) and that every assigned value lies in its
// variable's domain.
//
// Locals are the variables of Guard that are neither counters nor size
// variables nor NVar: Guard holds in a state when some integer values of
// them make it true (in a Horn clause they are body-only variables, which
// are existentially quantified). At TotalLevel they are group counters
// #S[g] of a configuration with the state's totals; Guard constrains them
// to be nonnegative itself.
//
// As in Model, a transition is a compiled form of steps of the system:
// Steps are their indices in System.Steps() (at GroupLevel one, taken by
// processes of Groups, one per part; at TotalLevel the guard blocks of
// one local transition that share an update, or one rendezvous), and
// what it does is derived from them in one place (numbering.compile).
type ParamTransition struct {
	From, To  int
	Guard     presburger.Formula
	Locals    []presburger.Var
	Steps     []int
	Groups    []int
	Also      []Move
	Transfers []Move
	Assign    []Assign // Var is a model variable (SharedVar), Value over the model's variables
	// Local, Group and Rendezvous say where the steps were written, as
	// in Transition: Local is the index of the local transition in
	// System.Transitions (-1 for a rendezvous), Rendezvous that of the
	// rendezvous (-1 for a local transition), Group the group taking a
	// local transition at GroupLevel (-1 otherwise).
	Local       int
	Group       int
	Rendezvous  int
	Environment int // the environment step's index (-1 for the others)
}

// Moves returns the moves of t's movers: From -> To, then Also; none
// for a step that moves no process (From is then -1).
func (t *ParamTransition) Moves() []Move { return movesOf(t.From, t.To, t.Also) }

// Counter returns the index in Counters of the counter of group g's
// processes in local state s (of state s at TotalLevel, where g is not
// read), and whether the model has that counter: a sparse model (see
// ParamModel) has none for a state g never occupies, which it reads as
// 0 (CounterTerm).
func (m *ParamModel) Counter(s, g int) (i int, ok bool) {
	if m.Level == TotalLevel {
		return s, true
	}
	i = m.counterAt[g*len(m.System.States)+s]
	return i, i >= 0
}

// CounterTerm returns the counter of group g's processes in local state s
// (of state s at TotalLevel) as a term: its variable, or 0 when the
// model has no such counter (Counter).
func (m *ParamModel) CounterTerm(s, g int) presburger.Term {
	if i, ok := m.Counter(s, g); ok {
		return presburger.VarTerm(presburger.Var(i))
	}
	return presburger.Term{}
}

// Sparse reports whether m leaves out counters of states a group never
// occupies (see ParamModel): an invariant over m does not write them,
// and they are 0.
func (m *ParamModel) Sparse() bool { return slices.Contains(m.counterAt, -1) }

// SizeVar is the variable of group g's size.
func (m *ParamModel) SizeVar(g int) presburger.Var { return presburger.Var(len(m.Counters) + g) }

// NVar is the variable of n, the number of processes.
func (m *ParamModel) NVar() presburger.Var {
	return presburger.Var(len(m.Counters) + len(m.System.Groups))
}

// SharedVar is the variable of shared variable j, a state variable. The
// shared variables follow NVar.
func (m *ParamModel) SharedVar(j int) presburger.Var { return m.NVar() + 1 + presburger.Var(j) }

// ParamVar is the variable of parameter k, a constant of a run. The
// parameters follow the shared variables.
func (m *ParamModel) ParamVar(k int) presburger.Var {
	return m.NVar() + 1 + presburger.Var(len(m.Shared)+k)
}

// LocalVar is the k-th local variable of the guards. Each transition has
// its own. The locals follow the parameters.
func (m *ParamModel) LocalVar(k int) presburger.Var {
	return m.NVar() + 1 + presburger.Var(len(m.Shared)+len(m.System.Params)+k)
}

// NumVars is the number of variables the model uses: counters, sizes, n,
// shared variables, parameters and locals. Variables from NumVars on are
// free for the caller (the next-state copies of TransitionSystem start
// there).
func (m *ParamModel) NumVars() int { return int(m.LocalVar(len(m.locals))) }

// NumState is the number of state variables: the counters, then the
// shared variables. State variable i is presburger.Var(i) for a counter
// and SharedVar(i-len(Counters)) for a shared variable.
func (m *ParamModel) NumState() int { return len(m.Counters) + len(m.Shared) }

// StateVar is state variable i (see NumState).
func (m *ParamModel) StateVar(i int) presburger.Var {
	if i < len(m.Counters) {
		return presburger.Var(i)
	}
	return m.SharedVar(i - len(m.Counters))
}

// VarName names a variable of the model as the GSST language would write
// it: counters "#S" or "#S[g]", sizes "|g|", n, and locals by the group
// counter they stand for.
func (m *ParamModel) VarName(v presburger.Var) string {
	i := int(v)
	d := len(m.System.Groups)
	switch {
	case i >= 0 && i < len(m.Counters):
		return counterName(m.System, m.Counters[i])
	case i >= len(m.Counters) && i < len(m.Counters)+d:
		return "|" + m.System.Groups[i-len(m.Counters)].Name + "|"
	case v == m.NVar():
		if m.nNamed() {
			return "|processes|"
		}
		return "n"
	case v >= m.SharedVar(0) && v < m.ParamVar(0):
		return m.Shared[v-m.SharedVar(0)].Name
	case v >= m.ParamVar(0) && v < m.LocalVar(0):
		return m.System.Params[v-m.ParamVar(0)].Name
	case v >= m.LocalVar(0) && i < m.NumVars():
		return counterName(m.System, m.locals[v-m.LocalVar(0)])
	case i >= m.NumVars() && i < m.NumVars()+m.NumState():
		return m.VarName(m.StateVar(i-m.NumVars())) + "'"
	}
	return fmt.Sprintf("v%d", v)
}

// TypedAtom writes an atom over the model's variables that reads a
// boolean or an enumeration as the language does (gsst.TypedAtom), for
// presburger.FormatAtoms; ok is false for any other atom, and for one
// over the variables after a step (NextVar).
func (m *ParamModel) TypedAtom(f presburger.Cmp) (text string, prec int, ok bool) {
	return gsst.TypedAtom(f, m.VarName, func(v presburger.Var) *gsst.Shared {
		if v >= m.SharedVar(0) && v < m.ParamVar(0) {
			return &m.Shared[v-m.SharedVar(0)]
		}
		return nil
	})
}

// FormatFormula writes f, a condition over the model's variables, in the
// expression language (see gsst.Spec.FormatFormula).
func (m *ParamModel) FormatFormula(f presburger.Formula) string {
	return presburger.FormatAtoms(f, m.VarName, m.TypedAtom)
}

// nNamed reports whether a parameter of the system is called n: then n
// is that parameter and the number of processes has no name.
func (m *ParamModel) nNamed() bool {
	for _, p := range m.System.Params {
		if p.Name == "n" {
			return true
		}
	}
	return false
}

// NextVar is the value of state variable i (see NumState) after a step,
// in TransitionSystem: the variables after NumVars, named "#S'" or "x'"
// by VarName.
func (m *ParamModel) NextVar(i int) presburger.Var { return presburger.Var(m.NumVars() + i) }

// ParamSystem is a ParamModel as an integer transition system: the
// description a safety prover for unbounded sizes takes. It has the shape
// of presburger.TransitionSystem without Bad, which depends on the
// property asked: Question adds it.
//
// A state gives every counter (Vars) a value; the parameters (the size
// variables and n) keep theirs along a run. Domain bounds every state
// variable (0..) and parameter (its range). Init is the model's Initial
// (the counters at their initial values, or in the initial set) and n
// the sum of the sizes. Trans[i] is model
// transition i: its guard, read in the current state, with Next[j] the
// value of counter j afterwards (the source one less, the target one
// more, the others unchanged); the guard's local variables are free in
// Trans[i] and existentially quantified over every integer (the guard
// itself makes them nonnegative).
type ParamSystem struct {
	Vars   []presburger.Var
	Next   []presburger.Var
	Params []presburger.Var
	Domain []presburger.Bound
	Init   presburger.Formula
	Trans  []presburger.Formula
}

// TransitionSystem returns the model as an integer transition system.
// Its runs are exactly the model's paths, for every choice of the sizes
// in their ranges (and of the parameters satisfying Constraint).
//
// The state variables are the counters and the shared variables; the
// parameters are the sizes, n and the system's parameters. Init also
// gives the shared variables their initial values and asks for
// Constraint; every Trans[i] asks for Constraint too, which changes no
// run (the parameters keep the values Init saw) but lets an invariant
// check read the assumption at every step.
// Question returns the system asking whether a state where bad holds
// is reachable. A nil bad asks nothing: the transitions of a liveness
// question, whose readers look at no bad states (package prove tells
// the two apart).
func (ps ParamSystem) Question(bad presburger.Formula) presburger.TransitionSystem {
	return presburger.TransitionSystem{Vars: ps.Vars, Next: ps.Next, Params: ps.Params, Domain: ps.Domain, Init: ps.Init, Trans: ps.Trans, Bad: bad}
}

func (m *ParamModel) TransitionSystem() ParamSystem {
	ts := ParamSystem{Domain: m.Ranges()}
	for i := range m.NumState() {
		ts.Vars = append(ts.Vars, m.StateVar(i))
		ts.Next = append(ts.Next, m.NextVar(i))
	}
	for _, b := range m.SizeBounds() {
		ts.Params = append(ts.Params, b.Var)
	}
	for k := range m.System.Params {
		ts.Params = append(ts.Params, m.ParamVar(k))
	}
	constraint := m.constraint()
	ts.Init = m.InitialStates()
	for i := range m.Transitions {
		t := &m.Transitions[i]
		parts := []presburger.Formula{t.Guard}
		if len(m.System.Params) > 0 {
			parts = append(parts, constraint)
		}
		// Most of a step's atoms say x' = x: built directly, their
		// monomials from one slab (a counter system of 500 rules over
		// 250 places has 125,000 of them).
		changes := m.StepChanges(t)
		slab := make([]presburger.Mono, 0, 2*m.NumState())
		for j := range m.NumState() {
			x, x1 := m.StateVar(j), m.NextVar(j)
			if len(changes) > 0 && changes[0].Index == j {
				parts = append(parts, presburger.Compare(presburger.VarTerm(x1), presburger.Eq, changes[0].Next))
				changes = changes[1:]
				continue
			}
			if x < x1 {
				slab = append(slab, presburger.Mono{Var: x, Coef: -1}, presburger.Mono{Var: x1, Coef: 1})
				parts = append(parts, presburger.Cmp{Op: presburger.Eq, T: presburger.Term{Monos: slab[len(slab)-2 : len(slab) : len(slab)]}})
				continue
			}
			parts = append(parts, presburger.Compare(presburger.VarTerm(x1), presburger.Eq, presburger.VarTerm(x)))
		}
		ts.Trans = append(ts.Trans, presburger.Conj(parts...))
	}
	return ts
}

// InitialStates returns the Init of TransitionSystem: Initial, with the
// groups' sizes summing to n and the constraint on the parameters.
func (m *ParamModel) InitialStates() presburger.Formula {
	return presburger.Conj(m.Initial, m.sizeSum(), m.constraint())
}

// typeRanges is Ranges with each shared variable's declared type in
// place of the range the model narrows it to.
func (m *ParamModel) typeRanges() []presburger.Bound {
	out := m.Ranges()
	for j := range m.Shared {
		v := &m.System.Shared[m.SharedIndex(j)]
		x := m.SharedVar(j)
		b := presburger.Bound{Var: x, Lo: int64(v.Lo), Hi: int64(v.Hi), NoHi: v.Unbounded}
		if v.Unbounded {
			b.Hi = 0
		}
		for i := range out {
			if out[i].Var == x {
				out[i] = b
			}
		}
	}
	return out
}

// Ranges returns the Domain of TransitionSystem: each state variable's
// range (a counter's 0.., a shared variable's as the model narrows it),
// then the size variables' and the parameters', for the methods that
// read the ranges alone and need not build every step.
func (m *ParamModel) Ranges() []presburger.Bound {
	var out []presburger.Bound
	for i := range m.NumState() {
		x := m.StateVar(i)
		if i < len(m.Counters) {
			out = append(out, presburger.AtLeast(x, 0))
			continue
		}
		out = append(out, m.Shared[i-len(m.Counters)].Bounds(x))
	}
	out = append(out, m.SizeBounds()...)
	for k, p := range m.System.Params {
		if p.Fixed {
			// A parameter of a family fixed at its value (gsst's
			// PinParams): no run reads another.
			v := int64(p.Value)
			out = append(out, presburger.Bound{Var: m.ParamVar(k), Lo: v, Hi: v})
			continue
		}
		out = append(out, presburger.AtLeast(m.ParamVar(k), 0))
	}
	return out
}

// constraint is Constraint, True when nil.
func (m *ParamModel) constraint() presburger.Formula {
	if m.Constraint == nil {
		return presburger.True
	}
	return m.Constraint
}

// StepTerms returns the value of every state variable (see NumState)
// after a step by t, as a term over the state before it: the movers'
// counters one less and one more, each transfer's source emptied of
// every process but the movers leaving it and its target filled with
// them, and the assigned shared variables their values.
func (m *ParamModel) StepTerms(t *ParamTransition) []presburger.Term {
	out := make([]presburger.Term, m.NumState())
	// Each variable's own term, from one slab: a model of 500 counters
	// asks this of each of its 500 steps, and a slice each cost a fifth
	// of what prove allocated on such a net.
	slab := make([]presburger.Mono, len(out))
	for i := range out {
		slab[i] = presburger.Mono{Var: m.StateVar(i), Coef: 1}
		out[i] = presburger.Term{Monos: slab[i : i+1 : i+1]}
	}
	for _, c := range m.StepChanges(t) {
		out[c.Index] = c.Next
	}
	return out
}

// Change is a state variable that a step changes, by its index (see
// NumState), and its value after the step, as a term over the state
// before it.
type Change struct {
	Index int
	Next  presburger.Term
}

// StepChanges returns the state variables a step by t changes, in
// increasing order of their indices, with their values after it (as
// StepTerms gives them); every other state variable keeps its value. A
// model of 500 counters has 500 steps that each change a few: the
// readers that need only those (Stutters, the keys of steps, the
// transition relation's x' = x atoms) take them without a term for
// every variable of every step.
func (m *ParamModel) StepChanges(t *ParamTransition) []Change {
	next := map[int]presburger.Term{}
	at := func(i int) presburger.Term {
		if x, ok := next[i]; ok {
			return x
		}
		return presburger.VarTerm(m.StateVar(i))
	}
	leaving := map[int]int64{}
	for _, mv := range t.Moves() {
		next[mv.From] = at(mv.From).Add(presburger.ConstTerm(-1))
		next[mv.To] = at(mv.To).Add(presburger.ConstTerm(1))
		leaving[mv.From]++
	}
	for _, tr := range t.Transfers {
		// The others in tr.From: all it held before the step but the
		// movers that left it.
		others := presburger.VarTerm(presburger.Var(tr.From)).Add(presburger.ConstTerm(-leaving[tr.From]))
		next[tr.From] = at(tr.From).Add(others.Scale(-1))
		next[tr.To] = at(tr.To).Add(others)
	}
	for _, a := range t.Assign {
		next[len(m.Counters)+a.Var-int(m.SharedVar(0))] = a.Value
	}
	out := make([]Change, 0, len(next))
	for _, i := range slices.Sorted(maps.Keys(next)) {
		if x := next[i]; !x.IsVar(m.StateVar(i)) {
			out = append(out, Change{Index: i, Next: x})
		}
	}
	return out
}

// Property returns the property of m named name, nil when it has none.
func (m *ParamModel) Property(name string) *Property {
	if i, ok := m.byName[name]; ok {
		return &m.Properties[i]
	}
	return nil
}

// Stutters reports whether a step by t leaves every state variable as
// it was (StepTerms): its movers and transfers stay where they are and
// each assignment writes the variable's own value, as the idle
// self-loops of ByMC's automata (a location's rule "when (true) do {
// unchanged(...) }"). Such a step adds no state to a run: the states a
// model reaches are the same without it, which is what a safety
// question asks (a liveness question may not: a self-loop can keep a
// run from deadlocking, and fairness can name it).
func (m *ParamModel) Stutters(t *ParamTransition) bool { return len(m.StepChanges(t)) == 0 }

// counterName writes what c counts: "#S" or "#S[g]".
func counterName(sys *gsst.System, c Counter) string {
	if c.Group < 0 {
		return "#" + sys.States[c.State]
	}
	return "#" + sys.States[c.State] + "[" + sys.Groups[c.Group].Name + "]"
}

// TransitionName names t as "U -> V" (at TotalLevel) or "U -> V [g]",
// a rendezvous as "rendezvous U -> V [g], U2 -> V2 [h]" (without the
// groups at TotalLevel).
func (m *ParamModel) TransitionName(t *ParamTransition) string {
	return stepName(m.System, &m.System.Steps()[t.Steps[0]], t.Groups)
}

// numbering returns how m numbers counters and shared variables.
func (m *ParamModel) numbering() numbering {
	sys := m.System
	return numbering{
		sys:       sys,
		counter:   m.Counter,
		mayHold:   func(g int) bool { return mayHold(sys, g) },
		sharedVar: func(j int) int { return int(m.SharedVar(slices.Index(m.sharedIndex, j))) },
		term:      m.translateTerm,
	}
}

// translateTerm writes an update's right-hand side over the model's
// variables: shared variables, parameters, sizes and n (an update reads
// no counter).
func (m *ParamModel) translateTerm(t presburger.Term) (presburger.Term, error) {
	var bad error
	out, ok := t.SubstExact(func(v presburger.Var) presburger.Term {
		if !m.isSystemVar(v) && bad == nil {
			bad = errkind.Errorf(errkind.Internal, "counterabs: an update reads %s", m.System.VarName(v))
		}
		return m.systemTerm(v)
	})
	if bad == nil && !ok {
		bad = errBeyondInt64 // keepVariable keeps the variables that would fold beyond int64
	}
	return out, bad
}

// transition returns the transition of m taking the steps (indices into
// System.Steps(), which share their effect) by processes of groups (nil
// at the total level), compiled from them as Model.transition does; the
// caller sets Guard and Locals.
func (m *ParamModel) transition(steps, groups []int) (ParamTransition, error) {
	c, err := m.numbering().compile(steps, groups)
	if err != nil {
		return ParamTransition{}, err
	}
	return ParamTransition{From: c.from(), To: c.to(), Also: c.also(), Transfers: c.transfers, Assign: c.assign,
		Steps: steps, Groups: groups, Local: c.local, Group: c.group, Rendezvous: c.rendezvous, Environment: c.environment}, nil
}

// SizeBounds returns the ranges of the size variables and of NVar (open
// above for an unbounded range). A group whose size is a term over the
// parameters has the range 1.. (Constraint ties it to the term).
func (m *ParamModel) SizeBounds() []presburger.Bound {
	out := m.System.SizeBounds()
	n := &out[len(out)-1]
	*n = presburger.Bound{Var: n.Var}
	for g := range m.System.Groups {
		if hasSizeTerm(&m.System.Groups[g]) {
			out[g] = presburger.AtLeast(out[g].Var, 1)
		}
		n.Lo += out[g].Lo
		n.Hi += out[g].Hi
		n.NoHi = n.NoHi || out[g].NoHi
	}
	if n.NoHi {
		n.Hi = 0
	}
	for i := range out {
		out[i].Var = m.paramVar(out[i].Var)
	}
	return out
}

// hasSizeTerm reports whether g's size is a term over the parameters.
func hasSizeTerm(g *gsst.Group) bool { return g.OverParams() }

// Domain returns the states of the model as a formula: every counter
// nonnegative, every pool summing to its size, n the sum of the sizes.
// Guards are exact within it, which every reachable state satisfies.
func (m *ParamModel) Domain() presburger.Formula {
	var parts []presburger.Formula
	for _, p := range m.Pools {
		parts = append(parts, poolConstraints(p.Counters, p.Sum, false)...)
	}
	return presburger.Conj(append(parts, m.sizeSum())...)
}

// sizeSum is "n = the sum of the sizes" over the model's variables.
func (m *ParamModel) sizeSum() presburger.Formula {
	return presburger.Rename(m.System.SizeSum(), m.paramVar)
}

// paramVar maps the system's size variables, NVar and parameters to
// the model's; any other variable to itself.
func (m *ParamModel) paramVar(v presburger.Var) presburger.Var {
	if k, ok := m.System.ParamOf(v); ok {
		return m.ParamVar(k)
	}
	g, ok := m.System.Param(v)
	switch {
	case !ok:
		return v
	case g < 0:
		return m.NVar()
	}
	return m.SizeVar(g)
}

// systemTerm writes a variable of the system that is no counter (a size
// variable, NVar, a shared variable or a parameter) over the model's
// variables: a shared variable that no step assigns is its initial
// value.
func (m *ParamModel) systemTerm(v presburger.Var) presburger.Term {
	j, ok := m.System.SharedOf(v)
	if !ok {
		return presburger.VarTerm(m.paramVar(v))
	}
	if k := slices.Index(m.sharedIndex, j); k >= 0 {
		return presburger.VarTerm(m.SharedVar(k))
	}
	return presburger.ConstTerm(int64(m.System.Shared[j].Init))
}

// SharedIndex returns the index in System.Shared of the model's shared
// variable j.
func (m *ParamModel) SharedIndex(j int) int { return m.sharedIndex[j] }

// isSystemVar reports whether v is a size variable, NVar, a shared
// variable or a parameter of the system: the variables other than
// counters that paramVar maps.
func (m *ParamModel) isSystemVar(v presburger.Var) bool {
	if _, ok := m.System.SharedOf(v); ok {
		return true
	}
	if _, ok := m.System.ParamOf(v); ok {
		return true
	}
	_, ok := m.System.Param(v)
	return ok
}

// unaryForms rewrites the untils of f whose left side is true as the
// unary operators they are, E[true U r] as EF r and A[true U r] as AF
// r, and then !EF x as AG !x, each exactly, from the top down: the
// response properties written "A[true U q]" or "!E[true U !(p -> AF
// q)]" are read as AF q and AG (p -> AF q).
func unaryForms(f ctl.Formula) ctl.Formula {
	switch f := f.(type) {
	case ctl.Until:
		l, isState := stateFormula(f.L)
		if !isState || l != presburger.True {
			return ctl.Until{All: f.All, L: unaryForms(f.L), R: unaryForms(f.R)}
		}
		op := ctl.EF
		if f.All {
			op = ctl.AF
		}
		return ctl.Unary{Op: op, X: unaryForms(f.R)}
	case ctl.Not:
		x := unaryForms(f.X)
		switch x := x.(type) {
		case ctl.Not:
			return x.X
		case ctl.Unary:
			if x.Op == ctl.EF {
				if n, isNot := x.X.(ctl.Not); isNot {
					return ctl.Unary{Op: ctl.AG, X: n.X}
				}
				return ctl.Unary{Op: ctl.AG, X: ctl.Not{X: x.X}}
			}
		}
		return ctl.Not{X: x}
	case ctl.Binary:
		return ctl.Binary{Op: f.Op, L: unaryForms(f.L), R: unaryForms(f.R)}
	case ctl.Unary:
		return ctl.Unary{Op: f.Op, X: unaryForms(f.X)}
	}
	return f
}

// SafetyFormula returns phi when f is "AG phi" with phi a condition on
// one state (atoms under !, &, | and ->, no temporal operator), as one
// presburger formula: the properties a safety prover can decide. The
// same property written otherwise is read too: "!EF c" and "!E[true U
// c]" as AG !c, "AG AG phi" as AG phi, and a conjunction of safety
// properties ("AG p & AG q") as AG of the conjunction. ok is false for
// any other formula.
func SafetyFormula(f ctl.Formula) (phi presburger.Formula, ok bool) {
	switch f := f.(type) {
	case ctl.Not:
		var c presburger.Formula
		switch x := f.X.(type) {
		case ctl.Unary:
			if x.Op != ctl.EF {
				return nil, false
			}
			c, ok = stateFormula(x.X)
		case ctl.Until:
			if l, isState := stateFormula(x.L); x.All || !isState || l != presburger.True {
				return nil, false
			}
			c, ok = stateFormula(x.R)
		}
		if !ok {
			return nil, false
		}
		return presburger.Negation(c), true
	case ctl.Binary:
		if f.Op != ctl.And {
			return nil, false
		}
		l, okl := SafetyFormula(f.L)
		r, okr := SafetyFormula(f.R)
		if !okl || !okr {
			return nil, false
		}
		return presburger.Conj(l, r), true
	case ctl.Unary:
		if f.Op != ctl.AG {
			return nil, false
		}
		if phi, ok := stateFormula(f.X); ok {
			return phi, true
		}
		return SafetyFormula(f.X) // AG AG phi
	}
	return nil, false
}

// Premise splits f into the premise on the initial configuration and
// the rest: "c -> g", with c a condition on one state and g not one,
// holds when g holds from every initial configuration where c holds
// (ByMC's "loc1 == 0 -> [](...)": no correct process starts with 1).
// It reads f in one normal form, whatever its spelling: f's disjuncts,
// the negations pushed through !, &, | and -> (not through a temporal
// operator), are conditions d1, ..., dk on one state and one other
// formula g, and the premise is !d1 & ... & !dk. So premises nest ("c1
// -> c2 -> g" has premise c1 & c2), "d | g" is "!d -> g" (ByMC's
// translation writes nbacr's validity so), "!(c & h)" is "c -> !h" (c
// -> AG q written "!(c & EF !q)"), and the contrapositive "h -> !c" is
// "c -> !h", each either way round. The premise is true, and g is f,
// when f has no such premise: f is a condition on one state, or has
// two or more other disjuncts.
func Premise(f ctl.Formula) (premise presburger.Formula, g ctl.Formula) {
	var ps []presburger.Formula
	for _, d := range disjuncts(f, false, false) {
		if c, isState := stateFormula(d); isState {
			ps = append(ps, presburger.Negation(c))
			continue
		}
		if g != nil {
			return presburger.True, f
		}
		g = d
	}
	if g == nil {
		return presburger.True, f
	}
	return presburger.Conj(ps...), g
}

// PremisedSafety recognises the safety properties a prover decides,
// "AG phi" after a premise (Premise): "c -> AG phi" is AG phi from the
// initial configurations where c holds, "AG phi" has the premise true.
// ok is false for any other formula.
func PremisedSafety(f ctl.Formula) (premise, phi presburger.Formula, ok bool) {
	premise, g := Premise(f)
	phi, ok = SafetyFormula(g)
	return premise, phi, ok
}

// PremisedLiveness recognises the response properties of
// LivenessFormula after a premise (Premise).
func PremisedLiveness(f ctl.Formula) (premise, start, trigger, q presburger.Formula, ok bool) {
	premise, g := Premise(f)
	start, trigger, q, ok = LivenessFormula(g)
	return premise, start, trigger, q, ok
}

// StateFormula converts a CTL formula without temporal operators into
// the presburger formula it stands for; ok is false for any other.
func StateFormula(f ctl.Formula) (presburger.Formula, bool) { return stateFormula(f) }

// stateFormula is StateFormula.
func stateFormula(f ctl.Formula) (presburger.Formula, bool) {
	switch f := f.(type) {
	case ctl.Atom:
		return f.P, true
	case ctl.Not:
		x, ok := stateFormula(f.X)
		return presburger.Negation(x), ok
	case ctl.Binary:
		l, okl := stateFormula(f.L)
		r, okr := stateFormula(f.R)
		if !okl || !okr {
			return nil, false
		}
		switch f.Op {
		case ctl.And:
			return presburger.Conj(l, r), true
		case ctl.Or:
			return presburger.Disj(l, r), true
		case ctl.Implies:
			return presburger.Disj(presburger.Negation(l), r), true
		}
	}
	return nil, false
}

// BuildParam returns the parametric counter model of sys: the
// total-counter model when sys is certified fully virtually symmetric for
// every size in its ranges (certified by detect.Certify with solver), and
// the group-counter model otherwise, with the reason in Reason. A
// certification that cannot decide also gives the group-counter model,
// which is exact for any system. A property that reads group counters
// makes it the group-counter model without certifying. Of opts it reads
// OnProgress and FirstViolation, for the certification, Certified, and
// RunSteps.
func BuildParam(ctx context.Context, sys *gsst.System, solver presburger.Solver, opts ...Option) (*ParamModel, error) {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	why := GroupReason(sys, false)
	if why == "" && sharedSpread(sys) != "" {
		why = sharedSpread(sys) + " (the parametric total-counter model states an initial set where the groups that spread over a state spread over the same states)"
	}
	if why != "" {
		m, err := BuildParamGroup(sys, opts...)
		if m != nil {
			m.Reason = why
		}
		return m, err
	}
	cert := cfg.cert
	if cert == nil || !cert.System.SameSteps(sys) {
		var err error
		certOpts := []detect.Option{detect.OnProgress(cfg.progress)}
		if cfg.first {
			certOpts = append(certOpts, detect.FirstViolation())
		}
		if cert, err = detect.Certify(ctx, sys, solver, certOpts...); err != nil {
			return nil, err
		}
	}
	if !cert.Certified() {
		m, err := BuildParamGroup(sys, opts...)
		if m != nil {
			m.Cert = cert
			m.Reason = "not certified fully virtually symmetric for every size (" + cert.Verdict().String() + "); the group-counter model is exact for any system"
		}
		return m, err
	}
	m, err := paramTotal(sys)
	if m != nil {
		m.Cert = cert
		m.Reason = "certified fully virtually symmetric for every size: the total-counter model is exact"
	}
	return m, err
}

// BuildParamTotal returns the parametric total-counter model of sys,
// which must be certified fully virtually symmetric for every size in its
// ranges: it certifies sys with solver and returns a *NotCertifiedError
// (with a verified witness, at its sizes) for a transition that is not,
// an error matching errkind.Unknown when certification cannot decide.
func BuildParamTotal(ctx context.Context, sys *gsst.System, solver presburger.Solver) (*ParamModel, error) {
	if why := restrictedBroadcast(sys); why != "" {
		return nil, errkind.Errorf(errkind.Input, "counterabs: %s; use the group-counter model", why)
	}
	cert, err := detect.Certify(ctx, sys, solver)
	if err != nil {
		return nil, err
	}
	for _, r := range cert.Results() {
		name, pos := r.Name(sys), r.Pos()
		switch r.Verdict {
		case detect.Violated:
			nc := &NotCertifiedError{Transition: r.Transition, Name: name, Witness: r.Witness, Pos: pos}
			if r.Witness != nil {
				nc.Shared = r.Witness.Shared
			}
			return nil, nc
		case detect.Unknown:
			return nil, &UnknownError{Transition: name, Pos: pos, What: "certification for every size", Reason: r.Reason}
		}
	}
	m, err := paramTotal(sys)
	if m != nil {
		m.Cert = cert
		m.Reason = "certified fully virtually symmetric for every size: the total-counter model is exact"
	}
	return m, err
}

// BuildParamGroup returns the parametric group-counter model of sys: one
// counter #S[g] per group and state, each group's counters summing to
// its size, and one transition per step of the system and assignment of
// a group (that may have processes) to each of its parts, guarded by the
// step's enabledness for those groups (System.EnabledFormula of
// Step.WithGroups), as in BuildGroup. Like BuildGroup it is exact for
// every system and needs no solver; with RunSteps, exact on the
// reachable configurations, and sparse: no counter of a state its group
// never occupies (see ParamModel). Of opts it reads RunSteps only.
//
// The shared variables are state variables of the model and the
// parameters constants (Constraint holds the assumption and the sizes
// over parameters); an update becomes the transition's Assign, a
// broadcast its Transfers (for each group it applies to, the group's
// counter of the source into its counter of the target), the other parts
// of a rendezvous its Also.
func BuildParamGroup(sys *gsst.System, opts ...Option) (*ParamModel, error) {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	var occupy [][]bool
	if cfg.runSteps {
		occupy = sys.MayOccupy()
	}
	m := newParamModel(sys, GroupLevel, occupy)
	if err := m.setConstraint(); err != nil {
		return nil, err
	}
	n := m.numbering()
	// The movers: processes of a group that may have some, in a state
	// the model has a counter of (with RunSteps, one MayOccupy allows).
	may := func(g, st int) bool {
		_, ok := m.Counter(st, g)
		return ok && n.mayHold(g)
	}
	for _, steps := range stepsByOrigin(sys) {
		err := groupChoices(sys, steps, may, func(s int, groups []int) error {
			if !m.mayTake(&sys.Steps()[s], groups) {
				return nil
			}
			t, err := m.transition([]int{s}, groups)
			if err != nil {
				return err
			}
			st := sys.Steps()[s].WithGroups(groups)
			if t.Guard, err = m.translate(sys.EnabledFormula(&st)); err != nil {
				return err
			}
			m.Transitions = append(m.Transitions, t)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return m, m.finish()
}

// mayTake reports whether m has the counters a step by processes of
// groups (one per part) moves processes into: each part's target, and
// the target of each transfer out of a counter it has. A sparse model
// lacks one only for a step MayOccupy finds no run takes (it would
// allow the target otherwise), which the model leaves out.
func (m *ParamModel) mayTake(st *gsst.Step, groups []int) bool {
	for i, p := range st.Parts {
		if _, ok := m.Counter(p.To, groups[i]); !ok {
			return false
		}
	}
	for _, x := range st.Transfers {
		for h := range m.System.Groups {
			_, from := m.Counter(x.From, h)
			_, to := m.Counter(x.To, h)
			if x.Allows(h) && from && !to {
				return false
			}
		}
	}
	return true
}

// setConstraint sets Constraint and Scope from the system's assumption
// and the sizes written over parameters.
func (m *ParamModel) setConstraint() error {
	sys := m.System
	if len(sys.Params) == 0 {
		return nil
	}
	var parts []presburger.Formula
	if sys.Assume.Formula != nil {
		f, err := m.translate(sys.Assume.Formula)
		if err != nil {
			return err
		}
		parts = append(parts, f)
	}
	var terms []string
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		if !hasSizeTerm(grp) {
			continue
		}
		if _, ok := sys.InitState(g); !ok {
			return errkind.Errorf(errkind.Input, "group %s: a size over parameters needs every process in one initial state", grp.Name)
		}
		t := grp.SizeTerm.Subst(func(v presburger.Var) presburger.Term { return presburger.VarTerm(m.paramVar(v)) })
		parts = append(parts, presburger.Compare(presburger.VarTerm(m.SizeVar(g)), presburger.Eq, t))
		terms = append(terms, grp.Name+" = "+t.Format(m.VarName))
	}
	m.Constraint = presburger.Conj(parts...)
	var names []string
	for _, p := range sys.Params {
		names = append(names, p.Name)
	}
	m.Scope = "every " + strings.Join(names, ", ")
	if sys.Assume.Formula != nil {
		m.Scope += " satisfying " + sys.Assume.Text
	}
	if len(terms) > 0 {
		m.Scope += " and making every group size at least 1 (" + strings.Join(terms, ", ") + ")"
	}
	return nil
}

// paramTotal builds the parametric total-counter model; the caller has
// certified sys for every size. There is one transition per local
// transition and distinct update (the guard blocks with that update) and
// one per rendezvous, as in Build, and the guard of one taking the steps
// C is
//
//	exists y >= 0:  sum_g y[S][g] = #S          for each group state S
//	                sum_S y[S][g] <= |g|        for each group g (= when every state is a group state)
//	                En_C(y)                     (System.EnabledFormula of some step of C: totals read #S, n the sum of the sizes)
//
// where the group states are those whose group counters En_C reads (the
// source of a part restricted to groups, and those the guards read), as
// in detect's query. In a state of the model's domain (pools summing to
// n) this is exactly "some configuration of the instance of these sizes,
// with these totals and shared values, can take a step of C": the
// remaining processes of each group, |g| minus its counters on the group
// states, fill the other states with their totals, since nonnegative
// integers with given row and column sums exist whenever the sums agree
// (and here both are n minus the totals of the group states). It is the
// existential abstraction of C's enabledness by definition. Since sys is
// certified for every size, the successor orbits (totals and shared
// values) of any two configurations of one orbit agree in every
// instance, so the model's moves are those of the quotient (Theorem 7 of
// the paper, instance by instance). Steps whose enabledness reads total
// counters only need no local variable: their guard is that formula. The
// movers' counters on totals (#U >= 1 for one mover) are written in the
// guard too, which they imply.
func paramTotal(sys *gsst.System) (*ParamModel, error) {
	m := newParamModel(sys, TotalLevel, nil)
	if err := m.setConstraint(); err != nil {
		return nil, err
	}
	size := func(g int) presburger.Term { return presburger.VarTerm(m.SizeVar(g)) }
	all := sys.Steps()
	for _, steps := range stepsByOrigin(sys) {
		for _, cls := range updateClasses(sys, steps, m.numbering().mayHold) {
			tr, err := m.transition(cls, nil)
			if err != nil {
				return nil, err
			}
			var en []presburger.Formula
			for _, s := range cls {
				en = append(en, sys.EnabledFormula(&all[s]))
			}
			enabled := presburger.Disj(en...)
			groupS := groupStates(sys, all[cls[0]].Parts, enabled)
			if len(groupS) == 0 {
				if tr.Guard, err = m.translate(enabled); err != nil {
					return nil, err
				}
				m.Transitions = append(m.Transitions, tr)
				continue
			}
			local := map[[2]int]presburger.Var{} // (state, group) -> local variable
			var parts []presburger.Formula
			for _, s := range groupS {
				// The column's locals are numbered in increasing order:
				// their sum is written at once (adding them one by one
				// copied it each time, cubic in the groups over all
				// transitions of a net written with a group per rule).
				col := presburger.Term{Monos: make([]presburger.Mono, 0, len(sys.Groups))}
				for g := range sys.Groups {
					v := m.LocalVar(len(m.locals))
					m.locals = append(m.locals, Counter{State: s, Group: g})
					local[[2]int{s, g}] = v
					tr.Locals = append(tr.Locals, v)
					if k := len(col.Monos); k > 0 && col.Monos[k-1].Var >= v {
						panic("counterabs: locals not in increasing order")
					}
					col.Monos = append(col.Monos, presburger.Mono{Var: v, Coef: 1})
					parts = append(parts, presburger.Compare(presburger.VarTerm(v), presburger.Ge, presburger.ConstTerm(0)))
				}
				parts = append(parts, presburger.Compare(col, presburger.Eq, m.CounterTerm(s, -1)))
			}
			op := presburger.Le
			if len(groupS) == len(sys.States) {
				op = presburger.Eq
			}
			for g := range sys.Groups {
				var row presburger.Term
				for _, s := range groupS {
					row = row.Add(presburger.VarTerm(local[[2]int{s, g}]))
				}
				parts = append(parts, presburger.Compare(row, op, size(g)))
			}
			movers, err := m.translate(sys.MoversFormula(anyGroup(all[cls[0]].Parts)))
			if err != nil {
				return nil, err
			}
			// The enabledness over the locals: a group counter is its
			// local, a total counter the model's, n the sum of the sizes.
			dom := presburger.Subst(enabled, func(v presburger.Var) presburger.Term {
				switch s, g, ok := sys.Counter(v); {
				case ok && g >= 0:
					return presburger.VarTerm(local[[2]int{s, g}])
				case ok:
					return m.CounterTerm(s, -1)
				}
				if g, ok := sys.Param(v); ok && g < 0 {
					var n presburger.Term
					for h := range sys.Groups {
						n = n.Add(size(h))
					}
					return n
				}
				return m.systemTerm(v)
			})
			tr.Guard = presburger.Conj(append(parts, movers, dom)...)
			m.Transitions = append(m.Transitions, tr)
		}
	}
	return m, m.finish()
}

// anyGroup returns parts taken by processes of any group: their movers
// on total counters.
func anyGroup(parts []gsst.Part) []gsst.Part {
	out := slices.Clone(parts)
	for i := range out {
		out[i].Groups = nil
	}
	return out
}

// groupStates returns the states whose group counters f (the
// enabledness of steps with the given parts) reads, and then the
// parts' sources too, increasing; none when f reads no group counter.
func groupStates(sys *gsst.System, parts []gsst.Part, f presburger.Formula) []int {
	read := make([]bool, len(sys.States))
	reads := false
	for _, v := range presburger.FreeVars(f) {
		if s, g, ok := sys.Counter(v); ok && g >= 0 {
			read[s], reads = true, true
		}
	}
	if !reads {
		return nil
	}
	for _, p := range parts {
		read[p.From] = true
	}
	var out []int
	for s, r := range read {
		if r {
			out = append(out, s)
		}
	}
	return out
}

func atLeastOne(counter int) presburger.Formula {
	return presburger.Compare(presburger.VarTerm(presburger.Var(counter)), presburger.Ge, presburger.ConstTerm(1))
}

// keepVariable marks, beside the shared variables some step assigns
// (kept), those that stay variables of the parametric models because a
// step's guard or update would have a constant beyond int64 with the
// unassigned ones folded in at their initial values: a variable no step
// assigns keeps its initial value in the model as well, so the model is
// the same, and exact, where folding would leave the 64-bit integers.
func keepVariable(sys *gsst.System, kept []bool) {
	for {
		fold := func(v presburger.Var) presburger.Term {
			if j, ok := sys.SharedOf(v); ok && !kept[j] {
				return presburger.ConstTerm(int64(sys.Shared[j].Init))
			}
			return presburger.VarTerm(v)
		}
		var overflows []presburger.Var
		for _, st := range sys.Steps() {
			if _, ok := presburger.SubstExact(st.Guard, fold); !ok {
				overflows = append(overflows, presburger.FreeVars(st.Guard)...)
			}
			for _, a := range st.Update.Assign {
				if _, ok := a.Value.SubstExact(fold); !ok {
					for _, mo := range a.Value.Monos {
						overflows = append(overflows, mo.Var)
					}
				}
			}
		}
		changed := false
		for _, v := range overflows {
			if j, ok := sys.SharedOf(v); ok && !kept[j] {
				kept[j], changed = true, true
			}
		}
		if !changed {
			return
		}
	}
}

// narrowedShared returns the shared variables of sys, each with its
// domain narrowed to the values it can hold when it starts at constants
// and every step that writes it writes a constant or copies another such
// variable: the least and greatest of those constants (within the
// declared domain, as a step that writes a value outside it cannot be
// taken). A lock written as an integer of type "0.." that steps set to
// 0 and 1 is then the 0..1 it is, which the methods that read upper
// bounds need (backward coverability's complements, the state
// equation's shortcut). The narrowed domains are an invariant: the
// initial values lie in them, and every step leaves such a variable as
// it is or sets it to a constant in its domain or to the value of a
// variable whose domain is within its own. The others keep their
// declared domains.
func narrowedShared(sys *gsst.System) []gsst.Shared { return NarrowedShared(sys, nil) }

// NarrowedShared is the narrowing of the shared variables' domains that
// the parametric models read (narrowedShared) with only the steps of
// taken written (by index into sys.Steps(); every step when taken is
// nil). A step a model has no transition of, or one prove's firing
// leaves out, writes nothing in that model's runs: a place no process
// enters with "ex := ex + 1" out of it, beside steps that set ex to 0
// and 1, leaves ex at 0..1. The domains are then no invariant of every
// configuration, only of those where the other steps are never taken;
// whoever narrows a model by them checks that on the model.
func NarrowedShared(sys *gsst.System, taken []bool) []gsst.Shared {
	n := len(sys.Shared)
	out := slices.Clone(sys.Shared)
	narrow := make([]bool, n)
	lo, hi := make([]int, n), make([]int, n)
	for j := range out {
		v := &out[j]
		if !v.InitTerm.IsConst() || v.InitRange && (v.InitNoHi || !v.InitHiTerm.IsConst()) {
			continue
		}
		narrow[j], lo[j], hi[j] = true, v.Init, v.Init
		if v.InitRange {
			hi[j] = max(hi[j], v.InitHi)
		}
	}
	// What each variable is set to: constants, and copies of others. A
	// value is read with the variables the step's guard fixes replaced
	// by their values ("lock = 0" with "lock := lock + 1" sets lock to 1).
	copies := make([][]int, n)
	dom := map[presburger.Var]presburger.Bound{}
	for j := range sys.Shared {
		x := sys.SharedVar(j)
		dom[x] = sys.Shared[j].Bounds(x)
	}
	// A variable that no step assigns is its initial value in every
	// guard ("lockS + z = 0" with z never written fixes lockS at 0).
	assigned := stepAssigned(sys)
	constant := func(v presburger.Var) presburger.Term {
		if j, ok := sys.SharedOf(v); ok && !assigned[j] && !sys.Shared[j].InitSeveral() && sys.Shared[j].InitTerm.IsConst() {
			return presburger.ConstTerm(int64(sys.Shared[j].Init))
		}
		return presburger.VarTerm(v)
	}
	for i, st := range sys.Steps() {
		if taken != nil && !taken[i] {
			continue
		}
		fixed := presburger.Fixed(presburger.Subst(st.Guard, constant), dom)
		for _, a := range st.Update.Assign {
			j, ok := sys.SharedOf(a.Var)
			if !ok || !narrow[j] {
				continue
			}
			t := a.Value
			if len(fixed) > 0 {
				if u, ok := t.SubstExact(func(v presburger.Var) presburger.Term {
					if k, ok := fixed[v]; ok {
						return presburger.ConstTerm(k)
					}
					return presburger.VarTerm(v)
				}); ok {
					t = u
				}
			}
			switch k, isShared := sys.SharedOf(singleVar(t)); {
			case t.IsConst() && -gsst.MaxValue <= t.Const && t.Const <= gsst.MaxValue:
				lo[j], hi[j] = min(lo[j], int(t.Const)), max(hi[j], int(t.Const))
			case isShared:
				copies[j] = append(copies[j], k)
			default:
				narrow[j] = false
			}
		}
	}
	// A copy's domain is its source's: grow until nothing changes (the
	// intervals only grow, within the hull of the constants).
	for changed := true; changed; {
		changed = false
		for j := range n {
			for _, k := range copies[j] {
				if !narrow[j] {
					break
				}
				switch {
				case !narrow[k]:
					narrow[j], changed = false, true
				case lo[k] < lo[j] || hi[k] > hi[j]:
					lo[j], hi[j], changed = min(lo[j], lo[k]), max(hi[j], hi[k]), true
				}
			}
		}
	}
	for j := range out {
		v := &out[j]
		if !narrow[j] {
			continue
		}
		if v.Unbounded || hi[j] < v.Hi {
			v.Hi, v.Unbounded = hi[j], false
		}
		v.Lo = max(v.Lo, lo[j])
	}
	return out
}

// singleVar returns the variable of t when t is that variable alone
// (1*x + 0), else -1.
func singleVar(t presburger.Term) presburger.Var {
	if len(t.Monos) == 1 && t.Monos[0].Coef == 1 && t.Const == 0 {
		return t.Monos[0].Var
	}
	return -1
}

// newParamModel returns a model of sys at level with its counters, pools
// and initial values over the size variables, and no transitions yet. At
// GroupLevel it has the counter of group g in state s where occupy[g][s]
// holds (MayOccupy), every one when occupy is nil.
func newParamModel(sys *gsst.System, level Level, occupy [][]bool) *ParamModel {
	m := &ParamModel{System: sys, Level: level, Constraint: presburger.True}
	// The shared variables some step assigns; the others keep their
	// initial values, which the model reads as constants.
	assigned := stepAssigned(sys)
	for j := range sys.Shared {
		// A variable that starts in a range or at a term over the
		// parameters is no constant of the model.
		v := &sys.Shared[j]
		if v.InitSeveral() || !v.InitTerm.IsConst() {
			assigned[j] = true
		}
	}
	keepVariable(sys, assigned)
	narrowed := narrowedShared(sys)
	for j := range sys.Shared {
		if assigned[j] {
			m.Shared = append(m.Shared, narrowed[j])
			m.sharedIndex = append(m.sharedIndex, j)
		}
	}
	states, d := len(sys.States), len(sys.Groups)
	switch level {
	case TotalLevel:
		for s := range states {
			m.Counters = append(m.Counters, Counter{State: s, Group: -1})
		}
	case GroupLevel:
		m.counterAt = make([]int, d*states)
		for g := range d {
			for s := range states {
				i := -1
				if occupy == nil || occupy[g][s] {
					i = len(m.Counters)
					m.Counters = append(m.Counters, Counter{State: s, Group: g})
				}
				m.counterAt[g*states+s] = i
			}
		}
	}
	// The initial count of group g in state s: its size in the group's
	// initial state when the size is a range, else the number Init says.
	start := func(g, s int) presburger.Term {
		if st, ok := sys.InitState(g); ok && (sys.Groups[g].Ranged || hasSizeTerm(&sys.Groups[g])) {
			if st == s {
				return presburger.VarTerm(m.SizeVar(g))
			}
			return presburger.Term{}
		}
		return presburger.ConstTerm(int64(sys.Init[g][s]))
	}
	m.Init = make([]presburger.Term, len(m.Counters))
	switch level {
	case TotalLevel:
		p := ParamPool{Sum: presburger.VarTerm(m.NVar())}
		for s := range states {
			p.Counters = append(p.Counters, s)
			for g := range d {
				m.Init[s] = m.Init[s].Add(start(g, s))
			}
		}
		m.Pools = []ParamPool{p}
	case GroupLevel:
		for g := range d {
			p := ParamPool{Sum: presburger.VarTerm(m.SizeVar(g))}
			for s := range states {
				if i, ok := m.Counter(s, g); ok {
					p.Counters = append(p.Counters, i)
					m.Init[i] = start(g, s)
				}
			}
			m.Pools = append(m.Pools, p)
		}
	}
	return m
}

// stepAssigned says, for each shared variable of sys, whether some step
// assigns it.
func stepAssigned(sys *gsst.System) []bool {
	assigned := make([]bool, len(sys.Shared))
	for _, st := range sys.Steps() {
		for _, a := range st.Update.Assign {
			if j, ok := sys.SharedOf(a.Var); ok {
				assigned[j] = true
			}
		}
	}
	return assigned
}

// mapTemporalAtoms is ctl.MapAtoms on the parts of f under a temporal
// operator: the state formula around them stays as it is.
func mapTemporalAtoms(f ctl.Formula, fn func(presburger.Formula) presburger.Formula) ctl.Formula {
	switch f := f.(type) {
	case ctl.Not:
		return ctl.Not{X: mapTemporalAtoms(f.X, fn)}
	case ctl.Binary:
		return ctl.Binary{Op: f.Op, L: mapTemporalAtoms(f.L, fn), R: mapTemporalAtoms(f.R, fn)}
	case ctl.Unary, ctl.Until:
		return ctl.MapAtoms(f, fn)
	}
	return f // an atom outside every temporal operator
}

// plainGuard is guard in the form the searches read (finish): its
// negations pushed down to the atoms, each atom divided by a factor its
// coefficients share, the atoms the types (ranges) decide folded, and
// disequalities at an end of a type read as bounds.
func plainGuard(guard presburger.Formula, box presburger.Box) presburger.Formula {
	return presburger.SharpenEndsIn(presburger.FoldRangesIn(presburger.Tighten(presburger.PushNegations(guard)), box), box)
}

// foldDecided is f with the atoms that the ranges decide folded
// (presburger.FoldRanges), or f as written when they decide none:
// folding rebuilds the formula (a negated atom is written negated, "!(#S
// = 0)" as "#S != 0"), and a property keeps the shape it was written
// in, which the readers of premises and fairness match, unless an atom
// is gone. FoldRanges only replaces atoms by constants, which Conj and
// Disj then drop, so a decided atom shows as fewer atoms.
func foldDecided(f presburger.Formula, box presburger.Box) presburger.Formula {
	folded := presburger.FoldRangesIn(f, box)
	if atomCount(folded) < atomCount(f) {
		return folded
	}
	return f
}

// atomCount is the number of comparisons in f.
func atomCount(f presburger.Formula) int {
	n := 0
	for range presburger.Atoms(f) {
		n++
	}
	return n
}

// translate rewrites a formula over the system's counters and n into one
// over the model's variables.
func (m *ParamModel) translate(f presburger.Formula) (presburger.Formula, error) {
	return translate(m.System, m.Level, f, m.CounterTerm, func(v presburger.Var) (presburger.Term, error) {
		if m.isSystemVar(v) {
			return m.systemTerm(v), nil
		}
		return presburger.Term{}, fmt.Errorf("variable %d is neither a counter, n, a shared variable nor a parameter", v)
	})
}

// finish translates the properties and checks that every transition
// moves a unit inside one pool and reads only the model's variables.
func (m *ParamModel) finish() error {
	if err := m.setInitial(); err != nil {
		return err
	}
	// Each atom of a property divided by a factor its coefficients
	// share, as the guards' are (plainGuard): the same integer
	// solutions, and the atoms the searches read. A property written
	// with both sides scaled ("AG !(2*x2 = 2 & 2*x11 >= 2)" for "x2 = 1
	// & x11 >= 1") otherwise states a target that backward coverability
	// does not read as upward closed (mist's extendedread-write: 2.5 s
	// of CPU, 0.01 s as written).
	props, err := translateProperties(m.System, func(f presburger.Formula) (presburger.Formula, error) {
		t, err := m.translate(f)
		return presburger.Tighten(t), err
	})
	if err != nil {
		return err
	}
	m.Properties = props
	m.byName = make(map[string]int, len(props))
	for i := range props {
		m.byName[props[i].Name] = i
	}
	// A guard's atoms that the variables' types decide are folded:
	// "#S >= 0", or "lock > 1" of a 0..1 integer in "lock < 1 | lock >
	// 1" (its "!(lock = 1)" written out), which every configuration
	// satisfies or violates (the types, not the narrower Ranges: a step
	// stays what it is in every configuration). The steps are the same; the
	// searches that read a guard's shape (cover.go) read the plain one
	// (mist's transthesis so written: proved after 30 s, in 0.02 s as
	// "lock < 1"). A disequality at an end of a variable's range is the
	// bound it is, "b != down" of a two-valued enumeration "b >= 1"
	// (SharpenEnds). So do the negations, pushed down to the atoms, and
	// the atoms, divided by a factor all their coefficients share:
	// transthesis with one guard written "!(#x < 1 | lock)" timed out,
	// ByMC's cc with its crash guard "!(#I != 0 | nfaulty >= f)" or
	// "2 * nfaulty < 2 * f" ended unknown.
	box := presburger.NewBox(m.typeRanges())
	for i := range m.Transitions {
		t := &m.Transitions[i]
		t.Guard = plainGuard(t.Guard, box)
	}
	// The properties' atoms under a temporal operator are folded and
	// sharpened too: the bad states "Iwork != down & Jwork != down" are
	// the upward-closed "Iwork >= 1 & Jwork >= 1" that the backward
	// search reads, and "AG (#A <= 1 | #B != -1)" is "AG true", where
	// its bad states as written, "#A >= 2 & #B = -1", are an equation
	// the search does not read (a random system's joint question with
	// such a property went to Spacer, where its twin written with n had
	// the atoms folded by ShortenSums and was decided by the search). A
	// premise on the initial configuration is left as written:
	// the steps that read it are not helped, and the prover is
	// sensitive to its form (ByMC's nbacr at a fixed n = 1,000 with its
	// premise "!(#NO = 0)" is proved in 0.2 s, and ran out of work with
	// "#NO >= 1").
	for i := range m.Properties {
		p := &m.Properties[i]
		p.Formula = mapTemporalAtoms(p.Formula, func(a presburger.Formula) presburger.Formula {
			return presburger.SharpenEndsIn(foldDecided(a, box), box)
		})
	}
	pool := make([]int, len(m.Counters))
	for pi, p := range m.Pools {
		for _, c := range p.Counters {
			pool[c] = pi
		}
	}
	for i := range m.Transitions {
		t := &m.Transitions[i]
		for k, mv := range append(t.Moves(), t.Transfers...) {
			// A mover may stay (a self-loop); a transfer moves somewhere else.
			if mv.From == mv.To && k >= len(t.Moves()) || pool[mv.From] != pool[mv.To] {
				return errkind.Errorf(errkind.Internal, "counterabs: parametric transition %s is malformed", m.TransitionName(t))
			}
		}
		for _, v := range presburger.FreeVars(t.Guard) {
			if int(v) < 0 || int(v) >= m.NumVars() {
				return errkind.Errorf(errkind.Internal, "counterabs: guard of %s reads variable %d, which the model does not have", m.TransitionName(t), v)
			}
		}
	}
	return nil
}

// LivenessFormula recognises the response properties a liveness prover
// for every size decides, with start and trigger the conditions that
// open an obligation to reach q: at the initial state (start) and at
// every later state (trigger).
//
//	AF q            start true, trigger false
//	AG (p -> AF q)  start p,    trigger p (also AG (!p | AF q))
//	AG AF q         start true, trigger true
//
// p and q are conditions on one state, as in SafetyFormula; ok is false
// for any other formula.
func LivenessFormula(f ctl.Formula) (start, trigger, q presburger.Formula, ok bool) {
	f = unaryForms(f)
	af := func(f ctl.Formula) (presburger.Formula, bool) {
		if u, isAF := f.(ctl.Unary); isAF && u.Op == ctl.AF {
			return stateFormula(u.X)
		}
		return nil, false
	}
	if q, ok := af(f); ok {
		return presburger.True, presburger.False, q, true
	}
	// AG (p -> AF q) in any spelling GuardedAG reads: AG (!p | AF q)
	// either way round, AG (a -> b -> AF q), AG !(p & EG !q), AG (EG !q
	// -> !p), and AG AF q, also written AG !EG !q (p true).
	p, x, ok := GuardedAG(f)
	if !ok {
		return nil, nil, nil, false
	}
	if q, ok = af(x); !ok {
		return nil, nil, nil, false
	}
	return p, p, q, true
}

// GuardedAG reads f as AG (p -> x), p a condition on one state and x
// not one, in every spelling of that one normal form: f is AG y, or !EF
// z or !E[true U z] with y = !z, and y's disjuncts, the negations
// pushed through !, &, |, -> and EG (disjuncts), are conditions r1,
// ..., rk on one state and exactly one other formula x, in any order
// and nesting; p is !r1 & ... & !rk (true when k is 0). So AG (p -> x),
// AG (!p | x), AG (x | !p), AG !(p & !x), AG !(!x & p), AG (p1 -> p2
// -> x), !EF (p & !x) and !EF (!x & p) are all read alike. Each step is
// exact in CTL, over fair paths too, so f holds exactly where AG (p ->
// x) does. Nothing below the top is rewritten otherwise (a caller reads
// x's own spellings). ok is false when f is none of these, or y has no
// such x or two of them.
func GuardedAG(f ctl.Formula) (p presburger.Formula, x ctl.Formula, ok bool) {
	y, isAG := agOperand(f)
	if !isAG {
		return nil, nil, false
	}
	var ps []presburger.Formula
	for _, d := range disjuncts(y, false, true) {
		if r, isState := stateFormula(d); isState {
			ps = append(ps, presburger.Negation(r))
			continue
		}
		if x != nil {
			return nil, nil, false
		}
		x = d
	}
	if x == nil {
		return nil, nil, false
	}
	return presburger.Conj(ps...), x, true
}

// agOperand returns y when f is AG y, and !z when f is !EF z or !E[true
// U z], the same formula as AG !z; ok is false otherwise.
func agOperand(f ctl.Formula) (y ctl.Formula, ok bool) {
	switch f := f.(type) {
	case ctl.Unary:
		if f.Op == ctl.AG {
			return f.X, true
		}
	case ctl.Not:
		switch z := f.X.(type) {
		case ctl.Unary:
			if z.Op == ctl.EF {
				return ctl.Not{X: z.X}, true
			}
		case ctl.Until:
			if l, isState := stateFormula(z.L); !z.All && isState && l == presburger.True {
				return ctl.Not{X: z.R}, true
			}
		}
	}
	return nil, false
}

// disjuncts returns formulas whose disjunction is f (!f when neg),
// with the negations pushed through !, &, |, -> and, when throughEG is
// set, EG (!EG x is AF !x), each step exact in CTL, also over fair
// paths. Without throughEG a negated EG stays as written, !EG x: the
// fairness premise a liveness shape states under it (prove's liveShape)
// is read from that form.
func disjuncts(f ctl.Formula, neg, throughEG bool) []ctl.Formula {
	switch f := f.(type) {
	case ctl.Not:
		return disjuncts(f.X, !neg, throughEG)
	case ctl.Binary:
		switch {
		case f.Op == ctl.Or && !neg:
			return append(disjuncts(f.L, false, throughEG), disjuncts(f.R, false, throughEG)...)
		case f.Op == ctl.And && neg:
			return append(disjuncts(f.L, true, throughEG), disjuncts(f.R, true, throughEG)...)
		case f.Op == ctl.Implies && !neg:
			return append(disjuncts(f.L, true, throughEG), disjuncts(f.R, false, throughEG)...)
		}
	case ctl.Unary:
		if f.Op == ctl.EG && neg && throughEG {
			return []ctl.Formula{ctl.Unary{Op: ctl.AF, X: ctl.Not{X: f.X}}}
		}
	}
	if neg {
		return []ctl.Formula{ctl.Not{X: f}}
	}
	return []ctl.Formula{f}
}

// ParamFairness is the system's fairness on a parametric group-counter
// model: each justice condition over the model's variables, and for each
// weak fairness constraint the model transitions that take its local
// transition (by a process of its group, or of any group).
type ParamFairness struct {
	Justice []presburger.Formula
	Weak    [][]int
}

// Fairness translates the system's fairness constraints onto m, which
// must be a group-counter model (the total-counter one merges the
// groups that per-group weak fairness tells apart).
func (m *ParamModel) Fairness() (ParamFairness, error) {
	var out ParamFairness
	if m.Level != GroupLevel {
		return out, errkind.Errorf(errkind.Internal, "counterabs: fairness on the parametric %s-counter model", m.Level)
	}
	for _, j := range m.System.Fairness.Justice {
		f, err := m.translate(j.Formula)
		if err != nil {
			return out, err
		}
		out.Justice = append(out.Justice, f)
	}
	for _, w := range m.System.Fairness.Weak {
		var ts []int
		for i := range m.Transitions {
			// The transitions whose step was written as the local
			// transition, taken by a process of the group.
			t := &m.Transitions[i]
			o := &m.System.Steps()[t.Steps[0]].Origin
			if o.Rendezvous < 0 && o.Transition == w.Transition && (w.Group < 0 || t.Groups[0] == w.Group) {
				ts = append(ts, i)
			}
		}
		out.Weak = append(out.Weak, ts)
	}
	return out, nil
}

// PremisedInvariance recognises AG (p -> AG q), p and q conditions on
// one state, also written AG (p -> !EF r), AG !(p & EF r) or !EF (p &
// EF r) (q = !r): from every reachable state where p holds, q holds
// ever after. When no step leads from a state where p holds to one
// where it does not, it is the safety property AG (p -> q); prove
// checks that before it asks so.
func PremisedInvariance(f ctl.Formula) (p, q presburger.Formula, ok bool) {
	p, x, ok := GuardedAG(unaryForms(f))
	if !ok || p == presburger.True {
		return nil, nil, false
	}
	// AG q', or !EF r as GuardedAG's disjuncts write it.
	inner, isAG := agOperand(x)
	if !isAG {
		return nil, nil, false
	}
	if q, ok = stateFormula(inner); !ok {
		return nil, nil, false
	}
	return p, q, true
}
