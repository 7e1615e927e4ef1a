package cli

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts under testdata/transcripts/")

// Golden transcripts: each testdata/transcripts/NAME.txtar is one run of
// vsym, kept whole so that no part of what a user sees can change
// unnoticed. The archive's comment says what the case shows; its files:
//
//	args         the command line, split at spaces; $WORK is a fresh
//	             directory, $SPECS the bundled specs
//	stdin        standard input (optional)
//	work/NAME    a file written to $WORK/NAME before the run (optional)
//	exit         the expected exit code
//	stdout       the expected standard output
//	stderr       the expected standard error
//	written/NAME the expected content of $WORK/NAME after the run
//	             (optional; for -o)
//
// Each run is a process of its own, in $WORK. In the outputs the two
// directories are written $WORK and $SPECS, and measured times and
// memory figures are replaced by placeholders.
// go test ./internal/cli -run TestTranscripts -update rewrites exit,
// stdout, stderr and written/ from a run, keeping the rest.

func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "transcripts", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	specs, err := filepath.Abs(filepath.Join("..", "..", "specs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			runTranscript(t, file, specs)
		})
	}
}

func runTranscript(t *testing.T, file, specs string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	a := parseArchive(data)
	work := t.TempDir()
	for _, f := range a.files {
		if name, ok := strings.CutPrefix(f.name, "work/"); ok {
			if err := os.WriteFile(filepath.Join(work, name), f.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	line := strings.TrimSpace(string(a.get("args")))
	if line == "" {
		t.Fatal("no args")
	}
	line = strings.NewReplacer("$WORK", work, "$SPECS", specs).Replace(line)
	stdout, stderr, code := runProcess(t, work, a.get("stdin"), strings.Fields(line))

	normalize := func(b []byte) []byte {
		s := strings.NewReplacer(work, "$WORK", specs, "$SPECS").Replace(string(b))
		s = volatile.ReplaceAllString(s, `"$1": "<$1>"`)
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n(no newline at the end)\n"
		}
		return []byte(s)
	}
	got := []archiveFile{
		{"exit", []byte(strconv.Itoa(code) + "\n")},
		{"stdout", normalize(stdout)},
		{"stderr", normalize(stderr)},
	}
	for _, f := range a.files {
		if name, ok := strings.CutPrefix(f.name, "written/"); ok {
			content, err := os.ReadFile(filepath.Join(work, name))
			if err != nil {
				content = []byte("(not written: " + err.Error() + ")\n")
			}
			got = append(got, archiveFile{f.name, normalize(content)})
		}
	}
	if *update {
		for _, f := range got {
			a.set(f.name, f.data)
		}
		if err := os.WriteFile(file, a.format(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, name := range []string{"exit", "stdout", "stderr"} {
		if _, ok := a.lookup(name); !ok {
			t.Errorf("%s: no %q section (run with -update)", file, name)
		}
	}
	for _, f := range got {
		if want := a.get(f.name); !bytes.Equal(f.data, want) {
			t.Errorf("%s: %s differs (go test ./internal/cli -run TestTranscripts -update rewrites it)\n--- got:\n%s--- want:\n%s", file, f.name, f.data, want)
		}
	}
}

// runProcess runs vsym as its own process (the test binary, which
// TestMain turns into vsym), in dir, so that each run starts as a user's
// does: Z3's models, and so the witnesses printed, depend on what the
// process asked Z3 before.
func runProcess(t *testing.T, dir string, stdin []byte, args []string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "VSYM_RUN_MAIN=1")
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatal(err)
	}
	return out.Bytes(), errb.Bytes(), code
}

// volatile matches JSON fields whose values are measurements.
var volatile = regexp.MustCompile(`"(seconds|build_seconds|reach_seconds|peak_bytes|bdd_peak_nodes|stored_bytes)": [0-9.e+-]+`)

// archive is a txtar archive: a comment, then files each introduced by
// a line "-- NAME --".
type archive struct {
	comment []byte
	files   []archiveFile
}

type archiveFile struct {
	name string
	data []byte
}

func parseArchive(data []byte) *archive {
	a := &archive{}
	var cur *archiveFile
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		s := strings.TrimRight(string(line), "\r\n")
		if strings.HasPrefix(s, "-- ") && strings.HasSuffix(s, " --") && len(s) > 6 {
			a.files = append(a.files, archiveFile{name: strings.TrimSpace(s[3 : len(s)-3])})
			cur = &a.files[len(a.files)-1]
			continue
		}
		if cur == nil {
			a.comment = append(a.comment, line...)
		} else {
			cur.data = append(cur.data, line...)
		}
	}
	return a
}

func (a *archive) lookup(name string) ([]byte, bool) {
	for _, f := range a.files {
		if f.name == name {
			return f.data, true
		}
	}
	return nil, false
}

func (a *archive) get(name string) []byte {
	data, _ := a.lookup(name)
	return data
}

// set replaces the content of file name, or adds it at the end.
func (a *archive) set(name string, data []byte) {
	for i := range a.files {
		if a.files[i].name == name {
			a.files[i].data = data
			return
		}
	}
	a.files = append(a.files, archiveFile{name, data})
}

// format writes the archive back; every file ends with a newline, as a
// txtar file must for the next marker to start a line.
func (a *archive) format() []byte {
	var b bytes.Buffer
	b.Write(a.comment)
	for _, f := range a.files {
		b.WriteString("-- " + f.name + " --\n")
		b.Write(f.data)
		if len(f.data) > 0 && f.data[len(f.data)-1] != '\n' {
			b.WriteString("\n")
		}
	}
	return b.Bytes()
}
