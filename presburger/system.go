package presburger

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// TransitionSystem is a safety question about an infinite-state system
// over the integers: can a run from an initial state reach a bad state?
//
// A state assigns an integer to each of Vars; Params are constants that
// keep their value along a run (group sizes, say). A run is a choice of
// parameter values and a sequence of states s0, s1, ..., sk such that
//
//   - the parameters and every state lie in Domain,
//   - Init holds in s0,
//   - each step from s(j) to s(j+1) satisfies some Trans[i], read with
//     Vars as s(j), Next as s(j+1) and some values of its local variables.
//
// The system is safe when no run ends in a state where Bad holds.
//
// Next[i] is the primed copy of Vars[i]: the name of its value after a
// step, used only in Trans. A free variable of Trans[i] that is none of
// Vars, Next and Params is local to that transition: it is existentially
// quantified over all integers, afresh at each step (a nondeterministic
// amount, say). Init and Bad may only read Vars and Params.
//
// Domain gives the range of every state variable and parameter; each of
// them needs at least one bound (one bounded twice lies in the
// intersection), which may be open: AtLeast(x, 0) for a counter,
// AtLeast(n, 1) for a group size of at least one, AnyInt(v) for no
// constraint at all. The ranges of Vars hold in every state of a run, the
// target of a step included: a transition that would leave the domain is
// not taken.
type TransitionSystem struct {
	Vars   []Var
	Next   []Var
	Params []Var
	Domain []Bound
	Init   Formula
	Trans  []Formula
	Bad    Formula
}

// Check reports the first malformation of ts: Vars and Next of different
// lengths, a variable used twice among Vars, Next and Params, a state
// variable or parameter without a Domain bound or a Domain bound on any
// other variable, an empty range, a nil formula, Init or Bad reading a
// variable that is neither a state variable nor a parameter, or an Exists
// over an open range.
func (ts TransitionSystem) Check() error {
	if len(ts.Vars) != len(ts.Next) {
		return fmt.Errorf("presburger: %d state variables but %d next-state variables", len(ts.Vars), len(ts.Next))
	}
	role := map[Var]string{}
	for _, g := range []struct {
		vs   []Var
		role string
	}{{ts.Vars, "state variable"}, {ts.Next, "next-state variable"}, {ts.Params, "parameter"}} {
		for _, v := range g.vs {
			if r, ok := role[v]; ok {
				return fmt.Errorf("presburger: variable %d is both a %s and a %s", v, r, g.role)
			}
			role[v] = g.role
		}
	}
	bounded := map[Var]bool{}
	for _, b := range ts.Domain {
		if r := role[b.Var]; r != "state variable" && r != "parameter" {
			return fmt.Errorf("presburger: domain bound on variable %d, which is not a state variable or parameter", b.Var)
		}
		if b.Empty() {
			return fmt.Errorf("presburger: empty range %s for variable %d", b.Range(), b.Var)
		}
		bounded[b.Var] = true
	}
	for _, vs := range [][]Var{ts.Vars, ts.Params} {
		for _, v := range vs {
			if !bounded[v] {
				return fmt.Errorf("presburger: %s %d has no domain bound", role[v], v)
			}
		}
	}
	check := func(what string, f Formula, stateOnly bool) error {
		if f == nil {
			return fmt.Errorf("presburger: %s is nil", what)
		}
		if stateOnly {
			for _, v := range FreeVars(f) {
				if r := role[v]; r != "state variable" && r != "parameter" {
					return fmt.Errorf("presburger: %s reads variable %d, which is not a state variable or parameter", what, v)
				}
			}
		}
		if err := checkExistsRanges(f); err != nil {
			return fmt.Errorf("%w (in %s)", err, what)
		}
		return nil
	}
	if err := check("Init", ts.Init, true); err != nil {
		return err
	}
	if err := check("Bad", ts.Bad, true); err != nil {
		return err
	}
	for i, t := range ts.Trans {
		if err := check(fmt.Sprintf("Trans[%d]", i), t, false); err != nil {
			return err
		}
	}
	return nil
}

