package testsupport

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
)

// Replay on processes: a lifted step must be one of the steps ProcSteps
// gives (the reference semantics): the same transition or rendezvous,
// the same movers (a local transition's process, or one process per part
// of a rendezvous, in part order), and the configuration the step says
// (its movers and the processes it says a broadcast transfers) and, when
// it says them, the same shared values after it.

// Mover is one more process a lifted step moves: a part of a
// rendezvous, or a process a broadcast transfers.
type Mover struct{ Group, Process, From, To int }

// replayState is a state on processes during replay.
type replayState struct {
	sys    *gsst.System
	owner  []int
	offset []int
	st     ProcState
}

// process returns the number of process k of group g, or -1.
func (x *replayState) process(g, k int) int {
	if g < 0 || g >= len(x.sys.Groups) || k < 0 || k >= x.sys.Groups[g].Size {
		return -1
	}
	return x.offset[g] + k
}

// step checks s against the steps of the system and takes it.
func (x *replayState) step(s Step) error {
	steps := ProcSteps(x.sys, x.owner, x.st)
	if s.Stutter {
		if len(steps) > 0 {
			return fmt.Errorf("it stutters but a process can move")
		}
		return nil
	}
	var movers []int
	var moved []Mover
	if s.Transition >= 0 || s.Rendezvous >= 0 { // an environment step has no mover
		movers = []int{x.process(s.Group, s.Process)}
		moved = []Mover{{s.Group, s.Process, s.From, s.To}}
	}
	next := slices.Clone(x.st.Conf)
	for _, m := range s.Also {
		movers = append(movers, x.process(m.Group, m.Process))
	}
	moved = append(append(moved, s.Also...), s.Transferred...)
	for _, m := range moved {
		p := x.process(m.Group, m.Process)
		if p < 0 || x.st.Conf[p] != m.From {
			return fmt.Errorf("it moves a process that is not in %d", m.From)
		}
		next[p] = m.To
	}
	for _, ps := range steps {
		if ps.Transition != s.Transition || s.Transition < 0 && (ps.Rendezvous != s.Rendezvous || ps.Environment != s.Environment) ||
			!slices.Equal(ps.Movers, movers) || !slices.Equal(ps.Next.Conf, next) ||
			s.Shared != nil && !slices.Equal(ps.Next.Shared, s.Shared) {
			continue
		}
		x.st = ps.Next
		return nil
	}
	return fmt.Errorf("it is no step of the system (or does not say every process a broadcast moves, or the shared values)")
}
