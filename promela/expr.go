package promela

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/presburger"
)

// Binding strength of Promela expressions, weakest first. Promela takes
// C's: || below &&, below == and !=, below < <= > >=, below + and -,
// below *; ! and unary - bind tightest. The printer puts parentheses
// wherever a child binds less strongly than its position needs.
const (
	precOr = iota + 1
	precAnd
	precEq
	precRel
	precAdd
	precMul
	precUnary
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
	fragTrue  = frag{"true", precUnary}
	fragFalse = frag{"false", precUnary}
)

// maxInt is the largest value a Promela expression may reach: pan.c
// evaluates every expression in C's 32-bit int, and Spin reads integer
// literals into one, so anything beyond would silently wrap.
const maxInt = math.MaxInt32

// varRef is how a variable is written in the model, with the largest
// magnitude of its values (for the overflow check).
type varRef struct {
	name string
	max  int64
}

// namefn names a variable of a formula in the emitted model, or fails for
// a variable that has no name there.
type namefn func(presburger.Var) (varRef, error)

// expr prints a quantifier-free Presburger formula as a Promela boolean
// expression.
func expr(f presburger.Formula, name namefn) (frag, error) {
	switch f := f.(type) {
	case presburger.Bool:
		if f {
			return fragTrue, nil
		}
		return fragFalse, nil
	case presburger.Cmp:
		return compare(f, name)
	case presburger.Not:
		x, err := expr(f.F, name)
		if err != nil {
			return frag{}, err
		}
		return frag{"!" + x.in(precUnary+1), precUnary}, nil
	case presburger.And:
		return join(f, " && ", precAnd, fragTrue, name)
	case presburger.Or:
		return join(f, " || ", precOr, fragFalse, name)
	case presburger.Exists:
		// Guards and properties from counterabs and gsst are
		// quantifier-free; Promela has no quantifiers.
		return frag{}, fmt.Errorf("quantified formula (Promela has no quantifiers)")
	case nil:
		return frag{}, fmt.Errorf("missing formula")
	}
	return frag{}, fmt.Errorf("unknown formula %T", f)
}

func join(fs []presburger.Formula, sep string, prec int, empty frag, name namefn) (frag, error) {
	if len(fs) == 0 {
		return empty, nil
	}
	parts := make([]string, len(fs))
	for i, g := range fs {
		x, err := expr(g, name)
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

// opText is Promela's spelling of a comparison.
func opText(op presburger.Op) string {
	switch op {
	case presburger.Eq:
		return "=="
	case presburger.Ne:
		return "!="
	}
	return op.String()
}

// compare prints "T op 0" with positive monomials on the left and
// negative ones on the right, the constant on the right: 2*x_A - x_B + 3
// >= 0 becomes "2*x_A >= x_B - 3". It refuses a comparison whose sides
// could leave C's int while pan.c evaluates them.
func compare(c presburger.Cmp, name namefn) (frag, error) {
	if err := checkInt(c.T, name); err != nil {
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
	prec := precRel
	if op == presburger.Eq || op == presburger.Ne {
		prec = precEq
	}
	return frag{lhs + " " + opText(op) + " " + rhs, prec}, nil
}

// checkInt refuses (overflowError) a term whose value, or any partial
// sum pan.c computes on the way, could leave C's int: |constant| plus
// each |coefficient| times the largest magnitude of its variable.
func checkInt(t presburger.Term, name namefn) error {
	bound := absInt(t.Const)
	for _, m := range t.Monos {
		v, err := name(m.Var)
		if err != nil {
			return err
		}
		bound = addBound(bound, mulBound(absInt(m.Coef), v.max))
	}
	if bound > maxInt {
		return &overflowError{boundText(bound)}
	}
	return nil
}

// sum prints a sum of monomials with positive coefficients plus k.
// Coefficients and k are within maxInt: compare checked the whole side.
func sum(ms []presburger.Mono, k int64, name namefn) (string, error) {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteString(" + ")
		}
		if m.Coef != 1 {
			b.WriteString(strconv.FormatInt(m.Coef, 10) + "*")
		}
		v, err := name(m.Var)
		if err != nil {
			return "", err
		}
		b.WriteString(v.name)
	}
	switch {
	case len(ms) == 0:
		b.WriteString(strconv.FormatInt(k, 10))
	case k > 0:
		b.WriteString(" + " + strconv.FormatInt(k, 10))
	case k < 0:
		b.WriteString(" - " + strconv.FormatInt(-k, 10))
	}
	return b.String(), nil
}

// Saturating arithmetic for the overflow bound: anything at or above
// math.MaxInt64 stays there.
func absInt(x int64) int64 {
	if x == math.MinInt64 {
		return math.MaxInt64
	}
	if x < 0 {
		return -x
	}
	return x
}

func addBound(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func mulBound(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

func boundText(b int64) string {
	if b == math.MaxInt64 {
		return "more than 2^63"
	}
	return strconv.FormatInt(b, 10)
}

// mapCmp returns f with every comparison replaced by fn of it.
func mapCmp(f presburger.Formula, fn func(presburger.Cmp) presburger.Cmp) presburger.Formula {
	switch f := f.(type) {
	case presburger.Cmp:
		return fn(f)
	case presburger.Not:
		return presburger.Not{F: mapCmp(f.F, fn)}
	case presburger.And:
		out := make(presburger.And, len(f))
		for i, g := range f {
			out[i] = mapCmp(g, fn)
		}
		return out
	case presburger.Or:
		out := make(presburger.Or, len(f))
		for i, g := range f {
			out[i] = mapCmp(g, fn)
		}
		return out
	case presburger.Exists:
		return presburger.Exists{Vars: f.Vars, Body: mapCmp(f.Body, fn)}
	}
	return f
}

// comment makes s safe inside a /* */ comment: it cannot end the
// comment, nor start a nested one.
func comment(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
	s = strings.ReplaceAll(s, "*/", "* /")
	return strings.ReplaceAll(s, "/*", "/ *")
}
