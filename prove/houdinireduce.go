package prove

import (
	"context"
	"maps"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// Houdini's filter asks its queries of the system with the linear
// invariants as facts (linear.go), conjoined to every step. On a
// group-counter model most state variables are fixed by them: the
// counter of a state that a group never occupies is 0, and of two
// states a token moves between one is the group's size minus the
// other (ByMC's c1cs written with message tokens: 243 counters, about
// 20 of them not defined by the invariants). The batched rounds ask
// their question incrementally (a presburger.Selector), where Z3 does
// not eliminate what such equalities define before its search, and the
// rounds grew with the variables: on that model they took 2.2 s of CPU
// of the property's 6.
//
// So those rounds ask their question of the system with the invariants'
// pivots substituted by what the invariants say they are
// (reduceByFacts), and each candidate with them. Nothing else changes:
// a state of the system satisfying the facts is a state of the reduced
// system (its other variables) with the pivots' values read off, and
// back; a step from a state satisfying the facts ends in one (the facts
// are inductive, linearInvariants), so the steps of the reduced system
// are those of the system between such states, the pivots' ranges
// stated as constraints before and after the step, where the system's
// domain stated them. The initial states satisfy the facts. So a
// candidate fails consecution together with others on the one exactly
// when it does on the other, and the filter, which keeps the largest
// part of its candidates that is inductive together (a part that does
// not depend on the order of its queries), keeps the same candidates.
// The survivors are returned as they were given, over the system's own
// variables; what uses them re-checks them there. The same holds of
// any question on one state that states the invariants
// (factPivots.problem), which the liveness certificate's search asks
// (liveQuestion.unsatInv).

// houdiniFacts is houdini(ctx, s, strengthen(ts, facts), cands, sample),
// facts the conjunction of lis, whose batched rounds ask their
// selection (a solver's own context) of the system with the pivots of
// lis substituted (reduceByFacts) when some invariant has one. The
// other queries are asked as houdini asks them: they go to a solver's
// shared contexts, whose history makes the models of what follows
// (prune's choice of lemmas, and the prover's work with them).
func houdiniFacts(ctx context.Context, s presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem, lis []linearInvariant, cands []Lemma, sample reachSample) ([]Lemma, error) {
	base := ts
	if len(lis) > 0 {
		base = strengthen(ts, linearConj(m, lis))
	}
	red, sub, ok := reduceByFacts(m, ts, lis)
	if !ok {
		return houdini(ctx, s, base, cands, sample)
	}
	view := &reducedView{ts: red, forms: make([]presburger.Formula, len(cands))}
	for i, c := range cands {
		if view.forms[i], ok = presburger.SubstExact(c.Formula, sub); !ok {
			return houdini(ctx, s, base, cands, sample)
		}
	}
	at, err := houdiniAt(ctx, s, base, paramPart(base), cands, sample, view)
	return lemmasAt(cands, at), err
}

// reducedView is a system reduced by its facts (reduceByFacts), and the
// candidates of houdiniAt substituted likewise (forms: by their
// positions).
type reducedView struct {
	ts    presburger.TransitionSystem
	forms []presburger.Formula
}

// factPivots is what a set of linear invariants of a model defines:
// each pivot's value in a state (cur) and after a step (next, keyed by
// the pivot's next-state variable), as terms over the other variables,
// and the invariants without a pivot (rest).
type factPivots struct {
	cur, next map[presburger.Var]presburger.Term
	nextOf    map[presburger.Var]presburger.Var
	pivots    []presburger.Var // the keys of cur, sorted
	dom       map[presburger.Var]presburger.Bound
	rest      presburger.Formula
}

// newFactPivots returns the pivots of lis over ts, a system of m's
// variables (and perhaps more, such as a monitor's); ok is false when
// no invariant has one, or a term leaves int64.
func newFactPivots(m *counterabs.ParamModel, ts presburger.TransitionSystem, lis []linearInvariant) (_ *factPivots, ok bool) {
	fp := &factPivots{cur: map[presburger.Var]presburger.Term{}, next: map[presburger.Var]presburger.Term{},
		nextOf: make(map[presburger.Var]presburger.Var, len(ts.Vars)), dom: domainBounds(ts.Domain)}
	for i, v := range ts.Vars {
		fp.nextOf[v] = ts.Next[i]
	}
	var rest []presburger.Formula
	for _, li := range lis {
		if li.pivot < 0 {
			rest = append(rest, li.formula(m))
			continue
		}
		t, tn := li.rhs, li.rhs
		for i, c := range li.coef {
			if i == li.pivot || c == 0 {
				continue
			}
			x := m.StateVar(i)
			w, ok := fp.nextOf[x]
			if !ok {
				return nil, false
			}
			var exact bool
			if t, exact = t.SubExact(presburger.VarTerm(x).Scale(c)); !exact {
				return nil, false
			}
			if tn, exact = tn.SubExact(presburger.VarTerm(w).Scale(c)); !exact {
				return nil, false
			}
		}
		p := m.StateVar(li.pivot)
		w, ok := fp.nextOf[p]
		if !ok {
			return nil, false
		}
		fp.cur[p], fp.next[w] = t, tn
	}
	if len(fp.cur) == 0 {
		return nil, false
	}
	fp.pivots = slices.Sorted(maps.Keys(fp.cur))
	fp.rest = presburger.Conj(rest...)
	return fp, true
}

// sub maps a pivot to its value, any other variable to itself.
func (fp *factPivots) sub(v presburger.Var) presburger.Term {
	if t, ok := fp.cur[v]; ok {
		return t
	}
	return presburger.VarTerm(v)
}

// inDomain states that each pivot's value, its term read by value,
// lies in the pivot's range.
func (fp *factPivots) inDomain(value func(p presburger.Var) presburger.Term) presburger.Formula {
	var out []presburger.Formula
	for _, p := range fp.pivots {
		b := fp.dom[p]
		if !b.NoLo {
			out = append(out, presburger.Compare(value(p), presburger.Ge, presburger.ConstTerm(b.Lo)))
		}
		if !b.NoHi {
			out = append(out, presburger.Compare(value(p), presburger.Le, presburger.ConstTerm(b.Hi)))
		}
	}
	return presburger.Conj(out...)
}

// before is inDomain of the pivots' values in a state.
func (fp *factPivots) before() presburger.Formula {
	return fp.inDomain(func(p presburger.Var) presburger.Term { return fp.cur[p] })
}

// bounds returns bounds without those of the pivots.
func (fp *factPivots) bounds(bounds []presburger.Bound) []presburger.Bound {
	var out []presburger.Bound
	for _, b := range bounds {
		if _, ok := fp.cur[b.Var]; !ok {
			out = append(out, b)
		}
	}
	return out
}

// problem returns the question whether f and the invariants hold
// together in a state within bounds (f reading no next-state variable
// of a pivot), asked without the pivots: the same answer (a model of
// one gives a model of the other, the pivots' values read off their
// terms, which lie in their ranges), a model without the pivots' values.
// ok is false when a substitution leaves int64.
func (fp *factPivots) problem(bounds []presburger.Bound, f presburger.Formula) (_ presburger.Problem, ok bool) {
	g, ok := presburger.SubstExact(presburger.Conj(f, fp.rest), fp.sub)
	if !ok {
		return presburger.Problem{}, false
	}
	return presburger.Problem{Bounds: fp.bounds(bounds), F: presburger.Conj(g, fp.before())}, true
}

// complete returns m, a model of a problem asked without the pivots
// (problem), with each pivot's value read off its term; m itself when
// a term does not fit in int64 there.
func (fp *factPivots) complete(m presburger.Model) presburger.Model {
	out := maps.Clone(m)
	for _, p := range fp.pivots {
		x, ok := fp.cur[p].Value(func(v presburger.Var) int64 { return m[v] })
		if !ok {
			return m
		}
		out[p] = x
	}
	return out
}

// reduceByFacts returns ts restricted to the states satisfying the
// invariants lis of m, with the pivot of each invariant that has one
// substituted by its value (sub: a pivot to the term the invariant
// gives it, any other variable to itself), and the invariants without
// a pivot conjoined to each step, as strengthen does. The pivots leave
// Vars, Next and Domain; their ranges become constraints of the
// initial states and of each step, on the state before it and after
// it. ok is false when no invariant has a pivot, or a substitution
// leaves int64.
func reduceByFacts(m *counterabs.ParamModel, ts presburger.TransitionSystem, lis []linearInvariant) (_ presburger.TransitionSystem, sub func(presburger.Var) presburger.Term, ok bool) {
	fp, ok := newFactPivots(m, ts, lis)
	if !ok {
		return presburger.TransitionSystem{}, nil, false
	}
	both := func(v presburger.Var) presburger.Term {
		if t, ok := fp.next[v]; ok {
			return t
		}
		return fp.sub(v)
	}
	before := fp.before()
	after := fp.inDomain(func(p presburger.Var) presburger.Term { return fp.next[fp.nextOf[p]] })
	red := presburger.TransitionSystem{Params: ts.Params, Domain: fp.bounds(ts.Domain)}
	for i, v := range ts.Vars {
		if _, ok := fp.cur[v]; !ok {
			red.Vars = append(red.Vars, v)
			red.Next = append(red.Next, ts.Next[i])
		}
	}
	init, exact := presburger.SubstExact(ts.Init, fp.sub)
	if !exact {
		return presburger.TransitionSystem{}, nil, false
	}
	red.Init = presburger.Conj(init, before)
	facts, exact := presburger.SubstExact(fp.rest, fp.sub)
	if !exact {
		return presburger.TransitionSystem{}, nil, false
	}
	for _, t := range ts.Trans {
		st, exact := presburger.SubstExact(t, both)
		if !exact {
			return presburger.TransitionSystem{}, nil, false
		}
		red.Trans = append(red.Trans, presburger.Conj(facts, before, st, after))
	}
	if ts.Bad != nil {
		bad, exact := presburger.SubstExact(ts.Bad, fp.sub)
		if !exact {
			return presburger.TransitionSystem{}, nil, false
		}
		red.Bad = bad
	}
	return red, fp.sub, true
}
