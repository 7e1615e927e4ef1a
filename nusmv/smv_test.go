package nusmv

// This file holds, for the tests only, a reader and explicit-state
// interpreter for the part of the NuSMV 2.6 input language the emitters
// use. It follows the 2.6 scanner and grammar (identifier characters,
// keyword list, operator binding), not this package's printer, so that an
// output NuSMV would read differently, or reject, fails here too.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// keywords26 are the words the NuSMV 2.6 scanner returns as tokens rather
// than identifiers (input.l of NuSMV 2.6, including CONSTARRAY/typeof from
// its grammar). Kept apart from the package's own list on purpose.
var keywords26 = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`MODULE process DEFINE MDEFINE VAR FUN FROZENVAR
	IVAR INIT TRANS INVAR SPEC CTLSPEC CTLGRADSPEC LTLSPEC PSLSPEC COMPUTE INVARSPEC
	NAME CONSTRAINT ITYPE CONSTANTS SIMPWFF NEXTWFF CTLWFF CTLGWFF LTLWFF COMPWFF
	COMPID IN FAIRNESS JUSTICE COMPASSION ISA ASSIGN array bool of boolean word1
	word Word signed unsigned extend uwconst swconst resize sizeof toint count READ
	WRITE CONSTARRAY typeof EX AX EF AF EG AG E F O G H X Y Z A U S V T BU EBF ABF EBG
	ABG MIN MAX FALSE TRUE case esac mod next init self union in abs min max xor
	xnor`) {
		keywords26[w] = true
	}
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tKeyword
	tNum
	tPunct
)

type token struct {
	kind tokKind
	text string
	line int
}

func isIdentStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isIdentChar(c byte) bool {
	return isIdentStart(c) || '0' <= c && c <= '9' || c == '$' || c == '#' || c == '-'
}

// lexSMV splits src into tokens as the 2.6 scanner does: identifiers are
// [A-Za-z_][A-Za-z0-9_$#-]*, longest match first, keywords win over
// identifiers of the same text, "--" starts a comment to end of line.
func lexSMV(src string) ([]token, error) {
	var out []token
	line := 1
	puncts := []string{"<->", ":=", "->", "..", "!=", "<=", ">=", "(", ")", "[", "]", "{", "}", ";", ":", ",", "=", "<", ">", "+", "-", "*", "!", "&", "|", "/"}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case strings.HasPrefix(src[i:], "--"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			w := src[i:j]
			k := tIdent
			if keywords26[w] {
				k = tKeyword
			}
			out = append(out, token{k, w, line})
			i = j
		case '0' <= c && c <= '9':
			j := i
			for j < len(src) && '0' <= src[j] && src[j] <= '9' {
				j++
			}
			if j < len(src) && isIdentStart(src[j]) {
				return nil, fmt.Errorf("line %d: malformed number %q", line, src[i:j+1])
			}
			out = append(out, token{tNum, src[i:j], line})
			i = j
		default:
			found := false
			for _, p := range puncts {
				if strings.HasPrefix(src[i:], p) {
					out = append(out, token{tPunct, p, line})
					i += len(p)
					found = true
					break
				}
			}
			if !found {
				return nil, fmt.Errorf("line %d: unexpected character %q", line, c)
			}
		}
	}
	return append(out, token{tEOF, "", line}), nil
}

// node is an expression of the subset.
type node struct {
	op   string // num true false id neg not and or implies iff eq ne lt le gt ge add sub mul case toint count next EX AX EF AF EG AG EU AU
	kids []*node
	num  int64
	name string
	line int
}

type named struct {
	name string
	expr *node
}

type smvVar struct {
	name string
	dom  []value
}

type smvModel struct {
	vars, ivars []smvVar
	varIdx      map[string]int
	ivarIdx     map[string]int
	defines     map[string]*node
	consts      map[string]bool
	inits       map[string]*node
	nexts       map[string]*node
	invars      []*node
	trans       []*node
	ctlspecs    []named
	invarspecs  []named
	justice     []*node
	declared    []string // every declared identifier, in order
}

