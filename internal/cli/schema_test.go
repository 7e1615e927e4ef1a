package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
)

func TestSchemaCmd(t *testing.T) {
	stdout, stderr, code := runVsym("schema")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !bytes.Equal([]byte(stdout), gsst.Schema()) {
		t.Errorf("vsym schema does not print gsst.Schema()")
	}
	file := filepath.Join(t.TempDir(), "gsst.schema.json")
	stdout, stderr, code = runVsym("schema", "-o", file)
	if code != ExitOK || stdout != "" || !strings.Contains(stderr, "wrote the GSST JSON Schema to "+file) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	got, err := os.ReadFile(file)
	if err != nil || !bytes.Equal(got, gsst.Schema()) {
		t.Errorf("-o wrote something else (%v)", err)
	}
	if _, stderr, code := runVsym("schema", "extra"); code != ExitBadInput || !strings.Contains(stderr, "takes no arguments") {
		t.Errorf("extra argument: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code := runVsym("schema", "-o", filepath.Join(t.TempDir(), "no", "such", "dir.json")); code != ExitBadInput || !strings.Contains(stderr, "no such file") {
		t.Errorf("unwritable -o: exit %d, stderr %q", code, stderr)
	}
}
