package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/internal/testsupport"
)

// rwYAML is readers/writers (Fig. 1(b) of the paper) with one reader and
// two writers and the properties these tests check, written here so that
// expected output does not follow edits of the bundled specs.
var rwYAML = testsupport.ReadersWritersYAML(1, 2, false) + `properties:
  mutex: "AG #C <= 1"
  reachable: "EF #C = 1"
  no-deadlock: "AG EX true"
  never-C: "AG #C = 0"
  all-leave-N: "AF #N = 0"
`

// brokenYAML has the reader's guard #T = 2 that breaks full virtual
// symmetry (section 4.3).
var brokenYAML = testsupport.ReadersWritersYAML(1, 2, true) + "properties:\n  mutex: \"AG #C <= 1\"\n"

func writeExploreFile(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// exploreJSON mirrors the documented JSON schema (docs/explore.md).
type exploreJSON struct {
	System          string `json:"system"`
	Engine          string `json:"engine"`
	Model           string `json:"model"`
	Exact           bool   `json:"exact"`
	ReachableStates int64  `json:"reachable_states"`
	ConcreteStates  *int64 `json:"concrete_states"`
	Deadlocks       int64  `json:"deadlocks"`
	Properties      []struct {
		Name  string `json:"name"`
		Holds bool   `json:"holds"`
		Trace *struct {
			Kind   string `json:"kind"`
			States []struct {
				Counters []int   `json:"counters"`
				Groups   [][]int `json:"groups"`
			} `json:"states"`
			Loop   int `json:"loop"`
			Lifted *struct {
				Steps []struct {
					Stutter   bool   `json:"stutter"`
					GroupName string `json:"group_name"`
					Process   int    `json:"process"`
					FromName  string `json:"from_name"`
					ToName    string `json:"to_name"`
				} `json:"steps"`
				Loop  int    `json:"loop"`
				Error string `json:"error"`
			} `json:"lifted"`
		} `json:"trace"`
	} `json:"properties"`
}

func TestExploreCommand(t *testing.T) {
	rw := writeExploreFile(t, "rw.yaml", rwYAML)
	broken := writeExploreFile(t, "broken.yaml", brokenYAML)
	cases := []struct {
		name     string
		args     []string
		code     int
		stdout   []string // substrings
		stderr   []string
		check    func(t *testing.T, r *exploreJSON)
		wantJSON bool
	}{
		{name: "abstract-json", args: []string{"explore", rw, "--output", "json"}, code: ExitNo, wantJSON: true,
			check: func(t *testing.T, r *exploreJSON) {
				if r.Model != "total" || !r.Exact || r.ReachableStates != 7 || r.Deadlocks != 0 || r.ConcreteStates != nil {
					t.Errorf("report %+v", r)
				}
				want := map[string]bool{"mutex": true, "reachable": true, "no-deadlock": true, "never-C": false, "all-leave-N": false}
				if len(r.Properties) != len(want) {
					t.Fatalf("%d properties reported, want %d: %+v", len(r.Properties), len(want), r.Properties)
				}
				for _, p := range r.Properties {
					if h, ok := want[p.Name]; !ok || p.Holds != h {
						t.Errorf("%s: holds %v", p.Name, p.Holds)
					}
					switch p.Name {
					case "never-C":
						// Shortest counterexample: N -> T -> C by one process.
						if p.Trace == nil || p.Trace.Kind != "counterexample" || len(p.Trace.States) != 3 ||
							p.Trace.Lifted == nil || len(p.Trace.Lifted.Steps) != 2 || p.Trace.Lifted.Error != "" {
							t.Errorf("never-C trace %+v", p.Trace)
						}
					case "all-leave-N":
						if p.Trace == nil || p.Trace.Loop < 0 || p.Trace.Lifted == nil || p.Trace.Lifted.Loop < 0 {
							t.Errorf("all-leave-N: want a lasso, got %+v", p.Trace)
						}
					}
				}
			}},
		{name: "selected", args: []string{"explore", rw, "--output", "json", "--property", "mutex,reachable"}, code: ExitOK, wantJSON: true,
			check: func(t *testing.T, r *exploreJSON) {
				if len(r.Properties) != 2 || r.Properties[0].Name != "mutex" || r.Properties[1].Name != "reachable" {
					t.Errorf("properties %+v", r.Properties)
				}
			}},
		{name: "concrete", args: []string{"explore", rw, "--concrete", "--output", "json", "-p", "mutex"}, code: ExitOK, wantJSON: true,
			check: func(t *testing.T, r *exploreJSON) {
				if r.Model != "group" || r.ReachableStates != 13 || r.ConcreteStates == nil || *r.ConcreteStates != 20 {
					t.Errorf("report %+v", r)
				}
			}},
		// The forced model over-approximates: mutex, universal, holds in
		// the system too (exit 0).
		{name: "forced", args: []string{"explore", broken, "--force", "--output", "json"}, code: ExitOK, wantJSON: true,
			stderr: []string{"warning", "universal (ACTL)"},
			check: func(t *testing.T, r *exploreJSON) {
				if r.Exact {
					t.Error("forced model reported exact")
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(c.args, &out, &errb)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out.String(), errb.String())
			}
			for _, s := range c.stdout {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, out.String())
				}
			}
			for _, s := range c.stderr {
				if !strings.Contains(errb.String(), s) {
					t.Errorf("stderr lacks %q:\n%s", s, errb.String())
				}
			}
			if c.wantJSON {
				var r exploreJSON
				if err := json.Unmarshal(out.Bytes(), &r); err != nil {
					t.Fatalf("bad JSON: %v\n%s", err, out.String())
				}
				if c.check != nil {
					c.check(t, &r)
				}
			}
		})
	}
}

func TestParseSize(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"1024", 1024, true}, {"512M", 512 << 20, true}, {"512MiB", 512 << 20, true},
		{"2G", 2 << 30, true}, {"1.5k", 1536, true}, {"4GB", 4 << 30, true}, {"1T", 1 << 40, true},
		{"", 0, false}, {"lots", 0, false}, {"-1", 0, false}, {"5X", 0, false}, {"1e30", 0, false},
	}
	for _, c := range cases {
		got, err := parseSize(c.in)
		if (err == nil) != c.ok || c.ok && got != c.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}
