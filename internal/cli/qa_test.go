package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// These tests run every command on malformed input, bad flags and a
// timeout too short for any solver call, and check the contract of the
// command line: exit code 2 with a positioned message for bad input, exit
// code 3 with "unknown" (and never a verdict) for a timeout, and never a
// panic or a Go stack trace.

// badSpecs are malformed GSST files; each must be rejected with exit code
// 2 and, since the problem is in the file, a file:line:col message.
var badSpecs = []struct {
	name, src string
	want      string // substring of the message
}{
	{"empty", "", "empty file"},
	{"binary-garbage", "E\xcb\x00p\x8a\xb7\xf9\x8d", "invalid YAML"},
	{"control-character", "states: [N, \x01T]\n", "invalid YAML"},
	{"yaml-syntax-first-line", "name: states: [N]\n", "invalid YAML"},
	{"yaml-syntax", "name: x\nstates: [N, T\ngroups: {a: 1}\n", "invalid YAML"},
	{"unknown-names", "states: [N, T]\ngroups: {a: 1}\ninit: X\ntransitions:\n  - {from: N, to: Q, guard: \"#Z = 0 & #T[b] = 1\"}\n", `unknown local state "X"`},
	{"wrong-kinds", "name: [a]\nstates: {N: 1}\ngroups: [a]\ninit: 3\ntransitions: none\n", "expected a list of state names"},
	{"huge-numbers", "states: [N, T]\ngroups: {a: 99999999999999999999999, b: 1000001}\ninit: N\ntransitions:\n  - {from: N, to: T, guard: \"#N > 99999999999999999999\"}\n", "too large"},
	{"types", "states: [N, T]\ngroups: {a: 1}\ninit: N\ntransitions:\n  - {from: N, to: T, guard: \"#N & true\"}\nproperties:\n  p: \"AG #N\"\n", "must be conditions"},
	{"group-in-property", "states: [N, T]\ngroups: {a: 1}\ninit: N\ntransitions: []\nproperties:\n  p: \"AG #N[b] = 1\"\n", "unknown group \"b\""},
	{"unquoted-guard", "states: [N, T]\ngroups: {a: 1}\ninit: N\ntransitions:\n  - from: N\n    to: T\n    guard: #N = 1\n", "quote it"},
	{"twice", "states: [N, T]\ngroups: {a: 1}\ninit: N\ntransitions:\n  - {from: N, to: N}\n  - {from: N, to: N, name: wait}\n", "given twice"},
	{"two-documents", "states: [N]\ngroups: {a: 1}\ninit: N\ntransitions: []\n---\nstates: [N]\n", "more than one YAML document"},
	{"duplicates", "states: [N, N]\ngroups: {a: 1, a: 2}\ninit: N\ntransitions: []\n", "duplicate"},
	{"deep-nesting", "states: [N, T]\ngroups: {a: 1}\ninit: N\ntransitions:\n  - {from: N, to: T, guard: \"" + strings.Repeat("(", 2000) + "#N = 1" + strings.Repeat(")", 2000) + "\"}\n", "nested too deeply"},
}

var positioned = regexp.MustCompile(`(?m)^\S+\.yaml:\d+:\d+: `)

// noCrash fails the test when the output looks like a Go panic.
func noCrash(t *testing.T, out string) {
	t.Helper()
	for _, s := range []string{"panic", "goroutine ", "runtime error", ".go:"} {
		if strings.Contains(out, s) {
			t.Fatalf("output contains %q:\n%s", s, out)
		}
	}
}

