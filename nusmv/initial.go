package nusmv

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
)

// The initial configurations of a system with several
// (gsst/initial.go): the concrete model gives each process of a spread
// group the set of its group's initial states, and each shared variable
// with a range of initial values that range; the counter models list
// their initial states in an INIT constraint.

// initialStates returns the initial value of process pr: its state, or
// the set of its group's initial states.
func initialStates(sys *gsst.System, pr proc, st []string) string {
	if sys.InitOver == nil || sys.InitOver[pr.group] == nil {
		return st[pr.init]
	}
	var names []string
	for _, s := range sys.InitOver[pr.group] {
		names = append(names, st[s])
	}
	return "{" + strings.Join(names, ", ") + "}"
}

// initial returns the initial value of shared variable j: its value, or
// its range of values.
func (sv *sharedVars) initial(j int, v *gsst.Shared) string {
	if v.InitSeveral() {
		return fmt.Sprintf("%d..%d", v.Init, v.InitHi)
	}
	return sv.constant(j, v.Init)
}

// initialStatesOf returns the INIT constraint of a counter model with
// several initial states: the model's formula of them
// (counterabs.Model.InitialFormula), whose size grows with the states and
// groups, not with the number of initial states, written with atom; or,
// where there is no such formula, the list of them.
func initialStatesOf(m *counterabs.Model, ctr []string, sv *sharedVars, atom atomfn) (string, error) {
	if f, ok := m.InitialFormula(); ok {
		x, err := formula(f, atom)
		if err != nil {
			return "", err
		}
		return x.s, nil
	}
	var alts []string
	for _, x := range m.Initials {
		var parts []string
		for i := range m.Counters {
			parts = append(parts, fmt.Sprintf("%s = %d", ctr[i], x[i]))
		}
		for j := range m.Shared {
			parts = append(parts, fmt.Sprintf("%s = %s", sv.name[j], sv.constant(j, x[len(m.Counters)+j])))
		}
		alts = append(alts, "("+strings.Join(parts, " & ")+")")
	}
	return wrapJoin(alts, " | ", "    "), nil
}
