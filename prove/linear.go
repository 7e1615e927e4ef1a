package prove

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// Linear invariants of a counter system, found by linear algebra over
// the effects of its steps, with no solver: the weighted sums of the
// state variables that no step changes (a Petri net's place invariants,
// "the processes of a group sum to its size", "the lock is up exactly
// while someone is in C"). Each step of a model is affine (StepTerms):
// x' = A x + b, b over the parameters. A weight vector y is invariant
// when y.x' - y.x is zero for every x and every parameter value, that is
// when the coefficients of the difference, as a linear form in the state
// variables, the parameters and 1, all vanish. A guard that fixes a
// variable (lock = 0, a boolean's test) is used: in its states the
// variable is that constant, so an assignment lock := 1 under it counts
// as lock + 1. Then y.x = y.x0 holds in every reachable state, x0 the
// initial values (terms over the parameters).
//
// They serve twice: as facts for the filter of the lemmas (is the
// property inductive together with them?), and to eliminate variables
// before the prover runs (eliminate): each invariant with a coefficient
// 1 at some variable defines that variable by the others, which the
// prover then never sees (mist's bounded lamport: unknown at 25 s with
// all its places, 0.47 s with those eliminated, issue 29).

// linearInvariant is y.x = rhs over the state variables of a model (in
// the order of counterabs.ParamModel.StateVar), rhs a term over the
// parameters. pivot is the state variable the invariant defines, with
// coefficient 1 and absent from every other invariant of its set, or -1.
type linearInvariant struct {
	coef  []int64
	rhs   presburger.Term
	pivot int
}

// formula is the invariant as an equality over the model's variables.
func (li linearInvariant) formula(m *counterabs.ParamModel) presburger.Formula {
	var t presburger.Term
	for i, c := range li.coef {
		if c != 0 {
			t = t.Add(presburger.VarTerm(m.StateVar(i)).Scale(c))
		}
	}
	return presburger.Compare(t, presburger.Eq, li.rhs)
}

// linearConj is the conjunction of the invariants.
func linearConj(m *counterabs.ParamModel, lis []linearInvariant) presburger.Formula {
	fs := make([]presburger.Formula, len(lis))
	for i, li := range lis {
		fs[i] = li.formula(m)
	}
	return presburger.Conj(fs...)
}

// maxLinearVars bounds the state variables of a model whose linear
// invariants are computed (the elimination is sparse, but a model with
// thousands of counters gains nothing from it that the prover needs).
const maxLinearVars = 4000

// linearInvariants returns a basis of the linear invariants of m, read
// off its steps; avoid lists state variables that should not be
// eliminated when another choice exists (those the property reads). An
// invariant whose coefficients do not fit int64 is left out.
//
// The cases of a step that are idle (stepCase) are left out at first,
// Houdini-style: the invariants of the other cases are computed, and an
// idle case comes back when no state within them and the domains is in
// its guard and at its values (excludes); the invariants are computed
// again until every case left out is excluded by them. Then they are
// invariants of m: they hold initially, the cases kept preserve them,
// and a step from a state where they hold is not in a case left out.
// A net whose 1-safe places are bools, each token moved by
// "x1 := false; x0 := true", has its place invariants so, where the
// case with x0 already true (two tokens, one lost) breaks them case by
// case (mist's extendedread-write so written: 6.8 s without them).
func linearInvariants(m *counterabs.ParamModel, avoid map[presburger.Var]bool) []linearInvariant {
	lis, _ := houdiniInvariants(m, avoid)
	return lis
}

