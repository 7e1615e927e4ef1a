package gsst

import (
	"encoding/json"
	"slices"
	"strconv"
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
	x = Unparen(x)
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
			l := Unparen(x.X)
			for {
				y, ok := l.(*BinaryExpr)
				if !ok || y.Op != x.Op {
					break
				}
				chain = append(chain, y.Y)
				l = Unparen(y.X)
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

// Written prints x as written, up to spacing: the user's parentheses
// kept and none added, one space around each binary operator and after
// a temporal one. A part of a property's Syntax printed so reads as the
// user wrote it (prove's parts of a conjunction).
func Written(x Expr) string {
	var b strings.Builder
	writeExpr(&b, x)
	return b.String()
}

// writeExpr writes x as Written does.
func writeExpr(b *strings.Builder, x Expr) {
	switch x := x.(type) {
	case *ParenExpr:
		b.WriteString("(")
		writeExpr(b, x.X)
		b.WriteString(")")
	case *UntilExpr:
		b.WriteString(map[bool]string{true: "A[", false: "E["}[x.All])
		writeExpr(b, x.L)
		b.WriteString(" U ")
		writeExpr(b, x.R)
		b.WriteString("]")
	case *UnaryExpr:
		b.WriteString(x.Op.String())
		if x.Op != NOT && x.Op != SUB {
			b.WriteString(" ")
		}
		writeExpr(b, x.X)
	case *BinaryExpr:
		// A left-nested chain a & b & c, written without recursing down
		// its length.
		chain := []*BinaryExpr{x}
		for {
			y, ok := chain[len(chain)-1].X.(*BinaryExpr)
			if !ok {
				break
			}
			chain = append(chain, y)
		}
		writeExpr(b, chain[len(chain)-1].X)
		for i := len(chain) - 1; i >= 0; i-- {
			b.WriteString(" " + chain[i].Op.String() + " ")
			writeExpr(b, chain[i].Y)
		}
	default:
		printExpr(b, x, false) // a leaf
	}
}

// Unparen strips the parentheses the user wrote around x.
func Unparen(x Expr) Expr {
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

// Temporal reports whether x has a temporal operator (AG, AF, EG, EF,
// AX, EX, or an until): whether the checker reads it as a CTL formula
// rather than a condition on one state.
func Temporal(x Expr) bool {
	// A loop down the left of a chain a & b & ..., as deep as it is
	// long.
	for {
		switch y := x.(type) {
		case *ParenExpr:
			x = y.X
		case *UntilExpr:
			return true
		case *UnaryExpr:
			if y.Op != NOT && y.Op != SUB {
				return true
			}
			x = y.X
		case *BinaryExpr:
			if Temporal(y.Y) {
				return true
			}
			x = y.X
		default:
			return false
		}
	}
}

func isLogical(t Token) bool { return t == AND || t == OR || t == IMPLIES }

// FormatFormula writes f, a condition over the variables of s, in the
// expression language, so that a guard of s reads back with the same
// meaning: counters as #S and #S[g], shared variables and parameters by
// name, n as n. presburger.Format writes a boolean or an enumeration as
// the integer it is in formulas ("lock = 1", "turn = 0"), which the
// language refuses; FormatFormula writes the atoms that read such
// variables as the language does (see TypedAtom).
func (s *Spec) FormatFormula(f presburger.Formula) string {
	return presburger.FormatAtoms(f, s.VarName, s.TypedAtom)
}

// TypedAtom is the function TypedAtom over the variables of s, for
// presburger.FormatAtoms and ctl.FormatAtoms.
func (s *Spec) TypedAtom(f presburger.Cmp) (text string, prec int, ok bool) {
	return TypedAtom(f, s.VarName, func(v presburger.Var) *Shared {
		if j, ok := s.SharedOf(v); ok {
			return &s.Shared[j]
		}
		return nil
	})
}

// maxCases bounds the number of value combinations TypedAtom writes
// an atom as.
const maxCases = 16

// TypedAtom writes f, an atom over variables named by name, as the
// language does when it reads a boolean or an enumeration (shared
// returns the shared variable a variable stands for, nil for any other
// variable), with the precedence of the text (as presburger.FormatAtoms
// takes it). An atom over one such variable reads as the values it
// allows ("lock", "!lock", "turn = reader", "turn != last", "turn = a
// | turn = b"), and x - y op 0 over two of one type as "lock = b" or
// "turn != last". Any other atom that reads one (a boolean or an
// enumeration in arithmetic, as an inductive invariant may hold) is
// written by cases over their values, which the language reads back
// with the same meaning on every state whose variables lie in their
// domains: "#N + lock = 1" as "(lock -> #N = 0) & (!lock -> #N = 1)".
// ok is false for an atom that reads none (and for one whose cases
// would be more than 16).
//
// Model variables of package counterabs number the shared variables
// differently from the Spec; their printers pass their own name and
// shared, so that one function says how a typed atom reads.
func TypedAtom(f presburger.Cmp, name func(presburger.Var) string, shared func(presburger.Var) *Shared) (text string, prec int, ok bool) {
	typed := func(v presburger.Var) *Shared {
		if x := shared(v); x != nil && (x.Bool || x.Values != nil) {
			return x
		}
		return nil
	}
	var vars []presburger.Var // the typed variables, in order
	var rest []presburger.Mono
	for _, m := range f.T.Monos {
		if typed(m.Var) == nil {
			rest = append(rest, m)
		} else if !slices.Contains(vars, m.Var) {
			vars = append(vars, m.Var)
		}
	}
	switch {
	case len(vars) == 0:
		return "", 0, false
	case len(rest) == 0 && len(vars) == 1:
		return oneTyped(f, typed(vars[0]))
	case len(rest) == 0 && len(vars) == 2:
		if text, ok := sameTyped(f, typed(vars[0]), typed(vars[1])); ok {
			return text, 3, true
		}
	}
	return byCases(f, vars, rest, name, typed)
}

// oneTyped writes c*x + k op 0 over the boolean or enumeration x by the
// values it allows.
func oneTyped(f presburger.Cmp, v *Shared) (string, int, bool) {
	t := f.T
	var holds []int
	for k := v.Lo; k <= v.Hi; k++ {
		if f.Op.Holds(int64(t.Sign(func(presburger.Var) int64 { return int64(k) }))) {
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
}

// sameTyped writes x - y = 0 or x - y != 0 over two variables of one
// type as "x = y" or "x != y"; ok is false for any other atom.
func sameTyped(f presburger.Cmp, x, y *Shared) (string, bool) {
	t := f.T
	if t.Const != 0 || t.Monos[0].Coef != -t.Monos[1].Coef ||
		(t.Monos[0].Coef != 1 && t.Monos[0].Coef != -1) || x.Bool != y.Bool || !slices.Equal(x.Values, y.Values) {
		return "", false
	}
	switch f.Op {
	case presburger.Eq:
		return x.Name + " = " + y.Name, true
	case presburger.Ne:
		return x.Name + " != " + y.Name, true
	}
	return "", false
}

// byCases writes f, whose typed variables are vars and whose other
// monomials are rest, as a conjunction over the combinations of values
// of vars: "(case -> rest op k)" for each combination, "true" cases
// left out, a case whose remainder is false written as its negation.
// Over typed variables alone, when fewer cases hold than fail, it is
// the disjunction of the cases that hold.
func byCases(f presburger.Cmp, vars []presburger.Var, rest []presburger.Mono, name func(presburger.Var) string, typed func(presburger.Var) *Shared) (string, int, bool) {
	cases := 1
	for _, x := range vars {
		v := typed(x)
		cases *= v.Hi - v.Lo + 1
		if cases > maxCases {
			return "", 0, false
		}
	}
	// is writes "x = k" for one variable as the language does.
	is := func(v *Shared, k int) string {
		text, _, _ := oneTyped(presburger.Cmp{T: presburger.Term{Monos: []presburger.Mono{{Coef: 1}}, Const: -int64(k)}, Op: presburger.Eq}, v)
		return text
	}
	isNot := func(v *Shared, k int) string {
		text, _, _ := oneTyped(presburger.Cmp{T: presburger.Term{Monos: []presburger.Mono{{Coef: 1}}, Const: -int64(k)}, Op: presburger.Ne}, v)
		return text
	}
	val := make([]int, len(vars))
	for i, x := range vars {
		val[i] = typed(x).Lo
	}
	var parts, holds []string // holds: the cases that hold, when rest is empty
	for {
		// The constant left once the typed variables take their
		// values; one beyond int64 is left to the plain writer.
		k, ok := f.T.Value(func(v presburger.Var) int64 {
			if i := slices.Index(vars, v); i >= 0 {
				return int64(val[i])
			}
			return 0
		})
		if !ok {
			return "", 0, false
		}
		var when []string
		for i, x := range vars {
			when = append(when, is(typed(x), val[i]))
		}
		cond := strings.Join(when, " & ")
		switch {
		case len(rest) > 0:
			r := presburger.Format(presburger.Cmp{T: presburger.Term{Monos: rest, Const: k}, Op: f.Op}, name)
			if len(vars) > 1 {
				cond = "(" + cond + ")"
			}
			parts = append(parts, "("+cond+" -> "+r+")")
		case f.Op.Holds(k):
			if len(vars) > 1 {
				cond = "(" + cond + ")"
			}
			holds = append(holds, cond)
		case len(vars) == 1:
			parts = append(parts, isNot(typed(vars[0]), val[0]))
		default:
			parts = append(parts, "!("+cond+")")
		}
		// The next combination, the last variable fastest.
		i := len(vars) - 1
		for ; i >= 0; i-- {
			if val[i]++; val[i] <= typed(vars[i]).Hi {
				break
			}
			val[i] = typed(vars[i]).Lo
		}
		if i < 0 {
			break
		}
	}
	if len(rest) == 0 && len(holds) < len(parts) {
		// Fewer cases hold than fail: the disjunction of those that do.
		switch len(holds) {
		case 0:
			return "false", 3, true
		case 1:
			return strings.TrimSuffix(strings.TrimPrefix(holds[0], "("), ")"), 2, true
		}
		return strings.Join(holds, " | "), 1, true
	}
	switch len(parts) {
	case 0:
		return "true", 3, true
	case 1:
		return parts[0], 3, true
	}
	return strings.Join(parts, " & "), 2, true
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

// Assignment writes "x=value", the value as the language writes it: the
// one way vsym prints a shared variable's value to people.
func (v *Shared) Assignment(k int) string { return v.Name + "=" + v.ValueName(k) }

// FormatShared writes the shared values of a configuration, one
// Assignment per variable in declaration order: "lock=true turn=writer
// k=2". Text reports, witnesses and pictures all print them so.
func (s *Spec) FormatShared(values []int) string {
	parts := make([]string, 0, len(values))
	for j, k := range values {
		if j < len(s.Shared) {
			parts = append(parts, s.Shared[j].Assignment(k))
		}
	}
	return strings.Join(parts, " ")
}

// SharedJSON writes the shared values of a configuration as a JSON object
// in declaration order: a boolean as a JSON boolean, an enumeration's
// value as a string, an integer as a number. Every JSON output of vsym
// writes them so.
func (s *Spec) SharedJSON(values []int) []byte {
	b := []byte{'{'}
	for j, k := range values {
		if j >= len(s.Shared) {
			break
		}
		if j > 0 {
			b = append(b, ',')
		}
		v := &s.Shared[j]
		b = appendJSONString(b, v.Name)
		b = append(b, ':')
		switch {
		case v.Bool:
			b = strconv.AppendBool(b, k != 0)
		case v.Values != nil:
			b = appendJSONString(b, v.ValueName(k))
		default:
			b = strconv.AppendInt(b, int64(k), 10)
		}
	}
	return append(b, '}')
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

// FormatTotals writes total counters as "#N=2 #T=0 #C=1".
func (s *Spec) FormatTotals(totals []int) string {
	parts := make([]string, len(totals))
	for i, k := range totals {
		parts[i] = "#" + s.States[i] + "=" + strconv.Itoa(k)
	}
	return strings.Join(parts, " ")
}

// FormatConfig writes a configuration as every text report and picture
// of vsym prints it: the total counters, the shared values, and the group
// counters when known (counts nil otherwise):
// "#N=1 #C=1 lock=true  (reader: N=1 C=0; writer: N=0 C=1)".
func (s *Spec) FormatConfig(totals []int, counts [][]int, shared []int) string {
	out := s.FormatTotals(totals)
	if len(shared) > 0 {
		out += " " + s.FormatShared(shared)
	}
	if counts == nil {
		return out
	}
	groups := make([]string, len(counts))
	for g, row := range counts {
		parts := make([]string, len(row))
		for i, k := range row {
			parts[i] = s.States[i] + "=" + strconv.Itoa(k)
		}
		groups[g] = s.Groups[g].Name + ": " + strings.Join(parts, " ")
	}
	return out + "  (" + strings.Join(groups, "; ") + ")"
}
