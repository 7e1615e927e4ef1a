package bymc

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vsym/vsym/gsst"
)

// ParseFile parses the threshold automaton src into its syntax tree.
// filename is used in positions. The grammar is ByMC's (ta.mly):
//
//	file        = [skel | threshAuto | thresholdAutomaton] name "{" decl* define*
//	              assumptions locations inits rules specifications "}"
//	decl        = (local | shared | parameters | unknowns) name ("," name)* ";"
//	define      = define name "==" expr ";"
//	assumptions = assumptions "(" int ")" "{" (expr ";")* "}"
//	locations   = locations "(" int ")" "{" (name ":" "[" int (";" int)* [";"] "]" ";")* "}"
//	inits       = inits "(" int ")" "{" (expr ";")* "}"
//	rules       = rules "(" int ")" "{" (int ":" name "->" name
//	              when "(" expr ")" do "{" action* "}" ";")* "}"
//	action      = name "'" "==" expr ";" | unchanged "(" name ("," name)* ")" ";"
//	specifications = specifications "(" int ")" "{" (name ":" expr ";")* "}"
//
// Expressions, from the loosest to the tightest binding: -> (to the
// left, as ByMC's parser groups it), ||, &&, the prefixes ! <> [],
// comparisons (== != < <= > >=, not chained), + and -, *, unary -, and
// integers, names (x' for the value after a step), true and (...).
// The File is nil only when src has no automaton at all; otherwise it
// holds what could be read, even with errors.
func ParseFile(filename string, src []byte) (*File, error) {
	p := &parser{file: &File{Name: filename}}
	p.sc = newScanner(filename, src, &p.errs)
	p.next()
	f := p.parse()
	p.errs.Sort()
	return f, p.errs.Err()
}

type parser struct {
	sc   *scanner
	file *File
	errs gsst.ErrorList

	tok    Token
	lit    string
	pos    gsst.Pos
	offset int // byte offset of the current token
	end    int // byte offset just after the previous token
	depth  int // nesting of parentheses and prefixes
}

func (p *parser) next() {
	p.end = p.sc.Off
	p.tok, p.lit, p.pos = p.sc.scan()
	p.offset = p.sc.Off - len(p.lit)
}

// errorf reports an error at the current token; after a comment that
// runs to the end of the file, only that is reported.
func (p *parser) errorf(format string, args ...any) {
	if p.tok == EOF && p.sc.unclosed {
		return
	}
	p.errs.Add(p.pos, format, args...)
}

func (p *parser) found() string {
	switch p.tok {
	case IDENT, INT:
		return p.tok.String() + " " + strconv.Quote(p.lit)
	case EOF, ILLEGAL:
		return p.tok.String()
	}
	return strconv.Quote(p.lit)
}

// bail is panicked with to stop at the first syntax error of a section
// item; the caller skips to the item's end.
type bail struct{}

// expect consumes a token t, or reports what was found and bails.
func (p *parser) expect(t Token, what string) gsst.Pos {
	pos := p.pos
	if p.tok != t {
		if p.tok != ILLEGAL {
			p.errorf("expected %s, found %s", what, p.found())
		}
		panic(bail{})
	}
	p.next()
	return pos
}

func (p *parser) ident(what string) *Ident {
	if p.tok != IDENT {
		p.expect(IDENT, what)
	}
	id := &Ident{Name: p.lit, Pos: p.pos}
	p.next()
	return id
}

func (p *parser) integer() int64 {
	if p.tok != INT {
		p.expect(INT, "an integer")
	}
	v, err := strconv.ParseInt(p.lit, 10, 64)
	if err != nil || v > gsst.MaxConstant {
		p.errorf("integer %s is too large (the limit is %d)", p.lit, gsst.MaxConstant)
		panic(bail{})
	}
	p.next()
	return v
}