// houdiniInvariants is linearInvariants, which also says how many idle
// cases it left out in the end.
func houdiniInvariants(m *counterabs.ParamModel, avoid map[presburger.Var]bool) ([]linearInvariant, int) {
	k := m.NumState()
	if k == 0 || k > maxLinearVars {
		return nil, 0
	}
	dom := domainBounds(m.Ranges())
	// With the empty counters zero and their steps left out, each empty
	// counter is in no row: a free variable, whose invariant is "it is
	// 0" (its initial value), with itself as pivot.
	empty := emptyCounters(m)
	// Each case's rows, and for an idle one the box it is excluded in
	// (caseBox), computed once; the rows keep the steps' order, which
	// the elimination's choice of pivots follows.
	type oneCase struct {
		rows []sparseRow
		box  []presburger.Bound // an idle case's
		out  bool               // left out
	}
	var cases []oneCase
	for i := range m.Transitions {
		t := &m.Transitions[i]
		for _, sc := range stepCases(m, t, dom, empty) {
			c := oneCase{rows: caseRows(sc.delta)}
			if sc.idle && !noHoudini {
				c.box, c.out = caseBox(m, t.Guard, sc.at, dom, empty), true
			}
			cases = append(cases, c)
		}
	}
	for round := 0; ; round++ {
		var rows []sparseRow
		left := 0
		for _, c := range cases {
			if c.out {
				left++
			} else {
				rows = append(rows, c.rows...)
			}
		}
		lis := kernelInvariants(m, rows, avoid)
		if left == 0 {
			return lis, 0
		}
		back := false
		for i := range cases {
			if c := &cases[i]; c.out && !brokenHoudini && !excludes(m, lis, c.box) {
				c.out, back = false, true
			}
		}
		if !back {
			return lis, left
		}
		if round == maxHoudiniRounds {
			for i := range cases {
				cases[i].out = false
			}
		}
	}
}

// noHoudini and brokenHoudini are for the tests: every case kept from
// the start, and every idle case left out whatever the invariants say
// of it (unsound).
var noHoudini, brokenHoudini bool

// maxHoudiniRounds bounds the rounds of linearInvariants that bring
// idle cases back before it brings them all.
const maxHoudiniRounds = 4

// kernelInvariants returns a basis of the weight vectors y orthogonal to
// rows and to the initial directions of m, as invariants y.x = y.x0;
// avoid as for linearInvariants.
func kernelInvariants(m *counterabs.ParamModel, rows []sparseRow, avoid map[presburger.Var]bool) []linearInvariant {
	k := m.NumState()
	// The order in which variables become pivots of the elimination
	// below: those to keep first, so that the others stay free and are
	// the ones the invariants define.
	rank := make([]int, k)
	for i := range k {
		if avoid[m.StateVar(i)] {
			rank[i] = -1
		}
	}
	// y.x = y.x0 holds in every initial state when y is constant on the
	// initial set: orthogonal to every direction it spreads in, as to a
	// step's effect.
	rows = append(rows, initialDirections(m)...)
	pivots := eliminateRows(rows, func(a, b int) bool {
		if rank[a] != rank[b] {
			return rank[a] < rank[b]
		}
		return a < b
	})
	// A basis of the kernel: one vector per free variable
	// (kernelVector).
	isPivot := map[int]bool{}
	for p := range pivots {
		isPivot[p] = true
	}
	init := initTerms(m)
	var out []linearInvariant
	for f := range k {
		if isPivot[f] {
			continue
		}
		li, ok := integral(kernelVector(pivots, f), k, init, f)
		if ok {
			out = append(out, li)
		}
	}
	return out
}

// caseBox returns the range of each state variable in the states of a
// case: its domain, narrowed by the top-level conjuncts of the step's
// guard, at the case's values, and zero for the empty counters.
func caseBox(m *counterabs.ParamModel, guard presburger.Formula, at map[presburger.Var]int64, dom map[presburger.Var]presburger.Bound, empty map[int]bool) []presburger.Bound {
	narrow := presburger.Narrowed(guard, dom)
	box := make([]presburger.Bound, m.NumState())
	for i := range box {
		v := m.StateVar(i)
		b, ok := narrow[v]
		if !ok {
			b, ok = dom[v]
			if !ok {
				b = presburger.AnyInt(v)
			}
		}
		if x, ok := at[v]; ok {
			b = b.Tighten(1, -x, presburger.Eq)
		}
		if empty[i] {
			b = b.Tighten(1, 0, presburger.Eq)
		}
		box[i] = b
	}
	return box
}

// excludes reports whether no state in box satisfies every invariant of
// lis with a constant right-hand side: one of them has it outside the
// values its left-hand side takes in box, or, when none does alone,
// they do together (excludedTogether). False when it cannot tell.
func excludes(m *counterabs.ParamModel, lis []linearInvariant, box []presburger.Bound) bool {
	if slices.ContainsFunc(box, presburger.Bound.Empty) {
		return true
	}
	return excludedByOne(lis, box) || excludedTogether(m, lis, box)
}

