package testsupport

import (
	"fmt"

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

// ExportSpace is the reference of an export's cross-check of a system:
// its state space on processes, explored up to the exports' default
// bound of the unbounded shared variables (their initial value plus the
// number of processes; computed here, from the rule the exports
// document, not from them), and whether a reachable state passes it
// (ProcsWithin).
type ExportSpace struct {
	Sys    *gsst.System
	Space  *ProcSpace
	Beyond bool
}

// NewExportSpace explores sys as an export's cross-check needs it.
func NewExportSpace(sys *gsst.System) *ExportSpace {
	most := 0
	for j := range sys.Shared {
		if v := &sys.Shared[j]; v.Unbounded {
			most = max(most, v.Init+sys.N())
		}
	}
	x := &ExportSpace{Sys: sys}
	x.Space, x.Beyond = ProcsWithin(sys, most)
	return x
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
func (x *ExportSpace) Bounded(i int) (bound int, sp *ProcSpace, beyond bool) {
	tight := -1
	for j := range x.Sys.Shared {
		if v := &x.Sys.Shared[j]; v.Unbounded {
			tight = max(tight, v.Init+1)
		}
	}
	if i%3 != 0 || tight < 0 {
		return 0, x.Space, x.Beyond
	}
	sp, beyond = ProcsWithin(x.Sys, tight)
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
