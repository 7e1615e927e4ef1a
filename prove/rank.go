package prove

import (
	"context"
	"slices"

	"github.com/vsym/vsym/counterabs"
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
// model (lemma.go); the pools (each group's counters sum to its size);
// a counter at most an unbounded shared variable; a shared variable of
// few values taking a value only while a counter is empty or occupied;
// and facts about pending states, "pending = 0 | a" for each atom a of
// the trigger, each negated atom of the goal, each counter being empty
// or occupied, and each threshold of a guard (an atom that reads no
// counter).
func (lq *liveQuestion) candidates() []Lemma {
	m := lq.m
	base := m.TransitionSystem().Question(nil)
	out := candidates(m, base)
	seen := map[string]bool{}
	for _, l := range out {
		seen[l.Text] = true
	}
	add := func(kind string, f presburger.Formula) {
		if text := lq.format(f); !seen[text] {
			seen[text] = true
			out = append(out, Lemma{Kind: kind, Formula: f, Text: text})
		}
	}
	empty := emptyCounters(m)
	for _, p := range m.Pools {
		var sum presburger.Term
		for _, c := range p.Counters {
			sum = sum.Add(presburger.VarTerm(presburger.Var(c)))
		}
		add("pool", presburger.Compare(sum, presburger.Eq, p.Sum))
	}
	// The counts of events: the unbounded shared variables, then the
	// counters of message tokens sent (lemma.go's eventVars), as state
	// variable indices. Without tokens, the shared variables alone, as
	// before tokens were read.
	sg := stepSigns(m)
	var events []int
	for j := range m.Shared {
		if m.Shared[j].Unbounded {
			events = append(events, len(m.Counters)+j)
		}
	}
	for _, v := range eventVars(m, sg) {
		if v < len(m.Counters) {
			events = append(events, v)
		}
	}
	x := func(i int) presburger.Term { return presburger.VarTerm(m.StateVar(i)) }
	init := initTerms(m)
	// The count of events a variable keeps, and that count's initial
	// value: the variable itself, or, for one counted down (ByMC's
	// left_x = n - x, countsDown), what it lost, init - x, from 0. The
	// lemmas below read counts, so that a count down gets the lemmas
	// of the count it mirrors.
	count := func(v int) presburger.Term {
		if sg.countsDown(v) {
			return init[v].Sub(x(v))
		}
		return x(v)
	}
	count0 := func(v int) presburger.Term {
		if sg.countsDown(v) {
			return presburger.Term{}
		}
		return init[v]
	}
	// A counter at most a count of events: the processes that entered
	// a state only by incrementing it (the choices of a value counted,
	// which the premise of a property reads).
	for _, v := range events {
		for c := range m.Counters {
			if v < len(m.Counters) && (empty[c] || sg.token(m, c)) {
				continue // the tokens' own counters, or 0
			}
			add("count", presburger.Compare(presburger.VarTerm(presburger.Var(c)), presburger.Le, count(v)))
		}
	}
	// Flows: a counter is what entered it less what left it, when a
	// shared variable counts the entries (each step into it adds one)
	// and another the exits (the choices of a value and the messages
	// sent by those who chose it: cc's chose0 = #V0 + nsnt00).
	incs := func(t *counterabs.ParamTransition) []int {
		var out []int
		for _, a := range t.Assign {
			v := len(m.Counters) + int(presburger.Var(a.Var)-m.SharedVar(0))
			// One more event: x := x + 1, or x := x - 1 counted down.
			by := int64(1)
			if v >= 0 && v < m.NumState() && sg.countsDown(v) {
				by = -1
			}
			if a.Value.Equal(presburger.VarTerm(presburger.Var(a.Var)).Add(presburger.ConstTerm(by))) {
				out = append(out, v)
			}
		}
		if sg.tokens == nil {
			return out
		}
		next := m.StepTerms(t)
		for _, v := range events {
			if v < len(m.Counters) && next[v].Sub(x(v)).Equal(presburger.ConstTerm(1)) {
				out = append(out, v)
			}
		}
		return out
	}
	for c := range m.Counters {
		var ins, outs []int
		for i := range m.Transitions {
			t := &m.Transitions[i]
			if t.To == c {
				ins = append(ins, incs(t)...)
			}
			if t.From == c {
				outs = append(outs, incs(t)...)
			}
		}
		for _, y := range ins {
			for _, xi := range outs {
				if xi == y {
					continue
				}
				// y - x - c stays y0 - x0 - c0 (y and x the counts).
				lhs := count(y).Sub(count(xi)).Sub(presburger.VarTerm(presburger.Var(c)))
				rhs := count0(y).Sub(count0(xi)).Sub(init[c])
				add("count", presburger.Compare(lhs, presburger.Eq, rhs))
				// Only the first half: x counts some exits only.
				add("count", presburger.Compare(lhs, presburger.Ge, rhs))
			}
		}
	}
	// A bound a guard keeps: "x < e" guards the steps that add one to
	// x, so x <= e (crashes: nfaulty <= f, or #CR <= f where the
	// crashed are a state). Written otherwise ("x <= e -
	// 1", "e > x", "!(x >= e)": t' <= 0 with x's coefficient 1 in t'),
	// where the step adds one to x, the same bound, t' - 1 <= 0; the
	// same where x's coefficient is -1 and the step takes one from x
	// (x counted down: left_nfaulty >= n - f).
	for i := range m.Transitions {
		t := &m.Transitions[i]
		var next []presburger.Term // t's step terms, when first needed
		for _, a := range guardAtoms(t.Guard) {
			c, ok := a.(presburger.Cmp)
			if n, negated := a.(presburger.Not); negated {
				if c, ok = n.F.(presburger.Cmp); ok {
					c.Op = c.Op.Negate()
				}
			}
			if !ok || readsLocal(m, a) {
				continue
			}
			// A guard on counters bounds one the step moves a process
			// into ("#CR < f" where crashes are a state, not a count).
			onCounters := readsCounter(m, a)
			var le presburger.Term // the atom as le <= 0
			switch c.Op {
			case presburger.Lt:
				if !onCounters {
					add("bound", presburger.Compare(c.T, presburger.Le, presburger.ConstTerm(0)))
					continue
				}
				le = c.T.Add(presburger.ConstTerm(1))
			case presburger.Le:
				le = c.T
			case presburger.Ge:
				le = c.T.Scale(-1)
			case presburger.Gt:
				le = c.T.Scale(-1).Add(presburger.ConstTerm(1))
			default:
				continue
			}
			if next == nil {
				next = m.StepTerms(t)
			}
			for _, mo := range le.Monos {
				i := int(mo.Var) // a counter's state index
				if k := int(mo.Var - m.SharedVar(0)); k >= 0 && k < len(m.Shared) {
					i = len(m.Counters) + k
				} else if i >= len(m.Counters) {
					continue
				}
				// The step raises le by one: it adds one to x where
				// le reads x, or, x a count down ("left_nfaulty - n +
				// f > 0" guarding left_nfaulty := left_nfaulty - 1),
				// takes one where le reads -x. Only a shared count
				// down: the bounds of other steps that take one (a
				// process leaving a state a guard reads negated, the
				// initial state's counter, which no step raises) were
				// never candidates, and bosco-dnf-shuffle's luck with
				// Spacer (0.96 s) did not survive them (3.9 s).
				if mo.Coef != 1 && (mo.Coef != -1 || i < len(m.Counters) || !sg.countsDown(i)) {
					continue
				}
				if step := next[i]; step.Const == mo.Coef && len(step.Monos) == 1 && step.Monos[0] == (presburger.Mono{Var: mo.Var, Coef: 1}) {
					add("bound", presburger.Compare(le, presburger.Le, presburger.ConstTerm(1)))
					break
				}
			}
		}
	}
	// The entry counts of the variables counted down, which the
	// safety lemmas leave out (lemma.go): cf1s's termination so
	// written needs "what left_nsnt01 lost is at least the processes
	// past sending".
	counted := eventVars(m, sg)
	if down := sg.countedDown(counted); slices.Contains(down, true) {
		for _, f := range entryCounts(m, counted, down) {
			add("count", f)
		}
	}
	// Two shared counts equal, or one zero, while the obligation is
	// open (no process chose 1: nobody sent 1).
	idle0 := presburger.Compare(presburger.VarTerm(lq.pending), presburger.Eq, presburger.ConstTerm(0))
	for j, v := range events {
		add("pending", presburger.Disj(idle0, presburger.Compare(count(v), presburger.Eq, presburger.ConstTerm(0))))
		for _, w := range events[j+1:] {
			add("pending", presburger.Disj(idle0, presburger.Compare(count(v), presburger.Eq, count(w))))
		}
	}
	// A value of a shared variable with few values only while a
	// counter is empty, or occupied (Peterson's flags: !flagA only
	// while a is in N).
	for j := range m.Shared {
		sh := &m.Shared[j]
		if sh.Unbounded || sh.Hi-sh.Lo+1 > maxCaseValues {
			continue
		}
		for v := sh.Lo; v <= sh.Hi; v++ {
			other := presburger.Compare(presburger.VarTerm(m.SharedVar(j)), presburger.Ne, presburger.ConstTerm(int64(v)))
			for c := range m.Counters {
				x := presburger.VarTerm(presburger.Var(c))
				add("shared", presburger.Disj(other, presburger.Compare(x, presburger.Ge, presburger.ConstTerm(1))))
				add("shared", presburger.Disj(other, presburger.Compare(x, presburger.Le, presburger.ConstTerm(0))))
			}
		}
	}
	idle := presburger.Compare(presburger.VarTerm(lq.pending), presburger.Eq, presburger.ConstTerm(0))
	var atoms []presburger.Formula
	atoms = append(atoms, guardAtoms(lq.trigger)...)
	for _, a := range guardAtoms(lq.q) {
		atoms = append(atoms, presburger.Negation(a))
	}
	for c := range m.Counters {
		if empty[c] {
			continue // zero, by the linear invariants
		}
		x := presburger.VarTerm(presburger.Var(c))
		atoms = append(atoms, presburger.Compare(x, presburger.Ge, presburger.ConstTerm(1)), presburger.Compare(x, presburger.Le, presburger.ConstTerm(0)))
	}
	// Thresholds passed while the obligation is open.
	for _, t := range m.Transitions {
		for _, a := range guardAtoms(t.Guard) {
			if !readsCounter(m, a) {
				atoms = append(atoms, a)
			}
		}
	}
	for _, a := range atoms {
		add("pending", presburger.Disj(idle, a))
	}
	// The trigger itself, when what it reads stays as it was.
	add("pending", presburger.Disj(idle, lq.trigger))
	// Thresholds over counters no step raises, as those over shared
	// counters that never fall: "#I = 0" stays true once every process
	// has left I, so "#S0 = 0 | #I = 0" when every way into S0 waits
	// for it (ByMC's bosco).
	for i := range m.Transitions {
		for _, a := range guardAtoms(presburger.NNF(m.Transitions[i].Guard)) {
			if !readsOnlyFixedCounters(m, sg, empty, a) {
				continue
			}
			for c := range m.Counters {
				if !empty[c] {
					add("threshold", presburger.Disj(presburger.Compare(x(c), presburger.Le, presburger.ConstTerm(0)), a))
				}
			}
		}
	}
	// What the trigger's condition on the events rules out: a state no
	// process reaches while it holds ("chose0 = n - f", every process
	// chose 0: none reaches U0, "chose0 < n - f | #U0 <= 0"), each atom
	// of the trigger that reads no counter negated.
	for _, a := range guardAtoms(presburger.NNF(lq.trigger)) {
		if readsProcessCounter(m, sg, empty, a) {
			continue
		}
		nots := []presburger.Formula{presburger.Negation(a)}
		if c, ok := a.(presburger.Cmp); ok && c.Op == presburger.Eq {
			nots = []presburger.Formula{presburger.Compare(c.T, presburger.Lt, presburger.ConstTerm(0)), presburger.Compare(c.T, presburger.Gt, presburger.ConstTerm(0))}
		}
		for _, na := range nots {
			for c := range m.Counters {
				if !empty[c] {
					add("trigger", presburger.Disj(na, presburger.Compare(x(c), presburger.Le, presburger.ConstTerm(0))))
				}
			}
		}
	}
	return out
}

// readsProcessCounter says whether atom a reads a counter of m other
// than a message token's (sg) or one no run fills (empty): a count of
// events written with tokens ("#chose1_sent = 0", a sum over every
// group of which only the tokens' counter is not zero) is one, as a
// shared variable is.
func readsProcessCounter(m *counterabs.ParamModel, sg *signs, empty map[int]bool, a presburger.Formula) bool {
	return slices.ContainsFunc(presburger.FreeVars(a), func(v presburger.Var) bool {
		c := int(v)
		return c >= 0 && c < len(m.Counters) && !empty[c] && !sg.token(m, c)
	})
}

// readsOnlyFixedCounters says whether atom a, a comparison T op 0,
// reads some counter of m, of the counters only those some run fills
// (not empty), no step raises (by sg) and that are no message tokens,
// and no local, and stays true once true as they fall: each counter's
// coefficient is positive in T <= 0 or T < 0, negative in T >= 0 or
// T > 0, and T = 0 is a sum of counters with positive coefficients
// ("#I = 0"). An atom such as "#I >= 1", a mover's, does not.
func readsOnlyFixedCounters(m *counterabs.ParamModel, sg *signs, empty map[int]bool, a presburger.Formula) bool {
	c, ok := a.(presburger.Cmp)
	if !ok {
		return false
	}
	reads := false
	for _, mo := range c.T.Monos {
		v := mo.Var
		switch {
		case v >= m.LocalVar(0):
			return false
		case int(v) >= len(m.Counters):
			if c.Op == presburger.Eq {
				return false
			}
			continue
		}
		if empty[int(v)] {
			// Zero in every state a run reaches (the linear
			// invariants): the counter of a state its group never
			// occupies, which a guard over every group's counter
			// reads ("#I = 0" with message tokens as groups).
			continue
		}
		if sg.up[v] || sg.varies[v] || sg.token(m, int(v)) {
			return false
		}
		switch c.Op {
		case presburger.Le, presburger.Lt, presburger.Eq:
			ok = mo.Coef > 0
		case presburger.Ge, presburger.Gt:
			ok = mo.Coef < 0
		default:
			ok = false
		}
		if !ok {
			return false
		}
		reads = true
	}
	return reads && (c.Op != presburger.Eq || c.T.Const == 0)
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
		ok, err := lq.unsatInv(ctx, solver, presburger.Conj(pend, lq.guard(t), lq.post(t, notQ)))
		if err != nil {
			return nil, err
		}
		if !ok {
			live = append(live, t)
		}
	}
	linear := lq.rankCandidates(live)
	cert := &LiveCertificate{}
	// A step that changes nothing (Stutters: an idle self-loop) leaves
	// every rank equal, so no rank can finish it: the ranks are chosen
	// for the other steps, and what such a step needs (that no pending
	// state satisfying a justice condition enables it, as for a
	// deadlock) is left to the justice conditions' obligations and the
	// invariant. It stays in idle for the helpful constraints below,
	// which must decrease the tuple on every step they take.
	var rest, idle []int
	for _, t := range live {
		if m.Stutters(&m.Transitions[t]) {
			idle = append(idle, t)
		} else {
			rest = append(rest, t)
		}
	}
	// The steps by t between pending states that leave every rank
	// chosen so far equal, stay within (a formula on both states), and
	// change r as op says.
	steps := func(t int, within presburger.Formula, r Rank, op presburger.Op) (bool, error) {
		fs := []presburger.Formula{pend, lq.guard(t), lq.post(t, notQ), within, lq.post(t, within), lq.compare(t, r, op)}
		for _, c := range cert.Ranks {
			fs = append(fs, lq.compare(t, c, presburger.Eq))
		}
		ok, err := lq.unsatInv(ctx, solver, presburger.Conj(fs...))
		return !ok, err
	}
	// pick returns the candidate that no such step increases and that
	// decreases the most (first: along every such step of the most
	// transitions, then along some), with the transitions it finishes.
	pick := func(cands []Rank, within presburger.Formula) (best int, done []int, err error) {
		best = -1
		bestSome := 0
		for k, r := range cands {
			var dec []int
			some, valid := 0, true
			for _, t := range rest {
				up, err := steps(t, within, r, presburger.Gt)
				if err != nil {
					return -1, nil, err
				}
				if up {
					valid = false
					break
				}
				same, err := steps(t, within, r, presburger.Eq)
				if err != nil {
					return -1, nil, err
				}
				if !same {
					dec = append(dec, t)
				} else if down, err := steps(t, within, r, presburger.Lt); err != nil {
					return -1, nil, err
				} else if down {
					some++
				}
			}
			if valid && (len(dec) > len(done) || len(dec) == len(done) && some > bestSome) {
				best, done, bestSome = k, dec, some
			}
		}
		return best, done, nil
	}
	for len(cert.Ranks) < maxRanks && len(rest) > 0 {
		best, done, err := pick(linear, presburger.True)
		if err != nil {
			return nil, err
		}
		cands := linear
		if len(done) < len(rest) {
			// A rank by cases over a shared variable of few values may
			// finish more: for each value, the best linear rank along
			// the steps that keep it (a process may cycle through the
			// local states while the value that lets it out changes, as
			// Peterson's turn does).
			pieces, err := lq.pieceCandidates(linear, func(within presburger.Formula) (int, error) {
				k, _, err := pick(linear, within)
				return k, err
			})
			if err != nil {
				return nil, err
			}
			if b2, d2, err := pick(pieces, presburger.True); err != nil {
				return nil, err
			} else if b2 >= 0 && (best < 0 || len(d2) > len(done)) {
				best, done, cands = b2, d2, pieces
			}
		}
		if best < 0 {
			break
		}
		cert.Ranks = append(cert.Ranks, cands[best])
		rest = slices.DeleteFunc(rest, func(t int) bool { return slices.Contains(done, t) })
		if len(done) == 0 && len(cert.Ranks) > 1 {
			break // nothing more is gained
		}
	}
	if len(cert.Ranks) == 0 && len(live) > 0 {
		return nil, nil
	}
	// Helpful: every pending step the constraint takes is decreasing.
	for k, ts := range lq.fair.Weak {
		helpful := len(ts) > 0
		for _, t := range ts {
			if slices.Contains(rest, t) || slices.Contains(idle, t) {
				helpful = false
			}
		}
		if helpful && !slices.ContainsFunc(ts, func(t int) bool { return slices.Contains(live, t) }) {
			// None of its steps stays pending: it helps only where it
			// can be taken at all. A constraint no pending state
			// enables (the initial choices once the trigger has waited
			// for them, say) has an empty phase, which adds obligations
			// for every transition and proves nothing.
			never, err := lq.unsatInv(ctx, solver, presburger.Conj(pend, lq.enabled(k)))
			if err != nil {
				return nil, err
			}
			helpful = !never
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
		ok, err := lq.unsatInv(ctx, solver, presburger.Conj(pend, presburger.Disj(bad...)))
		if err != nil {
			return nil, err
		}
		if ok {
			cert.Justice = append(cert.Justice, j)
		}
	}
	if len(cert.Justice) > 0 && len(cert.Helpful) > 0 {
		// A spec may state both ByMC's justice and weak fairness of
		// its steps. When the justice conditions alone discharge the
		// obligations, the certificate needs no phases: each helpful
		// constraint multiplies the obligations (one per phase and
		// transition) that the re-check asks the solver about.
		plain := *cert
		plain.Helpful = nil
		if ok, err := lq.unsatInv(ctx, solver, presburger.Conj(inv, lq.violation(&plain))); err != nil {
			return nil, err
		} else if ok {
			return &plain, nil
		}
	}
	if len(cert.Justice) == 0 && len(cert.Helpful) == 0 {
		// Nothing else can force the ranks down: leave the justice
		// conditions' obligations to a stronger invariant.
		for j := range lq.fair.Justice {
			cert.Justice = append(cert.Justice, j)
		}
	}
	// The order of the helpful constraints matters only for steps that
	// leave the ranks equal; try the spec's order and its reverse.
	if len(rest)+len(idle) > 0 && len(cert.Helpful) > 1 {
		ok, err := lq.unsatInv(ctx, solver, presburger.Conj(inv, lq.violation(cert)))
		if err != nil {
			return nil, err
		}
		if !ok {
			rev := *cert
			rev.Helpful = slices.Clone(cert.Helpful)
			slices.Reverse(rev.Helpful)
			if ok, err := lq.unsatInv(ctx, solver, presburger.Conj(inv, lq.violation(&rev))); err != nil {
				return nil, err
			} else if ok {
				return &rev, nil
			}
		}
	}
	return cert, nil
}

// rankCandidates returns the candidate ranks. The linear ones are
// weighted sums of the counters, each counter weighed by its local
// state's place in the graph whose edges are the moves of the
// transitions live (their movers, the other parts of a rendezvous, the
// transfers of a broadcast): the longest path to a sink when that graph
// is acyclic, then for each state the distance to it (0 for the state
// itself and for the states that cannot reach it), over all groups and
// over each group alone; and each bounded
// shared variable's distance to either end of its domain. The piecewise
// ones choose, for each value of a shared variable with at most
// maxCaseValues values, one of the distance ranks: a process may cycle
// through the local states while the value that lets it out changes
// (Peterson's turn).
func (lq *liveQuestion) rankCandidates(live []int) (linear []Rank) {
	m := lq.m
	S := len(m.System.States)
	succ := make([][]int, S)
	addEdge := func(from, to int) {
		a, b := m.Counters[from].State, m.Counters[to].State
		// A process that stays where it is (an idle self-loop, ByMC's
		// "loc -> loc" rules, or a step that only writes shared
		// variables) changes no counter-weighted rank: its edge would
		// only make the graph cyclic and lose the longest-path rank.
		if a == b {
			return
		}
		if !slices.Contains(succ[a], b) {
			succ[a] = append(succ[a], b)
		}
	}
	for _, t := range live {
		tr := &m.Transitions[t]
		for _, mv := range tr.Moves() {
			addEdge(mv.From, mv.To)
		}
		for _, mv := range tr.Transfers {
			addEdge(mv.From, mv.To)
		}
	}
	// The counters no run fills are 0 (the linear invariants say so):
	// a rank does not read them.
	empty := emptyCounters(m)
	weigh := func(w []int64) presburger.Term {
		var r presburger.Term
		for c, ctr := range m.Counters {
			if w[ctr.State] != 0 && !empty[c] {
				r = r.Add(presburger.VarTerm(presburger.Var(c)).Scale(w[ctr.State]))
			}
		}
		return r
	}
	var terms []presburger.Term
	addTerm := func(r presburger.Term) {
		if len(r.Monos) > 0 && !slices.ContainsFunc(terms, r.Equal) {
			terms = append(terms, r)
		}
	}
	if height, ok := longestPaths(succ); ok {
		addTerm(weigh(height))
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
		if len(m.System.Groups) > 1 {
			// One group's progress alone, while the others may cycle
			// (first: with ties, the rank that reads less is taken).
			for g := range m.System.Groups {
				var r presburger.Term
				for c, ctr := range m.Counters {
					if ctr.Group == g && dist[ctr.State] != 0 && !empty[c] {
						r = r.Add(presburger.VarTerm(presburger.Var(c)).Scale(dist[ctr.State]))
					}
				}
				addTerm(r)
			}
		}
		addTerm(weigh(dist))
	}
	for j := range m.Shared {
		sh := &m.Shared[j]
		x := presburger.VarTerm(m.SharedVar(j))
		addTerm(x.Add(presburger.ConstTerm(-int64(sh.Lo))))
		if !sh.Unbounded {
			addTerm(presburger.ConstTerm(int64(sh.Hi)).Sub(x))
		}
	}
	for _, t := range terms {
		linear = append(linear, linearRank(t))
	}
	return linear
}

// pieceCandidates returns, for each shared variable with at most
// maxCaseValues values, the rank by cases over its values whose piece
// for each value is the linear rank best(x = value) picks (the first
// when none is valid there); none when every value picks the same.
func (lq *liveQuestion) pieceCandidates(linear []Rank, best func(within presburger.Formula) (int, error)) ([]Rank, error) {
	m := lq.m
	var out []Rank
	for j := range m.Shared {
		sh := &m.Shared[j]
		if sh.Unbounded || sh.Hi-sh.Lo+1 > maxCaseValues {
			continue
		}
		var r Rank
		distinct := false
		for v := sh.Lo; v <= sh.Hi; v++ {
			when := presburger.Compare(presburger.VarTerm(m.SharedVar(j)), presburger.Eq, presburger.ConstTerm(int64(v)))
			k, err := best(when)
			if err != nil {
				return nil, err
			}
			k = max(k, 0)
			if v == sh.Hi {
				when = presburger.True
			}
			r = append(r, RankCase{When: when, Term: linear[k][0].Term})
			distinct = distinct || !r[0].Term.Equal(r[len(r)-1].Term)
		}
		if distinct {
			out = append(out, r)
		}
	}
	return out, nil
}

// maxCaseValues bounds the values of a shared variable a piecewise
// rank distinguishes.
const maxCaseValues = 3

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
