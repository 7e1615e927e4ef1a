package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
)

func runVsym(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Main(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestAbstractCmd(t *testing.T) {
	dir := t.TempDir()
	badYAML := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(badYAML, []byte("states: [A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Group counters on a state other than the source: outside the
	// paper's fragment, abstracted by projection.
	projYAML := filepath.Join(dir, "proj.yaml")
	if err := os.WriteFile(projYAML, []byte(`name: proj
states: [U, V, W]
groups: {a: 1, b: 1}
init: U
transitions:
  - from: U
    to: V
    guard: {a: "#W[b] = 0", b: "#W[a] = 0"}
  - {from: V, to: W}
  - {from: W, to: U}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	rw := "../../specs/readers-writers.yaml"
	broken := "../../specs/readers-writers-broken.yaml"
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     []string // substrings
		stderr     []string
		noStdout   bool
		jsonOutput bool
	}{
		{"readers-writers", []string{"abstract", rw}, ExitOK, []string{
			"3 processes", "certified fully virtually symmetric",
			"#T in 0..3", "invariant: #N + #T + #C = 3", "init: #N = 3, #T = 0, #C = 0",
			"  N -> T: #N >= 1   [case a]",
			"  T -> C: #T >= 1 & #C = 0   [case c]",
			"  C -> N: #C >= 1   [case a]",
			"deadlock (no transition enabled): false",
		}, nil, false, false},
		{"mutex", []string{"abstract", "../../specs/mutex.yaml"}, ExitOK, []string{
			"  T -> C: #T >= 1 & #C = 0   [case a]",
		}, nil, false, false},
		{"projection", []string{"abstract", projYAML}, ExitOK, []string{
			"  U -> V: #U >= 1 & #W = 0   [case projection]",
		}, nil, false, false},
		{"broken group", []string{"abstract", broken}, ExitOK, []string{
			"group-counter model", "not fully virtually symmetric: transition T -> C breaks",
			"  T -> C [reader]: #T[reader] >= 1 & #C[reader] + #C[writer] = 0 & #T[reader] + #T[writer] = 2   [case group]",
		}, nil, false, false},
		{"broken total refused", []string{"abstract", "--model", "total", broken}, ExitNo, nil, []string{
			"not fully virtually symmetric", "transition T -> C", "no process can in",
			"--force", "--model group",
		}, true, false},
		{"broken forced", []string{"abstract", "--force", broken}, ExitOK, []string{
			"NOT certified", "  T -> C: #T >= 1 & #C = 0   [case b, violates symmetry]",
		}, []string{"warning", "transition T -> C"}, false, false},
		{"json", []string{"abstract", "--output", "json", rw}, ExitOK, nil, nil, false, true},
		{"missing file", []string{"abstract", filepath.Join(dir, "none.yaml")}, ExitBadInput, nil, []string{"none.yaml"}, true, false},
		{"bad yaml", []string{"abstract", badYAML}, ExitBadInput, nil, []string{"bad.yaml"}, true, false},
		{"bad output", []string{"abstract", "--output", "xml", rw}, ExitBadInput, nil, []string{"xml"}, true, false},
		{"negative timeout", []string{"abstract", "--timeout", "-1s", rw}, ExitBadInput, nil, []string{"timeout"}, true, false},
		{"no file", []string{"abstract"}, ExitBadInput, nil, nil, true, false},
		{"timeout", []string{"abstract", "--timeout", "1ns", rw}, ExitUnknown, nil, []string{"timeout after 1ns"}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runVsym(tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if tt.noStdout && stdout != "" {
				t.Errorf("unexpected stdout:\n%s", stdout)
			}
			if tt.jsonOutput {
				checkAbstractJSON(t, rw, stdout)
			}
		})
	}
}

// checkAbstractJSON decodes the JSON output and checks it against the
// documented schema and the system: guards parse back in the GSST guard
// language over the same counters.
func checkAbstractJSON(t *testing.T, file, out string) {
	t.Helper()
	var a struct {
		System    string `json:"system"`
		File      string `json:"file"`
		Model     string `json:"model"`
		Reason    string `json:"reason"`
		Processes int    `json:"processes"`
		States    int    `json:"states"`
		Certified bool   `json:"certified"`
		Exact     bool   `json:"exact"`
		Forced    bool   `json:"forced"`
		Counters  []struct {
			State    string `json:"state"`
			Group    string `json:"group"`
			Name     string `json:"name"`
			Min, Max int
		} `json:"counters"`
		Invariant   string `json:"invariant"`
		Init        []int  `json:"init"`
		Transitions []struct {
			From, To, Group, Guard, Case, Verdict string
		} `json:"transitions"`
		Deadlock string `json:"deadlock"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("decode: %v\n%s", err, out)
	}
	sys, err := gsst.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if a.System != sys.Name || a.File != file || a.Processes != 3 || !a.Certified || a.Forced {
		t.Errorf("header: %+v", a)
	}
	if len(a.Counters) != 3 || a.Counters[1].State != "T" || a.Counters[1].Name != "#T" || a.Counters[1].Min != 0 || a.Counters[1].Max != 3 {
		t.Errorf("counters: %+v", a.Counters)
	}
	if a.Invariant != "#N + #T + #C = 3" || len(a.Init) != 3 || a.Init[0] != 3 || a.Deadlock != "false" {
		t.Errorf("invariant %q init %v deadlock %q", a.Invariant, a.Init, a.Deadlock)
	}
	want := [][]string{{"N", "T", "#N >= 1", "a", "symmetric"}, {"T", "C", "#T >= 1 & #C = 0", "c", "certified"}, {"C", "N", "#C >= 1", "a", "symmetric"}}
	if len(a.Transitions) != len(want) {
		t.Fatalf("transitions: %+v", a.Transitions)
	}
	for i, w := range want {
		tr := a.Transitions[i]
		if got := []string{tr.From, tr.To, tr.Guard, tr.Case, tr.Verdict}; strings.Join(got, "|") != strings.Join(w, "|") {
			t.Errorf("transition %d = %v, want %v", i, got, w)
		}
	}
	if strings.Contains(out, `\u003`) {
		t.Error("JSON escapes < > &")
	}
	for _, g := range append([]string{a.Invariant, a.Deadlock}, a.Transitions[1].Guard) {
		if _, err := gsst.ParseExpr(g); err != nil {
			t.Errorf("%q does not parse as a guard: %v", g, err)
		}
	}
}
