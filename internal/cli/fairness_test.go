package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// toggleSystem: each process may toggle between N and M forever or move
// to T, where it stays (a deadlock once everybody is there). Without
// fairness nobody needs to reach T; the justice condition #T = 2 keeps
// only the runs that end with everybody in T.
const toggleSystem = `name: toggle
states: [N, M, T]
groups: {a: 1, b: 1}
init: N
transitions:
  - {from: N, to: M}
  - {from: M, to: N}
  - {from: N, to: T}
properties:
  reach-T: "AF #T = 2"
  b-reaches-T: "AF #T[b] = 1"
  stay: "EG #T = 0"
  never-T: "AG #T = 0"
`

// onlyA is not fully virtually symmetric: only group a may take T -> C.
// #T = 5 (of 2 processes) excludes every run.
const onlyA = `name: only-a
states: [N, T, C]
groups: {a: 1, b: 1}
init: N
transitions:
  - {from: N, to: T}
  - {from: T, to: C, guard: {a: "true"}}
  - {from: C, to: N}
properties:
  safe: "AG #C <= 2"
fairness:
  justice: ["#T = 5"]
`

type fairJSON struct {
	Model      string   `json:"model"`
	Fairness   []string `json:"fairness"`
	FairRun    *bool    `json:"fair_run"`
	Properties []struct {
		Name    string `json:"name"`
		Holds   bool   `json:"holds"`
		Vacuous bool   `json:"vacuous"`
		Trace   *struct {
			Loop     int `json:"loop"`
			Segments []struct {
				Formula string `json:"formula"`
				Kind    string `json:"kind"`
				Start   int    `json:"start"`
				End     int    `json:"end"`
			} `json:"segments"`
		} `json:"trace"`
	} `json:"properties"`
}