// Locals returns the local variables of ts.Trans[i], sorted: its free
// variables that are neither state, next-state nor parameter variables.
func (ts TransitionSystem) Locals(i int) []Var { return ts.locals(i, ts.globals()) }

// globals is the set of the state and next-state variables and the
// parameters.
func (ts TransitionSystem) globals() map[Var]bool {
	global := make(map[Var]bool, len(ts.Vars)+len(ts.Next)+len(ts.Params))
	for _, vs := range [][]Var{ts.Vars, ts.Next, ts.Params} {
		for _, v := range vs {
			global[v] = true
		}
	}
	return global
}

// allLocals returns the Locals of every transition.
func (ts TransitionSystem) allLocals() [][]Var {
	global := ts.globals()
	out := make([][]Var, len(ts.Trans))
	for i := range out {
		out[i] = ts.locals(i, global)
	}
	return out
}

// locals is Locals, given the set of globals.
func (ts TransitionSystem) locals(i int, global map[Var]bool) []Var {
	var out []Var
	for _, v := range FreeVars(ts.Trans[i]) {
		if !global[v] {
			out = append(out, v)
		}
	}
	return out
}

// Prime renames the state variables of f to their next-state copies:
// Prime(inv) reads inv in the target state of a step.
func (ts TransitionSystem) Prime(f Formula) Formula {
	next := make(map[Var]Var, len(ts.Vars))
	for i, v := range ts.Vars {
		next[v] = ts.Next[i]
	}
	return Rename(f, func(v Var) Var {
		if w, ok := next[v]; ok {
			return w
		}
		return v
	})
}

// StepBounds returns the ranges of the variables of a step by one of
// the transitions listed (stepBounds).
func (ts TransitionSystem) StepBounds(trans ...int) []Bound {
	locals := make([][]Var, len(ts.Trans))
	global := ts.globals()
	for _, i := range trans {
		locals[i] = ts.locals(i, global)
	}
	return ts.stepBounds(locals, trans...)
}

// AnyStep returns a step by any of the transitions: their disjunction,
// and the ranges of its variables.
func (ts TransitionSystem) AnyStep() (Formula, []Bound) {
	every := make([]int, len(ts.Trans))
	for i := range every {
		every[i] = i
	}
	return Disj(ts.Trans...), ts.stepBounds(ts.allLocals(), every...)
}

// stepBounds returns the ranges of one step's variables: the Domain (on
// state variables and parameters), its copy on the next-state variables,
// and every integer for the locals of the transitions listed, locals[i]
// those of transition i (allLocals).
func (ts TransitionSystem) stepBounds(locals [][]Var, trans ...int) []Bound {
	next := make(map[Var]Var, len(ts.Vars))
	for i, v := range ts.Vars {
		next[v] = ts.Next[i]
	}
	out := append([]Bound(nil), ts.Domain...)
	for _, b := range ts.Domain {
		if w, ok := next[b.Var]; ok {
			b.Var = w
			out = append(out, b)
		}
	}
	for _, i := range trans {
		for _, v := range locals[i] {
			out = append(out, AnyInt(v))
		}
	}
	return out
}

// Verdict is the answer to a safety question.
type Verdict int

const (
	// Undecided means no answer: a timeout, a cancellation, a solver's
	// "unknown", a counterexample longer than the search allows. It is
	// never to be read as Proved or Refuted. It prints as "unknown".
	Undecided Verdict = iota
	// Proved means no run reaches a bad state, for every value of the
	// parameters in their domain.
	Proved
	// Refuted means some run reaches a bad state.
	Refuted
)

func (v Verdict) String() string {
	switch v {
	case Proved:
		return "proved"
	case Refuted:
		return "refuted"
	}
	return "unknown"
}

