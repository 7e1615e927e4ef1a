package nusmv

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/presburger"
)

// Binding strength of NuSMV 2.6 expressions, weakest first, as in the
// grammar of the 2.6 parser: -> is below <->, below |, below &, below the
// CTL unary operators and the comparisons, below + and -, below *; ! and
// unary - apply to a primary expression only, so "!x = 1" means
// "(!x) = 1". The printer puts parentheses wherever a child binds less
// strongly than its position needs, and around every operand of a
// temporal operator, so that no output depends on a subtle rule.
const (
	precImplies = 1
	precOr      = 3
	precAnd     = 4
	precRel     = 5 // comparisons and CTL unary operators
	precAdd     = 6
	precMul     = 7
	precPrimary = 9
)

// frag is a printed expression with the binding strength of its top
// operator.
type frag struct {
	s    string
	prec int
}

// in returns f as text fit for a position that needs strength min.
func (f frag) in(min int) string {
	if f.prec < min {
		return "(" + f.s + ")"
	}
	return f.s
}

var (
	fragTrue  = frag{"TRUE", precPrimary}
	fragFalse = frag{"FALSE", precPrimary}
)

// maxExpansion bounds the number of assignments enumerated to remove one
// bounded existential quantifier (NuSMV has none). Guards produced by the
// counter abstraction are quantifier-free; this only guards against a
// runaway output for a hand-built formula.
const maxExpansion = 1 << 12

// namefn names a counter variable in NuSMV, or fails for a variable that
// has no name in the model being emitted.
type namefn func(presburger.Var) (string, error)

// magfn gives the largest magnitude of the values of a variable of the
// model being emitted (sharedVars.magnitude), for the range check of the
// expressions that read it (checkInt).
type magfn func(presburger.Var) int64

// atomfn prints a comparison, the atom of a formula: as arithmetic over
// counter variables (arith) in the reduced model, compiled to Boolean
// form over the processes' states (countCompiler) in the concrete one.
type atomfn func(presburger.Cmp) (frag, error)

// arith prints comparisons as they are, with counters named by name and
// bounded by mag.
func arith(name namefn, mag magfn) atomfn {
	return func(c presburger.Cmp) (frag, error) { return compare(c, name, mag) }
}

// formula prints a Presburger formula as a NuSMV boolean expression.
func formula(f presburger.Formula, name atomfn) (frag, error) {
	switch f := f.(type) {
	case presburger.Bool:
		if f {
			return fragTrue, nil
		}
		return fragFalse, nil
	case presburger.Cmp:
		return name(f)
	case presburger.Not:
		x, err := formula(f.F, name)
		if err != nil {
			return frag{}, err
		}
		return frag{"!" + x.in(precPrimary), precPrimary}, nil
	case presburger.And:
		return join(f, " & ", precAnd, fragTrue, name)
	case presburger.Or:
		return join(f, " | ", precOr, fragFalse, name)
	case presburger.Exists:
		g, err := expand(f)
		if err != nil {
			return frag{}, err
		}
		return formula(g, name)
	case nil:
		return frag{}, fmt.Errorf("missing formula")
	}
	return frag{}, fmt.Errorf("unknown formula %T", f)
}

func join(fs []presburger.Formula, sep string, prec int, empty frag, name atomfn) (frag, error) {
	if len(fs) == 0 {
		return empty, nil
	}
	parts := make([]string, len(fs))
	for i, g := range fs {
		x, err := formula(g, name)
		if err != nil {
			return frag{}, err
		}
		parts[i] = x.in(prec)
	}
	if len(parts) == 1 {
		return frag{parts[0], prec}, nil
	}
	return frag{strings.Join(parts, sep), prec}, nil
}

// expand removes an Exists by enumerating its bounded variables.
func expand(f presburger.Exists) (presburger.Formula, error) {
	out, err := presburger.Expand(f, maxExpansion)
	if err != nil {
		return nil, fmt.Errorf("%w (NuSMV has no quantifiers)", err)
	}
	return out, nil
}

// compare prints "T op 0" with positive monomials on the left and
// negative ones on the right, the constant on the right: 2*x_A - x_B + 3
// >= 0 becomes "2*x_A >= x_B - 3". A side without monomials is a number.
// It refuses a comparison NuSMV could not compute in its integers
// (checkInt).
func compare(c presburger.Cmp, name namefn, mag magfn) (frag, error) {
	if err := checkInt(c.T, mag); err != nil {
		return frag{}, err
	}
	s := emit.SplitCmp(c)
	if len(s.Left) == 0 {
		if s.Truth() {
			return fragTrue, nil
		}
		return fragFalse, nil
	}
	op := s.Op
	lhs, err := sum(s.Left, 0, name)
	if err != nil {
		return frag{}, err
	}
	rhs, err := sum(s.Right, s.Const, name)
	if err != nil {
		return frag{}, err
	}
	return frag{lhs + " " + op.String() + " " + rhs, precRel}, nil
}

// maxLiteral is the largest integer literal we emit, and the largest
// magnitude an expression may reach: NuSMV 2.6 reads numbers into a C
// int and computes sums and products in one (it keeps the low 32 bits
// of a number, node.h), so anything beyond would not mean what the model
// says.
const maxLiteral = 1<<31 - 1

func literal(x int64) (string, error) {
	if x > maxLiteral || x < -maxLiteral {
		return "", &rangeError{fmt.Sprintf("constant %d does not fit NuSMV's 32-bit integers", x)}
	}
	return strconv.FormatInt(x, 10), nil
}

// rangeError refuses an expression NuSMV cannot compute in its 32-bit
// integers: bad input for this export, not a bug (exprError).
type rangeError struct{ msg string }

func (e *rangeError) Error() string { return e.msg }

