package z3

/*
#include <z3.h>
*/
import "C"

import (
	"context"
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
func (s *Solver) affineHull(ctx context.Context, z *zctx, ts presburger.TransitionSystem) (eqs []presburger.Formula, ok, enough bool, err error) {
	c := z.c
	u := append(append([]presburger.Var(nil), ts.Vars...), ts.Params...)
	if len(u) == 0 || noHull {
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

	var pts [][]*big.Int
	var hull []presburger.Formula // the equalities of the points so far
	// add reads a point from the model and recomputes the equalities.
	add := func(e env) (bool, error) {
		m, err := z.solverModel(sv)
		if err != nil {
			return false, err
		}
		p := make([]*big.Int, len(u))
		for i, v := range u {
			x, err := z.intValue(m, e[v], "a point of the affine hull")
			if err != nil {
				return false, err
			}
			p[i] = big.NewInt(x)
		}
		pts = append(pts, p)
		var fits bool
		hull, fits = equalityFormulas(u, affineEqualities(pts))
		return fits && len(hull) > 0, nil
	}
	// check runs one query in a scope of its own.
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
		if len(pts) > 0 {
			out, err := outside(cur)
			if err != nil {
				return nil, false, false, err
			}
			asserts = append(asserts, out)
		}
		r, err := check(asserts...)
		if err != nil || r != C.Z3_L_TRUE {
			C.Z3_solver_pop(c, sv, 1)
			if err != nil || r == C.Z3_L_UNDEF || len(pts) == 0 {
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
	for changed := true; changed; {
		changed = false
		for _, step := range steps {
			in, err := z.formula(presburger.Conj(hull...), cur)
			if err != nil {
				return nil, false, false, err
			}
			out, err := outside(next)
			if err != nil {
				return nil, false, false, err
			}
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
			}
			C.Z3_solver_pop(c, sv, 1)
		}
	}
	// Do the equalities exclude the bad states on their own?
	in, err := z.formula(presburger.Conj(hull...), cur)
	if err != nil {
		return nil, false, false, err
	}
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

// affineEqualities returns a basis of the linear equalities a.x = c that
// every point of pts satisfies (pts not empty), each as the integer
// coefficients a followed by c, with coprime entries: the null space of
// the differences pts[k] - pts[0], by Gaussian elimination over the
// rationals.
func affineEqualities(pts [][]*big.Int) [][]*big.Int {
	n := len(pts[0])
	var rows [][]*big.Rat
	for _, p := range pts[1:] {
		row := make([]*big.Rat, n)
		for j := range row {
			row[j] = new(big.Rat).SetInt(new(big.Int).Sub(p[j], pts[0][j]))
		}
		rows = append(rows, row)
	}
	// Reduced row echelon form; pivot[r] is the column of row r's pivot.
	var pivot []int
	r := 0
	for col := 0; col < n && r < len(rows); col++ {
		k := r
		for k < len(rows) && rows[k][col].Sign() == 0 {
			k++
		}
		if k == len(rows) {
			continue
		}
		rows[r], rows[k] = rows[k], rows[r]
		inv := new(big.Rat).Inv(rows[r][col])
		for j := range rows[r] {
			rows[r][j].Mul(rows[r][j], inv)
		}
		for i := range rows {
			if i == r || rows[i][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(rows[i][col])
			for j := range rows[i] {
				rows[i][j].Sub(rows[i][j], new(big.Rat).Mul(f, rows[r][j]))
			}
		}
		pivot = append(pivot, col)
		r++
	}
	isPivot := make([]bool, n)
	for _, col := range pivot {
		isPivot[col] = true
	}
	var out [][]*big.Int
	for free := 0; free < n; free++ {
		if isPivot[free] {
			continue
		}
		// a[free] = 1, a[pivot[i]] = -rows[i][free], the rest 0.
		a := make([]*big.Rat, n)
		for j := range a {
			a[j] = new(big.Rat)
		}
		a[free].SetInt64(1)
		for i, col := range pivot {
			a[col].Neg(rows[i][free])
		}
		out = append(out, integral(a, pts[0]))
	}
	return out
}

// integral scales the rational coefficients a to coprime integers and
// appends the constant a.p.
func integral(a []*big.Rat, p []*big.Int) []*big.Int {
	l := big.NewInt(1)
	for _, x := range a {
		d := x.Denom()
		g := new(big.Int).GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, g))
	}
	out := make([]*big.Int, len(a)+1)
	g := new(big.Int)
	for j, x := range a {
		v := new(big.Int).Mul(x.Num(), new(big.Int).Quo(l, x.Denom()))
		out[j] = v
		g.GCD(nil, nil, g, new(big.Int).Abs(v))
	}
	// Divide by the gcd (positive: a[free] = 1), with the sign that
	// makes the first coefficient positive, for readability.
	for _, v := range out[:len(a)] {
		if v.Sign() != 0 {
			if v.Sign() < 0 {
				g.Neg(g)
			}
			break
		}
	}
	c := new(big.Int)
	for j, v := range out[:len(a)] {
		v.Quo(v, g)
		c.Add(c, new(big.Int).Mul(v, p[j]))
	}
	out[len(a)] = c
	return out
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
