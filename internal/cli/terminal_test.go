package cli

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"unicode"
)

// TestControlEscaper: every control character but tab and newline is
// written as \u00XX, also when a write ends inside the two bytes of a C1
// character; everything else passes unchanged, and a JSON document stays
// one with the same meaning.
func TestControlEscaper(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, ünïcödé → ok\n\tindented", "plain text, ünïcödé → ok\n\tindented"},
		{"name: \x1b]0;owned\x07!", `name: \u001b]0;owned\u0007!`},
		{"cr\rdel\x7fnul\x00", `cr\u000ddel\u007fnul\u0000`},
		{"csi \u009b2J next \u0085 line", `csi \u009b2J next \u0085 line`},
		{"\xc2", "\xc2"}, // a stray lead byte, flushed as it was
		{"\xc2A", "\xc2A"},
	} {
		// Whole, and split at every byte.
		for cut := 0; cut <= len(tc.in); cut++ {
			var b bytes.Buffer
			e := &controlEscaper{w: &b}
			for _, part := range []string{tc.in[:cut], tc.in[cut:]} {
				if n, err := e.Write([]byte(part)); n != len(part) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", part, n, err)
				}
			}
			e.flush()
			if b.String() != tc.want {
				t.Errorf("%q split at %d: %q, want %q", tc.in, cut, b.String(), tc.want)
			}
		}
		if got := escapeControls(tc.in); got != tc.want {
			t.Errorf("escapeControls(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// Every rune: what comes out has no control character but tab and
	// newline.
	var all strings.Builder
	for r := rune(0); r < 0x800; r++ {
		all.WriteRune(r)
	}
	for _, r := range escapeControls(all.String()) {
		if unicode.IsControl(r) && r != '\t' && r != '\n' {
			t.Errorf("%U passes unescaped", r)
		}
	}
	// JSON: encoding/json leaves DEL and C1 raw in strings; escaped,
	// the document reads back the same.
	doc, err := json.Marshal(map[string]string{"name": "a\x7fb\u0085c\x1bd"})
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(escapeControls(string(doc))), &back); err != nil || back["name"] != "a\x7fb\u0085c\x1bd" {
		t.Errorf("escaped JSON %s reads back as %q, %v", escapeControls(string(doc)), back, err)
	}
}

// TestShellQuote: the shell splits a quoted command back into the words
// it was made of, whatever they hold, and words of safe characters stay
// as they are.
func TestShellQuote(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Fatalf("no sh: %v", err)
	}
	words := []string{"vsym", "dot", "specs/mesi-broken.yaml", "cache=2,x=1", "x; rm -rf ~ #.svg", "it's", `"$HOME" $(id) ` + "`id`", "tab\there", "new\nline", "", "*.svg", "a\\b", "ünï", "n=…", "nb\u00a0sp", "\u2028"}
	// printf '%s\0' prints each word as sh split it.
	out, err := exec.Command("sh", "-c", "printf '%s\\0' "+shellCommand(words...)).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if strings.Join(got, "|") != strings.Join(words, "|") || len(got) != len(words) {
		t.Errorf("sh read %q, want %q", got, words)
	}
	for _, w := range []string{"vsym", "specs/mesi-broken.yaml", "--sizes", "cache=2,x=1", "-Tsvg", "n=…,t=…", "ünï"} {
		if q := shellQuote(w); q != w {
			t.Errorf("shellQuote(%q) = %q, want it unchanged", w, q)
		}
	}
}
