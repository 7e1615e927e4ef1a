package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
)

const (
	checkMutexFile  = "../../specs/mutex.yaml"
	checkRWFile     = "../../specs/readers-writers.yaml"
	checkBrokenFile = "../../specs/readers-writers-broken.yaml"
)

// The text output of check, its exit codes and its errors are compared
// whole in the transcripts (testdata/transcripts/check-*.txtar); the
// tests here decode its JSON.

func containsInOrder(t *testing.T, what, text string, subs []string) {
	t.Helper()
	rest := text
	for _, s := range subs {
		i := strings.Index(rest, s)
		if i < 0 {
			t.Errorf("%s lacks %q (in order)\n%s", what, s, text)
			return
		}
		rest = rest[i+len(s):]
	}
}

// TestCheckJSON decodes the JSON output, checks its documented shape, and
// re-verifies the witness of the broken system against the loaded system.
func TestCheckJSON(t *testing.T) {
	stdout, stderr, code := runVsym("check", "--output", "json", checkBrokenFile)
	if code != ExitNo {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got checkJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if got.Certified || got.Verdict != "violated" || got.System != "readers-writers-broken" || len(got.Transitions) != 3 {
		t.Fatalf("%+v", got)
	}
	tc := got.Transitions[1]
	if tc.From != "T" || tc.To != "C" || tc.Verdict != "violated" || tc.Witness == nil || tc.Queries < 1 {
		t.Fatalf("T -> C: %+v", tc)
	}
	sys, err := gsst.Load(checkBrokenFile)
	if err != nil {
		t.Fatal(err)
	}
	w := &detect.Witness{Group: -1}
	for g, gr := range sys.Groups {
		w.Enabled = append(w.Enabled, tc.Witness.Enabled[gr.Name])
		w.Disabled = append(w.Disabled, tc.Witness.Disabled[gr.Name])
		if gr.Name == tc.Witness.Group {
			w.Group = g
		}
	}
	if strings.Join(tc.Witness.States, ",") != "N,T,C" {
		t.Errorf("states %v", tc.Witness.States)
	}
	if err := detect.VerifyWitness(sys, &sys.Transitions[1], w); err != nil {
		t.Errorf("JSON witness does not verify: %v", err)
	}
	for _, tr := range []checkTransitionJSON{got.Transitions[0], got.Transitions[2]} {
		if tr.Verdict != "symmetric" || tr.Witness != nil {
			t.Errorf("%+v", tr)
		}
	}

	// The generic shape, as documented: certified and per-transition
	// from, to, verdict, witness (null unless violated).
	var generic map[string]any
	if err := json.Unmarshal([]byte(stdout), &generic); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"file", "system", "verdict", "certified", "transitions"} {
		if _, ok := generic[k]; !ok {
			t.Errorf("missing key %q", k)
		}
	}
	for _, tr := range generic["transitions"].([]any) {
		for _, k := range []string{"from", "to", "file", "line", "col", "verdict", "reason", "queries", "witness"} {
			if _, ok := tr.(map[string]any)[k]; !ok {
				t.Errorf("transition lacks key %q", k)
			}
		}
	}
}

// TestCheckJSONPositions: every transition of the check JSON of every
// bundled spec names its file, and its line and column point into that
// file at the transition's entry, "from: U" or "{from: U".
func TestCheckJSONPositions(t *testing.T) {
	files, err := filepath.Glob("../../specs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundled specs: %v", err)
	}
	checked := 0
	for _, file := range files {
		stdout, stderr, code := runVsym("check", "--output", "json", "--timeout", "1ns", file)
		if code == ExitBadInput {
			t.Fatalf("%s: %s", file, stderr)
		}
		var got checkJSON
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("%s: %v\n%s", file, err, stdout)
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		if len(got.Transitions) == 0 {
			t.Errorf("%s: no transitions", file)
		}
		for i, tr := range got.Transitions {
			if tr.File != file || tr.Line < 1 || tr.Line > len(lines) || tr.Col < 1 || tr.Col > len(lines[tr.Line-1]) {
				t.Errorf("%s: transition %d at %s:%d:%d", file, i, tr.File, tr.Line, tr.Col)
				continue
			}
			at := strings.TrimPrefix(lines[tr.Line-1][tr.Col-1:], "{")
			if !strings.HasPrefix(at, "from: "+tr.From) {
				t.Errorf("%s: transition %s -> %s at line %d column %d, which reads %q", file, tr.From, tr.To, tr.Line, tr.Col, at)
			}
			checked++
		}
	}
	t.Logf("%d transitions of %d specs located", checked, len(files))
}

func TestCheckJSONSeveralFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("states: [A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, code := runVsym("check", "--output", "json", checkMutexFile, checkRWFile, bad)
	if code != ExitBadInput {
		t.Errorf("exit %d", code)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(raw) != 3 {
		t.Fatalf("%d objects", len(raw))
	}
	for i, w := range []string{"symmetric", "certified"} {
		var got checkJSON
		if err := json.Unmarshal(raw[i], &got); err != nil || got.Verdict != w || !got.Certified {
			t.Errorf("file %d: %+v (%v)", i, got, err)
		}
	}
	// The bad file gets the error object every command prints, with its
	// own exit code, and no verdict.
	var doc errorDocJSON
	dec := json.NewDecoder(bytes.NewReader(raw[2]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%v\n%s", err, raw[2])
	}
	if doc.File != bad || doc.Command != "check" || doc.ExitCode != ExitBadInput || doc.Kind != "input" ||
		len(doc.Errors) != 1 || doc.Errors[0].File != bad || doc.Errors[0].Line == 0 {
		t.Errorf("error object %+v", doc)
	}
}

func TestSevererExit(t *testing.T) {
	tests := []struct{ a, b, want int }{
		{ExitOK, ExitOK, ExitOK},
		{ExitOK, ExitUnknown, ExitUnknown},
		{ExitUnknown, ExitNo, ExitNo},
		{ExitNo, ExitUnknown, ExitNo},
		{ExitNo, ExitBadInput, ExitBadInput},
		{ExitBadInput, ExitOK, ExitBadInput},
	}
	for _, tt := range tests {
		if got := severerExit(tt.a, tt.b); got != tt.want {
			t.Errorf("severerExit(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestHeaderManyGroups: the header of a spec with 1000 groups says how
// many groups have each size, on one short line, instead of listing
// every group (issue 19); up to 8 groups are listed one by one.
func TestHeaderManyGroups(t *testing.T) {
	groups := "1000" // certified in some 3 CPU seconds
	if testing.Short() {
		groups = "100"
	}
	file := filepath.Join(t.TempDir(), "grw.yaml")
	if _, stderr, code := runVsym("gen", "grw", "--groups", groups, "--size", "1..", "--states", "2", "-o", file); code != ExitOK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	stdout, stderr, code := runVsym("check", file)
	if code != ExitOK {
		t.Fatalf("check: exit %d: %s", code, stderr)
	}
	header, _, _ := strings.Cut(stdout, "\n")
	if want := file + ": grw-d" + groups + "-q1..-m2: " + groups + " groups, each 1.., 2 transitions; every size is checked"; header != want {
		t.Errorf("header %q, want %q", header, want)
	}
	stdout, _, _ = runVsym("check", filepath.Join("..", "..", "specs", "readers-writers-param.yaml"))
	if header, _, _ := strings.Cut(stdout, "\n"); !strings.Contains(header, "2 groups of sizes reader 1.., writer 1..") {
		t.Errorf("header %q does not list the groups", header)
	}
}
