package prove

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// Monotone combinations: weighted sums of state variables that no step
// increases, and sums that increase only under a guard bounding them.
// They are the facts a threshold-guarded algorithm with crashes rests
// on and the other lemmas miss: in ByMC's c1cs, every step changes
// nsnt0CF - nsnt0 - nfaulty by 0 or -1 (a correct sender adds one to
// both counts of messages, a crashing one to nsnt0CF and nfaulty, a
// crash alone to nfaulty), so nsnt0CF - nsnt0 - nfaulty <= 0 from its
// initial 0; and nfaulty grows only under the guard nfaulty < F, by
// one, so nfaulty <= F. Together they say that the messages of the
// correct processes are at least those of all minus F, which is what
// the decisions' thresholds rely on (without them Spacer takes 20 s).
//
// A weight vector w is monotone when w.Delta <= 0 for every step, Delta
// the step's change (stepCases: a constant for the moves and increments
// of a Petri net or a threshold automaton; a term over the state for a
// transfer or an assignment, which disqualifies w unless w cancels its
// variables). Then w.x <= w.x0 holds in every reachable state. The
// search is over weights -1 and 1 on two or three variables: the
// supports a protocol's bookkeeping ties together (a message counted
// twice and the processes that crashed) are that small, and the number
// of vectors stays in the thousands where every vector of a given
// support would be millions. It is exhaustive over those vectors but
// cheap: it grows a vector from each signed variable by the variables
// of the first step that the vector so far increases (any monotone
// vector containing it must have one of them), so it visits a few
// vectors per variable, not all triples. A vector that splits into two
// monotone parts on disjoint variables is left out: its candidate
// follows from theirs (singletons are the bound lemmas). Like every
// lemma, each is a candidate only; Houdini's filter keeps it when it
// is inductive, and the proof is re-checked (presburger.CheckInvariant).

// maxMonotoneSupport is the most variables a monotone vector has.
const maxMonotoneSupport = 3

// maxMonotone bounds the candidates of each kind below, so that a model
// with many counters does not crowd the others out of the filter.
const maxMonotone = 100

// signedVar is a weight (1 or -1) on a state variable.
type signedVar struct {
	v    int
	sign int64
}

// monotoneSearch holds the changes of a model's steps for the search.
type monotoneSearch struct {
	m   *counterabs.ParamModel
	dom map[presburger.Var]presburger.Bound
	// cases are the changes of every step, one per case (stepCases),
	// over the state variables.
	cases [][]presburger.Term
	// touches lists, per state variable, the cases that change it.
	touches [][]int
	empty   map[int]bool
	// work counts the changes computed (change), which the search
	// stops at after maxMonotoneWork.
	work int
}

// maxMonotoneWork bounds the changes the search computes. It visits a
// few vectors per variable where the steps change few variables each,
// but a step that moves every process (a broadcast over hundreds of
// local states, Cubicle's German protocol translated) extends each
// vector by every variable it changes: minutes, where mist's and
// ByMC's models need under 20,000 and the other Cubicle translations
// under a million. Past it, the search returns what it found:
// candidates only, which the filter checks.
const maxMonotoneWork = 5_000_000

func newMonotoneSearch(m *counterabs.ParamModel) *monotoneSearch {
	s := &monotoneSearch{m: m, empty: emptyCounters(m), touches: make([][]int, m.NumState()), dom: domainBounds(m.Ranges())}
	for i := range m.Transitions {
		for _, c := range stepCases(m, &m.Transitions[i], s.dom, s.empty) {
			delta := c.delta
			k := len(s.cases)
			s.cases = append(s.cases, delta)
			for v, d := range delta {
				if !d.IsConst() || d.Const != 0 {
					s.touches[v] = append(s.touches[v], k)
				}
			}
		}
	}
	return s
}

// change returns w.Delta of case k, ok false when it does not fit.
func (s *monotoneSearch) change(w []signedVar, k int) (presburger.Term, bool) {
	s.work++
	var t presburger.Term
	for _, sv := range w {
		d, ok := s.cases[k][sv.v].ScaleExact(sv.sign)
		if !ok {
			return presburger.Term{}, false
		}
		if t, ok = t.AddExact(d); !ok {
			return presburger.Term{}, false
		}
	}
	return t, true
}

// firstIncrease returns the first case (over the cases that change a
// variable of w) that w.Delta may make positive: a positive constant,
// or a term that reads the state or the parameters; -1 when there is
// none, and w is monotone.
func (s *monotoneSearch) firstIncrease(w []signedVar) int {
	first := -1
	for _, sv := range w {
		for _, k := range s.touches[sv.v] {
			if first >= 0 && k >= first {
				break
			}
			if d, ok := s.change(w, k); !ok || !d.IsConst() || d.Const > 0 {
				first = k
				break
			}
		}
	}
	return first
}

