package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNusmvOutFile: the file written with -o holds exactly what stdout
// would, and the message on stderr names it. (The emitted text, exit
// codes and errors are compared whole in the transcripts,
// testdata/transcripts/nusmv-*.txtar.)
func TestNusmvOutFile(t *testing.T) {
	rw := writeExploreFile(t, "rw.yaml", rwYAML)
	outFile := filepath.Join(t.TempDir(), "rw.smv")
	stdout, stderr, code := runVsym("nusmv", "-o", outFile, rw)
	if code != ExitOK || stdout != "" || !strings.Contains(stderr, "wrote") || !strings.Contains(stderr, outFile) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	want, _, code := runVsym("nusmv", rw)
	if code != ExitOK {
		t.Fatal(code)
	}
	got, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("-o file differs from stdout output")
	}
}

// -o naming the input spec is refused before anything is written.
func TestNusmvRefusesToOverwriteInput(t *testing.T) {
	src, err := os.ReadFile("../../specs/mutex.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mutex.yaml")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	if code := Main([]string{"nusmv", path, "-o", path}, &out, &errb); code != ExitBadInput {
		t.Fatalf("exit %d, want %d; stderr: %s", code, ExitBadInput, errb.String())
	}
	after, err := os.ReadFile(path)
	if err != nil || string(after) != string(src) {
		t.Fatalf("input spec changed (err %v)", err)
	}
}
