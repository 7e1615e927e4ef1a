package promela

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// This file decides which CTL properties have an equivalent LTL formula
// and builds it. A CTL formula f is "universal" when f is equivalent to
// A phi for an LTL formula phi (it holds iff every path satisfies phi),
// and "existential" when f is equivalent to E psi (some path satisfies
// psi). A formula without temporal operators (a state formula) is both.
// Every rule below is an equivalence on Kripke structures whose paths are
// all infinite, which the emitted models are (deadlocks stutter):
//
//	A:  p                 -> p
//	    !g, g existential -> !psi(g)
//	    f & g             -> phi(f) && phi(g)
//	    p | g, g | p      -> p || phi(g)            (one side a state formula)
//	    p -> g            -> p -> phi(g)
//	    g -> p, g exist.  -> psi(g) -> p
//	    AG g              -> [] phi(g)
//	    AF p              -> <> p                   (p a state formula)
//	    A[p U q]          -> p U q                  (p, q state formulas)
//	E:  p                 -> p
//	    !g, g universal   -> !phi(g)
//	    f | g             -> psi(f) || psi(g)
//	    p & g, g & p      -> p && psi(g)            (one side a state formula)
//	    f -> g            -> phi(f) -> psi(g)       (f universal, g existential)
//	    EF g              -> <> psi(g)
//	    EG p              -> [] p                   (p a state formula)
//	    E[p U g]          -> p U psi(g)             (p a state formula)
//
// AG A phi = A G phi because the paths from a reachable state are the
// suffixes of the paths through it; the same argument gives EF E psi = E F
// psi and E[p U E psi] = E(p U psi). Nothing else is translated: AF AG p
// is not A F G p, AG EF p has no LTL equivalent at all, and A(phi | psi)
// is not A phi | A psi. AX and EX are never exported: Spin's LTL
// translator, as Debian builds it, has no next operator, and X would
// break the stutter-invariance that Spin's partial-order reduction and
// the concrete model's start-up steps rely on.
//
// A universal property is exported as the claim phi: it holds iff Spin
// finds no path violating phi. An existential one is exported as the
// claim !psi, its negation: it holds iff Spin finds a "counterexample",
// which is then a witness for psi.

// ltlFormula is an LTL formula over state formulas: one of ltlState,
// ltlNot, ltlBinary, ltlAlways, ltlEventually, ltlUntil.
type ltlFormula interface{ isLTL() }

type (
	ltlState  struct{ f ctl.Formula } // no temporal operator inside
	ltlNot    struct{ x ltlFormula }
	ltlBinary struct {
		op   ctl.BinOp
		l, r ltlFormula
	}
	ltlAlways     struct{ x ltlFormula }
	ltlEventually struct{ x ltlFormula }
	ltlUntil      struct{ l, r ltlFormula }
)

func (ltlState) isLTL()      {}
func (ltlNot) isLTL()        {}
func (ltlBinary) isLTL()     {}
func (ltlAlways) isLTL()     {}
func (ltlEventually) isLTL() {}
func (ltlUntil) isLTL()      {}

// isState reports whether f has no temporal operator.
func isState(f ctl.Formula) bool {
	switch f := f.(type) {
	case ctl.Atom:
		return true
	case ctl.Not:
		return isState(f.X)
	case ctl.Binary:
		return isState(f.L) && isState(f.R)
	}
	return false
}

// translator builds LTL formulas and, where there is none, says why; it
// names counters as the GSST language does, for those reasons.
type translator struct {
	text func(ctl.Formula) string
}

// universal returns phi with f equivalent to A phi, or nil and why there
// is no such phi.
func (tr translator) universal(f ctl.Formula) (ltlFormula, string) {
	if isState(f) {
		return ltlState{f}, ""
	}
	switch f := f.(type) {
	case ctl.Not:
		psi, why := tr.existential(f.X)
		if psi == nil {
			return nil, why
		}
		return ltlNot{psi}, ""
	case ctl.Binary:
		switch f.Op {
		case ctl.And:
			return tr.both(f, tr.universal, tr.universal)
		case ctl.Or:
			if isState(f.L) || isState(f.R) {
				return tr.both(f, tr.universal, tr.universal)
			}
			return nil, fmt.Sprintf("%s is a disjunction of two temporal formulas under A, and A(phi || psi) is not A phi || A psi", tr.text(f))
		case ctl.Implies:
			switch {
			case isState(f.L):
				return tr.both(f, tr.universal, tr.universal)
			case isState(f.R):
				return tr.both(f, tr.existential, tr.universal)
			}
			return nil, fmt.Sprintf("%s is an implication between two temporal formulas under A", tr.text(f))
		}
	case ctl.Unary:
		switch f.Op {
		case ctl.AG:
			phi, why := tr.universal(f.X)
			if phi == nil {
				return nil, why
			}
			return ltlAlways{phi}, ""
		case ctl.AF:
			if isState(f.X) {
				return ltlEventually{ltlState{f.X}}, ""
			}
			return nil, fmt.Sprintf("%s applies AF to a temporal formula (AF AG p is not the LTL F G p)", tr.text(f))
		case ctl.AX, ctl.EX:
			return nil, nextReason(tr.text(f))
		}
		return nil, fmt.Sprintf("%s, existential (%s), occurs under a universal operator, as in AG EF p, which no LTL formula expresses", tr.text(f), f.Op)
	case ctl.Until:
		if f.All && isState(f.L) && isState(f.R) {
			return ltlUntil{ltlState{f.L}, ltlState{f.R}}, ""
		}
		if f.All {
			return nil, fmt.Sprintf("%s has a temporal operand of A[U]", tr.text(f))
		}
		return nil, fmt.Sprintf("%s, existential (E[U]), occurs under a universal operator", tr.text(f))
	}
	return nil, fmt.Sprintf("%s has no LTL equivalent", tr.text(f))
}

