package z3

/*
#include "z3api.h"
*/
import "C"

import (
	"context"
	"errors"
	"math/big"

	"github.com/vsym/vsym/presburger"
)

// Spacer misses some invariants that are plain linear equalities: on two
// counters that pass units back and forth it diverges on "x0 <= n" for
// want of "x0 + x1 = n", which it proves at once when given that
// equality. Counter systems are full of such conservation laws, so Prove
// first computes the linear equalities that hold in every reachable
// state, in the manner of Karr's analysis with the SMT solver as the
// transfer function, and hands them to Spacer as known facts.

// noHull turns the affine hull off; the tests set it to exercise Spacer
// alone.
var noHull = false

// affineHull returns linear equalities over the state variables and
// parameters that hold in every reachable state: those of the least
// affine space that contains the initial states and is closed under
// every transition within the domain. It asks the solver for an initial
// state outside the current space, then for a successor of a state in
// the space that lies outside it, and each answer enlarges the space by
// a dimension, so there are at most one more answers than variables.
//
// The equalities are an inductive invariant by construction, but
// nothing depends on that being right: Prove re-checks its invariant,
// equalities included, with CheckInvariant. ok is false when there is
// nothing to add (no initial state, or no equality survives), when the
// solver gives no answer, or when a coefficient would not fit the
// presburger form; Prove then runs Spacer without them. enough is true
// when the equalities alone exclude the bad states, so that Spacer has
// nothing to add.
func (s *Solver) affineHull(ctx context.Context, z *zctx, ts presburger.TransitionSystem) (hullEqs []presburger.Formula, ok, enough bool, err error) {
	c := z.c
	u := append(append([]presburger.Var(nil), ts.Vars...), ts.Params...)
	if len(u) == 0 || noHull || s.noHull {
		return nil, false, false, nil
	}
	sv := C.Z3_mk_simple_solver(c)
	if sv == nil {
		return nil, false, false, z.failOr("cannot create a solver")
	}
	C.Z3_solver_inc_ref(c, sv)
	z.solvers = append(z.solvers, sv)

	dom := presburger.Intersect(ts.Domain)
	cur := env{}
	for _, v := range u {
		cur[v] = z.declare(v)
	}
	next := env{} // the state variables after a step, under their own names
	for _, v := range ts.Vars {
		next[v] = z.freshConst()
	}
	for _, v := range ts.Params {
		next[v] = cur[v]
	}
	for _, a := range z.domain(dom, cur) {
		C.Z3_solver_assert(c, sv, a)
	}

	var eqs [][]*big.Int          // the equalities of the points so far, once there is one
	var hull []presburger.Formula // the same as formulas
	// add reads a point from the model and joins it to the space.
	add := func(e env) (bool, error) {
		m, err := z.solverModel(sv)
		if err != nil {
			return false, err
		}
		p := make([]*big.Int, len(u))
		for i, v := range u {
			x, err := z.intValue(m, e[v], "a point of the affine hull")
			if errors.Is(err, errNotInt64) {
				return false, nil // a hint beyond int64: go without
			}
			if err != nil {
				return false, err
			}
			p[i] = big.NewInt(x)
		}
		if eqs == nil {
			eqs = pointEqualities(p)
		} else {
			eqs = joinPoint(eqs, p)
		}
		var fits bool
		hull, fits = equalityFormulas(u, eqs)
		return fits && len(hull) > 0, nil
	}
	// check asserts and checks; the callers push and pop around it.
	check := func(asserts ...C.Z3_ast) (C.Z3_lbool, error) {
		for _, a := range asserts {
			C.Z3_solver_assert(c, sv, a)
		}
		r, _, err := s.checkMore(ctx, z, sv)
		return r, err
	}
	outside := func(e env) (C.Z3_ast, error) {
		f, err := z.formula(presburger.Conj(hull...), e)
		if err != nil {
			return nil, err
		}
		return C.Z3_mk_not(c, f), nil
	}

	initial, err := z.formula(ts.Init, cur)
	if err != nil {
		return nil, false, false, err
	}
	for {
		C.Z3_solver_push(c, sv)
		asserts := []C.Z3_ast{initial}
		if eqs != nil {
			out, err := outside(cur)
			if err != nil {
				return nil, false, false, err
			}
			asserts = append(asserts, out)
		}
		r, err := check(asserts...)
		if err != nil || r != C.Z3_L_TRUE {
			C.Z3_solver_pop(c, sv, 1)
			if err != nil || r == C.Z3_L_UNDEF || eqs == nil {
				return nil, false, false, err
			}
			break // no initial state outside the space
		}
		more, err := add(cur)
		C.Z3_solver_pop(c, sv, 1)
		if err != nil || !more {
			return nil, false, false, err
		}
	}

	steps := make([]C.Z3_ast, len(ts.Trans))
	for i, t := range ts.Trans {
		e := make(env, len(cur)+len(ts.Next))
		for v, x := range cur {
			e[v] = x
		}
		for j, v := range ts.Vars {
			e[ts.Next[j]] = next[v]
		}
		for _, v := range ts.Locals(i) {
			e[v] = z.freshConst()
		}
		f, err := z.formula(t, e)
		if err != nil {
			return nil, false, false, err
		}
		steps[i] = z.and(append(z.domain(dom, onlyVars(next, ts.Vars)), f))
	}
	// space returns the current space before a step and its complement
	// after it, built again only when the space grows.
	space := func() (in, out C.Z3_ast, err error) {
		if in, err = z.formula(presburger.Conj(hull...), cur); err != nil {
			return nil, nil, err
		}
		out, err = outside(next)
		return in, out, err
	}
	in, out, err := space()
	if err != nil {
		return nil, false, false, err
	}
	for changed := true; changed; {
		changed = false
		for _, step := range steps {
			C.Z3_solver_push(c, sv)
			r, err := check(in, step, out)
			if err != nil || r == C.Z3_L_UNDEF {
				C.Z3_solver_pop(c, sv, 1)
				return nil, false, false, err
			}
			if r == C.Z3_L_TRUE {
				more, err := add(next)
				if err != nil || !more {
					C.Z3_solver_pop(c, sv, 1)
					return nil, false, false, err
				}
				changed = true
				if in, out, err = space(); err != nil {
					C.Z3_solver_pop(c, sv, 1)
					return nil, false, false, err
				}
			}
			C.Z3_solver_pop(c, sv, 1)
		}
	}
	// Do the equalities exclude the bad states on their own?
	bad, err := z.formula(ts.Bad, cur)
	if err != nil {
		return nil, false, false, err
	}
	C.Z3_solver_push(c, sv)
	r, err := check(in, bad)
	C.Z3_solver_pop(c, sv, 1)
	if err != nil {
		return nil, false, false, err
	}
	return hull, true, r == C.Z3_L_FALSE, z.fail()
}