// monotone returns the monotone vectors of two or three variables, each
// once, none that splits into two monotone parts, in a deterministic
// order.
func (s *monotoneSearch) monotone() [][]signedVar {
	seen := map[string]bool{}
	var out [][]signedVar
	var grow func(w []signedVar)
	grow = func(w []signedVar) {
		key := supportKey(w)
		if seen[key] || s.work > maxMonotoneWork {
			return
		}
		seen[key] = true
		k := s.firstIncrease(w)
		if k < 0 {
			if len(w) > 1 && !s.splits(w) {
				out = append(out, sortedSupport(w))
			}
			return
		}
		if len(w) == maxMonotoneSupport {
			return
		}
		// Some variable of any monotone extension of w cancels case k.
		for v, d := range s.cases[k] {
			if (d.IsConst() && d.Const == 0) || s.empty[v] || inSupport(w, v) {
				continue
			}
			for _, sign := range []int64{1, -1} {
				grow(append(slices.Clone(w), signedVar{v, sign}))
			}
		}
	}
	for v := range s.m.NumState() {
		if s.empty[v] {
			continue
		}
		for _, sign := range []int64{1, -1} {
			grow([]signedVar{{v, sign}})
		}
	}
	return out
}

// splits reports whether w is the sum of two monotone vectors on
// disjoint nonempty parts of its support.
func (s *monotoneSearch) splits(w []signedVar) bool {
	n := len(w)
	for mask := 1; mask < 1<<n-1; mask++ {
		var a, b []signedVar
		for i, sv := range w {
			if mask&(1<<i) != 0 {
				a = append(a, sv)
			} else {
				b = append(b, sv)
			}
		}
		if s.firstIncrease(a) < 0 && s.firstIncrease(b) < 0 {
			return true
		}
	}
	return false
}

func inSupport(w []signedVar, v int) bool {
	for _, sv := range w {
		if sv.v == v {
			return true
		}
	}
	return false
}

func sortedSupport(w []signedVar) []signedVar {
	out := slices.Clone(w)
	slices.SortFunc(out, func(a, b signedVar) int { return a.v - b.v })
	return out
}

func supportKey(w []signedVar) string {
	var b strings.Builder
	for _, sv := range sortedSupport(w) {
		fmt.Fprintf(&b, "%d:%d,", sv.v, sv.sign)
	}
	return b.String()
}

// term returns w.x over the model's state variables.
func (s *monotoneSearch) term(w []signedVar) presburger.Term {
	var t presburger.Term
	for _, sv := range w {
		t = t.Add(presburger.VarTerm(s.m.StateVar(sv.v)).Scale(sv.sign))
	}
	return t
}

// monotoneCandidates returns, for each monotone vector w of m, the
// candidate w.x <= w.x0, x0 the initial values (terms over the
// parameters; with several initial states, the first one's, a guess
// the filter checks against all of them).
func monotoneCandidates(m *counterabs.ParamModel, s *monotoneSearch) []presburger.Formula {
	init := initTerms(m)
	var out []presburger.Formula
	for _, w := range s.monotone() {
		if len(out) == maxMonotone {
			break
		}
		if s.trivial(w, init) {
			continue
		}
		var x0 presburger.Term
		ok := true
		for _, sv := range w {
			d, fits := init[sv.v].ScaleExact(sv.sign)
			if x0, fits = x0.AddExact(d); !fits {
				ok = false
			}
		}
		if ok {
			out = append(out, presburger.Compare(s.term(w), presburger.Le, x0))
		}
	}
	return out
}

// trivial reports whether w.x <= w.x0 holds in every state of the
// domain: each variable of weight -1 starts at its least value, each of
// weight 1 at its greatest (-#D0 - #CR <= 0, both counters starting
// empty).
func (s *monotoneSearch) trivial(w []signedVar, init []presburger.Term) bool {
	for _, sv := range w {
		b, x0 := s.dom[s.m.StateVar(sv.v)], init[sv.v]
		switch {
		case !x0.IsConst():
			return false
		case sv.sign < 0 && (b.NoLo || b.Lo != x0.Const):
			return false
		case sv.sign > 0 && (b.NoHi || b.Hi != x0.Const):
			return false
		}
	}
	return true
}