// SafetyAnswer is the outcome of a Prover.
//
// For Proved, Invariant is a formula over Vars and Params such that
// Domain & Invariant holds in every initial state, is preserved by every
// transition and excludes Bad; a Prover returns it only after
// CheckInvariant has confirmed all three. For Refuted, Counterexample is
// a run into a bad state that Replay has confirmed. For Undecided, Reason
// says why.
type SafetyAnswer struct {
	Verdict        Verdict
	Invariant      Formula
	Counterexample *Counterexample
	Reason         string
	// Exhausted says, for Undecided, that a call with a larger budget
	// (Budget.Work, and the next Attempt) may answer: the work budget
	// ran out, or the search stopped on a path its next attempt, with
	// another seed, may avoid.
	Exhausted bool
}

// Counterexample is a run from an initial state to a bad state.
// States[0] is initial, the last state is bad, and Steps[j] is the index
// in Trans of the transition from States[j] to States[j+1], so there is
// one step fewer than states. Params has a value for every parameter and
// each state one for every state variable.
type Counterexample struct {
	Params Model
	States []Model
	Steps  []int
}

// A Prover decides safety questions. Prove does at most the work b
// allows and honours ctx's deadline and cancellation, answering
// Undecided when either ends the search; it returns an error only for a
// malformed system or a failing back end.
type Prover interface {
	Prove(ctx context.Context, ts TransitionSystem, b Budget) (SafetyAnswer, error)
}

// Budget bounds the work of one Prove call by a count of the back end's
// own steps (Z3's resource limit), never by time: the same call runs out
// of the same budget at the same point on a loaded machine as on an idle
// one, so its answer, and the invariant it prints, do not depend on the
// load. Time bounds the whole search only, through the context; when it
// cuts, the answer is Undecided.
type Budget struct {
	// Work is the most work the call may do, in the back end's units;
	// zero or less means no bound but the context's.
	Work int64
	// Attempt numbers the calls on one question, from 0. A back end may
	// search differently from one attempt to the next (Z3 changes its
	// random seed), so that a restart with a larger budget does not
	// retrace the same path; the answer still depends on nothing but the
	// question and the budget.
	Attempt int
	// SearchWork, when positive, bounds instead of Work the search for
	// a run into a bad state that a back end runs beside its prover
	// from the second attempt on (Z3's bounded unrolling, whose queries
	// cost up to five times as much time per unit of work as Spacer's:
	// minutes for one check at Work on mist's delegatebuffer). A search
	// started because the prover found a bad state reachable has Work.
	SearchWork int64
}

// Obligation names one of the three conditions that make a formula an
// inductive invariant proving safety.
type Obligation int

const (
	// Initiation: Init implies the invariant.
	Initiation Obligation = iota
	// Consecution: the invariant and a transition imply the invariant in
	// the target state.
	Consecution
	// Safety: the invariant excludes Bad.
	Safety
)

func (o Obligation) String() string {
	switch o {
	case Initiation:
		return "initiation"
	case Consecution:
		return "consecution"
	}
	return "safety"
}

// InvariantError says that a candidate invariant fails an obligation:
// Witness is an assignment (of state, next-state, parameter and local
// variables as the obligation involves) that satisfies the premises and
// violates the conclusion. Trans is the transition's index for
// Consecution and -1 otherwise.
type InvariantError struct {
	Obligation Obligation
	Trans      int
	Witness    Model
}

func (e *InvariantError) Error() string {
	if e.Obligation == Consecution {
		return fmt.Sprintf("presburger: invariant fails consecution under transition %d (witness %v)", e.Trans, e.Witness)
	}
	return fmt.Sprintf("presburger: invariant fails %s (witness %v)", e.Obligation, e.Witness)
}

// UndecidedError says that a solver answered Unknown on one of the
// queries of CheckInvariant or Replay, so nothing was shown either way.
// What names the query.
type UndecidedError struct {
	What   string
	Reason string
}

func (e *UndecidedError) Error() string {
	return fmt.Sprintf("presburger: no answer for %s: %s", e.What, e.Reason)
}

