package prove

import (
	"context"
	"slices"

	"github.com/vsym/vsym/presburger"
)

// The search for a liveness certificate (LiveCertificate): lemmas as for
// safety, plus facts about the monitor, then ranks read off the graph of
// local states, in the style of the ranking functions of parameterized
// verification of threshold automata, where a process moves along an
// acyclic graph and the weighted sum of the counters decreases with
// every step.

// maxRanks bounds the components of the lexicographic rank.
const maxRanks = 3

// candidates returns the candidate lemmas of the question: those of the
// model (lemma.go), the pools (each group's counters sum to its size),
// and facts about pending states: "pending = 0 | a" for each atom a of
// the trigger, each negated atom of the goal, and each counter being
// empty or occupied.
func (lq *liveQuestion) candidates() []Lemma {
	m := lq.m
	ps := m.TransitionSystem()
	base := presburger.TransitionSystem{Vars: ps.Vars, Next: ps.Next, Params: ps.Params, Domain: ps.Domain, Init: ps.Init, Trans: ps.Trans}
	out := candidates(m, base)
	add := func(kind string, f presburger.Formula) {
		out = append(out, Lemma{Kind: kind, Formula: f, Text: lq.format(f)})
	}
	for _, p := range m.Pools {
		var sum presburger.Term
		for _, c := range p.Counters {
			sum = sum.Add(presburger.VarTerm(presburger.Var(c)))
		}
		add("pool", presburger.Compare(sum, presburger.Eq, p.Sum))
	}
	idle := presburger.Compare(presburger.VarTerm(lq.pending), presburger.Eq, presburger.ConstTerm(0))
	var atoms []presburger.Formula
	atoms = append(atoms, guardAtoms(lq.trigger)...)
	for _, a := range guardAtoms(lq.q) {
		atoms = append(atoms, presburger.Negation(a))
	}
	for c := range m.Counters {
		x := presburger.VarTerm(presburger.Var(c))
		atoms = append(atoms, presburger.Compare(x, presburger.Ge, presburger.ConstTerm(1)), presburger.Compare(x, presburger.Le, presburger.ConstTerm(0)))
	}
	for _, a := range atoms {
		add("pending", presburger.Disj(idle, a))
	}
	return out
}

// synthesize looks for the ranks and helpful constraints of a
// certificate, with inv (an inductive invariant, the lemmas) as what is
// known of the pending states; the invariant itself is left for the
// caller. It returns nil when no rank decreases along any pending step.
//
// The steps that matter are those between pending states; each moves
// processes along edges of the graph of local states. Candidate ranks
// weigh each counter by its state's place in that graph: the longest
// path to a sink when the graph of the pending steps is acyclic (then
// every step decreases it), and for each state its distance to that
// state. They are taken greedily, as a lexicographic tuple: each must
// not increase along the steps the earlier ones do not decrease, and
// decrease along some. A weak fairness constraint is helpful when every
// pending step it takes decreases the tuple; justice conditions are
// kept when their obligations hold under inv.
func (lq *liveQuestion) synthesize(ctx context.Context, solver presburger.Solver, inv presburger.Formula) (*LiveCertificate, error) {
	m := lq.m
	notQ := presburger.Negation(lq.q)
	pend := presburger.Conj(inv, lq.isPending())
	// The pending steps: transitions that can lead from a pending state
	// to a pending state.
	var live []int
	for t := range m.Transitions {
		ok, err := lq.unsat(ctx, solver, presburger.Conj(pend, lq.guard(t), lq.post(t, notQ)))
		if err != nil {
			return nil, err
		}
		if !ok {
			live = append(live, t)
		}
	}
	ranks := lq.rankCandidates(live)
	// step(t, r, op): some pending step by t changes r as op says
	// (Gt: increases, Ge: does not decrease).
	step := func(t int, r presburger.Term, op presburger.Op) (bool, error) {
		ok, err := lq.unsat(ctx, solver, presburger.Conj(pend, lq.guard(t), lq.post(t, notQ), presburger.Compare(lq.postTerm(t, r), op, r)))
		return !ok, err
	}
	cert := &LiveCertificate{}
	rest := slices.Clone(live)
	for len(cert.Ranks) < maxRanks && len(rest) > 0 {
		best, bestDec := -1, []int(nil)
		for k, r := range ranks {
			var dec []int
			valid := true
			for _, t := range rest {
				up, err := step(t, r, presburger.Gt)
				if err != nil {
					return nil, err
				}
				if up {
					valid = false
					break
				}
				same, err := step(t, r, presburger.Ge)
				if err != nil {
					return nil, err
				}
				if !same {
					dec = append(dec, t)
				}
			}
			if valid && len(dec) > len(bestDec) {
				best, bestDec = k, dec
			}
		}
		if best < 0 {
			break
		}
		cert.Ranks = append(cert.Ranks, ranks[best])
		ranks = slices.Delete(ranks, best, best+1)
		rest = slices.DeleteFunc(rest, func(t int) bool { return slices.Contains(bestDec, t) })
	}
	if len(cert.Ranks) == 0 && len(live) > 0 {
		return nil, nil
	}
	// Helpful: every pending step the constraint takes is decreasing.
	for k, ts := range lq.fair.Weak {
		helpful := len(ts) > 0
		for _, t := range ts {
			if slices.Contains(rest, t) {
				helpful = false
			}
		}
		if helpful {
			cert.Helpful = append(cert.Helpful, k)
		}
	}
	// Of the justice conditions, those whose obligations hold.
	for j := range lq.fair.Justice {
		var bad []presburger.Formula
		for _, c := range lq.justiceConditions(lq.order(cert), j) {
			bad = append(bad, c.Bad)
		}
		ok, err := lq.unsat(ctx, solver, presburger.Conj(pend, presburger.Disj(bad...)))
		if err != nil {
			return nil, err
		}
		if ok {
			cert.Justice = append(cert.Justice, j)
		}
	}
	// The order of the helpful constraints matters only for steps that
	// leave the ranks equal; try the spec's order and its reverse.
	if len(rest) > 0 && len(cert.Helpful) > 1 {
		ok, err := lq.unsat(ctx, solver, presburger.Conj(inv, lq.violation(cert)))
		if err != nil {
			return nil, err
		}
		if !ok {
			rev := *cert
			rev.Helpful = slices.Clone(cert.Helpful)
			slices.Reverse(rev.Helpful)
			if ok, err := lq.unsat(ctx, solver, presburger.Conj(inv, lq.violation(&rev))); err != nil {
				return nil, err
			} else if ok {
				return &rev, nil
			}
		}
	}
	return cert, nil
}

