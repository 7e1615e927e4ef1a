package prove

import (
	"container/heap"
	"context"
	"maps"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// Backward coverability (Abdulla, Cerans, Jonsson and Tsay, LICS 1996),
// the algorithm of mist, for the counter systems whose steps are
// monotone: every guard a conjunction (or disjunction of conjunctions)
// of lower bounds on weighted sums of state variables with nonnegative
// weights, every step adding a constant to a variable, setting it to
// one, or setting it to a sum of variables with positive weights plus a
// constant (a transfer: a broadcast moves every process of a state into
// another, whose counter becomes the sum of both), every domain open
// upward (a bounded variable is read with its complement, which makes
// an upper bound on it a lower bound: complement.go), and bad states
// that are upward closed in the same way. Petri
// nets are of that kind, and so are the counter models of GSSTs whose
// steps test "at least so many" (mist's kanban and pncsacover nets,
// issue 29) and of broadcast protocols (mist's Java programs, whose
// notifyAll is a transfer). Such a system is well-structured: a
// step enabled in a state is enabled in every larger one (componentwise)
// and leads to a larger state, so the states from which a bad state can
// be reached form an upward-closed set, and an upward-closed set of
// vectors of naturals is the upward closure of its finitely many
// minimal elements (Dickson's lemma).
//
// The search starts from the minimal bad states and adds, for each
// minimal element m found and each step, the minimal elements of the
// step's predecessors of the states above m, keeping only the minimal
// ones; it ends when an element lies below an initial state, or when
// nothing new is found: Dickson's lemma says that it does end. It is
// exact where it applies (a guard's upper bounds on counters make it an
// over-approximation, whose chains may be no runs: lossy.go), and both
// ends are answers:
//
//   - An element below an initial state: the chain of steps from it to
//     a minimal bad state, started from that initial state, is a run
//     (each step's guard holds above the predecessor element, and the
//     state it reaches is above the next element). It is replayed as
//     every run is: presburger.Replay on the model, then on the
//     instance (refute).
//   - A fixpoint with no element below an initial state: the states
//     above no element form an inductive invariant that excludes the
//     bad states, the conjunction, over the elements m, of "some x_j <
//     m_j". It is checked as any invariant (presburger.CheckInvariant).
//
// The work is counted as vector comparisons (each candidate element is
// compared with the elements kept), so the answer is the same on every
// machine; when the budget runs out the search says so and Check goes on
// to the prover.
//
// The initial states must be of the shape the counter models have: each
// counter starts at a constant, at the size of one group (all its
// processes start in one state), or at its share of a group spread over
// several states (the shares sum to the size), the sizes ranging over
// intervals, or at a parameter that nothing else reads but the
// assumption, which bounds it alone (readParams: it is read as a size;
// a parameter that is a group's size is read as that size). Then a
// vector is below an initial state exactly when its counters are below
// their constants and each group's size can be as large as the sum it
// asks of the group's states.

// coverWork bounds each round of the search (backward), in vector
// comparisons (each candidate element counts the elements kept it is
// compared with; the generalization counts words of bit sets and steps
// tried, coversample.go): 100 million are about a second of one CPU of
// the machine of BENCHMARKS.md, and the rounds together at most about
// 2.7 times this; kanban's run takes 1.1 million.
const coverWork = 200_000_000

// maxCoverProof bounds the elements of a fixpoint offered as a proof:
// the invariant has a disjunction per element, and a larger one costs
// the checks more than the prover would.
const maxCoverProof = 400

// maxCoverAtoms bounds the atoms (a variable above its least value in
// an element) of a larger fixpoint offered as a proof: the generalized
// elements (coversample.go) are many, of a few atoms each, cheap to
// check (delegatebuffer's 469 elements, 1,600 atoms: 0.4 s).
const maxCoverAtoms = 6000

// coverStep is a step of the monotone system: from a state x at least
// need (and satisfying sums), to x + add, with the variables of reset set
// to set instead, and those of moved (when not nil) to their sums.
type coverStep struct {
	trans int // index in the model's transitions (ts.Trans)
	need  []int64
	sums  []sumAtom
	add   []int64
	reset []bool
	set   []int64
	moved []*sumTerm
	// caps are the guard's upper bounds on variables with no greatest
	// value, "sum <= bound" each, which the search reads as the lossy
	// system does (lossy.go).
	caps []sumAtom
	// expand, in a system with fused or merged variables
	// (coverfuse.go, covertwins.go), lists the original steps (indices
	// in coverSystem.orig) that the step stands for, in the order a run
	// takes them.
	expand []int
}

// sumTerm is "sum of coef[j]*x[vars[j]] + c", every coef positive: the
// value of a variable after a transfer.
type sumTerm struct {
	vars []int
	coef []int64
	c    int64
}

// value is t at x, ok false when it does not fit in int64.
func (t *sumTerm) value(x []int64) (int64, bool) {
	s := t.c
	for j, v := range t.vars {
		var ok bool
		if s, ok = combine(1, s, t.coef[j], x[v]); !ok {
			return 0, false
		}
	}
	return s, true
}

// sumAtom is "sum of coef[j]*x[vars[j]] >= bound", every coef positive.
type sumAtom struct {
	vars  []int
	coef  []int64
	bound int64
}

// coverSystem is a counter model read as a monotone system over its
// state variables (counterabs.ParamModel.StateVar order).
type coverSystem struct {
	m     *counterabs.ParamModel
	ts    presburger.TransitionSystem
	lo    []int64 // least value of each state variable
	steps []coverStep
	bad   [][]int64
	// initConst[j] is the least initial value of variable j and
	// initHi[j] its greatest (initOpen[j]: none, a shared variable that
	// starts in a range such as "1.."), unless initSum[j] is the index
	// (>= 0) of the group of starts whose variables' sum is a group's
	// size.
	initConst []int64
	initHi    []int64
	initOpen  []bool
	initSum   []int
	starts    []initialSum
	dom       map[presburger.Var]presburger.Bound
	// sizeOf maps a parameter that is a group's size, and nothing
	// else, to that size's variable (readParams).
	sizeOf map[presburger.Var]presburger.Var
	// tooMany says that a sum of several variables had more ways to be
	// met than maxSumSplits: the search gives up, not exact.
	tooMany bool
	// invs are the semi-positive invariants that prune the search.
	invs []coverInvariant
	// semi is the number of semi-positive invariants, the first of
	// invs; linearFacts is the conjunction of the model's linear
	// invariants (but those among them) when some of them prune the
	// search too (linearPruning), else True.
	semi        int
	linearFacts presburger.Formula
	// loosened counts the variables unbounded above and the atoms left
	// out by the linear invariants (looseDomain); unbounded are those
	// variables, and wantBound those of them whose complement the
	// reading wanted.
	loosened  int
	unbounded map[int]bool
	wantBound []presburger.Var
	// orig are the steps before fusion (coverfuse.go) and the merging
	// of twins (covertwins.go), nil when no variable is fused or
	// merged; root[j] is the variable whose count holds variable j's in
	// the fused system (j itself when j is neither fused nor merged);
	// fused counts the variables fused.
	orig  []coverStep
	root  []int
	fused int
	// copies[o], when twins are merged (covertwins.go), lists the
	// original steps that step o is one with in the merged system (nil
	// for a step that stands alone); twinned counts the variables
	// merged into their twins.
	copies  [][]int
	twinned int
	// k is the number of the model's state variables, the first k of
	// the vector; after them come the complements (complement.go):
	// comp[i] >= 0 is the index of hi[i] - x_i for a variable i whose
	// domain has a greatest value hi[i], and compOf[j-k] the variable
	// of complement j.
	k      int
	comp   []int
	hi     []int64
	compOf []int
	// After the complements come the one-hot variables (coverhot.go),
	// from hot0 on: hotVar[j-hot0] is the model's variable of entry j
	// and hotVal[j-hot0] its value; hotFirst[i] is the first entry of
	// variable i, -1 for one not read one-hot.
	hot0     int
	hotVar   []int
	hotVal   []int64
	hotFirst []int
	// hotInvs are the semi-positive invariants of the one-hot system
	// before the fusion, for hotPrune.
	hotInvs []coverInvariant
	// scratch holds the vector pre builds, which the search mostly
	// drops (covered by an element it has): search copies what it
	// keeps.
	scratch []int64
	// sumScratch and movedScratch hold the sums pre hands to minimal
	// and the transfers' bounds it reads them from; pre rebuilds them
	// at each call (a broadcast of 39 transfers built and grew a slice
	// of 39 atoms per element and step: a quarter of the search's time
	// on Cubicle's germanish4).
	sumScratch   []sumAtom
	movedScratch []movedBound
	// genOrder is the order in which generalize tries the variables
	// (coversample.go), computed at its first call.
	genOrder []int
	// dropped counts the steps that the semi-positive invariants
	// exclude (houdiniSteps), left out of steps; a proof then states
	// the invariants.
	dropped int
	// capped counts the steps with caps (lossy.go).
	capped int
	// ranged counts the variables read without their greatest values
	// (reading.ranged, lossy.go).
	ranged int
	// probe, when set, runs between the rounds of backward with the
	// work of the round that ended; true ends the search (the probe
	// found what it looked for: coverFirst's small instances).
	probe func(ctx context.Context, round int64) bool
	// dead marks the variables no run raises (coverdead.go), nil when
	// there is none; deadSkipped says that minimal left them out.
	dead        []bool
	deadSkipped bool
	// svar, when the dead variables are projected out of the vectors
	// (project, coverdead.go), is the model's state variable (its
	// index) of each entry below k, and entry the inverse (-1 for a
	// variable projected out); projected lists those variables and
	// projectedLo their least values, at which they stay.
	svar        []int
	entry       []int
	projected   []int
	projectedLo []int64
	// poolFacts are "sum of the counters = n" (or a group's size) for
	// each size that a guard or a bad state read as that sum
	// (poolSums), poolUsed their sizes; poolTerms is each size's sum.
	poolFacts []presburger.Formula
	poolUsed  map[presburger.Var]bool
	poolTerms map[presburger.Var]presburger.Term
	// fixed are the linear invariants that read an upper bound as a
	// lower one (complemented), each stated in poolFacts once used.
	fixed []fixedSum
}

// maxSumSplits bounds the ways minimal enumerates to meet the sums of
// one clause, and maxSumDeficit what a sum over several variables may
// lack (raised one unit at a time, each a level of minimal's walk).
const (
	maxSumSplits  = 10_000
	maxSumDeficit = 10_000
)

// monotoneSystem reads m (with ts its transition system, Bad included)
// as a monotone system, or returns ok false when some guard, update,
// domain, initial value or bad state is not of the shape above.
//
// The linear invariants lis of m prune the search (linearPruning), and
// loosen the system without changing its runs (looseDomain): a variable
// they keep within its greatest value is unbounded above, and an atom
// they imply in every reachable state is left out of a guard or a bad
// state's clause (the range check of a transfer into a place written
// 0..1, "flag + notflag <= 1", which no upward-closed guard states).
// A variable unbounded has no complement, so one whose upper bound an
// atom left reads ("fa = 0" on mist's peterson, whose fa the invariants
// keep at most 1), or that a transfer into a bounded variable reads,
// keeps its bound (at most maxLooseRounds readings); the system with
// every bound comes last.
//
// Program counters are read one-hot (coverhot.go); when that reading
// fails (a step split into too many cases), the one with every bounded
// variable read through its complement is tried.
func monotoneSystem(m *counterabs.ParamModel, ts presburger.TransitionSystem, lis []linearInvariant) (*coverSystem, bool) {
	return monotoneAs(m, ts, lis, reading{})
}

// reading says how the search reads what is not monotone as it is:
// with the upper bounds that a fixed sum makes lower bounds read so
// (fixed, fixedsum.go), and with the variables that may hold more than
// one read without their greatest values, the guards' range checks on
// them as caps (ranged, lossy.go); the guards' other upper bounds are
// read lossily in any case.
type reading struct {
	fixed, ranged bool
}

// monotoneAs is monotoneSystem read as r says.
func monotoneAs(m *counterabs.ParamModel, ts presburger.TransitionSystem, lis []linearInvariant, r reading) (*coverSystem, bool) {
	cs, ok := monotoneReading(m, ts, lis, true, r)
	if !ok && len((&coverSystem{m: m, ts: ts}).chooseHot(domainBounds(ts.Domain))) > 0 {
		return monotoneReading(m, ts, lis, false, r)
	}
	return cs, ok
}

// monotoneReading is monotoneAs with the one-hot reading on or off
// (oneHot).
func monotoneReading(m *counterabs.ParamModel, ts presburger.TransitionSystem, lis []linearInvariant, oneHot bool, r reading) (*coverSystem, bool) {
	loosen := func(keep map[presburger.Var]bool) loosening {
		l := looseDomain(m, ts.Domain, lis, keep)
		l.fixed, l.ranged = r.fixed, r.ranged
		return l
	}
	keep := map[presburger.Var]bool{}
	for range maxLooseRounds {
		cs, ok := readMonotone(m, ts, loosen(keep), oneHot)
		if ok {
			return cs, true
		}
		if cs == nil || len(cs.wantBound) == 0 {
			break
		}
		for _, v := range cs.wantBound {
			keep[v] = true
		}
	}
	cs, ok := readMonotone(m, ts, loosen(nil), oneHot)
	return cs, ok
}

// maxLooseRounds bounds the readings of monotoneSystem that keep more
// bounds.
const maxLooseRounds = 4

// readMonotone is monotoneSystem with the loosening held, and the
// one-hot reading of program counters when oneHot. When it fails
// for want of a complement that held took away, cs (not nil) lists the
// variables (wantBound).
func readMonotone(m *counterabs.ParamModel, ts presburger.TransitionSystem, held loosening, oneHot bool) (*coverSystem, bool) {
	// The search starts from one initial state per size and spread
	// (initialAbove builds it).
	k := m.NumState()
	cs := &coverSystem{m: m, ts: ts, lo: make([]int64, k), dom: maps.Clone(held.dom), k: k, comp: make([]int, k), hi: make([]int64, k)}
	index := map[presburger.Var]int{}
	for i := range k {
		index[m.StateVar(i)] = i
	}
	orig := domainBounds(ts.Domain)
	for i := range k {
		if v := m.StateVar(i); held.dom[v].NoHi && !orig[v].NoHi {
			cs.loosened++
			if cs.unbounded == nil {
				cs.unbounded = map[int]bool{}
			}
			cs.unbounded[i] = true
		}
	}
	if !cs.readParams() {
		return nil, false
	}
	if held.fixed {
		cs.fixed = fixedSums(m, held.lis, orig)
	}
	var hot []int
	if oneHot {
		hot = cs.chooseHot(orig)
	}
	for i := range k {
		b, ok := cs.dom[m.StateVar(i)]
		if !ok || b.NoLo {
			return nil, false
		}
		cs.lo[i], cs.comp[i] = b.Lo, -1
		if slices.Contains(hot, i) {
			if cs.unbounded[i] {
				delete(cs.unbounded, i)
				cs.loosened--
			}
			continue
		}
		if !b.NoHi && held.ranged && b.Hi-b.Lo > 1 {
			cs.ranged++
			b.Hi, b.NoHi = 0, true
			cs.dom[m.StateVar(i)] = b
			continue
		}
		if !b.NoHi {
			cs.comp[i], cs.hi[i] = len(cs.lo), b.Hi
			cs.lo = append(cs.lo, 0)
			cs.compOf = append(cs.compOf, i)
		}
	}
	cs.addHot(hot, orig)
	if !cs.readInitial(index) || !cs.complementInitial() || !cs.hotInitial() {
		return nil, false
	}
	k = len(cs.lo)
	for i := range m.Transitions {
		t := &m.Transitions[i]
		if len(t.Locals) > 0 {
			return cs, false
		}
		add := make([]int64, k)
		reset := make([]bool, k)
		set := make([]int64, k)
		var moved []*sumTerm
		var ok bool
		var assigned map[int]int64
		for j, next := range m.StepTerms(t) {
			c := cs.comp[j]
			if cs.isHot(j) {
				// A constant (chooseHot), or the variable itself.
				if next.IsConst() {
					if assigned == nil {
						assigned = map[int]int64{}
					}
					assigned[j] = next.Const
				}
				continue
			}
			switch {
			case next.IsConst():
				reset[j], set[j] = true, next.Const
				if c >= 0 {
					reset[c], set[c] = true, cs.hi[j]-next.Const
				}
			case len(next.Monos) == 1 && next.Monos[0].Coef == 1 && next.Monos[0].Var == m.StateVar(j):
				add[j] = next.Const
				if c >= 0 {
					add[c] = -next.Const
				}
			default:
				st := &sumTerm{c: next.Const}
				for _, mo := range next.Monos {
					i, isState := index[mo.Var]
					if !isState || mo.Coef <= 0 {
						return cs, false
					}
					st.vars = append(st.vars, i)
					st.coef = append(st.coef, mo.Coef)
				}
				if moved == nil {
					moved = make([]*sumTerm, k)
				}
				moved[j] = st
				if c >= 0 {
					// x_j := y is c_j := hi_j - hi_y + c_y.
					if moved[c], ok = cs.complementSum(j, st); !ok {
						return cs, false
					}
				}
			}
		}
		clauses, ok := presburger.DNFWithin(t.Guard, maxClauses)
		if !ok {
			return cs, false
		}
		for _, clause := range clauses {
			clause = cs.prune(held, cs.poolSums(clause))
			clause, allowed := cs.hotClause(index, clause)
			need, sums, caps, ok := upwardClause(cs, index, clause, true)
			if !ok {
				return cs, false
			}
			if need == nil {
				continue // a guard that never holds
			}
			if len(caps) > 0 {
				cs.capped++
			}
			step := coverStep{trans: i, need: need, sums: sums, add: add, reset: reset, set: set, moved: moved, caps: caps}
			if allowed == nil && assigned == nil {
				cs.steps = append(cs.steps, step)
				continue
			}
			cases, ok := cs.hotCases(step, allowed, assigned)
			if !ok {
				return cs, false
			}
			cs.steps = append(cs.steps, cases...)
		}
	}
	cs.readDead()
	if cs.project() {
		index = map[presburger.Var]int{}
		for j := range cs.k {
			index[cs.stateVar(j)] = j
		}
	}
	// A zero test of a sum of nonnegative variables is read as their
	// zero tests (presburger.SplitZeroSums), the same states in the
	// domain: a clause takes its zero tests one variable at a time, and
	// refused "X10 + X22 = 0", so mist's manufacture so written
	// (testdata/styles/manufacture-pc-sumjoin.yaml) went to Spacer, where
	// "X10 = 0 & X22 = 0" is refuted here. The fixpoint's complement is
	// checked on ts, whose Bad is as written.
	bad, ok := presburger.DNFWithin(splitBadZeroSums(ts), maxClauses)
	if !ok {
		return cs, false
	}
	for _, clause := range bad {
		// Within the reachable states, the clause is the atoms kept.
		clause = cs.prune(held, cs.poolSums(clause))
		if clause, ok = cs.deadClause(clause); !ok {
			continue // it asks for a dead variable above its least value
		}
		if cs.projected != nil {
			// With the dead variables at their least values, an upper
			// bound on a sum with one of them may be implied now (a
			// split state that no step enters: #X + #X_b <= 1 is #X <=
			// 1, which #X_false + #X = 1 implies).
			clause = cs.prune(held, clause)
		}
		clause, allowed := cs.hotClause(index, clause)
		clause = cs.hotPrune(index, clause, allowed)
		need, sums, _, ok := upwardClause(cs, index, clause, false)
		if !ok {
			return cs, false
		}
		if need != nil {
			if sums, ok = cs.hotNeed(need, sums, allowed, nil); !ok {
				continue // a clause no state satisfies
			}
		}
		cs.bad = append(cs.bad, cs.minimal(need, sums)...)
	}
	cs.mergeTwins()
	cs.fuseTransients()
	cs.invs = cs.houdiniSteps()
	cs.semi, cs.linearFacts = len(cs.invs), presburger.True
	if more := cs.linearPruning(held.lis); len(more) > 0 {
		// The facts: the invariants of lis but those the semi-positive
		// ones state already.
		var facts []presburger.Formula
		for _, li := range held.lis {
			y, whole := cs.entryWeights(li.coef)
			if !whole || !slices.ContainsFunc(cs.invs, func(inv coverInvariant) bool { return slices.Equal(inv.y, y) }) {
				facts = append(facts, li.formula(m))
			}
		}
		cs.invs = append(cs.invs, more...)
		cs.linearFacts = presburger.Conj(facts...)
	}
	return cs, !cs.tooMany
}

// splitBadZeroSums returns ts.Bad with its zero tests of sums of
// nonnegative variables (ts.Domain) split into theirs, and ts.Bad
// itself, as written, when it has none.
func splitBadZeroSums(ts presburger.TransitionSystem) presburger.Formula {
	nonneg := presburger.NonnegIn(ts.Domain)
	for c := range presburger.Atoms(ts.Bad) {
		if _, ok := presburger.ZeroSum(c, nonneg); ok && len(c.T.Monos) >= 2 {
			return presburger.SplitZeroSums(ts.Bad, nonneg)
		}
	}
	return ts.Bad
}

// brokenPoolFacts leaves poolFacts out of the invariants, for the test
// that the cross-checks catch it (BreakCaps).
var brokenPoolFacts bool

// poolSums returns clause with each group's size and n, where an atom
// reads them, read as the sum of the counters of their pool
// (counterabs.ParamPool): "#I = n" is "#M + #E + #S = 0", which the
// search reads (a cap, lossy.go), where n is no state variable. The two
// are equal in every state of the model, so the guard holds in the same
// states, and the search's runs and invariants are checked on the model
// as ever; an invariant states the sums it read (poolFacts), without
// which it need not be inductive.
func (cs *coverSystem) poolSums(clause []presburger.Formula) []presburger.Formula {
	if cs.poolTerms == nil {
		cs.poolTerms = map[presburger.Var]presburger.Term{}
		for _, p := range cs.m.Pools {
			if len(p.Sum.Monos) != 1 || p.Sum.Monos[0].Coef != 1 || p.Sum.Const != 0 {
				continue
			}
			var t presburger.Term
			for _, c := range p.Counters {
				t = t.Add(presburger.VarTerm(presburger.Var(c)))
			}
			cs.poolTerms[p.Sum.Monos[0].Var] = t
		}
	}
	sums := cs.poolTerms
	var out []presburger.Formula
	for i, f := range clause {
		c, ok := f.(presburger.Cmp)
		if !ok {
			continue
		}
		t := presburger.ConstTerm(c.T.Const)
		changed, exact := false, true
		for _, mo := range c.T.Monos {
			u := presburger.VarTerm(mo.Var)
			if sum, isPool := sums[mo.Var]; isPool {
				u, changed = sum, true
			}
			var fits bool
			if u, fits = u.ScaleExact(mo.Coef); fits {
				t, fits = t.AddExact(u)
			}
			exact = exact && fits
		}
		if !changed || !exact {
			continue // (an atom beyond int64 stays as it is, refused)
		}
		for _, mo := range c.T.Monos {
			if sum, isPool := sums[mo.Var]; isPool && !cs.poolUsed[mo.Var] {
				if cs.poolUsed == nil {
					cs.poolUsed = map[presburger.Var]bool{}
				}
				cs.poolUsed[mo.Var] = true
				cs.poolFacts = append(cs.poolFacts, presburger.Compare(sum, presburger.Eq, presburger.VarTerm(mo.Var)))
			}
		}
		if out == nil {
			out = slices.Clone(clause)
		}
		out[i] = presburger.Compare(t, c.Op, presburger.ConstTerm(0))
	}
	if out == nil {
		return clause
	}
	return out
}

// loosening is what the linear invariants of a model say of every
// reachable state (looseDomain).
type loosening struct {
	m     *counterabs.ParamModel
	lis   []linearInvariant
	index map[presburger.Var]int
	dom   map[presburger.Var]presburger.Bound // the domain, less the bounds they keep
	// support lists, for each invariant of lis with a constant
	// right-hand side, the variables of its nonzero weights, and
	// byVar, for each variable, those invariants (their indices in
	// lis) that weigh it positively: keepsBelow reads those alone (a
	// translation with every combination of a process's fields as a
	// local state has hundreds of invariants over 590 variables).
	support [][]int
	byVar   map[int][]int
	// fixed has the reading take an upper bound that a fixed sum makes
	// a lower bound so (fixedsum.go); ranged drops the greatest values
	// of the variables that may hold more than one (lossy.go).
	fixed, ranged bool
}

// looseDomain returns what the linear invariants lis of m say of its
// reachable states within domain: the domain without the greatest value
// of each state variable, but those of keep, that lis keep at most that
// (none when keep is nil), and (implies) the atoms they imply. Then no
// step from a reachable state leaves the domain there, nor is disabled
// by such an atom of its guard, and the system with those variables
// unbounded above and those atoms left out has the same runs. (By
// induction: a step from a reachable state, where lis and the domain
// hold, is in a case of stepCases that preserves lis, since a case that
// linearInvariants left out is excluded there, so its target satisfies
// lis and the least values, hence the greatest values dropped.) A
// transfer into a place written 0..1, "flag := flag + notflag" with
// flag + notflag = 1 (mist's queuedbusyflag so written), is then
// monotone for the backward search, which refuses it with the bound.
// Whatever the loosening, the search's runs are replayed on the model
// and its invariants checked there.
func looseDomain(m *counterabs.ParamModel, domain []presburger.Bound, lis []linearInvariant, keep map[presburger.Var]bool) loosening {
	l := loosening{m: m, lis: lis, index: map[presburger.Var]int{}, dom: domainBounds(domain)}
	for i := range m.NumState() {
		l.index[m.StateVar(i)] = i
	}
	l.support, l.byVar = make([][]int, len(lis)), map[int][]int{}
	for n, li := range lis {
		if !li.rhs.IsConst() {
			continue
		}
		for i, y := range li.coef {
			if y != 0 {
				l.support[n] = append(l.support[n], i)
			}
			if y > 0 {
				l.byVar[i] = append(l.byVar[i], n)
			}
		}
	}
	if keep == nil {
		return l
	}
	var loose []presburger.Var
	for i := range m.NumState() {
		v := m.StateVar(i)
		if b, ok := l.dom[v]; ok && !b.NoHi && !keep[v] && l.keepsBelow(map[int]int64{i: 1}, b.Hi, nil) {
			loose = append(loose, v)
		}
	}
	// After the loop: keepsBelow reads the least values alone.
	for _, v := range loose {
		b := l.dom[v]
		b.Hi, b.NoHi = 0, true
		l.dom[v] = b
	}
	return l
}

// prune returns the atoms of clause, a guard's, that the linear
// invariants do not imply with the least values of the domain and those
// of the clause's atoms (implies): "Igetbusyflag <= 0", the range check
// of "Igetbusyflag := Igetbusyflag + 1" on a place written 0..1,
// follows from "Iwhile >= 1" and the place invariant Iwhile +
// Igetbusyflag + ... = 1. An atom implies reads is an upper bound,
// which gives no variable a least value, so the least values are the
// kept atoms' own: the clause holds where the atoms kept do, in every
// reachable state. (They are read once per clause: mist's manufacture
// with its places as booleans has 4,096 clauses of 30 atoms in its bad
// states.)
func (l loosening) prune(clause []presburger.Formula) (kept []presburger.Formula, dropped int) {
	if len(l.lis) == 0 {
		return clause, 0
	}
	// An equality is its two halves, of which the upper one may be
	// implied (a bool's test x = 1, with x kept at most 1).
	atoms := halves(clause)
	narrowed := presburger.Narrowed(presburger.Conj(atoms...), l.dom)
	for _, f := range atoms {
		if l.implies(f, narrowed) {
			dropped++
			continue
		}
		kept = append(kept, f)
	}
	return kept, dropped
}

// prune is l.prune(clause), the atoms left out counted in cs.loosened.
func (cs *coverSystem) prune(l loosening, clause []presburger.Formula) []presburger.Formula {
	out, dropped := l.prune(clause)
	cs.loosened += dropped
	return out
}

// implies reports whether the atom f holds wherever the linear
// invariants and the least values of narrowed (the domain where it has
// no variable) do (keepsBelow): an upper bound on a nonnegative
// combination of state variables.
func (l loosening) implies(f presburger.Formula, narrowed map[presburger.Var]presburger.Bound) bool {
	t, k, ok := upperBound(f)
	if !ok {
		return false
	}
	u := map[int]int64{}
	for _, mo := range t.Monos {
		i, ok := l.index[mo.Var]
		if !ok || mo.Coef <= 0 {
			return false
		}
		u[i] = mo.Coef
	}
	return l.keepsBelow(u, k, narrowed)
}

// halves returns clause with each equation written as its two halves,
// "t >= 0" and "t <= 0".
func halves(clause []presburger.Formula) []presburger.Formula {
	var atoms []presburger.Formula
	for _, f := range clause {
		if c, ok := f.(presburger.Cmp); ok && c.Op == presburger.Eq {
			atoms = append(atoms, presburger.Cmp{T: c.T, Op: presburger.Ge}, presburger.Cmp{T: c.T, Op: presburger.Le})
			continue
		}
		atoms = append(atoms, f)
	}
	return atoms
}

// upperBound reads f, a comparison, as "t <= k" with t its term less
// the constant (T < 0 is T + 1 <= 0); ok is false for an equation or a
// disequation.
func upperBound(f presburger.Formula) (t presburger.Term, k int64, ok bool) {
	c, ok := f.(presburger.Cmp)
	if !ok {
		return t, 0, false
	}
	t = c.T
	switch c.Op {
	case presburger.Ge, presburger.Gt:
		t = t.Scale(-1)
	case presburger.Le, presburger.Lt:
	default:
		return t, 0, false
	}
	k = -t.Const
	if c.Op == presburger.Lt || c.Op == presburger.Gt {
		k--
	}
	return t, k, true
}

// keepsBelow reports whether u.x <= k (u >= 0, over state variables by
// index) holds wherever the linear invariants and the least values of
// narrowed (or of the domain) do: some invariant y.x = c has y >= u,
// and c - (y-u).lo <= k, lo the least values (u.x = y.x - (y-u).x, and
// (y-u).x is at least (y-u).lo).
func (l loosening) keepsBelow(u map[int]int64, k int64, narrowed map[presburger.Var]presburger.Bound) bool {
	// The invariants that weigh u's first variable (the least) are the
	// candidates: y >= u > 0 there.
	first := -1
	for i := range u {
		if first < 0 || i < first {
			first = i
		}
	}
	cands := l.byVar[first]
	if first < 0 {
		// u = 0: every invariant with a constant right-hand side.
		cands = nil
		for n, li := range l.lis {
			if li.rhs.IsConst() {
				cands = append(cands, n)
			}
		}
	}
candidates:
	for _, n := range cands {
		li := l.lis[n]
		for i, w := range u {
			if li.coef[i] < w {
				continue candidates
			}
		}
		// Off the support, y and u are 0 (u is within it).
		rest, ok := int64(0), true
		for _, i := range l.support[n] {
			y := li.coef[i]
			d := y - u[i]
			if d < 0 {
				ok = false
				break
			}
			if d == 0 {
				continue
			}
			v := l.m.StateVar(i)
			b, has := narrowed[v]
			if !has {
				b, has = l.dom[v]
			}
			if !has || b.NoLo {
				ok = false
				break
			}
			if rest, ok = combine(1, rest, d, b.Lo); !ok {
				break
			}
		}
		if !ok {
			continue
		}
		// Every variable of u has a weight in y (y >= u > 0 there).
		if top, fits := checked.Add(li.rhs.Const, -rest); fits && top <= k {
			return true
		}
	}
	return false
}

// readParams reads the parameters of the system as the search takes
// them, like group sizes: each the initial value of a state variable
// or of a sum of them (mist's "I >= 1", a place that starts with any
// number of tokens at least one, where the place is a shared counter),
// within the bounds that the assumption sets on it alone, which join
// its domain in cs.dom; false when the assumption is of another shape.
// (Guards, updates and bad states that read a parameter are refused
// with the other shapes.)
func (cs *coverSystem) readParams() bool {
	m := cs.m
	if len(m.System.Params) == 0 {
		return true
	}
	var aliases [][2]presburger.Var // size, parameter
	for _, f := range presburger.Conjuncts(m.Constraint) {
		c, ok := f.(presburger.Cmp)
		if size, param, isAlias := sizeAlias(m, c); ok && isAlias {
			aliases = append(aliases, [2]presburger.Var{size, param})
			continue
		}
		if !ok || len(c.T.Monos) != 1 || !isParamVar(m, c.T.Monos[0].Var) {
			return false
		}
		v := c.T.Monos[0].Var
		b, ok := cs.dom[v]
		if !ok {
			b = presburger.AnyInt(v)
		}
		if b = b.Tighten(c.T.Monos[0].Coef, c.T.Const, c.Op); b.Empty() {
			return false
		}
		cs.dom[v] = b
	}
	for k := range m.System.Params {
		if b := cs.dom[m.ParamVar(k)]; b.NoLo {
			return false
		}
	}
	// A group sized by a parameter alone ("groups: {a: k}" with
	// "assume: k >= 1") is a ranged group: the size takes the
	// parameter's bounds, and a run's parameter is its group's size.
	cs.sizeOf = map[presburger.Var]presburger.Var{}
	for _, a := range aliases {
		size, param := a[0], a[1]
		if _, twice := cs.sizeOf[param]; twice || slices.ContainsFunc(aliases, func(b [2]presburger.Var) bool { return b[0] == size && b[1] != param }) {
			return false
		}
		b := cs.dom[size].Intersect(cs.dom[param])
		if b.Empty() {
			return false
		}
		cs.dom[size], cs.sizeOf[param] = b, size
	}
	return true
}

// sizeAlias reads c as "a group's size equals a parameter", |g| - k = 0.
func sizeAlias(m *counterabs.ParamModel, c presburger.Cmp) (size, param presburger.Var, ok bool) {
	if c.Op != presburger.Eq || c.T.Const != 0 || len(c.T.Monos) != 2 || c.T.Monos[0].Coef != -c.T.Monos[1].Coef || (c.T.Monos[0].Coef != 1 && c.T.Monos[0].Coef != -1) {
		return 0, 0, false
	}
	a, b := c.T.Monos[0].Var, c.T.Monos[1].Var
	switch {
	case isSizeVar(m, a) && isParamVar(m, b):
		return a, b, true
	case isSizeVar(m, b) && isParamVar(m, a):
		return b, a, true
	}
	return 0, 0, false
}

// isSizeVar reports whether v is the size variable of a group of m.
func isSizeVar(m *counterabs.ParamModel, v presburger.Var) bool {
	for g := range m.System.Groups {
		if m.SizeVar(g) == v {
			return true
		}
	}
	return false
}

// isParamVar reports whether v is the variable of a parameter of m.
func isParamVar(m *counterabs.ParamModel, v presburger.Var) bool {
	for k := range m.System.Params {
		if m.ParamVar(k) == v {
			return true
		}
	}
	return false
}

// initialSum is a group of variables whose initial values sum to the
// size of a group, or of several: the processes of a group that starts
// spread over several states (mist's "Owhile >= 0", the tokens of a
// place that may hold any number, is a group spread over that place
// and a state that never moves), or, with one variable, all in one
// state; several groups that start in the same states (two groups of
// one protocol, "proc: 1.." and "other: 1..": #I = |proc| + |other|).
// A group of a fixed size spread over several states sums to that
// size, a constant (total, with no sizes: crash with "proc: 10" and
// "init: [A, B]").
type initialSum struct {
	vars  []int
	sizes []presburger.Var
	total int64
}

// maxFixedTotal bounds the size of a fixed group spread over several
// states that the search reads (initialSum's total): with more
// processes its elements count them up to thresholds of that order,
// and it ends by running out of work (ByMC's aba and cc at a fixed n of
// 1,000: 1.0 and 4.6 s, where the lemmas decide them in 0.1 s once
// the search does not read them); Cubicle's crash with a fixed size of
// 100 is proved by it in 0.2 s.
const maxFixedTotal = 100

// sumBound is the range of the sum of st's sizes (and total).
func (cs *coverSystem) sumBound(st initialSum) presburger.Bound {
	b := presburger.Bound{Lo: st.total, Hi: st.total}
	for _, v := range st.sizes {
		d := cs.dom[v]
		b.NoLo, b.NoHi = b.NoLo || d.NoLo, b.NoHi || d.NoHi
		b.Lo += d.Lo // sizes are at most gsst.MaxProcesses: no overflow
		b.Hi += d.Hi
	}
	return b
}

// readInitial reads the model's initial states, m.Initial, as equations
// "x_j = c" and "sum of x_j over a set = |g|", each state variable in
// one of them at most and each size in one at most, and bounds
// "x_j >= c", "x_j <= c" on the variables no equation defines: a
// variable with neither starts anywhere in its domain (a shared
// variable whose initial value is a range, "0.." or "1..", as a
// Petri net's place that starts with any number of tokens, at least
// one). False when some conjunct is of another shape.
func (cs *coverSystem) readInitial(index map[presburger.Var]int) bool {
	m := cs.m
	k := len(cs.lo)
	cs.initConst = slices.Clone(cs.lo)
	cs.initHi = make([]int64, k)
	cs.initOpen = make([]bool, k)
	cs.initSum = make([]int, k)
	for j := range k {
		cs.initSum[j] = -1
		cs.initOpen[j] = true
	}
	defined := make([]bool, k)
	bounded := make([]bool, k)
	usedSize := map[presburger.Var]bool{}
	for _, f := range presburger.Conjuncts(m.Initial) {
		c, ok := f.(presburger.Cmp)
		if !ok {
			return false
		}
		var vars []int
		var others []presburger.Mono
		sign := int64(0)
		for _, mo := range c.T.Monos {
			j, isState := index[mo.Var]
			if !isState {
				others = append(others, mo)
				continue
			}
			if sign == 0 {
				sign = mo.Coef
			}
			if mo.Coef != sign || sign != 1 && sign != -1 {
				return false
			}
			vars = append(vars, j)
		}
		if c.Op != presburger.Eq {
			// sign*x_j + c op 0: a bound on x_j.
			if len(vars) != 1 || len(others) > 0 {
				return false
			}
			j := vars[0]
			b := presburger.AnyInt(m.StateVar(j)).Tighten(sign, c.T.Const, c.Op)
			switch {
			case b.Empty():
				return false
			case (b.NoLo || b.Lo <= cs.lo[j]) && (b.NoHi || cs.comp[j] >= 0 && b.Hi >= cs.hi[j]):
				continue // the domain's own bound
			case defined[j]:
				return false
			}
			bounded[j] = true
			if !b.NoLo {
				cs.initConst[j] = max(cs.initConst[j], b.Lo)
			}
			if !b.NoHi && (cs.initOpen[j] || b.Hi < cs.initHi[j]) {
				cs.initHi[j], cs.initOpen[j] = b.Hi, false
			}
			continue
		}
		if len(vars) == 0 {
			return false
		}
		for _, j := range vars {
			if bounded[j] || defined[j] {
				return false
			}
			defined[j] = true
		}
		switch {
		case len(others) == 0 && len(vars) == 1:
			// x_j + c = 0 (or -x_j + c = 0).
			j := vars[0]
			cs.initConst[j] = -c.T.Const * sign
			cs.initHi[j], cs.initOpen[j] = cs.initConst[j], false
			if cs.initConst[j] < cs.lo[j] {
				return false
			}
		case len(others) == 0:
			// x_j1 + ... + x_jk = c: a group of a fixed size spread.
			total, fits := checked.Mul(c.T.Const, -sign)
			st := initialSum{vars: vars, total: total}
			if !fits || st.total < 0 || st.total > maxFixedTotal {
				return false
			}
			for _, j := range vars {
				cs.initSum[j] = len(cs.starts)
			}
			cs.starts = append(cs.starts, st)
		case len(others) == 1 && others[0].Coef == -sign && !usedSize[others[0].Var] && (isSizeVar(m, others[0].Var) || isParamVar(m, others[0].Var)),
			len(others) > 1 && !slices.ContainsFunc(others, func(o presburger.Mono) bool {
				return o.Coef != -sign || usedSize[o.Var] || !isSizeVar(m, o.Var)
			}):
			// x_j1 + ... + x_jk = |g| + c, the constant c a fixed part
			// of the sum (a place counted from its least value 1,
			// "init: k + 1", starts at k + 1: issue 29's shift style).
			total, fits := checked.Mul(c.T.Const, -sign)
			st := initialSum{vars: vars, total: total}
			if !fits || st.total < 0 || st.total > maxFixedTotal {
				return false
			}
			for _, o := range others {
				usedSize[o.Var] = true
				st.sizes = append(st.sizes, o.Var)
			}
			for _, j := range vars {
				cs.initSum[j] = len(cs.starts)
			}
			cs.starts = append(cs.starts, st)
		default:
			return false
		}
	}
	for j := range k {
		switch {
		case cs.initSum[j] >= 0:
			// A bound on a variable of a sum came after its equation
			// (refused above) or before it: refused here.
			if bounded[j] {
				return false
			}
		case !cs.initOpen[j] && cs.initHi[j] < cs.initConst[j]:
			return false // no initial state
		}
	}
	return true
}

// exactInit reports whether variable j, outside the sums, has one
// initial value.
func (cs *coverSystem) exactInit(j int) bool {
	return cs.initSum[j] < 0 && !cs.initOpen[j] && cs.initHi[j] == cs.initConst[j]
}

// upwardClause reads a conjunction of atoms over the state variables as
// lower bounds (need, one per variable, at least its domain's) and sums
// of several variables with positive weights; ok is false for an atom of
// any other shape (an upper bound on a variable with no greatest value,
// a variable that is no state variable). An upper bound on a variable
// with a greatest value is a lower bound on its complement, and an
// equation both bounds. In a guard (not in the bad states), an upper
// bound on a sum of variables with no greatest value, weights positive,
// is a cap (lossy.go).
func upwardClause(cs *coverSystem, index map[presburger.Var]int, clause []presburger.Formula, guard bool) (need []int64, sums, caps []sumAtom, ok bool) {
	need = slices.Clone(cs.lo)
	for _, f := range clause {
		c, isCmp := f.(presburger.Cmp)
		if !isCmp {
			return nil, nil, nil, false
		}
		// T op 0 as sums >= bounds, with the sign that makes the
		// weights positive.
		var sides []presburger.Term
		strict := false
		switch c.Op {
		case presburger.Ge:
			sides = []presburger.Term{c.T}
		case presburger.Gt:
			sides, strict = []presburger.Term{c.T}, true
		case presburger.Le:
			sides = []presburger.Term{c.T.Scale(-1)}
		case presburger.Lt:
			sides, strict = []presburger.Term{c.T.Scale(-1)}, true
		case presburger.Eq:
			sides = []presburger.Term{c.T, c.T.Scale(-1)}
		default:
			return nil, nil, nil, false
		}
		for _, t := range sides {
			a, ok := cs.atLeast(index, t, strict)
			if !ok {
				a, ok = cs.complemented(index, t, strict)
			}
			if !ok {
				// An upper bound, which a guard may have (lossy.go).
				cp, isCap := cs.atMost(index, t, strict)
				switch {
				case !isCap:
					return nil, nil, nil, false
				case cp.bound < 0:
					return nil, nil, nil, true // false: a clause no state satisfies
				case !guard:
					return nil, nil, nil, false
				}
				caps = append(caps, cp)
				continue
			}
			switch len(a.vars) {
			case 0:
				if a.bound > 0 {
					return nil, nil, nil, true // false: a clause no state satisfies
				}
			case 1:
				need[a.vars[0]] = max(need[a.vars[0]], checked.CeilDiv(a.bound, a.coef[0]))
			default:
				sums = append(sums, a)
			}
		}
	}
	return need, sums, caps, true
}

// atLeast reads t >= 0 (t > 0 when strict) as a sum of the vector's
// variables with positive weights at least a bound: a negative weight
// -a on x_i, whose domain's greatest value is hi, is a on its
// complement hi - x_i; ok is false for a negative weight on another
// variable, a variable that is no state variable, or a bound beyond
// int64.
func (cs *coverSystem) atLeast(index map[presburger.Var]int, t presburger.Term, strict bool) (a sumAtom, ok bool) {
	bound := -t.Const
	if strict {
		bound++
	}
	for _, mo := range t.Monos {
		j, isState := index[mo.Var]
		coef := mo.Coef
		switch {
		case !isState:
			return sumAtom{}, false
		case coef < 0 && cs.comp[j] >= 0:
			// coef*x_j = -coef*(hi - x_j) + coef*hi.
			if bound, ok = combine(1, bound, -coef, cs.hi[j]); !ok {
				return sumAtom{}, false
			}
			j, coef = cs.comp[j], -coef
		case coef <= 0:
			if cs.unbounded[j] {
				cs.wantBound = append(cs.wantBound, cs.stateVar(j))
			}
			return sumAtom{}, false
		}
		if at := slices.Index(a.vars, j); at >= 0 {
			if a.coef[at], ok = checked.Add(a.coef[at], coef); !ok {
				return sumAtom{}, false
			}
			continue
		}
		a.vars = append(a.vars, j)
		a.coef = append(a.coef, coef)
	}
	a.bound = bound
	return a, true
}

// minimal returns the minimal vectors at least base that satisfy every
// sum, nil when need is nil (a clause no state satisfies).
func (cs *coverSystem) minimal(base []int64, sums []sumAtom) [][]int64 {
	if base == nil {
		return nil
	}
	var out [][]int64
	var walk func(x []int64)
	walk = func(x []int64) {
		if len(out) > maxSumSplits {
			cs.tooMany = true
			return
		}
		for _, a := range sums {
			s := int64(0)
			for j, v := range a.vars {
				s += a.coef[j] * x[v]
			}
			if s >= a.bound {
				continue
			}
			// One variable to raise: by what the sum lacks, at once
			// (a threshold of a billion, one unit a step, overflowed
			// the stack). Several: one unit of one of them at a time,
			// each in turn, which a deficit of more than
			// maxSumDeficit makes too many ways.
			// The variables that may be raised: not dead
			// (coverdead.go); one, the first, when live is 1.
			live, first := 0, -1
			for i, v := range a.vars {
				if cs.dead != nil && cs.dead[v] {
					continue
				}
				if live++; first < 0 {
					first = i
				}
			}
			if live < len(a.vars) {
				cs.deadSkipped = true
			}
			if live == 1 {
				k := a.coef[first]
				if k <= 0 {
					cs.tooMany = true
					return
				}
				lack, ok := checked.Add(a.bound, -s)
				raised := int64(0)
				if ok {
					raised, ok = checked.Add(x[a.vars[first]], checked.CeilDiv(lack, k))
				}
				if !ok {
					cs.tooMany = true
					return
				}
				y := slices.Clone(x)
				y[a.vars[first]] = raised
				walk(y)
				return
			}
			if a.bound-s > maxSumDeficit {
				cs.tooMany = true
				return
			}
			// Raise one of its variables by one, each in turn; the
			// results above another are dropped below. A dead
			// variable is never raised (coverdead.go).
			for _, v := range a.vars {
				if cs.dead != nil && cs.dead[v] {
					cs.deadSkipped = true
					continue
				}
				y := slices.Clone(x)
				y[v]++
				walk(y)
			}
			return
		}
		out = append(out, x)
	}
	walk(base)
	if cs.tooMany {
		return nil // the caller gives up
	}
	return minimalAbove(base, out)
}

// minimalAbove drops the vectors of xs, each at least base, that are
// above (or equal to) another, keeping the first of equal ones. It
// compares two vectors where the first exceeds base only: the few
// variables the sums raised (a bad state of Cubicle's German protocol
// as a GSST asks for thousands of such vectors, of 654 variables each,
// and comparing them whole took minutes).
func minimalAbove(base []int64, xs [][]int64) [][]int64 {
	if len(xs) <= 1 {
		return xs // (what pre mostly finds: no sum to meet)
	}
	// raised[at[i]:at[i+1]] are the variables where xs[i] exceeds
	// base, in one buffer (two allocations, not one per vector).
	at := make([]int, len(xs)+1)
	var raised []int
	for i, x := range xs {
		for j := range x {
			if x[j] > base[j] {
				raised = append(raised, j)
			}
		}
		at[i+1] = len(raised)
	}
	// below says xs[a] <= xs[b]: off raised[a], xs[a] is base.
	below := func(a, b int) bool {
		for _, j := range raised[at[a]:at[a+1]] {
			if xs[a][j] > xs[b][j] {
				return false
			}
		}
		return true
	}
	out := make([][]int64, 0, len(xs))
	for i, x := range xs {
		covered := false
		for j := range xs {
			if j != i && below(j, i) && (!below(i, j) || j < i) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, x)
		}
	}
	return out
}

