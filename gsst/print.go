package gsst

import "strings"

// Parenthesize prints x with every compound operand in parentheses, so
// that the grouping the parser chose can be read without knowing the
// precedence of the operators: "EG #T >= 1 | #C >= 1" prints as
// "(EG (#T >= 1)) | (#C >= 1)". Chains of one associative connective
// (& or |) are kept flat. The user's own parentheses are dropped; the
// printed ones are exactly those of the parse.
func Parenthesize(x Expr) string {
	var b strings.Builder
	printExpr(&b, x, false)
	return b.String()
}

// printExpr writes x, wrapped in parentheses when wrap is set and x is
// compound.
func printExpr(b *strings.Builder, x Expr, wrap bool) {
	x = unparen(x)
	switch x := x.(type) {
	case *IntLit:
		b.WriteString(x.Lit)
	case *NameExpr:
		b.WriteString(x.Name)
	case *CounterExpr:
		b.WriteString("#" + x.State.Name)
		if x.Group != nil {
			b.WriteString("[" + x.Group.Name + "]")
		}
	case *UntilExpr:
		b.WriteString(map[bool]string{true: "A[", false: "E["}[x.All])
		printExpr(b, x.L, true)
		b.WriteString(" U ")
		printExpr(b, x.R, true)
		b.WriteString("]")
	case *UnaryExpr:
		if wrap {
			b.WriteString("(")
		}
		b.WriteString(x.Op.String())
		if x.Op != NOT && x.Op != SUB {
			b.WriteString(" ")
		}
		printExpr(b, x.X, true)
		if wrap {
			b.WriteString(")")
		}
	case *BinaryExpr:
		if wrap {
			b.WriteString("(")
		}
		if x.Op == AND || x.Op == OR {
			// Print the left-nested chain a & b & c flat, without
			// recursing down its length.
			chain := []Expr{x.Y}
			l := unparen(x.X)
			for {
				y, ok := l.(*BinaryExpr)
				if !ok || y.Op != x.Op {
					break
				}
				chain = append(chain, y.Y)
				l = unparen(y.X)
			}
			chain = append(chain, l)
			for i := len(chain) - 1; i >= 0; i-- {
				printExpr(b, chain[i], true)
				if i > 0 {
					b.WriteString(" " + x.Op.String() + " ")
				}
			}
		} else {
			printExpr(b, x.X, true)
			b.WriteString(" " + x.Op.String() + " ")
			printExpr(b, x.Y, true)
		}
		if wrap {
			b.WriteString(")")
		}
	}
}

// unparen strips the parentheses the user wrote around x.
func unparen(x Expr) Expr {
	for {
		p, ok := x.(*ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

// ReliesOnPrecedence reports whether reading x as written needs the
// precedence of the boolean and temporal operators: some &, | or ->
// has as an operand an unparenthesised &, | or -> of another kind (or
// another -> at all, which associates to the right), or an
// unparenthesised ! or temporal operator on its left ("EG p | q" is
// "(EG p) | q"). Comparisons and arithmetic are not counted: an integer
// cannot be the operand of a temporal operator, so "AG #C <= 1" has one
// reading.
func ReliesOnPrecedence(x Expr) bool {
	found := false
	var walk func(x Expr)
	walk = func(x Expr) {
		for !found {
			switch y := x.(type) {
			case *ParenExpr:
				x = y.X
				continue
			case *UnaryExpr:
				x = y.X
				continue
			case *UntilExpr:
				walk(y.L)
				x = y.R
				continue
			case *BinaryExpr:
				if isLogical(y.Op) {
					if l, ok := y.X.(*BinaryExpr); ok && isLogical(l.Op) && (l.Op != y.Op || y.Op == IMPLIES) {
						found = true
					}
					if r, ok := y.Y.(*BinaryExpr); ok && isLogical(r.Op) && (r.Op != y.Op || y.Op == IMPLIES) {
						found = true
					}
					if u, ok := y.X.(*UnaryExpr); ok && u.Op != SUB {
						found = true
					}
				}
				walk(y.Y)
				x = y.X
				continue
			}
			return
		}
	}
	walk(x)
	return found
}

func isLogical(t Token) bool { return t == AND || t == OR || t == IMPLIES }
