package counterabs

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
)

// The initial states of a model: the system's initial configurations
// (gsst.Spec.Initials) read on the model's counters. A system with one
// initial configuration gives Init alone; one whose groups spread over
// several states or whose shared variables start in a range gives
// several, which engines explore together and emitters state as a set.

// setInitials fills m.Initials from the system's initial configurations
// when it has more than one.
func (m *Model) setInitials() error {
	sys := m.System
	if sys.SingleInitial() {
		m.Initials = nil
		return nil
	}
	confs, err := sys.Initials()
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	m.Initials = nil
	for _, c := range confs {
		var v []int
		switch m.Level {
		case TotalLevel:
			v = c.Totals(len(sys.States))
		default:
			for _, row := range c.Counts {
				v = append(v, row...)
			}
		}
		v = append(v, c.Shared...)
		key := fmt.Sprint(v)
		if seen[key] {
			continue
		}
		seen[key] = true
		m.Initials = append(m.Initials, v)
	}
	if !slices.Equal(m.Initials[0], m.Init) {
		return errkind.Errorf(errkind.Internal, "counterabs: the first initial state %v is not Init %v", m.Initials[0], m.Init)
	}
	if len(m.Initials) == 1 {
		m.Initials = nil
	}
	return nil
}

// Starts returns every initial valuation of the model's variables, Init
// first.
func (m *Model) Starts() [][]int {
	if m.Initials == nil {
		return [][]int{m.Init}
	}
	return m.Initials
}

// OneInitial returns an errkind.Input error naming what when the model
// has several initial states, for the stages that take one.
func (m *Model) OneInitial(what string) error {
	if len(m.Initials) <= 1 {
		return nil
	}
	return errkind.Errorf(errkind.Input, "%s: %s starts in one configuration, and this system has %d initial ones (a group spread over several states or a shared variable with a range of initial values); explore and prove take it", m.System.Name, what, len(m.Initials))
}

// maxSpreadGroups bounds the groups spread over several initial states
// that InitialFormula sums away at TotalLevel: it writes one inequality
// per set of them that is some set of states' neighbourhood, so up to
// 2^k.
const maxSpreadGroups = 10

// InitialFormula returns the model's initial states as a formula over
// its variables (counter i is variable i, shared variable j is
// SharedVar(j)), for the emitters that state the set instead of listing
// it: Initials lists the same set, and grows as a product of the
// groups' choices where the formula grows with the number of states.
// It is true for the valuations in the model's Domain that are initial,
// not of those outside it. ok is false when the formula would be larger
// than the list could be (more than maxSpreadGroups spread groups at
// TotalLevel); then list Starts.
//
// At GroupLevel it is the system's own (gsst.Spec.InitialFormula) on
// the model's counters. At TotalLevel the group counters are summed
// away, exactly: the total counters x are initial when x - F, F the
// totals of the groups that start in one state, splits into a row per
// spread group g over its initial states O_g summing to its size n_g.
// That is a transportation problem, and by max-flow min-cut (Gale's
// theorem) it has an integer solution exactly when x_s >= F_s, x_s = F_s
// outside the union U of the O_g, the spread processes add up, and
// every set S of states of U holds at most the spread processes of the
// groups that may start in S: x(S) - F(S) <= n(N(S)). It suffices to ask
// this of the largest S with a given neighbourhood A = N(S), the states
// of U none of whose groups is outside A.
func (m *Model) InitialFormula() (f presburger.Formula, ok bool) {
	sys := m.System
	shared := func(v presburger.Var) (presburger.Var, bool) {
		for j := range sys.Shared {
			if v == sys.SharedVar(j) {
				return presburger.Var(m.SharedVar(j)), true
			}
		}
		return 0, false
	}
	if m.Level == GroupLevel {
		return presburger.Rename(sys.InitialFormula(), func(v presburger.Var) presburger.Var {
			if x, ok := shared(v); ok {
				return x
			}
			for g := range sys.Groups {
				for s := range sys.States {
					if v == sys.GroupVar(s, g) {
						return presburger.Var(m.Counter(s, g))
					}
				}
			}
			panic(fmt.Sprintf("counterabs: initial formula over unknown variable %d", v))
		}), true
	}
	parts := []presburger.Formula{presburger.Rename(sys.InitialShared(), func(v presburger.Var) presburger.Var {
		if x, ok := shared(v); ok {
			return x
		}
		panic(fmt.Sprintf("counterabs: initial value of a shared variable over variable %d (an instance has none)", v))
	})}
	fixed := make([]int64, len(sys.States)) // F
	var spread []int                        // the spread groups
	inU := make([]bool, len(sys.States))
	for g := range sys.Groups {
		if sys.InitOver == nil || sys.InitOver[g] == nil {
			for s, k := range sys.Init[g] {
				fixed[s] += int64(k)
			}
			continue
		}
		spread = append(spread, g)
		for _, s := range sys.InitOver[g] {
			inU[s] = true
		}
	}
	if len(spread) > maxSpreadGroups {
		return nil, false
	}
	x := func(s int) presburger.Term { return presburger.VarTerm(presburger.Var(m.Counter(s, -1))) }
	k := func(n int64) presburger.Term { return presburger.ConstTerm(n) }
	var u presburger.Term // x(U)
	var spreadSum int64
	for _, g := range spread {
		spreadSum += int64(sys.Groups[g].Size)
	}
	var fixedU int64
	for s := range sys.States {
		if !inU[s] {
			parts = append(parts, presburger.Compare(x(s), presburger.Eq, k(fixed[s])))
			continue
		}
		parts = append(parts, presburger.Compare(x(s), presburger.Ge, k(fixed[s])))
		u = u.Add(x(s))
		fixedU += fixed[s]
	}
	parts = append(parts, presburger.Compare(u, presburger.Eq, k(fixedU+spreadSum)))
	// For each proper nonempty set A of spread groups (a bit mask over
	// spread) that is the neighbourhood of S_A, the states of U whose
	// groups are all in A: x(S_A) - F(S_A) <= n(A).
	mask := func(s int) int { // the spread groups that may start in s
		b := 0
		for i, g := range spread {
			if slices.Contains(sys.InitOver[g], s) {
				b |= 1 << i
			}
		}
		return b
	}
	for a := 1; a < 1<<len(spread)-1; a++ {
		var lhs presburger.Term
		var rhs int64
		nbhd := 0
		for s := range sys.States {
			if b := mask(s); inU[s] && b&^a == 0 {
				lhs = lhs.Add(x(s))
				rhs += fixed[s]
				nbhd |= b
			}
		}
		if nbhd != a {
			continue // empty, or the same S as a smaller A's, which binds more
		}
		for i, g := range spread {
			if a&(1<<i) != 0 {
				rhs += int64(sys.Groups[g].Size)
			}
		}
		parts = append(parts, presburger.Compare(lhs, presburger.Le, k(rhs)))
	}
	return presburger.Conj(parts...), true
}
