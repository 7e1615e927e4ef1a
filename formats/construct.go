package formats

import (
	"fmt"

	"github.com/vsym/vsym/gsst"
)

// Construct is a step or a declaration of a source format that the GSST
// language cannot state yet. A reader refuses what needs one with a
// Missing error that names it, rather than translate the file into a
// different system.
type Construct int

const (
	// SplitInit is an initial condition that splits the processes in a
	// way the language cannot state yet: several equations over the
	// locations (loc0 + loc1 == N - F with locF == F), a location left
	// free or bounded by an inequality. (A second equation whose
	// processes never move and whose locations nothing reads is left
	// out, bymc/translate.go: withoutInert. One equation over several
	// locations is a group spread over them, gsst/initial.go; a mist
	// place that may start empty, or a net with no process, is read with
	// a state of processes that never move, formats/mist/outside.go.)
	SplitInit Construct = iota + 1
	// SharedInitRange is a shared variable whose initial values the
	// language cannot state yet: x != c, a least value over the
	// parameters, several bounds of one side. (A value over the
	// parameters, and a range from a constant to a value over the
	// parameters or with no greatest, are gsst/initial.go's.)
	SharedInitRange
	// ParallelRules is several transitions between the same two states,
	// each with its own guard and update.
	ParallelRules
	// SelfLoopUpdate is a self-loop that updates shared variables.
	SelfLoopUpdate
	// IdleStep is a step that changes nothing (ByMC's loc -> loc rules).
	// A reader leaves such a step out when every property of the file
	// is a safety property, whose truth it cannot change; it is needed
	// for the others.
	IdleStep
	// RendezvousBroadcast is a rendezvous that also broadcasts.
	RendezvousBroadcast
	// BroadcastMoverStays is a broadcast whose mover stays where it is.
	BroadcastMoverStays
	// CounterTransfer is a transfer between a process state and a shared
	// counter (processes that become a number, or the reverse).
	CounterTransfer
)

var constructNames = [...]string{
	SplitInit:           "an initial split of the processes other than one sum over locations (several sums, a free or bounded location)",
	SharedInitRange:     "a shared variable whose initial values are no range from a constant to a value over the parameters",
	ParallelRules:       "several transitions between the same two states",
	SelfLoopUpdate:      "a self-loop that updates shared variables",
	IdleStep:            "an idle step (a step that changes nothing)",
	RendezvousBroadcast: "a rendezvous that also broadcasts",
	BroadcastMoverStays: "a broadcast whose mover stays",
	CounterTransfer:     "a transfer between a process state and a shared counter",
}

// Constructs lists every construct, in order.
func Constructs() []Construct {
	out := make([]Construct, 0, len(constructNames)-1)
	for c := SplitInit; int(c) < len(constructNames); c++ {
		out = append(out, c)
	}
	return out
}

func (c Construct) String() string {
	if c <= 0 || int(c) >= len(constructNames) {
		return fmt.Sprintf("Construct(%d)", int(c))
	}
	return constructNames[c]
}

// Missing says that the element of the source at Pos needs Construct,
// which the GSST language does not have yet. What names the element and
// says why ("rule 5: loc0 -> loc0 updates nsnt").
type Missing struct {
	Construct Construct
	Pos       gsst.Pos
	What      string
}

// Message is the error message of m.
func (m Missing) Message() string {
	return fmt.Sprintf("%s: needs %s, which the GSST language cannot state yet", m.What, m.Construct)
}