// The equalities of an affine space are kept as rows of integers: the
// coefficients a over the variables, then the constant c, for a.x = c,
// in lowest terms with the first nonzero coefficient positive.

// pointEqualities returns the equalities of the space of the one point
// p: x_j = p_j for each j.
func pointEqualities(p []*big.Int) [][]*big.Int {
	eqs := make([][]*big.Int, len(p))
	for j := range p {
		e := make([]*big.Int, len(p)+1)
		for k := range p {
			e[k] = new(big.Int)
		}
		e[j].SetInt64(1)
		e[len(p)] = new(big.Int).Set(p[j])
		eqs[j] = e
	}
	return eqs
}

// joinPoint returns the equalities of the least affine space containing
// both the space of eqs (independent equalities) and the point p, as in
// Karr's join: if p violates some equality r (residue d_r = a_r.p - c_r
// not zero), every other equality j becomes d_r*e_j - d_j*e_r, which p
// satisfies and which still holds on the old space, and r is dropped. The
// result has one equality fewer, or is eqs when p satisfies them all.
func joinPoint(eqs [][]*big.Int, p []*big.Int) [][]*big.Int {
	n := len(p)
	res := make([]*big.Int, len(eqs))
	r := -1
	for i, e := range eqs {
		d := new(big.Int).Neg(e[n])
		for j := range p {
			d.Add(d, new(big.Int).Mul(e[j], p[j]))
		}
		res[i] = d
		if r < 0 && d.Sign() != 0 {
			r = i
		}
	}
	if r < 0 {
		return eqs
	}
	out := make([][]*big.Int, 0, len(eqs)-1)
	for i, e := range eqs {
		if i == r {
			continue
		}
		if res[i].Sign() == 0 {
			out = append(out, e)
			continue
		}
		f := make([]*big.Int, n+1)
		for j := range f {
			f[j] = new(big.Int).Sub(new(big.Int).Mul(res[r], e[j]), new(big.Int).Mul(res[i], eqs[r][j]))
		}
		out = append(out, normalize(f))
	}
	return out
}

// normalize divides e by the gcd of its coefficients, with the sign that
// makes the first nonzero coefficient positive. The coefficients of an
// equality of independent ones are never all zero.
func normalize(e []*big.Int) []*big.Int {
	n := len(e) - 1
	g := new(big.Int)
	for _, a := range e[:n] {
		g.GCD(nil, nil, g, new(big.Int).Abs(a))
	}
	for _, a := range e[:n] {
		if a.Sign() != 0 {
			if a.Sign() < 0 {
				g.Neg(g)
			}
			break
		}
	}
	for _, a := range e {
		a.Quo(a, g) // exact: g divides every coefficient, hence c too
	}
	return e
}

// equalityFormulas turns the equalities into presburger atoms over u;
// fits is false when a coefficient or constant is beyond checked.Limit.
func equalityFormulas(u []presburger.Var, eqs [][]*big.Int) (fs []presburger.Formula, fits bool) {
	for _, e := range eqs {
		var t presburger.Term
		for j, a := range e[:len(u)] {
			if !a.IsInt64() || !inLimit(a.Int64()) {
				return nil, false
			}
			t = t.Add(presburger.VarTerm(u[j]).Scale(a.Int64()))
		}
		c := e[len(u)]
		if !c.IsInt64() || !inLimit(c.Int64()) {
			return nil, false
		}
		fs = append(fs, presburger.Compare(t, presburger.Eq, presburger.ConstTerm(c.Int64())))
	}
	return fs, true
}