// Is makes a rangeError bad input (errkind.Input) wherever it surfaces.
func (e *rangeError) Is(target error) bool { return target == errkind.Input }

// checkInt refuses a term whose value, or a product or partial sum NuSMV
// computes on the way, could leave its 32-bit integers over the values
// of its variables (mag): |constant| plus each |coefficient| times the
// largest magnitude of its variable, computed exactly.
func checkInt(t presburger.Term, mag magfn) error {
	m, ok := t.Magnitude(func(v presburger.Var) (presburger.Bound, bool) {
		x := mag(v)
		return presburger.Bound{Var: v, Lo: -x, Hi: x}, true
	})
	switch {
	case !ok:
		return &rangeError{"an expression can reach values beyond 2^63, beyond the 32-bit integers NuSMV computes with"}
	case m > maxLiteral:
		return &rangeError{fmt.Sprintf("an expression can reach %d, beyond the 32-bit integers NuSMV computes with", m)}
	}
	return nil
}

// exprError reports err, met while writing the expression of what: bad
// input when NuSMV's integers cannot hold it (rangeError), else a bug.
func exprError(what string, err error) error {
	var re *rangeError
	if errors.As(err, &re) {
		return errkind.Errorf(errkind.Input, "nusmv: %s: %w", what, err)
	}
	return errkind.Errorf(errkind.Internal, "nusmv: %s: %w", what, err)
}

// sum prints a sum of monomials with positive coefficients plus k, with
// spaces around every binary operator: NuSMV identifiers may contain '-',
// so "x-1" would be read as one name.
func sum(ms []presburger.Mono, k int64, name namefn) (string, error) {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteString(" + ")
		}
		if m.Coef != 1 {
			c, err := literal(m.Coef)
			if err != nil {
				return "", err
			}
			b.WriteString(c + "*")
		}
		s, err := name(m.Var)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	abs := k
	if abs < 0 {
		abs = -abs
	}
	c, err := literal(abs)
	if err != nil {
		return "", err
	}
	switch {
	case len(ms) == 0 && k < 0:
		b.WriteString("-" + c)
	case len(ms) == 0:
		b.WriteString(c)
	case k > 0:
		b.WriteString(" + " + c)
	case k < 0:
		b.WriteString(" - " + c)
	}
	return b.String(), nil
}

// ctlFormula prints a CTL formula in the syntax of NuSMV CTLSPEC.
func ctlFormula(f ctl.Formula, name atomfn) (frag, error) {
	switch f := f.(type) {
	case ctl.Atom:
		return formula(f.P, name)
	case ctl.Not:
		x, err := ctlFormula(f.X, name)
		if err != nil {
			return frag{}, err
		}
		return frag{"!" + x.in(precPrimary), precPrimary}, nil
	case ctl.Binary:
		l, r, err := ctlOperands(f.L, f.R, name)
		if err != nil {
			return frag{}, err
		}
		switch f.Op {
		case ctl.And:
			return frag{l.in(precAnd) + " & " + r.in(precAnd+1), precAnd}, nil
		case ctl.Or:
			return frag{l.in(precOr) + " | " + r.in(precOr+1), precOr}, nil
		case ctl.Implies:
			// -> is right-associative: a -> b -> c is a -> (b -> c).
			return frag{l.in(precImplies+1) + " -> " + r.in(precImplies), precImplies}, nil
		}
		return frag{}, fmt.Errorf("unknown CTL connective %d", f.Op)
	case ctl.Unary:
		x, err := ctlFormula(f.X, name)
		if err != nil {
			return frag{}, err
		}
		switch f.Op {
		case ctl.EX, ctl.AX, ctl.EF, ctl.AF, ctl.EG, ctl.AG:
		default:
			return frag{}, fmt.Errorf("unknown CTL operator %d", f.Op)
		}
		return frag{f.Op.String() + " " + x.in(precPrimary), precRel}, nil
	case ctl.Until:
		l, r, err := ctlOperands(f.L, f.R, name)
		if err != nil {
			return frag{}, err
		}
		q := "E"
		if f.All {
			q = "A"
		}
		return frag{q + " [ " + l.in(precRel) + " U " + r.in(precRel) + " ]", precRel}, nil
	case nil:
		return frag{}, fmt.Errorf("missing CTL formula")
	}
	return frag{}, fmt.Errorf("unknown CTL formula %T", f)
}

// ctlOperands prints the two operands of a binary CTL operator.
func ctlOperands(l, r ctl.Formula, name atomfn) (frag, frag, error) {
	lf, err := ctlFormula(l, name)
	if err != nil {
		return frag{}, frag{}, err
	}
	rf, err := ctlFormula(r, name)
	if err != nil {
		return frag{}, frag{}, err
	}
	return lf, rf, nil
}

// comment makes s safe inside a "--" comment: a line break would end the
// comment and let the rest be read as model text.
func comment(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
}

// wrapJoin joins items with sep, breaking lines (continued with indent)
// so that lines stay readable; NuSMV itself has no line limit. An
// operator separator (" | ") starts the continued line, a comma ends the
// broken one.
func wrapJoin(items []string, sep, indent string) string {
	var b strings.Builder
	col := 0
	lead := strings.HasPrefix(sep, " ")
	for i, it := range items {
		if i > 0 {
			switch {
			case col+len(sep)+len(it) <= 96:
				b.WriteString(sep)
				col += len(sep)
			case lead:
				op := strings.TrimLeft(sep, " ")
				b.WriteString("\n" + indent + op)
				col = len(indent) + len(op)
			default:
				b.WriteString(strings.TrimRight(sep, " ") + "\n" + indent)
				col = len(indent)
			}
		}
		b.WriteString(it)
		col += len(it)
	}
	return b.String()
}
