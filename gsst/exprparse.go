package gsst

import (
	"fmt"
	"strings"
)

// Grammar of guard and property strings, lowest precedence first:
//
//	expr    = or [ "->" expr ]                     (right-associative)
//	or      = and { ("|" | "||") and }
//	and     = unary { ("&" | "&&") unary }
//	unary   = ("!" | "AG" | "AF" | "EG" | "EF" | "AX" | "EX") unary | cmp
//	cmp     = sum [ ("=" | "==" | "!=" | "<" | "<=" | ">" | ">=") sum ]
//	sum     = product { ("+" | "-") product }
//	product = neg { "*" neg }
//	neg     = "-" neg | primary
//	primary = INT | "n" | "true" | "false" | "#" STATE [ "[" GROUP "]" ]
//	        | "(" expr ")" | ("A" | "E") "[" expr "U" expr "]"
//
// "!" and the unary temporal operators sit between "&" and the
// comparisons, so "!#C = 0" is "!(#C = 0)" and "AG p -> q" is
// "(AG p) -> q", as in NuSMV. Comparisons do not associate: "a < b < c"
// is an error. The parser is purely syntactic; the checker decides which
// subexpressions are integers and which are formulas.

// maxDepth bounds the nesting of an expression, so that a hostile input
// cannot exhaust the stack.
const maxDepth = 500

// exprParser parses one expression string. pos maps a byte offset of the
// string to a file position.
type exprParser struct {
	sc    scanner
	pos   func(off int) Pos
	tok   Token
	off   int
	lit   string
	depth int
	err   *Error
}

// bailout is the panic value that unwinds the parser after the first
// syntax error; it never leaves parseExpr.
type bailout struct{}

// catch, deferred, stops the unwinding after a syntax error: it sets
// *err to the error and calls clear to drop the partial result.
func (p *exprParser) catch(err **Error, clear func()) {
	if r := recover(); r != nil {
		if _, ok := r.(bailout); !ok {
			panic(r)
		}
		*err = p.err
		clear()
	}
}

// parseExpr parses src. On a syntax error it returns nil and the error.
func parseExpr(src string, pos func(off int) Pos) (x Expr, err *Error) {
	p := &exprParser{sc: scanner{src: src}, pos: pos}
	defer p.catch(&err, func() { x = nil })
	p.next()
	if p.tok == EOF {
		p.errorf(p.off, "empty expression")
	}
	x = p.expr()
	if p.tok != EOF {
		p.errorf(p.off, "expected operator or end of expression, found %s%s", p.describe(), p.operatorHint())
	}
	return x, nil
}

// Hints for what people write from other languages: LTL's G, F, X and U
// ([] and <> for G and F), and the words and, or, not.
var (
	ltlOps = map[string]string{
		"G":  `G is LTL's "globally"; vsym reads CTL: write AG (on every path) or EG (on some path)`,
		"[]": `[] is LTL's "globally"; vsym reads CTL: write AG (on every path) or EG (on some path)`,
		"F":  `F is LTL's "finally"; vsym reads CTL: write AF (on every path) or EF (on some path)`,
		"<>": `<> is LTL's "finally"; vsym reads CTL: write AF (on every path) or EF (on some path)`,
		"X":  `X is LTL's "next"; vsym reads CTL: write AX (on every path) or EX (on some path)`,
		"U":  `vsym reads CTL, where until is A[p U q] (on every path) or E[p U q] (on some path)`,
	}
	wordOps = map[string]string{"and": "&", "or": "|", "not": "!"}
)

// operatorHint explains a name found where an operator was expected
// when it is one in another language ("and", "U"), else returns "".
func (p *exprParser) operatorHint() string {
	if p.tok != IDENT {
		return ""
	}
	if op, ok := wordOps[strings.ToLower(p.lit)]; ok {
		return fmt.Sprintf(": vsym writes %s as %s", p.lit, op)
	}
	if p.lit == "U" {
		return ": " + ltlOps["U"]
	}
	return ""
}

