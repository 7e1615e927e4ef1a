package gsst

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Expected errors are written in the test inputs as YAML comments
//
//	# ERROR "regexp"        an error on this line whose message matches
//	                        the regexp (\" in it stands for a quote)
//	# ERROR @12 "regexp"    the same, at column 12
//	# ERROR ^^@12 "regexp"  the same, two lines up (for lines inside block
//	                        scalars, which cannot hold comments)
//
// Several markers may share a line. Every reported error must match a
// marker and every marker must match an error.

var errorMarker = regexp.MustCompile(`# ERROR (\^*)(?:@(\d+) )?"((?:[^"\\]|\\.)*)"`)

type wantError struct {
	line, col int // col 0: any column
	re        *regexp.Regexp
	text      string
}

func markers(t *testing.T, src string) []*wantError {
	t.Helper()
	var out []*wantError
	for i, line := range strings.Split(src, "\n") {
		for _, m := range errorMarker.FindAllStringSubmatch(line, -1) {
			col := 0
			if m[2] != "" {
				col, _ = strconv.Atoi(m[2])
			}
			// The marker's text is a regexp in which \" stands for ".
			text := strings.ReplaceAll(m[3], `\"`, `"`)
			re, err := regexp.Compile(text)
			if err != nil {
				t.Fatalf("line %d: bad marker %s: %v", i+1, m[0], err)
			}
			out = append(out, &wantError{i + 1 - len(m[1]), col, re, text})
		}
	}
	return out
}

// checkErrors matches the errors of Parse(name, src) against the markers
// in src.
func checkErrors(t *testing.T, name, src string) {
	t.Helper()
	want := markers(t, src)
	sys, err := Parse(name, []byte(src))
	if len(want) == 0 {
		if err != nil {
			t.Fatalf("unexpected errors:\n%v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("no errors, want %d (system %v)", len(want), sys)
	}
	if sys != nil {
		t.Errorf("Parse returned a system along with errors")
	}
	list, ok := err.(ErrorList)
	if !ok {
		t.Fatalf("error is %T, want ErrorList", err)
	}
	for i := 1; i < len(list); i++ {
		a, b := list[i-1].Pos, list[i].Pos
		if a.Line > b.Line || a.Line == b.Line && a.Col > b.Col {
			t.Errorf("errors not sorted: %v before %v", list[i-1], list[i])
		}
	}
	for _, e := range list {
		if e.Pos.File != name {
			t.Errorf("error %v: file %q, want %q", e, e.Pos.File, name)
		}
		found := false
		for i, w := range want {
			if w != nil && w.line == e.Pos.Line && (w.col == 0 || w.col == e.Pos.Col) && w.re.MatchString(e.Msg) {
				want[i] = nil
				found = true
				break
			}
		}
		if !found {
			t.Errorf("unexpected error %v", e)
		}
	}
	for _, w := range want {
		if w != nil {
			t.Errorf("%s:%d:%d: missing error matching %q", name, w.line, w.col, w.text)
		}
	}
}

func TestErrorFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checkErrors(t, f, string(src))
		})
	}
}
