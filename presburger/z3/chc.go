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
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// defaultMaxUnroll bounds the counterexample search (MaxUnroll changes
// it).
const defaultMaxUnroll = 256

// MaxUnroll bounds the length, in steps, of the counterexamples Prove
// searches for; when Spacer finds the bad states reachable but no run of
// at most k steps reaches one, Prove answers Undecided. Zero or less
// means the default, 256.
func MaxUnroll(k int) Option {
	return func(s *Solver) { s.maxUnroll = k }
}

// NoHull makes Prove hand the system to Spacer without computing the
// affine hull first. The hull costs one query per variable; it is worth
// that on systems whose invariants need equalities (a pool summing to
// n), not on over-approximations whose invariant is a bound that is
// inductive on its own (package prove's relaxed first attempt: GR&W
// d=100 m=30, 1.15 s with the hull, 0.6 s without).
func NoHull() Option {
	return func(s *Solver) { s.noHull = true }
}

var _ presburger.Prover = (*Solver)(nil)

// C strings of the fixedpoint parameters; allocated once, never freed.
var (
	cEngine = C.CString("engine")
	cSpacer = C.CString("spacer")
	cCtrlC  = C.CString("ctrl_c")
	cSeed   = C.CString("spacer.random_seed")

	// noInline are the rule transformations Prove turns off: with eager
	// inlining on, Z3 4.8.12 answered a safe query with an
	// interpretation of Inv that excludes the initial states (found by
	// TestProveRandom through the invariant re-check); without either,
	// the answers hold, and BenchmarkProveGRWSpacerAlone shows no
	// difference beyond the noise of a shared machine.
	noInline = []*C.char{C.CString("xform.inline_eager"), C.CString("xform.inline_linear")}
)

