package cli

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/specs"
)

func TestGenCmd(t *testing.T) {
	grw, _ := specs.GRW(3, 4, 5)
	asr, _ := specs.ASR(7, 3, 2)
	asrB, _ := specs.ASR(5, 2, 4)
	mutex, _ := specs.Read("mutex")
	grwRange, _ := specs.GRWSized(3, "1..", 5)
	asrRange, _ := specs.ASRSized(3, "2..4", 2)
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // exact, when code is 0
		stderr string // substring
	}{
		{"grw", []string{"gen", "grw", "--groups", "3", "--size", "4", "--states", "5"}, ExitOK, string(grw), ""},
		{"asr", []string{"gen", "asr", "--procs", "7", "--resources", "3"}, ExitOK, string(asr), ""},
		{"asr bound", []string{"gen", "asr", "--procs", "5", "--resources", "2", "--bound", "4"}, ExitOK, string(asrB), ""},
		{"example", []string{"gen", "example", "mutex"}, ExitOK, string(mutex), ""},
		{"example list", []string{"gen", "example"}, ExitOK, specsOnDisk(t), ""},
		{"grw range", []string{"gen", "grw", "--groups", "3", "--size", "1..", "--states", "5"}, ExitOK, string(grwRange), ""},
		{"asr range", []string{"gen", "asr", "--size", "2..4", "--resources", "3"}, ExitOK, string(asrRange), ""},
		{"grw bad size", []string{"gen", "grw", "--size", "1...3"}, ExitBadInput, "", "is not a size"},
		{"asr procs and size", []string{"gen", "asr", "--procs", "4", "--size", "1.."}, ExitBadInput, "", "--procs or --size, not both"},
		{"unknown example", []string{"gen", "example", "nope"}, ExitBadInput, "", "no bundled specification"},
		{"grw bad groups", []string{"gen", "grw", "--groups", "0"}, ExitBadInput, "", "number of groups 0"},
		{"grw bad states", []string{"gen", "grw", "--states", "1"}, ExitBadInput, "", "number of states 1"},
		{"asr too few procs", []string{"gen", "asr", "--procs", "2", "--resources", "3"}, ExitBadInput, "", "cannot form 3 owner groups"},
		{"asr bad bound", []string{"gen", "asr", "--bound", "0"}, ExitBadInput, "", "bound 0"},
		{"no family", []string{"gen"}, ExitBadInput, "", "needs a family"},
		{"unknown family", []string{"gen", "foo"}, ExitBadInput, "", "unknown command"},
		{"not a number", []string{"gen", "grw", "--groups", "x"}, ExitBadInput, "", "invalid argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runVsym(tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tt.code, stderr)
			}
			if code == ExitOK && stdout != tt.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout, tt.stdout)
			}
			if code != ExitOK && (stdout != "" || !strings.Contains(stderr, tt.stderr)) {
				t.Errorf("stdout %q, stderr %q (want %q)", stdout, stderr, tt.stderr)
			}
		})
	}
}

// specsOnDisk is what "vsym gen example" must list: every .yaml file of
// specs/ and specs/threshold/ as the directory holds it, not as the
// embedded copy or specs.List sees it, named without ".yaml" and sorted by
// file name (so "mesi-broken" comes before "mesi"). A spec added to the
// directory but not embedded, or embedded from elsewhere, fails the test.
func specsOnDisk(t *testing.T) string {
	t.Helper()
	var files []string
	for _, dir := range []string{"", "threshold"} {
		found, err := filepath.Glob(filepath.Join("..", "..", "specs", dir, "*.yaml"))
		if err != nil || len(found) == 0 {
			t.Fatalf("no specs in specs/%s: %v", dir, err)
		}
		for _, f := range found {
			files = append(files, path.Join(dir, filepath.Base(f)))
		}
	}
	sort.Strings(files)
	var out strings.Builder
	for _, f := range files {
		out.WriteString(strings.TrimSuffix(f, ".yaml") + "\n")
	}
	return out.String()
}

// TestGenOutFile writes with -o, then parses and checks the file: the
// round trip through "vsym check" must certify it.
func TestGenOutFile(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"gen", "grw", "--groups", "4", "--size", "2", "--states", "6"},
		{"gen", "asr", "--procs", "6", "--resources", "3"},
	} {
		path := filepath.Join(dir, args[1]+".yaml")
		stdout, stderr, code := runVsym(append(args, "-o", path)...)
		if code != ExitOK || stdout != "" {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatal(err)
		}
		if _, err := gsst.Load(path); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		stdout, stderr, code = runVsym("check", path)
		if code != ExitOK {
			t.Errorf("check %s: exit %d\n%s%s", path, code, stdout, stderr)
		}
	}
	if _, stderr, code := runVsym("gen", "grw", "-o", filepath.Join(dir, "no", "such", "dir.yaml")); code != ExitBadInput || stderr == "" {
		t.Errorf("unwritable -o: exit %d, stderr %q", code, stderr)
	}
}
