package bymc

import (
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
)

// scanner splits a threshold automaton into tokens, as ByMC's lexer
// (talex.mll) does: blanks and line breaks separate tokens, comments
// are /* ... */, the operators are matched longest first ("<>" and "[]"
// are the temporal operators, so a location's values are written
// "[0]"), and names are letters, digits and "_" not starting with a
// digit. ByMC tells macro names (THRESH1) from other names by their
// shape; this scanner reads both as IDENT and the translation tells
// them apart by their declarations.
type scanner struct {
	formats.Cursor
	errs *gsst.ErrorList
	// comments holds every comment, in order.
	comments []*Comment
	// unclosed is set when a comment runs to the end of the file.
	unclosed bool
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
		case s.At("/*"):
			pos, off := s.Pos(), s.Off
			s.Skip(2)
			text := s.Until("*/")
			if !s.More() {
				s.errs.Add(pos, "comment not closed: /* without */")
				s.unclosed = true
				return EOF, "", s.Pos()
			}
			s.Skip(2)
			s.comments = append(s.comments, &Comment{Text: text, Pos: pos, Off: off})
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
	for _, op := range operators {
		if s.At(op.text) {
			s.Skip(len(op.text))
			return op.tok, op.text, pos
		}
	}
	return ILLEGAL, s.Illegal(s.errs), pos
}
