package testsupport

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// nusmvProperty matches a line of NuSMV's show_property table, for CTL
// specifications and invariants: "  [CTL   False   N/A   mutex]".
var nusmvProperty = regexp.MustCompile(`(?m)^\s*\[(CTL|Invar)\s+(True|False|Unchecked)\s+\S+\s+(\S+)\]\s*$`)

// nusmvReachable matches NuSMV's count of reachable states.
var nusmvReachable = regexp.MustCompile(`(?m)^reachable states: (\d+) `)

// RunNuSMV runs the NuSMV 2.6 binary bin on the model text with -dcx (no
// counterexamples) and args, checks every CTLSPEC (over fair paths when
// the model has JUSTICE constraints) and every INVARSPEC, and returns
// the verdict of each by name. With reachable set it also computes the
// reachable states and returns their number (else -1). It fails the
// test on any error, on a property left unchecked or reported twice.
func RunNuSMV(t testing.TB, bin, text string, reachable bool, args ...string) (map[string]bool, int) {
	t.Helper()
	dir := t.TempDir()
	file, cmds := filepath.Join(dir, "m.smv"), filepath.Join(dir, "cmds")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "go\ncheck_ctlspec\ncheck_invar\nshow_property\n"
	if reachable {
		script += "compute_reachable\nprint_reachable_states\n"
	}
	if err := os.WriteFile(cmds, []byte(script+"quit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd := exec.Command(bin, append(append([]string{"-dcx", "-source", cmds}, args...), file)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("NuSMV: %v\n%s\nmodel:\n%s", err, out.String(), text)
	}
	v := map[string]bool{}
	for _, m := range nusmvProperty.FindAllStringSubmatch(out.String(), -1) {
		if m[2] == "Unchecked" {
			t.Fatalf("NuSMV left %s unchecked:\n%s", m[3], out.String())
		}
		if _, dup := v[m[3]]; dup {
			t.Fatalf("NuSMV reports %s twice:\n%s", m[3], out.String())
		}
		v[m[3]] = m[2] == "True"
	}
	if !reachable {
		return v, -1
	}
	m := nusmvReachable.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("NuSMV printed no count of reachable states:\n%s", out.String())
	}
	k, err := strconv.Atoi(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return v, k
}
