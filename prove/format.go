package prove

import (
	"strconv"
	"strings"

	"github.com/vsym/vsym/presburger"
)

// FormatInvariant prints an invariant in the GSST expression syntax,
// naming variables with name, each comparison of a conjunction balanced
// ("#N + #T + #C = n" rather than presburger.Format's
// "#N + #T + #C - n = 0"): the conservation laws read as sums. atom,
// when not nil, writes the comparisons it knows as
// presburger.FormatAtoms takes it (a model's TypedAtom writes those
// over booleans and enumerations as the language does). Anything other
// than a conjunction of comparisons prints as presburger.FormatAtoms
// does.
func FormatInvariant(f presburger.Formula, name func(presburger.Var) string, atom func(presburger.Cmp) (string, int, bool)) string {
	var parts []presburger.Formula
	switch g := f.(type) {
	case presburger.And:
		parts = g
	case presburger.Cmp:
		parts = []presburger.Formula{g}
	default:
		return presburger.FormatAtoms(f, name, atom)
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		c, ok := p.(presburger.Cmp)
		if !ok {
			return presburger.FormatAtoms(f, name, atom)
		}
		if atom != nil {
			if text, prec, ok := atom(c); ok {
				if prec < 2 && len(parts) > 1 {
					text = "(" + text + ")"
				}
				out[i] = text
				continue
			}
		}
		out[i] = balanced(c, name)
	}
	if len(out) == 0 {
		return "true"
	}
	return strings.Join(out, " & ")
}

// balanced prints T op 0 as P op N + k, the monomials with positive
// coefficients on the left and the others on the right, or N op' k with
// the comparison turned round when no coefficient is positive.
func balanced(c presburger.Cmp, name func(presburger.Var) string) string {
	var pos, neg presburger.Term
	for _, m := range c.T.Monos {
		if m.Coef > 0 {
			pos.Monos = append(pos.Monos, m)
		} else {
			neg.Monos = append(neg.Monos, presburger.Mono{Var: m.Var, Coef: -m.Coef})
		}
	}
	// The constants of an invariant are within 2^62 (z3's translation
	// back refuses larger ones), so the negation cannot wrap.
	k := -c.T.Const
	switch {
	case len(pos.Monos) == 0 && len(neg.Monos) == 0:
		return presburger.Format(c, name)
	case len(pos.Monos) == 0:
		return neg.Format(name) + " " + c.Op.Converse().String() + " " + strconv.FormatInt(c.T.Const, 10)
	case len(neg.Monos) == 0:
		return pos.Format(name) + " " + c.Op.String() + " " + strconv.FormatInt(k, 10)
	}
	neg.Const = k
	return pos.Format(name) + " " + c.Op.String() + " " + neg.Format(name)
}