// Prove implements presburger.Prover with Z3's CHC engine Spacer.
//
// It first computes the affine hull of the reachable states (affineHull):
// linear equalities such as "the counters sum to n" that hold in every
// reachable state. When they exclude the bad states on their own, they
// are the invariant. Otherwise the system becomes constrained Horn
// clauses over one predicate Inv of the state variables and parameters
// (Vars, then Params), with the equalities H as known facts:
//
//	Dom(V, P) & Init(V, P)                             => Inv(V, P)
//	Inv(V, P) & H(V, P) & Dom(V) & Dom(V') & Trans_i  => Inv(V', P)   for each i
//	Inv(V, P) & H(V, P) & Bad(V, P)                   => false
//
// with the local variables of each transition (and the variables of an
// Exists that is not under a negation) universally quantified over the
// clause, which is the same as existentially in its body. Spacer either
// finds an interpretation of Inv that satisfies the clauses, or derives
// false, that is, a reachable bad state.
//
// The interpretation, conjoined with H, is translated back into a
// presburger.Formula (by the translation Project uses, which refuses
// mod, div and overflow) and re-checked with presburger.CheckInvariant on
// this Solver's plain SMT queries, independently of Spacer, before Prove
// answers Proved. A counterexample comes from bounded unrolling with the
// plain solver, for 0, 1, 2, ... steps up to MaxUnroll, so it is a
// shortest run; among runs of that length the parameters are made as
// small as their domain allows, lexicographically in the order of
// Params, which keeps the sizes an explicit engine must replay small,
// and then the transitions taken, step by step, so that a question gets
// the same run every time. The search runs once Spacer reports a bad
// state reachable, or, when b.Attempt > 0, alongside Spacer from the
// start. The run is confirmed with presburger.Replay before Prove
// answers Refuted.
//
// b.Work bounds the work of Spacer (the hull included) and of the search
// (b.SearchWork instead, when set, for the search run alongside Spacer),
// each in a Z3 context of its own with that resource limit; a spent
// budget gives Undecided with Exhausted set. Timeout bounds the whole
// call; it, the context's deadline and cancellation give Undecided with
// a reason, as do Spacer's "unknown", an
// invariant that cannot be translated back, a system the Horn
// translation cannot state (a negated Exists over too many values) and
// an invariant that fails the re-check, which is never reported as a
// proof. A counterexample that fails to replay is an error: the search
// and the replay read the same formulas, so that would be a defect here.
func (s *Solver) Prove(ctx context.Context, ts presburger.TransitionSystem, b presburger.Budget) (presburger.SafetyAnswer, error) {
	if err := ts.Check(); err != nil {
		return presburger.SafetyAnswer{}, err
	}
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	undecided := func(reason string, exhausted bool) (presburger.SafetyAnswer, error) {
		return presburger.SafetyAnswer{Verdict: presburger.Undecided, Reason: reason, Exhausted: exhausted}, nil
	}

	// Spacer runs first. The bounded search starts when Spacer finds a
	// bad state reachable, or, from the second attempt on, alongside it
	// (Spacer is slow on deep counterexamples, where the search can be
	// faster; most proofs end within the first attempt, sparing them a
	// second Z3 context and thread). Each runs in a Z3 context of its
	// own, made for the call with the budget's resource limit, so that
	// its work is the same whatever ran before; the other's answer may
	// cancel it, and both are waited for before Prove returns, so no Z3
	// call outlives it. Which of the two answers first depends on the
	// load, but not what Prove answers: a proof and a run into a bad
	// state cannot both exist, and when one of them gives up, the other
	// is waited for.
	type spacerOut struct {
		r         presburger.Result
		inv       presburger.Formula
		reason    string
		exhausted bool
		err       error
	}
	type searchOut struct {
		cex       *presburger.Counterexample
		reason    string
		exhausted bool
		err       error
	}
	spacerCtx, stopSpacer := context.WithCancel(ctx)
	searchCtx, stopSearch := context.WithCancel(ctx)
	spacerCh := make(chan spacerOut, 1)
	searchCh := make(chan searchOut, 1)
	go func() {
		z, err := newLimitedZctx(b.Work)
		if err != nil {
			spacerCh <- spacerOut{err: err}
			return
		}
		r, inv, reason, err := s.spacer(spacerCtx, z, ts, b.Attempt)
		z.close()
		out := r == presburger.Unknown && spacerCtx.Err() == nil && outOfWork(reason)
		if out {
			reason = spent(b)
		}
		spacerCh <- spacerOut{r, inv, reason, out, err}
	}()
	searching := false
	startSearch := func(work int64) {
		if searching {
			return
		}
		searching = true
		go func() {
			z, err := newLimitedZctx(work)
			if err != nil {
				searchCh <- searchOut{err: err}
				return
			}
			cex, reason, err := s.unroll(searchCtx, z, ts)
			z.close()
			out := cex == nil && searchCtx.Err() == nil && outOfWork(reason)
			if out {
				reason = "the counterexample search is " + workReason(work)
			}
			searchCh <- searchOut{cex, reason, out, err}
		}()
	}
	var sp *spacerOut
	var se *searchOut
	defer func() {
		stopSpacer()
		stopSearch()
		if sp == nil {
			<-spacerCh
		}
		if searching && se == nil {
			<-searchCh
		}
	}()
	if b.Attempt > 0 {
		work := b.Work
		if b.SearchWork > 0 {
			work = b.SearchWork
		}
		startSearch(work)
	}
	for {
		select {
		case o := <-spacerCh:
			sp = &o
			switch {
			case o.err != nil || o.r == presburger.Unsat:
			case o.r == presburger.Sat && se == nil:
				startSearch(b.Work) // for a concrete run
				continue
			case searching && se == nil:
				continue // Spacer gave up: the search may still find a run
			}
		case o := <-searchCh:
			se = &o
			if o.err == nil && o.cex == nil && sp == nil {
				continue // no run within the bound: Spacer may still prove it
			}
		}
		break
	}
	// Here either Spacer has proved the system safe or failed, or the
	// search has a run or failed, or both have answered.

	var ue *presburger.UndecidedError
	if se != nil && se.err != nil {
		return presburger.SafetyAnswer{}, se.err
	}
	if se != nil && se.cex != nil {
		err := presburger.Replay(ctx, s, ts, *se.cex)
		switch {
		case err == nil:
			return presburger.SafetyAnswer{Verdict: presburger.Refuted, Counterexample: se.cex}, nil
		case errors.As(err, &ue):
			return undecided("replay of the counterexample: "+ue.Error(), false)
		}
		return presburger.SafetyAnswer{}, fmt.Errorf("z3: the counterexample found by unrolling fails to replay: %w", err)
	}
	var unsup *unsupportedError
	switch {
	case errors.As(sp.err, &unsup):
		return undecided(unsup.Error(), false)
	case sp.err != nil && stuck(sp.err):
		// Spacer gives up on a question with this error in some of its
		// searches (bosco's liveness obligations, TestByMCLiveness):
		// an attempt with another seed may answer.
		return undecided("Spacer: "+strings.TrimPrefix(sp.err.Error(), "z3: "), true)
	case sp.err != nil:
		return presburger.SafetyAnswer{}, sp.err
	case sp.r == presburger.Unsat: // Inv exists: no bad state is reachable
		err := presburger.CheckInvariant(ctx, s, ts, sp.inv)
		switch {
		case err == nil:
			return presburger.SafetyAnswer{Verdict: presburger.Proved, Invariant: sp.inv}, nil
		case errors.As(err, &ue):
			return undecided("re-check of Spacer's invariant: "+ue.Error(), false)
		}
		var ie *presburger.InvariantError
		if errors.As(err, &ie) {
			// Spacer's answer is not an invariant: never a proof.
			return undecided(fmt.Sprintf("Spacer's invariant %s fails the independent re-check: %v",
				presburger.Format(sp.inv, varName), err), false)
		}
		return presburger.SafetyAnswer{}, err
	case sp.r == presburger.Sat: // the search ended without a run
		return undecided("Spacer finds a bad state reachable, but "+se.reason, se.exhausted)
	}
	// Spacer gave up; so did the search, if it ran. A larger budget may
	// help either.
	return undecided(sp.reason, sp.exhausted || se != nil && se.exhausted)
}

