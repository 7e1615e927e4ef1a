package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/specs"
)

// poolSpec writes testsupport.PoolYAML(n) to a file and returns its path.
func poolSpec(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pool.yaml")
	if err := os.WriteFile(path, []byte(testsupport.PoolYAML(n)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runLimited runs vsym with args, a run that a bound stops (the work
// asked for takes far longer), and checks that it ended with exit code
// 3, returning its outputs. How soon after the bound it ended is a
// duration, which a loaded machine stretches: the tests check that the
// work stopped and how (the kind of error, the bound it names), and
// only log the time.
func runLimited(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	return runLimitedCode(t, ExitUnknown, args...)
}

// runLimitedCode is runLimited with the exit code expected.
func runLimitedCode(t *testing.T, want int, args ...string) (stdout, stderr string) {
	t.Helper()
	// A process of its own: the memory a stopped run leaves behind does
	// not count against the --max-memory of the tests that follow.
	t0 := time.Now()
	out, errb, code := runProcess(t, t.TempDir(), nil, args)
	t.Logf("%v: exit %d after %v", args, code, time.Since(t0).Round(time.Millisecond))
	if code != want {
		t.Errorf("%v: exit %d, want %d; stderr: %s", args, code, want, errb)
	}
	return string(out), string(errb)
}

// jsonError checks that stdout is the JSON error object of a stopped run:
// exit_code 3, the kind, and a message mentioning want.
func jsonError(t *testing.T, stdout, kind, want string) {
	t.Helper()
	var obj struct {
		ExitCode int    `json:"exit_code"`
		Kind     string `json:"kind"`
		Errors   []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal([]byte(stdout), &obj); err != nil {
		t.Fatalf("output is not the JSON error object: %v\n%s", err, stdout)
	}
	if obj.ExitCode != ExitUnknown || obj.Kind != kind || len(obj.Errors) != 1 || !strings.Contains(obj.Errors[0].Message, want) {
		t.Errorf("JSON error object %+v, want exit_code %d, kind %s and a message with %q", obj, ExitUnknown, kind, want)
	}
}

// --timeout stops the BDD engine inside one long BDD operation (EF
// deadlock on the pool runs for over a minute in a handful of them).
// The group-counter model is built without Z3, in a few milliseconds of
// CPU: with the certification of --model auto before it, a process
// given a quarter of a CPU spent the whole second in the abstraction.
// The message names the stage stopped, exploration; its text form is
// the transcript explore-bdd-wide-integer-timeout's.
func TestTimeoutInsideBDDOperation(t *testing.T) {
	spec := poolSpec(t, 1000)
	out, _ := runLimited(t, "explore", "--engine", "bdd", "--model", "group", "--deadlock-free", "--timeout", "1s", "--output", "json", spec)
	jsonError(t, out, "unknown", "exploration stopped: timeout after 1s")
}

// --max-memory stops the BDD engine inside one BDD operation too: the
// heap is sampled every few thousand node constructions.
func TestMaxMemoryInsideBDDOperation(t *testing.T) {
	spec := poolSpec(t, 1000)
	// The timeout is the backstop of a memory limit that does not hold:
	// it would end the run with kind unknown, not limit. It is far from
	// the time the heap takes to grow even on a loaded machine.
	out, _ := runLimited(t, "explore", "--engine", "bdd", "--deadlock-free", "--max-memory", "48MiB", "--timeout", "10m", "--output", "json", spec)
	jsonError(t, out, "limit", "memory limit of 48.0 MiB reached")
}

// dot --trace keeps --timeout while the engines work. (With 1000
// processes the explicit engine of auto answers in a fraction of a
// second; with 10,000, 25 million states are reachable, and the BDD
// engine is stuck in its operations.)
func TestTimeoutDotTrace(t *testing.T) {
	_, errs := runLimited(t, "dot", "--trace", "safe", "--timeout", "500ms", poolSpec(t, 10000))
	if !strings.Contains(errs, "timeout after 500ms") {
		t.Errorf("stderr: %s", errs)
	}
}

// nusmv and promela keep --timeout while they write a model: the
// concrete NuSMV model of 100,000 processes (the most it writes) takes
// 0.9 s to write on the 2-CPU machine of BENCHMARKS.md, idle, and its
// spec 5 ms to load: a quarter of a second leaves the loading time on a
// loaded machine and stops the writing on one four times as fast (a
// whole second did not stop it on that machine).
func TestTimeoutExport(t *testing.T) {
	_, errs := runLimited(t, "nusmv", "--model", "concrete", "--timeout", "250ms", poolSpec(t, 100000))
	if !strings.Contains(errs, "NuSMV output stopped: timeout after 250ms") {
		t.Errorf("stderr: %s", errs)
	}
}

// prove keeps --property-timeout inside a Z3 call (the CHC engine is
// interrupted): the property is unknown, with the timeout as its reason.
// (slowKanban: neither the cheap steps nor the CHC engine answer within
// a minute.) The bound counts from the start of the property's proof,
// after the loading, so it may be short on any machine.
func TestPropertyTimeoutProve(t *testing.T) {
	file := writeSpecs(t, slowKanban(t))[0]
	out, _ := runLimited(t, "prove", "--property-timeout", "500ms", "--output", "json", file)
	var rep struct {
		Properties []struct {
			Verdict, Reason string
		} `json:"properties"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Properties) != 1 || rep.Properties[0].Verdict != "unknown" || !strings.Contains(rep.Properties[0].Reason, "timeout after 500ms") {
		t.Errorf("properties %+v, want target unknown by the timeout\n%s", rep.Properties, out)
	}
}

// slowKanban is mist's kanban net (testdata/mist), whose target is
// coverable, with a guard "#x1 <= n | #x1 < #x0" on its first
// transition: it holds in every state, so the runs are the same, but
// its second clause compares two counters, which the backward
// coverability search, which finds the run in milliseconds, does not
// read, and neither the other cheap steps nor the CHC engine answer
// within a minute (BENCHMARKS.md). ("#x1 <= n" alone the search now
// reads, n as the sum of the counters.)
func slowKanban(t *testing.T) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "mist", "kanban.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const first = "  - {from: x2, to: x0}\n"
	if !bytes.Contains(src, []byte(first)) {
		t.Fatalf("kanban.yaml has no line %q", first)
	}
	return bytes.Replace(src, []byte(first), []byte("  - {from: x2, to: x0, guard: \"#x1 <= n | #x1 < #x0\"}\n"), 1)
}

// check keeps --solver-timeout in the reachability questions of a violated
// transition, which explore the group-counter model of a pool of 1000
// processes in two groups (the second may not take its last fork): they
// are unknown, and the verdict (not symmetric, exit 1) stands.
func TestSolverTimeoutCheckReachability(t *testing.T) {
	src := `name: upool
states: [Think, One, Eat]
groups:
  a: 500
  b: 500
init: Think
transitions:
  - {from: Think, to: One, guard: "#One + 2*#Eat < 1000"}
  - {from: One, to: Eat, guard: {a: "#One + 2*#Eat < 1000", b: "#One + 2*#Eat < 999"}}
  - {from: Eat, to: Think}
`
	path := filepath.Join(t.TempDir(), "upool.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// The certification query itself takes milliseconds of CPU: the
	// bound is there for the reachability questions, and far from the
	// query's time even given a quarter of a CPU.
	out, errs := runLimitedCode(t, ExitNo, "check", "--solver-timeout", "1s", path)
	if !strings.Contains(out, "unknown (stopped: timeout after 1s; raise --solver-timeout") {
		t.Errorf("the reachability questions did not stop at the timeout:\n%s%s", out, errs)
	}
}

// The tests below give --timeout, a bound on the whole run, to commands
// whose work is many calls each far shorter than the bound, together far
// longer: the run stops at the bound, not at the end of a call.

// writeSpecs writes each spec of srcs to a file of its own in a fresh
// directory and returns the paths.
func writeSpecs(t *testing.T, srcs ...[]byte) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, src := range srcs {
		path := filepath.Join(dir, fmt.Sprintf("spec%d.yaml", i))
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// check of twelve files, each one solver call of about 0.35 s (GR&W with
// 200 groups), stops after 500 ms (in the loading of a file or in its
// certification) with no report: the JSON error object. (The text of a
// check stopped by --timeout is the transcript check-timeout's.)
func TestTimeoutCheckManyFiles(t *testing.T) {
	grw, err := specs.GRW(200, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	var srcs [][]byte
	for range 12 {
		srcs = append(srcs, grw)
	}
	files := writeSpecs(t, srcs...)
	out, _ := runLimited(t, append([]string{"check", "--timeout", "500ms", "--output", "json"}, files...)...)
	jsonError(t, out, "unknown", "stopped: timeout after 500ms; raise --timeout")
}

// priorityYAML is GR&W's priority guard on every step of a cycle of
// steps+1 states, for groups groups of 2: each of its steps transitions
// needs a solver call of a fraction of a second. The guard of group g
// is that of group g-1 with one more conjunct, so each is written by
// extending the last (the text grows with the square of groups).
func priorityYAML(groups, steps int) []byte {
	var b strings.Builder
	b.WriteString("name: priority\nstates: [")
	for i := 1; i <= steps+1; i++ {
		if i > 1 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "L%d", i)
	}
	b.WriteString("]\ngroups:\n")
	for g := 1; g <= groups; g++ {
		fmt.Fprintf(&b, "  g%d: 2\n", g)
	}
	b.WriteString("init: L1\ntransitions:\n")
	for i := 1; i <= steps; i++ {
		fmt.Fprintf(&b, "  - from: L%d\n    to: L%d\n    guard:\n", i, i+1)
		guard := fmt.Sprintf("#L%d = 0", i+1)
		for g := 1; g <= groups; g++ {
			if g > 1 {
				guard += fmt.Sprintf(" & #L%d[g%d] = 0", i, g-1)
			}
			fmt.Fprintf(&b, "      g%d: \"%s\"\n", g, guard)
		}
	}
	fmt.Fprintf(&b, "  - {from: L%d, to: L1}\n", steps+1)
	return []byte(b.String())
}

// dot --check of a spec with 24 transitions that each need a solver call
// of a fraction of a second (4.3 s in all on an idle machine; 200 groups
// and 12 transitions took 1.0 s, too close to the bound) stops after
// 500 ms, in the loading of the spec or in the certification: exit 3 and
// no picture.
func TestTimeoutDotCheck(t *testing.T) {
	file := writeSpecs(t, priorityYAML(300, 24))[0]
	stdout, errs := runLimited(t, "dot", "--check", "--timeout", "500ms", file)
	if stdout != "" || !strings.Contains(errs, "stopped: timeout after 500ms; raise --timeout") {
		t.Errorf("stdout of %d bytes, stderr: %s", len(stdout), errs)
	}
}

// prove of eight properties, each bounded at 200 ms by
// --property-timeout (slowKanban with eight targets, which the CHC
// engine takes far longer on), stops after 500 ms: no report, the JSON
// error object.
func TestTimeoutProveManyProperties(t *testing.T) {
	src := slowKanban(t)
	for k := 1; k < 8; k++ {
		src = fmt.Appendf(src, "  target%d: \"AG !(#x4 >= 2 & #x6 >= 4 & #x10 >= 4 & #x13 >= %d & #x14 >= 4)\"\n", k, 6+k)
	}
	file := writeSpecs(t, src)[0]
	out, _ := runLimited(t, "prove", "--timeout", "500ms", "--property-timeout", "200ms", "--output", "json", file)
	jsonError(t, out, "unknown", "proof stopped: timeout after 500ms; raise --timeout")
}

// bench table4 of four rows, each bounded at 200 ms by --row-timeout
// (each takes seconds to minutes in full, and runs into that bound),
// stops after 500 ms with exit 3, before the fourth row: the rows finished
// by then (on an idle machine the first two; fewer on a loaded one) are
// printed, in order, and the row cut short is not.
func TestTimeoutBench(t *testing.T) {
	rows := []string{"asr-r10-n40", "asr-r10-n80", "asrf-r10-n40", "asrf-r10-n80"}
	out, errs := runLimited(t, "bench", "table4", "--rows", strings.Join(rows, ","), "--row-timeout", "200ms", "--timeout", "500ms")
	if !strings.Contains(errs, "unknown: benchmark stopped: timeout after 500ms; raise --timeout") {
		t.Errorf("stderr: %s", errs)
	}
	printed := 0
	for printed < len(rows) && strings.Contains(out, "| "+rows[printed]+" |") {
		printed++
	}
	for _, row := range rows[printed:] {
		if strings.Contains(out, "| "+row+" |") {
			t.Errorf("row %s printed after a row missing (the rows finished are a prefix):\n%.2000s", row, out)
		}
	}
	if printed == len(rows) {
		t.Errorf("all four rows printed, though the bound of the run is less than theirs:\n%.2000s", out)
	}
	t.Logf("%d rows finished before the bound", printed)
}
