package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProveNoProperty: an automaton without specifications (ByMC's
// cav15 files, in the older skel syntax, .sk) is read, and prove says
// there is nothing to prove rather than print an empty report.
func TestProveNoProperty(t *testing.T) {
	file := filepath.Join(t.TempDir(), "fuse.sk")
	src := `skel Proc {
  local pc;
  shared x;
  parameters N;
  assumptions (1) { N > 1; }
  locations (2) { A: [0]; B: [1]; }
  inits (3) { A == N; B == 0; x == 0; }
  rules (1) {
  0: A -> B when (x >= 0) do { x' == x + 1 };
  }
}
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runVsym("prove", file)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "fuse (Proc N): no property to prove: the file states none\n") {
		t.Errorf("prove says:\n%s", out)
	}
}