// existential returns psi with f equivalent to E psi, or nil and why
// there is no such psi.
func (tr translator) existential(f ctl.Formula) (ltlFormula, string) {
	if isState(f) {
		return ltlState{f}, ""
	}
	switch f := f.(type) {
	case ctl.Not:
		phi, why := tr.universal(f.X)
		if phi == nil {
			return nil, why
		}
		return ltlNot{phi}, ""
	case ctl.Binary:
		switch f.Op {
		case ctl.Or:
			return tr.both(f, tr.existential, tr.existential)
		case ctl.And:
			if isState(f.L) || isState(f.R) {
				return tr.both(f, tr.existential, tr.existential)
			}
			return nil, fmt.Sprintf("%s is a conjunction of two temporal formulas under E, and E(phi && psi) is not E phi && E psi", tr.text(f))
		case ctl.Implies:
			return tr.both(f, tr.universal, tr.existential)
		}
	case ctl.Unary:
		switch f.Op {
		case ctl.EF:
			psi, why := tr.existential(f.X)
			if psi == nil {
				return nil, why
			}
			return ltlEventually{psi}, ""
		case ctl.EG:
			if isState(f.X) {
				return ltlAlways{ltlState{f.X}}, ""
			}
			return nil, fmt.Sprintf("%s applies EG to a temporal formula", tr.text(f))
		case ctl.AX, ctl.EX:
			return nil, nextReason(tr.text(f))
		}
		return nil, fmt.Sprintf("%s, universal (%s), occurs under an existential operator, as in EF AG p, which no LTL formula expresses", tr.text(f), f.Op)
	case ctl.Until:
		if !f.All && isState(f.L) {
			psi, why := tr.existential(f.R)
			if psi == nil {
				return nil, why
			}
			return ltlUntil{ltlState{f.L}, psi}, ""
		}
		if !f.All {
			return nil, fmt.Sprintf("%s has a temporal left operand of E[U]", tr.text(f))
		}
		return nil, fmt.Sprintf("%s, universal (A[U]), occurs under an existential operator", tr.text(f))
	}
	return nil, fmt.Sprintf("%s has no LTL equivalent", tr.text(f))
}

func nextReason(text string) string {
	return fmt.Sprintf("%s uses the next-state operator, which Spin's LTL (as Debian builds it) does not have", text)
}

// both translates the operands of a binary formula with l and r (each
// universal or existential, as the rule for f says) and joins them with
// f's connective.
func (tr translator) both(f ctl.Binary, l, r func(ctl.Formula) (ltlFormula, string)) (ltlFormula, string) {
	lf, why := l(f.L)
	if lf == nil {
		return nil, why
	}
	rf, why := r(f.R)
	if rf == nil {
		return nil, why
	}
	return ltlBinary{f.Op, lf, rf}, ""
}

// rootExistential reports whether the outermost path quantifier of f,
// seen through negations and boolean connectives, is E: the reason for
// skipping such a property comes from the attempt to read it as E psi.
func rootExistential(f ctl.Formula) bool {
	neg := false
	for {
		switch g := f.(type) {
		case ctl.Not:
			neg = !neg
			f = g.X
		case ctl.Binary:
			if isState(g.L) {
				f = g.R
			} else {
				if g.Op == ctl.Implies {
					neg = !neg
				}
				f = g.L
			}
		case ctl.Unary:
			return g.Op.Existential() != neg
		case ctl.Until:
			return !g.All != neg
		default:
			return neg
		}
	}
}

// translate returns the claim for property f: an LTL formula for Spin,
// and whether f is existential (it holds iff Spin finds a path violating
// the claim). A nil claim comes with the reason.
func (tr translator) translate(f ctl.Formula) (claim ltlFormula, existential bool, why string) {
	phi, whyA := tr.universal(f)
	if phi != nil {
		return simplify(phi), false, ""
	}
	psi, whyE := tr.existential(f)
	if psi != nil {
		return simplify(ltlNot{psi}), true, ""
	}
	if rootExistential(f) {
		return nil, false, whyE
	}
	return nil, false, whyA
}

