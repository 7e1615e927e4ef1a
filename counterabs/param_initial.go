package counterabs

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// The initial states of a parametric model: the system's initial
// configurations (gsst.Spec.InitialFormula, their one meaning) read on
// the model's variables. A system with one initial configuration at each
// instance has one initial state per choice of the parameters, the point
// Init (and the shared variables' initial values, InitialValue); one
// whose groups spread over several states or whose shared variables
// start in a range has a set of them, which Initial states as a formula.
//
// At the group level the system's group counters are the model's. At
// the total level the initial totals are those of some initial
// configuration: with y[S][g] the system's group counters,
//
//	exists y:  InitialFormula(y)  and  #S = sum_g y[S][g]  for each S
//
// which setInitial solves for y by substitution, exactly: each total
// defines the counter of one group (the group whose spread contains S,
// if any), and InitialFormula's equations define the rest. Groups that
// spread over the same states are read as one (their processes can be
// split among them in any way that gives each its size, so the totals
// are those of one group of the sum of their sizes: gsst's
// InitialFormulaJoined): two groups of one protocol, each starting in V0
// or V1. When two groups spread over one state but not over the same
// states, no equation defines their counters there, and the model
// refuses the system (the group-counter model takes it).

// setInitial sets Initial and the initial value of every state variable
// that has one, after the counters, shared variables and Init are set.
func (m *ParamModel) setInitial() error {
	sys := m.System
	k := m.NumState()
	m.initValue, m.initFixed = make([]presburger.Term, k), make([]bool, k)
	copy(m.initValue, m.Init)
	for j := range m.Shared {
		v := &m.Shared[j]
		m.initValue[len(m.Counters)+j] = v.InitLow().Subst(func(x presburger.Var) presburger.Term { return presburger.VarTerm(m.paramVar(x)) })
	}
	if sys.SingleInitial() {
		// The point, as equations: the fast case, and the form the
		// generators of invariants read (InitialValue).
		var parts []presburger.Formula
		for i := range k {
			m.initFixed[i] = true
			parts = append(parts, presburger.Compare(presburger.VarTerm(m.StateVar(i)), presburger.Eq, m.initValue[i]))
		}
		m.Initial = presburger.Conj(parts...)
		return nil
	}
	f, err := m.initialSet()
	if err != nil {
		return err
	}
	m.Initial = f
	// A state variable that Initial sets by an equation to a term over
	// the parameters has that value in every initial state.
	state := map[presburger.Var]int{}
	for i := range k {
		state[m.StateVar(i)] = i
	}
	for _, c := range presburger.Conjuncts(f) {
		a, ok := c.(presburger.Cmp)
		if !ok || a.Op != presburger.Eq {
			continue
		}
		var in []presburger.Var
		for _, mo := range a.T.Monos {
			if _, isState := state[mo.Var]; isState {
				in = append(in, mo.Var)
			}
		}
		if len(in) != 1 {
			continue
		}
		i := state[in[0]]
		if t, ok := a.T.SolveFor(in[0]); ok && !m.initFixed[i] {
			m.initValue[i], m.initFixed[i] = t, true
		}
	}
	return nil
}

