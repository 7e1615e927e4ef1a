package counterabs

import (
	"context"
	"fmt"
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
type ParamModel struct {
	System      *gsst.System
	Level       Level
	Counters    []Counter // as in Model
	Pools       []ParamPool
	Init        []presburger.Term // initial value of each counter, over the size variables
	Transitions []ParamTransition
	// Properties are the system's properties over the model's variables
	// (a total counter is a sum at GroupLevel; n is NVar).
	Properties []Property
	// Reason says in words why the model has its level (BuildParam).
	Reason string
	// Cert is the certification for all sizes, when it ran.
	Cert *detect.Report

	// Shared are the system's shared variables, state variables of the
	// model (SharedVar); their initial values are Shared[j].Init.
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

	locals []Counter // what each local variable counts: #State[Group]
}

// ParamPool is a set of counters whose sum is Sum (a size variable, or
// NVar) in every state of the model.
type ParamPool struct {
	Counters []int
	Sum      presburger.Term
}

// ParamTransition is one move of a ParamModel: when Guard holds, counter
// From decreases by one and counter To increases by one. Guard implies
// counter From >= 1.
//
// Locals are the variables of Guard that are neither counters nor size
// variables nor NVar: Guard holds in a state when some integer values of
// them make it true (in a Horn clause they are body-only variables, which
// are existentially quantified). At TotalLevel they are group counters
// #S[g] of a configuration with the state's totals; Guard constrains them
// to be nonnegative itself.
//
// Beyond the paper a step may do more, read in the state before it and
// applied at once (StepTerms): Also moves one more process per entry (the
// other parts of a rendezvous), Transfers move every process a counter
// holds before the step, except the movers, into another counter (a
// broadcast), and Assign sets shared variables. Guard then implies that
// the movers exist (distinct processes) and that every assigned value
// lies in its variable's domain.
type ParamTransition struct {
	From, To  int
	Guard     presburger.Formula
	Locals    []presburger.Var
	Local     int // index of the local transition in System.Transitions; -1 for a rendezvous
	Group     int // GroupLevel: the group whose process moves (a rendezvous: its first part's); -1 at TotalLevel
	Also      []Move
	Transfers []Move
	Assign    []Assign // Var is a model variable (SharedVar), Value over the model's variables
	// Rendezvous, when Local is -1, is the index in System.Rendezvous of
	// the rendezvous the transition moves by; Groups then holds the group
	// of each part.
	Rendezvous int
	Groups     []int
}

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
// property asked (package prove adds the negation of phi), so the
// conversion is a struct literal with the same fields.
//
// A state gives every counter (Vars) a value; the parameters (the size
// variables and n) keep theirs along a run. Domain bounds every state
// variable (0..) and parameter (its range). Init fixes the counters to
// their initial values and n to the sum of the sizes. Trans[i] is model
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
// fixes the shared variables to their initial values and asks for
// Constraint; every Trans[i] asks for Constraint too, which changes no
// run (the parameters keep the values Init saw) but lets an invariant
// check read the assumption at every step.
func (m *ParamModel) TransitionSystem() ParamSystem {
	var ts ParamSystem
	var init []presburger.Formula
	for i := range m.NumState() {
		x := m.StateVar(i)
		ts.Vars = append(ts.Vars, x)
		ts.Next = append(ts.Next, m.NextVar(i))
		if i < len(m.Counters) {
			ts.Domain = append(ts.Domain, presburger.AtLeast(x, 0))
			init = append(init, presburger.Compare(presburger.VarTerm(x), presburger.Eq, m.Init[i]))
			continue
		}
		sh := &m.Shared[i-len(m.Counters)]
		ts.Domain = append(ts.Domain, sh.Bounds(x))
		init = append(init, presburger.Compare(presburger.VarTerm(x), presburger.Eq, presburger.ConstTerm(int64(sh.Init))))
	}
	for _, b := range m.SizeBounds() {
		ts.Params = append(ts.Params, b.Var)
		ts.Domain = append(ts.Domain, b)
	}
	for k := range m.System.Params {
		ts.Params = append(ts.Params, m.ParamVar(k))
		ts.Domain = append(ts.Domain, presburger.AtLeast(m.ParamVar(k), 0))
	}
	constraint := m.constraint()
	ts.Init = presburger.Conj(append(init, m.sizeSum(), constraint)...)
	for i := range m.Transitions {
		t := &m.Transitions[i]
		parts := []presburger.Formula{t.Guard}
		if len(m.System.Params) > 0 {
			parts = append(parts, constraint)
		}
		for j, next := range m.StepTerms(t) {
			parts = append(parts, presburger.Compare(presburger.VarTerm(m.NextVar(j)), presburger.Eq, next))
		}
		ts.Trans = append(ts.Trans, presburger.Conj(parts...))
	}
	return ts
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
	leaving := map[int]int64{}
	for i := range out {
		out[i] = presburger.VarTerm(m.StateVar(i))
	}
	move := func(mv Move) {
		out[mv.From] = out[mv.From].Add(presburger.ConstTerm(-1))
		out[mv.To] = out[mv.To].Add(presburger.ConstTerm(1))
		leaving[mv.From]++
	}
	move(Move{t.From, t.To})
	for _, mv := range t.Also {
		move(mv)
	}
	for _, tr := range t.Transfers {
		// The others in tr.From: all it held before the step but the
		// movers that left it.
		others := presburger.VarTerm(presburger.Var(tr.From)).Add(presburger.ConstTerm(-leaving[tr.From]))
		out[tr.From] = out[tr.From].Add(others.Scale(-1))
		out[tr.To] = out[tr.To].Add(others)
	}
	for _, a := range t.Assign {
		out[len(m.Counters)+a.Var-int(m.SharedVar(0))] = a.Value
	}
	return out
}

// counterName writes what c counts: "#S" or "#S[g]".
func counterName(sys *gsst.System, c Counter) string {
	if c.Group < 0 {
		return "#" + sys.States[c.State]
	}
	return "#" + sys.States[c.State] + "[" + sys.Groups[c.Group].Name + "]"
}

// TransitionName names t as "U -> V" (at TotalLevel) or "U -> V [g]",
// a rendezvous as "U -> V [g], U2 -> V2 [h]".
func (m *ParamModel) TransitionName(t *ParamTransition) string {
	if t.Local < 0 {
		r := &m.System.Rendezvous[t.Rendezvous]
		parts := make([]string, len(r.Parts))
		for k, p := range r.Parts {
			parts[k] = m.System.States[p.From] + " -> " + m.System.States[p.To] + " [" + m.System.Groups[t.Groups[k]].Name + "]"
		}
		return strings.Join(parts, ", ")
	}
	name := m.System.TransitionName(&m.System.Transitions[t.Local])
	if t.Group >= 0 {
		name += " [" + m.System.Groups[t.Group].Name + "]"
	}
	return name
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

// paramVar maps the system's size variables, NVar, shared variables and
// parameters to the model's; any other variable to itself.
func (m *ParamModel) paramVar(v presburger.Var) presburger.Var {
	if j, ok := m.System.SharedOf(v); ok {
		return m.SharedVar(j)
	}
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

// SafetyFormula returns phi when f is "AG phi" with phi a condition on
// one state (atoms under !, &, | and ->, no temporal operator), as one
// presburger formula: the properties a safety prover can decide. ok is
// false for any other formula.
func SafetyFormula(f ctl.Formula) (phi presburger.Formula, ok bool) {
	u, isAG := f.(ctl.Unary)
	if !isAG || u.Op != ctl.AG {
		return nil, false
	}
	return stateFormula(u.X)
}

// stateFormula converts a CTL formula without temporal operators into
// the presburger formula it stands for.
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
// OnProgress only, for the certification.
func BuildParam(ctx context.Context, sys *gsst.System, solver presburger.Solver, opts ...Option) (*ParamModel, error) {
	if err := sys.Unsupported("the parametric counter model", paramSupported); err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	if x := sys.Extensions(); x != 0 {
		// The parametric total-counter model is not taught these yet.
		m, err := BuildParamGroup(sys)
		if m != nil {
			m.Reason = "the parametric total-counter model does not handle " + x.String() + " yet; the group-counter model is exact for any system"
		}
		return m, err
	}
	if why := GroupReason(sys, false); why != "" {
		m, err := BuildParamGroup(sys)
		if m != nil {
			m.Reason = why
		}
		return m, err
	}
	cert, err := detect.Certify(ctx, sys, solver, detect.OnProgress(cfg.progress))
	if err != nil {
		return nil, err
	}
	if !cert.Certified() {
		m, err := BuildParamGroup(sys)
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
	if err := sys.Unsupported("the parametric counter model", 0); err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
	cert, err := detect.Certify(ctx, sys, solver)
	if err != nil {
		return nil, err
	}
	for _, r := range cert.Transitions {
		name := sys.TransitionName(r.Transition)
		switch r.Verdict {
		case detect.Violated:
			return nil, &NotCertifiedError{Transition: r.Transition, Name: name, Witness: r.Witness}
		case detect.Unknown:
			return nil, &UnknownError{Transition: name, Pos: r.Transition.Pos, What: "certification for every size", Reason: r.Reason}
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
// its size, and one transition per local transition and group that may
// take it, guarded by that group's guard. Like BuildGroup it is exact for
// every GSST and needs no solver.
//
// Beyond the paper: the shared variables are state variables of the
// model and the parameters constants (Constraint holds the assumption
// and the sizes over parameters); a block's update becomes the
// transition's Assign, with "every assigned value in its domain" in the
// guard; a broadcast transfers, for each group it applies to, the
// group's counter of the source into its counter of the target; a
// rendezvous becomes one transition per choice of a group for each part
// (among the part's groups), guarded by the rendezvous's guard, its
// update's domain, and enough processes in each (state, group) for the
// parts that take one from there.
func BuildParamGroup(sys *gsst.System) (*ParamModel, error) {
	if err := sys.Unsupported("the parametric counter model", paramSupported); err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
	m := newParamModel(sys, GroupLevel)
	if err := m.setConstraint(); err != nil {
		return nil, err
	}
	S := len(sys.States)
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for g, grp := range sys.Groups {
			b := t.BlockOf(g)
			if b == nil || !grp.Ranged && !hasSizeTerm(&grp) && grp.Size == 0 {
				continue
			}
			guard, err := m.translate(b.Guard)
			if err != nil {
				return nil, err
			}
			assign, inDomain, err := m.update(&b.Update)
			if err != nil {
				return nil, err
			}
			from, to := g*S+t.From, g*S+t.To
			tr := ParamTransition{
				From: from, To: to, Local: i, Group: g, Rendezvous: -1, Assign: assign,
				Guard: presburger.Conj(atLeastOne(from), guard, inDomain),
			}
			for _, x := range t.Broadcast {
				for h := range sys.Groups {
					if x.Groups == nil || slices.Contains(x.Groups, h) {
						tr.Transfers = append(tr.Transfers, Move{From: h*S + x.From, To: h*S + x.To})
					}
				}
			}
			m.Transitions = append(m.Transitions, tr)
		}
	}
	for ri := range sys.Rendezvous {
		r := &sys.Rendezvous[ri]
		guard, err := m.translate(r.Guard)
		if err != nil {
			return nil, err
		}
		assign, inDomain, err := m.update(&r.Update)
		if err != nil {
			return nil, err
		}
		// Every choice of a group per part, in the order of the parts,
		// each part's groups increasing.
		choice := make([]int, len(r.Parts))
		var walk func(k int)
		walk = func(k int) {
			if k == len(r.Parts) {
				need := map[int]int64{}
				var moves []Move
				for p, part := range r.Parts {
					c := choice[p]*S + part.From
					need[c]++
					moves = append(moves, Move{From: c, To: choice[p]*S + part.To})
				}
				var exist []presburger.Formula
				for c := range len(m.Counters) {
					if k := need[c]; k > 0 {
						exist = append(exist, presburger.Compare(presburger.VarTerm(presburger.Var(c)), presburger.Ge, presburger.ConstTerm(k)))
					}
				}
				m.Transitions = append(m.Transitions, ParamTransition{
					From: moves[0].From, To: moves[0].To, Also: moves[1:], Local: -1, Group: choice[0],
					Rendezvous: ri, Groups: slices.Clone(choice), Assign: assign,
					Guard: presburger.Conj(append(exist, guard, inDomain)...),
				})
				return
			}
			for g, grp := range sys.Groups {
				if groups := r.Parts[k].Groups; groups != nil && !slices.Contains(groups, g) {
					continue
				}
				if !grp.Ranged && !hasSizeTerm(&grp) && grp.Size == 0 {
					continue
				}
				choice[k] = g
				walk(k + 1)
			}
		}
		walk(0)
	}
	return m, m.finish()
}

// paramSupported are the constructs beyond the paper that the
// group-counter parametric model handles.
const paramSupported = gsst.ExtShared | gsst.ExtParams | gsst.ExtBroadcast | gsst.ExtRendezvous

// update translates an update into the model's assignments and the
// condition that every assigned value lies in its variable's domain.
func (m *ParamModel) update(u *gsst.Update) ([]Assign, presburger.Formula, error) {
	var out []Assign
	var dom []presburger.Formula
	for _, a := range u.Assign {
		j, ok := m.System.SharedOf(a.Var)
		if !ok {
			return nil, nil, errkind.Errorf(errkind.Internal, "counterabs: update of variable %d, which is no shared variable", a.Var)
		}
		var bad error
		val := a.Value.Subst(func(v presburger.Var) presburger.Term {
			if !m.isSystemVar(v) {
				bad = fmt.Errorf("counterabs: update %s reads variable %d", u.Text, v)
			}
			return presburger.VarTerm(m.paramVar(v))
		})
		if bad != nil {
			return nil, nil, errkind.Wrap(errkind.Internal, bad)
		}
		out = append(out, Assign{Var: int(m.SharedVar(j)), Value: val})
		sh := &m.Shared[j]
		dom = append(dom, presburger.Compare(val, presburger.Ge, presburger.ConstTerm(int64(sh.Lo))))
		if !sh.Unbounded {
			dom = append(dom, presburger.Compare(val, presburger.Le, presburger.ConstTerm(int64(sh.Hi))))
		}
	}
	return out, presburger.Conj(dom...), nil
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
// certified sys for every size. Each guard is
//
//	exists y >= 0:  sum_g y[S][g] = #S          for each group state S
//	                sum_S y[S][g] <= |g|        for each group g (= when every state is a group state)
//	                phi_r(y)                    (detect.Domain: totals read #S, n the sum of the sizes)
//
// where the group states are the source of r and the states whose group
// counters r's guards read, as in detect's query. In a state of the
// model's domain (pools summing to n) this is exactly "some configuration
// of the instance of these sizes, with these totals, has a process able to
// take r": the remaining processes of each group, |g| minus its counters
// on the group states, fill the other states with their totals, since
// nonnegative integers with given row and column sums exist whenever the
// sums agree (and here both are n minus the totals of the group states).
// It is the existential abstraction of Dom(R_r) by definition, and since
// Dom(R_r) is closed under orbits in every instance, the model's
// transitions are those of the quotient (Theorem 7 of the paper, instance
// by instance). A transition with one block of all groups and a guard over
// totals needs no local variable: its guard is #U >= 1 and the guard.
func paramTotal(sys *gsst.System) (*ParamModel, error) {
	m := newParamModel(sys, TotalLevel)
	size := func(g int) presburger.Term { return presburger.VarTerm(m.SizeVar(g)) }
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		tr := ParamTransition{From: t.From, To: t.To, Local: i, Group: -1}
		if !detect.NeedsQuery(sys, t) {
			guard, err := m.translate(t.Blocks[0].Guard)
			if err != nil {
				return nil, err
			}
			tr.Guard = presburger.Conj(atLeastOne(t.From), guard)
			m.Transitions = append(m.Transitions, tr)
			continue
		}
		groupS := groupStates(sys, t)
		local := map[[2]int]presburger.Var{} // (state, group) -> local variable
		var parts []presburger.Formula
		for _, s := range groupS {
			var col presburger.Term
			for g := range sys.Groups {
				v := m.LocalVar(len(m.locals))
				m.locals = append(m.locals, Counter{State: s, Group: g})
				local[[2]int{s, g}] = v
				tr.Locals = append(tr.Locals, v)
				col = col.Add(presburger.VarTerm(v))
				parts = append(parts, presburger.Compare(presburger.VarTerm(v), presburger.Ge, presburger.ConstTerm(0)))
			}
			parts = append(parts, presburger.Compare(col, presburger.Eq, presburger.VarTerm(presburger.Var(s))))
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
		dom := detect.Domain(sys, t, detect.Counters{
			Group: func(s, g int) presburger.Term { return presburger.VarTerm(local[[2]int{s, g}]) },
			Total: func(s int) presburger.Term { return presburger.VarTerm(presburger.Var(s)) },
			Size:  size,
		})
		tr.Guard = presburger.Conj(append(parts, atLeastOne(t.From), dom)...)
		m.Transitions = append(m.Transitions, tr)
	}
	return m, m.finish()
}

// groupStates returns the source of t and the states whose group
// counters t's guards read, increasing.
func groupStates(sys *gsst.System, t *gsst.Transition) []int {
	read := make([]bool, len(sys.States))
	read[t.From] = true
	for _, b := range t.Blocks {
		for _, v := range presburger.FreeVars(b.Guard) {
			if s, g, ok := sys.Counter(v); ok && g >= 0 {
				read[s] = true
			}
		}
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

// newParamModel returns a model of sys at level with its counters, pools
// and initial values over the size variables, and no transitions yet.
func newParamModel(sys *gsst.System, level Level) *ParamModel {
	m := &ParamModel{System: sys, Level: level, Shared: sys.Shared, Constraint: presburger.True}
	states, d := len(sys.States), len(sys.Groups)
	switch level {
	case TotalLevel:
		for s := range states {
			m.Counters = append(m.Counters, Counter{State: s, Group: -1})
		}
	case GroupLevel:
		for g := range d {
			for s := range states {
				m.Counters = append(m.Counters, Counter{State: s, Group: g})
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
				i := g*states + s
				p.Counters = append(p.Counters, i)
				m.Init[i] = start(g, s)
			}
			m.Pools = append(m.Pools, p)
		}
	}
	return m
}

// translate rewrites a formula over the system's counters and n into one
// over the model's variables.
func (m *ParamModel) translate(f presburger.Formula) (presburger.Formula, error) {
	states := len(m.System.States)
	index := func(s, g int) int {
		if m.Level == TotalLevel {
			return s
		}
		return g*states + s
	}
	return translate(m.System, m.Level, f, index, func(v presburger.Var) (presburger.Term, error) {
		if m.isSystemVar(v) {
			return presburger.VarTerm(m.paramVar(v)), nil
		}
		return presburger.Term{}, fmt.Errorf("variable %d is neither a counter, n, a shared variable nor a parameter", v)
	})
}

// finish translates the properties and checks that every transition
// moves a unit inside one pool and reads only the model's variables.
func (m *ParamModel) finish() error {
	props, err := translateProperties(m.System, m.translate)
	if err != nil {
		return err
	}
	m.Properties = props
	pool := make([]int, len(m.Counters))
	for pi, p := range m.Pools {
		for _, c := range p.Counters {
			pool[c] = pi
		}
	}
	for i := range m.Transitions {
		t := &m.Transitions[i]
		for _, mv := range append(append([]Move{{t.From, t.To}}, t.Also...), t.Transfers...) {
			if mv.From == mv.To || pool[mv.From] != pool[mv.To] {
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
//	AG (p -> AF q)  start p,    trigger p
//	AG AF q         start true, trigger true
//
// p and q are conditions on one state, as in SafetyFormula; ok is false
// for any other formula.
func LivenessFormula(f ctl.Formula) (start, trigger, q presburger.Formula, ok bool) {
	af := func(f ctl.Formula) (presburger.Formula, bool) {
		if u, isAF := f.(ctl.Unary); isAF && u.Op == ctl.AF {
			return stateFormula(u.X)
		}
		return nil, false
	}
	if q, ok := af(f); ok {
		return presburger.True, presburger.False, q, true
	}
	u, isAG := f.(ctl.Unary)
	if !isAG || u.Op != ctl.AG {
		return nil, nil, nil, false
	}
	if q, ok := af(u.X); ok {
		return presburger.True, presburger.True, q, true
	}
	b, isImp := u.X.(ctl.Binary)
	if !isImp || b.Op != ctl.Implies {
		return nil, nil, nil, false
	}
	p, okp := stateFormula(b.L)
	q, okq := af(b.R)
	if !okp || !okq {
		return nil, nil, nil, false
	}
	return p, p, q, true
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
			t := &m.Transitions[i]
			if t.Local == w.Transition && (w.Group < 0 || t.Group == w.Group) {
				ts = append(ts, i)
			}
		}
		out.Weak = append(out.Weak, ts)
	}
	return out, nil
}
