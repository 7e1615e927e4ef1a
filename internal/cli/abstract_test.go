package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
)

func runVsym(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Main(args, &out, &errb)
	return out.String(), errb.String(), code
}

// TestAbstractJSON decodes the JSON output of abstract (its text output,
// exit codes and errors are compared whole in the transcripts,
// testdata/transcripts/abstract-*.txtar).
func TestAbstractJSON(t *testing.T) {
	rw := "../../specs/readers-writers.yaml"
	stdout, stderr, code := runVsym("abstract", "--output", "json", rw)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkAbstractJSON(t, rw, stdout)
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
