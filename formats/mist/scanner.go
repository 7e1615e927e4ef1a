package mist

import (
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
)

// scanner splits a mist file into tokens, as mist's own lexer does:
// blanks and line breaks separate tokens, "#" starts a comment that runs
// to the end of the line, names are letters, digits and "_" not starting
// with a digit, and the keywords are the names vars, rules, init,
// target, invariants, true and in.
type scanner struct {
	formats.Cursor
	errs *gsst.ErrorList
	// comments holds every comment, in order.
	comments []*Comment
}

func newScanner(file string, src []byte, errs *gsst.ErrorList) *scanner {
	return &scanner{Cursor: formats.NewCursor(file, src), errs: errs}
}

// scan returns the next token, its text and its position.
func (s *scanner) scan() (Token, string, gsst.Pos) {
	for s.More() {
		switch c := s.Src[s.Off]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.Next()
		case c == '#':
			pos, off := s.Pos(), s.Off
			s.Next()
			s.comments = append(s.comments, &Comment{Text: s.Until("\n"), Pos: pos, Off: off})
		default:
			return s.token()
		}
	}
	return EOF, "", s.Pos()
}

func (s *scanner) token() (Token, string, gsst.Pos) {
	pos := s.Pos()
	switch c := s.Src[s.Off]; {
	case formats.IsLetter(c):
		lit := s.While(formats.IsNameByte)
		if kw, ok := keywords[lit]; ok {
			return kw, lit, pos
		}
		return IDENT, lit, pos
	case formats.IsDigit(c):
		return INT, s.While(formats.IsDigit), pos
	}
	for _, op := range []struct {
		text string
		tok  Token
	}{{"->", ARROW}, {">=", GEQ}, {"=", EQ}, {",", COMMA}, {";", SEMI}, {"'", PRIME}, {"+", ADD}, {"-", SUB}, {"[", LBRACK}, {"]", RBRACK}} {
		if s.At(op.text) {
			s.Skip(len(op.text))
			return op.tok, op.text, pos
		}
	}
	return ILLEGAL, s.Illegal(s.errs), pos
}