func TestBadSpecEveryCommand(t *testing.T) {
	dir := t.TempDir()
	commands := [][]string{
		{"check"}, {"check", "--output", "json"}, {"abstract"}, {"abstract", "--output", "json"},
		{"nusmv"}, {"nusmv", "--concrete"}, {"explore"}, {"explore", "--concrete"}, {"explore", "--output", "json"},
	}
	for _, bs := range badSpecs {
		file := filepath.Join(dir, bs.name+".yaml")
		if err := os.WriteFile(file, []byte(bs.src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, c := range commands {
			args := append(append([]string{}, c...), file)
			t.Run(bs.name+"/"+strings.Join(c, "_"), func(t *testing.T) {
				stdout, stderr, code := runVsym(args...)
				noCrash(t, stdout+stderr)
				if code != ExitBadInput {
					t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitBadInput, stderr)
				}
				if !strings.Contains(stderr, bs.want) {
					t.Errorf("stderr lacks %q:\n%s", bs.want, stderr)
				}
				// Every line of a file error starts with file:line:col,
				// without a "vsym:" prefix on the first line only.
				for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
					if !positioned.MatchString(line) {
						t.Errorf("line without file:line:col: %q", line)
					}
				}
				switch {
				case slices.Contains(c, "json"):
					// One JSON document, each error positioned in file.
					doc := decodeOneJSON(t, stdout)
					errs, _ := doc["errors"].([]any)
					if len(errs) == 0 || doc["file"] != file {
						t.Fatalf("JSON without errors or file:\n%s", stdout)
					}
					for _, e := range errs {
						e, _ := e.(map[string]any)
						if line, _ := e["line"].(float64); e["file"] != file || line < 1 || e["message"] == "" {
							t.Errorf("unpositioned error %v", e)
						}
					}
				case c[0] != "check" && stdout != "":
					t.Errorf("stdout not empty on bad input:\n%s", stdout)
				}
			})
		}
	}
}

func TestBadFileArgument(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.yaml")
	for _, c := range []string{"check", "abstract", "nusmv", "explore"} {
		for _, arg := range []string{missing, dir} {
			t.Run(c+"/"+filepath.Base(arg), func(t *testing.T) {
				_, stderr, code := runVsym(c, arg)
				noCrash(t, stderr)
				if code != ExitBadInput || !strings.HasPrefix(stderr, "vsym: ") || !strings.Contains(stderr, arg) {
					t.Errorf("exit %d, stderr %q", code, stderr)
				}
			})
		}
	}
}

func TestBadFlags(t *testing.T) {
	rw := writeExploreFile(t, "rw.yaml", rwYAML)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"check", "--timeout", "-1s", rw}, "must not be negative"},
		{[]string{"check", "--timeout", "soon", rw}, "invalid argument"},
		{[]string{"check", "--solver-timeout", "-1s", rw}, "--solver-timeout must not be negative"},
		{[]string{"prove", "--property-timeout", "-1s", rw}, "--property-timeout must not be negative"},
		{[]string{"prove", "--timeout", "-1s", rw}, "--timeout must not be negative"},
		{[]string{"dot", "--check", "--solver-timeout", "-1s", rw}, "--solver-timeout must not be negative"},
		{[]string{"dot", "--solver-timeout", "1s", rw}, "--solver-timeout applies to --check"},
		{[]string{"bench", "table4", "--row-timeout", "-1s"}, "--row-timeout must not be negative"},
		{[]string{"bench", "table4", "--timeout", "-1s"}, "--timeout must not be negative"},
		{[]string{"check", "--output", "yaml", rw}, "unknown output format"},
		{[]string{"check"}, "needs at least one FILE"},
		{[]string{"abstract", "--timeout", "-1s", rw}, "must not be negative"},
		{[]string{"abstract", "--output", "xml", rw}, "unknown output format"},
		{[]string{"abstract", rw, rw}, "takes one FILE"},
		{[]string{"nusmv", "--timeout", "-1s", rw}, "must not be negative"},
		{[]string{"nusmv", "--concrete", "--force", rw}, "--force applies"},
		{[]string{"nusmv", "-o", filepath.Join(rw, "x.smv"), rw}, "x.smv"},
		{[]string{"explore", "--timeout", "-1s", rw}, "must not be negative"},
		{[]string{"explore", "--max-states", "-1", rw}, "must not be negative"},
		{[]string{"explore", "--max-memory", "1x", rw}, "bad size"},
		{[]string{"explore", "--engine", "nope", rw}, "unknown engine"},
		{[]string{"explore", "--output", "xml", rw}, "unknown output format"},
		{[]string{"explore", "-p", "nope", rw}, `no property named "nope"`},
		{[]string{"explore", "--concrete", "--force", rw}, "--force applies"},
		{[]string{"gen", "grw", "--groups", "0"}, "out of range"},
		{[]string{"gen", "asr", "--procs", "3", "--resources", "5"}, "owner groups"},
		{[]string{"gen", "example", "nope"}, "no bundled specification"},
		{[]string{"gen"}, "needs a family"},
		{[]string{"nope"}, "unknown command"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			stdout, stderr, code := runVsym(c.args...)
			noCrash(t, stdout+stderr)
			if code != ExitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, c.want)
			}
		})
	}
}