// excludedTogether reports whether the invariants of lis with a
// constant right-hand side have no solution in box, by presburger's
// Quick (exact, its work counted in steps). lis is a basis of the
// invariants, whose choice of pivots follows the order of the steps and
// variables: a box that one weight of the space excludes may be
// excluded by no single one of the basis (mist's extendedread-write,
// places as bools: with its integers declared first, the basis lost the
// case split that proves its place invariant, and the proof took 15 s
// of Spacer where it took none).
func excludedTogether(m *counterabs.ParamModel, lis []linearInvariant, box []presburger.Bound) bool {
	var eqs []presburger.Formula
	for _, li := range lis {
		if li.rhs.IsConst() {
			eqs = append(eqs, li.formula(m))
		}
	}
	if len(eqs) < 2 {
		return false // excludedByOne has read it
	}
	bounds := make([]presburger.Bound, len(box))
	for i, b := range box {
		b.Var = m.StateVar(i)
		bounds[i] = b
	}
	a, err := presburger.Quick{}.Solve(context.Background(), presburger.Problem{Bounds: bounds, F: presburger.Conj(eqs...)})
	return err == nil && a.Result == presburger.Unsat
}

// excludedByOne reports whether some invariant of lis with a constant
// right-hand side has it outside the values its left-hand side takes in
// box.
func excludedByOne(lis []linearInvariant, box []presburger.Bound) bool {
	for _, li := range lis {
		if !li.rhs.IsConst() {
			continue
		}
		lo, hi, hasLo, hasHi := int64(0), int64(0), true, true
		for i, c := range li.coef {
			if c == 0 {
				continue
			}
			b := box[i]
			bLo, bHasLo, bHi, bHasHi := b.Lo, !b.NoLo, b.Hi, !b.NoHi
			if c < 0 {
				bLo, bHasLo, bHi, bHasHi = bHi, bHasHi, bLo, bHasLo
			}
			var ok bool
			if hasLo = hasLo && bHasLo; hasLo {
				if lo, ok = combine(1, lo, c, bLo); !ok {
					hasLo = false
				}
			}
			if hasHi = hasHi && bHasHi; hasHi {
				if hi, ok = combine(1, hi, c, bHi); !ok {
					hasHi = false
				}
			}
		}
		if (hasLo && li.rhs.Const < lo) || (hasHi && li.rhs.Const > hi) {
			return true
		}
	}
	return false
}

// stepRows returns the rows whose common kernel is the weight vectors y
// that no step changes: those of every case of every step (stepCases,
// the counters of empty left out).
func stepRows(m *counterabs.ParamModel, dom map[presburger.Var]presburger.Bound, empty map[int]bool) []sparseRow {
	var rows []sparseRow
	for i := range m.Transitions {
		for _, sc := range stepCases(m, &m.Transitions[i], dom, empty) {
			rows = append(rows, caseRows(sc.delta)...)
		}
	}
	return rows
}

// caseRows returns the rows whose common kernel is the weight vectors y
// that the change delta leaves y.x as it is: the coefficient of each
// symbol (a variable, or the constant, as -1) in the change of y.x.
func caseRows(delta []presburger.Term) []sparseRow {
	bySymbol := map[presburger.Var]sparseRow{}
	for v, d := range delta {
		add := func(s presburger.Var, c int64) {
			if c == 0 {
				return
			}
			if bySymbol[s] == nil {
				bySymbol[s] = sparseRow{}
			}
			bySymbol[s][v] = new(big.Rat).SetInt64(c)
		}
		for _, mo := range d.Monos {
			add(mo.Var, mo.Coef)
		}
		add(-1, d.Const)
	}
	var rows []sparseRow
	for _, s := range slices.Sorted(maps.Keys(bySymbol)) {
		rows = append(rows, bySymbol[s])
	}
	return rows
}

