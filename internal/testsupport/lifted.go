package testsupport

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
)

// Lifted is an engine's trace replayed on the unreduced system, process
// by process, as explore.Lifted describes it (restated here, since
// testsupport imports no engine): processes are laid out as Processes
// says, Steps[i] leads from configuration i to configuration i+1, and
// when Loop >= 0 the configuration after the last step equals
// configuration Loop. Error, when not empty, says why lifting stopped.
type Lifted struct {
	Steps []Step
	Loop  int
	Error string
}

// Step is one move of a lifted run: process Process (numbered within
// Group) moves from local state From to To by transition Transition (an
// index into System.Transitions); a Stutter step (a deadlock) moves
// nobody. With Transition -1 the step is rendezvous Rendezvous, whose
// other parts Also moves, or, with Rendezvous -1 too, environment step
// Environment, which moves no process of its own (Group, Process, From
// and To are -1); Transferred are the processes a broadcast moves;
// Shared, when not nil, the shared values after the step.
type Step struct {
	Stutter                              bool
	Transition, Group, Process, From, To int
	Rendezvous, Environment              int
	Also, Transferred                    []Mover
	Shared                               []int
}

func (s Step) String() string {
	if s.Stutter {
		return "stutter"
	}
	if s.Transition < 0 && s.Rendezvous < 0 {
		return fmt.Sprintf("environment step %d", s.Environment)
	}
	return fmt.Sprintf("group %d process %d: %d -> %d by transition %d", s.Group, s.Process, s.From, s.To, s.Transition)
}

// Replay replays tr.Lifted on sys from its initial configuration and
// returns the configurations of the run (conf[p] the local state of
// process p, numbered as Processes does). Every step must be a step of
// sys on processes (ProcSteps, procreplay.go): the same transition or
// rendezvous, movers and configuration after it; a stutter only where
// no process can move. After each step the counters must be those of the trace's state
// (unrolled around its loop), the lifted run at least as long as the
// trace (one closing step more for a lasso), and a lifted loop must
// return to the configuration it names.
func Replay(sys *gsst.System, tr *Trace) ([][]int, error) {
	L := tr.Lifted
	if L == nil {
		return nil, fmt.Errorf("no lifted run")
	}
	if L.Error != "" {
		return nil, fmt.Errorf("lifting failed: %s", L.Error)
	}
	m, d := len(sys.States), len(sys.Groups)
	offset := make([]int, d+1)
	for g := 0; g < d; g++ {
		offset[g+1] = offset[g] + sys.Groups[g].Size
	}
	group, conf := Processes(sys)
	confs := [][]int{slices.Clone(conf)}
	st := &replayState{sys: sys, owner: group, offset: offset, st: ProcState{Conf: slices.Clone(conf), Shared: sys.InitShared()}}
	shareds := [][]int{sys.InitShared()} // after each step
	n := len(tr.Totals)
	want := n - 1
	if tr.Loop >= 0 {
		want = n // at least one closing step
	}
	if len(L.Steps) < want {
		return nil, fmt.Errorf("%d lifted steps for %d trace steps", len(L.Steps), want)
	}
	loopLen := n - tr.Loop
	for k, s := range L.Steps {
		var target int
		switch o := k - (n - 1); {
		case o < 0:
			target = k + 1
		case tr.Loop < 0:
			return nil, fmt.Errorf("lifted run longer than a loop-free trace")
		case o%loopLen == 0:
			target = tr.Loop
		default:
			target = tr.Loop + o%loopLen
		}
		if err := st.step(s); err != nil {
			return nil, fmt.Errorf("lifted step %d (%v): %v", k+1, s, err)
		}
		conf = slices.Clone(st.st.Conf)
		shareds = append(shareds, st.st.Shared)
		if tr.Shared != nil && tr.Shared[target] != nil && !slices.Equal(tr.Shared[target], st.st.Shared) {
			return nil, fmt.Errorf("after lifted step %d shared values %v, trace says %v", k+1, st.st.Shared, tr.Shared[target])
		}
		tot := make([]int, m)
		for _, s := range conf {
			tot[s]++
		}
		if fmt.Sprint(tot) != fmt.Sprint(tr.Totals[target]) ||
			tr.Groups != nil && tr.Groups[target] != nil && fmt.Sprint(counters(sys, group, conf)) != fmt.Sprint(tr.Groups[target]) {
			return nil, fmt.Errorf("after lifted step %d counters %v, trace says %v", k, tot, tr.Totals[target])
		}
		confs = append(confs, slices.Clone(conf))
	}
	if (L.Loop >= 0) != (tr.Loop >= 0) {
		return nil, fmt.Errorf("lifted loop %d, trace loop %d", L.Loop, tr.Loop)
	}
	if L.Loop >= 0 && (L.Loop >= len(confs) || !slices.Equal(confs[L.Loop], confs[len(confs)-1]) ||
		!slices.Equal(shareds[L.Loop], shareds[len(shareds)-1])) {
		return nil, fmt.Errorf("lifted loop does not return to configuration %d", L.Loop)
	}
	return confs, nil
}
