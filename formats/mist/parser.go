package mist

import (
	"strconv"
	"strings"

	"github.com/vsym/vsym/gsst"
)

// ParseFile parses the mist file src into its syntax tree. filename is
// used in positions. The grammar is mist's own (its parser.y):
//
//	file       = "vars" name* "rules" rule* "init" conj "target" conj+ ["invariants" conj+]
//	rule       = guard ("," guard)* "->" [assign ("," assign)*] ";"
//	guard      = constraint | "true"
//	constraint = name "=" int | name ">=" int | name "in" "[" int "," int "]"
//	assign     = name "'" "=" term (("+" | "-") term)*
//	term       = name | int
//	conj       = constraint ("," constraint)*
//
// where the conjunctions of the target and the invariants follow one
// another without a separator, and a term is subtracted only when it is
// an integer. The File is nil only when src does not start with vars;
// otherwise it holds what could be read, even with errors, which are
// returned as a gsst.ErrorList sorted by position.
func ParseFile(filename string, src []byte) (*File, error) {
	p := &parser{file: &File{Name: filename}}
	p.sc = newScanner(filename, src, &p.errs)
	p.next()
	f := p.parse()
	for _, c := range p.sc.comments {
		if text, ok := expectedResult(c.Text); ok {
			p.file.Expected = append(p.file.Expected, &Comment{Text: text, Pos: c.Pos, Off: c.Off})
		}
	}
	p.errs.Sort()
	return f, p.errs.Err()
}

// expectedResult recognises a comment "#expected result: safe".
func expectedResult(text string) (string, bool) {
	t := strings.TrimSpace(text)
	const key = "expected result:"
	if len(t) < len(key) || !strings.EqualFold(t[:len(key)], key) {
		return "", false
	}
	return strings.TrimSpace(t[len(key):]), true
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
}

func (p *parser) next() {
	p.end = p.sc.Off
	p.tok, p.lit, p.pos = p.sc.scan()
	p.offset = p.sc.Off - len(p.lit)
}

// errorf reports an error at the current token.
func (p *parser) errorf(format string, args ...any) { p.errs.Add(p.pos, format, args...) }

// found describes the current token for "expected X, found Y".
func (p *parser) found() string {
	switch p.tok {
	case IDENT, INT:
		return p.tok.String() + " " + strconv.Quote(p.lit)
	case EOF, ILLEGAL:
		return p.tok.String()
	}
	return strconv.Quote(p.lit)
}

// expect consumes a token t, or reports what was found instead.
func (p *parser) expect(t Token, what string) bool {
	if p.tok != t {
		if p.tok != ILLEGAL { // the scanner reported it
			p.errorf("expected %s, found %s", what, p.found())
		}
		return false
	}
	p.next()
	return true
}

func (p *parser) parse() *File {
	f := p.file
	for _, c := range p.sc.comments {
		if c.Off < p.offset {
			f.Header = append(f.Header, c)
		}
	}
	if p.tok != VARS {
		p.errorf("expected vars, the first section of a mist file, found %s", p.found())
		return nil
	}
	p.next()
	for p.tok == IDENT {
		f.Vars = append(f.Vars, &Ident{Name: p.lit, Pos: p.pos})
		p.next()
	}
	if !p.expect(RULES, "a place name or rules") {
		p.skipTo(RULES)
		if p.tok == RULES {
			p.next()
		}
	}
	p.rules()
	f.InitPos = p.pos
	if p.expect(INIT, "a rule or init") {
		f.Init = p.conj("init")
	}
	p.skipTo(TARGET)
	f.TargetPos = p.pos
	if p.expect(TARGET, "target") {
		f.Target = p.conjs("target")
		if len(f.Target) == 0 {
			p.errorf("expected a constraint of the target, found %s", p.found())
		}
	}
	if p.tok == INVARIANTS {
		p.next()
		f.Invariants = p.conjs("invariant")
	}
	if p.tok != EOF {
		p.errorf("expected the end of the file, found %s", p.found())
	}
	return f
}

// skipTo skips tokens up to the section keyword t (or the end).
func (p *parser) skipTo(t Token) {
	for p.tok != EOF && p.tok != t {
		p.next()
	}
}

