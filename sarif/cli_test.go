package sarif_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/cli"
	"github.com/vsym/vsym/internal/testsupport"
)

// These tests run vsym's check and explore with --output sarif. They live
// here, not in internal/cli, because the JSON-schema validator
// initialises its meta-schemas when a binary starts (about 15-30 ms):
// internal/cli's test binary is also the vsym that its transcripts and
// limit tests start some 280 times.
//
// Every SARIF log is validated against the official SARIF 2.1.0 JSON
// schema (OASIS, errata 01). The schema is not kept in this repository:
// the Go module github.com/securego/gosec/v2 ships it, and scripts/deps.sh
// puts that module version into the module cache with "go mod download"
// (checked against the Go checksum database). Without it these tests
// fail, they do not skip.
const (
	sarifSchemaModule = "github.com/securego/gosec/v2@v2.30.0"
	sarifSchemaPath   = "report/sarif/testdata/sarif-schema-2.1.0.json"
	sarifSchemaSHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
	sarifSchemaID     = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

var sarifSchemaOnce = sync.OnceValues(func() (*jsonschema.Schema, error) {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return nil, err
	}
	file := filepath.Join(strings.TrimSpace(string(out)), filepath.FromSlash(sarifSchemaModule), filepath.FromSlash(sarifSchemaPath))
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != sarifSchemaSHA256 {
		return nil, &os.PathError{Op: "check sha256 of", Path: file, Err: os.ErrInvalid}
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if id, _ := doc.(map[string]any)["id"].(string); id != sarifSchemaID {
		return nil, &os.PathError{Op: "find the OASIS id in", Path: file, Err: os.ErrInvalid}
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(sarifSchemaID, doc); err != nil {
		return nil, err
	}
	return c.Compile(sarifSchemaID)
})

func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	sch, err := sarifSchemaOnce()
	if err != nil {
		t.Fatalf("the SARIF 2.1.0 schema is missing (sh scripts/deps.sh fetches it: go mod download %s): %v", sarifSchemaModule, err)
	}
	return sch
}

// runVsym runs vsym in this process.
func runVsym(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = cli.Main(args, &out, &errb)
	return out.String(), errb.String(), code
}

// sarifLog is what the tests read back from a log.
type sarifLog struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID   string `json:"id"`
					Help struct {
						Text string `json:"text"`
					} `json:"help"`
					DefaultConfiguration struct {
						Level string `json:"level"`
					} `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		AutomationDetails struct {
			ID string `json:"id"`
		} `json:"automationDetails"`
		ColumnKind string `json:"columnKind"`
		Results    []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region *struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

// finding is one result as the tests compare it.
type finding struct {
	rule, level, uri string
	line, col        int
}

// runSARIF runs vsym, validates its stdout against the SARIF schema and
// returns the findings and the texts of their messages.
func runSARIF(t *testing.T, code int, args ...string) ([]finding, []string) {
	t.Helper()
	stdout, stderr, got := runVsym(args...)
	if got != code {
		t.Fatalf("vsym %v: exit %d, want %d; stderr %s", args, got, code, stderr)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(stdout))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if err := sarifSchema(t).Validate(inst); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v\n%s", err, stdout)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs", len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name != "vsym" || run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("driver %q, columnKind %q", run.Tool.Driver.Name, run.ColumnKind)
	}
	// One category per check run, one per explored file.
	category := "vsym/check/"
	if args[0] == "explore" {
		category = "vsym/explore/" + fileURI(args[len(args)-1]) + "/"
	}
	if run.AutomationDetails.ID != category {
		t.Errorf("automation id %q, want %q", run.AutomationDetails.ID, category)
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.Help.Text == "" {
			t.Errorf("rule %s has no help", r.ID)
		}
	}
	if run.Results == nil {
		t.Fatalf("results absent, want an array:\n%s", stdout)
	}
	var out []finding
	var msgs []string
	for _, r := range run.Results {
		rules := run.Tool.Driver.Rules
		if r.RuleIndex < 0 || r.RuleIndex >= len(rules) || rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result of rule %s has index %d", r.RuleID, r.RuleIndex)
		} else if rules[r.RuleIndex].DefaultConfiguration.Level != r.Level {
			t.Errorf("result of rule %s has level %s", r.RuleID, r.Level)
		}
		f := finding{rule: r.RuleID, level: r.Level}
		if len(r.Locations) == 1 {
			loc := r.Locations[0].PhysicalLocation
			f.uri = loc.ArtifactLocation.URI
			if loc.Region != nil {
				f.line, f.col = loc.Region.StartLine, loc.Region.StartColumn
			}
		}
		out = append(out, f)
		msgs = append(msgs, r.Message.Text)
	}
	return out, msgs
}

// at returns the text of file from line and column on (1-based).
func at(t *testing.T, file string, line, col int) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1])+1 {
		t.Fatalf("%s:%d:%d is outside the file", file, line, col)
	}
	return lines[line-1][col-1:]
}

func TestCheckSARIF(t *testing.T) {
	dir := t.TempDir()
	rw := filepath.Join("..", "specs", "readers-writers.yaml")
	broken := filepath.Join("..", "specs", "readers-writers-broken.yaml")
	mutex := filepath.Join("..", "specs", "mutex.yaml")
	uri := fileURI

	// A clean run: no results.
	if got, _ := runSARIF(t, cli.ExitOK, "check", "--output", "sarif", rw, mutex); len(got) != 0 {
		t.Errorf("clean run has results %v", got)
	}

	// One result per violated transition, at the transition.
	got, msgs := runSARIF(t, cli.ExitNo, "check", "--output", "sarif", mutex, broken)
	want := []finding{{"violated-transition", "error", uri(broken), 14, 5}}
	if !equalFindings(got, want) {
		t.Fatalf("findings %v, want %v", got, want)
	}
	if s := at(t, broken, 14, 5); !strings.HasPrefix(s, "from: T") {
		t.Errorf("the result points at %q, not at transition T -> C", s)
	}
	for _, w := range []string{"T -> C breaks full virtual symmetry", "group writer can take T -> C", "enabled   N  T  C", "writer    1  1  0", "disabled  N  T  C"} {
		if !strings.Contains(msgs[0], w) {
			t.Errorf("message lacks %q:\n%s", w, msgs[0])
		}
	}

	// A bad file: every error at its position, as vsym reports it.
	bad := filepath.Join(dir, "bad.yaml")
	src := "states: [N, T]\ngroups: {p: 0}\ninit: X\ntransitions: [{from: N, to: Q}]\n"
	if err := os.WriteFile(bad, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, perr := gsst.Parse(bad, []byte(src))
	list, ok := perr.(gsst.ErrorList)
	if !ok || len(list) < 3 {
		t.Fatalf("the bad file has errors %v", perr)
	}
	want = nil
	for _, e := range list {
		want = append(want, finding{"invalid-spec", "error", uri(bad), e.Pos.Line, e.Pos.Col})
	}
	got, _ = runSARIF(t, cli.ExitBadInput, "check", "--output", "sarif", bad, rw)
	if !equalFindings(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
	got, _ = runSARIF(t, cli.ExitBadInput, "check", "--output", "sarif", filepath.Join(dir, "missing.yaml"))
	if len(got) != 1 || got[0].rule != "invalid-spec" || got[0].line != 0 || got[0].uri != uri(filepath.Join(dir, "missing.yaml")) {
		t.Errorf("missing file: %v", got)
	}

	// A transition the solver could not decide in time: a warning at it.
	big := testsupport.WriteHardSpec(t, dir)
	sys, err := gsst.Load(big)
	if err != nil {
		t.Fatal(err)
	}
	pos := sys.Transitions[2].Pos // L3 -> L4, the guarded one
	got, _ = runSARIF(t, cli.ExitUnknown, "check", "--solver-timeout", "1ms", "--output", "sarif", big)
	want = []finding{{"undecided-transition", "warning", uri(big), pos.Line, pos.Col}}
	if !equalFindings(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
}

func TestExploreSARIF(t *testing.T) {
	dir := t.TempDir()
	rw := filepath.Join("..", "specs", "readers-writers.yaml")
	broken := filepath.Join("..", "specs", "readers-writers-broken.yaml")
	race := filepath.Join("..", "specs", "readers-writers-race.yaml")
	uri := fileURI

	if got, _ := runSARIF(t, cli.ExitOK, "explore", "--output", "sarif", rw); len(got) != 0 {
		t.Errorf("clean run has results %v", got)
	}

	// A failed property, at the property, with its counterexample.
	sys, err := gsst.Load(race)
	if err != nil {
		t.Fatal(err)
	}
	pos := sys.Properties[0].Pos
	for _, engine := range []string{"explicit", "bdd"} {
		got, msgs := runSARIF(t, cli.ExitNo, "explore", "--engine", engine, "--output", "sarif", race)
		want := []finding{{"failed-property", "error", uri(race), pos.Line, pos.Col}}
		if !equalFindings(got, want) {
			t.Fatalf("%s: findings %v, want %v", engine, got, want)
		}
		if s := at(t, race, pos.Line, pos.Col); !strings.HasPrefix(s, `"AG #C <= 1"`) {
			t.Errorf("the result points at %q, not at property mutex", s)
		}
		for _, w := range []string{"property mutex (AG #C <= 1) fails", "counterexample (path of 7 states)", "#C=2", "replay on the unreduced system", "W -> C"} {
			if !strings.Contains(msgs[0], w) {
				t.Errorf("%s: message lacks %q:\n%s", engine, w, msgs[0])
			}
		}
	}

	// Not certified: explored exactly on the group-counter model, where
	// every property holds; refused under --model total, said at the file.
	if got, _ := runSARIF(t, cli.ExitOK, "explore", "--output", "sarif", broken); len(got) != 0 {
		t.Errorf("uncertified system on the group-counter model: %v", got)
	}
	got, _ := runSARIF(t, cli.ExitNo, "explore", "--model", "total", "--output", "sarif", broken)
	if !equalFindings(got, []finding{{"not-certified", "error", uri(broken), 0, 0}}) {
		t.Errorf("refused system: %v", got)
	}
	// Forced: every property is unknown, at the property.
	bsys, err := gsst.Load(broken)
	if err != nil {
		t.Fatal(err)
	}
	var want []finding
	for _, p := range bsys.Properties {
		want = append(want, finding{"undecided-property", "warning", uri(broken), p.Pos.Line, p.Pos.Col})
	}
	if got, _ := runSARIF(t, cli.ExitUnknown, "explore", "--force", "--output", "sarif", broken); !equalFindings(got, want) {
		t.Errorf("forced: findings %v, want %v", got, want)
	}
	// A limit: unknown, at the file.
	got, msgs := runSARIF(t, cli.ExitUnknown, "explore", "--max-states", "2", "--output", "sarif", rw)
	if !equalFindings(got, []finding{{"undecided-property", "warning", uri(rw), 0, 0}}) || !strings.Contains(msgs[0], "state limit") {
		t.Errorf("limit: %v %q", got, msgs)
	}
	// A bad file: its errors at their positions.
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("states: [N]\ngroups: {p: 1}\ninit: N\ntransitions: []\nproperties: {p: \"AG #Q = 0\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// "AG #Q = 0": the unknown state Q is at column 22.
	if got, _ := runSARIF(t, cli.ExitBadInput, "explore", "--output", "sarif", bad); !equalFindings(got, []finding{{"invalid-spec", "error", uri(bad), 5, 22}}) {
		t.Errorf("bad file: %v", got)
	}
	// Usage errors are not findings: nothing on stdout.
	if stdout, _, code := runVsym("explore", "--output", "sarif", "-p", "nope", rw); code != cli.ExitBadInput || stdout != "" {
		t.Errorf("usage error: exit %d, stdout %q", code, stdout)
	}
	if _, stderr, code := runVsym("explore", "--output", "xml", rw); code != cli.ExitBadInput || !strings.Contains(stderr, "want text, json or sarif") {
		t.Errorf("unknown format: exit %d, stderr %q", code, stderr)
	}
}

// fileURI is the artifact URI expected for a path: relative paths as
// they are, absolute ones as file: URIs (the test paths need no escaping).
func fileURI(path string) string {
	if filepath.IsAbs(path) {
		return "file://" + filepath.ToSlash(path)
	}
	return filepath.ToSlash(path)
}

func equalFindings(a, b []finding) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