// TestTimeoutIsUnknown: with a deadline that has passed before any solver
// call, every command that decides something must answer "unknown" with
// exit code 3, print no verdict, and not suggest --force (a timeout is
// not a failed certification).
func TestTimeoutIsUnknown(t *testing.T) {
	rw := writeExploreFile(t, "rw.yaml", rwYAML)
	broken := writeExploreFile(t, "broken.yaml", brokenYAML)
	for _, file := range []string{rw, broken} {
		for _, c := range [][]string{
			{"check"}, {"check", "--output", "json"}, {"abstract"}, {"abstract", "--output", "json"}, {"nusmv"},
			{"explore"}, {"explore", "--output", "json"}, {"explore", "--concrete"},
			{"prove"}, {"prove", "--output", "json"}, {"dot", "--check"},
		} {
			args := append(append([]string{}, c...), "--timeout", "1ns", file)
			t.Run(filepath.Base(file)+"/"+strings.Join(c, "_"), func(t *testing.T) {
				stdout, stderr, code := runVsym(args...)
				noCrash(t, stdout+stderr)
				if code != ExitUnknown {
					t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitUnknown, stdout, stderr)
				}
				if !strings.Contains(stdout+stderr, "unknown") {
					t.Errorf("no \"unknown\" in the output:\n%s%s", stdout, stderr)
				}
				bads := []string{"certified", "holds", "violated", "--force"}
				if slices.Contains(c, "json") {
					bads = []string{`"certified": true`, `"holds": true`, `"violated"`, "--force"}
				}
				for _, bad := range bads {
					if strings.Contains(stdout+stderr, bad) {
						t.Errorf("output mentions %q after a timeout:\n%s%s", bad, stdout, stderr)
					}
				}
			})
		}
	}
}

func TestLimitIsUnknown(t *testing.T) {
	rw := writeExploreFile(t, "rw.yaml", rwYAML)
	for _, args := range [][]string{
		{"explore", "--max-states", "1", rw},
		{"explore", "--concrete", "--max-states", "1", rw},
		{"explore", "--max-memory", "1", rw},
	} {
		t.Run(strings.Join(args[1:len(args)-1], " "), func(t *testing.T) {
			stdout, stderr, code := runVsym(args...)
			if code != ExitUnknown || stdout != "" || !strings.Contains(stderr, rw+": unknown: ") {
				t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
		})
	}
}

// A property named twice with -p is checked and reported once.
func TestExplorePropertyOnce(t *testing.T) {
	rw := writeExploreFile(t, "rw.yaml", rwYAML)
	stdout, stderr, code := runVsym("explore", "-p", "mutex", "-p", "mutex,reachable,mutex", rw)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stdout, "property mutex:"); n != 1 {
		t.Errorf("mutex reported %d times:\n%s", n, stdout)
	}
	if !strings.Contains(stdout, "property reachable:") || strings.Contains(stdout, "never-C") {
		t.Errorf("want exactly mutex and reachable:\n%s", stdout)
	}
}

// A system without transitions (or with one process) is valid: the JSON
// arrays stay arrays and the text says "1 process".
func TestAbstractEdgeSystems(t *testing.T) {
	none := writeExploreFile(t, "none.yaml", "states: [A, B]\ngroups: {a: 1}\ninit: A\ntransitions: []\n")
	stdout, stderr, code := runVsym("abstract", "--output", "json", none)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if tr, ok := doc["transitions"].([]any); !ok || len(tr) != 0 {
		t.Errorf("transitions = %#v, want []", doc["transitions"])
	}
	if doc["deadlock"] != "true" {
		t.Errorf("deadlock = %v, want true (nothing can move)", doc["deadlock"])
	}
	stdout, _, _ = runVsym("abstract", none)
	if !strings.HasPrefix(stdout, "system none: 1 process, 2 local states, total-counter model\n") {
		t.Errorf("header: %q", strings.SplitN(stdout, "\n", 2)[0])
	}
}

// decodeOneJSON decodes out, which must hold exactly one JSON object.
func decodeOneJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatalf("stdout holds more than one JSON document:\n%s", out)
	}
	return doc
}
