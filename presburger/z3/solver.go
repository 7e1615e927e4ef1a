package z3

/*
#include <stdlib.h>
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

// Solver decides presburger Problems and projects them with Z3. The zero
// value is a Solver without a timeout. A Solver is safe for concurrent
// use: every call has a Z3 context to itself for its duration.
type Solver struct {
	timeout   time.Duration
	work      int64
	maxUnroll int
	noHull    bool
	fresh     bool
}

// Option configures a Solver.
type Option func(*Solver)

// Timeout limits every Solve and Project call, and every Prove call as a
// whole, to d (Z3's "timeout" parameter); a call that runs out answers
// Unknown (Undecided for Prove). Zero or negative means no limit beyond
// the caller's context.
func Timeout(d time.Duration) Option {
	return func(s *Solver) { s.timeout = d }
}

// Work bounds every check of a Solve call, and every Project call as a
// whole, by n units of Z3's resource limit (rlimit), which Z3 counts the
// same way on every machine: a query that runs out answers Unknown on a
// loaded machine exactly when it does on an idle one, where a Timeout
// would cut it at a point that depends on the load. Zero or less means
// no limit. (Prove takes its budget per call, presburger.Budget.)
func Work(n int64) Option {
	return func(s *Solver) { s.work = n }
}

// Fresh has every Solve call run in a context of its own, made for it
// and deleted after it: the model Z3 finds then depends on the problem
// alone, where in a reused context it depends on what the context served
// before, which on several goroutines depends on timing. A context costs
// milliseconds to make, so this is for the few calls whose model is
// printed (a certification's witness).
func Fresh() Option {
	return func(s *Solver) { s.fresh = true }
}

// New returns a Solver with the given options.
func New(opts ...Option) *Solver {
	s := &Solver{}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Forget implements presburger.Forgetter: it deletes the idle contexts
// of every Solver (DropIdleContexts), whose histories make the models
// of the calls that reuse them.
func (*Solver) Forget() { DropIdleContexts() }

// Name returns "z3", the name progress displays give the back end.
func (*Solver) Name() string { return "z3" }

var (
	_ presburger.Solver    = (*Solver)(nil)
	_ presburger.Projector = (*Solver)(nil)
	_ presburger.Forgetter = (*Solver)(nil)
)

// C strings used on every call; allocated once and never freed.
var (
	cTimeout = C.CString("timeout")
	cRlimit  = C.CString("rlimit")

	// projectChain is the tactic pipeline of Project: quantifier
	// elimination, then simplifications that preserve equivalence (not
	// just satisfiability), the last two using the keep bounds to drop
	// subsumed inequalities and redundant atoms.
	projectChain = []*C.char{
		C.CString("qe-light"),
		C.CString("qe2"),
		C.CString("simplify"),
		C.CString("propagate-ineqs"),
		C.CString("ctx-solver-simplify"),
	}
)

// budget returns the time a call may take (0: unlimited), or an error
// when ctx is already done.
func (s *Solver) budget(ctx context.Context) (time.Duration, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	d := s.timeout
	if dl, ok := ctx.Deadline(); ok {
		left := time.Until(dl)
		if left <= 0 {
			return 0, context.DeadlineExceeded
		}
		if d <= 0 || left < d {
			d = left
		}
	}
	return d, nil
}

// Solve implements presburger.Solver. Problems go to Z3's plain SMT
// solver (Z3_mk_simple_solver: complete for quantifier-free linear integer
// arithmetic and, on our queries, faster than the QF_LIA tactic solver
// because it skips preprocessing; measured 7 ms against 16 ms on
// BenchmarkSolve). A quantified problem it gives up on is retried with
// Z3's default solver. A Sat model is checked with presburger.Eval before
// it is returned whenever that is cheap (always for a quantifier-free
// problem), so a back-end bug shows up as an error, not a wrong model.
func (s *Solver) Solve(ctx context.Context, p presburger.Problem) (presburger.Answer, error) {
	if err := p.CheckBounds(); err != nil {
		return presburger.Answer{}, err
	}
	if s.fresh {
		z, err := newZctx()
		if err != nil {
			return presburger.Answer{}, err
		}
		defer z.close()
		return s.solve(ctx, z, p)
	}
	z, err := solvePool.acquire()
	if err != nil {
		return presburger.Answer{}, err
	}
	a, err := s.solve(ctx, z, p)
	solvePool.release(z, err == nil && a.Result != presburger.Unknown)
	return a, err
}

func (s *Solver) solve(ctx context.Context, z *zctx, p presburger.Problem) (presburger.Answer, error) {
	if p.F == nil {
		return presburger.Answer{}, errors.New("z3: problem has no formula")
	}
	d, err := s.budget(ctx)
	if err != nil {
		return presburger.Answer{Result: presburger.Unknown, Reason: err.Error(), Stopped: true}, nil
	}

	e, asserts := z.declareBounds(p.Bounds)
	f, err := z.formula(p.F, e)
	if err != nil {
		return presburger.Answer{}, err
	}
	asserts = append(asserts, f)
	if err := z.fail(); err != nil {
		return presburger.Answer{}, err
	}

	// The plain SMT solver first, for every problem: it also handles our
	// bounded quantifiers and is an order of magnitude faster than the
	// default solver on them. Only if it gives up on a quantified problem
	// for a reason other than time is the default solver (which may
	// choose a quantifier-specific strategy) given the rest of the budget.
	start := time.Now()
	reason := ""
	order := []bool{false, true}
	if defaultOnly {
		order = []bool{true}
	}
	for i, dflt := range order {
		if i > 0 && !z.hasQnt {
			break
		}
		left := d
		if d > 0 {
			if left = d - time.Since(start); left <= 0 {
				break
			}
		}
		checkStart := time.Now()
		sv, r, err := z.check(ctx, dflt, asserts, left, s.work)
		// Z3 4.8.12 says "canceled" when the resource limit runs out as
		// when its timer or an interrupt stops it; neither of those
		// having happened, it is the resource limit.
		spent := s.work > 0 && ctx.Err() == nil && !z.interrupted && (left <= 0 || time.Since(checkStart) < left)
		if err != nil && spent && interrupted(ctx, err) || err == nil && r == C.Z3_L_UNDEF && spent &&
			strings.Contains(C.GoString(C.Z3_solver_get_reason_unknown(z.c, sv)), "cancel") {
			return presburger.Answer{Result: presburger.Unknown, Reason: workReason(s.work)}, nil
		}
		if err != nil {
			if interrupted(ctx, err) {
				return unknownAnswer(ctx, err.Error()), nil
			}
			return presburger.Answer{}, err
		}
		switch r {
		case C.Z3_L_FALSE:
			return presburger.Answer{Result: presburger.Unsat}, nil
		case C.Z3_L_TRUE:
			m, err := z.model(sv, p.Bounds)
			if err != nil && (ctx.Err() != nil || z.interrupted) {
				// The interrupt came as the check ended: Z3 says
				// sat and then has no model ("there is no current
				// model"). The query was stopped, not answered.
				return unknownAnswer(ctx, "interrupted: "+err.Error()), nil
			}
			if err != nil {
				return presburger.Answer{}, err
			}
			// Check the model whenever evaluating is cheap (always
			// for a quantifier-free formula): a back-end bug then
			// surfaces as an error rather than a wrong Sat.
			if evalCost(p.F) <= maxEvalCost && !presburger.Eval(p.F, func(v presburger.Var) int64 { return m[v] }) {
				return presburger.Answer{}, errors.New("z3: model does not satisfy the formula")
			}
			return presburger.Answer{Result: presburger.Sat, Model: m}, nil
		}
		reason = C.GoString(C.Z3_solver_get_reason_unknown(z.c, sv))
		if err := z.fail(); err != nil {
			reason = err.Error()
		}
		if ctx.Err() != nil || interrupted(ctx, errors.New(reason)) {
			break
		}
	}
	if reason == "" {
		reason = "timeout"
	}
	return unknownAnswer(ctx, reason), nil
}

// workReason says that a query ran out of work units.
func workReason(work int64) string {
	return fmt.Sprintf("out of work (the budget of %d units of Z3's resource limit is spent)", min(work, maxWork))
}

// unknownAnswer is the Unknown answer for Z3's reason: Stopped when the
// context ended or Z3 ran out of its own time (Z3 says only in words
// why it gave up: "timeout", "canceled"; this is the one place that
// reads them).
func unknownAnswer(ctx context.Context, reason string) presburger.Answer {
	stopped := ctx.Err() != nil || strings.Contains(reason, "timeout") || strings.Contains(reason, "cancel")
	return presburger.Answer{Result: presburger.Unknown, Reason: unknownReason(ctx, reason), Stopped: stopped}
}

// defaultOnly makes Solve use only Z3's default solver; the tests set it
// to cross-check the fallback path, which random problems rarely reach.
var defaultOnly = false

// check runs a new solver (the plain SMT solver, or Z3's default one when
// dflt is set) on asserts with timeout d and resource limit work (0:
// none), interruptible through ctx.
func (z *zctx) check(ctx context.Context, dflt bool, asserts []C.Z3_ast, d time.Duration, work int64) (C.Z3_solver, C.Z3_lbool, error) {
	c := z.c
	var sv C.Z3_solver
	if dflt {
		sv = C.Z3_mk_solver(c)
	} else {
		sv = C.Z3_mk_simple_solver(c)
	}
	if sv == nil {
		return nil, C.Z3_L_UNDEF, z.failOr("cannot create a solver")
	}
	C.Z3_solver_inc_ref(c, sv)
	z.solvers = append(z.solvers, sv)
	z.setLimits(sv, d, work)
	for _, a := range asserts {
		C.Z3_solver_assert(c, sv, a)
	}
	if err := z.fail(); err != nil {
		return nil, C.Z3_L_UNDEF, err
	}
	stop := z.watch(ctx.Done())
	r := C.Z3_solver_check(c, sv)
	stop()
	return sv, r, z.fail()
}

// maxEvalCost bounds the atoms presburger.Eval may visit when checking a
// model.
const maxEvalCost = 1 << 20

// evalCost is an upper bound on the atoms presburger.Eval visits on f,
// saturating above maxEvalCost.
func evalCost(f presburger.Formula) int64 {
	switch f := f.(type) {
	case presburger.Not:
		return evalCost(f.F)
	case presburger.And:
		return sumCost(f)
	case presburger.Or:
		return sumCost(f)
	case presburger.Exists:
		n := evalCost(f.Body)
		for _, b := range f.Vars {
			if !b.Finite() {
				return maxEvalCost + 1 // CheckBounds rejects these; never enumerate
			}
			if b.Hi < b.Lo {
				continue // an empty range: Eval tries nothing
			}
			// Hi - Lo in uint64, where it cannot overflow.
			w := uint64(b.Hi) - uint64(b.Lo)
			if n > maxEvalCost || w >= maxEvalCost {
				return maxEvalCost + 1
			}
			n *= int64(w) + 1
		}
		return min(n, maxEvalCost+1)
	}
	return 1
}

func sumCost(fs []presburger.Formula) int64 {
	var n int64
	for _, g := range fs {
		n = min(n+evalCost(g), maxEvalCost+1)
	}
	return n
}

// model reads the value of every bounded variable from the solver's model
// (with model completion, so variables the formula does not constrain get
// a value too) and checks it against its bound.
func (z *zctx) model(sv C.Z3_solver, bounds []presburger.Bound) (presburger.Model, error) {
	m, err := z.solverModel(sv)
	if err != nil {
		return nil, err
	}
	out := make(presburger.Model, len(bounds))
	for _, b := range bounds {
		x, err := z.intValue(m, z.vars[b.Var], fmt.Sprintf("variable %d", b.Var))
		if err != nil {
			return nil, err
		}
		out[b.Var] = x
	}
	for _, b := range bounds {
		if x := out[b.Var]; !b.Contains(x) {
			return nil, fmt.Errorf("z3: model value %d of variable %d outside %s", x, b.Var, b.Range())
		}
	}
	return out, nil
}

// solverModel returns sv's model after a Sat check, held until the call
// ends.
func (z *zctx) solverModel(sv C.Z3_solver) (C.Z3_model, error) {
	m := C.Z3_solver_get_model(z.c, sv)
	if m == nil {
		return nil, z.failOr("no model")
	}
	C.Z3_model_inc_ref(z.c, m)
	z.models = append(z.models, m)
	return m, nil
}

// errNotInt64 marks a model value that does not fit in int64.
var errNotInt64 = errors.New("not an int64")

// intValue evaluates the integer constant a in m (with model completion)
// and returns its value; what names a in errors. A value beyond int64 is
// an error wrapping errNotInt64.
func (z *zctx) intValue(m C.Z3_model, a C.Z3_ast, what string) (int64, error) {
	var val C.Z3_ast
	if !C.Z3_model_eval(z.c, m, a, true, &val) || val == nil {
		return 0, z.failOr("cannot evaluate " + what + " in the model")
	}
	var k C.int64_t
	if !C.Z3_get_numeral_int64(z.c, val, &k) {
		return 0, fmt.Errorf("z3: value %s of %s is %w", z.str(val), what, errNotInt64)
	}
	return int64(k), nil
}

// failOr returns Z3's recorded error, or one saying what.
func (z *zctx) failOr(what string) error {
	if err := z.fail(); err != nil {
		return err
	}
	return errors.New("z3: " + what)
}

// interrupted reports whether a Z3 error is the effect of a timeout or a
// cancellation rather than a malformed input.
func interrupted(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"timeout", "canceled", "cancelled", "interrupted", "resource", "memory"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func unknownReason(ctx context.Context, reason string) string {
	if err := ctx.Err(); err != nil {
		return err.Error() + " (z3: " + reason + ")"
	}
	return reason
}

// Project implements presburger.Projector with Z3's quantifier
// elimination: the variables of p.Bounds not in keep are bound by an
// existential quantifier (their ranges inside), the bounds of the keep
// variables are added as context, the tactics of projectChain produce a
// quantifier-free formula, and prune drops the conjuncts the others imply.
// Atoms that the keep bounds alone decide are then folded away, so the
// result is equivalent to the projection only within those bounds, as
// the Projector contract allows. A result Z3 can only state with mod,
// div or other non-linear constructs is an error naming the construct.
func (s *Solver) Project(ctx context.Context, p presburger.Problem, keep []presburger.Var) (presburger.Formula, presburger.Result, error) {
	if err := p.CheckBounds(); err != nil {
		return nil, presburger.Unknown, err
	}
	// A budget of work is the resource limit of a context of its own, so
	// that the count starts at zero whatever ran before and covers the
	// tactics and the pruning alike (a solver's rlimit would cover only
	// the checks): the answer is the same on every machine.
	var z *zctx
	var err error
	if s.work > 0 {
		z, err = newLimitedZctx(s.work)
	} else {
		z, err = projectPool.acquire()
	}
	if err != nil {
		return nil, presburger.Unknown, err
	}
	f, r, err := s.project(ctx, z, p, keep)
	projectPool.release(z, err == nil && r != presburger.Unknown)
	return f, r, err
}

func (s *Solver) project(ctx context.Context, z *zctx, p presburger.Problem, keep []presburger.Var) (presburger.Formula, presburger.Result, error) {
	if p.F == nil {
		return nil, presburger.Unknown, errors.New("z3: problem has no formula")
	}
	d, err := s.budget(ctx)
	if err != nil {
		return nil, presburger.Unknown, nil
	}
	c := z.c

	kept := map[presburger.Var]bool{}
	for _, v := range keep {
		kept[v] = true
	}
	e := env{}
	var box []presburger.Bound // bounds of the kept variables
	var ctxAsserts []C.Z3_ast
	var elim []presburger.Bound
	// Bounds are intersected first: as an Exists variable, one bounded
	// twice would keep only its last range.
	for _, b := range presburger.Intersect(p.Bounds) {
		if !kept[b.Var] {
			elim = append(elim, b)
			continue
		}
		x := z.declare(b.Var)
		e[b.Var] = x
		ctxAsserts = append(ctxAsserts, z.inRange(x, b))
		box = append(box, b)
	}
	phi, err := z.exists(elim, p.F, e)
	if err != nil {
		return nil, presburger.Unknown, err
	}
	if err := z.fail(); err != nil {
		return nil, presburger.Unknown, err
	}

	g := C.Z3_mk_goal(c, false, false, false)
	if g == nil {
		return nil, presburger.Unknown, z.failOr("cannot create a goal")
	}
	C.Z3_goal_inc_ref(c, g)
	z.goals = append(z.goals, g)
	for _, a := range ctxAsserts {
		C.Z3_goal_assert(c, g, a)
	}
	C.Z3_goal_assert(c, g, phi)

	t := z.tactic(projectChain[0])
	for _, name := range projectChain[1:] {
		if u := z.tactic(name); t != nil && u != nil {
			t = z.keepTactic(C.Z3_tactic_and_then(c, t, u))
		}
	}
	if d > 0 && t != nil {
		t = z.keepTactic(C.Z3_tactic_try_for(c, t, timeoutMS(d)))
	}
	if t == nil {
		return nil, presburger.Unknown, z.failOr("cannot create the elimination tactic")
	}
	if err := z.fail(); err != nil {
		return nil, presburger.Unknown, err
	}

	start := time.Now()
	stop := z.watch(ctx.Done())
	res := C.Z3_tactic_apply(c, t, g)
	stop()
	// A tactic that runs out of time may raise an error or give up and
	// return its goal unchanged (quantifier included); either way the
	// answer is Unknown, never a formula.
	gaveUp := func() bool { return ctx.Err() != nil || d > 0 && time.Since(start) >= d }
	if err := z.fail(); err != nil || res == nil {
		if err == nil {
			err = errors.New("z3: tactic failed")
		}
		if gaveUp() || interrupted(ctx, err) {
			return nil, presburger.Unknown, nil
		}
		return nil, presburger.Unknown, err
	}
	C.Z3_apply_result_inc_ref(c, res)
	z.results = append(z.results, res)

	n := C.Z3_apply_result_get_num_subgoals(c, res)
	var disj []presburger.Formula
	for i := C.uint(0); i < n; i++ {
		sg := C.Z3_apply_result_get_subgoal(c, res, i)
		var conj []C.Z3_ast
		for j := C.uint(0); j < C.Z3_goal_size(c, sg); j++ {
			conj = append(conj, C.Z3_goal_formula(c, sg, j))
		}
		// left is read once: a budget that ran out between a check and
		// the call must not turn into no limit at all (d <= 0 is none).
		if left := d - time.Since(start); n == 1 && ctx.Err() == nil && (d <= 0 || left > 0) {
			conj = z.prune(ctx, conj, ctxAsserts, left)
		}
		var fs []presburger.Formula
		for _, a := range conj {
			f, err := z.back(a)
			if err != nil {
				if gaveUp() {
					return nil, presburger.Unknown, nil
				}
				return nil, presburger.Unknown, err
			}
			fs = append(fs, f)
		}
		disj = append(disj, presburger.Conj(fs...))
	}
	if err := z.fail(); err != nil {
		if gaveUp() || interrupted(ctx, err) {
			return nil, presburger.Unknown, nil
		}
		return nil, presburger.Unknown, err
	}
	// Fold the copies of the keep bounds that elimination leaves.
	return presburger.FoldBounds(presburger.Disj(disj...), box), presburger.Sat, nil
}

// setLimits bounds every check of sv by the time d and by work units of
// Z3's resource limit, counted from the start of each check; zero or
// less leaves either unbounded. The parameter set lives as long as the
// context.
func (z *zctx) setLimits(sv C.Z3_solver, d time.Duration, work int64) {
	if d <= 0 && work <= 0 {
		return
	}
	c := z.c
	ps := C.Z3_mk_params(c)
	C.Z3_params_inc_ref(c, ps)
	z.params = append(z.params, ps)
	if d > 0 {
		C.Z3_params_set_uint(c, ps, C.Z3_mk_string_symbol(c, cTimeout), timeoutMS(d))
	}
	if work > 0 {
		C.Z3_params_set_uint(c, ps, C.Z3_mk_string_symbol(c, cRlimit), C.uint(min(work, maxWork)))
	}
	C.Z3_solver_set_params(c, sv, ps)
}

// prune drops each conjunct of a projection that the box and the other
// remaining conjuncts imply (Z3's simplifiers leave derived bounds such as
// "b <= 19" next to "a >= 1 & a + b = 20"). A conjunct is dropped only on
// an Unsat answer, so a timeout or error keeps it: pruning can make the
// result longer than it could be, never different. Conjuncts with a
// quantifier (from a tactic that gave up) are left for back to reject.
func (z *zctx) prune(ctx context.Context, conj, box []C.Z3_ast, left time.Duration) []C.Z3_ast {
	if len(conj) < 2 {
		return conj
	}
	c := z.c
	sv := C.Z3_mk_simple_solver(c)
	if sv == nil {
		return conj
	}
	C.Z3_solver_inc_ref(c, sv)
	z.solvers = append(z.solvers, sv)
	z.setLimits(sv, left, 0)
	for _, a := range box {
		C.Z3_solver_assert(c, sv, a)
	}
	stop := z.watch(ctx.Done())
	defer stop()
	keep := append([]C.Z3_ast(nil), conj...)
	for i := 0; i < len(keep); {
		if C.Z3_get_ast_kind(c, keep[i]) != C.Z3_APP_AST {
			i++
			continue
		}
		C.Z3_solver_push(c, sv)
		for j, a := range keep {
			if j != i {
				C.Z3_solver_assert(c, sv, a)
			}
		}
		C.Z3_solver_assert(c, sv, C.Z3_mk_not(c, keep[i]))
		r := C.Z3_solver_check(c, sv)
		C.Z3_solver_pop(c, sv, 1)
		if z.fail() != nil || ctx.Err() != nil {
			return conj
		}
		if r == C.Z3_L_FALSE {
			keep = append(keep[:i], keep[i+1:]...)
		} else {
			i++
		}
	}
	return keep
}

// tactic makes the named tactic and holds a reference on it.
func (z *zctx) tactic(name *C.char) C.Z3_tactic {
	return z.keepTactic(C.Z3_mk_tactic(z.c, name))
}

func (z *zctx) keepTactic(t C.Z3_tactic) C.Z3_tactic {
	if t != nil {
		C.Z3_tactic_inc_ref(z.c, t)
		z.tactics = append(z.tactics, t)
	}
	return t
}