// leq reports whether x <= y componentwise.
func leq(x, y []int64) bool {
	for j := range x {
		if x[j] > y[j] {
			return false
		}
	}
	return true
}

// pre returns the minimal states from which s leads to a state at
// least m. They may share cs.scratch, which the next call overwrites.
func (cs *coverSystem) pre(s *coverStep, m []int64) [][]int64 {
	p := append(cs.scratch[:0], s.need...)
	cs.scratch = p
	moved := cs.movedScratch[:0]
	for j := range p {
		if s.moved != nil && s.moved[j] != nil {
			// After the step the sum must be at least m_j and in the
			// domain: a lower bound on the sum before it.
			t := s.moved[j]
			bound, ok := combine(1, max(m[j], cs.lo[j]), -1, t.c)
			if !ok {
				cs.movedScratch = moved
				cs.tooMany = true
				return nil
			}
			if len(t.vars) == 1 {
				p[t.vars[0]] = max(p[t.vars[0]], checked.CeilDiv(bound, t.coef[0]))
				continue
			}
			moved = append(moved, movedBound{t, bound})
			continue
		}
		if s.reset[j] {
			if s.set[j] < m[j] || s.set[j] < cs.lo[j] {
				cs.movedScratch = moved
				return nil
			}
			continue
		}
		// After the step x_j + add_j must be at least m_j and in the
		// domain.
		p[j] = max(p[j], m[j]-s.add[j], cs.lo[j]-s.add[j])
	}
	cs.movedScratch = moved
	// The bounds on sums of several variables, after the step's own
	// atoms and in the order of the variables moved, but those that p
	// meets already: every coefficient is positive, so minimal, which
	// only raises p, would find them met at every vector it visits
	// and pass over them (a transfer into a state m asks nothing of
	// leaves a bound of 0 or less).
	sums := s.sums
	if len(moved) > 0 {
		sums = append(cs.sumScratch[:0], s.sums...)
		for _, mb := range moved {
			if sumMeets(mb.t.vars, mb.t.coef, p, mb.bound) {
				continue
			}
			sums = append(sums, sumAtom{vars: mb.t.vars, coef: mb.t.coef, bound: mb.bound})
		}
		cs.sumScratch = sums
	}
	return cs.preCaps(s, cs.minimal(p, sums))
}

