package mist

import "strconv"

// Token is a lexical token of mist's input language.
type Token int

const (
	ILLEGAL Token = iota
	EOF
	IDENT // a place: think, x0
	INT   // 12

	// Keywords.
	VARS
	RULES
	INIT
	TARGET
	INVARIANTS
	TRUE
	IN

	ARROW  // ->
	GEQ    // >=
	EQ     // =
	COMMA  // ,
	SEMI   // ;
	PRIME  // '
	ADD    // +
	SUB    // -
	LBRACK // [
	RBRACK // ]
)

var tokenText = [...]string{
	ILLEGAL: "illegal character", EOF: "end of file", IDENT: "name", INT: "integer",
	VARS: "vars", RULES: "rules", INIT: "init", TARGET: "target", INVARIANTS: "invariants",
	TRUE: "true", IN: "in",
	ARROW: "->", GEQ: ">=", EQ: "=", COMMA: ",", SEMI: ";", PRIME: "'", ADD: "+", SUB: "-",
	LBRACK: "[", RBRACK: "]",
}

func (t Token) String() string {
	if t < 0 || int(t) >= len(tokenText) {
		return "Token(" + strconv.Itoa(int(t)) + ")"
	}
	return tokenText[t]
}

var keywords = map[string]Token{
	"vars": VARS, "rules": RULES, "init": INIT, "target": TARGET, "invariants": INVARIANTS,
	"true": TRUE, "in": IN,
}

// section reports whether t starts a section of the file.
func (t Token) section() bool {
	return t == VARS || t == RULES || t == INIT || t == TARGET || t == INVARIANTS
}