// outOfWork reports whether Z3 gave up, in a context made by
// newLimitedZctx whose Go context has not ended, because its resource
// limit ran out. Z3 says so only in words ("max. resource limit
// exceeded" from Spacer, "canceled" from a solver; no timer of Z3's own
// is set in such a context, so a cancellation is the limit's): this is
// the one place that reads them.
func outOfWork(reason string) bool {
	return strings.Contains(reason, "resource limit") || strings.Contains(reason, "cancel")
}

// stuck reports whether err is Spacer's "Stuck on a lemma": Z3 raises it
// when one of its lemmas cannot be blocked, which depends on the path
// of the search (its seed), not on the question alone.
func stuck(err error) bool { return strings.Contains(err.Error(), "Stuck on a lemma") }

// spent says that a search ran out of the work b allows.
func spent(b presburger.Budget) string { return workReason(b.Work) }

func varName(v presburger.Var) string { return "v" + strconv.Itoa(int(v)) }

// spacer asks Spacer whether the bad states are reachable: Unsat (no)
// with the invariant, Sat (yes), or Unknown with a reason.
func (s *Solver) spacer(ctx context.Context, z *zctx, ts presburger.TransitionSystem, attempt int) (presburger.Result, presburger.Formula, string, error) {
	hull, ok, enough, err := s.affineHull(ctx, z, ts)
	if err != nil {
		return presburger.Unknown, nil, "", err
	}
	if !ok {
		hull = nil
	}
	if enough {
		return presburger.Unsat, presburger.Conj(hull...), "", nil
	}
	if err := ctx.Err(); err != nil {
		return presburger.Unknown, nil, err.Error(), nil
	}
	c := z.c
	boolSort := C.Z3_mk_bool_sort(c)
	args := append(append([]presburger.Var(nil), ts.Vars...), ts.Params...)
	sorts := make([]C.Z3_sort, len(args))
	for i := range sorts {
		sorts[i] = z.intSort
	}
	inv := z.freshDecl("Inv", sorts, boolSort)
	bad := z.freshDecl("Bad", nil, boolSort)

	fp := C.Z3_mk_fixedpoint(c)
	if fp == nil {
		return presburger.Unknown, nil, "", z.failOr("cannot create a fixedpoint context")
	}
	C.Z3_fixedpoint_inc_ref(c, fp)
	z.fixeds = append(z.fixeds, fp)
	ps := C.Z3_mk_params(c)
	C.Z3_params_inc_ref(c, ps)
	z.params = append(z.params, ps)
	C.Z3_params_set_symbol(c, ps, C.Z3_mk_string_symbol(c, cEngine), C.Z3_mk_string_symbol(c, cSpacer))
	// Z3 would otherwise install its own SIGINT handler for the query,
	// under the Go runtime's feet.
	C.Z3_params_set_bool(c, ps, C.Z3_mk_string_symbol(c, cCtrlC), false)
	for _, name := range noInline {
		C.Z3_params_set_bool(c, ps, C.Z3_mk_string_symbol(c, name), false)
	}
	if attempt > 0 {
		C.Z3_params_set_uint(c, ps, C.Z3_mk_string_symbol(c, cSeed), C.uint(attempt))
	}
	C.Z3_fixedpoint_set_params(c, fp, ps)
	C.Z3_fixedpoint_register_relation(c, fp, inv)
	C.Z3_fixedpoint_register_relation(c, fp, bad)

	// cur names the state variables and parameters; its constants are
	// declared, so the back translation of the invariant knows them.
	cur := env{}
	consts := make([]C.Z3_ast, len(args))
	for i, v := range args {
		consts[i] = z.declare(v)
		cur[v] = consts[i]
	}
	dom := presburger.Intersect(ts.Domain)
	// known holds in every reachable state: the equalities of the
	// affine hull, which Spacer may assume wherever it reads Inv.
	known, err := z.formula(presburger.Conj(hull...), cur)
	if err != nil {
		return presburger.Unknown, nil, "", err
	}
	invApp := func(xs []C.Z3_ast) C.Z3_ast {
		return C.Z3_mk_app(c, inv, C.uint(len(xs)), astPtr(xs))
	}
	rule := func(name string, vars []C.Z3_ast, body []C.Z3_ast, head C.Z3_ast) {
		r := C.Z3_mk_implies(c, z.and(body), head)
		if len(vars) > 0 {
			apps := make([]C.Z3_app, len(vars))
			for i, x := range vars {
				apps[i] = C.Z3_to_app(c, x)
			}
			r = C.Z3_mk_forall_const(c, 0, C.uint(len(apps)), &apps[0], 0, nil, r)
		}
		cs := C.CString(name)
		defer C.free(unsafe.Pointer(cs))
		C.Z3_fixedpoint_add_rule(c, fp, r, C.Z3_mk_string_symbol(c, cs))
	}

	// Init: Dom(V, P) & Init => Inv(V, P).
	var extra []C.Z3_ast
	f, err := z.clauseBody(presburger.NNF(ts.Init), cur, &extra)
	if err != nil {
		return presburger.Unknown, nil, "", err
	}
	body := append(z.domain(dom, cur), f)
	rule("init", append(append([]C.Z3_ast(nil), consts...), extra...), body, invApp(consts))

	// Trans_i: Inv(V, P) & Dom(V) & Dom(V') & Trans_i => Inv(V', P).
	for i, t := range ts.Trans {
		e := make(env, len(cur)+len(ts.Next))
		for v, x := range cur {
			e[v] = x
		}
		vars := append([]C.Z3_ast(nil), consts...)
		head := append([]C.Z3_ast(nil), consts...) // Vars, then the same Params
		nextOnly := env{}
		for j, v := range ts.Vars {
			x := z.freshConst()
			e[ts.Next[j]] = x
			nextOnly[v] = x
			head[j] = x
			vars = append(vars, x)
		}
		for _, v := range ts.Locals(i) {
			x := z.freshConst()
			e[v] = x
			vars = append(vars, x)
		}
		extra = nil
		f, err := z.clauseBody(presburger.NNF(t), e, &extra)
		if err != nil {
			return presburger.Unknown, nil, "", err
		}
		body := append([]C.Z3_ast{invApp(consts), known}, z.domain(dom, onlyVars(cur, ts.Vars))...)
		body = append(body, z.domain(dom, nextOnly)...)
		body = append(body, f)
		rule("t"+strconv.Itoa(i), append(vars, extra...), body, invApp(head))
	}

	// Bad: Inv(V, P) & Bad => false, stated as a rule for the nullary
	// predicate Bad, which is then queried.
	extra = nil
	f, err = z.clauseBody(presburger.NNF(ts.Bad), cur, &extra)
	if err != nil {
		return presburger.Unknown, nil, "", err
	}
	badApp := C.Z3_mk_app(c, bad, 0, nil)
	rule("bad", append(append([]C.Z3_ast(nil), consts...), extra...), []C.Z3_ast{invApp(consts), known, f}, badApp)
	if err := z.fail(); err != nil {
		return presburger.Unknown, nil, "", err
	}

	stop := z.watch(ctx.Done())
	r := C.Z3_fixedpoint_query(c, fp, badApp)
	stop()
	if err := z.fail(); err != nil {
		if !interrupted(ctx, err) {
			return presburger.Unknown, nil, "", err
		}
		return presburger.Unknown, nil, unknownReason(ctx, err.Error()), nil
	}
	switch r {
	case C.Z3_L_TRUE:
		return presburger.Sat, nil, "", nil
	case C.Z3_L_FALSE:
		ans := C.Z3_fixedpoint_get_answer(c, fp)
		if ans == nil {
			return presburger.Unknown, nil, "", z.failOr("no answer from Spacer")
		}
		a, err := z.interpretation(ans, inv, consts)
		if err != nil {
			return presburger.Unknown, nil, "Spacer proved the system safe, but its invariant cannot be read: " + err.Error(), nil
		}
		f, err := z.back(a)
		if err != nil {
			return presburger.Unknown, nil, "Spacer proved the system safe, but its invariant has no presburger form: " + err.Error(), nil
		}
		return presburger.Unsat, conjNew(hull, f), "", nil
	}
	reason := C.GoString(C.Z3_fixedpoint_get_reason_unknown(c, fp))
	if reason == "" || reason == "ok" {
		reason = "spacer gave no answer"
	}
	return presburger.Unknown, nil, unknownReason(ctx, reason), nil
}

