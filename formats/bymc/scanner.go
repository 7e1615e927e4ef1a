package bymc

import (
	"strings"
	"unicode/utf8"

	"github.com/vsym/vsym/gsst"
)

// scanner splits a threshold automaton into tokens, as ByMC's lexer
// (talex.mll) does: blanks and line breaks separate tokens, comments
// are /* ... */, the operators are matched longest first ("<>" and "[]"
// are the temporal operators, so a location's values are written
// "[0]"), and names are letters, digits and "_" not starting with a
// digit. ByMC tells macro names (THRESH1) from other names by their
// shape; this scanner reads both as IDENT and the translation tells
// them apart by their declarations. Lines and columns start at 1;
// columns count characters.
type scanner struct {
	file string
	src  []byte
	off  int
	line int
	col  int
	errs *gsst.ErrorList
	// comments holds the text of every comment, in order, with its
	// position and byte offset.
	comments []comment
	// unclosed is set when a comment runs to the end of the file.
	unclosed bool
}

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
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '*':
			pos, off := s.pos(), s.off
			s.advance(1)
			s.advance(1)
			start := s.off
			for s.off < len(s.src) && !(s.src[s.off] == '*' && s.off+1 < len(s.src) && s.src[s.off+1] == '/') {
				_, n := utf8.DecodeRune(s.src[s.off:])
				s.advance(n)
			}
			if s.off >= len(s.src) {
				s.errs.Add(pos, "comment not closed: /* without */")
				s.unclosed = true
				return EOF, "", s.pos()
			}
			s.comments = append(s.comments, comment{text: strings.ToValidUTF8(string(s.src[start:s.off]), "\uFFFD"), pos: pos, off: off})
			s.advance(1)
			s.advance(1)
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
	for _, op := range operators {
		if strings.HasPrefix(string(s.src[s.off:min(s.off+2, len(s.src))]), op.text) {
			for range op.text {
				s.advance(1)
			}
			return op.tok, op.text, pos
		}
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

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
