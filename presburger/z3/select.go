package z3

/*
#include "z3api.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vsym/vsym/presburger"
)

var _ presburger.Selector = (*Solver)(nil)

// Select implements presburger.Selector on Z3's plain SMT solver in a
// context of its own: base, the bounds and, for each part i, "s_i
// implies pre[i]" and the disjunction of "s_i and not post[i]" are
// asserted once, with s_i a Boolean constant; each Solve checks them
// with the assumptions s_i for the parts selected and not s_i for the
// others, so that what the solver learned in one call (its lemmas and
// conflict clauses) serves the next. Each Solve has the time and work
// bounds of one Solve call. Quantified formulas are refused: the plain
// solver is not complete on them.
func (s *Solver) Select(ctx context.Context, bounds []presburger.Bound, base presburger.Formula, pre, post []presburger.Formula) (presburger.Selection, error) {
	if len(pre) != len(post) {
		return nil, fmt.Errorf("z3: Select with %d pre and %d post formulas", len(pre), len(post))
	}
	if err := (presburger.Problem{Bounds: bounds, F: presburger.Conj(base, presburger.Conj(pre...), presburger.Conj(post...))}).CheckBounds(); err != nil {
		return nil, err
	}
	all := append([]presburger.Formula{base}, pre...)
	for _, f := range append(all, post...) {
		if !presburger.IsQuantifierFree(f) {
			return nil, errors.New("z3: Select takes quantifier-free formulas only")
		}
	}
	z, err := newZctx()
	if err != nil {
		return nil, err
	}
	sel := &selection{s: s, z: z, bounds: bounds, base: base, pre: pre, post: post}
	if err := sel.build(); err != nil {
		z.close()
		return nil, err
	}
	return sel, nil
}

type selection struct {
	s               *Solver
	z               *zctx
	sv              C.Z3_solver
	lits            []C.Z3_ast // s_i
	bounds          []presburger.Bound
	base            presburger.Formula
	pre, post       []presburger.Formula
	broken, stopped bool // the context saw an error or an interrupt: no more calls
}

func (sel *selection) build() error {
	z := sel.z
	c := z.c
	e, asserts := z.declareBounds(sel.bounds)
	f, err := z.formula(sel.base, e)
	if err != nil {
		return err
	}
	asserts = append(asserts, f)
	boolSort := C.Z3_mk_bool_sort(c)
	var some []C.Z3_ast
	for i := range sel.pre {
		lit := C.Z3_mk_const(c, C.Z3_mk_int_symbol(c, z.nextSym), boolSort)
		z.nextSym++
		sel.lits = append(sel.lits, lit)
		p, err := z.formula(sel.pre[i], e)
		if err != nil {
			return err
		}
		q, err := z.formula(sel.post[i], e)
		if err != nil {
			return err
		}
		asserts = append(asserts, C.Z3_mk_implies(c, lit, p))
		some = append(some, z.and([]C.Z3_ast{lit, C.Z3_mk_not(c, q)}))
	}
	asserts = append(asserts, z.or(some))
	if err := z.fail(); err != nil {
		return err
	}
	sv := C.Z3_mk_simple_solver(c)
	if sv == nil {
		return z.failOr("cannot create a solver")
	}
	C.Z3_solver_inc_ref(c, sv)
	z.solvers = append(z.solvers, sv)
	for _, a := range asserts {
		C.Z3_solver_assert(c, sv, a)
	}
	sel.sv = sv
	return z.fail()
}

// Solve implements presburger.Selection.
func (sel *selection) Solve(ctx context.Context, on []bool) (presburger.Answer, error) {
	if len(on) != len(sel.lits) {
		return presburger.Answer{}, fmt.Errorf("z3: Selection.Solve with %d choices for %d parts", len(on), len(sel.lits))
	}
	if sel.broken {
		return presburger.Answer{}, errors.New("z3: Selection.Solve after an error")
	}
	if sel.stopped {
		return presburger.Answer{Result: presburger.Unknown, Reason: "an earlier call of the selection was interrupted", Stopped: true}, nil
	}
	d, err := sel.s.budget(ctx)
	if err != nil {
		return presburger.Answer{Result: presburger.Unknown, Reason: err.Error(), Stopped: true}, nil
	}
	z, c := sel.z, sel.z.c
	z.setLimits(sel.sv, d, sel.s.work)
	assume := make([]C.Z3_ast, len(on))
	any := false
	for i, lit := range sel.lits {
		if on[i] {
			assume[i], any = lit, true
		} else {
			assume[i] = C.Z3_mk_not(c, lit)
		}
	}
	if !any {
		return presburger.Answer{Result: presburger.Unsat}, nil
	}
	stop := z.watch(ctx.Done())
	start := time.Now()
	var r C.Z3_lbool
	if len(assume) > 0 {
		r = C.Z3_solver_check_assumptions(c, sel.sv, C.uint(len(assume)), &assume[0])
	}
	stop()
	if err := z.fail(); err != nil {
		sel.stopped = true
		if interrupted(ctx, err) {
			return unknownAnswer(ctx, err.Error()), nil
		}
		sel.broken = true
		return presburger.Answer{}, err
	}
	switch r {
	case C.Z3_L_FALSE:
		return presburger.Answer{Result: presburger.Unsat}, nil
	case C.Z3_L_TRUE:
		m, err := z.model(sel.sv, sel.bounds)
		if err != nil {
			sel.stopped = true
			if ctx.Err() != nil || z.interrupted {
				return unknownAnswer(ctx, "interrupted: "+err.Error()), nil
			}
			return presburger.Answer{}, err
		}
		// The model is checked, as Solve checks its models.
		if !sel.satisfies(m, on) {
			return presburger.Answer{}, errors.New("z3: model does not satisfy the selected question")
		}
		return presburger.Answer{Result: presburger.Sat, Model: m}, nil
	}
	sel.stopped = true
	reason := C.GoString(C.Z3_solver_get_reason_unknown(c, sel.sv))
	spent := sel.s.work > 0 && ctx.Err() == nil && !z.interrupted && (d <= 0 || time.Since(start) < d)
	if spent && strings.Contains(reason, "cancel") {
		return presburger.Answer{Result: presburger.Unknown, Reason: workReason(sel.s.work)}, nil
	}
	return unknownAnswer(ctx, reason), nil
}

// satisfies reports whether m satisfies the question with the parts on
// selected.
func (sel *selection) satisfies(m presburger.Model, on []bool) bool {
	val := func(v presburger.Var) int64 { return m[v] }
	if !presburger.Eval(sel.base, val) {
		return false
	}
	fails := false
	for i := range sel.pre {
		if !on[i] {
			continue
		}
		if !presburger.Eval(sel.pre[i], val) {
			return false
		}
		fails = fails || !presburger.Eval(sel.post[i], val)
	}
	return fails
}

// Close implements presburger.Selection.
func (sel *selection) Close() { sel.z.close() }
