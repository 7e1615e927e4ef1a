package mist

import (
	"strings"
	"unicode/utf8"

	"github.com/vsym/vsym/gsst"
)

// scanner splits a mist file into tokens, as mist's own lexer does:
// blanks and line breaks separate tokens, "#" starts a comment that runs
// to the end of the line, names are letters, digits and "_" not starting
// with a digit, and the keywords are the names vars, rules, init,
// target, invariants, true and in. Lines and columns start at 1; columns
// count characters (a byte that is not UTF-8, inside a comment, counts
// as one).
type scanner struct {
	file string
	src  []byte
	off  int // offset of the next character
	line int
	col  int // column of the next character
	errs *gsst.ErrorList

	// comments holds every comment, in order.
	comments []comment
}

// comment is one "# ..." comment: its text after "#" and where it
// starts.
type comment struct {
	text string
	pos  gsst.Pos
	off  int
}

func newScanner(file string, src []byte, errs *gsst.ErrorList) *scanner {
	return &scanner{file: file, src: src, line: 1, col: 1, errs: errs}
}

func (s *scanner) pos() gsst.Pos { return gsst.Pos{File: s.file, Line: s.line, Col: s.col} }

// advance moves past one character of n bytes.
func (s *scanner) advance(n int) {
	if s.src[s.off] == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	s.off += n
}

// scan returns the next token, its text and its position.
func (s *scanner) scan() (Token, string, gsst.Pos) {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.advance(1)
		case c == '#':
			pos, off := s.pos(), s.off
			start := s.off + 1
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				_, n := utf8.DecodeRune(s.src[s.off:])
				s.advance(n)
			}
			s.comments = append(s.comments, comment{text: strings.ToValidUTF8(string(s.src[start:s.off]), "\uFFFD"), pos: pos, off: off})
		default:
			return s.token()
		}
	}
	return EOF, "", s.pos()
}

func (s *scanner) token() (Token, string, gsst.Pos) {
	pos := s.pos()
	c := s.src[s.off]
	switch {
	case isLetter(c):
		start := s.off
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.advance(1)
		}
		lit := string(s.src[start:s.off])
		if kw, ok := keywords[lit]; ok {
			return kw, lit, pos
		}
		return IDENT, lit, pos
	case isDigit(c):
		start := s.off
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			s.advance(1)
		}
		return INT, string(s.src[start:s.off]), pos
	}
	two := ""
	if s.off+1 < len(s.src) {
		two = string(s.src[s.off : s.off+2])
	}
	switch two {
	case "->":
		s.advance(1)
		s.advance(1)
		return ARROW, two, pos
	case ">=":
		s.advance(1)
		s.advance(1)
		return GEQ, two, pos
	}
	if t, ok := punct[c]; ok {
		s.advance(1)
		return t, string(c), pos
	}
	r, n := utf8.DecodeRune(s.src[s.off:])
	s.advance(n)
	switch {
	case r == utf8.RuneError && n <= 1:
		s.errs.Add(pos, "byte 0x%02x is not UTF-8 text", c)
	case r < ' ' || r == 0x7f:
		s.errs.Add(pos, "control character U+%04X", r)
	default:
		s.errs.Add(pos, "unexpected character %q", r)
	}
	return ILLEGAL, string(r), pos
}

// punct maps the one-character tokens.
var punct = map[byte]Token{'=': EQ, ',': COMMA, ';': SEMI, '\'': PRIME, '+': ADD, '-': SUB, '[': LBRACK, ']': RBRACK}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