// movedBound is a lower bound on the sum t before a step (pre).
type movedBound struct {
	t     *sumTerm
	bound int64
}

// sumMeets reports whether the sum of coef[i]*x[vars[i]] is at least
// bound, false when it does not fit in int64.
func sumMeets(vars []int, coef []int64, x []int64, bound int64) bool {
	s := int64(0)
	for i, v := range vars {
		var ok bool
		if s, ok = combine(1, s, coef[i], x[v]); !ok {
			return false
		}
	}
	return s >= bound
}

// initialAbove returns the parameter values (the sizes and n) of an
// instance whose initial state is at least x, or ok false when none is.
// Each group's size is the least its range and x allow; a failing check
// of those values against the domain and Init means the shape of the
// initial states is not what monotoneSystem read, and is reported as
// exact false (the caller gives up).
func (cs *coverSystem) initialAbove(x []int64) (params presburger.Model, state []int64, ok, exact bool) {
	m := cs.m
	params = presburger.Model{}
	for g := range m.System.Groups {
		b := cs.dom[m.SizeVar(g)]
		params[m.SizeVar(g)] = b.Lo
	}
	for k := range m.System.Params {
		params[m.ParamVar(k)] = cs.dom[m.ParamVar(k)].Lo
	}
	state = make([]int64, len(x))
	for j := range cs.k {
		switch c := cs.comp[j]; {
		case cs.initSum[j] >= 0:
		case c >= 0:
			// The least value that x_j may start at, which leaves
			// the most to its complement.
			v := max(cs.initConst[j], x[j])
			if v > cs.initHi[j] || cs.hi[j]-v < x[c] {
				return nil, nil, false, true
			}
			state[j], state[c] = v, cs.hi[j]-v
		default:
			if !cs.initOpen[j] && cs.initHi[j] < x[j] {
				return nil, nil, false, true
			}
			state[j] = max(cs.initConst[j], x[j])
		}
	}
	// The one-hot variables at their initial values (hotInitial).
	for j := cs.hot0; j < len(x) && cs.hotVar != nil; j++ {
		if x[j] > cs.initConst[j] {
			return nil, nil, false, true
		}
		state[j] = cs.initConst[j]
	}
	// Each group's processes where x asks for them (at least the
	// domain's least value), the rest of its least size in its first
	// state.
	for _, st := range cs.starts {
		need := int64(0)
		for _, j := range st.vars {
			state[j] = max(x[j], cs.lo[j])
			var fits bool
			if need, fits = checked.Add(need, state[j]); !fits {
				return nil, nil, false, false
			}
		}
		if b := cs.sumBound(st); !b.NoHi && b.Hi < need {
			return nil, nil, false, true
		}
		total := st.total
		for _, v := range st.sizes {
			total += params[v]
		}
		if need < total {
			state[st.vars[0]] += total - need
		}
		// The processes beyond the least sizes go to the first group
		// that has room for them.
		for _, v := range st.sizes {
			b := cs.dom[v]
			more := need - total
			if !b.NoHi {
				more = min(more, b.Hi-params[v])
			}
			if more > 0 {
				params[v] += more
				total += more
			}
		}
	}
	n := int64(0)
	for g := range m.System.Groups {
		n += params[m.SizeVar(g)]
	}
	params[m.NVar()] = n
	for param, size := range cs.sizeOf {
		params[param] = params[size]
	}
	val := func(v presburger.Var) int64 {
		for j := range cs.k {
			if cs.stateVar(j) == v {
				return state[j]
			}
		}
		for i, d := range cs.projected {
			if m.StateVar(d) == v {
				return cs.projectedLo[i]
			}
		}
		return params[v]
	}
	for _, v := range cs.ts.Params {
		if b, ok := cs.dom[v]; ok && !b.Contains(params[v]) {
			return nil, nil, false, false
		}
	}
	if !presburger.Eval(cs.ts.Init, val) {
		// No initial state is above x when a cap of the initial states
		// (a premise "#p <= 1") fails on variables the state took from
		// x alone; otherwise the shape is not what was read.
		return nil, nil, false, cs.initialCapFails(state, x, val)
	}
	return params, state, true, true
}