// parseUpdate parses an update, "x := e; y := e" (a trailing ; is
// allowed). On a syntax error it returns nil and the error. The parser is
// purely syntactic, as for expressions: the checker resolves the names
// and checks every right side against its variable.
func parseUpdate(src string, pos func(off int) Pos) (out []*AssignStmt, err *Error) {
	p := &exprParser{sc: scanner{src: src, update: true}, pos: pos}
	defer p.catch(&err, func() { out = nil })
	p.next()
	if p.tok == EOF {
		p.errorf(p.off, "empty update (write x := e, several separated by ;)")
	}
	for p.tok != EOF {
		if p.tok != IDENT {
			p.errorf(p.off, "expected a shared variable to assign, found %s", p.describe())
		}
		id := &Ident{p.pos(p.off), p.lit}
		p.next()
		if p.tok != ASSIGN {
			hint := ""
			if p.tok == EQL {
				hint = " (an update assigns with :=; = compares)"
			}
			p.errorf(p.off, "expected := after %s, found %s%s", id.Name, p.describe(), hint)
		}
		p.next()
		x := p.expr()
		out = append(out, &AssignStmt{Var: id, X: x})
		switch p.tok {
		case SEMI:
			p.next()
		case EOF:
		default:
			p.errorf(p.off, "expected ; or end of update, found %s%s", p.describe(), p.operatorHint())
		}
	}
	return out, nil
}

// standalone maps the byte offsets of a string parsed on its own to
// positions from line 1, column 1 (columns in characters).
func standalone(src string) func(off int) Pos {
	// Counting the characters before each offset anew would be quadratic
	// in the length of src.
	m := &posMap{start: Pos{Line: 1, Col: 1}, size: len(src), line: 1, col: 1}
	if !isASCII(src) {
		m.cols = runeCols(src, 1, nil)
	}
	return m.pos
}

// ParseUpdate parses an update string ("x := e; y := e") on its own,
// with positions as ParseExpr gives them. It checks syntax only.
func ParseUpdate(src string) ([]*AssignStmt, error) {
	out, err := parseUpdate(src, standalone(src))
	if err != nil {
		return nil, ErrorList{err}
	}
	return out, nil
}

// startsOperand reports whether the current token can start an operand.
func (p *exprParser) startsOperand() bool {
	switch p.tok {
	case INT, IDENT, HASH, LPAREN, NOT, SUB:
		return true
	}
	return false
}

// ParseExpr parses a guard or property string on its own, with positions
// counted from line 1, column 1 of src (columns in characters). It checks
// syntax only; names and types are checked when the string is part of a
// file given to Parse.
func ParseExpr(src string) (Expr, error) {
	x, err := parseExpr(src, standalone(src))
	if err != nil {
		return nil, ErrorList{err}
	}
	return x, nil
}

func (p *exprParser) next() {
	p.tok, p.off, p.lit = p.sc.next()
	if p.tok == LSS && strings.HasPrefix(p.sc.src[p.off:], "<->") {
		p.errorf(p.off, "vsym has no <-> (if and only if): write p <-> q as (p -> q) & (q -> p)")
	}
	if p.tok == ILLEGAL {
		if strings.HasPrefix(p.sc.src[p.off:], ":=") {
			p.errorf(p.off, "unexpected ':=': an assignment belongs in an update (update: \"x := e\"); a condition compares with =")
		}
		p.errorf(p.off, "unexpected %s", p.lit)
	}
}

func (p *exprParser) errorf(off int, format string, args ...any) {
	p.err = &Error{Pos: p.pos(off), Msg: fmt.Sprintf(format, args...)}
	panic(bailout{})
}

// describe names the current token for an error message.
func (p *exprParser) describe() string {
	switch p.tok {
	case EOF:
		return "end of expression"
	case INT:
		return "integer " + p.lit
	case IDENT:
		return fmt.Sprintf("name %q", p.lit)
	}
	return fmt.Sprintf("%q", p.lit)
}

func (p *exprParser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.errorf(p.off, "expression nested too deeply (more than %d levels)", maxDepth)
	}
}

func (p *exprParser) leave() { p.depth-- }

func (p *exprParser) expect(tok Token, what string) int {
	off := p.off
	if p.tok != tok {
		p.errorf(off, "expected %s, found %s%s", what, p.describe(), p.operatorHint())
	}
	p.next()
	return off
}

func (p *exprParser) expr() Expr {
	p.enter()
	defer p.leave()
	x := p.or()
	if p.tok == IMPLIES {
		off := p.off
		p.next()
		y := p.expr()
		x = &BinaryExpr{X: x, OpPos: p.pos(off), Op: IMPLIES, Y: y}
	}
	return x
}

func (p *exprParser) or() Expr {
	x := p.and()
	for p.tok == OR {
		off := p.off
		p.next()
		y := p.and()
		x = &BinaryExpr{X: x, OpPos: p.pos(off), Op: OR, Y: y}
	}
	return x
}

func (p *exprParser) and() Expr {
	x := p.unary()
	for p.tok == AND {
		off := p.off
		p.next()
		y := p.unary()
		x = &BinaryExpr{X: x, OpPos: p.pos(off), Op: AND, Y: y}
	}
	return x
}

