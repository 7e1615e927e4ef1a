package testsupport

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// This file is the reference semantics of the constructs beyond the
// paper (shared variables, updates, broadcast, rendezvous) on individual
// processes, written from the design contract of issues 20 and 21 and
// nothing else: it is the oracle the models, engines and certification
// are checked against, so it shares no code with them.

// ProcState is a concrete state of a system: the local state of every
// process (numbered as Processes numbers them) and the value of every
// shared variable.
type ProcState struct {
	Conf   []int
	Shared []int
}

// Key identifies a concrete state.
func (s ProcState) Key() string { return fmt.Sprint(s.Conf, s.Shared) }

// ProcStep is one step of a system on processes.
type ProcStep struct {
	Transition  int   // index in Spec.Transitions, or -1
	Rendezvous  int   // index in Spec.Rendezvous, or -1
	Environment int   // index in Spec.Environment, or -1
	Group       int   // a local transition's mover's group; -1 for a rendezvous
	Movers      []int // the mover of a local transition; one process per part of a rendezvous, in part order
	Next        ProcState
}

// ProcSteps returns every step of sys from st (owner[p] is the group of
// process p): for every local transition and every process p of a group
// g in its source state, whose block's guard holds on (the group
// counters of st, st.Shared) and whose block's update keeps every shared
// variable in its domain, p moves to the target, every other process in
// the source of a transfer of the transition (of the transfer's groups)
// moves to the transfer's target at the same time, and the update
// assigns its values, all read before the step; for every rendezvous and
// every choice of distinct processes, one per part, each in its part's
// source and of its part's groups, when the guard holds and the update
// stays in the domains, each chosen process moves to its part's target
// and the update applies, and every process not chosen in the source of
// one of the rendezvous's transfers (of the transfer's groups) moves to
// the transfer's target; for every environment step whose guard holds
// and whose update stays in the domains, every process in a transfer's
// source (of its groups) moves to its target and the update applies. A
// transition or a part may leave its process where it is (a self-loop).
// Steps that lead to the same state are listed once per choice of
// movers.
func ProcSteps(sys *gsst.System, owner []int, st ProcState) []ProcStep {
	y := counters(sys, owner, st.Conf)
	val := sys.Valuation(y, st.Shared)
	var out []ProcStep
	for r := range sys.Transitions {
		t := &sys.Transitions[r]
		for p, s := range st.Conf {
			if s != t.From {
				continue
			}
			b := t.BlockOf(owner[p])
			if b == nil || !presburger.Eval(b.Guard, val) {
				continue
			}
			shared, ok := applyUpdate(sys, &b.Update, val, st.Shared)
			if !ok {
				continue
			}
			conf := slices.Clone(st.Conf)
			conf[p] = t.To
			for q, s := range st.Conf {
				if q == p {
					continue
				}
				for _, tr := range t.Broadcast {
					if s == tr.From && inGroups(tr.Groups, owner[q]) {
						conf[q] = tr.To
						break
					}
				}
			}
			out = append(out, ProcStep{Transition: r, Rendezvous: -1, Environment: -1, Group: owner[p], Movers: []int{p},
				Next: ProcState{Conf: conf, Shared: shared}})
		}
	}
	for k := range sys.Rendezvous {
		rv := &sys.Rendezvous[k]
		if !presburger.Eval(rv.Guard, val) {
			continue
		}
		shared, ok := applyUpdate(sys, &rv.Update, val, st.Shared)
		if !ok {
			continue
		}
		chosen := make([]int, 0, len(rv.Parts))
		var rec func(i int)
		rec = func(i int) {
			if i == len(rv.Parts) {
				conf := slices.Clone(st.Conf)
				for j, p := range chosen {
					conf[p] = rv.Parts[j].To
				}
				for q, s := range st.Conf {
					if slices.Contains(chosen, q) {
						continue
					}
					for _, tr := range rv.Broadcast {
						if s == tr.From && inGroups(tr.Groups, owner[q]) {
							conf[q] = tr.To
							break
						}
					}
				}
				out = append(out, ProcStep{Transition: -1, Rendezvous: k, Environment: -1, Group: -1, Movers: slices.Clone(chosen),
					Next: ProcState{Conf: conf, Shared: slices.Clone(shared)}})
				return
			}
			part := &rv.Parts[i]
			for p, s := range st.Conf {
				if s != part.From || !inGroups(part.Groups, owner[p]) || slices.Contains(chosen, p) {
					continue
				}
				chosen = append(chosen, p)
				rec(i + 1)
				chosen = chosen[:len(chosen)-1]
			}
		}
		rec(0)
	}
	for k := range sys.Environment {
		e := &sys.Environment[k]
		if !presburger.Eval(e.Guard, val) {
			continue
		}
		shared, ok := applyUpdate(sys, &e.Update, val, st.Shared)
		if !ok {
			continue
		}
		conf := slices.Clone(st.Conf)
		for q, s := range st.Conf {
			for _, tr := range e.Broadcast {
				if s == tr.From && inGroups(tr.Groups, owner[q]) {
					conf[q] = tr.To
					break
				}
			}
		}
		out = append(out, ProcStep{Transition: -1, Rendezvous: -1, Environment: k, Group: -1, Next: ProcState{Conf: conf, Shared: shared}})
	}
	return out
}