// conjNew returns the conjunction of known and f without the conjuncts
// of f that are already in known (Spacer restates some equalities).
func conjNew(known []presburger.Formula, f presburger.Formula) presburger.Formula {
	out := append([]presburger.Formula(nil), known...)
	var fs []presburger.Formula
	if a, ok := presburger.Conj(f).(presburger.And); ok {
		fs = a
	} else {
		fs = []presburger.Formula{f}
	}
next:
	for _, g := range fs {
		for _, k := range out {
			if reflect.DeepEqual(g, k) {
				continue next
			}
		}
		out = append(out, g)
	}
	return presburger.Conj(out...)
}

// astPtr returns a pointer to the first element of xs, nil when empty.
func astPtr(xs []C.Z3_ast) *C.Z3_ast {
	if len(xs) == 0 {
		return nil
	}
	return &xs[0]
}

// freshDecl declares a function with a name of Z3's choosing, so that
// relations of different calls in a reused context never clash.
func (z *zctx) freshDecl(prefix string, dom []C.Z3_sort, rng C.Z3_sort) C.Z3_func_decl {
	cs := C.CString(prefix)
	defer C.free(unsafe.Pointer(cs))
	var p *C.Z3_sort
	if len(dom) > 0 {
		p = &dom[0]
	}
	return C.Z3_mk_fresh_func_decl(z.c, cs, C.uint(len(dom)), p, rng)
}