// CheckInvariant re-checks that inv proves ts safe, with three kinds of
// satisfiability queries to s, each of which must be Unsat:
//
//	initiation:  Domain & Init & !inv
//	consecution: Domain & Domain' & inv & Trans[i] & !inv'   for each i
//	safety:      Domain & inv & Bad
//
// (the consecution queries are first asked as one, with the disjunction
// of the transitions, and, when that one has a model, over the
// transitions before the one it steps by, down to the first transition
// that fails),
// where Domain' and inv' are read in the next state, and the variables
// have their Domain ranges (locals every integer), so s must decide
// problems with open ranges when the domain has them (the Z3 solver does;
// BruteForce refuses them with an error). It returns nil only when every
// query is Unsat; an *InvariantError with a witness when one is Sat; an
// *UndecidedError when s answers Unknown (tell them apart with
// errors.As); any other error for a malformed system or invariant (one
// that reads a variable other than Vars and Params) or a failing solver.
func CheckInvariant(ctx context.Context, s Solver, ts TransitionSystem, inv Formula) error {
	return checkInvariant(ctx, s, ts, inv, true)
}

// IsInvariant is CheckInvariant when only the verdict matters: ok is
// true exactly when CheckInvariant would return nil, and false (with a
// nil error) when it would return an *InvariantError; other errors are
// CheckInvariant's. A failing consecution query over all transitions at
// once ends it, where CheckInvariant goes on to find the first failing
// transition (a few more queries, most of the cost of a failing check on
// a system with hundreds of transitions).
func IsInvariant(ctx context.Context, s Solver, ts TransitionSystem, inv Formula) (ok bool, err error) {
	err = checkInvariant(ctx, s, ts, inv, false)
	var ie *InvariantError
	if errors.As(err, &ie) {
		return false, nil
	}
	return err == nil, err
}