// initialSet translates the system's initial configurations onto the
// model's variables (see the comment above).
func (m *ParamModel) initialSet() (presburger.Formula, error) {
	sys := m.System
	states, d := len(sys.States), len(sys.Groups)
	if m.Level == GroupLevel {
		f := sys.InitialFormula()
		return presburger.Subst(f, func(v presburger.Var) presburger.Term {
			if s, g, ok := sys.Counter(v); ok && g >= 0 {
				return m.CounterTerm(s, g)
			}
			return m.systemTerm(v)
		}), nil
	}
	if why := sharedSpread(sys); why != "" {
		return nil, errkind.Errorf(errkind.Input, "%s: %s; the parametric total-counter model takes a state that one group spreads over only, or groups that spread over the same states (the group-counter model takes it)", sys.Name, why)
	}
	join := spreadJoin(sys)
	f := sys.InitialFormulaJoined(join)
	// rep[S]: the group whose counter in S the total defines.
	rep := make([]int, states)
	for s := range rep {
		for g, over := range sys.InitOver {
			if join[g] == g && slices.Contains(over, s) {
				rep[s] = g
			}
		}
	}
	// The other groups' counters: those of a group that starts in one
	// state are its initial counts, those of a group joined to another
	// are zero (InitialFormulaJoined), written so at once, and those of
	// a spread group are fresh variables until the equations of
	// InitialFormula define them. (An equation that defines a fresh
	// variable by another's would leave the same set in another shape
	// than the one its readers expect: prove's backward search reads
	// "x >= 0" and sums. A fresh variable per group and state took
	// seconds to eliminate one by one with fifty groups of one process,
	// a Petri net's 1-safe places.)
	fresh := presburger.Var(m.NumVars() + m.NumState())
	other := map[[2]int]presburger.Term{}
	elim := map[presburger.Var]bool{}
	for s := range states {
		for g := range d {
			switch {
			case g == rep[s] || join[g] != g:
			case sys.InitOver == nil || sys.InitOver[g] == nil:
				other[[2]int{s, g}] = sys.InitCount(g, s).Subst(m.systemTerm)
			default:
				other[[2]int{s, g}] = presburger.VarTerm(fresh)
				elim[fresh] = true
				fresh++
			}
		}
	}
	f = presburger.Subst(f, func(v presburger.Var) presburger.Term {
		s, g, ok := sys.Counter(v)
		switch {
		case !ok || g < 0:
			return m.systemTerm(v)
		case join[g] != g:
			return presburger.ConstTerm(0)
		case g != rep[s]:
			return other[[2]int{s, g}]
		}
		t := m.CounterTerm(s, -1)
		for h := range d {
			if h != g && join[h] == h {
				t = t.Sub(other[[2]int{s, h}])
			}
		}
		return t
	})
	f = eliminateDefined(f, elim)
	for _, v := range presburger.FreeVars(f) {
		if elim[v] {
			return nil, errkind.Errorf(errkind.Internal, "counterabs: the initial totals of %s are not defined by its initial configurations' equations", sys.Name)
		}
	}
	return f, nil
}

// sharedSpread says which two groups of sys start spread over one
// state but not over the same states, if any: their counters there are
// not defined by the state's total and the equations of the initial
// configurations. Empty when none do.
func sharedSpread(sys *gsst.System) string {
	by := make([]int, len(sys.States))
	for s := range by {
		by[s] = -1
	}
	for g, over := range sys.InitOver {
		for _, s := range over {
			if h := by[s]; h >= 0 && !sameStates(sys.InitOver[h], over) {
				return fmt.Sprintf("groups %s and %s both start spread over state %s, over different states", sys.Groups[h].Name, sys.Groups[g].Name, sys.States[s])
			}
			by[s] = g
		}
	}
	return ""
}

// spreadJoin returns, for each group of sys, the group whose counters
// hold its processes in the total-level initial set (InitialFormulaJoined):
// the first group that spreads over the same states as it does, or
// itself.
func spreadJoin(sys *gsst.System) []int {
	join := make([]int, len(sys.Groups))
	for g := range join {
		join[g] = g
		if sys.InitOver == nil || sys.InitOver[g] == nil {
			continue
		}
		for h := range g {
			if sys.InitOver[h] != nil && sameStates(sys.InitOver[h], sys.InitOver[g]) {
				join[g] = join[h]
				break
			}
		}
	}
	return join
}

// sameStates says whether a and b list the same states.
func sameStates(a, b []int) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(s int) bool { return !slices.Contains(b, s) })
}

// eliminateDefined substitutes, for as long as it can, a variable of
// elim that an equation among f's conjuncts defines (coefficient 1 or
// -1) by what the equation says it is: exact over the integers.
func eliminateDefined(f presburger.Formula, elim map[presburger.Var]bool) presburger.Formula {
	for {
		found := false
		for _, c := range presburger.Conjuncts(f) {
			a, ok := c.(presburger.Cmp)
			if !ok || a.Op != presburger.Eq {
				continue
			}
			for _, mo := range a.T.Monos {
				if !elim[mo.Var] {
					continue
				}
				t, ok := a.T.SolveFor(mo.Var)
				if !ok {
					continue
				}
				v := mo.Var
				f = presburger.Subst(f, func(x presburger.Var) presburger.Term {
					if x == v {
						return t
					}
					return presburger.VarTerm(x)
				})
				found = true
				break
			}
			if found {
				break
			}
		}
		if !found {
			return f
		}
	}
}

// SingleInitial reports whether the model has one initial state at each
// choice of the parameters: Init and the shared variables' InitialValue.
func (m *ParamModel) SingleInitial() bool { return m.System.SingleInitial() }

// InitialValue returns the initial value of state variable i (see
// NumState) as a term over the parameters (sizes, n and the system's
// parameters), and whether every initial state gives it that value. When
// it is not fixed, the value is the one of the first initial
// configuration (the system's InitConfig, all of a spread group's
// processes in its first state, a range at its least value): one
// initial state among others.
func (m *ParamModel) InitialValue(i int) (presburger.Term, bool) {
	return m.initValue[i], m.initFixed[i]
}
