package promela

// Running the real Spin on emitted models: spin -a, gcc, pan, and a
// strict reading of pan's report.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// requireSpin fails the test when spin or gcc is missing: scripts/deps.sh
// installs Debian's spin, and these tests exist to run it.
func requireSpin(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"spin", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found on PATH (%v): run sh scripts/deps.sh, which installs Debian's spin", tool, err)
		}
	}
}

// pan is a compiled verifier of one emitted model.
type pan struct {
	dir string
}

// countClaim is appended to every model the tests compile: a claim that
// holds in every state, whose product with the model has exactly the
// model's states, so that pan -N _count counts them (pan has no option to
// run without a claim once a model has one). Its name starts with "_",
// which the emitters never use.
const countClaim = "ltl _count { [] (_nr_pr >= 0) }\n"

// buildPan writes prog to a fresh directory, generates the verifier
// (spinA) and compiles it with gcc: with the flags the model's header
// gives (Program.CompileFlags: -DSAFETY, -DNFAIR), and unoptimized, since
// the test models are tiny and compiling is the cost.
func buildPan(t testing.TB, prog *Program) (*pan, error) {
	dir, err := spinA(t, prog)
	if err != nil {
		return nil, err
	}
	args := append(prog.CompileFlags(), "-O0", "-w", "-pipe", "-o", "pan", "pan.c")
	if out, err := command(dir, "gcc", args...); err != nil {
		return nil, fmt.Errorf("gcc: %v\n%s", err, out)
	}
	return &pan{dir: dir}, nil
}

// spinA writes prog, with the counting claim, to a fresh directory and
// generates the verifier's C source there with spin -a -o2, which reads
// the whole model and translates every ltl formula. -o2 keeps the
// variables that nothing reads in the states pan stores (Spin drops
// them by default), so that pan counts the model's states, which the
// tests compare with the oracle's.
func spinA(t testing.TB, prog *Program) (dir string, err error) {
	dir = t.TempDir()
	text := prog.Text + "\n" + countClaim
	if err := os.WriteFile(filepath.Join(dir, "model.pml"), []byte(text), 0o644); err != nil {
		return "", err
	}
	if out, err := command(dir, "spin", "-a", "-o2", "model.pml"); err != nil {
		return "", fmt.Errorf("spin -a: %v\n%s", err, out)
	}
	return dir, nil
}

func command(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// panResult is what one pan run found.
type panResult struct {
	violated bool  // pan reported an error: a path violating the claim
	stored   int64 // states stored
}

var (
	errorsLine = regexp.MustCompile(`errors: (\d+)\n`)
	storedLine = regexp.MustCompile(`(\d+) states, stored`)
	claimLine  = regexp.MustCompile(`never claim\s+\+ \((\S+)\)`)
)

// run runs pan with args (plus a small hash table and search stack: the
// test models have a few hundred states, and a deeper search is reported
// as incomplete, never taken as a verdict) and reads its report
// strictly: a verdict only from a complete search, an error only when it
// is a violation of the claim (an assertion of the claim, an acceptance
// cycle), and the claim pan checked must be the one asked for.
func (p *pan) run(args ...string) (panResult, error) {
	out, err := command(p.dir, "./pan", append([]string{"-w12", "-m3000"}, args...)...)
	if err != nil {
		return panResult{}, fmt.Errorf("pan %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	for _, bad := range []string{"VECTORSZ", "too many processes", "out of memory", "pan:1: invalid end state"} {
		if strings.Contains(out, bad) {
			return panResult{}, fmt.Errorf("pan %s: %q:\n%s", strings.Join(args, " "), bad, out)
		}
	}
	var r panResult
	m := errorsLine.FindStringSubmatch(out)
	s := storedLine.FindStringSubmatch(out)
	if m == nil || s == nil {
		return panResult{}, fmt.Errorf("pan %s: no error count or state count in its report:\n%s", strings.Join(args, " "), out)
	}
	r.stored, _ = strconv.ParseInt(s[1], 10, 64)
	switch m[1] {
	case "0":
		// No error is a verdict only when the search was complete (pan
		// also says "Search not completed" when it stops at an error).
		for _, bad := range []string{"max search depth too small", "Search not completed"} {
			if strings.Contains(out, bad) {
				return panResult{}, fmt.Errorf("pan %s: no error, but %q:\n%s", strings.Join(args, " "), bad, out)
			}
		}
	case "1":
		if !strings.Contains(out, "assertion violated") && !strings.Contains(out, "acceptance cycle") {
			return panResult{}, fmt.Errorf("pan %s: an error that is not a violation of the claim:\n%s", strings.Join(args, " "), out)
		}
		r.violated = true
	default:
		return panResult{}, fmt.Errorf("pan %s: %s errors (it stops at the first):\n%s", strings.Join(args, " "), m[1], out)
	}
	for i, a := range args {
		if a == "-N" {
			c := claimLine.FindStringSubmatch(out)
			if c == nil || c[1] != args[i+1] {
				return panResult{}, fmt.Errorf("pan %s checked another claim:\n%s", strings.Join(args, " "), out)
			}
		}
	}
	return r, nil
}

// stateCount returns the number of states pan stores with the counting
// claim.
func (p *pan) stateCount() (int64, error) {
	r, err := p.run("-N", "_count")
	if err == nil && r.violated {
		err = fmt.Errorf("the counting claim is violated")
	}
	return r.stored, err
}
