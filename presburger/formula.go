package presburger

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Op is a comparison operator.
type Op int

const (
	Eq Op = iota // =
	Ne           // !=
	Lt           // <
	Le           // <=
	Gt           // >
	Ge           // >=
)

var opText = [...]string{Eq: "=", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">="}

func (op Op) String() string { return opText[op] }

// Negate returns the operator of the negated comparison.
func (op Op) Negate() Op {
	return [...]Op{Eq: Ne, Ne: Eq, Lt: Ge, Le: Gt, Gt: Le, Ge: Lt}[op]
}

// Converse returns the operator with its sides swapped: a op b iff
// b op.Converse() a.
func (op Op) Converse() Op {
	return [...]Op{Eq: Eq, Ne: Ne, Lt: Gt, Le: Ge, Gt: Lt, Ge: Le}[op]
}

// Holds reports whether x op 0.
func (op Op) Holds(x int64) bool {
	switch op {
	case Eq:
		return x == 0
	case Ne:
		return x != 0
	case Lt:
		return x < 0
	case Le:
		return x <= 0
	case Gt:
		return x > 0
	default:
		return x >= 0
	}
}

// Formula is a Presburger formula: one of Bool, Cmp, Not, And, Or, Exists.
type Formula interface {
	isFormula()
}

// Bool is the constant formula true or false.
type Bool bool

// Cmp is the atom "T Op 0".
type Cmp struct {
	Op Op
	T  Term
}

// Not is the negation of F.
type Not struct{ F Formula }

// And is the conjunction of its elements; an empty And is true.
type And []Formula

// Or is the disjunction of its elements; an empty Or is false.
type Or []Formula

// Exists binds each variable of Vars to its range and holds when some
// assignment of them in range makes Body true.
type Exists struct {
	Vars []Bound
	Body Formula
}

// Bound is the inclusive range Lo..Hi of a variable. NoLo and NoHi open a
// side: with NoLo the variable has no lower bound and Lo is ignored, with
// NoHi no upper bound and Hi is ignored. The zero value of the flags is a
// closed range, so a literal {Var: v, Lo: 0, Hi: 5} means 0..5 as it
// always has; AtLeast and AnyInt build the open ones. Open ranges are for
// the free variables of a Problem and the variables of a
// TransitionSystem; the variables of an Exists need finite ranges (Eval
// enumerates them), which Problem.CheckBounds enforces.
type Bound struct {
	Var        Var
	Lo, Hi     int64
	NoLo, NoHi bool
}

func (Bool) isFormula()   {}
func (Cmp) isFormula()    {}
func (Not) isFormula()    {}
func (And) isFormula()    {}
func (Or) isFormula()     {}
func (Exists) isFormula() {}

// True and False are the boolean constants.
const (
	True  = Bool(true)
	False = Bool(false)
)

// Compare returns the atom "l op r", folded to a Bool when l - r is constant.
func Compare(l Term, op Op, r Term) Formula {
	t := l.Sub(r)
	if t.IsConst() {
		return Bool(op.Holds(t.Const))
	}
	return Cmp{op, t}
}

// Conj returns the conjunction of fs, flattening nested Ands and folding
// constants.
func Conj(fs ...Formula) Formula {
	var out And
	for _, f := range fs {
		switch f := f.(type) {
		case Bool:
			if !f {
				return False
			}
		case And:
			out = append(out, f...)
		default:
			out = append(out, f)
		}
	}
	switch len(out) {
	case 0:
		return True
	case 1:
		return out[0]
	}
	return out
}

// Conjuncts returns the conjuncts of f, nested conjunctions flattened
// and those that are true dropped (true itself has none): the inverse
// of Conj, for readers that take a formula apart clause by clause.
func Conjuncts(f Formula) []Formula {
	switch f := f.(type) {
	case Bool:
		if f {
			return nil
		}
	case And:
		var out []Formula
		for _, g := range f {
			out = append(out, Conjuncts(g)...)
		}
		return out
	}
	return []Formula{f}
}