// checkInvariant is CheckInvariant; with first false, a failure of the
// consecution query over all transitions is reported under the first
// transition its model steps by, which need not be the first that fails.
func checkInvariant(ctx context.Context, s Solver, ts TransitionSystem, inv Formula, first bool) error {
	if err := ts.Check(); err != nil {
		return err
	}
	if inv == nil {
		return errors.New("presburger: nil invariant")
	}
	state := map[Var]bool{}
	for _, vs := range [][]Var{ts.Vars, ts.Params} {
		for _, v := range vs {
			state[v] = true
		}
	}
	for _, v := range FreeVars(inv) {
		if !state[v] {
			return fmt.Errorf("presburger: invariant reads variable %d, which is not a state variable or parameter", v)
		}
	}
	if err := checkExistsRanges(inv); err != nil {
		return err
	}
	query := func(o Obligation, trans int, bounds []Bound, f Formula) error {
		a, err := s.Solve(ctx, Problem{Bounds: bounds, F: f})
		if err != nil {
			return err
		}
		switch a.Result {
		case Unsat:
			return nil
		case Sat:
			return &InvariantError{Obligation: o, Trans: trans, Witness: a.Model}
		}
		what := o.String()
		if o == Consecution {
			what = fmt.Sprintf("consecution under transition %d", trans)
		}
		return &UndecidedError{What: what, Reason: a.Reason}
	}
	if err := query(Initiation, -1, ts.Domain, Conj(ts.Init, Negation(inv))); err != nil {
		return err
	}
	next := ts.Prime(inv)
	steps := ts.images(inv, next)
	// Every query below conjoins inv: an atom of a step's formula that
	// an atom of inv decides is replaced by its value (foldUnder), which
	// leaves each query's models as they are. A step that keeps inv's
	// linear forms where inv bounds them then folds to false, and the
	// query over all transitions holds only those that can leave inv
	// (on a net with hundreds of transitions and a conservation law,
	// seconds of Z3 for one query became a few steps).
	if facts := conjunctFacts(inv); len(facts) > 0 {
		for i := range steps {
			steps[i].f = foldUnder(steps[i].f, facts)
		}
	}
	// The locals of each transition, found when a query first needs
	// them: a step that folded to false reads none, and the bounds of
	// its locals (every integer, never empty) are left out of the
	// queries, which they cannot change.
	global := ts.globals()
	locals := make([][]Var, len(ts.Trans))
	found := make([]bool, len(ts.Trans))
	boundsOf := func(idx ...int) []Bound {
		var need []int
		for _, i := range idx {
			if steps[i].f == False {
				continue
			}
			if !found[i] {
				locals[i], found[i] = ts.locals(i, global), true
			}
			need = append(need, i)
		}
		return ts.stepBounds(locals, need...)
	}
	// Consecution under transitions 0..hi at once (a step by any of
	// them from inv to outside it): one query for all of them is what
	// most checks of a true invariant cost. When it has a model, the
	// first transition that fails is found by bisection over such
	// prefixes (a model also names a failing transition, the one it
	// steps by, which narrows the search further): a few queries, where
	// going down one transition at a time asked hundreds on a net with
	// hundreds of transitions whose models all stepped by the last one.
	prefix := func(hi int) (Answer, error) {
		idx := make([]int, hi+1)
		for i := range idx {
			idx[i] = i
		}
		fs := make([]Formula, hi+1)
		for i := range fs {
			fs[i] = steps[i].f
		}
		return s.Solve(ctx, Problem{Bounds: boundsOf(idx...), F: Conj(inv, Disj(fs...))})
	}
	from := 0
	if n := len(ts.Trans); n > 1 {
		a, err := prefix(n - 1)
		if err != nil {
			return err
		}
		if a.Result == Unsat {
			return query(Safety, -1, ts.Domain, Conj(inv, dropExcluded(inv, ts.Bad, ts.Domain)))
		}
		if a.Result == Sat && !first {
			for i := range steps {
				if Eval(steps[i].f, func(v Var) int64 { return a.Model[v] }) {
					steps[i].complete(a.Model)
					return &InvariantError{Obligation: Consecution, Trans: i, Witness: a.Model}
				}
			}
		}
		// Transitions 0..lo hold (lo = -1: none known) and some
		// transition among 0..hi fails, so the first failing one is in
		// lo+1..hi. An Unknown leaves the rest to the queries one by
		// one below, which report it.
		lo, hi := -1, n-1
	bisect:
		for a.Result != Unknown && hi-lo > 1 {
			if a.Result == Sat {
				for i := lo + 1; i < hi; i++ {
					if Eval(steps[i].f, func(v Var) int64 { return a.Model[v] }) {
						hi = i // the model steps by i, which fails
						break
					}
				}
				if hi-lo <= 1 {
					break
				}
			}
			mid := lo + (hi-lo)/2
			if a, err = prefix(mid); err != nil {
				return err
			}
			switch a.Result {
			case Unsat:
				lo = mid
			case Sat:
				hi = mid
			default:
				break bisect
			}
		}
		from = lo + 1
	}
	for i := from; i < len(ts.Trans); i++ {
		err := query(Consecution, i, boundsOf(i), Conj(inv, steps[i].f))
		var ie *InvariantError
		if errors.As(err, &ie) {
			steps[i].complete(ie.Witness)
		}
		if err != nil {
			return err
		}
	}
	return query(Safety, -1, ts.Domain, Conj(inv, dropExcluded(inv, ts.Bad, ts.Domain)))
}

// stepImage is what the consecution query of CheckInvariant asks of one
// transition: f holds of a state (with the transition's locals) that
// steps by it to a state outside the invariant. When the transition
// defines every next-state variable x' by an equality x' = t, t free of
// next-state variables, f is the transition's other conjuncts and the
// domain, each with x' replaced by its t, and the negation of the
// invariant's conjuncts that read a variable the step changes, read at
// the t (image says which t): with the invariant conjoined, as in every
// query, the same states satisfy it, but the solver gets no copy of the
// state and no disjunction over it; on mist's bingham nets (hundreds of
// transitions and counters), the query over all transitions at once
// went from seconds to milliseconds. Otherwise f is the transition and
// the negated invariant read in the next state, as the query is
// written, and image is nil.
type stepImage struct {
	f    Formula
	next []Var  // the next-state variables (ts.Next), nil for no image
	def  []Term // the term of each, as the step defines it
}

