package gsst

import (
	"fmt"
	"unicode/utf8"
)

// Token is a lexical token of the guard and property language.
type Token int

const (
	ILLEGAL Token = iota
	EOF
	INT   // 12
	IDENT // n, true, AG, A, U, ...

	HASH   // #
	LBRACK // [
	RBRACK // ]
	LPAREN // (
	RPAREN // )

	ADD // +
	SUB // -
	MUL // *

	EQL // = or ==
	NEQ // !=
	LSS // <
	LEQ // <=
	GTR // >
	GEQ // >=

	NOT     // !
	AND     // & or &&
	OR      // | or ||
	IMPLIES // ->

	ASSIGN // :=, in updates
	SEMI   // ;, between the assignments of an update

	// Unary temporal operators; the scanner returns them as IDENT and the
	// parser recognises them.
	AG
	AF
	EG
	EF
	AX
	EX
)

var tokenText = [...]string{
	ILLEGAL: "illegal character", EOF: "end of expression", INT: "integer", IDENT: "name",
	HASH: "#", LBRACK: "[", RBRACK: "]", LPAREN: "(", RPAREN: ")",
	ADD: "+", SUB: "-", MUL: "*",
	EQL: "=", NEQ: "!=", LSS: "<", LEQ: "<=", GTR: ">", GEQ: ">=",
	NOT: "!", AND: "&", OR: "|", IMPLIES: "->", ASSIGN: ":=", SEMI: ";",
	AG: "AG", AF: "AF", EG: "EG", EF: "EF", AX: "AX", EX: "EX",
}

func (t Token) String() string {
	if t >= 0 && int(t) < len(tokenText) {
		return tokenText[t]
	}
	return fmt.Sprintf("token(%d)", int(t))
}

var temporalOps = map[string]Token{"AG": AG, "AF": AF, "EG": EG, "EF": EF, "AX": AX, "EX": EX}

// scanner splits an expression string into tokens. Offsets are byte
// offsets into src; the parser maps them to file positions.
type scanner struct {
	src string
	off int
	// update enables := and ;, the tokens of updates; elsewhere they
	// are illegal characters.
	update bool
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// next returns the next token, its offset and its text. For ILLEGAL the
// text is the offending character.
func (s *scanner) next() (tok Token, off int, lit string) {
	for s.off < len(s.src) {
		switch s.src[s.off] {
		case ' ', '\t', '\n', '\r':
			s.off++
			continue
		}
		break
	}
	off = s.off
	if off >= len(s.src) {
		return EOF, off, ""
	}
	c := s.src[off]
	switch {
	case isLetter(c):
		end := off + 1
		for end < len(s.src) && (isLetter(s.src[end]) || isDigit(s.src[end])) {
			end++
		}
		s.off = end
		return IDENT, off, s.src[off:end]
	case isDigit(c):
		end := off + 1
		// Letters glued to a number ("2x", "0x10") make one bad token
		// rather than a number followed by a name.
		for end < len(s.src) && (isDigit(s.src[end]) || isLetter(s.src[end])) {
			end++
		}
		s.off = end
		return INT, off, s.src[off:end]
	}
	two := ""
	if off+1 < len(s.src) {
		two = s.src[off : off+2]
	}
	switch two {
	case "==":
		s.off += 2
		return EQL, off, two
	case "!=":
		s.off += 2
		return NEQ, off, two
	case "<=":
		s.off += 2
		return LEQ, off, two
	case ">=":
		s.off += 2
		return GEQ, off, two
	case "&&":
		s.off += 2
		return AND, off, two
	case "||":
		s.off += 2
		return OR, off, two
	case "->":
		s.off += 2
		return IMPLIES, off, two
	case ":=":
		if s.update {
			s.off += 2
			return ASSIGN, off, two
		}
	}
	s.off++
	switch c {
	case '#':
		return HASH, off, "#"
	case '[':
		return LBRACK, off, "["
	case ']':
		return RBRACK, off, "]"
	case '(':
		return LPAREN, off, "("
	case ')':
		return RPAREN, off, ")"
	case '+':
		return ADD, off, "+"
	case '-':
		return SUB, off, "-"
	case '*':
		return MUL, off, "*"
	case '=':
		return EQL, off, "="
	case '<':
		return LSS, off, "<"
	case '>':
		return GTR, off, ">"
	case '!':
		return NOT, off, "!"
	case '&':
		return AND, off, "&"
	case '|':
		return OR, off, "|"
	case ';':
		if s.update {
			return SEMI, off, ";"
		}
	}
	// Report a whole UTF-8 character, not one byte of it.
	r, size := utf8.DecodeRuneInString(s.src[off:])
	s.off = off + size
	if r == utf8.RuneError && size <= 1 {
		return ILLEGAL, off, fmt.Sprintf("byte %#x", c)
	}
	return ILLEGAL, off, fmt.Sprintf("%q", r)
}