// integral scales y to the least integer vector with a positive
// coefficient at f and returns its invariant; f is its pivot when that
// coefficient is 1. ok is false when a coefficient or the right-hand
// side would not fit.
func integral(y map[int]*big.Rat, k int, init []presburger.Term, f int) (linearInvariant, bool) {
	coef, ok := integerVector(y, k)
	if !ok {
		return linearInvariant{}, false
	}
	li := linearInvariant{coef: coef, pivot: -1}
	if li.coef[f] == 1 {
		li.pivot = f
	}
	for i, c := range li.coef {
		if c == 0 {
			continue
		}
		for _, mo := range init[i].Monos {
			p, ok := checked.Mul(mo.Coef, c)
			if !ok {
				return linearInvariant{}, false
			}
			li.rhs = li.rhs.Add(presburger.Term{Monos: []presburger.Mono{{Var: mo.Var, Coef: p}}})
		}
		p, ok := checked.Mul(init[i].Const, c)
		if !ok {
			return linearInvariant{}, false
		}
		li.rhs = li.rhs.Add(presburger.ConstTerm(p))
	}
	for _, mo := range li.rhs.Monos {
		if !inLimit(mo.Coef) {
			return linearInvariant{}, false
		}
	}
	return li, inLimit(li.rhs.Const)
}

// kernelVector returns the vector of the kernel of the rows pivots (in
// reduced row echelon form, eliminateRows) at free variable f: 1 at f,
// 0 at the other free variables, and at each pivot minus the
// coefficient of f in its row.
func kernelVector(pivots map[int]sparseRow, f int) map[int]*big.Rat {
	y := map[int]*big.Rat{f: big.NewRat(1, 1)}
	for p, row := range pivots {
		if c, ok := row[f]; ok {
			y[p] = new(big.Rat).Neg(c)
		}
	}
	return y
}

// integerVector scales y, a nonzero vector over the variables 0 to
// k-1, to the least integer vector of its direction; ok is false when a
// coefficient would leave inLimit.
func integerVector(y map[int]*big.Rat, k int) (coef []int64, ok bool) {
	lcm := big.NewInt(1)
	for _, c := range y {
		d := c.Denom()
		g := new(big.Int).GCD(nil, nil, lcm, d)
		lcm.Mul(lcm, new(big.Int).Quo(d, g))
	}
	ints := make([]*big.Int, k)
	g := new(big.Int)
	for i := range k {
		ints[i] = new(big.Int)
		if c, ok := y[i]; ok {
			ints[i].Mul(c.Num(), new(big.Int).Quo(lcm, c.Denom()))
			g.GCD(nil, nil, g, new(big.Int).Abs(ints[i]))
		}
	}
	coef = make([]int64, k)
	for i, c := range ints {
		c.Quo(c, g)
		if !c.IsInt64() || !inLimit(c.Int64()) {
			return nil, false
		}
		coef[i] = c.Int64()
	}
	return coef, true
}

// inLimit reports whether x is within checked.Limit in magnitude, so that
// sums of a few such values cannot wrap.
func inLimit(x int64) bool { return -checked.Limit/1024 <= x && x <= checked.Limit/1024 }

// sparseRow is a linear form over variables numbered from 0: variable ->
// nonzero coefficient.
type sparseRow map[int]*big.Rat

// eliminateRows brings rows into reduced row echelon form by Gauss-Jordan
// elimination and returns the pivot rows by pivot variable, each scaled
// to 1 at its pivot and free of every other pivot. The pivot of a new
// row is its variable that comes first in the order before.
func eliminateRows(rows []sparseRow, before func(a, b int) bool) map[int]sparseRow {
	pivots := map[int]sparseRow{}
	for _, r := range rows {
		row := sparseRow{}
		for v, c := range r {
			row[v] = new(big.Rat).Set(c)
		}
		// Reduce by the pivots it contains.
		for _, v := range slices.Sorted(maps.Keys(row)) {
			p, ok := pivots[v]
			c, in := row[v]
			if !ok || !in {
				continue
			}
			addScaled(row, p, new(big.Rat).Neg(c))
		}
		if len(row) == 0 {
			continue
		}
		piv := -1
		for v := range row {
			if piv < 0 || before(v, piv) {
				piv = v
			}
		}
		inv := new(big.Rat).Inv(row[piv])
		for _, c := range row {
			c.Mul(c, inv)
		}
		for _, q := range pivots {
			if c, ok := q[piv]; ok {
				addScaled(q, row, new(big.Rat).Neg(c))
			}
		}
		pivots[piv] = row
	}
	return pivots
}