func (p *exprParser) unary() Expr {
	p.enter()
	defer p.leave()
	op := NOT
	switch {
	case p.tok == NOT:
	case p.tok == IDENT && temporalOps[p.lit] != 0:
		op = temporalOps[p.lit]
	default:
		return p.cmp()
	}
	off := p.off
	p.next()
	x := p.unary()
	return &UnaryExpr{OpPos: p.pos(off), Op: op, X: x}
}

func isComparison(t Token) bool { return t >= EQL && t <= GEQ }

func (p *exprParser) cmp() Expr {
	x := p.sum()
	if !isComparison(p.tok) {
		return x
	}
	op, off := p.tok, p.off
	p.next()
	y := p.sum()
	if isComparison(p.tok) {
		p.errorf(p.off, "comparison operators do not associate: parenthesise %q", p.lit)
	}
	return &BinaryExpr{X: x, OpPos: p.pos(off), Op: op, Y: y}
}

func (p *exprParser) sum() Expr {
	x := p.product()
	for p.tok == ADD || p.tok == SUB {
		op, off := p.tok, p.off
		p.next()
		y := p.product()
		x = &BinaryExpr{X: x, OpPos: p.pos(off), Op: op, Y: y}
	}
	return x
}

func (p *exprParser) product() Expr {
	x := p.neg()
	for p.tok == MUL {
		off := p.off
		p.next()
		y := p.neg()
		x = &BinaryExpr{X: x, OpPos: p.pos(off), Op: MUL, Y: y}
	}
	return x
}

func (p *exprParser) neg() Expr {
	if p.tok != SUB {
		return p.primary()
	}
	p.enter()
	defer p.leave()
	off := p.off
	p.next()
	x := p.neg()
	return &UnaryExpr{OpPos: p.pos(off), Op: SUB, X: x}
}

func (p *exprParser) primary() Expr {
	off := p.off
	switch p.tok {
	case INT:
		lit := p.lit
		for i := 0; i < len(lit); i++ {
			if !isDigit(lit[i]) {
				p.errorf(off, "malformed integer %q (only decimal digits are allowed)", lit)
			}
		}
		p.next()
		return &IntLit{ValuePos: p.pos(off), Lit: lit}
	case HASH:
		p.next()
		if p.tok != IDENT || p.off != off+1 {
			// Point right after the #, where the name should be.
			p.errorf(off+1, "expected a state name right after #, found %s", p.describe())
		}
		c := &CounterExpr{Hash: p.pos(off), State: &Ident{p.pos(p.off), p.lit}}
		p.next()
		if p.tok == LBRACK {
			p.next()
			if p.tok != IDENT {
				p.errorf(p.off, "expected a group name inside #%s[...], found %s", c.State.Name, p.describe())
			}
			c.Group = &Ident{p.pos(p.off), p.lit}
			p.next()
			p.expect(RBRACK, "]")
		}
		return c
	case LPAREN:
		p.next()
		x := p.expr()
		p.expect(RPAREN, ")")
		return &ParenExpr{Lparen: p.pos(off), X: x}
	case IDENT:
		name := p.lit
		p.next()
		if (name == "A" || name == "E") && p.tok == LBRACK {
			p.enter()
			defer p.leave()
			p.next()
			l := p.expr()
			if p.tok != IDENT || p.lit != "U" {
				p.errorf(p.off, "expected U in %s[p U q], found %s", name, p.describe())
			}
			p.next()
			r := p.expr()
			p.expect(RBRACK, "] closing "+name+"[p U q]")
			return &UntilExpr{Quant: p.pos(off), All: name == "A", L: l, R: r}
		}
		if p.startsOperand() && p.tok != SUB {
			// A name followed by an operand is an operator of another
			// language ("G #C = 0", "not (p)"); a minus after a name
			// is the binary one (a variable named F or G in "F - 1").
			if h, ok := ltlOps[name]; ok && name != "U" {
				p.errorf(off, "%s", h)
			}
			if op, ok := wordOps[strings.ToLower(name)]; ok {
				p.errorf(off, "vsym writes %s as %s", name, op)
			}
		}
		return &NameExpr{NamePos: p.pos(off), Name: name}
	case LBRACK, LSS:
		// LTL's [] and <>.
		if src := p.sc.src; off+1 < len(src) && (src[off:off+2] == "[]" || src[off:off+2] == "<>") {
			p.errorf(off, "%s", ltlOps[src[off:off+2]])
		}
	}
	p.errorf(off, "expected operand (integer, n, #S, #S[g], true, false or parenthesised expression), found %s", p.describe())
	return nil
}
