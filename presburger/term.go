package presburger

import (
	"sort"
	"strconv"
	"strings"
)

// Var identifies a variable. Its meaning belongs to the caller.
type Var int

// Mono is one monomial Coef*Var of a Term. Coef is never zero.
type Mono struct {
	Var  Var
	Coef int64
}

// Term is the linear expression sum(Monos) + Const. Monos are sorted by
// Var, each Var appears at most once and no coefficient is zero. Build
// terms with the constructors and operations below to keep that form.
type Term struct {
	Monos []Mono
	Const int64
}

// ConstTerm returns the constant term k.
func ConstTerm(k int64) Term { return Term{Const: k} }

// VarTerm returns the term 1*v.
func VarTerm(v Var) Term { return Term{Monos: []Mono{{v, 1}}} }

// Sum returns the sum of the given variables, each with coefficient 1.
func Sum(vs ...Var) Term {
	var t Term
	for _, v := range vs {
		t = t.Add(VarTerm(v))
	}
	return t
}

// IsConst reports whether t has no variables.
func (t Term) IsConst() bool { return len(t.Monos) == 0 }

// Add returns t + u.
func (t Term) Add(u Term) Term {
	out := Term{Const: t.Const + u.Const}
	i, j := 0, 0
	for i < len(t.Monos) || j < len(u.Monos) {
		switch {
		case j == len(u.Monos) || i < len(t.Monos) && t.Monos[i].Var < u.Monos[j].Var:
			out.Monos = append(out.Monos, t.Monos[i])
			i++
		case i == len(t.Monos) || u.Monos[j].Var < t.Monos[i].Var:
			out.Monos = append(out.Monos, u.Monos[j])
			j++
		default:
			if c := t.Monos[i].Coef + u.Monos[j].Coef; c != 0 {
				out.Monos = append(out.Monos, Mono{t.Monos[i].Var, c})
			}
			i++
			j++
		}
	}
	return out
}

// Scale returns k*t.
func (t Term) Scale(k int64) Term {
	if k == 0 {
		return Term{}
	}
	out := Term{Const: t.Const * k, Monos: make([]Mono, len(t.Monos))}
	for i, m := range t.Monos {
		out.Monos[i] = Mono{m.Var, m.Coef * k}
	}
	return out
}

// Sub returns t - u.
func (t Term) Sub(u Term) Term { return t.Add(u.Scale(-1)) }

// Eval returns the value of t under the assignment val.
func (t Term) Eval(val func(Var) int64) int64 {
	s := t.Const
	for _, m := range t.Monos {
		s += m.Coef * val(m.Var)
	}
	return s
}

// Subst replaces every variable v of t by sub(v).
func (t Term) Subst(sub func(Var) Term) Term {
	out := ConstTerm(t.Const)
	for _, m := range t.Monos {
		out = out.Add(sub(m.Var).Scale(m.Coef))
	}
	return out
}

// Equal reports whether t and u are the same term.
func (t Term) Equal(u Term) bool {
	if t.Const != u.Const || len(t.Monos) != len(u.Monos) {
		return false
	}
	for i := range t.Monos {
		if t.Monos[i] != u.Monos[i] {
			return false
		}
	}
	return true
}

// Format writes the variable part of t (constant included when nonzero or
// when there are no variables), naming variables with name.
func (t Term) Format(name func(Var) string) string {
	var b strings.Builder
	for i, m := range t.Monos {
		c := m.Coef
		switch {
		case i == 0 && c < 0:
			b.WriteString("-")
			c = -c
		case i > 0 && c < 0:
			b.WriteString(" - ")
			c = -c
		case i > 0:
			b.WriteString(" + ")
		}
		if c != 1 {
			b.WriteString(strconv.FormatInt(c, 10))
			b.WriteString("*")
		}
		b.WriteString(name(m.Var))
	}
	switch {
	case len(t.Monos) == 0:
		b.WriteString(strconv.FormatInt(t.Const, 10))
	case t.Const > 0:
		b.WriteString(" + " + strconv.FormatInt(t.Const, 10))
	case t.Const < 0:
		b.WriteString(" - " + strconv.FormatInt(-t.Const, 10))
	}
	return b.String()
}

func sortVars(vs []Var) []Var {
	sort.Slice(vs, func(i, j int) bool { return vs[i] < vs[j] })
	return vs
}
