package cli

import (
	"encoding/json"
	"testing"
)

// politeYAML deadlocks when both processes are in T: each waits for the
// other to leave.
const politeYAML = `name: polite
states: [N, T, C]
groups: {p: 2}
init: N
transitions:
  - {from: N, to: T}
  - {from: T, to: C, guard: "#T = 1 & #C = 0"}
  - {from: C, to: N}
properties:
  mutex: "AG #C <= 1"
`

func TestDeadlockFree(t *testing.T) {
	polite := writeExploreFile(t, "polite.yaml", politeYAML)
	rw := writeExploreFile(t, "rw.yaml", rwYAML)
	// Without the flag, a deadlock is reported but does not fail the run.
	expectRun(t, []string{"explore", polite}, ExitOK, []string{
		"deadlocks: 1", "deadlock: #N=0 #T=2 #C=0", "states 0-2: deadlock-free fails", "stutter (deadlock)"}, nil)
	for _, engine := range [][]string{{"--engine", "explicit"}, {"--engine", "bdd"}, {"--engine", "bdd", "--bdd-no-reach"}} {
		args := append([]string{"explore", polite, "--deadlock-free"}, engine...)
		expectRun(t, args, ExitNo, []string{"deadlock-free (--deadlock-free): FAILS"}, []string{"a deadlock is reachable"})
		out := expectRun(t, append(args, "--output", "json"), ExitNo, nil, nil)
		var r struct {
			DeadlockFree   *bool `json:"deadlock_free"`
			DeadlockTraces []struct {
				Kind   string            `json:"kind"`
				States []json.RawMessage `json:"states"`
				Loop   int               `json:"loop"`
				Lifted struct {
					Steps []struct {
						Stutter bool `json:"stutter"`
					} `json:"steps"`
				} `json:"lifted"`
			} `json:"deadlock_traces"`
		}
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatal(err)
		}
		if r.DeadlockFree == nil || *r.DeadlockFree || len(r.DeadlockTraces) != 1 {
			t.Fatalf("%v: deadlock_free %v, %d traces", engine, r.DeadlockFree, len(r.DeadlockTraces))
		}
		tr := r.DeadlockTraces[0]
		steps := tr.Lifted.Steps
		if tr.Kind != "deadlock" || len(tr.States) != 3 || tr.Loop != 2 || len(steps) != 3 || !steps[2].Stutter {
			t.Errorf("%v: deadlock trace %+v", engine, tr)
		}
		// No deadlock: the flag passes.
		expectRun(t, append([]string{"explore", rw, "-p", "mutex", "--deadlock-free"}, engine...), ExitOK,
			[]string{"deadlock-free (--deadlock-free): holds"}, nil)
	}
}
