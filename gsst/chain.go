package gsst

import (
	"cmp"
	"slices"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// The parser builds "e0 & e1 & ... & ek" (and likewise |, + and -, *) as
// a left-nested tree of BinaryExprs, k levels deep. Giving each node its
// meaning in turn, as the grammar suggests, costs time quadratic in k:
// presburger.Conj copies the conjunction built so far at every level, and
// Term.Add copies the sum. Generated systems have guards with thousands of
// conjuncts (GRW with d groups has about d²/2 atoms in one guard), so the
// checker walks such a chain once, left to right, keeping the partial
// result in a form that grows in place, and builds the final formula or
// term once. Walking the chain in a loop also keeps the recursion depth
// independent of its length.
//
// The result, and every error with its position, is exactly what the
// node-at-a-time evaluation gives (binaryNode in the tests is that
// evaluation, and the tests compare the two on random expressions):
//   - Conj(Conj(a, b), c) = Conj(a, b, c), and the same for Disj, because
//     Conj flattens one level of And and every And the checker builds
//     comes from Conj, so none holds a Bool or another And;
//   - terms are canonical, so adding them up in any grouping gives the
//     same Term; the bound on coefficients is checked after every
//     operator, as before, on the coefficients that operator changed
//     (the others were checked already).

// sameChain reports whether a left operand with operator inner continues
// the chain of operator outer.
func sameChain(outer, inner Token) bool {
	switch outer {
	case AND, OR, MUL:
		return inner == outer
	case ADD, SUB:
		return inner == ADD || inner == SUB
	}
	// Comparisons do not associate and -> associates to the right, so
	// these never chain to the left.
	return false
}

// chain gives the meaning of the chain of binary operators ending at x.
func (c *checker) chain(x *BinaryExpr, m mode, where string) (value, bool) {
	links := []*BinaryExpr{x}
	for {
		y, ok := links[len(links)-1].X.(*BinaryExpr)
		if !ok || !sameChain(x.Op, y.Op) {
			break
		}
		links = append(links, y)
	}
	slices.Reverse(links)
	first, ok := c.expr(links[0].X, m, where)
	switch x.Op {
	case AND, OR:
		return c.logicChain(first, ok, links, m, where)
	case ADD, SUB:
		return c.sumChain(first, ok, links, m, where)
	case MUL:
		return c.productChain(first, ok, links, m, where)
	}
	// A comparison or ->: one operator.
	r, okR := c.expr(x.Y, m, where)
	if !ok || !okR {
		return value{}, false
	}
	return c.combine(x, first, r)
}

// combine applies the non-associative operator of x (a comparison or ->)
// to the meanings of its operands.
func (c *checker) combine(x *BinaryExpr, l, r value) (value, bool) {
	switch x.Op {
	case EQL, NEQ, LSS, LEQ, GTR, GEQ:
		if l.kind == kindEnum || r.kind == kindEnum || l.boolVar || r.boolVar {
			return c.compareValues(x, l, r)
		}
		if l.kind != kindInt || r.kind != kindInt {
			c.errorf(x.OpPos, "comparison %s needs integer expressions on both sides", x.Op)
			return value{}, false
		}
		return value{kind: kindBool, f: presburger.Compare(c.sys.foldGroupSums(l.t), cmpOps[x.Op], c.sys.foldGroupSums(r.t))}, true
	case IMPLIES:
		if l.kind.term() || r.kind.term() {
			c.errorf(x.OpPos, "operands of %s must be conditions, not integer expressions", x.Op)
			return value{}, false
		}
		if l.kind == kindBool && r.kind == kindBool {
			return value{kind: kindBool, f: presburger.Implies(l.f, r.f)}, true
		}
		return value{kind: kindCTL, c: ctl.Binary{Op: ctl.Implies, L: l.toCTL(), R: r.toCTL()}}, true
	}
	c.errorf(x.OpPos, "internal error: unexpected operator %s", x.Op)
	return value{}, false
}

var cmpOps = map[Token]presburger.Op{EQL: presburger.Eq, NEQ: presburger.Ne, LSS: presburger.Lt,
	LEQ: presburger.Le, GTR: presburger.Gt, GEQ: presburger.Ge}

// logicChain folds a chain of & (or of |). While the partial result is a
// condition its operands wait in parts and are joined by one call of
// Conj (Disj) when needed; once a temporal operand appears the result is
// a CTL formula, nested to the left as the syntax tree is.
func (c *checker) logicChain(acc value, ok bool, links []*BinaryExpr, m mode, where string) (value, bool) {
	op := links[0].Op
	join, ctlOp := presburger.Conj, ctl.And
	if op == OR {
		join, ctlOp = presburger.Disj, ctl.Or
	}
	var parts []presburger.Formula
	if acc.kind == kindBool {
		parts = append(parts, acc.f)
	}
	for _, b := range links {
		// The right operand is checked even after an error on the left,
		// so that every error is reported.
		r, okR := c.expr(b.Y, m, where)
		if !ok || !okR {
			ok = false
			continue
		}
		switch {
		case acc.kind.term() || r.kind.term():
			c.errorf(b.OpPos, "operands of %s must be conditions, not integer expressions", op)
			ok = false
		case acc.kind == kindBool && r.kind == kindBool:
			parts = append(parts, r.f)
		default:
			if acc.kind == kindBool {
				acc.f = join(parts...)
				parts = nil
			}
			acc = value{kind: kindCTL, c: ctl.Binary{Op: ctlOp, L: acc.toCTL(), R: r.toCTL()}}
		}
	}
	if !ok {
		return value{}, false
	}
	if acc.kind == kindBool {
		acc.f = join(parts...)
	}
	return acc, true
}

// sumChain folds a chain of + and -. The partial sum is kept as a map
// from variables to coefficients, so each operand costs its own size.
func (c *checker) sumChain(acc value, ok bool, links []*BinaryExpr, m mode, where string) (value, bool) {
	coef := map[presburger.Var]int64{}
	var konst int64
	if ok && acc.kind == kindInt {
		// Every integer meaning the checker returns fits the limits, so
		// the sums below stay far inside int64.
		for _, mo := range acc.t.Monos {
			coef[mo.Var] = mo.Coef
		}
		konst = acc.t.Const
	}
	for _, b := range links {
		r, okR := c.intOperand(acc, ok, b, m, where)
		if !okR {
			ok = false
			continue
		}
		sign := int64(1)
		if b.Op == SUB {
			sign = -1
		}
		konst += sign * r.t.Const
		fit := konst <= MaxConstant && konst >= -MaxConstant
		for _, mo := range r.t.Monos {
			k := coef[mo.Var] + sign*mo.Coef
			coef[mo.Var] = k
			fit = fit && k <= MaxConstant && k >= -MaxConstant
		}
		if !fit {
			c.errorf(b.OpPos, "a constant or coefficient after %s exceeds the limit of %d", b.Op, MaxConstant)
			ok = false
		}
	}
	if !ok {
		return value{}, false
	}
	t := presburger.Term{Const: konst}
	for v, k := range coef {
		if k != 0 {
			t.Monos = append(t.Monos, presburger.Mono{Var: v, Coef: k})
		}
	}
	slices.SortFunc(t.Monos, func(a, b presburger.Mono) int { return cmp.Compare(a.Var, b.Var) })
	return value{kind: kindInt, t: t}, true
}

// productChain folds a chain of *. Each step scales the partial product,
// which is linear: at most one factor is not a constant.
func (c *checker) productChain(acc value, ok bool, links []*BinaryExpr, m mode, where string) (value, bool) {
	for _, b := range links {
		r, okR := c.intOperand(acc, ok, b, m, where)
		if !okR {
			ok = false
			continue
		}
		var t presburger.Term
		switch {
		case acc.t.IsConst():
			t = r.t.Scale(acc.t.Const)
		case r.t.IsConst():
			t = acc.t.Scale(r.t.Const)
		default:
			hint := ""
			switch {
			case len(c.sys.Params) > 0:
				hint = "; parameters are not constants"
			case c.sys.Parametric():
				hint = "; n is not a constant when some group's size is a range"
			}
			c.errorf(b.OpPos, "product of two non-constant expressions; guards are linear (one side of * must be a constant)%s", hint)
			ok = false
			continue
		}
		if !fits(t) {
			c.errorf(b.OpPos, "a constant or coefficient after %s exceeds the limit of %d", b.Op, MaxConstant)
			ok = false
			continue
		}
		acc = value{kind: kindInt, t: t}
	}
	if !ok {
		return value{}, false
	}
	return acc, true
}

// intOperand checks the right operand of link b of a chain of integer
// operators whose partial result is acc (ok false: an error was already
// reported on the left). The operand is checked even then, so that every
// error is reported; the result is usable only when both sides are fine
// integer expressions.
func (c *checker) intOperand(acc value, ok bool, b *BinaryExpr, m mode, where string) (value, bool) {
	r, okR := c.expr(b.Y, m, where)
	if !ok || !okR {
		return value{}, false
	}
	if acc.kind != kindInt || r.kind != kindInt {
		c.errorf(b.OpPos, "operands of %s must be integer expressions", b.Op)
		return value{}, false
	}
	return r, true
}