// item parses one item of a section with f. On a syntax error it
// rescans the item from its first token and skips to its end: the first
// ";" outside brackets, or a "}" that closes the section.
func (p *parser) item(f func()) (ok bool) {
	start := *p.sc
	comments := len(p.sc.comments)
	tok, lit, pos, offset, end := p.tok, p.lit, p.pos, p.offset, p.end
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if _, is := r.(bail); !is {
			panic(r)
		}
		p.depth = 0
		*p.sc = start
		p.sc.comments = p.sc.comments[:comments]
		p.tok, p.lit, p.pos, p.offset, p.end = tok, lit, pos, offset, end
		depth := 0
		for p.tok != EOF {
			switch p.tok {
			case LBRACE, LPAREN, LBRACK:
				depth++
			case RBRACE, RPAREN, RBRACK:
				if depth == 0 {
					return
				}
				depth--
			case SEMI:
				if depth == 0 {
					p.next()
					return
				}
			}
			p.next()
		}
		ok = false
	}()
	f()
	return true
}

func (p *parser) parse() (f *File) {
	f = p.file
	for _, c := range p.sc.comments {
		f.Header = append(f.Header, c)
	}
	ok := p.item(func() {
		if p.tok == SKEL || p.tok == THRESHAUTO {
			p.next()
		}
		f.Automaton = p.ident("skel, threshAuto or thresholdAutomaton and the automaton's name")
		p.expect(LBRACE, "{ after the automaton's name")
	})
	if !ok {
		if f.Automaton == nil {
			return nil
		}
		return f
	}
	for p.tok == LOCAL || p.tok == SHARED || p.tok == PARAMETERS || p.tok == UNKNOWNS {
		d := &Decl{Kind: p.tok, Pos: p.pos}
		p.item(func() {
			p.next()
			d.Names = append(d.Names, p.ident("a name"))
			for p.tok == COMMA {
				p.next()
				d.Names = append(d.Names, p.ident("a name"))
			}
			p.expect(SEMI, "\",\" or \";\"")
		})
		f.Decls = append(f.Decls, d)
	}
	for p.tok == DEFINE {
		p.item(func() {
			p.next()
			d := &Define{Name: p.ident("the name of a macro")}
			p.expect(EQ, "== after the macro's name")
			d.X = p.expr()
			p.expect(SEMI, "\";\" after the macro")
			f.Defines = append(f.Defines, d)
		})
	}
	f.AssumptionsPos = p.pos
	p.section(ASSUMPTIONS, func() {
		x := p.expr()
		p.expect(SEMI, "\";\" after an assumption")
		f.Assumptions = append(f.Assumptions, x)
	})
	f.LocationsPos = p.pos
	p.section(LOCATIONS, func() {
		l := &Location{Name: p.ident("a location")}
		p.expect(COLON, "\":\" after the location")
		p.expect(LBRACK, "[ and the values of the local variables")
		l.Values = append(l.Values, p.integer())
		for p.tok == SEMI {
			p.next()
			if p.tok == RBRACK {
				break
			}
			l.Values = append(l.Values, p.integer())
		}
		p.expect(RBRACK, "]")
		p.expect(SEMI, "\";\" after the location")
		f.Locations = append(f.Locations, l)
	})
	f.InitsPos = p.pos
	p.section(INITS, func() {
		x := p.expr()
		p.expect(SEMI, "\";\" after an initial condition")
		f.Inits = append(f.Inits, x)
	})
	f.RulesPos = p.pos
	prev := -1
	p.section(RULES, func() {
		if prev < 0 {
			prev = p.end
		}
		r := &Rule{Pos: p.pos}
		start := p.offset
		for _, c := range p.sc.comments {
			if c.Off >= prev && c.Off < start {
				r.Doc = append(r.Doc, c)
			}
		}
		r.Label = p.integer()
		p.expect(COLON, "\":\" after the rule's number")
		r.From = p.ident("the rule's source location")
		p.expect(IMPLIES, "->")
		r.To = p.ident("the rule's target location")
		r.When = p.expect(WHEN, "when")
		p.expect(LPAREN, "( after when")
		switch {
		case p.tok == TRUE:
			p.next()
		case p.tok == INT && p.lit == "1":
			p.next()
		default:
			r.Guard = p.expr()
		}
		p.expect(RPAREN, ") after the guard")
		p.expect(DO, "do")
		p.expect(LBRACE, "{ after do")
		for p.tok != RBRACE {
			if p.tok == UNCHANGED {
				p.next()
				p.expect(LPAREN, "( after unchanged")
				r.Actions = append(r.Actions, &Action{Var: p.ident("a shared variable")})
				for p.tok == COMMA {
					p.next()
					r.Actions = append(r.Actions, &Action{Var: p.ident("a shared variable")})
				}
				p.expect(RPAREN, ")")
			} else {
				a := &Action{Var: p.ident("x' == ... or unchanged(...)")}
				p.expect(PRIME, "' after the variable (x' == ...)")
				p.expect(EQ, "== after x'")
				a.X = p.expr()
				r.Actions = append(r.Actions, a)
			}
			if p.tok != RBRACE { // the last action's ";" is optional (cav15's files leave it out)
				p.expect(SEMI, "\";\" after an action")
			}
		}
		p.next()
		p.expect(SEMI, "\";\" after the rule")
		r.Text = oneLine(string(p.sc.Src[start:p.end]))
		f.Rules = append(f.Rules, r)
		prev = p.end
	})
	f.SpecsPos = p.pos
	prev = -1
	specs := p.section
	if p.tok == RBRACE {
		// No specifications: an automaton alone (cav15's files), whose
		// properties are asked elsewhere.
		specs = func(Token, func()) {}
	}
	specs(SPECIFICATIONS, func() {
		if prev < 0 {
			prev = p.end
		}
		s := &Spec{}
		start := p.offset
		for _, c := range p.sc.comments {
			if c.Off >= prev && c.Off < start {
				s.Doc = append(s.Doc, c)
			}
		}
		s.Name = p.ident("a specification's name")
		p.expect(COLON, "\":\" after the specification's name")
		s.X = p.expr()
		s.Text = oneLine(string(p.sc.Src[p.offsetOf(s.X):p.end]))
		p.expect(SEMI, "\";\" after the specification")
		f.Specs = append(f.Specs, s)
		prev = p.end
	})
	p.item(func() {
		p.expect(RBRACE, "} at the end of the automaton")
		if p.tok != EOF {
			p.errorf("expected the end of the file, found %s", p.found())
		}
	})
	return f
}

