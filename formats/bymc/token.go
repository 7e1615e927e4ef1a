package bymc

import "strconv"

// Token is a lexical token of ByMC's threshold automata.
type Token int

const (
	ILLEGAL Token = iota
	EOF
	IDENT // loc0, nsnt, N, THRESH1
	INT   // 12

	// Keywords.
	SKEL
	THRESHAUTO // threshAuto or thresholdAutomaton
	LOCAL
	SHARED
	PARAMETERS
	UNKNOWNS
	DEFINE
	ASSUMPTIONS
	LOCATIONS
	INITS
	RULES
	SPECIFICATIONS
	WHEN
	DO
	UNCHANGED
	TRUE

	LTLF    // <>
	LTLG    // []
	NOT     // !
	AND     // &&
	OR      // ||
	IMPLIES // ->
	ADD     // +
	SUB     // -
	MUL     // *
	EQ      // ==
	NE      // !=
	LT      // <
	LE      // <=
	GT      // >
	GE      // >=
	COMMA   // ,
	LPAREN  // (
	RPAREN  // )
	LBRACK  // [
	RBRACK  // ]
	LBRACE  // {
	RBRACE  // }
	COLON   // :
	SEMI    // ;
	PRIME   // '
)

var tokenText = [...]string{
	ILLEGAL: "illegal character", EOF: "end of file", IDENT: "name", INT: "integer",
	SKEL: "skel", THRESHAUTO: "thresholdAutomaton", LOCAL: "local", SHARED: "shared",
	PARAMETERS: "parameters", UNKNOWNS: "unknowns", DEFINE: "define", ASSUMPTIONS: "assumptions",
	LOCATIONS: "locations", INITS: "inits", RULES: "rules", SPECIFICATIONS: "specifications",
	WHEN: "when", DO: "do", UNCHANGED: "unchanged", TRUE: "true",
	LTLF: "<>", LTLG: "[]", NOT: "!", AND: "&&", OR: "||", IMPLIES: "->",
	ADD: "+", SUB: "-", MUL: "*", EQ: "==", NE: "!=", LT: "<", LE: "<=", GT: ">", GE: ">=",
	COMMA: ",", LPAREN: "(", RPAREN: ")", LBRACK: "[", RBRACK: "]", LBRACE: "{", RBRACE: "}",
	COLON: ":", SEMI: ";", PRIME: "'",
}

func (t Token) String() string {
	if t < 0 || int(t) >= len(tokenText) {
		return "Token(" + strconv.Itoa(int(t)) + ")"
	}
	return tokenText[t]
}

var keywords = map[string]Token{
	"skel": SKEL, "threshAuto": THRESHAUTO, "thresholdAutomaton": THRESHAUTO,
	"local": LOCAL, "shared": SHARED, "parameters": PARAMETERS, "unknowns": UNKNOWNS,
	"define": DEFINE, "assumptions": ASSUMPTIONS, "locations": LOCATIONS, "inits": INITS,
	"rules": RULES, "specifications": SPECIFICATIONS, "when": WHEN, "do": DO,
	"unchanged": UNCHANGED, "true": TRUE,
}

// operators lists the operator tokens, longest first, as ByMC's lexer
// matches them.
var operators = []struct {
	text string
	tok  Token
}{
	{"<>", LTLF}, {"[]", LTLG}, {"&&", AND}, {"||", OR}, {"->", IMPLIES}, {"!=", NE}, {"==", EQ},
	{"<=", LE}, {">=", GE}, {"!", NOT}, {"+", ADD}, {"-", SUB}, {"*", MUL}, {"<", LT}, {">", GT},
	{",", COMMA}, {"(", LPAREN}, {")", RPAREN}, {"[", LBRACK}, {"]", RBRACK}, {"{", LBRACE},
	{"}", RBRACE}, {":", COLON}, {";", SEMI}, {"'", PRIME},
}