// addScaled adds k times src to dst, dropping the coefficients that
// become zero.
func addScaled(dst, src sparseRow, k *big.Rat) {
	for v, c := range src {
		d, ok := dst[v]
		if !ok {
			d = new(big.Rat)
			dst[v] = d
		}
		d.Add(d, new(big.Rat).Mul(k, c))
		if d.Sign() == 0 {
			delete(dst, v)
		}
	}
}

// initialDirections returns the directions in which the initial states
// of m differ at one choice of the parameters, as vectors over its
// state variables: none when it has one initial state. They span the
// solutions of the state parts of the equations among the top-level
// conjuncts of m.Initial (the parameters read as constants), which
// include the differences of any two initial states: a y orthogonal
// to them has one y.x0 over the whole initial set. (The directions may
// be more than the set spans, which loses invariants but none that
// holds.)
func initialDirections(m *counterabs.ParamModel) []sparseRow {
	if m.SingleInitial() {
		return nil
	}
	k := m.NumState()
	index := map[presburger.Var]int{}
	for i := range k {
		index[m.StateVar(i)] = i
	}
	var eqs []sparseRow
	for _, c := range topAtoms(m.Initial) {
		if c.Op != presburger.Eq {
			continue
		}
		row := sparseRow{}
		for _, mo := range c.T.Monos {
			if i, ok := index[mo.Var]; ok {
				row[i] = new(big.Rat).SetInt64(mo.Coef)
			}
		}
		if len(row) > 0 {
			eqs = append(eqs, row)
		}
	}
	pivots := eliminateRows(eqs, func(a, b int) bool { return a < b })
	// One solution per free variable f: 1 at f, and at each pivot p
	// minus the coefficient of f in p's row.
	var out []sparseRow
	for f := range k {
		if _, isPivot := pivots[f]; isPivot {
			continue
		}
		d := sparseRow{f: big.NewRat(1, 1)}
		for p, row := range pivots {
			if c, ok := row[f]; ok {
				d[p] = new(big.Rat).Neg(c)
			}
		}
		out = append(out, d)
	}
	return out
}

