package prove

import (
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// Sum thresholds: "#c = 0 | k*S <= b", S a sum that no step changes
// (a ghost constant's term, ghost.go) and b a bound over the parameters
// that the guard of a step into c implies of S.
//
// A threshold candidate "#c = 0 | a" (lemma.go) holds when a, required
// by every step into c, can never become false again; an upper bound
// on a variable that grows (BOSCO's "2*nsnt0 < N - T + 1" into locU1)
// can. What does not change is the sum that variable is part of:
// #loc0 + nsnt0 in BOSCO, every process that leaves loc0 sending one
// 0. The guard into locU1 bounds that sum through the linear
// invariants (#loc0 + #loc1 + nsnt01 = N - F, so #loc0 + nsnt0 <= N - F
// - nsnt01 + nsnt0 <= N - F - (N - T - F) + (N - T)/2) and the bound
// stays true after the step, since the sum never moves: "#locU1 = 0 |
// 2*(#loc0 + nsnt0) <= N + T", the lemma that decides BOSCO's lemma4
// (a process decides 0 only when more than (N + 3T - 2F)/2 sent 0),
// which Spacer found before (a quarter of a second each). The bound is
// found by interval reasoning, with no solver: S plus a combination of
// the linear invariants (each with weight -1, 0 or 1) is a sum of
// counters and shared variables; a counter with a negative weight is
// dropped (it is never below 0), a shared variable is replaced by its
// bound among the guard case's comparisons that read it alone. The
// candidates are guesses like the others, offered in a third round
// (prove.go: lemmasFor): Houdini's filter, with the linear invariants
// as facts, keeps those that are inductive.

// maxSumWork bounds the sums that sumThresholds bounds by a guard
// case (bosco.ta: about 1,300).
const maxSumWork = 50000

// maxSumScale bounds the common multiple k of the guard's coefficients
// by which a sum threshold is scaled.
const maxSumScale = 64

// sumThresholds returns the sum threshold candidates of m (above): for
// each counter c and each ghost term S, the strongest bounds on S (and
// on -S) that every case of every guard into c implies (weaker): a
// bound that some step into c does not respect is no invariant, and
// leaving it out keeps the filter's queries small.
func sumThresholds(m *counterabs.ParamModel) []presburger.Formula {
	if m.SingleInitial() || m.NumState() > maxLinearVars {
		return nil
	}
	open := map[int]bool{}
	for i := range m.NumState() {
		if _, fixed := m.InitialValue(i); !fixed {
			open[i] = true
		}
	}
	if len(open) == 0 || len(open) > maxGhosts {
		return nil
	}
	terms := ghostTerms(m, open)
	if len(terms) == 0 {
		return nil
	}
	// Each ghost term, and its rewrites by the linear invariants, as
	// the equal sums the bounds are read from; the shortest first.
	var eqs []presburger.Term
	for _, li := range linearInvariants(m, nil) {
		if e, ok := li.formula(m).(presburger.Cmp); ok {
			eqs = append(eqs, e.T)
		}
	}
	var rewrites [][]presburger.Term
	for i := range m.NumState() {
		if s, ok := terms[i]; ok {
			forms := rewritten(s, eqs)
			slices.SortStableFunc(forms, func(a, b presburger.Term) int { return len(a.Monos) - len(b.Monos) })
			rewrites = append(rewrites, forms)
		}
	}
	state := map[presburger.Var]int{}
	for i := range m.NumState() {
		state[m.StateVar(i)] = i
	}
	// The cases of the guards into each counter, as their comparisons;
	// a guard merged from several rules (the total model's steps between
	// two locations) bounds the sum in each of its cases. nil for a
	// counter with a guard of too many cases.
	cases := map[int][][]presburger.Cmp{}
	tooMany := map[int]bool{}
	empty := emptyCounters(m)
	for ti := range m.Transitions {
		t := &m.Transitions[ti]
		guard := presburger.NNF(t.Guard)
		for _, mv := range append(t.Moves(), t.Transfers...) {
			if mv.From == mv.To || empty[mv.To] {
				continue
			}
			if dnfSize(guard) > maxGuardCases {
				tooMany[mv.To] = true
				continue
			}
			for _, conj := range presburger.DNF(guard) {
				var atoms []presburger.Cmp
				for _, f := range conj {
					if a, ok := f.(presburger.Cmp); ok {
						atoms = append(atoms, a)
					}
				}
				cases[mv.To] = append(cases[mv.To], atoms)
			}
		}
	}
	// The variables (parameters) never below 0 in the domain.
	low := map[presburger.Var]bool{}
	for _, b := range presburger.Intersect(m.Ranges()) {
		low[b.Var] = !b.NoLo && b.Lo >= 0
	}
	nonneg := func(v presburger.Var) bool { return low[v] }
	var out []presburger.Formula
	work := 0
	for c := range len(m.Counters) {
		if tooMany[c] || len(cases[c]) == 0 {
			continue
		}
		zero := presburger.Compare(presburger.VarTerm(m.StateVar(c)), presburger.Eq, presburger.ConstTerm(0))
		for _, forms := range rewrites {
			// A model with many counters and ghosts stops here, the
			// same on every machine.
			if work += 2 * len(cases[c]) * len(forms); work > maxSumWork || len(out) >= maxCandidates {
				return out
			}
			for _, sign := range []int64{1, -1} {
				for _, b := range commonBounds(m, forms, sign, cases[c], state, nonneg) {
					// Stated over the shortest form of S.
					if scaled, fits := forms[0].ScaleExact(sign * b.k); fits {
						out = append(out, presburger.Disj(zero, presburger.Compare(scaled, presburger.Le, b.t)))
					}
				}
			}
		}
	}
	return out
}

// commonBounds returns the bounds k*sign*S <= t, S the sum forms
// rewrite, that each case of cases implies (up to a constant): those of
// any case that every case implies, the strongest of them. Whichever
// case a bound comes from, the answer is the same: the order of the
// rules a guard is merged from (bosco's, written backwards, kept the
// weaker of two bounds on the votes into locU0, and its lemma4
// properties went to Spacer) does not decide which bound is proposed.
func commonBounds(m *counterabs.ParamModel, forms []presburger.Term, sign int64, cases [][]presburger.Cmp, state map[presburger.Var]int, nonneg func(presburger.Var) bool) []scaledBound {
	isCounter := func(v presburger.Var) bool { i, ok := state[v]; return ok && i < len(m.Counters) }
	perCase := make([][]scaledBound, len(cases))
	for i, atoms := range cases {
		lo, hi := sharedBounds(m, state, atoms)
		for _, r := range forms {
			if signed, fits := r.ScaleExact(sign); fits {
				perCase[i] = append(perCase[i], boundSum(signed, lo, hi, isCounter, state)...)
			}
		}
		if len(perCase[i]) == 0 {
			return nil
		}
	}
	var common []scaledBound
	for _, bs := range perCase {
		for _, b := range bs {
			impliedByEach := !slices.ContainsFunc(perCase, func(other []scaledBound) bool {
				return !slices.ContainsFunc(other, func(o scaledBound) bool { return weaker(b, o, nonneg) })
			})
			if impliedByEach {
				common = append(common, b)
			}
		}
	}
	// The strongest: each bound that no other implies, once.
	var out []scaledBound
	for i, b := range common {
		implied := false
		for j, o := range common {
			if i != j && weaker(b, o, nonneg) && (!weaker(o, b, nonneg) || j < i) {
				implied = true
				break
			}
		}
		if !implied {
			out = append(out, b)
		}
	}
	return out
}

// weaker reports whether the bound b on a sum (sum*b.k <= b.t) follows
// from o for every value of the parameters in the domain:
// b.t/b.k - o.t/o.k is a constant at least 0 plus nonnegative multiples
// of variables that nonneg says are never below 0.
func weaker(b, o scaledBound, nonneg func(presburger.Var) bool) bool {
	x, fits := b.t.ScaleExact(o.k)
	if !fits {
		return false
	}
	y, fits := o.t.ScaleExact(b.k)
	if !fits {
		return false
	}
	d, fits := x.SubExact(y)
	if !fits || d.Const < 0 {
		return false
	}
	for _, mo := range d.Monos {
		if mo.Coef < 0 || !nonneg(mo.Var) {
			return false
		}
	}
	return true
}

// maxRewriteInvariants bounds the linear invariants whose every
// combination with weights -1, 0 and 1 is added to a ghost term (3^k
// rewrites); with more, each is added or subtracted alone.
const maxRewriteInvariants = 4

// rewritten returns s plus each combination of the terms eqs (each 0 in
// every reachable state), with weights -1, 0 and 1 (with more than
// maxRewriteInvariants of them, one at a time), s first.
func rewritten(s presburger.Term, eqs []presburger.Term) []presburger.Term {
	if len(eqs) > maxRewriteInvariants {
		out := []presburger.Term{s}
		for _, e := range eqs {
			if r, fits := s.SubExact(e); fits {
				out = append(out, r)
			}
			if r, fits := s.AddExact(e); fits {
				out = append(out, r)
			}
		}
		return out
	}
	out := []presburger.Term{s}
	for _, e := range eqs {
		n := len(out)
		for _, t := range out[:n] {
			if r, fits := t.SubExact(e); fits {
				out = append(out, r)
			}
			if r, fits := t.AddExact(e); fits {
				out = append(out, r)
			}
		}
	}
	return out
}

// maxGuardCases bounds the cases of a guard that sumThresholds reads.
const maxGuardCases = 8

// dnfSize returns the number of clauses of the disjunctive normal form
// of f, in negation normal form, before any is dropped, or
// maxGuardCases + 1 when it has more.
func dnfSize(f presburger.Formula) int {
	switch f := f.(type) {
	case presburger.And:
		n := 1
		for _, g := range f {
			if n *= dnfSize(g); n > maxGuardCases {
				return maxGuardCases + 1
			}
		}
		return n
	case presburger.Or:
		n := 0
		for _, g := range f {
			if n += dnfSize(g); n > maxGuardCases {
				return maxGuardCases + 1
			}
		}
		return n
	}
	return 1
}

// scaledBound is k*v <= t (an upper bound) or k*v >= t (a lower one),
// k > 0 and t over the parameters.
type scaledBound struct {
	k int64
	t presburger.Term
}

// sharedBounds returns the bounds that the comparisons atoms put on one
// shared variable each.
func sharedBounds(m *counterabs.ParamModel, state map[presburger.Var]int, atoms []presburger.Cmp) (lo, hi map[presburger.Var][]scaledBound) {
	lo, hi = map[presburger.Var][]scaledBound{}, map[presburger.Var][]scaledBound{}
	for _, a := range atoms {
		var v presburger.Var
		n := 0
		for _, mo := range a.T.Monos {
			if i, ok := state[mo.Var]; ok {
				if i < len(m.Counters) {
					n = 2 // reads a counter
					break
				}
				v = mo.Var
				n++
			} else if mo.Var >= m.LocalVar(0) {
				n = 2
				break
			}
		}
		if n != 1 {
			continue
		}
		for _, row := range nonnegRows(a) {
			// row = coef*v + rest >= 0.
			var coef int64
			for _, mo := range row.Monos {
				if mo.Var == v {
					coef = mo.Coef
				}
			}
			rest, fits := row.SubExact(presburger.VarTerm(v).Scale(coef))
			if !fits {
				continue
			}
			if coef > 0 {
				// coef*v >= -rest.
				if t, fits := rest.ScaleExact(-1); fits {
					lo[v] = append(lo[v], scaledBound{coef, t})
				}
			} else {
				// -coef*v <= rest.
				hi[v] = append(hi[v], scaledBound{-coef, rest})
			}
		}
	}
	return lo, hi
}

// maxSumChoices bounds the choices of one bound per shared variable
// tried for one sum.
const maxSumChoices = 16

// boundSum returns pairs k > 0, b over the parameters with k*r <= b in
// every state that satisfies the bounds lo and hi on shared variables
// (r's counters never below 0), one for each choice of a bound per
// shared variable of r; none when a counter has a positive weight, a
// shared variable of r has no bound in the direction needed, or a
// number does not fit.
func boundSum(r presburger.Term, lo, hi map[presburger.Var][]scaledBound, isCounter func(presburger.Var) bool, state map[presburger.Var]int) []scaledBound {
	type use struct {
		w  int64
		bs []scaledBound
	}
	var uses []use
	params := presburger.ConstTerm(r.Const)
	choices := 1
	for _, mo := range r.Monos {
		switch {
		case isCounter(mo.Var):
			if mo.Coef > 0 {
				return nil
			}
		case isState(state, mo.Var):
			bs := hi[mo.Var]
			if mo.Coef < 0 {
				bs = lo[mo.Var]
			}
			if len(bs) == 0 {
				return nil
			}
			uses = append(uses, use{mo.Coef, bs})
			if choices *= len(bs); choices > maxSumChoices {
				return nil
			}
		default:
			var fits bool
			if params, fits = params.AddExact(presburger.Term{Monos: []presburger.Mono{mo}}); !fits {
				return nil
			}
		}
	}
	if len(uses) == 0 {
		return nil
	}
	var out []scaledBound
	pick := make([]int, len(uses))
	for range choices {
		out = appendBound(out, params, func(yield func(w int64, b scaledBound) bool) {
			for u, i := range pick {
				if !yield(uses[u].w, uses[u].bs[i]) {
					return
				}
			}
		})
		// The next choice, as a number in mixed radix.
		for u := range pick {
			if pick[u]++; pick[u] < len(uses[u].bs) {
				break
			}
			pick[u] = 0
		}
	}
	return out
}

// appendBound appends to out k and k*params + the sum of w*(k/b.k)*b.t
// over the chosen bounds, k the least common multiple of their b.k
// (each w*v at its bound: w*v <= w*b.t/b.k), unless k exceeds
// maxSumScale or a number does not fit.
func appendBound(out []scaledBound, params presburger.Term, chosen func(yield func(w int64, b scaledBound) bool)) []scaledBound {
	k := int64(1)
	for _, b := range chosen {
		// Both at most maxSumScale: the product fits.
		if b.k > maxSumScale {
			return out
		}
		if k = lcm(k, b.k); k > maxSumScale {
			return out
		}
	}
	sum, fits := params.ScaleExact(k)
	for w, b := range chosen {
		var part presburger.Term
		if part, fits = b.t.ScaleExact(w); fits {
			if part, fits = part.ScaleExact(k / b.k); fits {
				sum, fits = sum.AddExact(part)
			}
		}
		if !fits {
			return out
		}
	}
	if !fits {
		return out
	}
	return append(out, scaledBound{k, sum})
}

func isState(state map[presburger.Var]int, v presburger.Var) bool {
	_, ok := state[v]
	return ok
}

func lcm(a, b int64) int64 {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}