// onlyVars restricts e to the variables vs.
func onlyVars(e env, vs []presburger.Var) env {
	out := make(env, len(vs))
	for _, v := range vs {
		out[v] = e[v]
	}
	return out
}

// domain returns the range constraints of dom on the variables e names
// (dom holds one bound per variable).
func (z *zctx) domain(dom []presburger.Bound, e env) []C.Z3_ast {
	var out []C.Z3_ast
	for _, b := range dom {
		if x, ok := e[b.Var]; ok {
			out = append(out, z.inRange(x, b))
		}
	}
	return out
}

// clauseBody translates f, in negation normal form, for the body of a
// Horn clause, without quantifiers: Spacer rejects them ("cannot process
// EXISTS quantifier"). An Exists that is not under a negation becomes
// fresh constants with its ranges conjoined; they are appended to extra,
// for the rule to quantify universally, which in the body of a clause is
// the same as existentially. A negated Exists is expanded into the
// negation of a disjunction over its (finite) ranges, up to maxExpand
// assignments; a larger one is an unsupportedError.
func (z *zctx) clauseBody(f presburger.Formula, e env, extra *[]C.Z3_ast) (C.Z3_ast, error) {
	bodies := func(fs []presburger.Formula) ([]C.Z3_ast, error) {
		out := make([]C.Z3_ast, len(fs))
		for i, g := range fs {
			a, err := z.clauseBody(g, e, extra)
			if err != nil {
				return nil, err
			}
			out[i] = a
		}
		return out, nil
	}
	switch f := f.(type) {
	case presburger.And:
		args, err := bodies(f)
		if err != nil {
			return nil, err
		}
		return z.and(args), nil
	case presburger.Or:
		args, err := bodies(f)
		if err != nil {
			return nil, err
		}
		return z.or(args), nil
	case presburger.Not:
		if ex, ok := f.F.(presburger.Exists); ok {
			d, err := presburger.Expand(ex, maxExpand)
			if err != nil {
				return nil, &unsupportedError{err.Error() + ", which the Horn translation needs for a negated Exists"}
			}
			return z.clauseBody(presburger.NNF(presburger.Negation(d)), e, extra)
		}
	case presburger.Exists:
		inner := make(env, len(e)+len(f.Vars))
		for v, x := range e {
			inner[v] = x
		}
		var conj []C.Z3_ast
		for _, b := range f.Vars {
			x := z.freshConst()
			inner[b.Var] = x
			*extra = append(*extra, x)
			conj = append(conj, z.inRange(x, b))
		}
		g, err := z.clauseBody(f.Body, inner, extra)
		if err != nil {
			return nil, err
		}
		return z.and(append(conj, g)), nil
	}
	return z.formula(f, e)
}

