package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vsym/vsym/internal/testsupport"
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

// runLimited runs vsym with args and checks that it ended within limit
// plus one second with exit code 3, returning its outputs. The bound is a
// limit check (the work asked for takes far longer), not a performance
// assertion.
func runLimited(t *testing.T, limit time.Duration, args ...string) (stdout, stderr string) {
	t.Helper()
	return runLimitedCode(t, limit, ExitUnknown, args...)
}

// runLimitedCode is runLimited with the exit code expected.
func runLimitedCode(t *testing.T, limit time.Duration, want int, args ...string) (stdout, stderr string) {
	t.Helper()
	// A process of its own: the limit includes its exit, and the
	// memory a stopped run leaves behind does not count against the
	// --max-memory of the tests that follow.
	t0 := time.Now()
	out, errb, code := runProcess(t, t.TempDir(), nil, args)
	elapsed := time.Since(t0)
	if code != want {
		t.Errorf("%v: exit %d, want %d; stderr: %s", args, code, want, errb)
	}
	if elapsed > limit+time.Second {
		t.Errorf("%v: ran %v, more than the limit %v plus 1 s", args, elapsed.Round(time.Millisecond), limit)
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
func TestTimeoutInsideBDDOperation(t *testing.T) {
	spec := poolSpec(t, 1000)
	out, _ := runLimited(t, time.Second, "explore", "--engine", "bdd", "--deadlock-free", "--timeout", "1s", "--output", "json", spec)
	jsonError(t, out, "unknown", "timeout after 1s")
	_, errs := runLimited(t, time.Second, "explore", "--engine", "bdd", "--deadlock-free", "--timeout", "1s", spec)
	if !strings.Contains(errs, "unknown: exploration stopped: timeout after 1s") {
		t.Errorf("stderr: %s", errs)
	}
}

// --max-memory stops the BDD engine inside one BDD operation too: the
// heap is sampled every few thousand node constructions.
func TestMaxMemoryInsideBDDOperation(t *testing.T) {
	spec := poolSpec(t, 1000)
	// The timeout is the backstop of a memory limit that does not hold:
	// it would end the run with kind unknown, not limit.
	out, _ := runLimited(t, 10*time.Second, "explore", "--engine", "bdd", "--deadlock-free", "--max-memory", "120MiB", "--timeout", "10s", "--output", "json", spec)
	jsonError(t, out, "limit", "memory limit of 120.0 MiB reached")
}

// dot --trace keeps --timeout while the engines work. (With 1000
// processes the explicit engine of auto answers in a fraction of a
// second; with 10,000, 25 million states are reachable, and the BDD
// engine is stuck in its operations.)
func TestTimeoutDotTrace(t *testing.T) {
	_, errs := runLimited(t, time.Second, "dot", "--trace", "safe", "--timeout", "1s", poolSpec(t, 10000))
	if !strings.Contains(errs, "timeout after 1s") {
		t.Errorf("stderr: %s", errs)
	}
}

// nusmv and promela keep --timeout while they write a model: the
// concrete NuSMV model of 100,000 processes takes seconds to write.
func TestTimeoutExport(t *testing.T) {
	_, errs := runLimited(t, 200*time.Millisecond, "nusmv", "--model", "concrete", "--timeout", "200ms", poolSpec(t, 100000))
	if !strings.Contains(errs, "NuSMV output stopped: timeout after 200ms") {
		t.Errorf("stderr: %s", errs)
	}
}

// prove keeps --timeout inside a Z3 call (the CHC engine is interrupted):
// the property is unknown, with the timeout as its reason.
func TestTimeoutProve(t *testing.T) {
	out, _ := runLimited(t, time.Second, "prove", "--timeout", "1s", "--output", "json", poolSpec(t, 5000))
	var rep struct {
		Properties []struct {
			Verdict, Reason string
		} `json:"properties"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Properties) != 1 || rep.Properties[0].Verdict != "unknown" || !strings.Contains(rep.Properties[0].Reason, "timeout after 1s") {
		t.Errorf("properties %+v, want safe unknown by the timeout", rep.Properties)
	}
}

// check keeps --timeout in the reachability questions of a violated
// transition, which explore the group-counter model of a pool of 1000
// processes in two groups (the second may not take its last fork): they
// are unknown, and the verdict (not symmetric, exit 1) stands.
func TestTimeoutCheckReachability(t *testing.T) {
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
	out, errs := runLimitedCode(t, time.Second, ExitNo, "check", "--timeout", "1s", path)
	if !strings.Contains(out, "unknown (stopped: timeout after 1s") {
		t.Errorf("the reachability questions did not stop at the timeout:\n%s%s", out, errs)
	}
}
