package gsst

import (
	"slices"
	"strings"

	"github.com/vsym/vsym/presburger"
)

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

// FormatFormula writes f, a condition over the variables of s, in the
// expression language, so that a guard of s reads back with the same
// meaning: counters as #S and #S[g], shared variables and parameters by
// name, n as n. presburger.Format writes a boolean or an enumeration as
// the integer it is in formulas ("lock = 1", "turn = 0"), which the
// language refuses; FormatFormula writes the atoms that read one such
// variable, or compare two of one type, as the language does: "lock",
// "!lock", "turn = reader", "turn != last", "lock = b". An atom the
// language cannot write (a boolean or an enumeration in arithmetic,
// which only a Spec built by hand can hold) is written as
// presburger.Format writes it.
func (s *Spec) FormatFormula(f presburger.Formula) string {
	return presburger.FormatAtoms(f, s.VarName, s.typedAtom)
}

// typedAtom writes an atom c*x + k op 0 over one boolean or enumeration
// variable x, or x - y op 0 over two of one type, as the language does,
// with the precedence of what it wrote (1 for a disjunction of values).
// ok is false for any other atom.
func (s *Spec) typedAtom(f presburger.Cmp) (text string, prec int, ok bool) {
	t := f.T
	typed := func(m presburger.Mono) *Shared {
		if j, ok := s.SharedOf(m.Var); ok && (s.Shared[j].Bool || s.Shared[j].Values != nil) {
			return &s.Shared[j]
		}
		return nil
	}
	switch len(t.Monos) {
	case 1:
		v := typed(t.Monos[0])
		if v == nil {
			return "", 0, false
		}
		var holds []int
		for k := v.Lo; k <= v.Hi; k++ {
			if f.Op.Holds(t.Monos[0].Coef*int64(k) + t.Const) {
				holds = append(holds, k)
			}
		}
		n := v.Hi - v.Lo + 1
		switch {
		case len(holds) == n:
			return "true", 3, true
		case len(holds) == 0:
			return "false", 3, true
		case v.Bool && holds[0] == 1:
			return v.Name, 3, true
		case v.Bool:
			return "!" + v.Name, 3, true
		case len(holds) == 1:
			return v.Name + " = " + v.ValueName(holds[0]), 3, true
		case len(holds) == n-1:
			for k := v.Lo; k <= v.Hi; k++ {
				if !slices.Contains(holds, k) {
					return v.Name + " != " + v.ValueName(k), 3, true
				}
			}
		}
		parts := make([]string, len(holds))
		for i, k := range holds {
			parts[i] = v.Name + " = " + v.ValueName(k)
		}
		return strings.Join(parts, " | "), 1, true
	case 2:
		x, y := typed(t.Monos[0]), typed(t.Monos[1])
		if x == nil || y == nil || t.Const != 0 || t.Monos[0].Coef != -t.Monos[1].Coef ||
			(t.Monos[0].Coef != 1 && t.Monos[0].Coef != -1) || x.Bool != y.Bool || !slices.Equal(x.Values, y.Values) {
			return "", 0, false
		}
		switch f.Op {
		case presburger.Eq:
			return x.Name + " = " + y.Name, 3, true
		case presburger.Ne:
			return x.Name + " != " + y.Name, 3, true
		}
	}
	return "", 0, false
}

// FormatUpdate writes u in the language: "lock := true; turn := writer;
// k := k + 1", a boolean's or an enumeration's value by its name.
func (s *Spec) FormatUpdate(u *Update) string {
	parts := make([]string, len(u.Assign))
	for i, a := range u.Assign {
		value := a.Value.Format(s.VarName)
		if j, ok := s.SharedOf(a.Var); ok && a.Value.IsConst() && (s.Shared[j].Bool || s.Shared[j].Values != nil) {
			value = s.Shared[j].ValueName(int(a.Value.Const))
		}
		parts[i] = s.VarName(a.Var) + " := " + value
	}
	return strings.Join(parts, "; ")
}