// initialCapFails reports whether some conjunct of the initial states
// (a property's premise, such as "#p <= 1" on a group spread over o and
// p) is a cap, "sum of a*x <= b" with every a positive over state
// variables, that state violates on variables where it equals x and
// that are no group's first start (where initialAbove puts the rest of
// a group): every initial state above x has those values or larger, and
// violates it too.
func (cs *coverSystem) initialCapFails(state, x []int64, val func(presburger.Var) int64) bool {
	first := map[int]bool{}
	for _, st := range cs.starts {
		first[st.vars[0]] = true
	}
	index := map[presburger.Var]int{}
	for j := range cs.k {
		index[cs.stateVar(j)] = j
	}
	// A variable projected out starts at its least value, in every
	// initial state (coverdead.go).
	projected := map[presburger.Var]bool{}
	for _, j := range cs.projected {
		projected[cs.m.StateVar(j)] = true
	}
	for _, f := range presburger.Conjuncts(cs.ts.Init) {
		c, ok := f.(presburger.Cmp)
		if !ok || presburger.Eval(c, val) {
			continue
		}
		sign := int64(1) // T <= 0 or T < 0: positive weights
		switch c.Op {
		case presburger.Le, presburger.Lt:
		case presburger.Ge, presburger.Gt:
			sign = -1
		default:
			continue
		}
		isCap := len(c.T.Monos) > 0
		for _, mo := range c.T.Monos {
			if projected[mo.Var] {
				isCap = isCap && sign*mo.Coef > 0
				continue
			}
			j, isState := index[mo.Var]
			isCap = isCap && isState && sign*mo.Coef > 0 && !first[j] && state[j] == x[j]
		}
		if isCap {
			return true
		}
	}
	return false
}

