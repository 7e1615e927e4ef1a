package gsst

import (
	"errors"
	"testing"
)

// TestReaderErrorPosition: the YAML library reports bytes that are not
// UTF-8 and control characters without a line; the error must still point
// at the offending character (line and column in code points).
func TestReaderErrorPosition(t *testing.T) {
	cases := []struct {
		name, src string
		line, col int
	}{
		{"invalid-leading-byte", "name: x\nstates: [N, \u00e9T, \xff]\n", 2, 17},
		{"invalid-trailing-byte", "E\xcb\x00p", 1, 2},
		{"control-character", "name: x\nstates: [N, \x01T]\n", 2, 13},
		{"nul-after-crlf", "name: x\r\nstates: [N]\r\n\x00", 3, 1},
		{"utf32-bom", "\xff\xfe\x00\x00name: x\n", 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(c.src))
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("want an error list, got %v", err)
			}
			if p := list[0].Pos; p.Line != c.line || p.Col != c.col {
				t.Errorf("error %q at %d:%d, want %d:%d", list[0], p.Line, p.Col, c.line, c.col)
			}
		})
	}
}

func TestFirstBadChar(t *testing.T) {
	for _, ok := range []string{"", "a: 1\n", "\ufeffa: 1\n", "a: \u00e9\u4e16\U0001F600\t\r\n"} {
		if l, c, found := firstBadChar([]byte(ok)); found {
			t.Errorf("%q: bad character reported at %d:%d", ok, l, c)
		}
	}
}

// TestYAMLSyntaxErrorLine: yaml.v3 prints 0-based lines for its parser's
// errors (and none on the first line); the reported line must be the
// 1-based line of the construct or token the parser stopped at (and a
// misindented key's own line and column, TestNewcomerHints).
func TestYAMLSyntaxErrorLine(t *testing.T) {
	cases := []struct {
		name, src string
		line      int
		col       int
	}{
		// The unclosed list starts on line 2.
		{"unclosed-list", "name: x\nstates: [N, T\ngroups: {a: 1}\n", 2, 1},
		// The unclosed mapping starts on line 3.
		{"unclosed-mapping", "name: x\nstates: [N, T]\ngroups: {a: 1\ninit: N\n", 3, 1},
		// Line 5 is indented less than the mapping it continues.
		{"bad-indent", "name: x\nstates: [N]\ngroups:\n  a: 1\n b: 2\n", 5, 2},
		// A scanner error: its line was right already.
		{"tab-indent", "name: t\nstates: [N, T]\ngroups:\n\ta: 1\n", 4, 1},
		// The list opens on line 1 and the file ends on line 2.
		{"unclosed-first-line", "states: [N, T\n", 2, 1},
		// Scanner and parser errors on line 1 come without a line.
		{"scanner-first-line", "name: states: [S0]\ngroups: {a: 1}\n", 1, 1},
		{"parser-first-line", "a: [b, c}\nd: 1\n", 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := parseOneError(t, c.src)
			if p := e.Pos; p.Line != c.line || p.Col != c.col {
				t.Errorf("error %q, want line %d column %d", e, c.line, c.col)
			}
		})
	}
}

// TestHugeInteger: YAML types a decimal beyond 64 bits as a float; it
// must be reported as out of range, not as "not an integer", while a
// real float or a quoted number stays "not an integer".
func TestHugeInteger(t *testing.T) {
	cases := []struct {
		name, size, want string
	}{
		{"huge", "99999999999999999999999", "a group size 99999999999999999999999 is out of range"},
		{"huge-negative", "-99999999999999999999", "a group size -99999999999999999999 is out of range"},
		{"float", "1.5", `expected a group size (an integer, or a range N.. or N..M), found "1.5"`},
		{"quoted", `"3"`, `expected a group size (an integer, or a range N.. or N..M), found "3"`},
		{"huge-range", "1..99999999999999999999", "group size range 1..99999999999999999999 is out of range"},
		{"open-below", "..5", `expected a group size (an integer, or a range N.. or N..M), found "..5"`},
		{"spaces", `"1 .. 5"`, `expected a group size (an integer, or a range N.. or N..M), found "1 .. 5"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "states: [N]\ngroups:\n  a: " + c.size + "\ninit: N\ntransitions: []\n"
			_, err := Parse("f.yaml", []byte(src))
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 {
				t.Fatalf("want one error, got %v", err)
			}
			if got := list[0].Error(); got != "f.yaml:3:6: "+c.want {
				t.Errorf("got %q, want f.yaml:3:6: %s", got, c.want)
			}
		})
	}
}
