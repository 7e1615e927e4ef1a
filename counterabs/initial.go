package counterabs

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/errkind"
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