// emptyCounters returns the counters of m that no run ever fills: those
// no sequence of steps can move a process into from an initially
// occupied counter, whatever the guards (a group of one process in its
// own states, say, is never in the other group's). They stay zero: a
// step into one needs a mover from another (or a transfer from one),
// which holds nobody. Their sum <= 0 is an inductive invariant, and the
// steps whose movers leave one never happen.
func emptyCounters(m *counterabs.ParamModel) map[int]bool {
	full := map[int]bool{}
	for c := range m.Counters {
		// A counter that some initial state occupies: one not zero in
		// every initial state.
		if t, fixed := m.InitialValue(c); !fixed || !t.IsConst() || t.Const != 0 {
			full[c] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range m.Transitions {
			t := &m.Transitions[i]
			if t.Guard == presburger.False || !firable(t, full) {
				continue
			}
			for _, mv := range moves(t) {
				if !full[mv.To] {
					full[mv.To], changed = true, true
				}
			}
			for _, tr := range t.Transfers {
				if full[tr.From] && !full[tr.To] {
					full[tr.To], changed = true, true
				}
			}
		}
	}
	empty := map[int]bool{}
	for c := range m.Counters {
		if !full[c] {
			empty[c] = true
		}
	}
	return empty
}

// moves returns the movers of t: its own, then those of the other parts
// of a rendezvous.
func moves(t *counterabs.ParamTransition) []counterabs.Move {
	return t.Moves()
}

// firable reports whether every mover of t leaves a counter of full.
func firable(t *counterabs.ParamTransition, full map[int]bool) bool {
	for _, mv := range moves(t) {
		if !full[mv.From] {
			return false
		}
	}
	return true
}

// maxCases bounds the cases a step is split into by stepCases.
const maxCases = 16

// stepCase is one case of a step (stepCases): the change of every state
// variable (in the order of StepTerms), as terms over the state before
// it and the parameters, and the values of the variables the case takes
// one value each of.
type stepCase struct {
	delta []presburger.Term
	at    map[presburger.Var]int64
	// idle: a variable the step assigns keeps its value in this case,
	// where it changes in another (x0 := true with x0 already true).
	// A 1-safe place written as a bool is such a variable, and a case
	// that would put a second token there is what keeps its place
	// invariant from holding case by case: linearInvariants asks
	// whether the case is reachable at all.
	idle bool
}

// stepCases returns the cases of a step by t, in as many as it needs to
// make the change of a variable of small finite domain constant: a
// variable its guard fixes is that constant, and each other such
// variable (a boolean, a small enumeration) that a change reads takes
// each of its values in turn (an assignment lock := 1 - lock is +1 when
// lock is 0 and -1 when it is 1). Every step is one of the cases; a
// case may be no step at all (its guard false there), which only weakens
// what is derived from them. The counters of empty (emptyCounters) are
// zero, and a step whose movers leave one has no case: both hold in
// every reachable state, and what is derived holds there (with the empty
// counters zero, which the caller must state).
func stepCases(m *counterabs.ParamModel, t *counterabs.ParamTransition, dom map[presburger.Var]presburger.Bound, empty map[int]bool) []stepCase {
	if t.Guard == presburger.False || !firable(t, complement(m, empty)) {
		return nil
	}
	fixed := presburger.Fixed(t.Guard, dom)
	for c := range empty {
		fixed[m.StateVar(c)] = 0
	}
	// Only the variables the step changes have a change (most variables
	// of a step on a large net have none).
	delta := make([]presburger.Term, m.NumState())
	for _, c := range m.StepChanges(t) {
		v := c.Index
		delta[v] = c.Next.Sub(presburger.VarTerm(m.StateVar(v))).Subst(func(x presburger.Var) presburger.Term {
			if c, ok := fixed[x]; ok {
				return presburger.ConstTerm(c)
			}
			return presburger.VarTerm(x)
		})
	}
	// The variables of small finite domain the changes read, those
	// that move no weight first: an assignment x0 := 1 is 1 - x0, which
	// no weight of x0 leaves unchanged unless x0's value is known, where
	// a transfer x := x + y, y := 0 moves y from one variable to the
	// other, which the weight y_x = y_y leaves unchanged whatever its
	// value. (The sum of a variable's coefficients over the changes
	// tells them apart. mist's queuedbusyflag with its places as bools
	// transfers four flags of 0..1 in one step, and its place invariant
	// needs the fifth variable, the place assigned, split.)
	moved := map[presburger.Var]int64{}
	for _, d := range delta {
		for _, mo := range d.Monos {
			moved[mo.Var] += mo.Coef
		}
	}
	var split []presburger.Var
	cases := 1
	seen := map[presburger.Var]bool{}
	for _, transfer := range []bool{false, true} {
		for _, d := range delta {
			for _, mo := range d.Monos {
				b, ok := dom[mo.Var]
				if (moved[mo.Var] == 0) != transfer || seen[mo.Var] || !ok || !b.Finite() || !inLimit(b.Lo) || !inLimit(b.Hi) || b.Hi-b.Lo >= 4 || b.Hi < b.Lo {
					continue
				}
				seen[mo.Var] = true
				if cases*int(b.Hi-b.Lo+1) > maxCases {
					continue
				}
				cases *= int(b.Hi - b.Lo + 1)
				split = append(split, mo.Var)
			}
		}
	}
	slices.Sort(split)
	isSplit := map[presburger.Var]bool{}
	for _, w := range split {
		isSplit[w] = true
	}
	out := []stepCase{{delta: delta, at: map[presburger.Var]int64{}}}
	for _, w := range split {
		var more []stepCase
		for _, sc := range out {
			for x := dom[w].Lo; x <= dom[w].Hi; x++ {
				c := stepCase{delta: make([]presburger.Term, len(sc.delta)), at: maps.Clone(sc.at), idle: sc.idle}
				c.at[w] = x
				for v, d := range sc.delta {
					c.delta[v] = d.Subst(func(y presburger.Var) presburger.Term {
						if y == w {
							return presburger.ConstTerm(x)
						}
						return presburger.VarTerm(y)
					})
					if isSplit[m.StateVar(v)] && len(d.Monos) > 0 && c.delta[v].IsConst() && c.delta[v].Const == 0 {
						c.idle = true
					}
				}
				more = append(more, c)
			}
		}
		out = more
	}
	return out
}

// complement returns the counters of m not in empty.
func complement(m *counterabs.ParamModel, empty map[int]bool) map[int]bool {
	out := map[int]bool{}
	for c := range m.Counters {
		if !empty[c] {
			out[c] = true
		}
	}
	return out
}

// reduction is a transition system with the variables that linear
// invariants define eliminated: each pivot is replaced by its value
// from the others and the parameters, so the prover never sees it. The
// runs of the reduced system are those of the original with the pivots
// left out, since the invariants hold in every reachable state; an
// invariant of it, conjoined with the invariants eliminated, is an
// invariant of the original (and is re-checked on it, as any).
type reduction struct {
	ts    presburger.TransitionSystem
	cur   map[presburger.Var]presburger.Term // pivot -> its value in a state
	facts presburger.Formula                 // the invariants, over the original variables
	// inDomain says that each pivot's value lies in its domain: true
	// in every reachable state (the initial states and the steps'
	// targets are so constrained), but not stated of a step's source.
	inDomain presburger.Formula
}

// eliminate returns ts with the pivots of lis eliminated, or ok false
// when no invariant has one. The pivots' domains become constraints of
// the initial states and of the target of every step.
func eliminate(m *counterabs.ParamModel, ts presburger.TransitionSystem, lis []linearInvariant) (reduction, bool) {
	r := reduction{cur: map[presburger.Var]presburger.Term{}}
	next := map[presburger.Var]presburger.Term{}
	nextOf := map[presburger.Var]presburger.Var{}
	for i, v := range ts.Vars {
		nextOf[v] = ts.Next[i]
	}
	var used []linearInvariant
	for _, li := range lis {
		if li.pivot < 0 {
			continue
		}
		used = append(used, li)
		var t, tn presburger.Term
		t = li.rhs
		tn = li.rhs
		for i, c := range li.coef {
			if i == li.pivot || c == 0 {
				continue
			}
			x := m.StateVar(i)
			t = t.Sub(presburger.VarTerm(x).Scale(c))
			tn = tn.Sub(presburger.VarTerm(nextOf[x]).Scale(c))
		}
		p := m.StateVar(li.pivot)
		r.cur[p], next[nextOf[p]] = t, tn
	}
	if len(used) == 0 {
		return reduction{}, false
	}
	r.facts = linearConj(m, used)
	both := func(v presburger.Var) presburger.Term {
		if t, ok := r.cur[v]; ok {
			return t
		}
		if t, ok := next[v]; ok {
			return t
		}
		return presburger.VarTerm(v)
	}
	dom := domainBounds(ts.Domain)
	// inDomain says that each pivot's value, read by value, lies in its
	// domain.
	inDomain := func(value func(p presburger.Var) presburger.Term) presburger.Formula {
		var out []presburger.Formula
		for _, p := range slices.Sorted(maps.Keys(r.cur)) {
			b := dom[p]
			if !b.NoLo {
				out = append(out, presburger.Compare(value(p), presburger.Ge, presburger.ConstTerm(b.Lo)))
			}
			if !b.NoHi {
				out = append(out, presburger.Compare(value(p), presburger.Le, presburger.ConstTerm(b.Hi)))
			}
		}
		return presburger.Conj(out...)
	}
	red := presburger.TransitionSystem{Params: ts.Params}
	for i, v := range ts.Vars {
		if _, ok := r.cur[v]; !ok {
			red.Vars = append(red.Vars, v)
			red.Next = append(red.Next, ts.Next[i])
		}
	}
	for _, b := range ts.Domain {
		if _, ok := r.cur[b.Var]; !ok {
			red.Domain = append(red.Domain, b)
		}
	}
	r.inDomain = inDomain(func(p presburger.Var) presburger.Term { return r.cur[p] })
	red.Init = presburger.Conj(presburger.Subst(ts.Init, both), r.inDomain)
	nextDomain := inDomain(func(p presburger.Var) presburger.Term { return next[nextOf[p]] })
	for _, t := range ts.Trans {
		red.Trans = append(red.Trans, presburger.Conj(presburger.Subst(t, both), nextDomain))
	}
	red.Bad = presburger.Subst(ts.Bad, both)
	r.ts = red
	return r, true
}

// answer carries an answer about the reduced system over to the
// original: an invariant with the eliminated invariants conjoined, a
// counterexample with the pivots' values filled in.
func (r reduction) answer(a presburger.SafetyAnswer) presburger.SafetyAnswer {
	switch {
	case a.Verdict == presburger.Proved:
		a.Invariant = presburger.Conj(a.Invariant, r.facts)
	case a.Verdict == presburger.Refuted && a.Counterexample != nil:
		cex := *a.Counterexample
		cex.States = make([]presburger.Model, len(a.Counterexample.States))
		for j, st := range a.Counterexample.States {
			full := maps.Clone(st)
			val := func(v presburger.Var) int64 {
				if x, ok := st[v]; ok {
					return x
				}
				return cex.Params[v]
			}
			for p, t := range r.cur {
				full[p] = t.Eval(val)
			}
			cex.States[j] = full
		}
		a.Counterexample = &cex
	}
	return a
}

// domainBounds returns the range of each variable that domain bounds,
// its ranges intersected (presburger.Intersect).
func domainBounds(domain []presburger.Bound) map[presburger.Var]presburger.Bound {
	dom := map[presburger.Var]presburger.Bound{}
	for _, b := range presburger.Intersect(domain) {
		dom[b.Var] = b
	}
	return dom
}

// maxPositiveBasis bounds the basis whose nonnegative combinations
// nonnegativeInvariants looks for, and positiveWork the weights it
// combines (a few milliseconds).
const (
	maxPositiveBasis = 64
	positiveWork     = 2_000_000
)

// nonnegativeInvariants returns invariants of the space lis spans whose
// every weight is nonnegative, which lis, a basis whose choice of
// pivots follows the order of the variables, may not have as such: a
// basis vector with negative weights is added to or subtracted from by
// the others (and the invariants found so far), one at a time, while
// that lowers the number of negative weights, until none is left. The
// backward search reads place invariants only where every weight is
// nonnegative (a sum of places bounded by its tokens: looseDomain), and
// mist's queuedbusyflag with its places as bools and its variables
// declared in alphabetical order had "lock + unlock = 1" only as the
// sum of two basis vectors with 12 and 16 negative weights: 0.4 s
// became 40 s of Spacer. Only constant right-hand sides; nil beyond
// maxPositiveBasis vectors, and what it found when positiveWork runs out
// (the same on every machine); a combination beyond int64 is not made.
func nonnegativeInvariants(lis []linearInvariant) []linearInvariant {
	var basis []linearInvariant
	for _, li := range lis {
		if li.rhs.IsConst() {
			basis = append(basis, li)
		}
	}
	if len(basis) > maxPositiveBasis {
		return nil
	}
	negatives := func(li linearInvariant) int {
		n := 0
		for _, c := range li.coef {
			if c < 0 {
				n++
			}
		}
		return n
	}
	combine := func(a, b linearInvariant, s int64) (linearInvariant, bool) {
		out := linearInvariant{coef: make([]int64, len(a.coef)), pivot: -1}
		for i := range a.coef {
			p, ok := checked.Mul(s, b.coef[i])
			if !ok {
				return out, false
			}
			if out.coef[i], ok = checked.Add(a.coef[i], p); !ok || !inLimit(out.coef[i]) {
				return out, false
			}
		}
		p, ok := checked.Mul(s, b.rhs.Const)
		if !ok {
			return out, false
		}
		c, ok := checked.Add(a.rhs.Const, p)
		out.rhs = presburger.ConstTerm(c)
		return out, ok && inLimit(c)
	}
	var found []linearInvariant
	seen := map[string]bool{}
	work := 0     // weights combined, against positiveWork
	for range 2 { // again, with what the first pass found
		for i, v := range basis {
			if negatives(v) == 0 {
				continue
			}
			cur := v
			if w, ok := combine(linearInvariant{coef: make([]int64, len(v.coef))}, v, -1); ok && negatives(w) < negatives(cur) {
				cur = w
			}
			pool := append(slices.Clone(basis), found...)
			for improved := true; improved && negatives(cur) > 0; {
				improved = false
				for j, u := range pool {
					if j == i {
						continue
					}
					for _, s := range []int64{1, -1} {
						if work += len(cur.coef); work > positiveWork {
							return found
						}
						if w, ok := combine(cur, u, s); ok && negatives(w) < negatives(cur) {
							cur, improved = w, true
						}
					}
				}
			}
			key := fmt.Sprint(cur.coef)
			if negatives(cur) == 0 && slices.ContainsFunc(cur.coef, func(c int64) bool { return c != 0 }) && !seen[key] {
				seen[key] = true
				found = append(found, cur)
			}
		}
	}
	return found
}