// Disj returns the disjunction of fs, flattening nested Ors and folding
// constants.
func Disj(fs ...Formula) Formula {
	var out Or
	for _, f := range fs {
		switch f := f.(type) {
		case Bool:
			if f {
				return True
			}
		case Or:
			out = append(out, f...)
		default:
			out = append(out, f)
		}
	}
	switch len(out) {
	case 0:
		return False
	case 1:
		return out[0]
	}
	return out
}

// Negation returns the negation of f, folding constants and double negation.
func Negation(f Formula) Formula {
	switch f := f.(type) {
	case Bool:
		return !f
	case Not:
		return f.F
	case Cmp:
		return Cmp{f.Op.Negate(), f.T}
	}
	return Not{f}
}

// Implies returns !a | b.
func Implies(a, b Formula) Formula { return Disj(Negation(a), b) }

// Iff returns (a & b) | (!a & !b).
func Iff(a, b Formula) Formula {
	return Disj(Conj(a, b), Conj(Negation(a), Negation(b)))
}

// Eval reports whether f holds under the assignment val. Bound variables of
// Exists are enumerated over their ranges, which must be finite (it panics
// on an open one; Problem.CheckBounds rejects them).
func Eval(f Formula, val func(Var) int64) bool {
	switch f := f.(type) {
	case Bool:
		return bool(f)
	case Cmp:
		return f.Op.Holds(int64(f.T.Sign(val)))
	case Not:
		return !Eval(f.F, val)
	case And:
		for _, g := range f {
			if !Eval(g, val) {
				return false
			}
		}
		return true
	case Or:
		for _, g := range f {
			if Eval(g, val) {
				return true
			}
		}
		return false
	case Exists:
		bound := make(map[Var]int64, len(f.Vars))
		inner := func(v Var) int64 {
			if x, ok := bound[v]; ok {
				return x
			}
			return val(v)
		}
		var rec func(i int) bool
		rec = func(i int) bool {
			if i == len(f.Vars) {
				return Eval(f.Body, inner)
			}
			b := f.Vars[i]
			if !b.Finite() {
				panic(fmt.Sprintf("presburger: Eval of an Exists over the open range %s of variable %d", b.Range(), b.Var))
			}
			if b.Lo > b.Hi {
				return false
			}
			// Stop at Hi rather than after it: x++ past MaxInt64 wraps.
			for x := b.Lo; ; x++ {
				bound[b.Var] = x
				if rec(i + 1) {
					return true
				}
				if x == b.Hi {
					return false
				}
			}
		}
		return rec(0)
	}
	panic(fmt.Sprintf("presburger: unknown formula %T", f))
}

// Subst replaces every free variable v of f by the term sub(v). Variables
// bound by an Exists are left alone; one that occurs in the image of a
// free variable of its body is renamed to a fresh variable, so that the
// substituted term is not captured. It panics when a coefficient or a
// constant of the result does not fit in int64; SubstExact reports it.
func Subst(f Formula, sub func(Var) Term) Formula {
	out, err := subst(f, sub)
	if err != nil {
		panic(err.Error() + " (use SubstExact)")
	}
	return out
}

// errSubstOverflow is subst's report of a result beyond int64.
var errSubstOverflow = fmt.Errorf("presburger: a substitution gives a coefficient or constant beyond int64")