// inGroups reports whether g is in groups (nil: every group).
func inGroups(groups []int, g int) bool { return groups == nil || slices.Contains(groups, g) }

// applyUpdate returns the shared values after update u, every right-hand
// side read under val (the state before the step), and false when some
// assigned value leaves its variable's domain.
func applyUpdate(sys *gsst.System, u *gsst.Update, val func(presburger.Var) int64, shared []int) ([]int, bool) {
	out := slices.Clone(shared)
	for _, a := range u.Assign {
		j, ok := sys.SharedOf(a.Var)
		if !ok {
			panic(fmt.Sprintf("testsupport: update %q assigns variable %d, not a shared variable", u.Text, a.Var))
		}
		x := a.Value.Eval(val)
		if !sys.Shared[j].Contains(int(x)) {
			return nil, false
		}
		out[j] = int(x)
	}
	return out, true
}

// ProcSpace is the explicit state space of a system on individual
// processes with shared variables: Unreduced for every construct of the
// language. A state without a step stutters (Graph).
type ProcSpace struct {
	*Graph
	Sys    *gsst.System
	Owner  []int
	States []ProcState
}

// Procs explores the concrete states of sys reachable from inits, by
// default the initial state (Processes, and every shared variable at
// its initial value); the first is the graph's initial state. Atoms may
// read counters and shared variables. It panics beyond limit states
// (0: 1<<18), as an unbounded shared variable can make the space
// infinite.
func Procs(sys *gsst.System, limit int, inits ...ProcState) *ProcSpace {
	if limit == 0 {
		limit = 1 << 18
	}
	owner, init := Processes(sys)
	if len(inits) == 0 {
		inits = []ProcState{{Conf: init, Shared: sys.InitShared()}}
	}
	return exploreProcs(sys, owner, limit, inits, nil)
}

// exploreProcs explores the concrete states of sys reachable from inits
// (processes owned as owner says), panicking beyond limit states when
// limit > 0; a state where stop (when not nil) holds is not explored
// further and stutters.
func exploreProcs(sys *gsst.System, owner []int, limit int, inits []ProcState, stop func(ProcState) bool) *ProcSpace {
	sp := &ProcSpace{Graph: newGraph(), Sys: sys, Owner: owner}
	push := func(s ProcState) int {
		i, added := sp.add(s.Key())
		if added {
			if limit > 0 && len(sp.States) == limit {
				panic(fmt.Sprintf("testsupport: %s has more than %d reachable states", sys.Name, limit))
			}
			sp.States = append(sp.States, s)
		}
		return i
	}
	for _, s := range inits {
		push(ProcState{Conf: slices.Clone(s.Conf), Shared: slices.Clone(s.Shared)})
	}
	for i := 0; i < len(sp.States); i++ {
		if stop == nil || !stop(sp.States[i]) {
			for _, step := range ProcSteps(sys, owner, sp.States[i]) {
				sp.Succ[i] = append(sp.Succ[i], push(step.Next))
			}
		}
		sp.close(i, false)
	}
	sp.value = func(i int, v presburger.Var) (int64, bool) {
		st := sp.States[i]
		if _, ok := sys.SharedOf(v); ok {
			return sys.Valuation(nil, st.Shared)(v), true
		}
		return valuation(sys, counters(sys, owner, st.Conf))(v)
	}
	return sp
}

// OrbitKey is the orbit of a concrete state under all permutations of
// the processes: its total counters and its shared values.
func OrbitKey(sys *gsst.System, owner []int, st ProcState) string {
	x := make([]int, len(sys.States))
	for _, s := range st.Conf {
		x[s]++
	}
	return fmt.Sprint(x, st.Shared)
}