// complete adds to a model of f the values of the next-state variables
// that f no longer mentions, so that a witness names the step's target.
func (st stepImage) complete(m Model) {
	for i, v := range st.next {
		if x, ok := st.def[i].Value(func(w Var) int64 { return m[w] }); ok {
			m[v] = x
		}
	}
}

// imageFrame is what images reads once for every step's image: the
// invariant's top-level conjuncts and the variables of each, the
// position of each next-state variable in ts.Next and of each state
// variable in ts.Vars, the ranges of the domain's variables (each the
// intersection of its bounds), and for each bound of the domain the
// position of its variable's next-state one (-1 for none). A model of
// a net with hundreds of places has hundreds of transitions, each
// defining every next-state variable: maps built per transition cost
// more than the images.
type imageFrame struct {
	conj    And
	reads   [][]Var
	isNext  map[Var]bool
	nextAt  map[Var]int
	varAt   map[Var]int
	dom     map[Var]Bound
	domNext []int
}

// images returns the stepImage of every transition for the invariant
// inv, whose reading in the next state is next.
func (ts TransitionSystem) images(inv, next Formula) []stepImage {
	fr := &imageFrame{
		isNext: make(map[Var]bool, len(ts.Next)),
		nextAt: make(map[Var]int, len(ts.Next)),
		varAt:  make(map[Var]int, len(ts.Vars)),
		dom:    map[Var]Bound{},
	}
	for i, v := range ts.Next {
		fr.isNext[v] = true
		fr.nextAt[v] = i
		fr.varAt[ts.Vars[i]] = i
	}
	fr.conj, _ = inv.(And)
	if fr.conj == nil {
		fr.conj = And{inv}
	}
	fr.reads = make([][]Var, len(fr.conj))
	for i, c := range fr.conj {
		fr.reads[i] = FreeVars(c)
	}
	for _, b := range Intersect(ts.Domain) {
		fr.dom[b.Var] = b
	}
	fr.domNext = make([]int, len(ts.Domain))
	for k, b := range ts.Domain {
		i, ok := fr.varAt[b.Var]
		if !ok {
			i = -1
		}
		fr.domNext[k] = i
	}
	out := make([]stepImage, len(ts.Trans))
	for i, tr := range ts.Trans {
		img, ok := ts.image(tr, fr)
		if !ok {
			img = stepImage{f: Conj(tr, Negation(next))}
		}
		out[i] = img
	}
	return out
}

