package testsupport

import (
	"fmt"
	"math/rand"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// ProcsWithin is Procs from the initial state, except that a state in
// which an unbounded shared variable exceeds most is not explored
// further; beyond says whether such a state is reachable. When it is
// not, the space is the system's: the reference for an export that
// bounds its unbounded variables at most and must say whether a run can
// pass the bound.
func ProcsWithin(sys *gsst.System, most int) (sp *ProcSpace, beyond bool) {
	owner, init := Processes(sys)
	sp = exploreProcs(sys, owner, 0, []ProcState{{Conf: init, Shared: sys.InitShared()}}, func(st ProcState) bool {
		over := false
		for j, x := range st.Shared {
			over = over || sys.Shared[j].Unbounded && x > most
		}
		beyond = beyond || over
		return over
	})
	return sp, beyond
}

// ExtInstance is a random instance beyond the paper for the exports'
// cross-checks, with its reference space.
type ExtInstance struct {
	Sys *gsst.System
	// Space is the system's state space on processes, explored up to the
	// exports' default bound of the unbounded shared variables (their
	// initial value plus the number of processes); Beyond says whether a
	// reachable state passes it (ProcsWithin).
	Space                 *ProcSpace
	Beyond                bool
	Rendezvous, Broadcast bool
}

// RandomExtInstance draws a system with RandomExtended (as cfg says) and
// gives it k random CTL properties whose atoms read
// counters and shared variables; the default bound it explores up to is
// computed here, from the rule the exports document, not from them.
func RandomExtInstance(r *rand.Rand, cfg ExtConfig, k int) *ExtInstance {
	sys := RandomExtended(r, cfg)
	spec := sys.Spec()
	leaf := func() ctl.Formula { return ctl.Atom{P: extAtom(r, spec)} }
	for i := range k {
		f := randomCTL(r, 2, leaf, true)
		spec.Properties = append(spec.Properties, gsst.Property{Name: fmt.Sprintf("p%d", i+1), Formula: f, Text: ctl.Format(f, spec.VarName)})
	}
	sys, err := gsst.New(spec)
	if err != nil {
		panic(fmt.Sprintf("testsupport: random properties: %v", err))
	}
	most := 0
	for j := range sys.Shared {
		if v := &sys.Shared[j]; v.Unbounded {
			most = max(most, v.Init+sys.N())
		}
	}
	in := &ExtInstance{Sys: sys, Rendezvous: len(sys.Rendezvous) > 0}
	in.Space, in.Beyond = ProcsWithin(sys, most)
	for t := range sys.Transitions {
		in.Broadcast = in.Broadcast || len(sys.Transitions[t].Broadcast) > 0
	}
	return in
}

// extAtom draws a comparison of a counter or a shared variable with a
// small constant.
func extAtom(r *rand.Rand, sp *gsst.Spec) presburger.Formula {
	if len(sp.Shared) == 0 || r.Intn(2) == 0 {
		v := sp.TotalVar(r.Intn(len(sp.States)))
		if r.Intn(3) == 0 {
			v = sp.GroupVar(r.Intn(len(sp.States)), r.Intn(len(sp.Groups)))
		}
		ops := []presburger.Op{presburger.Ge, presburger.Eq, presburger.Le}
		return presburger.Compare(presburger.VarTerm(v), ops[r.Intn(3)], presburger.ConstTerm(int64(r.Intn(2))))
	}
	j := r.Intn(len(sp.Shared))
	v := &sp.Shared[j]
	x := presburger.VarTerm(sp.SharedVar(j))
	if v.Bool || v.Values != nil {
		op := presburger.Eq
		if r.Intn(3) == 0 {
			op = presburger.Ne
		}
		return presburger.Compare(x, op, presburger.ConstTerm(int64(v.Lo+r.Intn(v.Hi-v.Lo+1))))
	}
	ops := []presburger.Op{presburger.Ge, presburger.Le, presburger.Lt}
	return presburger.Compare(x, ops[r.Intn(3)], presburger.ConstTerm(int64(v.Lo+r.Intn(3))))
}

// GroupStates returns the number of distinct (group counters, shared
// values) among the states of sp: the reachable states of the
// group-counter model.
func (sp *ProcSpace) GroupStates() int {
	seen := map[string]bool{}
	for _, st := range sp.States {
		seen[fmt.Sprint(counters(sp.Sys, sp.Owner, st.Conf), st.Shared)] = true
	}
	return len(seen)
}

// Bounded returns the bound an export test asks for on the i-th
// instance, and the reference space at it: every third instance with an
// unbounded variable gets a tight bound (one above the largest initial
// value), so that runs passing the bound are frequent; the others the
// default (0: Space and Beyond).
func (in *ExtInstance) Bounded(i int) (bound int, sp *ProcSpace, beyond bool) {
	tight := -1
	for j := range in.Sys.Shared {
		if v := &in.Sys.Shared[j]; v.Unbounded {
			tight = max(tight, v.Init+1)
		}
	}
	if i%3 != 0 || tight < 0 {
		return 0, in.Space, in.Beyond
	}
	sp, beyond = ProcsWithin(in.Sys, tight)
	return tight, sp, beyond
}

// TotalStates returns the number of distinct (total counters, shared
// values) among the states of sp: the reachable states of the
// total-counter model of a system that is fully virtually symmetric.
func (sp *ProcSpace) TotalStates() int {
	seen := map[string]bool{}
	for _, st := range sp.States {
		seen[fmt.Sprint(Totals(counters(sp.Sys, sp.Owner, st.Conf)), st.Shared)] = true
	}
	return len(seen)
}

// BoundedCounter is the system of the exports' header tests: three
// processes of one group go from A to B once each, incrementing the
// unbounded shared variable nsent, with the parameter t fixed at 1; so
// nsent reaches 3 and an export's bound of 2 is passed.
func BoundedCounter() *gsst.System {
	spec := &gsst.Spec{
		Name:   "bounded",
		States: []string{"A", "B"},
		Groups: []gsst.Group{{Name: "p", Size: 3}},
		Init:   [][]int{{3, 0}},
		Shared: []gsst.Shared{{Name: "nsent", Unbounded: true}},
		Params: []gsst.Param{{Name: "t", Fixed: true, Value: 1}},
	}
	x := presburger.VarTerm(spec.SharedVar(0))
	spec.Transitions = []gsst.Transition{{From: 0, To: 1, Blocks: []gsst.Block{{Groups: []int{0}, Guard: presburger.True,
		Update: gsst.Update{Text: "nsent := nsent + 1", Assign: []gsst.Assign{{Var: spec.SharedVar(0), Value: x.Add(presburger.ConstTerm(1))}}}}}}}
	sys, err := gsst.New(spec)
	if err != nil {
		panic(err)
	}
	return sys
}
