package formats

import (
	"strings"
	"unicode/utf8"

	"github.com/vsym/vsym/gsst"
)

// Cursor walks the text of a source file one character at a time and
// knows where the next one is: lines and columns start at 1, and
// columns count characters, a byte that is not UTF-8 counting as one,
// as the GSST reader counts them. The scanners of the readers share it.
type Cursor struct {
	File string
	Src  []byte
	Off  int // byte offset of the next character
	Line int
	Col  int
}

// NewCursor returns a cursor at the start of src, the text of file.
func NewCursor(file string, src []byte) Cursor {
	return Cursor{File: file, Src: src, Line: 1, Col: 1}
}

// Pos is the position of the next character.
func (c *Cursor) Pos() gsst.Pos { return gsst.Pos{File: c.File, Line: c.Line, Col: c.Col} }

// More reports whether characters are left.
func (c *Cursor) More() bool { return c.Off < len(c.Src) }

// At reports whether the text goes on with s.
func (c *Cursor) At(s string) bool {
	return strings.HasPrefix(string(c.Src[c.Off:min(c.Off+len(s), len(c.Src))]), s)
}

// Next moves past the next character.
func (c *Cursor) Next() {
	if c.Src[c.Off] == '\n' {
		c.Line++
		c.Col = 1
	} else {
		c.Col++
	}
	_, n := utf8.DecodeRune(c.Src[c.Off:])
	c.Off += n
}

// Skip moves past the next n characters.
func (c *Cursor) Skip(n int) {
	for range n {
		c.Next()
	}
}

// While moves past the characters for which ok holds and returns them.
func (c *Cursor) While(ok func(byte) bool) string {
	start := c.Off
	for c.More() && ok(c.Src[c.Off]) {
		c.Next()
	}
	return string(c.Src[start:c.Off])
}

// Until moves up to the text end (or to the end of the source) and
// returns what it passed, with any byte that is not UTF-8 replaced.
func (c *Cursor) Until(end string) string {
	start := c.Off
	for c.More() && !c.At(end) {
		c.Next()
	}
	return strings.ToValidUTF8(string(c.Src[start:c.Off]), "\uFFFD")
}

// Illegal moves past the next character, which no token starts with,
// reports it in errs and returns it.
func (c *Cursor) Illegal(errs *gsst.ErrorList) string {
	pos, b := c.Pos(), c.Src[c.Off]
	r, n := utf8.DecodeRune(c.Src[c.Off:])
	c.Next()
	switch {
	case r == utf8.RuneError && n <= 1:
		errs.Add(pos, "byte 0x%02x is not UTF-8 text", b)
	case r < ' ' || r == 0x7f:
		errs.Add(pos, "control character U+%04X", r)
	default:
		errs.Add(pos, "unexpected character %q", r)
	}
	return string(r)
}

// IsLetter and IsDigit tell the characters of names: letters, digits
// and "_", not starting with a digit.
func IsLetter(b byte) bool { return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }
func IsDigit(b byte) bool  { return '0' <= b && b <= '9' }

// IsNameByte reports whether b may go on a name.
func IsNameByte(b byte) bool { return IsLetter(b) || IsDigit(b) }

// Comment is a comment of a source file: its text, where it starts, and
// its byte offset.
type Comment struct {
	Text string
	Pos  gsst.Pos
	Off  int
}
