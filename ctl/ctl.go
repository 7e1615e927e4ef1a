package ctl

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/presburger"
)

// Formula is a CTL formula: one of Atom, Not, Binary, Unary, Until.
type Formula interface{ isCTL() }

// Atom is a state formula over counters.
type Atom struct{ P presburger.Formula }

// Not is the negation of X.
type Not struct{ X Formula }

// BinOp is a boolean connective.
type BinOp int

const (
	And BinOp = iota
	Or
	Implies
)

// Binary is L Op R.
type Binary struct {
	Op   BinOp
	L, R Formula
}

// TempOp is a unary temporal operator.
type TempOp int

const (
	EX TempOp = iota
	AX
	EF
	AF
	EG
	AG
)

var tempText = [...]string{EX: "EX", AX: "AX", EF: "EF", AF: "AF", EG: "EG", AG: "AG"}

func (op TempOp) String() string { return tempText[op] }

// Dual returns the operator op' with op p = !op' !p: EX and AX, EF and AG,
// EG and AF are each other's duals.
func (op TempOp) Dual() TempOp {
	return [...]TempOp{EX: AX, AX: EX, EF: AG, AG: EF, EG: AF, AF: EG}[op]
}

// Existential reports whether op quantifies over some path (EX, EF, EG).
func (op TempOp) Existential() bool { return op == EX || op == EF || op == EG }

// Unary is Op X.
type Unary struct {
	Op TempOp
	X  Formula
}

// Until is E[L U R] when All is false, A[L U R] when it is true.
type Until struct {
	All  bool
	L, R Formula
}

func (Atom) isCTL()   {}
func (Not) isCTL()    {}
func (Binary) isCTL() {}
func (Unary) isCTL()  {}
func (Until) isCTL()  {}

// Format prints f in the property syntax of the GSST language, naming
// counter variables with name.
func Format(f Formula, name func(presburger.Var) string) string {
	return FormatAtoms(f, name, nil)
}

// FormatAtoms writes f as Format does, its atoms as
// presburger.FormatAtoms writes them with atom.
func FormatAtoms(f Formula, name func(presburger.Var) string, atom func(presburger.Cmp) (string, int, bool)) string {
	var b strings.Builder
	format(&b, f, name, atom)
	return b.String()
}

func format(b *strings.Builder, f Formula, name func(presburger.Var) string, atom func(presburger.Cmp) (string, int, bool)) {
	switch f := f.(type) {
	case Atom:
		b.WriteString("(" + presburger.FormatAtoms(f.P, name, atom) + ")")
	case Not:
		b.WriteString("!")
		format(b, f.X, name, atom)
	case Binary:
		b.WriteString("(")
		format(b, f.L, name, atom)
		b.WriteString([...]string{And: " & ", Or: " | ", Implies: " -> "}[f.Op])
		format(b, f.R, name, atom)
		b.WriteString(")")
	case Unary:
		b.WriteString(f.Op.String() + " ")
		format(b, f.X, name, atom)
	case Until:
		if f.All {
			b.WriteString("A[")
		} else {
			b.WriteString("E[")
		}
		format(b, f.L, name, atom)
		b.WriteString(" U ")
		format(b, f.R, name, atom)
		b.WriteString("]")
	default:
		panic(fmt.Sprintf("ctl: unknown formula %T", f))
	}
}

// Atoms returns the atomic propositions of f in order of appearance.
func Atoms(f Formula) []presburger.Formula {
	var out []presburger.Formula
	var walk func(Formula)
	walk = func(f Formula) {
		switch f := f.(type) {
		case Atom:
			out = append(out, f.P)
		case Not:
			walk(f.X)
		case Binary:
			walk(f.L)
			walk(f.R)
		case Unary:
			walk(f.X)
		case Until:
			walk(f.L)
			walk(f.R)
		}
	}
	walk(f)
	return out
}

// Validate reports a formula that the printer and the checkers cannot
// handle: a nil formula or atom, or an operator outside this package's
// enumerations (possible only for formulas built by hand).
func Validate(f Formula) error {
	switch f := f.(type) {
	case Atom:
		if f.P == nil {
			return fmt.Errorf("empty atom")
		}
		return nil
	case Not:
		return Validate(f.X)
	case Binary:
		if f.Op < And || f.Op > Implies {
			return fmt.Errorf("unknown connective %d", f.Op)
		}
		if err := Validate(f.L); err != nil {
			return err
		}
		return Validate(f.R)
	case Unary:
		if f.Op < EX || f.Op > AG {
			return fmt.Errorf("unknown temporal operator %d", f.Op)
		}
		return Validate(f.X)
	case Until:
		if err := Validate(f.L); err != nil {
			return err
		}
		return Validate(f.R)
	}
	return fmt.Errorf("unknown CTL formula %T", f)
}

// MapAtoms returns f with every atom's proposition replaced by fn of it.
func MapAtoms(f Formula, fn func(presburger.Formula) presburger.Formula) Formula {
	switch f := f.(type) {
	case Atom:
		return Atom{P: fn(f.P)}
	case Not:
		return Not{X: MapAtoms(f.X, fn)}
	case Binary:
		return Binary{Op: f.Op, L: MapAtoms(f.L, fn), R: MapAtoms(f.R, fn)}
	case Unary:
		return Unary{Op: f.Op, X: MapAtoms(f.X, fn)}
	case Until:
		return Until{All: f.All, L: MapAtoms(f.L, fn), R: MapAtoms(f.R, fn)}
	}
	return f
}

// Universal reports whether f is a formula of ACTL, the universal
// fragment of CTL: with negations pushed down to the atoms (dualizing the
// temporal operators on the way), it quantifies over all paths only
// (AX, AF, AG, A[U], and the release form a negated E[U] becomes). A
// universal formula true in a model that simulates another is true in
// that other one, which is what makes it checkable on an
// over-approximation.
func Universal(f Formula) bool { return universal(f, true) }

// universal reports whether f, taken positively (pos) or negated, is
// universal.
func universal(f Formula, pos bool) bool {
	switch f := f.(type) {
	case Atom:
		return true
	case Not:
		return universal(f.X, !pos)
	case Binary:
		if f.Op == Implies {
			return universal(f.L, !pos) && universal(f.R, pos)
		}
		return universal(f.L, pos) && universal(f.R, pos)
	case Unary:
		// A positive universal operator, or a negated existential one
		// (!EF p = AG !p), quantifies over all paths.
		return f.Op.Existential() != pos && universal(f.X, pos)
	case Until:
		// A[p U q] positively; !E[p U q] = A[!q R !p] negated.
		return f.All == pos && universal(f.L, pos) && universal(f.R, pos)
	}
	return false
}