// offsetOf returns the byte offset of x's first character.
func (p *parser) offsetOf(x Expr) int {
	pos := x.Pos()
	line, col := 1, 1
	for off := 0; off < len(p.sc.Src); {
		if line == pos.Line && col == pos.Col {
			return off
		}
		if p.sc.Src[off] == '\n' {
			line++
			col = 1
			off++
			continue
		}
		_, n := utf8.DecodeRune(p.sc.Src[off:])
		off += n
		col++
	}
	return len(p.sc.Src)
}

// section parses "kw (int) { items }", each item with item.
func (p *parser) section(kw Token, item func()) {
	ok := p.item(func() {
		p.expect(kw, kw.String()+" {...}")
		p.expect(LPAREN, "( after "+kw.String())
		p.integer()
		p.expect(RPAREN, ")")
		p.expect(LBRACE, "{")
	})
	if !ok {
		return
	}
	for p.tok != RBRACE && p.tok != EOF {
		before := p.offset
		p.item(item)
		if p.offset == before && p.tok != RBRACE { // no progress: skip a token
			p.next()
		}
	}
	p.item(func() { p.expect(RBRACE, "} at the end of "+kw.String()) })
}

// oneLine joins the lines of a piece of source and drops its comments.
func oneLine(s string) string {
	for {
		i := strings.Index(s, "/*")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "*/")
		if j < 0 {
			s = s[:i]
			break
		}
		s = s[:i] + " " + s[i+j+2:]
	}
	return strings.Join(strings.Fields(s), " ")
}