// interpretation finds the definition of pred in Spacer's answer to a
// safe query, a conjunction of "forall xs: pred(xs) = phi(xs)", and
// returns phi with each argument variable replaced by the constant of
// consts at its position.
func (z *zctx) interpretation(ans C.Z3_ast, pred C.Z3_func_decl, consts []C.Z3_ast) (C.Z3_ast, error) {
	c := z.c
	var conj []C.Z3_ast
	var flatten func(a C.Z3_ast)
	flatten = func(a C.Z3_ast) {
		if C.Z3_get_ast_kind(c, a) == C.Z3_APP_AST {
			app := C.Z3_to_app(c, a)
			if C.Z3_get_decl_kind(c, C.Z3_get_app_decl(c, app)) == C.Z3_OP_AND {
				for i := C.uint(0); i < C.Z3_get_app_num_args(c, app); i++ {
					flatten(C.Z3_get_app_arg(c, app, i))
				}
				return
			}
		}
		conj = append(conj, a)
	}
	flatten(ans)
	for _, k := range conj {
		body, nb := k, C.uint(0)
		if C.Z3_get_ast_kind(c, k) == C.Z3_QUANTIFIER_AST {
			if !C.Z3_is_quantifier_forall(c, k) {
				continue
			}
			body, nb = C.Z3_get_quantifier_body(c, k), C.Z3_get_quantifier_num_bound(c, k)
		}
		head, def, ok := z.definition(body, pred)
		if !ok {
			continue
		}
		// The arguments of the head are distinct bound variables; map each
		// to the constant of its position.
		to := make([]C.Z3_ast, nb)
		app := C.Z3_to_app(c, head)
		if int(C.Z3_get_app_num_args(c, app)) != len(consts) {
			return nil, fmt.Errorf("z3: invariant with %d arguments, want %d", int(C.Z3_get_app_num_args(c, app)), len(consts))
		}
		for i := range consts {
			a := C.Z3_get_app_arg(c, app, C.uint(i))
			if C.Z3_get_ast_kind(c, a) != C.Z3_VAR_AST {
				return nil, fmt.Errorf("z3: invariant defined on %s", z.str(head))
			}
			idx := C.Z3_get_index_value(c, a)
			if idx >= nb || to[idx] != nil {
				return nil, fmt.Errorf("z3: invariant defined on %s", z.str(head))
			}
			to[idx] = consts[i]
		}
		for i := range to {
			if to[i] == nil {
				// A bound variable that is no argument: the back
				// translation rejects the fresh constant if it occurs.
				to[i] = z.freshConst()
			}
		}
		if nb > 0 {
			def = C.Z3_substitute_vars(c, def, nb, &to[0])
		}
		return def, z.fail()
	}
	return nil, fmt.Errorf("z3: no definition of the invariant in %s", z.str(ans))
}

// definition matches a as "pred(xs) = phi" (either way round, or as an
// iff), "pred(xs)" (phi is true) or "not pred(xs)" (phi is false).
func (z *zctx) definition(a C.Z3_ast, pred C.Z3_func_decl) (head, def C.Z3_ast, ok bool) {
	c := z.c
	isPred := func(a C.Z3_ast) bool {
		return C.Z3_get_ast_kind(c, a) == C.Z3_APP_AST &&
			bool(C.Z3_is_eq_func_decl(c, C.Z3_get_app_decl(c, C.Z3_to_app(c, a)), pred))
	}
	if isPred(a) {
		return a, C.Z3_mk_true(c), true
	}
	if C.Z3_get_ast_kind(c, a) != C.Z3_APP_AST {
		return nil, nil, false
	}
	app := C.Z3_to_app(c, a)
	n := C.Z3_get_app_num_args(c, app)
	switch C.Z3_get_decl_kind(c, C.Z3_get_app_decl(c, app)) {
	case C.Z3_OP_NOT:
		if x := C.Z3_get_app_arg(c, app, 0); n == 1 && isPred(x) {
			return x, C.Z3_mk_false(c), true
		}
	case C.Z3_OP_EQ, C.Z3_OP_IFF:
		if n != 2 {
			break
		}
		l, r := C.Z3_get_app_arg(c, app, 0), C.Z3_get_app_arg(c, app, 1)
		switch {
		case isPred(l):
			return l, r, true
		case isPred(r):
			return r, l, true
		}
	}
	return nil, nil, false
}