// coverOutcome is what the backward search found.
type coverOutcome struct {
	// Exactly one of cex (a run into a bad state) and invariant (the
	// complement of the fixpoint's upward closure) is set when the search
	// answered; neither when it ran out of work (exhausted) or could not
	// read the initial states.
	cex       *presburger.Counterexample
	invariant presburger.Formula
	exhausted bool
	// spurious, when the search with generalized elements found an
	// initial state below an element whose chain of steps passes
	// through a generalized one (so that it is no run to a bad state),
	// holds the states of the chain up to that element: reachable
	// states, the last above the generalized element, which the sample
	// lacked.
	spurious [][]int64
	// generalized counts the elements generalized (over every search
	// of generalizedSearch), restarts the searches started again after
	// a wrong guess.
	generalized, restarts int
	// capped says that the chain from an initial state passes through
	// a step whose caps do not hold there: the lossy system reaches a
	// bad state that the model may not (lossy.go), and no search of it
	// can prove the property.
	capped   bool
	elements int   // the minimal elements kept at the end
	work     int64 // the comparisons done
}

// coverElement is a minimal element found: its vector, the step from it
// and the element that step leads above (-1 for a bad element).
type coverElement struct {
	x    []int64
	step int
	next int
	// guess says that x was generalized: no chain of steps from it to
	// a bad state is known.
	guess bool
}

