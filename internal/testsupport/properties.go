package testsupport

import (
	"math/rand"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Random properties and fairness constraints of random systems.

// Shape says which properties RandomSystem draws.
type Shape int

const (
	// AnyCTL: every operator (RandomCTL); AG of a state formula, the
	// commonest property in practice, is frequent.
	AnyCTL Shape = iota
	// Safety: AG phi, phi an atom, an atom or a negated atom, or two
	// atoms, or its dual !EF !phi for phi an atom: what prove decides
	// for every size.
	Safety
	// Exportable: half any CTL, half the shapes the exports write as LTL
	// claims (AG p, AF p, AG (p -> AF q), A[p U q], EF p, EG p, E[p U q],
	// negations and combinations of these) and AG EF p, which has no LTL
	// equivalent; p a boolean combination of atoms.
	Exportable
	// Response: AF q, AG (p -> AF q) or AG AF q, p and q atoms: the
	// liveness properties prove decides for every size.
	Response
)

// property draws a property of the given shape and depth.
func (gen *generator) property(shape Shape, depth int, groups bool) ctl.Formula {
	leaf := gen.leaf(groups)
	switch shape {
	case Safety:
		phi := leaf()
		switch gen.r.Intn(3) {
		case 0:
			phi = ctl.Binary{Op: ctl.Or, L: phi, R: ctl.Not{X: leaf()}}
		case 1:
			phi = ctl.Binary{Op: ctl.And, L: phi, R: leaf()}
		default:
			return ctl.Not{X: ctl.Unary{Op: ctl.EF, X: ctl.Not{X: phi}}}
		}
		return ctl.Unary{Op: ctl.AG, X: phi}
	case Exportable:
		if gen.r.Intn(2) == 0 {
			return randomCTL(gen.r, depth, leaf, true)
		}
		return exportable(gen.r, func() ctl.Formula { return stateFormula(gen.r, 2, leaf) })
	case Response:
		af := func() ctl.Formula { return ctl.Unary{Op: ctl.AF, X: leaf()} }
		switch gen.r.Intn(3) {
		case 0:
			return af()
		case 1:
			return ctl.Unary{Op: ctl.AG, X: ctl.Binary{Op: ctl.Implies, L: leaf(), R: af()}}
		}
		return ctl.Unary{Op: ctl.AG, X: af()}
	}
	return randomCTL(gen.r, depth, leaf, true)
}

// leaf returns a drawer of the atoms of properties: RandomCTL's over
// counters; a quarter of the time, with n-guards, a comparison with n;
// half the time, with shared variables, a comparison of one.
func (gen *generator) leaf(groups bool) func() ctl.Formula {
	r, sys := gen.r, gen.sys
	counters := randomLeaf(r, sys, len(sys.States), len(sys.Groups), groups)
	return func() ctl.Formula {
		if gen.nGuards && r.Intn(4) == 0 {
			return ctl.Atom{P: gen.nAtom(groups)}
		}
		if len(sys.Shared) > 0 && r.Intn(2) == 0 {
			return ctl.Atom{P: gen.sharedValueAtom()}
		}
		return counters()
	}
}

// sharedValueAtom compares a shared variable with a value: a boolean or
// an enumeration is or is not one of its values, an integer is at least,
// at most or below one of its three least values.
func (gen *generator) sharedValueAtom() presburger.Formula {
	r, sp := gen.r, gen.sys
	j := r.Intn(len(sp.Shared))
	v := &sp.Shared[j]
	x := presburger.VarTerm(sp.SharedVar(j))
	if v.Bool || v.Values != nil {
		op := presburger.Eq
		if r.Intn(3) == 0 {
			op = presburger.Ne
		}
		return presburger.Compare(x, op, presburger.ConstTerm(int64(v.Lo+r.Intn(v.Hi-v.Lo+1))))
	}
	ops := []presburger.Op{presburger.Ge, presburger.Le, presburger.Lt}
	return presburger.Compare(x, ops[r.Intn(3)], presburger.ConstTerm(int64(v.Lo+r.Intn(3))))
}

// stateFormula draws a boolean combination of atoms of the given depth.
func stateFormula(r *rand.Rand, depth int, leaf func() ctl.Formula) ctl.Formula {
	if depth == 0 || r.Intn(3) != 0 {
		return leaf()
	}
	if r.Intn(3) == 0 {
		return ctl.Not{X: stateFormula(r, depth-1, leaf)}
	}
	return ctl.Binary{Op: ctl.BinOp(r.Intn(3)), L: stateFormula(r, depth-1, leaf), R: stateFormula(r, depth-1, leaf)}
}

// exportable draws, with equal odds, one of the shapes of Exportable
// over state formulas p.
func exportable(r *rand.Rand, p func() ctl.Formula) ctl.Formula {
	un := func(op ctl.TempOp, x ctl.Formula) ctl.Formula { return ctl.Unary{Op: op, X: x} }
	switch r.Intn(14) {
	case 0:
		return un(ctl.AG, p())
	case 1:
		return un(ctl.AF, p())
	case 2:
		return un(ctl.AG, ctl.Binary{Op: ctl.Implies, L: p(), R: un(ctl.AF, p())})
	case 3:
		return ctl.Until{All: true, L: p(), R: p()}
	case 4:
		return un(ctl.EF, p())
	case 5:
		return un(ctl.EG, p())
	case 6:
		return ctl.Until{L: p(), R: p()}
	case 7:
		return ctl.Not{X: un(ctl.AF, p())}
	case 8:
		return un(ctl.AG, un(ctl.AF, p()))
	case 9:
		return un(ctl.EF, ctl.Binary{Op: ctl.And, L: p(), R: un(ctl.EG, p())})
	case 10:
		return ctl.Binary{Op: ctl.Implies, L: p(), R: un(ctl.AG, p())}
	case 11:
		return ctl.Binary{Op: ctl.Or, L: un(ctl.EF, p()), R: un(ctl.EG, p())}
	case 12:
		return ctl.Not{X: ctl.Until{L: p(), R: un(ctl.EF, p())}}
	}
	return un(ctl.AG, un(ctl.EF, p())) // no LTL equivalent
}

// RandomCTL draws a CTL formula of the given depth over the counters of
// sys: total counters, and group counters too when groups is set. Every
// operator occurs, and AG of a state formula (the commonest property in
// practice) is frequent.
func RandomCTL(r *rand.Rand, sys *gsst.System, depth int, groups bool) ctl.Formula {
	return randomCTL(r, depth, randomLeaf(r, sys, len(sys.States), len(sys.Groups), groups), true)
}

// counterVars is what randomLeaf reads of a system of m states and d
// groups: a *gsst.Spec being generated, or a *gsst.System.
type counterVars interface {
	TotalVar(state int) presburger.Var
	GroupVar(state, group int) presburger.Var
	N() int
}

// randomLeaf returns a drawer of the atoms of RandomCTL.
func randomLeaf(r *rand.Rand, sys counterVars, m, d int, groups bool) func() ctl.Formula {
	var vars []presburger.Var
	for s := range m {
		vars = append(vars, sys.TotalVar(s))
		if groups {
			for g := range d {
				vars = append(vars, sys.GroupVar(s, g))
			}
		}
	}
	// Small constants make atoms that hold in some states and not in
	// others; comparisons with n are mostly constant.
	return func() ctl.Formula {
		pick := []presburger.Var{vars[r.Intn(len(vars))]}
		if r.Intn(3) == 0 {
			pick = append(pick, vars[r.Intn(len(vars))])
		}
		return ctl.Atom{P: compare(r, pick, min(sys.N(), 2))}
	}
}

// randomCTL draws a CTL formula of the given depth with atoms from leaf.
// Inner nodes are a unary temporal operator (6 in 12 or 13), an until (2),
// a negation (1), a binary connective (3, or 1 without invariants) and,
// with invariants, AG of a state formula (1).
func randomCTL(r *rand.Rand, depth int, leaf func() ctl.Formula, invariants bool) ctl.Formula {
	var rec func(depth int) ctl.Formula
	rec = func(depth int) ctl.Formula {
		if depth == 0 || r.Intn(4) == 0 {
			return leaf()
		}
		n := 10
		if invariants {
			n = 13
		}
		switch k := r.Intn(n); {
		case k < 6:
			return ctl.Unary{Op: ctl.TempOp(k), X: rec(depth - 1)}
		case k < 8:
			return ctl.Until{All: k == 7, L: rec(depth - 1), R: rec(depth - 1)}
		case k == 8:
			return ctl.Not{X: rec(depth - 1)}
		case k == 9 && !invariants:
			return ctl.Binary{Op: ctl.BinOp(r.Intn(3)), L: rec(depth - 1), R: rec(depth - 1)}
		case k < 12:
			return ctl.Binary{Op: ctl.BinOp(k - 9), L: rec(depth - 1), R: rec(depth - 1)}
		}
		return ctl.Unary{Op: ctl.AG, X: ctl.Binary{Op: ctl.Or, L: leaf(), R: ctl.Not{X: leaf()}}}
	}
	return rec(depth)
}

// RandomAtom draws a state formula as the atoms of RandomCTL are drawn:
// a comparison over total counters, and group counters too when groups
// is set.
func RandomAtom(r *rand.Rand, sys *gsst.System, groups bool) presburger.Formula {
	return randomLeaf(r, sys, len(sys.States), len(sys.Groups), groups)().(ctl.Atom).P
}

// RandomUniversal returns a random universal (ACTL) formula over total
// counters: AX, AF, AG, A[U], and negated existential operators, with
// boolean connectives.
func RandomUniversal(r *rand.Rand, sys *gsst.System, depth int) ctl.Formula {
	atom := func() ctl.Formula { return ctl.Atom{P: RandomAtom(r, sys, false)} }
	if depth == 0 || r.Intn(4) == 0 {
		return atom()
	}
	sub := func() ctl.Formula { return RandomUniversal(r, sys, depth-1) }
	switch r.Intn(9) {
	case 0:
		return ctl.Unary{Op: ctl.AX, X: sub()}
	case 1:
		return ctl.Unary{Op: ctl.AF, X: sub()}
	case 2:
		return ctl.Unary{Op: ctl.AG, X: sub()}
	case 3:
		return ctl.Until{All: true, L: sub(), R: sub()}
	case 4:
		// !EF !p = AG p, written with the existential operator.
		return ctl.Not{X: ctl.Unary{Op: ctl.EF, X: ctl.Not{X: sub()}}}
	case 5:
		return ctl.Binary{Op: ctl.And, L: sub(), R: sub()}
	case 6:
		return ctl.Binary{Op: ctl.Or, L: sub(), R: sub()}
	case 7:
		// An atom on the left of an implication stays universal.
		return ctl.Binary{Op: ctl.Implies, L: atom(), R: sub()}
	}
	return ctl.Unary{Op: ctl.AG, X: ctl.Binary{Op: ctl.Implies, L: atom(), R: ctl.Unary{Op: ctl.AF, X: sub()}}}
}

// Fairness says which fairness constraints RandomSystem draws: Min to
// Max of them (none when Max is 0), each a justice condition one time in
// three (an atom of the properties' kind, or the disjunction of two)
// and else weak fairness: of one transition (per group half the time),
// or, one time in six each, of every transition or of every transition
// per group. Total keeps to what the total-counter model expresses:
// justice conditions over total counters (and shared variables), weak
// fairness of whole transitions.
type Fairness struct {
	Min, Max int
	Total    bool
}

// fairness draws the fairness constraints f asks for.
func (gen *generator) fairness(f Fairness) {
	if f.Max == 0 {
		return
	}
	r, sp := gen.r, gen.sys
	atom := gen.leaf(!f.Total)
	seen := map[gsst.Weak]bool{}
	weak := func(t, g int) {
		w := gsst.Weak{Transition: t, Group: g}
		if !seen[w] {
			seen[w] = true
			sp.Fairness.Weak = append(sp.Fairness.Weak, w)
		}
	}
	perGroup := func(t int) {
		for g := range sp.Groups {
			if sp.Transitions[t].BlockOf(g) != nil {
				weak(t, g)
			}
		}
	}
	for k := f.Min + r.Intn(f.Max-f.Min+1); k > 0; k-- {
		if r.Intn(3) == 0 {
			j := atom().(ctl.Atom).P
			if r.Intn(2) == 0 {
				j = presburger.Disj(j, atom().(ctl.Atom).P)
			}
			sp.Fairness.Justice = append(sp.Fairness.Justice, gsst.Justice{Formula: j, Text: presburger.Format(j, sp.VarName)})
			continue
		}
		switch c := r.Intn(6); {
		case c == 0:
			for t := range sp.Transitions {
				weak(t, -1)
			}
		case c == 1 && !f.Total:
			for t := range sp.Transitions {
				perGroup(t)
			}
		default:
			t := r.Intn(len(sp.Transitions))
			var groups []int
			for g := range sp.Groups {
				if sp.Transitions[t].BlockOf(g) != nil {
					groups = append(groups, g)
				}
			}
			if !f.Total && len(groups) > 0 && r.Intn(2) == 0 {
				weak(t, groups[r.Intn(len(groups))])
			} else {
				weak(t, -1)
			}
		}
	}
}
