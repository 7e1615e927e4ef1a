package counterabs

import (
	"slices"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// A linear atom over the counters may be written in many equivalent
// ways, since the counters of a pool sum to its size in every state of
// the model: "everybody is elsewhere", #A + #B = n with states A, B and
// S, is #S = 0, and #A + #B < n is #S >= 1 (a translation that writes a
// zero test so). The searches read the shapes of the guards and of the
// bad states (a lower bound on sums of counters is upward closed, a
// comparison with n is not: cover.go), so the form with n cost mist's
// transthesis 8.5 s where mist's own form takes 0.02 s, and mist's
// ME_250_bigtarget, whose 8,989 target cubes each read #x0 >= 1 so, ran
// past 20 s.
//
// ShortenSums rewrites each atom that reads a size (n, or |g| where a
// guard with locals writes n as the sum of the sizes) to the best form
// it can reach by adding integer multiples of the sums' identities:
//
//	sum of the counters of pool p - its Sum = 0   (each pool: a group's counters and |g|, or every total counter and n)
//	sum of every counter - n = 0                  (the group-counter model: the groups' pools added up, with n = the sum of the sizes)
//	sum of every counter - sum_g |g| = 0          (the same with n written as the sizes' sum, as a guard with locals writes it)
//
// best meaning the fewest monomials, then the fewest sizes read: one
// multiple of one identity at a time, while that makes the atom
// strictly better. An atom that reads no size is left as it is: "#M +
// #E + #S = 0" of MESI is the zero test of a sum that the searches read
// (its shorter form "#I = n" they do not), and so is an atom no
// identity improves (a threshold "2 * #A > n" over three states or more
// has no form without n but one that reads every counter, "#A - #B -
// #C > 0", which is longer). So a model without such atoms is unchanged
// and SumFacts stays nil.
//
// The rewrite is exact in the model's Domain: every identity holds in
// every initial state (each group's processes number its size in every
// initial configuration, and n is the sum of the sizes: InitialStates)
// and after every step, whatever its guard (a step moves processes
// within a pool, which finish checks, and the parameters never change).
// So every state a run of any instance reaches, with any choice of the
// sizes and parameters, satisfies them, and an atom and its rewrite
// agree there: the rewritten model has the same runs, the same
// reachable states and the same violations. Outside the Domain (a state
// no run reaches, whose counters do not sum to the sizes) the two may
// differ; so an invariant of the rewritten model is a certificate for
// the model as written only together with the identities the rewrite
// used, which SumFacts states: package prove checks every invariant it
// reports on a model so rewritten with SumFacts conjoined, and the
// conjunction is inductive for both forms of the guards (they agree on
// every state where SumFacts holds) and implies both forms of the
// property.
//
// A rewritten atom whose coefficients are all negative is written with
// them positive (#S > 0 for -#S < 0), and a strict comparison as the
// weak one it is on integers (#S >= 1 for #S > 0). ShortenSums rewrites
// the guards of the transitions and the properties (their premises
// included); not the initial set, nor the fairness (the liveness
// questions read a model of their own, not rewritten).
func (m *ParamModel) ShortenSums() {
	r := newSumRewriter(m)
	if r == nil {
		return
	}
	box := presburger.NewBox(m.typeRanges())
	for i := range m.Transitions {
		t := &m.Transitions[i]
		if g, changed := r.formula(t.Guard); changed {
			t.Guard = plainGuard(g, box)
		}
	}
	for i := range m.Properties {
		// The premise too, without SharpenEnds (finish leaves it as
		// written).
		p := &m.Properties[i]
		p.Formula = ctl.MapAtoms(p.Formula, func(a presburger.Formula) presburger.Formula {
			if g, changed := r.formula(a); changed {
				return presburger.FoldRangesIn(presburger.Tighten(presburger.PushNegations(g)), box)
			}
			return a
		})
		p.Formula = mapTemporalAtoms(p.Formula, func(a presburger.Formula) presburger.Formula { return presburger.SharpenEndsIn(a, box) })
	}
	var facts []presburger.Formula
	for k, id := range r.ids {
		if r.used[k] {
			facts = append(facts, presburger.Cmp{Op: presburger.Eq, T: id.term})
		}
	}
	if len(facts) > 0 {
		m.SumFacts = presburger.Conj(facts...)
	}
}

// WithSumFacts returns inv conjoined with m's SumFacts (those inv does
// not already state as a conjunct), inv itself when the model was not
// rewritten (ShortenSums).
func (m *ParamModel) WithSumFacts(inv presburger.Formula) presburger.Formula {
	if m.SumFacts == nil || inv == nil {
		return inv
	}
	have := presburger.Conjuncts(inv)
	out := []presburger.Formula{inv}
	for _, f := range presburger.Conjuncts(m.SumFacts) {
		c := f.(presburger.Cmp)
		if !slices.ContainsFunc(have, func(h presburger.Formula) bool {
			a, ok := h.(presburger.Cmp)
			return ok && a.Op == presburger.Eq && (a.T.Equal(c.T) || a.T.Equal(c.T.Scale(-1)))
		}) {
			out = append(out, f)
		}
	}
	return presburger.Conj(out...)
}

// sumIdentity is "term = 0", true in every reachable state of the model;
// coef is term's coefficient of each of its variables.
type sumIdentity struct {
	term  presburger.Term
	coef  map[presburger.Var]int64
	sizes []presburger.Var // its size variables (n, |g|)
}

// sumRewriter rewrites atoms by the identities of a model (ShortenSums).
type sumRewriter struct {
	m    *ParamModel
	ids  []sumIdentity
	of   map[presburger.Var][]int // the identities each variable is in (nil until identities)
	size map[presburger.Var]bool  // the size variables and n
	used []bool
}

// sizesIn is the number of size variables t reads.
func (r *sumRewriter) sizesIn(t presburger.Term) int {
	n := 0
	for _, mo := range t.Monos {
		if r.size[mo.Var] {
			n++
		}
	}
	return n
}

// coefOf is t's coefficient of v (0 when t does not read it).
func coefOf(t presburger.Term, v presburger.Var) int64 {
	for _, mo := range t.Monos {
		if mo.Var == v {
			return mo.Coef
		}
	}
	return 0
}

// newSumRewriter returns the rewriter of m's identities, nil when m has
// no counter.
func newSumRewriter(m *ParamModel) *sumRewriter {
	if len(m.Counters) == 0 {
		return nil
	}
	r := &sumRewriter{m: m, size: map[presburger.Var]bool{m.NVar(): true}}
	for g := range m.System.Groups {
		r.size[m.SizeVar(g)] = true
	}
	return r
}

// identities builds r's identities, at the first atom that reads a size
// (a model with thousands of counters and no such atom builds none).
func (r *sumRewriter) identities() {
	if r.of != nil {
		return
	}
	m := r.m
	r.of = map[presburger.Var][]int{}
	add := func(counters []int, sum presburger.Term) {
		var t presburger.Term
		for _, c := range counters {
			t = t.Add(presburger.VarTerm(presburger.Var(c)))
		}
		t = t.Sub(sum)
		if slices.ContainsFunc(r.ids, func(id sumIdentity) bool { return id.term.Equal(t) }) {
			return
		}
		id := sumIdentity{term: t, coef: make(map[presburger.Var]int64, len(t.Monos))}
		for _, mo := range t.Monos {
			id.coef[mo.Var] = mo.Coef
			r.of[mo.Var] = append(r.of[mo.Var], len(r.ids))
			if r.size[mo.Var] {
				id.sizes = append(id.sizes, mo.Var)
			}
		}
		r.ids = append(r.ids, id)
	}
	for _, p := range m.Pools {
		add(p.Counters, p.Sum)
	}
	all := make([]int, len(m.Counters))
	for i := range all {
		all[i] = i
	}
	var sizes presburger.Term
	for g := range m.System.Groups {
		sizes = sizes.Add(presburger.VarTerm(m.SizeVar(g)))
	}
	add(all, presburger.VarTerm(m.NVar()))
	add(all, sizes)
	r.used = make([]bool, len(r.ids))
}

// formula rewrites every atom of f (Atom), and says whether one changed.
// The body of a quantifier is left alone.
func (r *sumRewriter) formula(f presburger.Formula) (presburger.Formula, bool) {
	switch f := f.(type) {
	case presburger.Cmp:
		return r.atom(f)
	case presburger.Not:
		g, changed := r.formula(f.F)
		if !changed {
			return f, false
		}
		return presburger.Not{F: g}, true
	case presburger.And:
		out, changed := r.all(f)
		if !changed {
			return f, false
		}
		return presburger.And(out), true
	case presburger.Or:
		out, changed := r.all(f)
		if !changed {
			return f, false
		}
		return presburger.Or(out), true
	}
	return f, false
}

func (r *sumRewriter) all(fs []presburger.Formula) ([]presburger.Formula, bool) {
	var out []presburger.Formula
	for i, g := range fs {
		h, changed := r.formula(g)
		if changed && out == nil {
			out = slices.Clone(fs[:i:i])
		}
		if out != nil {
			out = append(out, h)
		}
	}
	return out, out != nil
}

// atom rewrites c when it reads a size (n or |g|): while adding k times
// some identity to its term makes it better, it adds the multiple that
// makes it best, better meaning fewer monomials, then fewer sizes read
// (ties go to the first identity, then the least |k|, then the least k:
// the same answer every time).
func (r *sumRewriter) atom(c presburger.Cmp) (presburger.Formula, bool) {
	t := c.T
	sizes := r.sizesIn(t)
	if sizes == 0 {
		return c, false
	}
	r.identities()
	changed := false
	for {
		best, bestK, bestSizes, bestLen := -1, int64(0), sizes, len(t.Monos)
		var cands []int
		for _, mo := range t.Monos {
			for _, k := range r.of[mo.Var] {
				if !slices.Contains(cands, k) {
					cands = append(cands, k)
				}
			}
		}
		slices.Sort(cands)
		for _, i := range cands {
			id := &r.ids[i]
			// Adding k*id zeroes each shared variable whose coefficient
			// is -k times the identity's, and gives every variable of
			// the identity that t does not have a coefficient.
			inter, sizesOut := 0, 0
			hits := map[int64]int{}
			for _, mo := range t.Monos {
				e, ok := id.coef[mo.Var]
				if !ok {
					if r.size[mo.Var] {
						sizesOut++
					}
					continue
				}
				inter++
				if mo.Coef%e == 0 && mo.Coef/e != 0 {
					hits[-mo.Coef/e]++
				}
			}
			for k, h := range hits {
				n := len(t.Monos) - inter + len(id.coef) - h
				ns := sizesOut
				for _, v := range id.sizes {
					if coefOf(t, v)+k*id.coef[v] != 0 {
						ns++
					}
				}
				better := n < bestLen || n == bestLen && ns < bestSizes
				tie := n == bestLen && ns == bestSizes && best == i && (abs(k) < abs(bestK) || abs(k) == abs(bestK) && k < bestK)
				if better || tie {
					best, bestK, bestSizes, bestLen = i, k, ns, n
				}
			}
		}
		if best < 0 {
			break
		}
		step, ok := r.ids[best].term.ScaleExact(bestK)
		if !ok {
			break
		}
		next, ok := t.AddExact(step)
		if !ok {
			break
		}
		ns := r.sizesIn(next)
		if len(next.Monos) > len(t.Monos) || len(next.Monos) == len(t.Monos) && ns >= sizes {
			break
		}
		t, sizes, changed = next, ns, true
		r.used[best] = true
	}
	if !changed {
		return c, false
	}
	op := c.Op
	if len(t.Monos) > 0 && !slices.ContainsFunc(t.Monos, func(mo presburger.Mono) bool { return mo.Coef > 0 }) {
		neg, ok := t.ScaleExact(-1)
		if ok {
			t, op = neg, op.Converse()
		}
	}
	// On integers t > 0 is t - 1 >= 0 and t < 0 is t + 1 <= 0: the
	// form "#S >= 1" that a translation rewrote.
	switch op {
	case presburger.Gt:
		if u, ok := t.AddExact(presburger.ConstTerm(-1)); ok {
			t, op = u, presburger.Ge
		}
	case presburger.Lt:
		if u, ok := t.AddExact(presburger.ConstTerm(1)); ok {
			t, op = u, presburger.Le
		}
	}
	return presburger.Compare(t, op, presburger.Term{}), true
}

func abs(k int64) int64 {
	if k < 0 {
		return -k
	}
	return k
}
