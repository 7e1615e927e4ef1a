package presburger

import (
	"fmt"
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

// IsVar reports whether t is the variable v itself.
func (t Term) IsVar(v Var) bool {
	return len(t.Monos) == 1 && t.Monos[0] == (Mono{v, 1}) && t.Const == 0
}

// Add returns t + u. It panics when a coefficient or the constant of
// the sum does not fit in int64; AddExact reports it.
func (t Term) Add(u Term) Term {
	out, ok := t.AddExact(u)
	if !ok {
		panic(fmt.Sprintf("presburger: %s + %s does not fit in int64 (use Term.AddExact)", t.Format(varName), u.Format(varName)))
	}
	return out
}

// Scale returns k*t. It panics when a coefficient or the constant of the
// product does not fit in int64; ScaleExact reports it.
func (t Term) Scale(k int64) Term {
	out, ok := t.ScaleExact(k)
	if !ok {
		panic(fmt.Sprintf("presburger: %d*(%s) does not fit in int64 (use Term.ScaleExact)", k, t.Format(varName)))
	}
	return out
}

// Sub returns t - u. It panics when the difference does not fit in
// int64; SubExact reports it.
func (t Term) Sub(u Term) Term {
	out, ok := t.SubExact(u)
	if !ok {
		panic(fmt.Sprintf("presburger: %s - (%s) does not fit in int64 (use Term.SubExact)", t.Format(varName), u.Format(varName)))
	}
	return out
}

// Subst replaces every variable v of t by sub(v). It panics when a
// coefficient or the constant of the result does not fit in int64;
// SubstExact reports it.
func (t Term) Subst(sub func(Var) Term) Term {
	out, ok := t.SubstExact(sub)
	if !ok {
		panic(fmt.Sprintf("presburger: substituting into %s leaves int64 (use Term.SubstExact)", t.Format(varName)))
	}
	return out
}

// varName names variable v "v<v>", for the messages of a panic.
func varName(v Var) string { return "v" + strconv.Itoa(int(v)) }

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