// simplify pushes negations through the temporal operators (!<> x is
// [] !x, ![] x is <> !x) and removes double negations, so that a claim
// reads as one would write it: EF p is checked as [] !p.
func simplify(f ltlFormula) ltlFormula {
	switch f := f.(type) {
	case ltlNot:
		switch x := f.x.(type) {
		case ltlNot:
			return simplify(x.x)
		case ltlEventually:
			return ltlAlways{simplify(ltlNot{x.x})}
		case ltlAlways:
			return ltlEventually{simplify(ltlNot{x.x})}
		case ltlState:
			if n, ok := x.f.(ctl.Not); ok {
				return ltlState{n.X}
			}
			return ltlState{ctl.Not{X: x.f}}
		}
		return ltlNot{simplify(f.x)}
	case ltlBinary:
		return ltlBinary{f.op, simplify(f.l), simplify(f.r)}
	case ltlAlways:
		return ltlAlways{simplify(f.x)}
	case ltlEventually:
		return ltlEventually{simplify(f.x)}
	case ltlUntil:
		return ltlUntil{simplify(f.l), simplify(f.r)}
	}
	return f
}

// isSafety reports whether the claim f is a safety property (positive
// says whether f occurs under an even number of negations): every
// violation then has a finite bad prefix, so pan finds it without the
// acceptance-cycle search (-a) and may be compiled with -DSAFETY. [] is
// safety, <> is not, and a negated strong until is the weak until
// (!q) W (!p && !q), a safety property.
func isSafety(f ltlFormula, positive bool) bool {
	switch f := f.(type) {
	case ltlState:
		return true
	case ltlNot:
		return isSafety(f.x, !positive)
	case ltlBinary:
		if f.op == ctl.Implies {
			return isSafety(f.l, !positive) && isSafety(f.r, positive)
		}
		return isSafety(f.l, positive) && isSafety(f.r, positive)
	case ltlAlways:
		return positive && isSafety(f.x, positive)
	case ltlEventually:
		return !positive && isSafety(f.x, positive)
	case ltlUntil:
		return !positive && isSafety(f.l, positive) && isSafety(f.r, positive)
	}
	return false
}

// printLTL writes f in the syntax of Spin 6 ltl blocks: every atom and
// every binary subformula in parentheses, so that no operator precedence
// of Spin's LTL parser matters, and "!" always followed by "(" ("!!"
// would be read as Promela's sorted-send operator).
func printLTL(f ltlFormula, atom func(presburger.Formula) (string, error)) (string, error) {
	switch f := f.(type) {
	case ltlState:
		return printState(f.f, atom)
	case ltlNot:
		x, err := printLTL(f.x, atom)
		if err != nil {
			return "", err
		}
		return bang(x), nil
	case ltlBinary:
		return printBinary(f.op, func() (string, error) { return printLTL(f.l, atom) }, func() (string, error) { return printLTL(f.r, atom) })
	case ltlAlways:
		x, err := printLTL(f.x, atom)
		if err != nil {
			return "", err
		}
		return "[] " + x, nil
	case ltlEventually:
		x, err := printLTL(f.x, atom)
		if err != nil {
			return "", err
		}
		return "<> " + x, nil
	case ltlUntil:
		l, err := printLTL(f.l, atom)
		if err != nil {
			return "", err
		}
		r, err := printLTL(f.r, atom)
		if err != nil {
			return "", err
		}
		return "(" + l + " U " + r + ")", nil
	}
	return "", fmt.Errorf("unknown LTL formula %T", f)
}

// printState writes a state formula with the LTL connectives (inside an
// ltl block "->" is implication, as it is not in Promela code).
func printState(f ctl.Formula, atom func(presburger.Formula) (string, error)) (string, error) {
	switch f := f.(type) {
	case ctl.Atom:
		a, err := atom(f.P)
		if err != nil {
			return "", err
		}
		return "(" + a + ")", nil
	case ctl.Not:
		x, err := printState(f.X, atom)
		if err != nil {
			return "", err
		}
		return bang(x), nil
	case ctl.Binary:
		return printBinary(f.Op, func() (string, error) { return printState(f.L, atom) }, func() (string, error) { return printState(f.R, atom) })
	}
	return "", fmt.Errorf("temporal operator in a state formula: %T", f)
}

func printBinary(op ctl.BinOp, l, r func() (string, error)) (string, error) {
	ls, err := l()
	if err != nil {
		return "", err
	}
	rs, err := r()
	if err != nil {
		return "", err
	}
	sep := map[ctl.BinOp]string{ctl.And: " && ", ctl.Or: " || ", ctl.Implies: " -> "}[op]
	if sep == "" {
		return "", fmt.Errorf("unknown connective %d", op)
	}
	return "(" + ls + sep + rs + ")", nil
}

// bang negates a printed LTL formula, with parentheses unless it has
// them already.
func bang(x string) string {
	if strings.HasPrefix(x, "(") && balancedOuter(x) {
		return "!" + x
	}
	return "!(" + x + ")"
}

// balancedOuter reports whether the first parenthesis of x closes at its
// last character, so that x is one parenthesized unit.
func balancedOuter(x string) bool {
	depth := 0
	for i := 0; i < len(x); i++ {
		switch x[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i == len(x)-1
			}
		}
	}
	return false
}
