package enginetest

import (
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// BruteModel is the total-counter model of sys built from the
// brute-force existential abstraction (no solver, no counterabs.Build),
// exact when brute force certifies the system (Theorem 6).
func BruteModel(sys *gsst.System) (*counterabs.Model, *testsupport.Brute) {
	b := testsupport.BruteForce(sys)
	var trans []counterabs.Transition
	for r := range sys.Transitions {
		t := &sys.Transitions[r]
		if len(t.Blocks) == 0 {
			continue // no process may take it: no step of the system
		}
		trans = append(trans, counterabs.Transition{From: t.From, To: t.To, Guard: b.Guard(r), Case: counterabs.CaseProjection, Local: r, Group: -1})
	}
	m, err := counterabs.Assemble(sys, counterabs.TotalLevel, trans, b.Certified())
	if err != nil {
		panic(err)
	}
	if !m.Exact {
		// The forced model stutters wherever some configuration with
		// those totals is deadlocked (counterabs.Model.MayDeadlock).
		m.MayDeadlock = b.MayDeadlock()
	}
	return m, b
}

// BruteCertified reports whether sys is fully virtually symmetric, by
// enumeration (Theorem 6), and returns its existential counter
// abstraction at the total level.
func BruteCertified(sys *gsst.System) (*counterabs.Model, bool) {
	m, b := BruteModel(sys)
	return m, b.Certified()
}
