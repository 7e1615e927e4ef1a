package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
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
	if len(specs.List()) == 0 {
		t.Fatal("no bundled specs")
	}
	for _, name := range specs.List() {
		src, err := specs.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		type result struct {
			Stats struct {
				Engine string `json:"engine"`
			} `json:"stats"`
			ReachableStates json.RawMessage `json:"reachable_states"`
			Deadlocks       json.RawMessage `json:"deadlocks"`
			Properties      []struct {
				Name  string `json:"name"`
				Holds bool   `json:"holds"`
			} `json:"properties"`
		}
		var got [2]result
		var codes [2]int
		args := []string{"explore", "--count-states", "--output", "json", file}
		sys, err := gsst.Parse(name, src)
		if err != nil {
			t.Fatal(err)
		}
		if len(sys.Params) > 0 {
			// The threshold-guarded algorithms: the first values (in a
			// box of 0..4 each) that the assumption admits.
			args = append(args, "--params", firstParams(t, sys))
		}
		if counterabs.SpecLevel(sys) == counterabs.TotalLevel && sys.Simple() {
			// The total-counter model, forced where the system is not
			// certified (the group-counter model of an uncertified
			// system is what --model auto picks without it). A forced
			// total-counter model of a system beyond the paper (shared
			// variables, rendezvous, broadcast) is refused (counterabs),
			// so those keep --model auto.
			args = append(args, "--force")
		}
		if len(sys.RangedGroups()) > 0 {
			// A spec with ranges of sizes: its smallest instance.
			args = append(args, "--sizes", sizesExample(sys))
		}
		for i, engine := range []string{"explicit", "bdd"} {
			out, errs, code := runVsym(append(args, "--engine", engine)...)
			codes[i] = code
			if code == ExitBadInput {
				t.Fatalf("%s %s: exit %d: %s", name, engine, code, errs)
			}
			if err := json.Unmarshal([]byte(out), &got[i]); err != nil {
				t.Fatalf("%s %s: %v\n%s", name, engine, err, out)
			}
		}
		if got[1].Stats.Engine != "bdd" || codes[0] != codes[1] || len(got[0].Properties) == 0 ||
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
	out, errs, code := runVsym("explore", "--engine", "auto", "--output", "json", filepath.Join(dir, "mutex.yaml"))
	if code != ExitOK || !strings.Contains(out, `"engine": "explicit"`) {
		t.Fatalf("auto on mutex: exit %d, %s %s", code, out, errs)
	}
	if _, errs, code := runVsym("explore", "--engine", "bdd", "--bdd-order", "zigzag", filepath.Join(dir, "mutex.yaml")); code != ExitBadInput || !strings.Contains(errs, "zigzag") {
		t.Fatalf("bad order: exit %d, %s", code, errs)
	}
}

// With NUSMV set, table4 runs the binary on the reduced model of each row
// (with -df unless the row computes reachable states first) and counts
// its verdicts. A stand-in for NuSMV checks the arguments and the model
// and reports one verdict per specification; it sleeps, so that its
// wall time is far above its CPU time, which is what the column reports
// first.
func TestBenchTable4NuSMV(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "NuSMV")
	script := `#!/bin/sh
for f; do :; done
if [ "$1" = -df ]; then mode=df; else mode=reach; fi
case "$f" in
*/asrf-*) [ $mode = reach ] || exit 8 ;;
*) [ $mode = df ] || exit 8 ;;
esac
grep -q '^MODULE main' "$f" && grep -q 'total-counter model' "$f" || exit 9
n=$(grep -c '^CTLSPEC\|^INVARSPEC' "$f")
i=0
while [ $i -lt $n ]; do echo "-- specification $mode $i is true"; i=$((i+1)); done
echo "-- specification bogus is false"
sleep 1
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("NUSMV", fake)
	out, errs, code := runVsym("bench", "table4", "--rows", "grw-d5,asrf-r2-n20")
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
	// GR&W: mutex; ASR r=2: all_used, mutex1 and mutex2 (no INVARSPEC
	// twins).
	for _, want := range []string{"| grw-d5 |", " s wall, ", "1 true 1 false |", "| asrf-r2-n20 |", "3 true 1 false |"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	cols := regexp.MustCompile(`\| ([0-9.]+) s cpu, ([0-9.]+) s wall, `).FindAllStringSubmatch(out, -1)
	if len(cols) != 2 {
		t.Fatalf("want two NuSMV columns with cpu and wall time:\n%s", out)
	}
	for _, c := range cols {
		cpu, _ := strconv.ParseFloat(c[1], 64)
		wall, _ := strconv.ParseFloat(c[2], 64)
		if wall < 1 || cpu > 0.5 {
			t.Errorf("NuSMV stand-in slept 1 s: cpu %v s, wall %v s; the column must report CPU time first", cpu, wall)
		}
	}
	if strings.Contains(out, "NuSMV is unavailable") || strings.Contains(out, "error:") {
		t.Errorf("NuSMV column not filled:\n%s", out)
	}
}

// firstParams returns the first parameter values of sys, each in 0..4
// and the last varying fastest, that make an instance, as --params
// writes them.
func firstParams(t *testing.T, sys *gsst.System) string {
	t.Helper()
	values := make([]int, len(sys.Params))
	for {
		if _, err := sys.InstantiateParams(values, nil); err == nil {
			var parts []string
			for k, v := range values {
				parts = append(parts, fmt.Sprintf("%s=%d", sys.Params[k].Name, v))
			}
			return strings.Join(parts, ",")
		}
		k := len(values) - 1
		for k >= 0 && values[k] == 4 {
			values[k] = 0
			k--
		}
		if k < 0 {
			t.Fatalf("%s: no instance with parameters in 0..4", sys.Name)
		}
		values[k]++
	}
}