// subst is Subst, reporting a result beyond int64 as errSubstOverflow.
func subst(f Formula, sub func(Var) Term) (Formula, error) {
	switch f := f.(type) {
	case Bool:
		return f, nil
	case Cmp:
		// Each variable's image once; an atom that sub leaves as it is
		// (every variable its own image, the term canonical) is kept
		// without building it again: a transition's guard, where the
		// next-state variables are substituted, is mostly such atoms.
		images := make([]Term, len(f.T.Monos))
		same := len(images) > 0
		for i, m := range f.T.Monos {
			images[i] = sub(m.Var)
			same = same && m.Coef != 0 && (i == 0 || f.T.Monos[i-1].Var < m.Var) &&
				images[i].Const == 0 && len(images[i].Monos) == 1 && images[i].Monos[0] == Mono{m.Var, 1}
		}
		if same {
			return f, nil
		}
		konst, coef := f.T.sumsOf(images)
		if sign, isConst := constSign(&konst, coef); isConst {
			return Bool(f.Op.Holds(int64(sign))), nil
		}
		t, ok := termOf(&konst, coef)
		if !ok {
			return nil, errSubstOverflow
		}
		return Cmp{f.Op, t}, nil
	case Not:
		g, err := subst(f.F, sub)
		if err != nil {
			return nil, err
		}
		return Negation(g), nil
	case And:
		out, err := substAll(f, sub)
		if err != nil {
			return nil, err
		}
		return Conj(out...), nil
	case Or:
		out, err := substAll(f, sub)
		if err != nil {
			return nil, err
		}
		return Disj(out...), nil
	case Exists:
		bound := make(map[Var]bool, len(f.Vars))
		for _, b := range f.Vars {
			bound[b.Var] = true
		}
		// A bound variable that occurs in the image of a free one would
		// capture it: rename such bound variables to fresh ones first.
		introduced := map[Var]bool{}
		for _, v := range FreeVars(f.Body) {
			if !bound[v] {
				for _, m := range sub(v).Monos {
					introduced[m.Var] = true
				}
			}
		}
		vars := f.Vars
		var ren map[Var]Var
		for i, b := range f.Vars {
			if !introduced[b.Var] {
				continue
			}
			if ren == nil {
				ren = map[Var]Var{}
				vars = append([]Bound(nil), f.Vars...)
			}
			if _, ok := ren[b.Var]; !ok {
				ren[b.Var] = freshVar(f, introduced, ren)
			}
			vars[i].Var = ren[b.Var]
		}
		body, err := subst(f.Body, func(v Var) Term {
			if r, ok := ren[v]; ok {
				return VarTerm(r)
			}
			if bound[v] {
				return VarTerm(v)
			}
			return sub(v)
		})
		if err != nil {
			return nil, err
		}
		return Exists{vars, body}, nil
	}
	panic(fmt.Sprintf("presburger: unknown formula %T", f))
}