type parser struct {
	toks []token
	pos  int
}

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) peekAt(k int) token {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}
func (p *parser) is(text string) bool {
	t := p.peek()
	return (t.kind == tPunct || t.kind == tKeyword) && t.text == text
}
func (p *parser) accept(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}
func (p *parser) expect(text string) error {
	if !p.accept(text) {
		t := p.peek()
		return fmt.Errorf("line %d: expected %q, found %q", t.line, text, t.text)
	}
	return nil
}
func (p *parser) ident() (string, error) {
	t := p.peek()
	if t.kind != tIdent {
		return "", fmt.Errorf("line %d: expected identifier, found %q", t.line, t.text)
	}
	p.next()
	return t.text, nil
}

func isSection(t token) bool {
	if t.kind != tKeyword {
		return false
	}
	switch t.text {
	case "MODULE", "VAR", "IVAR", "DEFINE", "ASSIGN", "INVAR", "TRANS", "INIT", "CTLSPEC", "SPEC", "INVARSPEC", "LTLSPEC", "FAIRNESS", "JUSTICE", "COMPASSION", "FROZENVAR":
		return true
	}
	return false
}

// parseSMV reads one "MODULE main" of the subset.
func parseSMV(src string) (*smvModel, error) {
	toks, err := lexSMV(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	m := &smvModel{varIdx: map[string]int{}, ivarIdx: map[string]int{}, defines: map[string]*node{},
		consts: map[string]bool{}, inits: map[string]*node{}, nexts: map[string]*node{}}
	seen := map[string]bool{}
	declare := func(name string, line int) error {
		if seen[name] {
			return fmt.Errorf("line %d: %s declared twice", line, name)
		}
		seen[name] = true
		m.declared = append(m.declared, name)
		return nil
	}
	if err := p.expect("MODULE"); err != nil {
		return nil, err
	}
	if id, err := p.ident(); err != nil || id != "main" {
		return nil, fmt.Errorf("expected MODULE main")
	}
	for p.peek().kind != tEOF {
		t := p.next()
		if t.kind != tKeyword {
			return nil, fmt.Errorf("line %d: expected a section keyword, found %q", t.line, t.text)
		}
		switch t.text {
		case "VAR", "IVAR":
			for !isSection(p.peek()) && p.peek().kind != tEOF {
				line := p.peek().line
				name, err := p.ident()
				if err != nil {
					return nil, err
				}
				if err := p.expect(":"); err != nil {
					return nil, err
				}
				dom, err := p.parseType(m, declare)
				if err != nil {
					return nil, err
				}
				if err := p.expect(";"); err != nil {
					return nil, err
				}
				if err := declare(name, line); err != nil {
					return nil, err
				}
				if t.text == "VAR" {
					m.varIdx[name] = len(m.vars)
					m.vars = append(m.vars, smvVar{name, dom})
				} else {
					m.ivarIdx[name] = len(m.ivars)
					m.ivars = append(m.ivars, smvVar{name, dom})
				}
			}
		case "DEFINE":
			for !isSection(p.peek()) && p.peek().kind != tEOF {
				line := p.peek().line
				name, err := p.ident()
				if err != nil {
					return nil, err
				}
				if err := p.expect(":="); err != nil {
					return nil, err
				}
				e, err := p.expr()
				if err != nil {
					return nil, err
				}
				if err := p.expect(";"); err != nil {
					return nil, err
				}
				if err := declare(name, line); err != nil {
					return nil, err
				}
				m.defines[name] = e
			}
		case "ASSIGN":
			for !isSection(p.peek()) && p.peek().kind != tEOF {
				kw := p.next()
				if kw.kind != tKeyword || kw.text != "init" && kw.text != "next" {
					return nil, fmt.Errorf("line %d: only init() and next() assignments are in the subset, found %q", kw.line, kw.text)
				}
				if err := p.expect("("); err != nil {
					return nil, err
				}
				name, err := p.ident()
				if err != nil {
					return nil, err
				}
				if err := p.expect(")"); err != nil {
					return nil, err
				}
				if err := p.expect(":="); err != nil {
					return nil, err
				}
				e, err := p.expr()
				if err != nil {
					return nil, err
				}
				if err := p.expect(";"); err != nil {
					return nil, err
				}
				if _, ok := m.varIdx[name]; !ok {
					return nil, fmt.Errorf("line %d: assignment to %s, which is not a state variable declared before", kw.line, name)
				}
				tab := m.inits
				if kw.text == "next" {
					tab = m.nexts
				}
				if tab[name] != nil {
					return nil, fmt.Errorf("line %d: %s(%s) assigned twice", kw.line, kw.text, name)
				}
				tab[name] = e
			}
		case "INVAR", "TRANS":
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			p.accept(";")
			if t.text == "INVAR" {
				m.invars = append(m.invars, e)
			} else {
				m.trans = append(m.trans, e)
			}
		case "JUSTICE":
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			p.accept(";")
			m.justice = append(m.justice, e)
		case "CTLSPEC", "INVARSPEC":
			var nm string
			if p.accept("NAME") {
				line := p.peek().line
				if nm, err = p.ident(); err != nil {
					return nil, err
				}
				if err := p.expect(":="); err != nil {
					return nil, err
				}
				if err := declare(nm, line); err != nil {
					return nil, err
				}
			}
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			p.accept(";")
			if t.text == "CTLSPEC" {
				m.ctlspecs = append(m.ctlspecs, named{nm, e})
			} else {
				m.invarspecs = append(m.invarspecs, named{nm, e})
			}
		default:
			return nil, fmt.Errorf("line %d: section %s is not in the subset", t.line, t.text)
		}
	}
	for name := range m.consts {
		if seen[name] {
			return nil, fmt.Errorf("symbolic constant %s is also declared as a variable, define or property", name)
		}
	}
	return m, nil
}

func (p *parser) parseType(m *smvModel, declare func(string, int) error) ([]value, error) {
	if p.accept("boolean") {
		return []value{boolVal(false), boolVal(true)}, nil
	}
	if p.accept("{") {
		var dom []value
		seen := map[string]bool{}
		for {
			t := p.next()
			switch t.kind {
			case tIdent:
				if seen[t.text] {
					return nil, fmt.Errorf("line %d: %s twice in one enumeration", t.line, t.text)
				}
				seen[t.text] = true
				m.consts[t.text] = true
				dom = append(dom, value{k: vSym, s: t.text})
			case tNum:
				x, _ := strconv.ParseInt(t.text, 10, 64)
				dom = append(dom, intVal(x))
			default:
				return nil, fmt.Errorf("line %d: bad enumeration value %q", t.line, t.text)
			}
			if p.accept("}") {
				return dom, nil
			}
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
	}
	lo, err := p.integer()
	if err != nil {
		return nil, err
	}
	if err := p.expect(".."); err != nil {
		return nil, err
	}
	hi, err := p.integer()
	if err != nil {
		return nil, err
	}
	if hi < lo {
		return nil, fmt.Errorf("empty range %d..%d", lo, hi)
	}
	var dom []value
	for x := lo; x <= hi; x++ {
		dom = append(dom, intVal(x))
	}
	return dom, nil
}

func (p *parser) integer() (int64, error) {
	neg := p.accept("-")
	t := p.next()
	if t.kind != tNum {
		return 0, fmt.Errorf("line %d: expected a number, found %q", t.line, t.text)
	}
	x, err := strconv.ParseInt(t.text, 10, 64)
	if neg {
		x = -x
	}
	return x, err
}

// Expression grammar, weakest first, as in NuSMV 2.6:
//
//	implies := iff ["->" implies]
//	iff     := or {"<->" or}
//	or      := and {"|" and}
//	and     := ctl {"&" ctl}
//	ctl     := rel | EX ctl | ... | A "[" implies U implies "]" | "!" pureCTL
//	rel     := add {("="|"!="|"<"|"<="|">"|">=") add}
//	add     := mul {("+"|"-") mul}
//	mul     := prim {"*" prim}
//	prim    := number | TRUE | FALSE | id | "-" prim | "!" prim | "(" implies ")"
//	         | case ... esac | toint "(" implies ")" | count "(" list ")" | next "(" implies ")"
func (p *parser) expr() (*node, error) { return p.implies() }

func (p *parser) implies() (*node, error) {
	l, err := p.iff()
	if err != nil {
		return nil, err
	}
	if p.accept("->") {
		r, err := p.implies()
		if err != nil {
			return nil, err
		}
		return &node{op: "implies", kids: []*node{l, r}}, nil
	}
	return l, nil
}

func (p *parser) leftAssoc(sub func() (*node, error), ops map[string]string) (*node, error) {
	l, err := sub()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		op, ok := ops[t.text]
		if !ok || t.kind != tPunct {
			return l, nil
		}
		p.next()
		r, err := sub()
		if err != nil {
			return nil, err
		}
		l = &node{op: op, kids: []*node{l, r}, line: t.line}
	}
}

func (p *parser) iff() (*node, error) { return p.leftAssoc(p.or, map[string]string{"<->": "iff"}) }
func (p *parser) or() (*node, error)  { return p.leftAssoc(p.and, map[string]string{"|": "or"}) }
func (p *parser) and() (*node, error) { return p.leftAssoc(p.ctl, map[string]string{"&": "and"}) }

var ctlUnary = map[string]bool{"EX": true, "AX": true, "EF": true, "AF": true, "EG": true, "AG": true}

func (p *parser) startsPureCTL() bool {
	t := p.peek()
	if t.kind != tKeyword {
		if t.kind == tPunct && t.text == "!" {
			// "!" before a pure CTL formula belongs to the CTL rule.
			save := p.pos
			p.next()
			ok := p.startsPureCTL()
			p.pos = save
			return ok
		}
		return false
	}
	if ctlUnary[t.text] {
		return true
	}
	return (t.text == "A" || t.text == "E") && p.peekAt(1).text == "["
}

func (p *parser) ctl() (*node, error) {
	if !p.startsPureCTL() {
		return p.rel()
	}
	return p.pureCTL()
}

func (p *parser) pureCTL() (*node, error) {
	t := p.next()
	if t.text == "!" {
		x, err := p.pureCTL()
		if err != nil {
			return nil, err
		}
		return &node{op: "not", kids: []*node{x}}, nil
	}
	if ctlUnary[t.text] {
		x, err := p.ctl()
		if err != nil {
			return nil, err
		}
		return &node{op: t.text, kids: []*node{x}}, nil
	}
	// A [ l U r ] / E [ l U r ]
	if err := p.expect("["); err != nil {
		return nil, err
	}
	l, err := p.implies()
	if err != nil {
		return nil, err
	}
	if err := p.expect("U"); err != nil {
		return nil, err
	}
	r, err := p.implies()
	if err != nil {
		return nil, err
	}
	if err := p.expect("]"); err != nil {
		return nil, err
	}
	return &node{op: t.text + "U", kids: []*node{l, r}}, nil
}

func (p *parser) rel() (*node, error) {
	return p.leftAssoc(p.add, map[string]string{"=": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"})
}
func (p *parser) add() (*node, error) {
	return p.leftAssoc(p.mul, map[string]string{"+": "add", "-": "sub"})
}
func (p *parser) mul() (*node, error) { return p.leftAssoc(p.prim, map[string]string{"*": "mul"}) }

func (p *parser) prim() (*node, error) {
	t := p.next()
	switch {
	case t.kind == tNum:
		x, err := strconv.ParseInt(t.text, 10, 64)
		return &node{op: "num", num: x, line: t.line}, err
	case t.kind == tIdent:
		return &node{op: "id", name: t.text, line: t.line}, nil
	case t.text == "TRUE":
		return &node{op: "true"}, nil
	case t.text == "FALSE":
		return &node{op: "false"}, nil
	case t.text == "-":
		x, err := p.prim()
		if err != nil {
			return nil, err
		}
		return &node{op: "neg", kids: []*node{x}}, nil
	case t.text == "!":
		x, err := p.prim()
		if err != nil {
			return nil, err
		}
		return &node{op: "not", kids: []*node{x}}, nil
	case t.text == "(":
		x, err := p.implies()
		if err != nil {
			return nil, err
		}
		return x, p.expect(")")
	case t.text == "case":
		c := &node{op: "case", line: t.line}
		for !p.accept("esac") {
			cond, err := p.implies()
			if err != nil {
				return nil, err
			}
			if err := p.expect(":"); err != nil {
				return nil, err
			}
			val, err := p.implies()
			if err != nil {
				return nil, err
			}
			if err := p.expect(";"); err != nil {
				return nil, err
			}
			c.kids = append(c.kids, cond, val)
		}
		if len(c.kids) == 0 {
			return nil, fmt.Errorf("line %d: empty case", t.line)
		}
		return c, nil
	case t.text == "toint" || t.text == "next" || t.text == "count":
		if err := p.expect("("); err != nil {
			return nil, err
		}
		n := &node{op: t.text, line: t.line}
		for {
			x, err := p.implies()
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, x)
			if t.text != "count" || !p.accept(",") {
				break
			}
		}
		return n, p.expect(")")
	}
	return nil, fmt.Errorf("line %d: unexpected %q in expression", t.line, t.text)
}

// Values.

type vkind int

const (
	vInt vkind = iota
	vBool
	vSym
)

type value struct {
	k vkind
	i int64 // int value, or 0/1 for a bool
	s string
}

func intVal(x int64) value { return value{k: vInt, i: x} }
func boolVal(b bool) value {
	if b {
		return value{k: vBool, i: 1}
	}
	return value{k: vBool}
}
func (v value) String() string {
	switch v.k {
	case vBool:
		if v.i == 1 {
			return "TRUE"
		}
		return "FALSE"
	case vSym:
		return v.s
	}
	return strconv.FormatInt(v.i, 10)
}

// env evaluates expressions in one state (and, for transitions, one input
// and next state).
type env struct {
	m      *smvModel
	cur    []value // state variables
	in     []value // input variables; nil where inputs are not allowed
	nxt    []value // next state; nil where next() is not allowed
	cache  map[string]value
	active map[string]bool
}

func (m *smvModel) env(cur, in, nxt []value) *env {
	return &env{m: m, cur: cur, in: in, nxt: nxt, cache: map[string]value{}, active: map[string]bool{}}
}

func (e *env) boolOf(n *node) (bool, error) {
	v, err := e.eval(n)
	if err != nil {
		return false, err
	}
	if v.k != vBool {
		return false, fmt.Errorf("line %d: %s is not boolean", n.line, v)
	}
	return v.i == 1, nil
}

func (e *env) intOf(n *node) (int64, error) {
	v, err := e.eval(n)
	if err != nil {
		return 0, err
	}
	if v.k != vInt {
		return 0, fmt.Errorf("line %d: %s is not an integer", n.line, v)
	}
	return v.i, nil
}

func (e *env) eval(n *node) (value, error) {
	switch n.op {
	case "num":
		return intVal(n.num), nil
	case "true":
		return boolVal(true), nil
	case "false":
		return boolVal(false), nil
	case "id":
		if i, ok := e.m.varIdx[n.name]; ok {
			return e.cur[i], nil
		}
		if i, ok := e.m.ivarIdx[n.name]; ok {
			if e.in == nil {
				return value{}, fmt.Errorf("line %d: input variable %s where inputs are not allowed", n.line, n.name)
			}
			return e.in[i], nil
		}
		if d, ok := e.m.defines[n.name]; ok {
			if v, ok := e.cache[n.name]; ok {
				return v, nil
			}
			if e.active[n.name] {
				return value{}, fmt.Errorf("circular define %s", n.name)
			}
			e.active[n.name] = true
			v, err := e.eval(d)
			e.active[n.name] = false
			if err != nil {
				return value{}, err
			}
			e.cache[n.name] = v
			return v, nil
		}
		if e.m.consts[n.name] {
			return value{k: vSym, s: n.name}, nil
		}
		return value{}, fmt.Errorf("line %d: undefined identifier %s", n.line, n.name)
	case "neg":
		x, err := e.intOf(n.kids[0])
		return intVal(-x), err
	case "not":
		b, err := e.boolOf(n.kids[0])
		return boolVal(!b), err
	case "and", "or", "implies", "iff":
		a, err := e.boolOf(n.kids[0])
		if err != nil {
			return value{}, err
		}
		b, err := e.boolOf(n.kids[1])
		if err != nil {
			return value{}, err
		}
		switch n.op {
		case "and":
			return boolVal(a && b), nil
		case "or":
			return boolVal(a || b), nil
		case "implies":
			return boolVal(!a || b), nil
		}
		return boolVal(a == b), nil
	case "eq", "ne":
		a, err := e.eval(n.kids[0])
		if err != nil {
			return value{}, err
		}
		b, err := e.eval(n.kids[1])
		if err != nil {
			return value{}, err
		}
		if a.k != b.k {
			return value{}, fmt.Errorf("line %d: comparing %s with %s", n.line, a, b)
		}
		return boolVal((a == b) == (n.op == "eq")), nil
	case "lt", "le", "gt", "ge", "add", "sub", "mul":
		a, err := e.intOf(n.kids[0])
		if err != nil {
			return value{}, err
		}
		b, err := e.intOf(n.kids[1])
		if err != nil {
			return value{}, err
		}
		switch n.op {
		case "lt":
			return boolVal(a < b), nil
		case "le":
			return boolVal(a <= b), nil
		case "gt":
			return boolVal(a > b), nil
		case "ge":
			return boolVal(a >= b), nil
		case "add":
			return intVal(a + b), nil
		case "sub":
			return intVal(a - b), nil
		}
		return intVal(a * b), nil
	case "case":
		for i := 0; i < len(n.kids); i += 2 {
			c, err := e.boolOf(n.kids[i])
			if err != nil {
				return value{}, err
			}
			if c {
				return e.eval(n.kids[i+1])
			}
		}
		return value{}, fmt.Errorf("line %d: case conditions are not exhaustive", n.line)
	case "toint":
		v, err := e.eval(n.kids[0])
		if err != nil {
			return value{}, err
		}
		if v.k == vSym {
			return value{}, fmt.Errorf("line %d: toint of a symbolic value", n.line)
		}
		return intVal(v.i), nil
	case "count":
		c := int64(0)
		for _, k := range n.kids {
			b, err := e.boolOf(k)
			if err != nil {
				return value{}, err
			}
			if b {
				c++
			}
		}
		return intVal(c), nil
	case "next":
		if e.nxt == nil {
			return value{}, fmt.Errorf("line %d: next() where it is not allowed", n.line)
		}
		sub := &env{m: e.m, cur: e.nxt, in: nil, nxt: nil, cache: map[string]value{}, active: map[string]bool{}}
		return sub.eval(n.kids[0])
	}
	return value{}, fmt.Errorf("line %d: temporal operator %s outside a specification", n.line, n.op)
}

// Explicit-state semantics.

type smvGraph struct {
	m      *smvModel
	states [][]value
	index  map[string]int
	succ   [][]int
	init   []int
}

func stateKey(s []value) string {
	var b strings.Builder
	for _, v := range s {
		b.WriteString(v.String())
		b.WriteByte(',')
	}
	return b.String()
}

func inDomain(v value, dom []value) bool {
	for _, d := range dom {
		if d == v {
			return true
		}
	}
	return false
}

// product calls f with every combination of values of vars, stopping at
// the first error.
func product(vars []smvVar, f func([]value) error) error {
	cur := make([]value, len(vars))
	var rec func(i int) error
	rec = func(i int) error {
		if i == len(vars) {
			return f(append([]value(nil), cur...))
		}
		for _, v := range vars[i].dom {
			cur[i] = v
			if err := rec(i + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return rec(0)
}

func (m *smvModel) invarHolds(s []value) (bool, error) {
	e := m.env(s, nil, nil)
	for _, inv := range m.invars {
		ok, err := e.boolOf(inv)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// initStates returns the initial states: init() values, every value for
// variables without one, restricted to INVAR.
func (m *smvModel) initStates() ([][]value, error) {
	free := make([]smvVar, len(m.vars))
	for i, v := range m.vars {
		if a := m.inits[v.name]; a != nil {
			val, err := m.env(nil, nil, nil).eval(a)
			if err != nil {
				return nil, fmt.Errorf("init(%s): %v", v.name, err)
			}
			if !inDomain(val, v.dom) {
				return nil, fmt.Errorf("init(%s): value %s out of range", v.name, val)
			}
			free[i] = smvVar{v.name, []value{val}}
		} else {
			free[i] = v
		}
	}
	var out [][]value
	err := product(free, func(s []value) error {
		ok, err := m.invarHolds(s)
		if ok {
			out = append(out, s)
		}
		return err
	})
	return out, err
}

// successors returns the successors of s: for every input, the next()
// values (every value for variables without one), kept when TRANS holds
// and the next state satisfies INVAR. An out-of-range next() value is an
// error, as in NuSMV.
func (m *smvModel) successors(s []value) ([][]value, error) {
	seen := map[string]bool{}
	var out [][]value
	err := m.edges(s, func(_, t []value) {
		if k := stateKey(t); !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	})
	return out, err
}

// edges calls f(in, t) for every input in and successor t of s by it.
func (m *smvModel) edges(s []value, f func(in, t []value)) error {
	return product(m.ivars, func(in []value) error {
		e := m.env(s, in, nil)
		choices := make([]smvVar, len(m.vars))
		for i, v := range m.vars {
			a := m.nexts[v.name]
			if a == nil {
				choices[i] = v
				continue
			}
			val, err := e.eval(a)
			if err != nil {
				return fmt.Errorf("next(%s) in %s with input %s: %v", v.name, stateKey(s), stateKey(in), err)
			}
			if !inDomain(val, v.dom) {
				return fmt.Errorf("cannot assign value %s to variable %s (state %s, input %s)", val, v.name, stateKey(s), stateKey(in))
			}
			choices[i] = smvVar{v.name, []value{val}}
		}
		return product(choices, func(t []value) error {
			te := m.env(s, in, t)
			for _, tr := range m.trans {
				ok, err := te.boolOf(tr)
				if err != nil || !ok {
					return err
				}
			}
			ok, err := m.invarHolds(t)
			if err != nil || !ok {
				return err
			}
			f(in, t)
			return nil
		})
	})
}

// explore builds the reachable graph.
func (m *smvModel) explore(limit int) (*smvGraph, error) {
	g := &smvGraph{m: m, index: map[string]int{}}
	add := func(s []value) (int, bool) {
		k := stateKey(s)
		if i, ok := g.index[k]; ok {
			return i, false
		}
		g.index[k] = len(g.states)
		g.states = append(g.states, s)
		g.succ = append(g.succ, nil)
		return len(g.states) - 1, true
	}
	inits, err := m.initStates()
	if err != nil {
		return nil, err
	}
	for _, s := range inits {
		i, _ := add(s)
		g.init = append(g.init, i)
	}
	for i := 0; i < len(g.states); i++ {
		if len(g.states) > limit {
			return nil, fmt.Errorf("more than %d states", limit)
		}
		ss, err := m.successors(g.states[i])
		if err != nil {
			return nil, err
		}
		for _, t := range ss {
			j, _ := add(t)
			g.succ[i] = append(g.succ[i], j)
		}
		sort.Ints(g.succ[i])
	}
	return g, nil
}

// rangeCheck evaluates every next() assignment in every valuation of the
// state and input variables, reachable or not, as NuSMV's range check
// does (it does not know invariants such as the counters' sum).
func (m *smvModel) rangeCheck() error {
	return product(m.vars, func(s []value) error {
		return product(m.ivars, func(in []value) error {
			e := m.env(s, in, nil)
			for _, v := range m.vars {
				a := m.nexts[v.name]
				if a == nil {
					continue
				}
				val, err := e.eval(a)
				if err != nil {
					return fmt.Errorf("next(%s) in %s with input %s: %v", v.name, stateKey(s), stateKey(in), err)
				}
				if !inDomain(val, v.dom) {
					return fmt.Errorf("cannot assign value %s to variable %s (state %s, input %s)", val, v.name, stateKey(s), stateKey(in))
				}
			}
			return nil
		})
	})
}

// CTL over an explicit graph.

type cform struct {
	op   string // atom not and or implies iff EX AX EF AF EG AG EU AU
	kids []*cform
	atom func(state int) (bool, error)
}

// smvCTL turns a parsed specification into a cform: maximal subterms
// without temporal operators become atoms evaluated by the interpreter,
// with inputs and next() forbidden as in NuSMV specifications.
func (g *smvGraph) smvCTL(n *node) *cform {
	if !temporal(n) {
		return &cform{op: "atom", atom: func(s int) (bool, error) {
			return g.m.env(g.states[s], nil, nil).boolOf(n)
		}}
	}
	c := &cform{op: n.op}
	for _, k := range n.kids {
		c.kids = append(c.kids, g.smvCTL(k))
	}
	return c
}

func temporal(n *node) bool {
	switch n.op {
	case "EX", "AX", "EF", "AF", "EG", "AG", "EU", "AU":
		return true
	}
	for _, k := range n.kids {
		if temporal(k) {
			return true
		}
	}
	return false
}

// checkCTL returns the set of states satisfying f, given successor lists
// (every state must have a successor).
func checkCTL(succ [][]int, f *cform) ([]bool, error) {
	n := len(succ)
	sat := func(x *cform) ([]bool, error) { return checkCTL(succ, x) }
	out := make([]bool, n)
	switch f.op {
	case "atom":
		for s := 0; s < n; s++ {
			b, err := f.atom(s)
			if err != nil {
				return nil, err
			}
			out[s] = b
		}
		return out, nil
	case "not":
		a, err := sat(f.kids[0])
		if err != nil {
			return nil, err
		}
		for s := range out {
			out[s] = !a[s]
		}
		return out, nil
	case "and", "or", "implies", "iff":
		a, err := sat(f.kids[0])
		if err != nil {
			return nil, err
		}
		b, err := sat(f.kids[1])
		if err != nil {
			return nil, err
		}
		for s := range out {
			switch f.op {
			case "and":
				out[s] = a[s] && b[s]
			case "or":
				out[s] = a[s] || b[s]
			case "implies":
				out[s] = !a[s] || b[s]
			default:
				out[s] = a[s] == b[s]
			}
		}
		return out, nil
	case "EX", "AX":
		a, err := sat(f.kids[0])
		if err != nil {
			return nil, err
		}
		for s := range out {
			ex, ax := false, true
			for _, t := range succ[s] {
				ex = ex || a[t]
				ax = ax && a[t]
			}
			if f.op == "EX" {
				out[s] = ex
			} else {
				out[s] = ax
			}
		}
		return out, nil
	case "EF", "AF", "EG", "AG":
		// EF p = E[TRUE U p], AF p = A[TRUE U p], EG p = !AF !p, AG p = !EF !p.
		tru := &cform{op: "atom", atom: func(int) (bool, error) { return true, nil }}
		switch f.op {
		case "EF":
			return sat(&cform{op: "EU", kids: []*cform{tru, f.kids[0]}})
		case "AF":
			return sat(&cform{op: "AU", kids: []*cform{tru, f.kids[0]}})
		case "EG":
			return sat(&cform{op: "not", kids: []*cform{{op: "AF", kids: []*cform{{op: "not", kids: f.kids}}}}})
		}
		return sat(&cform{op: "not", kids: []*cform{{op: "EF", kids: []*cform{{op: "not", kids: f.kids}}}}})
	case "EU", "AU":
		a, err := sat(f.kids[0])
		if err != nil {
			return nil, err
		}
		b, err := sat(f.kids[1])
		if err != nil {
			return nil, err
		}
		copy(out, b)
		for changed := true; changed; {
			changed = false
			for s := range out {
				if out[s] || !a[s] {
					continue
				}
				ok := f.op == "AU"
				for _, t := range succ[s] {
					if f.op == "EU" && out[t] {
						ok = true
						break
					}
					if f.op == "AU" && !out[t] {
						ok = false
						break
					}
				}
				if ok && len(succ[s]) > 0 {
					out[s] = true
					changed = true
				}
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown CTL operator %s", f.op)
}
