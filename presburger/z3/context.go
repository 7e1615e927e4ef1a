package z3

/*
#include <stdlib.h>
#include "z3api.h"

extern void vsymZ3Error(Z3_context, Z3_error_code);

// newContext makes a context without AST reference counting (ASTs live
// until the context is deleted, which suits our one-context-per-call use)
// and installs the Go error handler: Z3's default handler exits the
// process. rlimit, when not NULL, is Z3's resource limit for all the
// work done in the context (a decimal number).
static Z3_context newContext(const char *rlimit) {
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	if (rlimit != NULL) {
		Z3_set_param_value(cfg, "rlimit", rlimit);
	}
	Z3_context c = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	if (c != NULL) {
		Z3_set_error_handler(c, vsymZ3Error);
	}
	return c;
}

// prepareHeap readies the C heap for Z3, once per process, before the
// first context. A Z3 4.8.12 context allocates and initialises about
// 17 MB as it is made: the hash-consing tables (ast_table: 512K slots
// and 8K overflow cells of 16 bytes, a constant of Z3's source) of its
// ast_manager and of the second ast_manager it makes for pretty
// printing, 8.5 MB each. glibc would map that memory afresh and the
// kernel would fault it in 4 KB page by page: on the 2-CPU virtual
// machine of BENCHMARKS.md that was 55-80 ms of CPU, more than half of
// a whole "vsym prove" on a small net. Instead the heap is grown once by
// 60 MB of address space (nothing is touched), which is marked for
// transparent huge pages and kept: glibc is told to serve blocks up to
// 32 MB from that heap and not to give its top back. The part of the
// span before its first 2 MB boundary cannot be a huge page; a block
// that ends at the boundary, never touched and never freed, keeps Z3's
// memory out of it. A context is then made in a handful of 2 MB faults
// (about 4 ms). Nothing here changes what Z3 computes; each step is a
// hint the kernel or libc may refuse, and then Z3 runs as before.
//
// oneArena, run when the program is loaded, before the Go runtime
// starts a thread, keeps glibc to its one main arena: by default each
// thread gets an arena of its own at its first malloc or free, and cgo
// calls run on any of the runtime's threads, so that a context's later
// allocations (one Solve runs on one thread, the next on another) were
// spread over arenas that prepareHeap never saw, each faulted in 4 KB
// at a time.
#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
__attribute__((constructor)) static void oneArena(void) {
	mallopt(M_ARENA_MAX, 1);
}
static void prepareHeap(void) {
	const size_t chunk = 30 << 20, huge = 2 << 20;
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	char *a = malloc(chunk), *b = malloc(chunk);
	uintptr_t head = (uintptr_t)a, lo = 0;
	// Two blocks of the heap, one after the other: advise their span.
	if (a != NULL && b != NULL && b > a && (size_t)(b - a) < chunk + huge) {
		lo = ((uintptr_t)a + huge - 1) & ~(uintptr_t)(huge - 1);
		uintptr_t hi = ((uintptr_t)b + chunk) & ~(uintptr_t)(huge - 1);
		if (hi <= lo || madvise((void *)lo, hi - lo, MADV_HUGEPAGE) != 0) {
			lo = 0;
		}
	}
	free(b);
	free(a);
	// The block before the span's first 2 MB boundary, where a was.
	if (lo > head + 64) {
		char *pad = malloc(lo - head - 32);
		if ((uintptr_t)pad != head) {
			free(pad);
		}
	}
}
#else
static void prepareHeap(void) {}
#endif
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

func key(c C.Z3_context) uintptr { return uintptr(unsafe.Pointer(c)) }

// zctx is one Z3 context, used by a single Solve or Project call. Only
// interrupt may be called from another goroutine.
type zctx struct {
	c     C.Z3_context
	errMu sync.Mutex
	err   error // first error reported by Z3's error handler

	intSort C.Z3_sort
	nextSym C.int

	vars   map[presburger.Var]C.Z3_ast // free variables
	byID   map[C.uint]presburger.Var   // AST id of a free variable's constant -> Var
	hasQnt bool                        // the translated formula has a quantifier

	mu          sync.Mutex // guards closed and interrupted against interrupt
	closed      bool
	interrupted bool // Z3_interrupt was called: do not reuse
	uses        int  // calls served, for the pool
	built       int  // comparisons and their terms' monomials translated, for the pool
	limited     bool // made with a resource limit: never pooled

	// refs are the non-AST objects we hold a reference on; Z3 reference
	// counts those even in a context made by Z3_mk_context.
	solvers []C.Z3_solver
	params  []C.Z3_params
	models  []C.Z3_model
	tactics []C.Z3_tactic
	goals   []C.Z3_goal
	results []C.Z3_apply_result
	fixeds  []C.Z3_fixedpoint
}

var errNoContext = errors.New("z3: cannot create a context")

func newZctx() (*zctx, error) { return newLimitedZctx(0) }

// heapOnce prepares the C heap before the first context (prepareHeap).
var heapOnce sync.Once

// maxWork is the largest resource limit Z3 takes (an unsigned int).
const maxWork = math.MaxUint32

// newLimitedZctx makes a context in which Z3 does at most work units of
// its resource limit (rlimit) in all, counted from its creation; zero
// means no limit. Z3 counts the same units on every machine, whatever
// its load, so a call that runs out of them runs out everywhere.
func newLimitedZctx(work int64) (*zctx, error) {
	if err := loadLibrary(); err != nil {
		return nil, err
	}
	heapOnce.Do(func() { C.prepareHeap() })
	var rlimit *C.char
	if work > 0 {
		rlimit = C.CString(strconv.FormatInt(min(work, maxWork), 10))
		defer C.free(unsafe.Pointer(rlimit))
	}
	c := C.newContext(rlimit)
	if c == nil {
		return nil, errNoContext
	}
	z := &zctx{
		c:       c,
		vars:    map[presburger.Var]C.Z3_ast{},
		byID:    map[C.uint]presburger.Var{},
		limited: work > 0,
	}
	live.Store(key(c), z)
	z.intSort = C.Z3_mk_int_sort(c)
	return z, nil
}

// close releases every object and the context itself.
func (z *zctx) close() {
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.closed {
		return
	}
	z.closed = true
	z.dropObjects()
	live.Delete(key(z.c))
	C.Z3_del_context(z.c)
}

// dropObjects releases the non-AST objects of a call.
func (z *zctx) dropObjects() {
	c := z.c
	for _, f := range z.fixeds {
		C.Z3_fixedpoint_dec_ref(c, f)
	}
	for _, r := range z.results {
		C.Z3_apply_result_dec_ref(c, r)
	}
	for _, g := range z.goals {
		C.Z3_goal_dec_ref(c, g)
	}
	for _, t := range z.tactics {
		C.Z3_tactic_dec_ref(c, t)
	}
	for _, m := range z.models {
		C.Z3_model_dec_ref(c, m)
	}
	for _, p := range z.params {
		C.Z3_params_dec_ref(c, p)
	}
	for _, s := range z.solvers {
		C.Z3_solver_dec_ref(c, s)
	}
	z.results, z.goals, z.tactics = z.results[:0], z.goals[:0], z.tactics[:0]
	z.models, z.params, z.solvers = z.models[:0], z.params[:0], z.solvers[:0]
	z.fixeds = z.fixeds[:0]
}

// interrupt stops whatever Z3 is running in the context; safe from any
// goroutine and after close.
func (z *zctx) interrupt() {
	z.mu.Lock()
	defer z.mu.Unlock()
	if !z.closed {
		z.interrupted = true
		C.Z3_interrupt(z.c)
	}
}

// Creating a Z3 context costs milliseconds, far more than a typical
// query, so contexts are reused, from one pool for Solve and one for
// Project. A context made by Z3_mk_context keeps every AST until it is
// deleted, so each is retired after a number of calls to bound its
// memory; one that saw an error or an interrupt is retired at once,
// since Z3 may keep state (a cancel flag) from it. Solve's queries are
// many and small (the lemma filter asks hundreds), and a context serves
// 1024 of them: retiring it after 64 made creating contexts a sixth of
// the time of a proof. Project's tactics slow down in a context with a
// long history (one projection of TestProjectAgainstBruteForce went from
// milliseconds to over 10 s in a context that had served hundreds of
// calls), so its contexts serve 64.
type contextPool struct {
	sync.Mutex
	idle    []*zctx
	maxUses int
}

const maxIdle = 8

// maxBuilt retires a context that has translated this many comparisons
// and monomials (about as many ASTs, which it keeps): a few queries the
// size of a large model's transition relation. The lemma filter on a
// translation of Cubicle's German protocol (327 local states, 830
// transitions) asks its batched question of every step at once a few
// hundred times; its contexts, retired after 1024 calls alone, grew
// to 3.9 GB in two minutes. The count is of work, so a context is
// retired at the same call on every machine.
const maxBuilt = 4_000_000

var (
	solvePool   = &contextPool{maxUses: 1024}
	projectPool = &contextPool{maxUses: 64}
)

// DropIdleContexts deletes the contexts that Solve and Project keep for
// reuse, so that the calls that follow start in fresh contexts, as the
// first calls of a process do: the model Z3 finds, and so a witness
// printed from it, can depend on what a reused context holds. It is for
// a program that runs independent jobs one after another in one process
// and wants each answered as if alone (internal/cli's tests run vsym's
// command lines so). Calls running meanwhile keep their contexts.
func DropIdleContexts() {
	for _, p := range []*contextPool{solvePool, projectPool} {
		p.Lock()
		idle := p.idle
		p.idle = nil
		p.Unlock()
		for _, z := range idle {
			z.close()
		}
	}
}

// acquire returns a context of the pool for the exclusive use of one
// call.
func (p *contextPool) acquire() (*zctx, error) {
	p.Lock()
	if n := len(p.idle); n > 0 {
		z := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.Unlock()
		return z, nil
	}
	p.Unlock()
	return newZctx()
}

// release ends a call: it drops the call's objects and returns z to the
// pool, or deletes it when reuse is unsafe or the pool is full. clean
// says the call ended normally (no error, no Unknown).
func (p *contextPool) release(z *zctx, clean bool) {
	z.uses++
	if !clean || z.fail() != nil || z.interrupted || z.limited || z.uses >= p.maxUses || z.built >= maxBuilt {
		z.close()
		return
	}
	z.dropObjects()
	clear(z.vars)
	clear(z.byID)
	z.hasQnt = false
	p.Lock()
	if len(p.idle) < maxIdle {
		p.idle = append(p.idle, z)
		p.Unlock()
		return
	}
	p.Unlock()
	z.close()
}

// watch interrupts z as soon as done is closed, and keeps interrupting
// every few milliseconds until stop is closed: Z3_interrupt only reaches
// a procedure that is already running, so one call could be lost if it
// came just before the solver started.
func (z *zctx) watch(done <-chan struct{}) (stop func()) {
	if done == nil {
		return func() {}
	}
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-quit:
			return
		case <-done:
		}
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			z.interrupt()
			select {
			case <-quit:
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(quit)
		<-finished
	}
}

// setErr records the first error Z3 reports.
func (z *zctx) setErr(err error) {
	z.errMu.Lock()
	defer z.errMu.Unlock()
	if z.err == nil {
		z.err = err
	}
}

// fail returns the first error Z3 reported in this context, if any.
func (z *zctx) fail() error {
	z.errMu.Lock()
	defer z.errMu.Unlock()
	return z.err
}

// freshConst returns a new integer constant with a unique name.
func (z *zctx) freshConst() C.Z3_ast {
	s := C.Z3_mk_int_symbol(z.c, z.nextSym)
	z.nextSym++
	return C.Z3_mk_const(z.c, s, z.intSort)
}

// declare makes v a free variable of the problem.
func (z *zctx) declare(v presburger.Var) C.Z3_ast {
	if a, ok := z.vars[v]; ok {
		return a
	}
	a := z.freshConst()
	z.vars[v] = a
	z.byID[C.Z3_get_ast_id(z.c, a)] = v
	return a
}

// declareBounds declares the variable of each bound: the environment
// that formulas over them read, and the assertions of their ranges.
func (z *zctx) declareBounds(bounds []presburger.Bound) (env, []C.Z3_ast) {
	e := env{}
	var asserts []C.Z3_ast
	for _, b := range bounds {
		x := z.declare(b.Var)
		e[b.Var] = x
		asserts = append(asserts, z.inRange(x, b))
	}
	return e, asserts
}

func (z *zctx) num(k int64) C.Z3_ast {
	return C.Z3_mk_int64(z.c, C.int64_t(k), z.intSort)
}

func (z *zctx) and(args []C.Z3_ast) C.Z3_ast {
	switch len(args) {
	case 0:
		return C.Z3_mk_true(z.c)
	case 1:
		return args[0]
	}
	return C.Z3_mk_and(z.c, C.uint(len(args)), &args[0])
}

func (z *zctx) or(args []C.Z3_ast) C.Z3_ast {
	switch len(args) {
	case 0:
		return C.Z3_mk_false(z.c)
	case 1:
		return args[0]
	}
	return C.Z3_mk_or(z.c, C.uint(len(args)), &args[0])
}

// inRange is lo <= x <= hi, without the side of an open range (true for
// AnyInt).
func (z *zctx) inRange(x C.Z3_ast, b presburger.Bound) C.Z3_ast {
	var side []C.Z3_ast
	if !b.NoLo {
		side = append(side, C.Z3_mk_ge(z.c, x, z.num(b.Lo)))
	}
	if !b.NoHi {
		side = append(side, C.Z3_mk_le(z.c, x, z.num(b.Hi)))
	}
	return z.and(side)
}

// env maps variables to Z3 constants while translating: bound variables
// of an Exists shadow free ones.
type env map[presburger.Var]C.Z3_ast

func (z *zctx) term(t presburger.Term, e env) (C.Z3_ast, error) {
	var args []C.Z3_ast
	for _, m := range t.Monos {
		x, ok := e[m.Var]
		if !ok {
			return nil, fmt.Errorf("z3: variable %d has no bound", m.Var)
		}
		if m.Coef == 1 {
			args = append(args, x)
			continue
		}
		f := []C.Z3_ast{z.num(m.Coef), x}
		args = append(args, C.Z3_mk_mul(z.c, 2, &f[0]))
	}
	if t.Const != 0 || len(args) == 0 {
		args = append(args, z.num(t.Const))
	}
	if len(args) == 1 {
		return args[0], nil
	}
	return C.Z3_mk_add(z.c, C.uint(len(args)), &args[0]), nil
}

// formula translates f; e maps every variable in scope to its constant.
func (z *zctx) formula(f presburger.Formula, e env) (C.Z3_ast, error) {
	switch f := f.(type) {
	case presburger.Bool:
		if f {
			return C.Z3_mk_true(z.c), nil
		}
		return C.Z3_mk_false(z.c), nil
	case presburger.Cmp:
		z.built += 1 + len(f.T.Monos)
		t, err := z.term(f.T, e)
		if err != nil {
			return nil, err
		}
		zero := z.num(0)
		switch f.Op {
		case presburger.Eq:
			return C.Z3_mk_eq(z.c, t, zero), nil
		case presburger.Ne:
			return C.Z3_mk_not(z.c, C.Z3_mk_eq(z.c, t, zero)), nil
		case presburger.Lt:
			return C.Z3_mk_lt(z.c, t, zero), nil
		case presburger.Le:
			return C.Z3_mk_le(z.c, t, zero), nil
		case presburger.Gt:
			return C.Z3_mk_gt(z.c, t, zero), nil
		case presburger.Ge:
			return C.Z3_mk_ge(z.c, t, zero), nil
		}
		return nil, fmt.Errorf("z3: unknown comparison operator %d", int(f.Op))
	case presburger.Not:
		g, err := z.formula(f.F, e)
		if err != nil {
			return nil, err
		}
		return C.Z3_mk_not(z.c, g), nil
	case presburger.And:
		args, err := z.formulas(f, e)
		if err != nil {
			return nil, err
		}
		return z.and(args), nil
	case presburger.Or:
		args, err := z.formulas(f, e)
		if err != nil {
			return nil, err
		}
		return z.or(args), nil
	case presburger.Exists:
		return z.exists(f.Vars, f.Body, e)
	case nil:
		return nil, errors.New("z3: nil formula")
	}
	return nil, fmt.Errorf("z3: unknown formula type %T", f)
}

func (z *zctx) formulas(fs []presburger.Formula, e env) ([]C.Z3_ast, error) {
	out := make([]C.Z3_ast, len(fs))
	for i, g := range fs {
		a, err := z.formula(g, e)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// exists translates "exists vs in their ranges: body" with fresh
// constants for vs, the range constraints conjoined inside the body.
func (z *zctx) exists(vs []presburger.Bound, body presburger.Formula, e env) (C.Z3_ast, error) {
	if len(vs) == 0 {
		return z.formula(body, e)
	}
	inner := make(env, len(e)+len(vs))
	for v, a := range e {
		inner[v] = a
	}
	apps := make([]C.Z3_app, 0, len(vs))
	var conj []C.Z3_ast
	for _, b := range vs {
		x := z.freshConst()
		inner[b.Var] = x
		apps = append(apps, C.Z3_to_app(z.c, x))
		conj = append(conj, z.inRange(x, b))
	}
	g, err := z.formula(body, inner)
	if err != nil {
		return nil, err
	}
	z.hasQnt = true
	conj = append(conj, g)
	return C.Z3_mk_exists_const(z.c, 0, C.uint(len(apps)), &apps[0], 0, nil, z.and(conj)), nil
}

// timeoutMS converts d to Z3's millisecond timeout, at least 1.
func timeoutMS(d time.Duration) C.uint {
	ms := d.Milliseconds()
	if ms < 1 {
		ms = 1
	}
	if ms > 1<<31 {
		ms = 1 << 31
	}
	return C.uint(ms)
}

// --- from Z3 back to presburger ---

// back translates a quantifier-free Z3 formula over the declared free
// variables into a presburger.Formula.
func (z *zctx) back(a C.Z3_ast) (presburger.Formula, error) {
	c := z.c
	switch C.Z3_get_ast_kind(c, a) {
	case C.Z3_APP_AST:
	case C.Z3_QUANTIFIER_AST:
		return nil, errors.New("z3: quantifier left after elimination")
	default:
		return nil, fmt.Errorf("z3: unexpected formula %s", z.str(a))
	}
	app := C.Z3_to_app(c, a)
	n := int(C.Z3_get_app_num_args(c, app))
	arg := func(i int) C.Z3_ast { return C.Z3_get_app_arg(c, app, C.uint(i)) }
	args := func() ([]presburger.Formula, error) {
		out := make([]presburger.Formula, n)
		for i := range out {
			f, err := z.back(arg(i))
			if err != nil {
				return nil, err
			}
			out[i] = f
		}
		return out, nil
	}
	kind := C.Z3_get_decl_kind(c, C.Z3_get_app_decl(c, app))
	switch kind {
	case C.Z3_OP_TRUE:
		return presburger.True, nil
	case C.Z3_OP_FALSE:
		return presburger.False, nil
	case C.Z3_OP_AND, C.Z3_OP_OR:
		fs, err := args()
		if err != nil {
			return nil, err
		}
		if kind == C.Z3_OP_AND {
			return presburger.Conj(fs...), nil
		}
		return presburger.Disj(fs...), nil
	case C.Z3_OP_NOT:
		fs, err := args()
		if err != nil || len(fs) != 1 {
			return nil, z.arity(err, a)
		}
		return presburger.Negation(fs[0]), nil
	case C.Z3_OP_IMPLIES:
		fs, err := args()
		if err != nil || len(fs) != 2 {
			return nil, z.arity(err, a)
		}
		return presburger.Implies(fs[0], fs[1]), nil
	case C.Z3_OP_IFF, C.Z3_OP_XOR:
		fs, err := args()
		if err != nil || len(fs) != 2 {
			return nil, z.arity(err, a)
		}
		f := presburger.Iff(fs[0], fs[1])
		if kind == C.Z3_OP_XOR {
			f = presburger.Negation(f)
		}
		return f, nil
	case C.Z3_OP_ITE:
		if n != 3 || !z.isBool(arg(1)) {
			return nil, fmt.Errorf("z3: cannot express %s", z.str(a))
		}
		fs, err := args()
		if err != nil {
			return nil, err
		}
		return presburger.Disj(presburger.Conj(fs[0], fs[1]), presburger.Conj(presburger.Negation(fs[0]), fs[2])), nil
	case C.Z3_OP_EQ, C.Z3_OP_DISTINCT, C.Z3_OP_LE, C.Z3_OP_GE, C.Z3_OP_LT, C.Z3_OP_GT:
		if n < 2 {
			return nil, z.arity(nil, a)
		}
		if z.isBool(arg(0)) {
			if kind != C.Z3_OP_EQ && kind != C.Z3_OP_DISTINCT || n != 2 {
				return nil, fmt.Errorf("z3: cannot express %s", z.str(a))
			}
			fs, err := args()
			if err != nil {
				return nil, err
			}
			if kind == C.Z3_OP_EQ {
				return presburger.Iff(fs[0], fs[1]), nil
			}
			return presburger.Negation(presburger.Iff(fs[0], fs[1])), nil
		}
		ts := make([]presburger.Term, n)
		for i := range ts {
			t, err := z.backTerm(arg(i))
			if err != nil {
				return nil, err
			}
			ts[i] = t
		}
		if kind == C.Z3_OP_DISTINCT {
			var out []presburger.Formula
			for i := range ts {
				for j := i + 1; j < n; j++ {
					f, err := compareTerms(ts[i], presburger.Ne, ts[j])
					if err != nil {
						return nil, err
					}
					out = append(out, f)
				}
			}
			return presburger.Conj(out...), nil
		}
		op := map[C.Z3_decl_kind]presburger.Op{
			C.Z3_OP_EQ: presburger.Eq, C.Z3_OP_LE: presburger.Le, C.Z3_OP_GE: presburger.Ge,
			C.Z3_OP_LT: presburger.Lt, C.Z3_OP_GT: presburger.Gt,
		}[kind]
		// Chained comparisons (a <= b <= c) relate neighbours.
		var out []presburger.Formula
		for i := 0; i+1 < n; i++ {
			f, err := compareTerms(ts[i], op, ts[i+1])
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
		return presburger.Conj(out...), nil
	}
	return nil, fmt.Errorf("z3: cannot express %s", z.str(a))
}

func (z *zctx) arity(err error, a C.Z3_ast) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("z3: unexpected arity in %s", z.str(a))
}

func (z *zctx) isBool(a C.Z3_ast) bool {
	return C.Z3_get_sort_kind(z.c, C.Z3_get_sort(z.c, a)) == C.Z3_BOOL_SORT
}

// str prints a for error messages, shortened.
func (z *zctx) str(a C.Z3_ast) string {
	s := C.GoString(C.Z3_ast_to_string(z.c, a))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// backTerm translates a linear integer term, with overflow checks.
func (z *zctx) backTerm(a C.Z3_ast) (presburger.Term, error) {
	c := z.c
	switch C.Z3_get_ast_kind(c, a) {
	case C.Z3_NUMERAL_AST:
		var k C.int64_t
		if !bool(C.Z3_get_numeral_int64(c, a, &k)) || !inLimit(int64(k)) {
			return presburger.Term{}, fmt.Errorf("z3: numeral %s out of range", z.str(a))
		}
		if C.Z3_get_sort_kind(c, C.Z3_get_sort(c, a)) != C.Z3_INT_SORT {
			return presburger.Term{}, fmt.Errorf("z3: non-integer numeral %s", z.str(a))
		}
		return presburger.ConstTerm(int64(k)), nil
	case C.Z3_APP_AST:
	default:
		return presburger.Term{}, fmt.Errorf("z3: cannot express term %s", z.str(a))
	}
	app := C.Z3_to_app(c, a)
	n := int(C.Z3_get_app_num_args(c, app))
	ts := make([]presburger.Term, n)
	for i := range ts {
		t, err := z.backTerm(C.Z3_get_app_arg(c, app, C.uint(i)))
		if err != nil {
			return presburger.Term{}, err
		}
		ts[i] = t
	}
	switch C.Z3_get_decl_kind(c, C.Z3_get_app_decl(c, app)) {
	case C.Z3_OP_UNINTERPRETED:
		if n == 0 {
			if v, ok := z.byID[C.Z3_get_ast_id(c, a)]; ok {
				return presburger.VarTerm(v), nil
			}
		}
	case C.Z3_OP_ADD:
		var s presburger.Term
		for _, t := range ts {
			var err error
			if s, err = addTerms(s, t); err != nil {
				return presburger.Term{}, err
			}
		}
		return s, nil
	case C.Z3_OP_SUB:
		if n == 0 {
			break
		}
		s := ts[0]
		for _, t := range ts[1:] {
			nt, err := scaleTerm(t, -1)
			if err != nil {
				return presburger.Term{}, err
			}
			if s, err = addTerms(s, nt); err != nil {
				return presburger.Term{}, err
			}
		}
		return s, nil
	case C.Z3_OP_UMINUS:
		if n == 1 {
			return scaleTerm(ts[0], -1)
		}
	case C.Z3_OP_MUL:
		// Linear: at most one factor has variables.
		p := presburger.ConstTerm(1)
		for _, t := range ts {
			var err error
			switch {
			case t.IsConst():
				p, err = scaleTerm(p, t.Const)
			case p.IsConst():
				p, err = scaleTerm(t, p.Const)
			default:
				return presburger.Term{}, fmt.Errorf("z3: nonlinear term %s", z.str(a))
			}
			if err != nil {
				return presburger.Term{}, err
			}
		}
		return p, nil
	}
	return presburger.Term{}, fmt.Errorf("z3: cannot express term %s", z.str(a))
}

var errOverflow = errors.New("z3: integer overflow in eliminated formula")

// inLimit reports whether x is within checked.Limit in magnitude. Every
// constant and coefficient read back from Z3 is kept so: negating such a
// value cannot overflow, and the checked operations below catch the rest.
func inLimit(x int64) bool { return -checked.Limit <= x && x <= checked.Limit }

// addTerms and scaleTerm are Term.Add and Term.Scale with overflow checks:
// they fail when a coefficient or the constant of the result is beyond
// checked.Limit in magnitude.
func addTerms(t, u presburger.Term) (presburger.Term, error) {
	if _, ok := checked.Add(t.Const, u.Const); !ok {
		return presburger.Term{}, errOverflow
	}
	coef := map[presburger.Var]int64{}
	for _, m := range t.Monos {
		coef[m.Var] = m.Coef
	}
	for _, m := range u.Monos {
		if _, ok := checked.Add(coef[m.Var], m.Coef); !ok {
			return presburger.Term{}, errOverflow
		}
	}
	s := t.Add(u)
	if !inLimit(s.Const) {
		return presburger.Term{}, errOverflow
	}
	for _, m := range s.Monos {
		if !inLimit(m.Coef) {
			return presburger.Term{}, errOverflow
		}
	}
	return s, nil
}

func scaleTerm(t presburger.Term, k int64) (presburger.Term, error) {
	if _, ok := checked.Mul(t.Const, k); !ok {
		return presburger.Term{}, errOverflow
	}
	for _, m := range t.Monos {
		if _, ok := checked.Mul(m.Coef, k); !ok {
			return presburger.Term{}, errOverflow
		}
	}
	return t.Scale(k), nil
}

// compareTerms is presburger.Compare with the subtraction l - r checked:
// two values within the limit may still differ by 2^63, which would wrap.
func compareTerms(l presburger.Term, op presburger.Op, r presburger.Term) (presburger.Formula, error) {
	neg, err := scaleTerm(r, -1)
	if err != nil {
		return nil, err
	}
	d, err := addTerms(l, neg)
	if err != nil {
		return nil, err
	}
	return presburger.Compare(d, op, presburger.Term{}), nil
}