// backward runs the search within budget vector comparisons, in
// rounds of growing work: the plain search within coverFirstWork, then
// the search with generalization (generalizedSearch) within as much,
// then both again within four times as much, and so on up to budget
// each. The plain search answers most questions in its first round
// (every refutation of the suites: kanban's run takes 1.1 million
// comparisons), the generalized one where the plain search keeps
// unreachable elements that no place invariant rules out (mist's
// delegatebuffer and queuedbusyflag); a round that ends within its work
// ends as the search would alone, and the rounds together cost less than
// three times the last. Between the rounds runs cs.probe, when set.
func (cs *coverSystem) backward(ctx context.Context, budget int64) coverOutcome {
	var smp *coverSample
	spent := int64(0)
	// Each round goes on with the searches of the last (coverSearch):
	// the plain one, and the generalized one on the sample as it is.
	plain := cs.newSearch(nil)
	var gen *coverSearch
	for round := min(coverFirstWork, budget); ; round = min(4*round, budget) {
		out := plain.run(ctx, round)
		spent += out.work
		if !out.exhausted || ctx.Err() != nil {
			out.work = spent
			return out
		}
		if smp == nil {
			if smp = cs.sample(ctx, sampleExtra, sampleLeast, sampleStates, &spent); smp == nil {
				return coverOutcome{exhausted: true, work: spent}
			}
		}
		g := cs.generalizedSearch(ctx, round, smp, &gen)
		spent += g.work
		if g.cex != nil || g.invariant != nil || g.capped || ctx.Err() != nil || round == budget {
			g.work = spent
			return g
		}
		if cs.probe != nil && cs.probe(ctx, round) {
			return coverOutcome{exhausted: true, work: spent}
		}
	}
}

// coverFirstWork is the work of the first round of backward.
const coverFirstWork = 2_000_000

// search is the backward search within budget vector comparisons.
//
// With smp, each new element is first generalized by the sample
// (generalize): the search keeps a smaller vector that no sampled
// state covers and no initial state lies above, as a guess. An element
// below an initial state whose chain passes through a guess is no run:
// the search ends with the chain's states (spurious), for the caller
// to add to the sample and start again.
func (cs *coverSystem) search(ctx context.Context, budget int64, smp *coverSample) coverOutcome {
	return cs.newSearch(smp).run(ctx, budget)
}

// coverSearch is a search (see search) that a later call of run goes
// on with where the last one ran out of work, rather than starting
// again: the search is the same sequence of steps whatever its budget
// (the budget only says where it stops), so run(ctx, b) after runs
// with smaller budgets answers as one run(ctx, b) of a new search
// would, without doing the work of the earlier ones again. backward's
// rounds of growing work did it again: a quarter of the work of
// Cubicle's germanish4 (78 of 58 million comparisons).
type coverSearch struct {
	// used is the work done so far, over all the calls.
	used int64
	// run goes on within total comparisons in all (counting used);
	// its outcome's work is that of this call. A search that has
	// answered (anything but out of work) is not run again.
	run func(ctx context.Context, total int64) coverOutcome
}

// newSearch returns the search with the sample smp (nil: none), not
// started.
func (cs *coverSystem) newSearch(smp *coverSample) *coverSearch {
	srch := &coverSearch{}
	var work int64 // what is left of the current call's total
	var elems []coverElement
	var dists [][2]int64
	var basis antichain // the minimal elements kept
	dead := map[int]bool{}
	// The elements wait for their predecessors in order of how far
	// they are above the initial states (distance, then age): the
	// search goes first where a run is likely, and reaches the same
	// fixpoint in any order.
	waiting := coverQueue{dist: &dists}
	rounds := 0
	var found = -1
	var params presburger.Model
	var start []int64
	exact := true
	pruned := cs.dropped > 0 // the invariants that left steps out
	generalized := 0
	idx := cs.newInvIndex()
	add := func(x []int64, step, next int) {
		if idx.unreachable(cs, x) {
			pruned = true
			return
		}
		work -= int64(basis.len())
		key := keyOf(x)
		if basis.covers(x, key) {
			return
		}
		for _, v := range x {
			if v > gsst.MaxValue {
				exact = false
				return
			}
		}
		guess := false
		if smp != nil {
			var g []int64
			var spent int64
			g, guess = cs.generalize(x, smp, &spent)
			work -= spent
			if guess {
				x, key = g, keyOf(g)
				generalized++
			}
		}
		if !guess {
			x = slices.Clone(x) // pre's scratch, or a bad state of cs
		}
		basis.insert(len(elems), x, key, dead)
		elems = append(elems, coverElement{x: x, step: step, next: next, guess: guess})
		dists = append(dists, cs.distance(x))
		heap.Push(&waiting, len(elems)-1)
		if found < 0 && !guess {
			p, s, ok, ex := cs.initialAbove(x)
			exact = exact && ex
			if ok {
				found, params, start = len(elems)-1, p, s
			}
		}
	}
	started := false
	srch.run = func(ctx context.Context, total int64) (out coverOutcome) {
		work = total - srch.used
		before := srch.used
		defer func() {
			srch.used = total - work
			out.work, out.generalized = srch.used-before, generalized
		}()
		if !started {
			started = true
			for _, b := range cs.bad {
				add(b, -1, -1)
			}
		}
		for ; waiting.Len() > 0 && found < 0 && exact && work > 0; rounds++ {
			if rounds%256 == 0 && ctx.Err() != nil {
				return coverOutcome{exhausted: true}
			}
			e := heap.Pop(&waiting).(int)
			if dead[e] {
				continue
			}
			for si := range cs.steps {
				for _, p := range cs.pre(&cs.steps[si], elems[e].x) {
					add(p, si, e)
					if found >= 0 || !exact {
						break
					}
				}
				exact = exact && !cs.tooMany
			}
		}
		switch {
		case !exact:
			return coverOutcome{}
		case found >= 0:
			states, steps, end := cs.walk(elems, found, start)
			switch end {
			case endGuess:
				return coverOutcome{exhausted: true, spurious: states, elements: basis.len()}
			case endCapped:
				return coverOutcome{capped: true, elements: basis.len()}
			}
			states, trans := cs.expandRun(states, steps)
			return coverOutcome{cex: cs.run(states, trans, params), elements: basis.len()}
		case waiting.Len() > 0:
			return coverOutcome{exhausted: true, elements: basis.len()}
		}
		out = coverOutcome{elements: basis.len()}
		atoms := 0
		for _, x := range basis.x {
			for j, v := range x {
				if v > cs.lo[j] {
					atoms++
				}
			}
		}
		if basis.len() <= maxCoverProof || atoms <= maxCoverAtoms {
			least := make([]int64, len(cs.lo))
			for j := range least {
				least[j] = cs.leastCount(j)
			}
			var parts []presburger.Formula
			for _, x := range basis.x {
				var below []presburger.Formula
				for j, v := range x {
					// x_j < v is false where x_j is always at least v.
					if v > cs.lo[j] && v > least[j] {
						below = append(below, cs.entryFormula(map[int]int64{j: 1}, presburger.Lt, v))
					}
				}
				parts = append(parts, presburger.Disj(below...))
			}
			if pruned {
				for _, inv := range cs.invs[:cs.semi] {
					y := map[int]int64{}
					for _, j := range inv.support {
						y[j] = inv.y[j]
					}
					parts = append(parts, cs.entryFormula(y, presburger.Eq, inv.c))
				}
				// The linear invariants that pruned, with the others of
				// their set: they are inductive together.
				parts = append(parts, cs.linearFacts)
			}
			if !brokenPoolFacts {
				parts = append(parts, cs.poolFacts...)
			}
			if cs.deadSkipped || cs.projected != nil {
				parts = append(parts, cs.deadFacts(pruned)...)
			}
			out.invariant = presburger.Conj(parts...)
		}
		return out
	}
	return srch
}