// Expressions.

func (p *parser) expr() Expr { return p.implies() }

// implies parses "a -> b -> c" as "(a -> b) -> c", as ByMC does.
func (p *parser) implies() Expr {
	x := p.or()
	for p.tok == IMPLIES {
		pos := p.pos
		p.next()
		x = &BinaryExpr{X: x, OpPos: pos, Op: IMPLIES, Y: p.or()}
	}
	return x
}

func (p *parser) or() Expr {
	x := p.and()
	for p.tok == OR {
		pos := p.pos
		p.next()
		x = &BinaryExpr{X: x, OpPos: pos, Op: OR, Y: p.and()}
	}
	return x
}

func (p *parser) and() Expr {
	x := p.prefix()
	for p.tok == AND {
		pos := p.pos
		p.next()
		x = &BinaryExpr{X: x, OpPos: pos, Op: AND, Y: p.prefix()}
	}
	return x
}

// prefix parses ! <> [] applied to a comparison (or to another prefix).
func (p *parser) prefix() Expr {
	switch p.tok {
	case NOT, LTLF, LTLG:
		op, pos := p.tok, p.pos
		p.next()
		p.depth++
		if p.depth > maxDepth {
			p.errorf("expression nested deeper than %d", maxDepth)
			panic(bail{})
		}
		x := &UnaryExpr{OpPos: pos, Op: op, X: p.prefix()}
		p.depth--
		return x
	}
	return p.comparison()
}

func (p *parser) comparison() Expr {
	x := p.sum()
	switch p.tok {
	case EQ, NE, LT, LE, GT, GE:
		op, pos := p.tok, p.pos
		p.next()
		x = &BinaryExpr{X: x, OpPos: pos, Op: op, Y: p.sum()}
		switch p.tok {
		case EQ, NE, LT, LE, GT, GE:
			p.errorf("comparisons do not chain: write a %s b && b %s c", op, p.lit)
			panic(bail{})
		}
	}
	return x
}

func (p *parser) sum() Expr {
	x := p.product()
	for p.tok == ADD || p.tok == SUB {
		op, pos := p.tok, p.pos
		p.next()
		x = &BinaryExpr{X: x, OpPos: pos, Op: op, Y: p.product()}
	}
	return x
}

func (p *parser) product() Expr {
	x := p.unary()
	for p.tok == MUL {
		pos := p.pos
		p.next()
		x = &BinaryExpr{X: x, OpPos: pos, Op: MUL, Y: p.unary()}
	}
	return x
}

func (p *parser) unary() Expr {
	if p.tok == SUB {
		pos := p.pos
		p.next()
		p.depth++
		if p.depth > maxDepth {
			p.errorf("expression nested deeper than %d", maxDepth)
			panic(bail{})
		}
		x := &UnaryExpr{OpPos: pos, Op: SUB, X: p.unary()}
		p.depth--
		return x
	}
	return p.primary()
}

// maxDepth bounds the nesting of an expression.
const maxDepth = 500

func (p *parser) primary() Expr {
	switch p.tok {
	case INT:
		pos := p.pos
		return &IntLit{ValuePos: pos, Value: p.integer()}
	case TRUE:
		pos := p.pos
		p.next()
		return &TrueExpr{TruePos: pos}
	case IDENT:
		x := &NameExpr{Ident: Ident{Name: p.lit, Pos: p.pos}}
		p.next()
		if p.tok == PRIME {
			x.Prime = true
			p.next()
		}
		return x
	case LPAREN:
		pos := p.pos
		p.depth++
		if p.depth > maxDepth {
			p.errorf("expression nested deeper than %d", maxDepth)
			panic(bail{})
		}
		p.next()
		x := p.expr()
		p.depth--
		p.expect(RPAREN, ")")
		return &ParenExpr{Lparen: pos, X: x}
	}
	if p.tok != ILLEGAL {
		p.errorf("expected an expression (an integer, a name, true or (...)), found %s", p.found())
	}
	panic(bail{})
}
