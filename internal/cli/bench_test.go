package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/specs"
)

func TestBenchTable4Cmd(t *testing.T) {
	t.Setenv("NUSMV", "")
	tests := []struct {
		name string
		args []string
		code int
		out  []string // substrings of stdout
		err  string   // substring of stderr
	}{
		{"list", []string{"bench", "table4", "--list"}, ExitOK, []string{"grw-d5", "asrf-r10-n80"}, ""},
		{"rows", []string{"bench", "table4", "--rows", "grw-d5,asrf-r2-n20"}, ExitOK,
			[]string{"| grw-d5 |", "1/1 hold", "| asrf-r2-n20 |", "| 25 | 3/3 hold", "NuSMV is unavailable"}, ""},
		{"unknown row", []string{"bench", "table4", "--rows", "nope"}, ExitBadInput, nil, `unknown row "nope"`},
		{"bad bound", []string{"bench", "table4", "--asr-bound", "0"}, ExitBadInput, nil, "--asr-bound"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runVsym(tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errs)
			}
			for _, s := range tc.out {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			if !strings.Contains(errs, tc.err) {
				t.Errorf("stderr lacks %q:\n%s", tc.err, errs)
			}
		})
	}
}

// TestExploreEngineBDD runs "vsym explore" with both engines on the
// bundled specs and checks they print the same JSON verdicts and counts.
func TestExploreEngineBDD(t *testing.T) {
	dir := t.TempDir()
	for _, name := range specs.List() {
		src, err := specs.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		type result struct {
			Engine          string          `json:"engine"`
			ReachableStates json.RawMessage `json:"reachable_states"`
			Deadlocks       json.RawMessage `json:"deadlocks"`
			Properties      []struct {
				Name  string `json:"name"`
				Holds bool   `json:"holds"`
			} `json:"properties"`
		}
		var got [2]result
		var codes [2]int
		for i, engine := range []string{"explicit", "bdd"} {
			out, errs, code := runVsym("explore", "--force", "--engine", engine, "-o", "json", file)
			codes[i] = code
			if code == ExitBadInput {
				t.Fatalf("%s %s: exit %d: %s", name, engine, code, errs)
			}
			if err := json.Unmarshal([]byte(out), &got[i]); err != nil {
				t.Fatalf("%s %s: %v\n%s", name, engine, err, out)
			}
		}
		if got[1].Engine != "bdd" || codes[0] != codes[1] ||
			string(got[0].ReachableStates) != string(got[1].ReachableStates) ||
			string(got[0].Deadlocks) != string(got[1].Deadlocks) || len(got[0].Properties) != len(got[1].Properties) {
			t.Fatalf("%s: explicit %+v (exit %d), bdd %+v (exit %d)", name, got[0], codes[0], got[1], codes[1])
		}
		for i := range got[0].Properties {
			if got[0].Properties[i] != got[1].Properties[i] {
				t.Errorf("%s: explicit %+v, bdd %+v", name, got[0].Properties[i], got[1].Properties[i])
			}
		}
	}
	// --engine auto on a small model keeps the explicit engine.
	out, errs, code := runVsym("explore", "--engine", "auto", "-o", "json", filepath.Join(dir, "mutex.yaml"))
	if code != ExitOK || !strings.Contains(out, `"engine": "explicit"`) {
		t.Fatalf("auto on mutex: exit %d, %s %s", code, out, errs)
	}
	if _, errs, code := runVsym("explore", "--engine", "bdd", "--bdd-order", "zigzag", filepath.Join(dir, "mutex.yaml")); code != ExitBadInput || !strings.Contains(errs, "zigzag") {
		t.Fatalf("bad order: exit %d, %s", code, errs)
	}
}

func TestChooseEngine(t *testing.T) {
	for _, tc := range []struct {
		q, m int
		want string
	}{{10, 10, "explicit"}, {15, 10, "bdd"}} {
		// Only the counter space matters: C(n+m-1, m-1).
		m := &counterabs.Model{N: tc.q, Init: make([]int, tc.m)}
		if got := chooseEngine(m); got != tc.want {
			t.Errorf("GRW n=%d m=%d (space %v): %s, want %s", tc.q, tc.m, counterSpace(m), got, tc.want)
		}
	}
}