// walk follows the chain of steps from element e, started in the
// initial state start, and returns the states it passes through, the
// steps, and where it ends: at a bad element (a run), at a generalized
// one, or at a step whose caps the state it passes through does not
// meet (lossy.go; the states end there).
func (cs *coverSystem) walk(elems []coverElement, e int, start []int64) (states [][]int64, steps []int, end chainEnd) {
	x := start
	states = append(states, x)
	for ; !elems[e].guess && elems[e].step >= 0; e = elems[e].next {
		s := &cs.steps[elems[e].step]
		if !withinCaps(s.caps, x) && !brokenCaps {
			return states, steps, endCapped
		}
		x = cs.apply(s, x)
		states = append(states, x)
		steps = append(steps, elems[e].step)
	}
	if elems[e].guess && !brokenChains {
		return states, steps, endGuess
	}
	return states, steps, endBad
}

// chainEnd is where a chain of elements ends (walk).
type chainEnd int

const (
	endBad chainEnd = iota
	endGuess
	endCapped
)

// apply returns the state the step s leads to from x, taken to be
// enabled there.
func (cs *coverSystem) apply(s *coverStep, x []int64) []int64 {
	y := make([]int64, len(x))
	for j := range x {
		y[j] = x[j] + s.add[j]
		if s.reset[j] {
			y[j] = s.set[j]
		}
		if s.moved != nil && s.moved[j] != nil {
			// The run's values are below gsst.MaxValue (backward
			// stops beyond it), so the sum fits; a wrong value
			// would fail the replay, never pass it.
			y[j], _ = s.moved[j].value(x)
		}
	}
	return y
}

// run writes the states of a run and the model's transitions it takes
// (expandRun) as a counterexample of the model's transition system.
func (cs *coverSystem) run(states [][]int64, trans []int, params presburger.Model) *presburger.Counterexample {
	cex := &presburger.Counterexample{Params: presburger.Model{}}
	for _, v := range cs.ts.Params {
		cex.Params[v] = params[v]
	}
	for _, x := range states {
		st := presburger.Model{}
		for j, v := range x[:cs.k] {
			st[cs.stateVar(j)] = v
		}
		for i, d := range cs.projected {
			st[cs.m.StateVar(d)] = cs.projectedLo[i]
		}
		cs.hotState(st, x)
		cex.States = append(cex.States, st)
	}
	cex.Steps = trans
	return cex
}

// distance is how far x is above the initial states: the sum of what
// its variables ask beyond their initial constants (a group's size
// being as large as asked), and then, to break ties, beyond the least
// sizes of the groups: the search goes first where a run is likely,
// and then where the instance is small.
func (cs *coverSystem) distance(x []int64) [2]int64 {
	var d [2]int64
	for j, v := range x {
		if cs.initSum[j] < 0 && !cs.initOpen[j] {
			d[0] += max(0, v-cs.initHi[j])
		}
	}
	for _, st := range cs.starts {
		sum := int64(0)
		for _, j := range st.vars {
			sum += x[j]
		}
		d[1] += max(0, sum-cs.sumBound(st).Lo)
	}
	return d
}

// coverQueue is a heap of element indices, nearest (dist) first, then
// oldest.
type coverQueue struct {
	items []int
	dist  *[][2]int64
}

func (q coverQueue) Len() int { return len(q.items) }
func (q coverQueue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if da, db := (*q.dist)[a], (*q.dist)[b]; da != db {
		return da[0] < db[0] || da[0] == db[0] && da[1] < db[1]
	}
	return a < b
}
func (q coverQueue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *coverQueue) Push(x any)   { q.items = append(q.items, x.(int)) }
func (q *coverQueue) Pop() any {
	x := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return x
}

// Pruning by the net's semi-positive place invariants. A weight vector
// y >= 0 that no step changes (y.add = 0 for every step, y zero on every
// variable some step sets) gives y.x = y.x0 in every reachable state;
// when y.x0 is a constant c (y is zero on the counters that start at a
// group's size), an element m with y.m > c has no reachable state above
// it, and the search drops it. With pruning, the states above no kept
// element are no longer an inductive invariant on their own, but they
// are together with the equations y.x = c: a state that satisfies them
// cannot reach a dropped element's states in one step, since it would
// be above the dropped element. The proof offered is that conjunction.
// (pncsacover's two control tokens, x2..x10 and x13..x20, make most of
// the backward search's elements unreachable: two tokens in one set.)

// maxInvariantRows bounds the rows of the Farkas algorithm below; beyond
// it the search runs without pruning.
const maxInvariantRows = 2000

// coverInvariant is y.x = c with y >= 0 over the state variables.
type coverInvariant struct {
	y []int64
	c int64
	// support lists the variables j with y_j != 0: unreachable reads
	// only them (a hub translation's fused variables make y mostly 0).
	support []int
}

// newCoverInvariant returns the invariant y.x <= c with its support.
func newCoverInvariant(y []int64, c int64) coverInvariant {
	var support []int
	for j, w := range y {
		if w != 0 {
			support = append(support, j)
		}
	}
	return coverInvariant{y, c, support}
}

// semiPositiveInvariants returns the semi-positive invariants of cs with
// constant right-hand sides, by the Farkas algorithm (Martinez and
// Silva, 1982): start from the identity, and for each step's effect
// keep the rows it does not change and add the positive combinations of
// pairs it changes in opposite directions, keeping rows of minimal
// support. Nil when the rows would exceed maxInvariantRows or a weight
// would not fit. A step that sets variables contributes the columns of
// effectColumns: a row keeps weight on them only where the setting
// leaves y.x unchanged (equal weights at both ends of a transfer).
func (cs *coverSystem) semiPositiveInvariants() []coverInvariant {
	k := len(cs.lo)
	cols := cs.effectColumns()
	// A row: the weights y, y's change by each column, and y's support
	// as a bit set (the minimality test compares supports pairwise:
	// germanish4 with all 288 local states listed has 590 variables).
	type row struct {
		y, d []int64
		sup  []uint64
		// inert marks the row of a variable that no column changes:
		// it is never combined, no other row has its variable, and
		// the minimality test passes it by (germanish4 with all its
		// local states has 540 such rows of 594).
		inert bool
	}
	support := func(y []int64) []uint64 {
		sup := make([]uint64, (k+63)/64)
		for j, w := range y {
			if w != 0 {
				sup[j/64] |= 1 << (j % 64)
			}
		}
		return sup
	}
	within := func(a, b []uint64) bool {
		for i, w := range a {
			if w&^b[i] != 0 {
				return false
			}
		}
		return true
	}
	var rows []row
	for j := range k {
		y := make([]int64, k)
		y[j] = 1
		d := make([]int64, len(cols))
		inert := true
		for c, col := range cols {
			d[c] = col[j]
			inert = inert && col[j] == 0
		}
		rows = append(rows, row{y, d, support(y), inert})
	}
	for c := range cols {
		var keep, pos, neg []row
		for _, r := range rows {
			switch {
			case r.d[c] == 0:
				keep = append(keep, r)
			case r.d[c] > 0:
				pos = append(pos, r)
			default:
				neg = append(neg, r)
			}
		}
		for _, p := range pos {
			for _, q := range neg {
				a, b := -q.d[c], p.d[c]
				y := make([]int64, k)
				d := make([]int64, len(cols))
				for j := range y {
					v, ok := combine(a, p.y[j], b, q.y[j])
					if !ok {
						return nil
					}
					y[j] = v
				}
				for e := range d {
					v, ok := combine(a, p.d[e], b, q.d[e])
					if !ok {
						return nil
					}
					d[e] = v
				}
				g := int64(0)
				for _, v := range y {
					g = gcd(g, v)
				}
				for j := range y {
					y[j] /= g
				}
				for e := range d {
					d[e] /= g
				}
				keep = append(keep, row{y, d, support(y), false})
				if len(keep) > maxInvariantRows {
					return nil
				}
			}
		}
		// Minimal supports only.
		rows = rows[:0]
		for i, r := range keep {
			minimal := true
			for i2, r2 := range keep {
				if r.inert {
					break
				}
				if i2 != i && !r2.inert && within(r2.sup, r.sup) && (!within(r.sup, r2.sup) || i2 < i) {
					minimal = false
					break
				}
			}
			if minimal {
				rows = append(rows, r)
			}
		}
	}
	ys := make([][]int64, len(rows))
	for i, r := range rows {
		ys[i] = r.y
	}
	return cs.constantRows(ys)
}

