package prove

import (
	"math"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// Entry counts: the lemma "a count of messages is at least the processes
// that sent them and are still where senders go", the converse of the
// count lemmas of lemma.go (at most the processes that sent, crashed or
// not). In ByMC's cf1s every correct process that leaves its initial
// location sends once (nsnt01 one more), so nsnt01 >= #S0 + #S1 + #D0 +
// #D1 + #U0 + #U1, the crashed ones left out: a process enters those
// locations only by sending, and leaves them only to crash. With the
// processes summing to N and at most F crashed, that is nsnt01 >= N - F
// once the initial locations are empty, the fact that the fairness of
// its termination premise needs; in cc, nsnt10 + nsnt11 >= #P1 + #AC0 +
// #AC1 in the same way.
//
// For x a shared variable, or the sum of two, and S a set of counters
// empty in every initial state, x - sum(S) never decreases when every
// step changes it by a constant at least 0: a step into S from outside
// raises x by at least its movers there, nothing lowers x otherwise, and
// a step out of S only raises x - sum(S). Then x - sum(S) >= x0, x0 the
// initial value of x. S is the greatest such set, found by removing from
// the initially empty counters, while some step lowers x - sum(S), the
// counters of S that step fills (and giving up on x when it lowers x
// with no such counter). Like every lemma it is a candidate: Houdini's
// filter keeps it only when it is inductive, and every proof with it is
// re-checked.
//
// A variable counted down instead (ByMC's count downs: left = n - x, no
// step raises it) counts what it lost, x0 - left, which starts at 0 and
// rises by what a step takes from left: the same lemma over that count,
// x0 - left - sum(S) >= 0, written left + sum(S) <= x0. Without it the
// count downs of cc and cf1s had no "sent at least the processes past
// sending" fact, and their termination was left unknown.

// maxEntryPairs bounds the shared variables of a model whose pairs are
// tried (each pair is a fixpoint over the steps).
const maxEntryPairs = 16

// entryCounts returns the entry-count candidates of m: one per counted
// variable (eventVars: the shared ones, and a message token's "sent"
// state, where a shared counter is written as a group of tokens) and
// per pair of them whose greatest set S is not empty. down[j] says
// that counted[j] is counted down: what it lost is counted (down nil:
// none is; a variable counted down then gets no candidate, as no
// entering step raises it).
func entryCounts(m *counterabs.ParamModel, counted []int, down []bool) []presburger.Formula {
	if len(counted) == 0 || len(counted)*len(m.Counters) > maxLinearVars {
		return nil
	}
	dom := domainBounds(m.Ranges())
	empty := emptyCounters(m)
	var cases [][]presburger.Term
	for i := range m.Transitions {
		for _, c := range stepCases(m, &m.Transitions[i], dom, empty) {
			cases = append(cases, c.delta)
		}
	}
	init := initTerms(m)
	var out []presburger.Formula
	sign := func(j int) int64 {
		if down != nil && down[j] {
			return -1
		}
		return 1
	}
	try := func(vars []int, signs []int64) {
		if f, ok := entryCount(m, cases, empty, init, vars, signs); ok {
			out = append(out, f)
		}
	}
	for j, v := range counted {
		try([]int{v}, []int64{sign(j)})
	}
	if len(counted) > maxEntryPairs {
		return out
	}
	for j, v := range counted {
		for k := j + 1; k < len(counted); k++ {
			try([]int{v, counted[k]}, []int64{sign(j), sign(k)})
		}
	}
	return out
}

// entryCount returns x - sum(S) >= x0 for x the sum of the state
// variables vars, each times its sign in signs (-1 for a variable
// counted down: x then counts what it lost, see entryCounts), ok false
// when S is empty or some step lowers x by a term, or by a constant
// with no counter of S to blame.
func entryCount(m *counterabs.ParamModel, cases [][]presburger.Term, empty map[int]bool, init []presburger.Term, vars []int, signs []int64) (presburger.Formula, bool) {
	in := make([]bool, len(m.Counters))
	n := 0
	for c := range m.Counters {
		// S holds none of vars: an event's own counter (a token's
		// x_sent) fills with every event.
		if t, fixed := m.InitialValue(c); fixed && t.IsConst() && t.Const == 0 && !empty[c] && !slices.Contains(vars, c) {
			in[c] = true
			n++
		}
	}
	change := func(delta []presburger.Term, v int) (int64, bool) {
		d := delta[v]
		if !d.IsConst() {
			return 0, false
		}
		return d.Const, true
	}
	for changed := true; changed; {
		changed = false
		for _, delta := range cases {
			var dx int64
			for k, v := range vars {
				d, ok := change(delta, v)
				if !ok {
					return nil, false
				}
				var ok1, ok2 bool
				d, ok1 = checked.Mul(signs[k], d)
				dx, ok2 = checked.Add(dx, d)
				if !ok1 || !ok2 {
					return nil, false
				}
			}
			var dS int64
			var filled []int
			for c := range in {
				if !in[c] {
					continue
				}
				d, ok := change(delta, c)
				if !ok {
					// A transfer's counter: its change reads the state.
					in[c], changed = false, true
					n--
					continue
				}
				if dS, ok = checked.Add(dS, d); !ok {
					return nil, false
				}
				if d > 0 {
					filled = append(filled, c)
				}
			}
			if dS == math.MinInt64 {
				return nil, false // -dS would not fit
			}
			net, ok := checked.Add(dx, -dS)
			if !ok {
				return nil, false
			}
			if net >= 0 {
				continue
			}
			if len(filled) == 0 {
				return nil, false
			}
			for _, c := range filled {
				in[c] = false
			}
			n -= len(filled)
			changed = true
		}
	}
	if n == 0 {
		return nil, false
	}
	var lhs, x0 presburger.Term
	fits := true
	for k, v := range vars {
		lhs = lhs.Add(presburger.VarTerm(m.StateVar(v)).Scale(signs[k]))
		at, ok1 := init[v].ScaleExact(signs[k])
		var ok2 bool
		x0, ok2 = x0.AddExact(at)
		fits = fits && ok1 && ok2
	}
	for c := range m.Counters {
		if in[c] {
			lhs = lhs.Sub(presburger.VarTerm(m.StateVar(c)))
		}
	}
	return presburger.Compare(lhs, presburger.Ge, x0), fits
}
