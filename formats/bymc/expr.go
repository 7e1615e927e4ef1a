package bymc

import (
	"strconv"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// This file turns expressions of the automaton into presburger terms and
// formulas over the variables of the GSST, and into GSST text: names
// resolve to locations (counters #loc), shared variables and parameters;
// macros are written out, in parentheses; integers and coefficients
// stay within gsst.MaxConstant.

// kind is what a name declares.
type kind int

const (
	undeclared kind = iota
	location
	sharedVar
	param
	localVar
	unknown
	macro
)

var kindNames = [...]string{undeclared: "undeclared name", location: "location", sharedVar: "shared variable",
	param: "parameter", localVar: "local variable", unknown: "unknown", macro: "macro"}

func (k kind) String() string { return kindNames[k] }

// reads says which kinds of names an expression may read.
type reads struct {
	locations, shared, params bool
	where                     string // "guard of rule 3", for messages
}

// lin is a linear expression: a constant and coefficients of variables.
type lin struct {
	term presburger.Term
	text string
	prec int // of the text's top operator
}

// The precedences of GSST text, from the loosest: the connectives ->,
// | and &; the prefixes !, AG and AF; comparisons; sums; products;
// atoms (names, integers, parenthesised text).
const (
	loosePrec = iota
	prefixPrec
	cmpPrec
	sumPrec
	mulPrec
	atomPrec
)

func (t *translator) errorf(pos gsst.Pos, format string, args ...any) {
	t.imp.Errors.Add(pos, format, args...)
}

// paren writes text in parentheses when its precedence is below prec.
func paren(text string, have, want int) string {
	if have < want {
		return "(" + text + ")"
	}
	return text
}

// term translates an arithmetic expression; ok is false after an error.
func (t *translator) term(x Expr, r reads) (lin, bool) {
	switch x := x.(type) {
	case *IntLit:
		return lin{term: presburger.ConstTerm(x.Value), text: strconv.FormatInt(x.Value, 10), prec: atomPrec}, true
	case *ParenExpr:
		l, ok := t.term(x.X, r)
		return lin{term: l.term, text: "(" + l.text + ")", prec: atomPrec}, ok
	case *NameExpr:
		return t.name(x, r)
	case *UnaryExpr:
		if x.Op != SUB {
			t.errorf(x.OpPos, "%s is not arithmetic: expected a number in the %s", x.Op, r.where)
			return lin{}, false
		}
		l, ok := t.term(x.X, r)
		return lin{term: l.term.Scale(-1), text: "-" + paren(l.text, l.prec, atomPrec), prec: atomPrec}, ok && t.bounded(l.term.Scale(-1), x.OpPos)
	case *BinaryExpr:
		switch x.Op {
		case ADD, SUB:
			a, ok1 := t.term(x.X, r)
			b, ok2 := t.term(x.Y, r)
			if !ok1 || !ok2 {
				return lin{}, false
			}
			out := lin{text: paren(a.text, a.prec, sumPrec) + " " + x.Op.String() + " " + paren(b.text, b.prec, mulPrec), prec: sumPrec}
			if x.Op == ADD {
				out.term = a.term.Add(b.term)
			} else {
				out.term = a.term.Sub(b.term)
			}
			return out, t.bounded(out.term, x.OpPos)
		case MUL:
			a, ok1 := t.term(x.X, r)
			b, ok2 := t.term(x.Y, r)
			if !ok1 || !ok2 {
				return lin{}, false
			}
			out := lin{text: paren(a.text, a.prec, mulPrec) + "*" + paren(b.text, b.prec, atomPrec), prec: mulPrec}
			switch {
			case a.term.IsConst():
				out.term = b.term.Scale(a.term.Const)
			case b.term.IsConst():
				out.term = a.term.Scale(b.term.Const)
			default:
				t.errorf(x.OpPos, "product of two expressions that are not constants in the %s: GSST guards are linear", r.where)
				return lin{}, false
			}
			return out, t.bounded(out.term, x.OpPos)
		}
	case *TrueExpr:
		t.errorf(x.TruePos, "true is not a number: expected a number in the %s", r.where)
		return lin{}, false
	}
	t.errorf(x.Pos(), "expected a number in the %s, found a condition", r.where)
	return lin{}, false
}

// bounded reports whether every coefficient and the constant of term
// stay within gsst.MaxConstant, and reports an error at pos otherwise.
func (t *translator) bounded(term presburger.Term, pos gsst.Pos) bool {
	ok := term.Const >= -gsst.MaxConstant && term.Const <= gsst.MaxConstant
	for _, m := range term.Monos {
		ok = ok && m.Coef >= -gsst.MaxConstant && m.Coef <= gsst.MaxConstant
	}
	if !ok {
		t.errorf(pos, "a constant or coefficient beyond %d", gsst.MaxConstant)
	}
	return ok
}

// name resolves a name in an arithmetic expression.
func (t *translator) name(x *NameExpr, r reads) (lin, bool) {
	if x.Prime {
		t.errorf(x.Ident.Pos, "%s' (the value after a step) may appear only on the left of an action", x.Name)
		return lin{}, false
	}
	switch k := t.kinds[x.Name]; k {
	case location:
		if r.locations {
			s := t.spec
			return lin{term: presburger.VarTerm(s.TotalVar(t.loc[x.Name])), text: "#" + x.Name, prec: atomPrec}, true
		}
	case sharedVar:
		if r.shared {
			j := t.shared[x.Name]
			return lin{term: presburger.VarTerm(t.spec.SharedVar(j)), text: t.spec.Shared[j].Name, prec: atomPrec}, true
		}
	case param:
		if r.params {
			k := t.param[x.Name]
			return lin{term: presburger.VarTerm(t.spec.ParamVar(k)), text: t.spec.Params[k].Name, prec: atomPrec}, true
		}
	case macro:
		d := t.macros[x.Name]
		if t.expanding[x.Name] {
			t.errorf(x.Ident.Pos, "macro %s is defined through itself", x.Name)
			return lin{}, false
		}
		t.expanding[x.Name] = true
		l, ok := t.term(d.X, r)
		delete(t.expanding, x.Name)
		if !ok {
			return lin{}, false
		}
		l.text = paren(l.text, l.prec, atomPrec)
		l.prec = atomPrec
		return l, true
	case undeclared:
		t.errorf(x.Ident.Pos, "%s is not declared", x.Name)
		return lin{}, false
	default:
		t.errorf(x.Ident.Pos, "%s is a %s, which the %s cannot read", x.Name, k, r.where)
		return lin{}, false
	}
	t.errorf(x.Ident.Pos, "%s is a %s, which the %s cannot read", x.Name, t.kinds[x.Name], r.where)
	return lin{}, false
}

// cond is a translated condition: the formula and its GSST text.
type cond struct {
	f    presburger.Formula
	text string
	prec int // of the text's top operator
}

var cmpOps = map[Token]presburger.Op{EQ: presburger.Eq, NE: presburger.Ne, LT: presburger.Lt, LE: presburger.Le, GT: presburger.Gt, GE: presburger.Ge}

// condition translates a condition (no temporal operator).
func (t *translator) condition(x Expr, r reads) (cond, bool) {
	switch x := x.(type) {
	case *TrueExpr:
		return cond{f: presburger.True, text: "true", prec: atomPrec}, true
	case *ParenExpr:
		c, ok := t.condition(x.X, r)
		return cond{f: c.f, text: "(" + c.text + ")", prec: atomPrec}, ok
	case *UnaryExpr:
		switch x.Op {
		case NOT:
			c, ok := t.condition(x.X, r)
			return cond{f: presburger.Negation(c.f), text: "!" + paren(c.text, c.prec, prefixPrec), prec: prefixPrec}, ok
		case LTLF, LTLG:
			t.errorf(x.OpPos, "temporal operator %s in the %s", x.Op, r.where)
			return cond{}, false
		}
	case *BinaryExpr:
		if op, isCmp := cmpOps[x.Op]; isCmp {
			a, ok1 := t.term(x.X, r)
			b, ok2 := t.term(x.Y, r)
			if !ok1 || !ok2 {
				return cond{}, false
			}
			text := a.text + " " + gsstOp(x.Op) + " " + b.text
			return cond{f: presburger.Compare(a.term, op, b.term), text: text, prec: cmpPrec}, true
		}
		switch x.Op {
		case AND, OR, IMPLIES:
			a, ok1 := t.condition(x.X, r)
			b, ok2 := t.condition(x.Y, r)
			if !ok1 || !ok2 {
				return cond{}, false
			}
			return t.connect(x.Op, a, b), true
		}
	}
	t.errorf(x.Pos(), "expected a condition in the %s, found a number", r.where)
	return cond{}, false
}

// connect joins two conditions with &&, || or ->, parenthesising the
// operands so that the GSST text groups as ByMC's parser did (ByMC
// groups a -> b -> c to the left, GSST to the right).
func (t *translator) connect(op Token, a, b cond) cond {
	var f presburger.Formula
	switch op {
	case AND:
		f = presburger.Conj(a.f, b.f)
	case OR:
		f = presburger.Disj(a.f, b.f)
	default:
		f = presburger.Implies(a.f, b.f)
	}
	return cond{f: f, text: wrapOperand(a.text, a.prec) + " " + gsstOp(op) + " " + wrapOperand(b.text, b.prec), prec: loosePrec}
}

// wrapOperand parenthesises an operand of a connective that is itself a
// connective, so that no reading depends on precedence.
func wrapOperand(text string, prec int) string { return paren(text, prec, prefixPrec) }

// gsstOp writes a ByMC operator as GSST does.
func gsstOp(op Token) string {
	switch op {
	case EQ:
		return "="
	case AND:
		return "&"
	case OR:
		return "|"
	}
	return op.String()
}

// hasTemporal reports whether x has <> or [].
func hasTemporal(x Expr) bool {
	switch x := x.(type) {
	case *ParenExpr:
		return hasTemporal(x.X)
	case *UnaryExpr:
		return x.Op == LTLF || x.Op == LTLG || hasTemporal(x.X)
	case *BinaryExpr:
		return hasTemporal(x.X) || hasTemporal(x.Y)
	}
	return false
}

// unparen strips parentheses.
func unparen(x Expr) Expr {
	for {
		p, ok := x.(*ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

// readsOnly reports whether every name x reads (through macros) is a
// parameter or a macro.
func (t *translator) paramsOnly(x Expr) bool {
	switch x := x.(type) {
	case *ParenExpr:
		return t.paramsOnly(x.X)
	case *UnaryExpr:
		return t.paramsOnly(x.X)
	case *BinaryExpr:
		return t.paramsOnly(x.X) && t.paramsOnly(x.Y)
	case *NameExpr:
		switch t.kinds[x.Name] {
		case param:
			return true
		case macro:
			if t.expanding[x.Name] {
				return false
			}
			t.expanding[x.Name] = true
			ok := t.paramsOnly(t.macros[x.Name].X)
			delete(t.expanding, x.Name)
			return ok
		}
		return false
	}
	return true
}