// unroll searches for a shortest run into a bad state by bounded model
// checking with the plain solver, one step more at a time up to
// MaxUnroll, and then makes the parameters as small as their domain
// allows. It returns nil and a reason when it finds none (or runs out of
// time).
func (s *Solver) unroll(ctx context.Context, z *zctx, ts presburger.TransitionSystem) (*presburger.Counterexample, string, error) {
	c := z.c
	maxK := s.maxUnroll
	if maxK <= 0 {
		maxK = defaultMaxUnroll
	}
	sv := C.Z3_mk_simple_solver(c)
	if sv == nil {
		return nil, "", z.failOr("cannot create a solver")
	}
	C.Z3_solver_inc_ref(c, sv)
	z.solvers = append(z.solvers, sv)
	dom := presburger.Intersect(ts.Domain)

	params := make(env, len(ts.Params))
	for _, v := range ts.Params {
		params[v] = z.freshConst()
	}
	var states []env // states[k] names state k's variables
	var choices []C.Z3_ast
	assert := func(a C.Z3_ast) { C.Z3_solver_assert(c, sv, a) }
	newState := func() {
		st := make(env, len(ts.Vars))
		for _, v := range ts.Vars {
			st[v] = z.freshConst()
		}
		for _, a := range z.domain(dom, st) {
			assert(a)
		}
		states = append(states, st)
	}
	// at names the variables of step k: the parameters, state k and, as
	// Next, state k+1 when it exists.
	at := func(k int) env {
		e := make(env, len(params)+2*len(ts.Vars))
		for v, x := range params {
			e[v] = x
		}
		for i, v := range ts.Vars {
			e[v] = states[k][v]
			if k+1 < len(states) {
				e[ts.Next[i]] = states[k+1][v]
			}
		}
		return e
	}
	for _, a := range z.domain(dom, params) {
		assert(a)
	}
	newState()
	f, err := z.formula(ts.Init, at(0))
	if err != nil {
		return nil, "", err
	}
	assert(f)

	for k := 0; ; k++ {
		C.Z3_solver_push(c, sv)
		f, err := z.formula(ts.Bad, at(k))
		if err != nil {
			return nil, "", err
		}
		assert(f)
		r, reason, err := s.checkMore(ctx, z, sv)
		if err != nil || r == C.Z3_L_UNDEF {
			return nil, reason, err
		}
		if r == C.Z3_L_TRUE {
			run, reason, err := z.readRun(sv, ts, params, states, choices)
			if run == nil {
				return nil, reason, err
			}
			run, err = s.leastRun(ctx, z, sv, ts, dom, params, states, choices, run)
			return run, "", err
		}
		C.Z3_solver_pop(c, sv, 1)
		if k == maxK || len(ts.Trans) == 0 {
			return nil, fmt.Sprintf("no run of at most %d steps reaches one (see MaxUnroll)", k), nil
		}
		newState()
		ch := z.freshConst()
		choices = append(choices, ch)
		e := at(k)
		disj := make([]C.Z3_ast, len(ts.Trans))
		for i, t := range ts.Trans {
			for _, v := range ts.Locals(i) {
				e[v] = z.freshConst()
			}
			f, err := z.formula(t, e)
			if err != nil {
				return nil, "", err
			}
			disj[i] = z.and([]C.Z3_ast{C.Z3_mk_eq(c, ch, z.num(int64(i))), f})
		}
		assert(z.or(disj))
		if err := z.fail(); err != nil {
			return nil, "", err
		}
	}
}

// checkMore checks sv's assertions within what is left of the context's
// resource limit (newLimitedZctx), interruptible through ctx. Running
// out of either gives Z3_L_UNDEF and a reason. No timer of Z3's own is
// set: only the context's end cuts by time, so a check that answers
// answers the same on any machine.
func (s *Solver) checkMore(ctx context.Context, z *zctx, sv C.Z3_solver) (C.Z3_lbool, string, error) {
	if err := ctx.Err(); err != nil {
		return C.Z3_L_UNDEF, "counterexample search: " + err.Error(), nil
	}
	stop := z.watch(ctx.Done())
	r := C.Z3_solver_check(z.c, sv)
	stop()
	if err := z.fail(); err != nil {
		if interrupted(ctx, err) {
			return C.Z3_L_UNDEF, "counterexample search: " + unknownReason(ctx, err.Error()), nil
		}
		return C.Z3_L_UNDEF, "", err
	}
	if r == C.Z3_L_UNDEF {
		return r, "counterexample search: " + unknownReason(ctx, C.GoString(C.Z3_solver_get_reason_unknown(z.c, sv))), nil
	}
	return r, "", nil
}

