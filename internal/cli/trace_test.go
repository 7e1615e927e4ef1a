package cli

import "testing"

// TestExploreTraceText checks the explanation printed under a trace: one
// line per segment, down to the temporal operator that decides.
func TestExploreTraceText(t *testing.T) {
	spec := writeExploreFile(t, "t.yaml", `name: t
states: [N, M, T, D]
groups: {p: 1}
init: N
transitions:
  - {from: N, to: M}
  - {from: M, to: N}
  - {from: N, to: T}
  - {from: T, to: D}
properties:
  live: "AG (#N = 1 -> AF #T = 1)"
  dead: "AG (#T = 1 -> AF #N = 1)"
  ef-eg: "EF EG #D = 1"
`)
	for _, engine := range []string{"explicit", "bdd"} {
		expectRun(t, []string{"explore", spec, "--engine", engine, "-p", "live"}, ExitNo, []string{
			"explanation:",
			"state 0: AG ((#N = 1) -> AF (#T = 1)) fails: a shortest path to a state where ((#N = 1) -> AF (#T = 1)) fails",
			"AF (#T = 1) fails: a run on which (#T = 1) fails forever (a lasso looping back to state 0)",
		}, nil)
		expectRun(t, []string{"explore", spec, "--engine", engine, "-p", "dead"}, ExitNo, []string{
			"states 0-1: AG ((#T = 1) -> AF (#N = 1)) fails: a shortest path to a state where ((#T = 1) -> AF (#N = 1)) fails",
			"states 1-2: AF (#N = 1) fails: a path on which (#N = 1) fails, into a deadlock that stutters forever",
			"stutter (deadlock)",
		}, nil)
		expectRun(t, []string{"explore", spec, "--engine", engine, "-p", "ef-eg"}, ExitOK, []string{
			"states 0-2: EF EG (#D = 1) holds: a shortest path to a state where EG (#D = 1) holds",
			"state 2: EG (#D = 1) holds: a deadlock, where (#D = 1) holds and the run stutters forever",
		}, nil)
	}
}
