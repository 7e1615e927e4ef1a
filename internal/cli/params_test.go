package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

const (
	paramRWFile       = "../../specs/readers-writers-param.yaml"
	paramPrintersFile = "../../specs/printers.yaml"
)

// brokenParam is the broken readers/writers for every size.
const brokenParam = `name: broken-param
states: [N, T, C]
groups:
  reader: 1..
  writer: 1..3
init: N
transitions:
  - {from: N, to: T}
  - from: T
    to: C
    guard:
      reader: "#C = 0 & #T = 2"
      writer: "#C = 0"
  - {from: C, to: N}
properties:
  mutex: "AG #C <= 1"
`

func TestCheckAllSizes(t *testing.T) {
	broken := filepath.Join(t.TempDir(), "broken-param.yaml")
	if err := os.WriteFile(broken, []byte(brokenParam), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
	}{
		{"ranged", []string{"check", paramRWFile}, ExitOK, []string{
			"readers-writers-param: 2 groups of sizes reader 1.., writer 1.., 3 transitions; every size is checked",
			"  T -> C: certified",
			"readers-writers-param: certified fully virtually symmetric for every size (1 transition certified by the solver, 2 symmetric)"}},
		{"ranged broken", []string{"check", broken}, ExitNo, []string{
			"  T -> C: violated at sizes reader=1, writer=1: the two configurations below have equal total counters;",
			"enabled", "total     1  1  0", "disabled", "total     1  1  0",
			"broken-param: not fully virtually symmetric for every size (1 of 3 transitions violated)"}},
		{"all sizes of a fixed spec", []string{"check", "--all-sizes", checkRWFile}, ExitOK, []string{
			"readers-writers: 2 groups of sizes reader 1.., writer 1.., 3 transitions; every size is checked",
			"certified fully virtually symmetric for every size"}},
		{"all sizes of the broken spec", []string{"check", "--all-sizes", checkBrokenFile}, ExitNo, []string{
			"violated at sizes reader=1, writer=1"}},
		{"fixed sizes unchanged", []string{"check", checkRWFile}, ExitOK, []string{
			"readers-writers: 3 processes in 2 groups, 3 transitions", "certified fully virtually symmetric (1 transition"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runVsym(tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			containsInOrder(t, "stdout", stdout, tt.stdout)
		})
	}

	// JSON: the sizes, whether the verdict is for every size, and the
	// witness's sizes, which must re-verify.
	stdout, _, code := runVsym("check", "--output", "json", broken)
	if code != ExitNo {
		t.Fatalf("exit %d", code)
	}
	var doc checkJSON
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.AllSizes || doc.Sizes["reader"] != "1.." || doc.Sizes["writer"] != "1..3" {
		t.Errorf("all_sizes %v, sizes %v", doc.AllSizes, doc.Sizes)
	}
	wj := doc.Transitions[1].Witness
	if wj == nil || wj.Sizes["reader"] != 1 || wj.Sizes["writer"] != 1 {
		t.Fatalf("witness %+v", wj)
	}
	sys, err := gsst.Load(broken)
	if err != nil {
		t.Fatal(err)
	}
	w := &detect.Witness{Sizes: []int{wj.Sizes["reader"], wj.Sizes["writer"]},
		Enabled:  [][]int{wj.Enabled["reader"], wj.Enabled["writer"]},
		Disabled: [][]int{wj.Disabled["reader"], wj.Disabled["writer"]}, Group: 1}
	if wj.Group != "writer" {
		t.Errorf("witness group %s", wj.Group)
	}
	if err := detect.VerifyWitness(sys, &sys.Transitions[1], w); err != nil {
		t.Errorf("JSON witness does not verify: %v", err)
	}
	stdout, _, _ = runVsym("check", "--output", "json", checkRWFile)
	if !strings.Contains(stdout, `"all_sizes": false`) || !strings.Contains(stdout, `"reader": "1"`) {
		t.Errorf("fixed-size JSON:\n%s", stdout)
	}

	// A count init cannot be read for all sizes.
	counts := filepath.Join(t.TempDir(), "counts.yaml")
	if err := os.WriteFile(counts, []byte("states: [A, B]\ngroups: {p: 2}\ninit: {p: {A: 1, B: 1}}\ntransitions: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runVsym("check", "--all-sizes", counts)
	if code != ExitBadInput || !strings.Contains(stderr, `counts.yaml:3:8: init of group "p" gives counts per state, but its size is the range 1.. (every group is read for all sizes)`) {
		t.Errorf("count init under --all-sizes: exit %d\n%s", code, stderr)
	}
}

// TestSizesFlag: the commands that need one instance refuse a ranged spec
// without --sizes, naming the flag, and work on the instance with it.
func TestSizesFlag(t *testing.T) {
	for _, cmd := range []string{"explore", "abstract", "nusmv"} {
		_, stderr, code := runVsym(cmd, paramRWFile)
		want := "group sizes are ranges (reader: 1.., writer: 1..); " + cmd + " needs fixed sizes: give them with --sizes, e.g. --sizes reader=1,writer=1"
		if code != ExitBadInput || !strings.Contains(stderr, want) {
			t.Errorf("%s without --sizes: exit %d\n%s", cmd, code, stderr)
		}
	}
	runFlagCases(t, []flagCase{
		{"explore instance", []string{"explore", "--sizes", "reader=2,writer=3", paramRWFile}, ExitOK,
			[]string{"readers-writers-param [reader=2, writer=3]:", "property mutex: AG #C <= 1: holds"}, nil},
		{"printers safe at n = 2", []string{"explore", "--sizes", "staff=1, guest=1", paramPrintersFile}, ExitOK,
			[]string{"property capacity: AG #Printing <= 2: holds"}, nil},
		{"printers fail at n = 3", []string{"explore", "--sizes", "staff=2,guest=1", "-p", "capacity", paramPrintersFile}, ExitNo,
			[]string{"property capacity: AG #Printing <= 2: FAILS", "6: #Idle=0 #Queued=0 #Printing=3"}, nil},
		{"abstract instance", []string{"abstract", "--sizes", "reader=1,writer=1", paramRWFile}, ExitOK,
			[]string{"T -> C: #T >= 1 & #C = 0"}, nil},
		{"nusmv instance", []string{"nusmv", "--sizes", "reader=1,writer=2", paramRWFile}, ExitOK,
			[]string{"-- System: readers-writers-param [reader=1, writer=2]"}, nil},
		{"fixed spec with its own sizes", []string{"explore", "--sizes", "writer=2", checkRWFile}, ExitOK,
			[]string{"property mutex"}, nil},
		{"fixed spec with other sizes", []string{"explore", "--sizes", "writer=3", checkRWFile}, ExitBadInput,
			nil, []string{"--sizes: group writer has the fixed size 2, not 3"}},
		{"missing group", []string{"explore", "--sizes", "reader=2", paramRWFile}, ExitBadInput,
			nil, []string{"no size given for the ranged group writer (1..)"}},
		{"outside the range", []string{"explore", "--sizes", "reader=0,writer=1", paramRWFile}, ExitBadInput,
			nil, []string{"size 0 of group reader is outside its range 1.."}},
		{"unknown group", []string{"explore", "--sizes", "reader=1,writer=1,admin=1", paramRWFile}, ExitBadInput,
			nil, []string{"no group named admin (the groups are reader, writer)"}},
		{"malformed", []string{"explore", "--sizes", "reader:1", paramRWFile}, ExitBadInput,
			nil, []string{`--sizes: "reader:1" is not group=size`}},
		{"twice", []string{"explore", "--sizes", "reader=1,reader=2", paramRWFile}, ExitBadInput,
			nil, []string{"--sizes: group reader given twice"}},
		{"dot family", []string{"dot", "--check", paramPrintersFile}, ExitOK,
			[]string{"Every size in 2 groups: staff ×1.., guest ×1..", "Certified fully virtually symmetric for every size", "initially all processes"}, nil},
		{"dot trace needs sizes", []string{"dot", "--trace", "capacity", paramPrintersFile}, ExitBadInput,
			nil, []string{"group sizes are ranges (staff: 1.., guest: 1..); dot --trace draws one instance: vsym prove refutes capacity at staff=1,guest=2, draw it with: vsym dot --trace capacity --sizes staff=1,guest=2 " + paramPrintersFile}},
		{"dot trace of an instance", []string{"dot", "--trace", "capacity", "--sizes", "staff=2,guest=1", paramPrintersFile}, ExitOK,
			[]string{`digraph "printers [staff=2, guest=1]"`, "Counterexample: property capacity FAILS"}, nil},
		{"sarif witness at sizes", []string{"check", "--all-sizes", "--output", "sarif", checkBrokenFile}, ExitNo,
			[]string{"T -> C breaks full virtual symmetry at sizes reader=1, writer=1"}, nil},
	})
}

// flagCase is one command line and what it must give.
type flagCase struct {
	name   string
	args   []string
	code   int
	stdout []string
	stderr []string
}

// runFlagCases runs each command line and checks its exit code and that
// its output holds the lines expected, in order.
func runFlagCases(t *testing.T, tests []flagCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runVsym(tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			containsInOrder(t, "stdout", stdout, tt.stdout)
			containsInOrder(t, "stderr", stderr, tt.stderr)
		})
	}
}

// paramSpec has parameters and no other construct beyond the paper.
const paramSpec = `name: guarded
params: [k, m]
assume: "k >= m"
states: [N, T, C]
groups:
  p: k + 1
  q: "k - m"
init: N
transitions:
  - {from: N, to: T, guard: "#T < k"}
  - {from: T, to: C, guard: "#C = 0"}
  - {from: C, to: N}
properties:
  mutex: "AG #C <= 1"
  bound: "AG #T <= k"
  reach: "EF #C = 1"
`

// TestParamsFlag: the commands that need one instance refuse a spec with
// parameters without --params, naming the flag, refuse values that do not
// make an instance, and explore the instance the values give.
// TestLoadInstanceParams checks the instance itself.
func TestParamsFlag(t *testing.T) {
	file := filepath.Join(t.TempDir(), "guarded.yaml")
	if err := os.WriteFile(file, []byte(paramSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"explore", "abstract", "nusmv", "promela"} {
		_, stderr, code := runVsym(cmd, file)
		want := "the spec has the parameters k, m; " + cmd + " needs an instance: give their values with --params, e.g. --params k=…,m=…"
		if code != ExitBadInput || !strings.Contains(stderr, want) {
			t.Errorf("%s without --params: exit %d\n%s", cmd, code, stderr)
		}
	}
	runFlagCases(t, []flagCase{
		{"explore instance", []string{"explore", "--params", "k=2, m=1", file}, ExitOK,
			[]string{"guarded [k=2, m=1]:", "property mutex: AG #C <= 1: holds", "property bound: AG #T <= k: holds"}, nil},
		{"assumption", []string{"explore", "--params", "k=1,m=2", file}, ExitBadInput,
			nil, []string{"guarded: k=1, m=2 do not satisfy the assumption k >= m"}},
		{"empty group", []string{"explore", "--params", "k=1,m=1", file}, ExitBadInput,
			nil, []string{"with k=1, m=1, group q would have k - m = 0 processes; every group needs at least one"}},
		{"missing", []string{"explore", "--params", "k=1", file}, ExitBadInput,
			nil, []string{"--params: no value given for the parameter m"}},
		{"unknown", []string{"explore", "--params", "k=1,m=0,t=1", file}, ExitBadInput,
			nil, []string{"--params: no parameter named t (the parameters are k, m)"}},
		{"negative", []string{"explore", "--params", "k=1,m=-1", file}, ExitBadInput,
			nil, []string{"--params: parameter m = -1 is negative"}},
		{"malformed", []string{"explore", "--params", "k:1", file}, ExitBadInput,
			nil, []string{`--params: "k:1" is not name=value (write e.g. --params n=4,t=1,f=1)`}},
		{"twice", []string{"explore", "--params", "k=1,k=2", file}, ExitBadInput,
			nil, []string{"--params: parameter k given twice"}},
		{"size over parameters", []string{"explore", "--params", "k=2,m=0", "--sizes", "p=3", file}, ExitBadInput,
			nil, []string{"--sizes: the size of group p is k + 1, given by the parameters (give their values instead)"}},
		{"no parameters", []string{"explore", "--params", "n=3", checkRWFile}, ExitBadInput,
			nil, []string{"--params: no parameter named n (the system has no parameters)"}},
		{"dot trace needs params", []string{"dot", "--trace", "mutex", file}, ExitBadInput,
			nil, []string{"the spec has the parameters k, m; dot --trace draws one instance, but vsym prove proves mutex for every one: no instance has a counterexample to draw"}},
	})
}

// TestLoadInstanceParams checks the instance --params and --sizes pick:
// named after the values, every parameter fixed and folded, sizes over
// the parameters computed.
func TestLoadInstanceParams(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "guarded.yaml")
	if err := os.WriteFile(file, []byte(paramSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	inst, err := loadInstance(nil, file, "", " k=3 , m=1", "explore")
	if err != nil {
		t.Fatal(err)
	}
	if inst.Name != "guarded [k=3, m=1]" || inst.Parametric() || inst.Groups[0].Size != 4 || inst.Groups[1].Size != 2 {
		t.Errorf("instance %q: parametric %v, groups %+v", inst.Name, inst.Parametric(), inst.Groups)
	}
	for _, p := range inst.Params {
		if !p.Fixed {
			t.Errorf("parameter %s not fixed", p.Name)
		}
	}
	if got := presburger.Format(inst.Transitions[0].Blocks[0].Guard, inst.VarName); got != "#T < 3" {
		t.Errorf("guard %s", got)
	}
	// Both flags: a ranged group beside sizes over parameters.
	mixed := filepath.Join(dir, "mixed.yaml")
	if err := os.WriteFile(mixed, []byte(strings.Replace(paramSpec, "  q: \"k - m\"", "  q: \"k - m\"\n  r: 1..", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadInstance(nil, mixed, "", "k=3,m=1", "explore"); err == nil || !strings.Contains(err.Error(), "group sizes are ranges (r: 1..); explore needs fixed sizes: give them with --sizes, e.g. --sizes r=1") {
		t.Errorf("ranged group without --sizes: %v", err)
	}
	inst, err = loadInstance(nil, mixed, "r=5", "k=3,m=1", "explore")
	if err != nil {
		t.Fatal(err)
	}
	if inst.Name != "guarded [k=3, m=1, p=4, q=2, r=5]" || inst.N() != 11 {
		t.Errorf("mixed instance %q, n %d", inst.Name, inst.N())
	}
}