// readRun reads the run of a Sat unrolling from sv's model. A value
// beyond int64 gives nil and a reason.
func (z *zctx) readRun(sv C.Z3_solver, ts presburger.TransitionSystem, params env, states []env, choices []C.Z3_ast) (*presburger.Counterexample, string, error) {
	m, err := z.solverModel(sv)
	if err != nil && z.interrupted {
		// Interrupted as the check ended: sat, and then no model.
		return nil, "counterexample search: interrupted", nil
	}
	if err != nil {
		return nil, "", err
	}
	run := &presburger.Counterexample{Params: presburger.Model{}}
	var firstErr error
	read := func(a C.Z3_ast, what string) int64 {
		x, err := z.intValue(m, a, what)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return x
	}
	for _, v := range ts.Params {
		run.Params[v] = read(params[v], fmt.Sprintf("parameter %d", v))
	}
	for k, st := range states {
		state := presburger.Model{}
		for _, v := range ts.Vars {
			state[v] = read(st[v], fmt.Sprintf("variable %d in state %d", v, k))
		}
		run.States = append(run.States, state)
	}
	for k, ch := range choices {
		run.Steps = append(run.Steps, int(read(ch, fmt.Sprintf("the transition of step %d", k))))
	}
	switch {
	case errors.Is(firstErr, errNotInt64):
		return nil, "counterexample search: " + firstErr.Error(), nil
	case firstErr != nil:
		return nil, "", firstErr
	}
	return run, "", nil
}

// leastRun lowers the parameters of run, one after the other in the
// order of Params, each to the least value (by binary search down to its
// domain's lower bound) for which a run of the same length still reaches
// a bad state with the parameters before it fixed; then, step by step,
// the index of the transition taken, likewise. A parameter without a
// lower bound is left alone, and so is the rest once the budget runs
// out: run is a valid counterexample at every point.
func (s *Solver) leastRun(ctx context.Context, z *zctx, sv C.Z3_solver, ts presburger.TransitionSystem,
	dom []presburger.Bound, params env, states []env, choices []C.Z3_ast, run *presburger.Counterexample) (*presburger.Counterexample, error) {
	c := z.c
	// lower lowers the value x has in run, read by value, down to lo,
	// and then fixes it; ok is false when the solver stopped (run is
	// still a counterexample then).
	lower := func(x C.Z3_ast, lo int64, value func(*presburger.Counterexample) int64) (ok bool, err error) {
		hi := value(run)
		for lo < hi {
			mid := lo + (hi-lo)/2
			if _, ok := checked.Add(hi, -lo); !ok {
				mid = lo/2 + hi/2 // hi - lo would wrap
			}
			C.Z3_solver_push(c, sv)
			C.Z3_solver_assert(c, sv, C.Z3_mk_le(c, x, z.num(mid)))
			r, _, err := s.checkMore(ctx, z, sv)
			if err != nil || r == C.Z3_L_UNDEF {
				C.Z3_solver_pop(c, sv, 1)
				return false, err
			}
			if r == C.Z3_L_FALSE {
				lo = mid + 1
			} else {
				better, _, err := z.readRun(sv, ts, params, states, choices)
				if err != nil || better == nil {
					C.Z3_solver_pop(c, sv, 1)
					return false, err
				}
				run, hi = better, value(better)
			}
			C.Z3_solver_pop(c, sv, 1)
		}
		C.Z3_solver_assert(c, sv, C.Z3_mk_eq(c, x, z.num(hi)))
		return true, nil
	}
	least := make(map[presburger.Var]presburger.Bound, len(dom))
	for _, b := range dom {
		least[b.Var] = b
	}
	for _, v := range ts.Params {
		if b := least[v]; !b.NoLo {
			if ok, err := lower(params[v], b.Lo, func(r *presburger.Counterexample) int64 { return r.Params[v] }); !ok {
				return run, err
			}
		}
	}
	// Then the transition of each step, least index first, step by step:
	// with the parameters fixed, the steps fix the run, so the run
	// answered is the same whatever model Z3 happened to give (which
	// depends on what the pooled context solved before).
	for i, ch := range choices {
		if ok, err := lower(ch, 0, func(r *presburger.Counterexample) int64 { return int64(r.Steps[i]) }); !ok {
			return run, err
		}
	}
	return run, z.fail()
}

// maxExpand bounds the assignments a negated Exists may expand into.
const maxExpand = 1024

// unsupportedError marks a system the Horn translation cannot state;
// Prove answers Undecided with its message.
type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string { return e.msg }