// image is the stepImage of transition tr, for the invariant whose
// top-level conjuncts are fr.conj, when tr defines every next-state
// variable by an equality; ok is false otherwise, or when a
// substitution leaves int64.
func (ts TransitionSystem) image(tr Formula, fr *imageFrame) (img stepImage, ok bool) {
	parts, isAnd := tr.(And)
	if !isAnd {
		parts = And{tr}
	}
	def := make([]Term, len(ts.Next))
	defined := make([]bool, len(ts.Next))
	count := 0
	var rest []Formula
	for _, p := range parts {
		if v, t, ok := definition(p, fr.isNext); ok {
			if i := fr.nextAt[v]; !defined[i] {
				def[i], defined[i] = t, true
				count++
				continue
			}
		}
		rest = append(rest, p)
	}
	if count != len(ts.Next) {
		return stepImage{}, false
	}
	sub := func(v Var) Term {
		if i, ok := fr.nextAt[v]; ok {
			return def[i]
		}
		return VarTerm(v)
	}
	fs := make([]Formula, 0, len(rest)+2)
	for _, p := range rest {
		if !readsNext(p, fr.isNext) {
			// Nothing to substitute (a guard over the state and
			// locals): kept as it is, where a substitution would
			// build it again atom by atom.
			fs = append(fs, p)
			continue
		}
		q, ok := SubstExact(p, sub)
		if !ok {
			return stepImage{}, false
		}
		fs = append(fs, q)
	}
	// The target lies in the domain: each next-state variable's range,
	// read at its term, where the ranges of the term's own variables
	// do not already keep it there (the variable itself; a counter
	// raised, x + 1 >= 0; a flag set, 1 <= 1). Those atoms hold in
	// every state of the domain, so the models are the same without
	// them; and a step counter nothing reads, s := s + 1, then adds no
	// atom to the query, which is the query of the system without it
	// (Memo).
	for k, b := range ts.Domain {
		i := fr.domNext[k]
		if i < 0 || def[i].IsVar(b.Var) {
			continue // a variable the step keeps lies where it was
		}
		t := def[i]
		r := t.Range(func(v Var) (Bound, bool) { b, ok := fr.dom[v]; return b, ok })
		if !b.NoLo && (r.NoLo || r.Lo < b.Lo) {
			fs = append(fs, Compare(t, Ge, ConstTerm(b.Lo)))
		}
		if !b.NoHi && (r.NoHi || r.Hi > b.Hi) {
			fs = append(fs, Compare(t, Le, ConstTerm(b.Hi)))
		}
	}
	// The conjuncts of inv the step may falsify: a conjunct that reads
	// no variable the step changes reads the same values after it, and
	// holds there since inv holds before (every query conjoins inv), so
	// it is left out of the negated inv' with the models unchanged. An
	// invariant of thousands of clauses, each over a few counters, is
	// then checked against each step on the clauses over what it moves
	// (mist's ME_250_bigtarget with a property per target: 20 s for one
	// joint question, most of it spent on clauses no step touches).
	changed := map[Var]bool{}
	for i, v := range ts.Vars {
		if !def[i].IsVar(v) {
			changed[v] = true
		}
	}
	var touched []Formula
	for i, c := range fr.conj {
		if slices.ContainsFunc(fr.reads[i], func(v Var) bool { return changed[v] }) {
			touched = append(touched, c)
		}
	}
	after, ok := SubstExact(Conj(touched...), func(v Var) Term {
		if i, ok := fr.varAt[v]; ok {
			return def[i]
		}
		return VarTerm(v)
	})
	if !ok {
		return stepImage{}, false
	}
	fs = append(fs, Negation(after))
	return stepImage{f: Conj(fs...), next: ts.Next, def: def}, true
}

// readsNext reports whether f, quantifier-free, reads a next-state
// variable; an Exists counts as reading one (its body is left to the
// substitution, which renames what it must).
func readsNext(f Formula, isNext map[Var]bool) bool {
	switch f := f.(type) {
	case Bool:
		return false
	case Cmp:
		for _, m := range f.T.Monos {
			if isNext[m.Var] {
				return true
			}
		}
		return false
	case Not:
		return readsNext(f.F, isNext)
	case And:
		for _, g := range f {
			if readsNext(g, isNext) {
				return true
			}
		}
		return false
	case Or:
		for _, g := range f {
			if readsNext(g, isNext) {
				return true
			}
		}
		return false
	}
	return true
}

// definition reads the atom p as x' = t for a next-state variable x'
// with coefficient 1 or -1 and t free of next-state variables.
func definition(p Formula, isNext map[Var]bool) (v Var, t Term, ok bool) {
	c, isCmp := p.(Cmp)
	if !isCmp || c.Op != Eq {
		return 0, Term{}, false
	}
	found := false
	for _, m := range c.T.Monos {
		if isNext[m.Var] {
			if found {
				return 0, Term{}, false
			}
			found, v = true, m.Var
		}
	}
	if !found {
		return 0, Term{}, false
	}
	t, ok = c.T.SolveFor(v)
	return v, t, ok
}

// ReplayError says at which point a counterexample fails to be a run of
// the system into a bad state. Step is the index of the state (for the
// domain, Init and Bad) or of the step (for a transition) concerned, -1
// for the parameters and the shape of the counterexample.
type ReplayError struct {
	Step int
	Msg  string
}

func (e *ReplayError) Error() string {
	if e.Step < 0 {
		return "presburger: counterexample does not replay: " + e.Msg
	}
	return fmt.Sprintf("presburger: counterexample does not replay at step %d: %s", e.Step, e.Msg)
}