func TestExploreFairness(t *testing.T) {
	plain := writeExploreFile(t, "toggle.yaml", toggleSystem)
	justice := writeExploreFile(t, "justice.yaml", toggleSystem+"fairness:\n  justice: [\"#T = 2\"]\n")
	vacuous := writeExploreFile(t, "vacuous.yaml", toggleSystem+"fairness:\n  justice: [\"#T = 5\"]\n")
	perGroup := writeExploreFile(t, "group.yaml", toggleSystem+"fairness:\n  weak:\n    - N -> T [b]\n")
	forcedVacuous := writeExploreFile(t, "only-a.yaml", onlyA)
	forcedWeak := writeExploreFile(t, "only-a-weak.yaml", onlyA+"  weak: [\"T -> C\"]\n")
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
		check  func(t *testing.T, r *fairJSON)
	}{
		// Without fairness, the toggling lasso avoids T.
		{name: "unfair", args: []string{"explore", plain, "-p", "reach-T"}, code: ExitNo,
			stdout: []string{"property reach-T: AF #T = 2: FAILS", "lasso"}},
		// Every fair run ends with both in T: AF holds, EG #T = 0 fails.
		{name: "justice", args: []string{"explore", justice, "--output", "json", "-p", "reach-T,stay"}, code: ExitNo,
			check: func(t *testing.T, r *fairJSON) {
				if r.Model != "total" || len(r.Fairness) != 1 || r.Fairness[0] != "#T = 2" {
					t.Errorf("model %s, fairness %v", r.Model, r.Fairness)
				}
				if r.FairRun == nil || !*r.FairRun {
					t.Errorf("fair_run %v, want true", r.FairRun)
				}
				want := map[string]bool{"reach-T": true, "stay": false}
				for _, p := range r.Properties {
					if p.Holds != want[p.Name] || p.Vacuous {
						t.Errorf("%s: holds %v vacuous %v", p.Name, p.Holds, p.Vacuous)
					}
				}
			}},
		{name: "justice-text-bdd", args: []string{"explore", justice, "--engine", "bdd", "-p", "reach-T"}, code: ExitOK,
			stdout: []string{"fairness (path quantifiers range over paths meeting each infinitely often): #T = 2", "property reach-T: AF #T = 2: holds"}},
		// A justice condition no run meets: every property holds vacuously,
		// and that is a finding (exit 1) unless --allow-no-fair-run.
		{name: "vacuous", args: []string{"explore", vacuous, "--output", "json"}, code: ExitNo,
			stderr: []string{"no fair run from the initial state", "--allow-no-fair-run"},
			check:  vacuousJSON},
		{name: "vacuous-bdd", args: []string{"explore", vacuous, "--output", "json", "--engine", "bdd"}, code: ExitNo,
			stderr: []string{"no fair run from the initial state"},
			check:  vacuousJSON},
		{name: "vacuous-allowed", args: []string{"explore", vacuous, "--output", "json", "--allow-no-fair-run"}, code: ExitOK,
			stderr: []string{"warning", "no fair run from the initial state", "accepted"},
			check:  vacuousJSON},
		{name: "vacuous-text", args: []string{"explore", vacuous, "-p", "never-T"}, code: ExitNo,
			stdout: []string{"no fair run from the initial state", "(exit 1; --allow-no-fair-run accepts it)", "holds vacuously"}},
		// On a forced total-counter model no fair run under justice over
		// total counters carries over to the system; under weak fairness
		// it does not, and the verdict is inconclusive (exit 3).
		{name: "vacuous-forced", args: []string{"explore", forcedVacuous, "--force", "--output", "json"}, code: ExitNo,
			stderr: []string{"no fair run from the initial state"},
			check:  vacuousJSON},
		{name: "vacuous-forced-weak", args: []string{"explore", forcedWeak, "--force"}, code: ExitUnknown,
			stdout: []string{"holds vacuously", "inconclusive"}},
		// Without fairness there is nothing to say about fair runs.
		{name: "no-fairness", args: []string{"explore", plain, "--output", "json", "-p", "stay"}, code: ExitOK,
			check: func(t *testing.T, r *fairJSON) {
				if r.FairRun != nil {
					t.Errorf("fair_run %v without fairness", *r.FairRun)
				}
			}},
		// Weak fairness per group needs the group-counter model.
		{name: "per-group-auto", args: []string{"explore", perGroup, "-p", "reach-T"}, code: ExitNo,
			stdout: []string{"group-counter model", "weak fairness of N -> T [b] is per group", "FAILS"}},
		{name: "per-group-total", args: []string{"explore", perGroup, "--model", "total", "-p", "reach-T"}, code: ExitBadInput,
			stderr: []string{"weak fairness of N -> T [b] is per group", "group-counter model"}},
		// A failing AG under justice: a shortest path to a T state, then
		// a fair lasso (both in T, stuttering) that shows the run is fair.
		{name: "fair-trace", args: []string{"explore", justice, "--output", "json", "-p", "never-T", "--engine", "explicit"}, code: ExitNo,
			check: func(t *testing.T, r *fairJSON) {
				p := r.Properties[0]
				if p.Trace == nil || p.Trace.Loop < 0 || len(p.Trace.Segments) != 2 {
					t.Fatalf("trace %+v", p.Trace)
				}
				s0, s1 := p.Trace.Segments[0], p.Trace.Segments[1]
				if s0.Kind != "path" || s0.Formula != "AG (#T = 0)" || s0.Start != 0 || s0.End != 1 ||
					s1.Kind != "fair-continuation" || s1.Start != 1 {
					t.Errorf("segments %+v", p.Trace.Segments)
				}
			}},
		{name: "fair-trace-bdd", args: []string{"explore", justice, "-p", "never-T", "--engine", "bdd"}, code: ExitNo,
			stdout: []string{"property never-T: AG #T = 0: FAILS", "lasso"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := expectRun(t, c.args, c.code, c.stdout, c.stderr)
			if c.check != nil {
				var r fairJSON
				if err := json.Unmarshal(out, &r); err != nil {
					t.Fatalf("bad JSON: %v\n%s", err, out)
				}
				c.check(t, &r)
			}
		})
	}
}

// vacuousJSON checks a report in which no fair run starts: every
// property holds vacuously, without a trace, and fair_run is false.
func vacuousJSON(t *testing.T, r *fairJSON) {
	t.Helper()
	if r.FairRun == nil || *r.FairRun {
		t.Errorf("fair_run %v, want false", r.FairRun)
	}
	for _, p := range r.Properties {
		if !p.Holds || !p.Vacuous || p.Trace != nil {
			t.Errorf("%s: holds %v vacuous %v trace %v", p.Name, p.Holds, p.Vacuous, p.Trace)
		}
	}
}

// expectRun runs the command line args and checks its exit code and
// that stdout and stderr contain the given substrings; it returns stdout.
func expectRun(t *testing.T, args []string, code int, stdout, stderr []string) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	if got := Main(args, &out, &errb); got != code {
		t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", got, code, out.String(), errb.String())
	}
	for _, s := range stdout {
		if !strings.Contains(out.String(), s) {
			t.Errorf("stdout lacks %q:\n%s", s, out.String())
		}
	}
	for _, s := range stderr {
		if !strings.Contains(errb.String(), s) {
			t.Errorf("stderr lacks %q:\n%s", s, errb.String())
		}
	}
	return out.Bytes()
}