// substAll substitutes into each of fs.
func substAll(fs []Formula, sub func(Var) Term) ([]Formula, error) {
	out := make([]Formula, len(fs))
	for i, g := range fs {
		var err error
		if out[i], err = subst(g, sub); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// freshVar returns a variable above every variable of f (free or bound),
// of avoid and of the images in ren.
func freshVar(f Formula, avoid map[Var]bool, ren map[Var]Var) Var {
	top := Var(-1)
	see := func(v Var) {
		if v > top {
			top = v
		}
	}
	for v := range avoid {
		see(v)
	}
	for _, v := range ren {
		see(v)
	}
	var walk func(Formula)
	walk = func(f Formula) {
		switch f := f.(type) {
		case Cmp:
			for _, m := range f.T.Monos {
				see(m.Var)
			}
		case Not:
			walk(f.F)
		case And:
			for _, g := range f {
				walk(g)
			}
		case Or:
			for _, g := range f {
				walk(g)
			}
		case Exists:
			for _, b := range f.Vars {
				see(b.Var)
			}
			walk(f.Body)
		}
	}
	walk(f)
	return top + 1
}

// Rename replaces every free variable v of f by the variable ren(v).
func Rename(f Formula, ren func(Var) Var) Formula {
	return Subst(f, func(v Var) Term { return VarTerm(ren(v)) })
}

// Size is the number of comparisons of f and of monomials in their
// terms: about what a solver translates, so a measure of the work of
// handing f to one that does not depend on the machine.
func Size(f Formula) int {
	switch f := f.(type) {
	case Cmp:
		return 1 + len(f.T.Monos)
	case Not:
		return Size(f.F)
	case And:
		n := 0
		for _, g := range f {
			n += Size(g)
		}
		return n
	case Or:
		n := 0
		for _, g := range f {
			n += Size(g)
		}
		return n
	case Exists:
		return len(f.Vars) + Size(f.Body)
	}
	return 1
}

// FreeVars returns the free variables of f, sorted.
func FreeVars(f Formula) []Var {
	// Every occurrence, then sorted and without repeats: a transition
	// of a net with hundreds of places reads each variable once or
	// twice, and a slice costs less than a set.
	var out []Var
	var walk func(f Formula, bound map[Var]bool)
	walk = func(f Formula, bound map[Var]bool) {
		switch f := f.(type) {
		case Cmp:
			for _, m := range f.T.Monos {
				if !bound[m.Var] {
					out = append(out, m.Var)
				}
			}
		case Not:
			walk(f.F, bound)
		case And:
			for _, g := range f {
				walk(g, bound)
			}
		case Or:
			for _, g := range f {
				walk(g, bound)
			}
		case Exists:
			inner := map[Var]bool{}
			for v := range bound {
				inner[v] = true
			}
			for _, b := range f.Vars {
				inner[b.Var] = true
			}
			walk(f.Body, inner)
		}
	}
	walk(f, nil)
	if out == nil {
		return []Var{}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Format prints f with the connectives of the GSST guard language
// (! & | and the comparisons), naming variables with name.
func Format(f Formula, name func(Var) string) string {
	return FormatAtoms(f, name, nil)
}

// FormatAtoms writes f as Format does, except that atom, when not nil,
// may write a comparison itself: it returns the text and its precedence
// (1 for a disjunction, 2 for a conjunction, 3 for an atom or a
// negation), or ok false to leave the comparison to Format. A language
// with typed variables over the integers of its formulas uses it to
// write them as it reads them.
func FormatAtoms(f Formula, name func(Var) string, atom func(Cmp) (text string, prec int, ok bool)) string {
	var b strings.Builder
	format(&b, f, name, atom, 0)
	return b.String()
}

// precedences: Or 1, And 2, unary 3
func format(b *strings.Builder, f Formula, name func(Var) string, atom func(Cmp) (string, int, bool), ctx int) {
	paren := func(prec int, body func()) {
		if prec < ctx {
			b.WriteString("(")
			body()
			b.WriteString(")")
		} else {
			body()
		}
	}
	switch f := f.(type) {
	case Bool:
		b.WriteString(strconv.FormatBool(bool(f)))
	case Cmp:
		if atom != nil {
			if text, prec, ok := atom(f); ok {
				if prec == 2 && ctx == 3 {
					prec = 3 // a conjunction needs no parentheses as a conjunct
				}
				paren(prec, func() { b.WriteString(text) })
				return
			}
		}
		lhs := Term{Monos: f.T.Monos}
		paren(3, func() {
			b.WriteString(lhs.Format(name))
			b.WriteString(" " + f.Op.String() + " ")
			b.WriteString(strconv.FormatInt(-f.T.Const, 10))
		})
	case Not:
		b.WriteString("!")
		format(b, f.F, name, atom, 4)
	case And:
		if len(f) == 0 { // an empty And is true; "()" would not parse
			b.WriteString("true")
			return
		}
		paren(2, func() {
			for i, g := range f {
				if i > 0 {
					b.WriteString(" & ")
				}
				format(b, g, name, atom, 3)
			}
		})
	case Or:
		if len(f) == 0 {
			b.WriteString("false")
			return
		}
		paren(1, func() {
			for i, g := range f {
				if i > 0 {
					b.WriteString(" | ")
				}
				format(b, g, name, atom, 2)
			}
		})
	case Exists:
		b.WriteString("(exists ")
		for i, v := range f.Vars {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%s in %s", name(v.Var), v.Range())
		}
		b.WriteString(": ")
		format(b, f.Body, name, atom, 0)
		b.WriteString(")")
	}
}
