package cli

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/dot"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
)

func TestDotCmd(t *testing.T) {
	rw := filepath.Join("..", "..", "specs", "readers-writers.yaml")
	broken := filepath.Join("..", "..", "specs", "readers-writers-broken.yaml")
	race := filepath.Join("..", "..", "specs", "readers-writers-race.yaml")
	sys, err := gsst.Load(rw)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := dot.Skeleton(sys, dot.Source(rw))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := detect.Certify(context.Background(), sys, z3.New())
	if err != nil {
		t.Fatal(err)
	}
	checked, err := dot.Skeleton(sys, dot.Source(rw), dot.Verdicts(rep))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	big := testsupport.WriteHardSpec(t, dir)
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // exact when not empty
		want   string // substring of stdout (code 0) or stderr
	}{
		{"skeleton", []string{"dot", rw}, ExitOK, plain, ""},
		{"check", []string{"dot", "--check", rw}, ExitOK, checked, ""},
		{"check violated", []string{"dot", "--check", broken}, ExitOK, "", `color="#cf222e"`},
		{"check undecided", []string{"dot", "--check", "--solver-timeout", "1ms", big}, ExitOK, "", `color="#9a6700", style=dashed`},
		{"trace", []string{"dot", "--trace", "mutex", race}, ExitOK, "", "here #C &lt;= 1 is false"},
		{"trace concrete", []string{"dot", "--concrete", "--trace", "reachable", broken}, ExitOK, "", "here #C = 1 holds"},
		{"trace uncertified", []string{"dot", "--trace", "reachable", broken}, ExitOK, "", "here #C = 1 holds"},
		{"trace uncertified total", []string{"dot", "--trace", "reachable", "--model", "total", broken}, ExitNo, "", "--model group"},
		{"trace without trace", []string{"dot", "--trace", "mutex", rw}, ExitBadInput, "", "property mutex holds, and there is no trace to draw"},
		{"unknown property", []string{"dot", "--trace", "nope", rw}, ExitBadInput, "", `no property named "nope" (have: mutex, reachable, can-progress)`},
		{"check and trace", []string{"dot", "--check", "--trace", "mutex", rw}, ExitBadInput, "", "give one of them"},
		{"concrete alone", []string{"dot", "--concrete", rw}, ExitBadInput, "", "--concrete applies to --trace"},
		{"unknown format", []string{"dot", "-o", filepath.Join(dir, "x.txt"), rw}, ExitBadInput, "", `unknown picture format "txt"`},
		{"overwrite spec", []string{"dot", "-o", rw, rw}, ExitBadInput, "", "unknown picture format"},
		{"bad spec", []string{"dot", filepath.Join(dir, "missing.yaml")}, ExitBadInput, "", "no such file"},
		{"no file", []string{"dot"}, ExitBadInput, "", "needs a FILE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runVsym(tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tt.code, stderr)
			}
			if tt.stdout != "" && stdout != tt.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout, tt.stdout)
			}
			where := stderr
			if code == ExitOK {
				where = stdout
			}
			if !strings.Contains(where, tt.want) {
				t.Errorf("output lacks %q:\nstdout %s\nstderr %s", tt.want, stdout, stderr)
			}
		})
	}
}

// TestDotOut writes pictures with -o: DOT text, and SVG, PNG and PDF
// rendered by Graphviz; without Graphviz on PATH, it says how to render.
func TestDotOut(t *testing.T) {
	rw := filepath.Join("..", "..", "specs", "readers-writers.yaml")
	dir := t.TempDir()
	text, _, code := runVsym("dot", "--check", rw)
	if code != ExitOK {
		t.Fatal("vsym dot failed")
	}
	magic := map[string]string{"svg": "<svg", "png": "\x89PNG", "pdf": "%PDF", "dot": "digraph"}
	for ext, want := range magic {
		file := filepath.Join(dir, "rw."+ext)
		stdout, stderr, code := runVsym("dot", "--check", "-o", file, rw)
		if code != ExitOK || stdout != "" || !strings.Contains(stderr, "wrote "+file) {
			t.Fatalf("-o %s: exit %d, stdout %q, stderr %q", file, code, stdout, stderr)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data[:min(len(data), 400)], []byte(want)) {
			t.Errorf("%s does not start like a %s file: %q", file, ext, data[:min(len(data), 40)])
		}
		if ext == "dot" && string(data) != text {
			t.Errorf("-o rw.dot differs from stdout")
		}
	}
	// Without Graphviz: a clear error that says how to render.
	t.Setenv("PATH", t.TempDir())
	file := filepath.Join(dir, "none.svg")
	_, stderr, code := runVsym("dot", "--check", "-o", file, rw)
	if code != ExitBadInput || !strings.Contains(stderr, "not on PATH") ||
		!strings.Contains(stderr, "vsym dot --check "+rw+" | dot -Tsvg > "+file) {
		t.Errorf("without dot: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(file); err == nil {
		t.Errorf("%s written without Graphviz", file)
	}
	// DOT text needs no Graphviz.
	if _, stderr, code := runVsym("dot", "-o", filepath.Join(dir, "x.gv"), rw); code != ExitOK {
		t.Errorf("-o x.gv without dot: exit %d, %s", code, stderr)
	}
}

var updatePictures = flag.Bool("update-pictures", false, "rewrite the pictures under docs/img/ that the README shows")

// TestREADMEPictures checks that the SVGs the README shows are what vsym
// draws now: the text of every label must be the same (positions may
// differ between Graphviz versions). go test ./internal/cli
// -update-pictures rewrites them.
func TestREADMEPictures(t *testing.T) {
	pictures := []struct {
		file string
		args []string
	}{
		{"readers-writers.svg", []string{"dot", "--check", "specs/readers-writers.yaml"}},
		{"readers-writers-race-mutex.svg", []string{"dot", "--trace", "mutex", "specs/readers-writers-race.yaml"}},
	}
	// The README's commands run from the repository root.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(filepath.Join("..", "..")); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
	}()
	for _, p := range pictures {
		text, stderr, code := runVsym(p.args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", p.args, code, stderr)
		}
		svg, err := dot.Render(context.Background(), text, "svg")
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join("docs", "img", p.file)
		if *updatePictures {
			if err := os.WriteFile(file, svg, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		committed, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		got, want := svgText(t, svg), svgText(t, committed)
		if !slices.Equal(got, want) {
			t.Errorf("%s is out of date (go test ./internal/cli -update-pictures rewrites it):\nnow  %q\nfile %q", file, got, want)
		}
	}
}

// svgText returns the contents of the text elements of an SVG, in order.
func svgText(t *testing.T, svg []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var out []string
	inText := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("SVG is not XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local == "text" {
				inText++
			}
		case xml.EndElement:
			if tok.Name.Local == "text" {
				inText--
			}
		case xml.CharData:
			if inText > 0 {
				out = append(out, string(tok))
			}
		}
	}
}