// rankCandidates returns the candidate ranks: weighted sums of the
// counters, each counter weighed by its local state's place in the
// graph whose edges are the moves of the transitions live (their
// movers, the other parts of a rendezvous, the transfers of a
// broadcast): the longest path to a sink when that graph is acyclic,
// then for each state the distance to it (0 for the state itself and
// for the states that cannot reach it).
func (lq *liveQuestion) rankCandidates(live []int) []presburger.Term {
	m := lq.m
	S := len(m.System.States)
	succ := make([][]int, S)
	addEdge := func(from, to int) {
		a, b := m.Counters[from].State, m.Counters[to].State
		if !slices.Contains(succ[a], b) {
			succ[a] = append(succ[a], b)
		}
	}
	for _, t := range live {
		tr := &m.Transitions[t]
		addEdge(tr.From, tr.To)
		for _, mv := range tr.Also {
			addEdge(mv.From, mv.To)
		}
		for _, mv := range tr.Transfers {
			addEdge(mv.From, mv.To)
		}
	}
	weigh := func(w []int64) presburger.Term {
		var r presburger.Term
		for c, ctr := range m.Counters {
			if w[ctr.State] != 0 {
				r = r.Add(presburger.VarTerm(presburger.Var(c)).Scale(w[ctr.State]))
			}
		}
		return r
	}
	var out []presburger.Term
	if height, ok := longestPaths(succ); ok {
		out = append(out, weigh(height))
	}
	for target := range S {
		// Breadth first backwards from target.
		dist := make([]int64, S)
		seen := make([]bool, S)
		seen[target] = true
		frontier := []int{target}
		for d := int64(1); len(frontier) > 0; d++ {
			var next []int
			for s := range S {
				if seen[s] {
					continue
				}
				for _, u := range succ[s] {
					if slices.Contains(frontier, u) {
						seen[s], dist[s] = true, d
						next = append(next, s)
						break
					}
				}
			}
			frontier = next
		}
		r := weigh(dist)
		if len(r.Monos) > 0 && !slices.ContainsFunc(out, r.Equal) {
			out = append(out, r)
		}
	}
	return out
}

// longestPaths returns, for each node of the graph, the length of the
// longest path from it, and false when the graph has a cycle.
func longestPaths(succ [][]int) ([]int64, bool) {
	n := len(succ)
	height := make([]int64, n)
	state := make([]int, n) // 0 new, 1 on the stack, 2 done
	var visit func(s int) bool
	visit = func(s int) bool {
		switch state[s] {
		case 1:
			return false
		case 2:
			return true
		}
		state[s] = 1
		for _, u := range succ[s] {
			if !visit(u) {
				return false
			}
			height[s] = max(height[s], height[u]+1)
		}
		state[s] = 2
		return true
	}
	for s := range n {
		if !visit(s) {
			return nil, false
		}
	}
	return height, true
}