// constantRows returns the invariants y.x <= c of the weights ys whose
// right-hand side c is a constant: every variable a y weighs starts at
// one value, the same at every instance. A variable read one-hot keeps
// its initial value in the vectors, which is no invariant of the model,
// and a fused variable is 0 in every state of the fused system and in
// no other invariant (no step changes it): a y that weighs either is
// left out.
func (cs *coverSystem) constantRows(ys [][]int64) []coverInvariant {
	var out []coverInvariant
	for _, y := range ys {
		c, constant := int64(0), true
		for j, w := range y {
			if w == 0 {
				continue
			}
			if !cs.exactInit(j) || cs.isHot(j) {
				constant = false
				break
			}
			var ok bool
			if c, ok = combine(1, c, w, cs.initConst[j]); !ok {
				constant = false
				break
			}
		}
		if constant && !cs.onFused(y) {
			out = append(out, newCoverInvariant(y, c))
		}
	}
	return out
}

// linearPruning returns the linear invariants lis of the model
// (linearInvariants) as invariants that prune the search, those with a
// constant right-hand side whose negative weights fall on variables
// with a complement (moved there), that the fusion keeps (equal weights
// on a fused variable and the one it is fused into) and that
// semiPositiveInvariants did not find. A step that sets a variable
// to a constant gives no weight there to the Farkas algorithm, where
// the cases of linearInvariants do (x0 := 1 adds one where x0 was 0):
// the place invariants of a net whose places are bools (mist's
// queuedbusyflag so written: 300 million units of the search's work
// without them). They are inductive as a set, not each alone (a case
// left out may be excluded by one of negative weight), so a proof that
// they pruned states all of them (linearFacts).
func (cs *coverSystem) linearPruning(lis []linearInvariant) []coverInvariant {
	var out []coverInvariant
	for _, li := range lis {
		if !li.rhs.IsConst() {
			continue
		}
		// A negative weight -a on a variable with a complement is a on
		// the complement, hi - x: -a*x = a*(hi - x) - a*hi (a program
		// counter of 0..1 in "x10 + x11 - 5*pc = 5").
		y := make([]int64, len(cs.lo))
		c, ok := li.rhs.Const, true
		for i, w := range li.coef {
			j := cs.entryOf(i)
			switch {
			case j < 0:
				// A variable projected out, at its least value.
				if w != 0 {
					c, ok = combine(1, c, -w, cs.projectedLo[slices.Index(cs.projected, i)])
				}
			case w != 0 && cs.isHot(j):
				// w*x_j is the sum of w*u*h_u, plus s times their sum
				// (1) to make every weight nonnegative.
				vals := cs.hotValues(j)
				s := int64(0)
				for _, u := range vals {
					if wu, fits := checked.Mul(w, u); !fits {
						ok = false
					} else {
						s = max(s, -wu)
					}
				}
				if ok {
					for _, u := range vals {
						y[cs.hotEntry(j, u)] = w*u + s
					}
					c, ok = combine(1, c, 1, s)
				}
			case w >= 0:
				y[j] = w
			case cs.comp[j] >= 0:
				y[cs.comp[j]] = -w
				c, ok = combine(1, c, -w, cs.hi[j])
			default:
				ok = false
			}
			if !ok {
				break
			}
		}
		if !ok {
			continue
		}
		for j := range y {
			if cs.root != nil && cs.root[j] != j {
				ok = ok && y[j] == y[cs.root[j]]
				y[j] = 0
			}
		}
		if !ok || slices.ContainsFunc(cs.invs, func(inv coverInvariant) bool { return slices.Equal(inv.y, y) }) {
			continue
		}
		if inv := newCoverInvariant(y, c); len(inv.support) > 0 {
			out = append(out, inv)
		}
	}
	return out
}

// effectColumns returns the columns of the steps' effects, distinct:
// a step takes x to A.x + b (A the identity but in the rows of the
// variables it sets: a constant's row is zero, a transfer's its sum's
// coefficients), so y.x changes by y.b + sum over w of y.(A-I)_w x_w,
// and it changes by nothing in every state exactly when y is
// orthogonal to b and to every column (A-I)_w. A variable set to a
// constant has the column -e_w; a transfer "a + b -> a" the column
// e_a - e_b, which keeps y.x when y_a = y_b (the processes moved are
// counted alike where they were and where they go).
func (cs *coverSystem) effectColumns() [][]int64 {
	var cols [][]int64
	seen := map[string]bool{}
	keep := func(col []int64) {
		if !slices.ContainsFunc(col, func(v int64) bool { return v != 0 }) {
			return
		}
		if key := vectorKey(col); !seen[key] {
			seen[key] = true
			cols = append(cols, col)
		}
	}
	for si := range cs.steps {
		for _, col := range cs.stepColumns(&cs.steps[si]) {
			keep(col)
		}
	}
	return cols
}

// stepColumns returns the columns of step s's effect (effectColumns),
// zero ones included.
func (cs *coverSystem) stepColumns(s *coverStep) [][]int64 {
	k := len(cs.lo)
	var cols [][]int64
	{
		b := make([]int64, k)
		byVar := map[int][]int64{}
		coef := func(w int) []int64 {
			if byVar[w] == nil {
				byVar[w] = make([]int64, k)
			}
			return byVar[w]
		}
		for j := range k {
			switch {
			case s.moved != nil && s.moved[j] != nil:
				t := s.moved[j]
				b[j] = t.c
				coef(j)[j]--
				for i, w := range t.vars {
					coef(w)[j] += t.coef[i]
				}
			case s.reset[j]:
				b[j] = s.set[j]
				coef(j)[j]--
			default:
				b[j] = s.add[j]
			}
		}
		cols = append(cols, b)
		for _, w := range slices.Sorted(maps.Keys(byVar)) {
			cols = append(cols, byVar[w])
		}
	}
	return cols
}

// combine is a*x + b*y, ok false when it does not fit in int64.
func combine(a, x, b, y int64) (int64, bool) {
	ax, ok1 := checked.Mul(a, x)
	by, ok2 := checked.Mul(b, y)
	s, ok3 := checked.Add(ax, by)
	return s, ok1 && ok2 && ok3
}

// gcd is the greatest common divisor of |a| and |b|.
func gcd(a, b int64) int64 {
	a, b = max(a, -a), max(b, -b)
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// unreachable reports whether some invariant y.x = c has y.x > c for
// x, or a variable and its complement ask more than the variable's
// greatest value together, so that no reachable state is above x.
func (cs *coverSystem) unreachable(x []int64) bool {
	for j, i := range cs.compOf {
		if sum, ok := checked.Add(x[i], x[cs.k+j]); !ok || sum > cs.hi[i] {
			return true
		}
	}
	for _, inv := range cs.invs {
		s := int64(0)
		for _, j := range inv.support {
			v, ok := combine(1, s, inv.y[j], x[j])
			if !ok {
				return false
			}
			s = v
		}
		if s > inv.c {
			return true
		}
	}
	return false
}

// invIndex is cs.invs by entry, for unreachable on vectors with few
// entries above 0 (the search's elements): the sums y.x are accumulated
// over those entries alone.
type invIndex struct {
	by      [][]invWeight
	neg     bool // some invariant has c < 0
	sums    []int64
	touched []int
}

type invWeight struct {
	n int
	w int64
}

func (cs *coverSystem) newInvIndex() *invIndex {
	idx := &invIndex{by: make([][]invWeight, len(cs.lo)), sums: make([]int64, len(cs.invs))}
	for n, inv := range cs.invs {
		idx.neg = idx.neg || inv.c < 0
		for _, j := range inv.support {
			idx.by[j] = append(idx.by[j], invWeight{n, inv.y[j]})
		}
	}
	return idx
}

// unreachable is cs.unreachable(x).
func (idx *invIndex) unreachable(cs *coverSystem, x []int64) bool {
	if idx.neg || slices.ContainsFunc(x, func(v int64) bool { return v < 0 }) {
		return cs.unreachable(x)
	}
	for j, i := range cs.compOf {
		if sum, ok := checked.Add(x[i], x[cs.k+j]); !ok || sum > cs.hi[i] {
			return true
		}
	}
	defer func() {
		for _, n := range idx.touched {
			idx.sums[n] = 0
		}
		idx.touched = idx.touched[:0]
	}()
	for j, v := range x {
		if v == 0 {
			continue
		}
		for _, iw := range idx.by[j] {
			s, ok := combine(1, idx.sums[iw.n], iw.w, v)
			if !ok {
				return false
			}
			if idx.sums[iw.n] == 0 {
				idx.touched = append(idx.touched, iw.n)
			}
			idx.sums[iw.n] = s
			if s > cs.invs[iw.n].c {
				return true
			}
		}
	}
	return false
}

// antichain is the set of minimal elements kept, each with a summary
// that rules most comparisons out at once: x <= y needs x's support
// within y's (mask, a bit per variable modulo 64) and x's sum at most
// y's.
type antichain struct {
	elem []int // index of each in the search's elements
	x    [][]int64
	key  []elemKey
}

type elemKey struct {
	mask uint64
	sum  int64
}

func keyOf(x []int64) elemKey {
	var k elemKey
	for j, v := range x {
		if v != 0 {
			k.mask |= 1 << (j % 64)
		}
		k.sum += v
	}
	return k
}

func (a *antichain) len() int { return len(a.x) }

// covers reports whether some element is at most x.
func (a *antichain) covers(x []int64, k elemKey) bool {
	for i, b := range a.key {
		if b.mask&^k.mask == 0 && b.sum <= k.sum && leq(a.x[i], x) {
			return true
		}
	}
	return false
}

// insert adds x, element e, and removes the elements at least x,
// marking them dead.
func (a *antichain) insert(e int, x []int64, k elemKey, dead map[int]bool) {
	n := 0
	for i, b := range a.key {
		if k.mask&^b.mask == 0 && k.sum <= b.sum && leq(x, a.x[i]) {
			dead[a.elem[i]] = true
			continue
		}
		a.elem[n], a.x[n], a.key[n] = a.elem[i], a.x[i], b
		n++
	}
	a.elem, a.x, a.key = append(a.elem[:n], e), append(a.x[:n], x), append(a.key[:n], k)
}

// postInto writes to y the state a step leads to from x, and returns
// false when the step is not enabled there or leaves the domain (or the
// values' limit).
func (cs *coverSystem) postInto(y []int64, s *coverStep, x []int64) bool {
	if !leq(s.need, x) || !withinCaps(s.caps, x) {
		return false
	}
	for _, a := range s.sums {
		sum := int64(0)
		for j, v := range a.vars {
			sum += a.coef[j] * x[v]
		}
		if sum < a.bound {
			return false
		}
	}
	for j := range x {
		switch {
		case s.moved != nil && s.moved[j] != nil:
			v, ok := s.moved[j].value(x)
			if !ok {
				return false
			}
			y[j] = v
		case s.reset[j]:
			y[j] = s.set[j]
		default:
			y[j] = x[j] + s.add[j]
		}
		if y[j] < cs.lo[j] || y[j] > gsst.MaxValue {
			return false
		}
	}
	return true
}