// ceilingCandidates returns, for each atom of the guards that bounds a
// sum of shared variables from above by the parameters (nfaulty < F),
// the bound that holds when only steps under that guard increase the
// sum, each by at most d: the sum stays at most the bound plus d-1
// (nfaulty <= F). Every step's change of the sum must be a constant;
// whether the steps that increase it have the guard is the filter's
// question.
func ceilingCandidates(m *counterabs.ParamModel, s *monotoneSearch, atoms []presburger.Formula) []presburger.Formula {
	state := map[presburger.Var]int{}
	for i := range m.NumState() {
		state[m.StateVar(i)] = i
	}
	var out []presburger.Formula
	seen := map[string]bool{}
	for _, a := range atoms {
		c, ok := a.(presburger.Cmp)
		if !ok {
			if n, neg := a.(presburger.Not); neg {
				if c, ok = n.F.(presburger.Cmp); ok {
					c.Op = c.Op.Negate()
				}
			}
		}
		if !ok || len(out) == maxMonotone {
			continue
		}
		// As t <= k or t < k with t = w.x + p + c, w on state variables.
		t := c.T
		switch c.Op {
		case presburger.Gt, presburger.Ge:
			var fits bool
			if t, fits = t.ScaleExact(-1); !fits {
				continue
			}
			c.Op = c.Op.Converse()
		case presburger.Lt, presburger.Le:
		default:
			continue
		}
		var w []signedVar
		for _, mo := range t.Monos {
			if i, isState := state[mo.Var]; isState {
				if mo.Coef != 1 && mo.Coef != -1 {
					w = nil
					break
				}
				w = append(w, signedVar{i, mo.Coef})
			}
		}
		if len(w) == 0 {
			continue
		}
		// The largest increase of w.x in a step.
		var most int64
		for k := range s.cases {
			d, fits := s.change(w, k)
			if !fits || !d.IsConst() {
				most = -1
				break
			}
			most = max(most, d.Const)
		}
		if most <= 0 {
			continue // not increased at all: a monotone vector's question
		}
		// t < 0 before a step gives t <= most-1 after it, t <= 0 gives t <= most.
		slack := most
		if c.Op == presburger.Lt {
			slack--
		}
		f := presburger.Compare(t, presburger.Le, presburger.ConstTerm(slack))
		if key := presburger.Format(f, m.VarName); !seen[key] {
			seen[key] = true
			out = append(out, f)
		}
	}
	return out
}

// monotoneLemmas returns the candidates of m's monotone combinations
// ("monotone") and of the ceilings of its guards ("ceiling"), but none
// that the linear invariants lis and the domains imply, and one of
// those they make equivalent: with each variable an invariant defines
// replaced by its definition (nsnt01 by nsnt0 + nsnt1), a candidate
// that becomes valid in the domain, or the same as one before it,
// would only add work to the filter and its pruning.
func monotoneLemmas(m *counterabs.ParamModel, lis []linearInvariant) []Lemma {
	s := newMonotoneSearch(m)
	def := map[presburger.Var]presburger.Term{}
	for _, li := range lis {
		if li.pivot < 0 {
			continue
		}
		t := li.rhs
		for i, c := range li.coef {
			if i != li.pivot && c != 0 {
				t = t.Sub(presburger.VarTerm(m.StateVar(i)).Scale(c))
			}
		}
		def[m.StateVar(li.pivot)] = t
	}
	seen := map[string]bool{}
	var out []Lemma
	add := func(kind string, fs []presburger.Formula) {
		for _, f := range fs {
			c, ok := f.(presburger.Cmp)
			if !ok {
				continue
			}
			r, fits := c.T.SubstExact(func(v presburger.Var) presburger.Term {
				if t, ok := def[v]; ok {
					return t
				}
				return presburger.VarTerm(v)
			})
			if !fits || s.valid(r) {
				continue
			}
			key := presburger.Format(presburger.Compare(r, c.Op, presburger.ConstTerm(0)), m.VarName)
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, Lemma{Kind: kind, Formula: f, Text: FormatInvariant(f, m.VarName, m.TypedAtom)})
		}
	}
	add("monotone", monotoneCandidates(m, s))
	add("ceiling", ceilingCandidates(m, s, thresholdAtoms(m, stepSigns(m))))
	return out
}

// valid reports whether t <= 0 holds in every state of the domain, by
// the bounds of its variables alone (false when a parameter or an
// unbounded side is in the way).
func (s *monotoneSearch) valid(t presburger.Term) bool {
	most := t.Const
	for _, mo := range t.Monos {
		b, ok := s.dom[mo.Var]
		if !ok || !inLimit(mo.Coef) {
			return false
		}
		var end int64
		switch {
		case mo.Coef < 0 && !b.NoLo && inLimit(b.Lo):
			end = b.Lo
		case mo.Coef > 0 && !b.NoHi && inLimit(b.Hi):
			end = b.Hi
		default:
			return false
		}
		var ok2 bool
		if most, ok2 = combine(1, most, mo.Coef, end); !ok2 {
			return false
		}
	}
	return most <= 0
}