// Replay checks that cex is a run of ts into a bad state: the parameters
// and every state have a value for each of their variables and lie in the
// domain, Init holds in the first state, Bad in the last, and each step
// satisfies the transition it names. A transition with local variables is
// checked by asking s for values of them (over every integer, so s must
// decide open ranges); one without is evaluated directly. It returns nil
// when cex replays, a *ReplayError naming the first point where it does
// not, an *UndecidedError when s answers Unknown, and any other error for
// a malformed system or a failing solver.
func Replay(ctx context.Context, s Solver, ts TransitionSystem, cex Counterexample) error {
	if err := ts.Check(); err != nil {
		return err
	}
	if len(cex.States) == 0 {
		return &ReplayError{Step: -1, Msg: "no states"}
	}
	if len(cex.Steps) != len(cex.States)-1 {
		return &ReplayError{Step: -1, Msg: fmt.Sprintf("%d states but %d steps", len(cex.States), len(cex.Steps))}
	}
	dom := Intersect(ts.Domain)
	rng := make(map[Var]Bound, len(dom))
	for _, b := range dom {
		rng[b.Var] = b
	}
	for _, v := range ts.Params {
		x, ok := cex.Params[v]
		if !ok {
			return &ReplayError{Step: -1, Msg: fmt.Sprintf("no value for parameter %d", v)}
		}
		if !rng[v].Contains(x) {
			return &ReplayError{Step: -1, Msg: fmt.Sprintf("parameter %d = %d outside its domain %s", v, x, rng[v].Range())}
		}
	}
	for j, st := range cex.States {
		for _, v := range ts.Vars {
			x, ok := st[v]
			if !ok {
				return &ReplayError{Step: j, Msg: fmt.Sprintf("no value for state variable %d", v)}
			}
			if !rng[v].Contains(x) {
				return &ReplayError{Step: j, Msg: fmt.Sprintf("state variable %d = %d outside its domain %s", v, x, rng[v].Range())}
			}
		}
	}
	// assign gives the values step j reads: the parameters, state j as
	// Vars and, when there is one, state j+1 as Next.
	assign := func(j int) Model {
		m := make(Model, len(ts.Params)+2*len(ts.Vars))
		for _, v := range ts.Params {
			m[v] = cex.Params[v]
		}
		for i, v := range ts.Vars {
			m[v] = cex.States[j][v]
			if j+1 < len(cex.States) {
				m[ts.Next[i]] = cex.States[j+1][v]
			}
		}
		return m
	}
	holds := func(j int, f Formula) bool {
		m := assign(j)
		return Eval(f, func(v Var) int64 { return m[v] })
	}
	if !holds(0, ts.Init) {
		return &ReplayError{Step: 0, Msg: "Init does not hold in the first state"}
	}
	for j, i := range cex.Steps {
		if i < 0 || i >= len(ts.Trans) {
			return &ReplayError{Step: j, Msg: fmt.Sprintf("no transition %d", i)}
		}
		locals := ts.Locals(i)
		if len(locals) == 0 {
			if !holds(j, ts.Trans[i]) {
				return &ReplayError{Step: j, Msg: fmt.Sprintf("transition %d does not lead from state %d to state %d", i, j, j+1)}
			}
			continue
		}
		m := assign(j)
		f := Subst(ts.Trans[i], func(v Var) Term {
			if x, ok := m[v]; ok {
				return ConstTerm(x)
			}
			return VarTerm(v)
		})
		bounds := make([]Bound, len(locals))
		for k, v := range locals {
			bounds[k] = AnyInt(v)
		}
		a, err := s.Solve(ctx, Problem{Bounds: bounds, F: f})
		if err != nil {
			return err
		}
		switch a.Result {
		case Unsat:
			return &ReplayError{Step: j, Msg: fmt.Sprintf("no values of the local variables of transition %d lead from state %d to state %d", i, j, j+1)}
		case Unknown:
			return &UndecidedError{What: fmt.Sprintf("the local variables of step %d", j), Reason: a.Reason}
		}
	}
	if last := len(cex.States) - 1; !holds(last, ts.Bad) {
		return &ReplayError{Step: last, Msg: "Bad does not hold in the last state"}
	}
	return nil
}