// SymmetryResult is the outcome of FullSymmetry.
type SymmetryResult struct {
	Symmetric bool
	// When not symmetric: A and B share an orbit, and B has a successor
	// in orbit Orbit (by Step) while no successor of A is in it.
	A, B  ProcState
	Step  ProcStep
	Orbit string
	// States is the number of concrete states (one per group-counter
	// matrix and shared valuation) compared.
	States int
	// Violating[i] says that a step of item i (transition i, rendezvous
	// i - len(Transitions), or environment step i - len(Transitions) -
	// len(Rendezvous)) leads some state to an orbit that another state
	// of its orbit does not reach.
	Violating []bool
}

// Item returns the item a step on processes was taken by, numbered as
// SymmetryResult.Violating numbers them.
func Item(sys *gsst.System, step *ProcStep) int {
	switch {
	case step.Transition >= 0:
		return step.Transition
	case step.Rendezvous >= 0:
		return len(sys.Transitions) + step.Rendezvous
	}
	return len(sys.Transitions) + len(sys.Rendezvous) + step.Environment
}

// Violates reports whether some step of transition tr (rendezvous rv
// when tr < 0) reaches an orbit that another state of the same orbit
// does not.
func (res *SymmetryResult) Violates(sys *gsst.System, tr, rv int) bool {
	if tr < 0 {
		tr = len(sys.Transitions) + rv
	}
	return res.Violating[tr]
}

// FullSymmetry decides full virtual symmetry of sys directly on its
// concrete states: every state, reachable or not, with every shared
// variable in its domain (an unbounded variable from its least value up
// to window more), and for every two states A, B in one orbit (equal
// total counters, equal shared values) every successor orbit of B must
// be one of A. Successors are steps only (a state without a step has no
// successor orbit; the stutter of Graph is not a step). States are
// enumerated one per group-counter matrix: a permutation inside a group
// maps a state's steps to the steps of the permuted state, so the set of
// successor orbits depends on the group counters only.
func FullSymmetry(sys *gsst.System, window int) *SymmetryResult {
	owner, _ := Processes(sys)
	var vals [][]int
	var rec func(j int, cur []int)
	rec = func(j int, cur []int) {
		if j == len(sys.Shared) {
			vals = append(vals, slices.Clone(cur))
			return
		}
		v := &sys.Shared[j]
		hi := v.Hi
		if v.Unbounded {
			hi = v.Lo + window
		}
		for k := v.Lo; k <= hi; k++ {
			rec(j+1, append(cur, k))
		}
	}
	rec(0, nil)
	type entry struct {
		st    ProcState
		succ  map[string]ProcStep // a step to each successor orbit
		items map[string][]int    // the items with a step to each successor orbit
	}
	byOrbit := map[string][]entry{}
	var order []string
	res := &SymmetryResult{Symmetric: true}
	configurations(sys, func(y [][]int) {
		conf := Layout(y)
		for _, v := range vals {
			st := ProcState{Conf: slices.Clone(conf), Shared: slices.Clone(v)}
			succ := map[string]ProcStep{}
			items := map[string][]int{}
			for _, step := range ProcSteps(sys, owner, st) {
				k := OrbitKey(sys, owner, step.Next)
				if _, ok := succ[k]; !ok {
					succ[k] = step
				}
				item := Item(sys, &step)
				if !slices.Contains(items[k], item) {
					items[k] = append(items[k], item)
				}
			}
			o := OrbitKey(sys, owner, st)
			if _, ok := byOrbit[o]; !ok {
				order = append(order, o)
			}
			byOrbit[o] = append(byOrbit[o], entry{st: st, succ: succ, items: items})
			res.States++
		}
	})
	res.Violating = make([]bool, len(sys.Transitions)+len(sys.Rendezvous)+len(sys.Environment))
	for _, o := range order {
		es := byOrbit[o]
		for _, b := range es {
			for _, a := range es {
				// The least successor orbit of b that a lacks, for a
				// stable witness.
				least := ""
				for k := range b.succ {
					if _, ok := a.succ[k]; ok {
						continue
					}
					for _, item := range b.items[k] {
						res.Violating[item] = true
					}
					if least == "" || k < least {
						least = k
					}
				}
				if least != "" && res.Symmetric {
					res.Symmetric = false
					res.A, res.B, res.Step, res.Orbit = a.st, b.st, b.succ[least], least
				}
			}
		}
	}
	return res
}