func (p *parser) rules() {
	prev := p.end // the end of the rules keyword, then of each rule
	for p.tok == IDENT || p.tok == TRUE {
		r := &Rule{Index: len(p.file.Rules) + 1, Pos: p.pos}
		start := p.offset
		for _, c := range p.sc.comments {
			if c.Off >= prev && c.Off < start {
				r.Doc = append(r.Doc, c)
			}
		}
		if !p.rule(r) {
			// Skip to the end of the rule, or the next section.
			for p.tok != EOF && p.tok != SEMI && !p.tok.section() {
				p.next()
			}
			if p.tok == SEMI {
				p.next()
			}
		} else {
			r.Text = oneLine(string(p.sc.Src[start:p.end]))
			p.file.Rules = append(p.file.Rules, r)
		}
		prev = p.end
	}
}

// oneLine joins the lines of a rule and drops its comments.
func oneLine(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		b.WriteString(" ")
		b.WriteString(line)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func (p *parser) rule(r *Rule) bool {
	for {
		if p.tok == TRUE {
			p.next()
		} else {
			c, ok := p.constraint("guard")
			if !ok {
				return false
			}
			r.Guard = append(r.Guard, c)
		}
		if p.tok != COMMA {
			break
		}
		p.next()
	}
	r.Arrow = p.pos
	if !p.expect(ARROW, "\",\" or ->") {
		return false
	}
	for p.tok == IDENT {
		a, ok := p.assign()
		if !ok {
			return false
		}
		r.Assigns = append(r.Assigns, a)
		if p.tok != COMMA {
			break
		}
		p.next()
	}
	return p.expect(SEMI, "\",\" or \";\" after an assignment")
}

func (p *parser) assign() (*Assign, bool) {
	a := &Assign{Place: &Ident{Name: p.lit, Pos: p.pos}}
	p.next()
	if !p.expect(PRIME, "' after the place (x' = ...)") || !p.expect(EQ, "= after x'") {
		return nil, false
	}
	neg := false
	for {
		t := &Term{Neg: neg, Pos: p.pos}
		switch p.tok {
		case IDENT:
			t.Place = &Ident{Name: p.lit, Pos: p.pos}
			p.next()
		case INT:
			v, ok := p.integer()
			if !ok {
				return nil, false
			}
			t.Value = v
		default:
			p.errorf("expected a place or an integer, found %s", p.found())
			return nil, false
		}
		a.Terms = append(a.Terms, t)
		switch p.tok {
		case ADD:
			neg = false
		case SUB:
			neg = true
		default:
			return a, true
		}
		p.next()
	}
}

// integer reads an integer token, at most gsst.MaxConstant.
func (p *parser) integer() (int64, bool) {
	if p.tok != INT {
		p.errorf("expected an integer, found %s", p.found())
		return 0, false
	}
	v, err := strconv.ParseInt(p.lit, 10, 64)
	if err != nil || v > gsst.MaxConstant {
		p.errorf("integer %s is too large (the limit is %d)", p.lit, gsst.MaxConstant)
		return 0, false
	}
	p.next()
	return v, true
}

func (p *parser) constraint(where string) (*Constraint, bool) {
	if p.tok != IDENT {
		p.errorf("expected a place of the %s, found %s", where, p.found())
		return nil, false
	}
	c := &Constraint{Place: &Ident{Name: p.lit, Pos: p.pos}}
	p.next()
	var ok bool
	switch p.tok {
	case EQ:
		p.next()
		c.Op = Eq
		c.K, ok = p.integer()
	case GEQ:
		p.next()
		c.Op = Geq
		c.K, ok = p.integer()
	case IN:
		p.next()
		c.Op = In
		if !p.expect(LBRACK, "[ after in") {
			return nil, false
		}
		if c.K, ok = p.integer(); !ok {
			return nil, false
		}
		if !p.expect(COMMA, "\",\" between the bounds") {
			return nil, false
		}
		if c.Hi, ok = p.integer(); !ok {
			return nil, false
		}
		ok = p.expect(RBRACK, "]")
	default:
		p.errorf("expected =, >= or in after %s, found %s", c.Place.Name, p.found())
	}
	return c, ok
}

// conj reads a conjunction of constraints.
func (p *parser) conj(where string) []*Constraint {
	var out []*Constraint
	for {
		c, ok := p.constraint(where)
		if !ok {
			return out
		}
		out = append(out, c)
		if p.tok != COMMA {
			return out
		}
		p.next()
	}
}

// conjs reads conjunctions that follow one another, as long as a place
// starts one.
func (p *parser) conjs(where string) [][]*Constraint {
	var out [][]*Constraint
	for p.tok == IDENT {
		n := len(p.errs)
		c := p.conj(where)
		if len(p.errs) > n {
			for p.tok != EOF && !p.tok.section() {
				p.next()
			}
			return append(out, c)
		}
		out = append(out, c)
	}
	return out
}
