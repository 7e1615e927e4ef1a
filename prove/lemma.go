package prove

import (
	"context"
	"maps"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// Lemma is an invariant of a model found by Check before the prover
// searched (lemmas.go), given to the prover as a strengthening of every
// transition. Every lemma is shown inductive, together with the others
// kept, by plain SMT queries (presburger.CheckInvariant) before it is
// used; none is trusted.
type Lemma struct {
	// Kind says where the candidate came from: "bound" (a variable never
	// goes below, or above, its initial value), "threshold" (a state is
	// occupied only when a condition of the guards into it holds: a
	// threshold once passed stays passed), "count" (a shared variable
	// is at most its initial value plus the processes in the states its
	// increments lead to), "monotone" (a sum of a few variables that no
	// step increases, at most its initial value) or "ceiling" (a sum
	// that only steps under a guard bounding it increase, at most that
	// bound); monotone.go has those two. "initial" is a premise on the
	// initial configuration carried to every state by the ghost
	// constants (ghost.go); "sum threshold" a state occupied only when a
	// sum that no step changes is within a bound the guards into it
	// imply (ghostbound.go); "frozen" a variable at its initial value
	// while a count of events the property reads is at its own; "sample
	// equality" an equality that the sampled reachable states satisfy,
	// in each value of the shared variables of few values (modehull.go).
	Kind    string
	Formula presburger.Formula // over the model's state variables and parameters
	Text    string
}

// maxCandidates bounds the candidates of one search, so that the queries
// of the filter stay small.
const maxCandidates = 400

// candidates returns the candidate lemmas of m: formulas over its state
// variables and parameters that often hold in every reachable state of a
// counter system with shared variables. None is known to hold; the
// filter (houdini) keeps those that are inductive together.
func candidates(m *counterabs.ParamModel, ts presburger.TransitionSystem) []Lemma {
	var out []Lemma
	seen := map[string]bool{}
	add := func(kind string, f presburger.Formula) {
		key := presburger.Format(f, m.VarName)
		if seen[key] || len(out) >= maxCandidates {
			return
		}
		seen[key] = true
		out = append(out, Lemma{Kind: kind, Formula: f, Text: FormatInvariant(f, m.VarName, m.TypedAtom)})
	}
	// The candidates read the first initial state; with several,
	// they are guesses like the others, which the filter checks against
	// every initial state (ts.Init).
	init := initTerms(m)
	x := func(i int) presburger.Term { return presburger.VarTerm(m.StateVar(i)) }
	// The counters no run fills get none: they are zero, which the
	// linear invariants say.
	empty := emptyCounters(m)

	// Bounds: x >= its initial value, x <= its initial value.
	for i := range m.NumState() {
		if empty[i] {
			continue
		}
		add("bound", presburger.Compare(x(i), presburger.Ge, init[i]))
		add("bound", presburger.Compare(x(i), presburger.Le, init[i]))
	}

	// Thresholds: "counter c is 0, or a", for each atom a of a guard
	// that reads no counter (shared variables and parameters only). When
	// every transition into c requires a, and a can never become false
	// again (it reads only variables that never decrease, say), the
	// filter keeps it: the ByMC lemma "a threshold once passed stays
	// passed", which makes the states behind a threshold unreachable
	// while it is not passed.
	// A token's counter (sg.token) is a shared counter, not a place a
	// threshold lets processes into.
	sg := stepSigns(m)
	atoms := thresholdAtoms(m, sg)
	for c := range m.Counters {
		if empty[c] || sg.token(m, c) {
			continue
		}
		zero := presburger.Compare(x(c), presburger.Eq, presburger.ConstTerm(0))
		for _, a := range atoms {
			add("threshold", presburger.Disj(zero, a))
		}
	}
	// The same over total counters at the group level: "#S = 0 or a".
	if m.Level == counterabs.GroupLevel && len(m.System.Groups) > 1 {
		for s := range m.System.States {
			var tot presburger.Term
			for c, ctr := range m.Counters {
				if ctr.State == s && !empty[c] && !sg.token(m, c) {
					tot = tot.Add(x(c))
				}
			}
			if tot.IsConst() {
				continue
			}
			zero := presburger.Compare(tot, presburger.Eq, presburger.ConstTerm(0))
			for _, a := range atoms {
				add("threshold", presburger.Disj(zero, a))
			}
		}
	}

	// Counts: a shared variable increased by steps into some states is
	// at most its initial value plus the processes that took such a step
	// and are still in the states reachable from there (nsent <= the
	// processes that sent), and, when nothing else changes it, equal.
	// The same for two variables together: when each process increments
	// at most one of them once (a vote for 0 or for 1), their sum is at
	// most the processes past the vote.
	// The counted variables: the shared ones, and a token group's
	// x_sent (eventVars). One counted down (left = n - x) counts what it
	// lost, init - x.
	counted := eventVars(m, sg)
	steps := make([][]presburger.Term, len(m.Transitions))
	for i := range m.Transitions {
		steps[i] = m.StepTerms(&m.Transitions[i])
	}
	// A variable counted down (no step raises it, some lower it by
	// constants: "messages still to come", left = n - x) is counted as
	// what it lost, init - x, entered by the steps that lower it.
	down := sg.countedDown(counted)
	entered := make([]map[int]bool, len(counted))
	for j, v := range counted {
		entered[j] = map[int]bool{}
		for i := range m.Transitions {
			t := &m.Transitions[i]
			if d := steps[i][v].Sub(x(v)); d.IsConst() && (d.Const > 0 && !down[j] || d.Const < 0 && down[j]) {
				for _, mv := range t.Moves() { // none for an environment step
					// Not a token's move, which is the message.
					if g := m.Counters[mv.To].Group; g < 0 || sg.tokens == nil || !sg.tokens[g] {
						entered[j][mv.To] = true
					}
				}
			}
		}
	}
	// What the processes that raised each variable reach, once: from
	// two variables' entries, the union of theirs.
	reach := make([][]int, len(counted))
	for j := range counted {
		if len(entered[j]) > 0 {
			reach[j] = reachableCounters(m, entered[j])
		}
	}
	count := func(vars []int, op presburger.Op) {
		union := map[int]bool{}
		var lhs, rhs presburger.Term
		for _, j := range vars {
			if len(entered[j]) == 0 {
				return
			}
			for _, c := range reach[j] {
				union[c] = true
			}
			v := counted[j]
			if down[j] {
				lhs = lhs.Add(init[v])
				rhs = rhs.Add(x(v))
				continue
			}
			lhs = lhs.Add(x(v))
			rhs = rhs.Add(init[v])
		}
		for _, c := range slices.Sorted(maps.Keys(union)) {
			rhs = rhs.Add(x(c))
		}
		add("count", presburger.Compare(lhs, op, rhs))
	}
	for j := range counted {
		count([]int{j}, presburger.Le)
		count([]int{j}, presburger.Ge)
	}
	for j := range counted {
		for k := j + 1; k < len(counted); k++ {
			count([]int{j, k}, presburger.Le)
		}
	}
	// Entry counts (entrycount.go): at least the processes that sent.
	// Those of variables counted down are the liveness search's alone
	// (rank.go): the safety of ByMC's count downs is proved without
	// them, and they cost cc-safety-countdown a third of its time.
	for _, f := range entryCounts(m, counted, nil) {
		add("count", f)
	}
	// The initial conditions carried to every state (ghost.go).
	for _, f := range transported(m, ts) {
		add("initial", f)
	}
	// Frozen while an event has not happened: "v > v0 or x <= x0" and
	// "v > v0 or x >= x0", for each shared variable v whose initial value
	// the bad states ask for, that no step decreases and some step
	// increases (a count of events), and every other variable x. The property may ask what
	// holds while an event has not happened: ByMC's unforgeability with
	// the processes' choices counted, "AG (chose_V1 = 0 -> #AC = 0)".
	// While nobody chose 1, nothing that a choice of 1 starts can have
	// happened; that is a disjunction, which no other kind writes and
	// Spacer ran out of work looking for (strb's unforgeability in that
	// style: unknown after 10 s).
	for j := range m.Shared {
		v := len(m.Counters) + j
		if !atInitial(m, ts.Bad, v, init[v]) || !sg.rising(v) || !sg.up[v] {
			continue
		}
		happened := presburger.Compare(x(v), presburger.Gt, init[v])
		for i := range m.NumState() {
			if i == v || empty[i] {
				continue
			}
			add("frozen", presburger.Disj(happened, presburger.Compare(x(i), presburger.Le, init[i])))
			add("frozen", presburger.Disj(happened, presburger.Compare(x(i), presburger.Ge, init[i])))
		}
	}
	return out
}

// atInitial says whether the bad states bad lie where m's state
// variable v is at most its initial value v0, a constant, by an atom
// among bad's top-level conjuncts ("chose_V1 = 0" in the bad states of
// "AG (chose_V1 = 0 -> #AC = 0)").
func atInitial(m *counterabs.ParamModel, bad presburger.Formula, v int, v0 presburger.Term) bool {
	if bad == nil || !v0.IsConst() {
		return false // no bad states: the candidates of a liveness proof
	}
	x := m.StateVar(v)
	for _, c := range topAtoms(presburger.NNF(bad)) {
		if len(c.T.Monos) != 1 || c.T.Monos[0].Var != x {
			continue
		}
		b := presburger.AnyInt(x).Tighten(c.T.Monos[0].Coef, c.T.Const, c.Op)
		if !b.NoHi && b.Hi <= v0.Const {
			return true
		}
	}
	return false
}

// signs says, for each state variable of m's, whether some step adds a
// positive constant to it (up), a negative one (down), or a term that
// reads the state (varies); tokens is tokenGroups.
type signs struct {
	up, down, varies, tokens []bool
}

// token says whether counter c of m is one of a token group's.
func (s *signs) token(m *counterabs.ParamModel, c int) bool {
	g := m.Counters[c].Group
	return g >= 0 && s.tokens != nil && s.tokens[g]
}

// countsDown says whether state variable v is counted down: no step
// raises it, some lower it by constants ("messages still to come",
// left = n - x).
func (s *signs) countsDown(v int) bool { return s.down[v] && !s.up[v] && !s.varies[v] }

// countedDown says, for each of the counted variables vars, whether it
// is counted down (countsDown).
func (s *signs) countedDown(vars []int) []bool {
	down := make([]bool, len(vars))
	for j, v := range vars {
		down[j] = s.countsDown(v)
	}
	return down
}

// rising says whether no step lowers state variable v.
func (s *signs) rising(v int) bool { return !s.varies[v] && !s.down[v] }

// stepSigns returns the signs of m's steps, each step's terms read once.
func stepSigns(m *counterabs.ParamModel) *signs {
	k := m.NumState()
	s := &signs{up: make([]bool, k), down: make([]bool, k), varies: make([]bool, k)}
	for i := range m.Transitions {
		for _, c := range m.StepChanges(&m.Transitions[i]) {
			v := c.Index
			switch d := c.Next.Sub(presburger.VarTerm(m.StateVar(v))); {
			case !d.IsConst():
				s.varies[v] = true
			case d.Const > 0:
				s.up[v] = true
			case d.Const < 0:
				s.down[v] = true
			}
		}
	}
	s.tokens = tokenGroups(m, s)
	return s
}

// tokenGroups says, for each group of m's system at the group level,
// whether it is a group of message tokens: a shared counter written as
// tokens, each moved once from x_free to x_sent by a rendezvous with
// the step that sends it. Every counter of the group only rises or only
// falls (by s), and the group never moves alone: each step that moves
// one of its tokens moves a process of another group too. Its moves are
// messages, not processes. Nil when m is not at the group level or has
// no such group; with none, the lemmas are those of shared counters
// alone, as they were before tokens were read.
func tokenGroups(m *counterabs.ParamModel, s *signs) []bool {
	if m.Level != counterabs.GroupLevel {
		return nil
	}
	out := make([]bool, len(m.System.Groups))
	for g := range out {
		out[g] = true
	}
	for c, ctr := range m.Counters {
		if ctr.Group >= 0 && (s.varies[c] || s.up[c] && s.down[c]) {
			out[ctr.Group] = false
		}
	}
	for i := range m.Transitions {
		moves := m.Transitions[i].Moves()
		for _, mv := range moves {
			g := m.Counters[mv.From].Group
			if !slices.ContainsFunc(moves, func(o counterabs.Move) bool { return m.Counters[o.From].Group != g }) {
				out[g] = false // it moves alone
			}
		}
	}
	if !slices.Contains(out, true) {
		return nil
	}
	return out
}

// eventVars returns m's shared variables and the counters of its token
// groups (s.tokens) that grow, a token's x_sent, as state variable
// indices, increasing.
func eventVars(m *counterabs.ParamModel, s *signs) []int {
	var out []int
	if s.tokens != nil {
		for c, ctr := range m.Counters {
			if ctr.Group >= 0 && s.tokens[ctr.Group] && s.up[c] {
				out = append(out, c)
			}
		}
	}
	for j := range m.Shared {
		out = append(out, len(m.Counters)+j)
	}
	return out
}

// thresholdAtoms returns the comparisons of m's guards that read no
// counter (shared variables and parameters only), or only those of its
// token groups' counters that never fall (signs.tokens: a token's
// x_sent, read as the shared counter it writes), each once, in the
// order of the transitions.
func thresholdAtoms(m *counterabs.ParamModel, sg *signs) []presburger.Formula {
	var atoms []presburger.Formula
	seen := map[string]bool{}
	// The counters read as shared counters are: a token group's that
	// never fall, and those no step changes (that state's counters in
	// the other groups).
	rising := map[presburger.Var]bool{}
	if sg.tokens != nil {
		for c, ctr := range m.Counters {
			if sg.rising(c) && (!sg.up[c] || ctr.Group >= 0 && sg.tokens[ctr.Group]) {
				rising[m.StateVar(c)] = true
			}
		}
	}
	readsOther := func(a presburger.Formula) bool {
		for _, v := range presburger.FreeVars(a) {
			if (int(v) < len(m.Counters) || v >= m.LocalVar(0)) && !rising[v] {
				return true
			}
		}
		return false
	}
	for i := range m.Transitions {
		for _, a := range guardAtoms(presburger.NNF(m.Transitions[i].Guard)) {
			if readsOther(a) && !monotoneAtom(m, a) || len(presburger.FreeVars(a)) == 0 {
				continue
			}
			if k := presburger.Format(a, m.VarName); !seen[k] {
				seen[k] = true
				atoms = append(atoms, a)
			}
		}
	}
	return atoms
}

// monotoneAtom reports whether a, a bound t >= 0 (or t > 0) over the
// counters and shared variables, stays true once true: no step lowers
// t (t <= 0, t < 0: none raises it), each changing it by a constant.
// The processes that have passed #SE + #AC >= n - t - f into AC find it
// still passed, the sum never falling (ByMC's thresholds counted over
// the states rather than in a shared counter).
func monotoneAtom(m *counterabs.ParamModel, a presburger.Formula) bool {
	c, ok := a.(presburger.Cmp)
	if !ok {
		return false
	}
	var sign int64
	switch c.Op {
	case presburger.Ge, presburger.Gt:
		sign = 1
	case presburger.Le, presburger.Lt:
		sign = -1
	default:
		return false
	}
	index := map[presburger.Var]int{}
	for i := range m.NumState() {
		index[m.StateVar(i)] = i
	}
	for _, mo := range c.T.Monos {
		if mo.Var >= m.LocalVar(0) {
			return false // a local
		}
	}
	for i := range m.Transitions {
		next := m.StepTerms(&m.Transitions[i])
		after := c.T.Subst(func(v presburger.Var) presburger.Term {
			if k, isState := index[v]; isState {
				return next[k]
			}
			return presburger.VarTerm(v)
		})
		d := after.Sub(c.T)
		if !d.IsConst() || sign > 0 && d.Const < 0 || sign < 0 && d.Const > 0 {
			return false
		}
	}
	return true
}

// initTerms returns the initial value of every state variable of m, as a
// term over the parameters: the initial state when m has one at each
// choice of the parameters, else the first of its initial states
// (counterabs.ParamModel.InitialValue), one among others. A generator
// that builds an invariant from it must either hold for every initial
// state or check its candidates against ts.Init (Houdini's filter does).
func initTerms(m *counterabs.ParamModel) []presburger.Term {
	out := make([]presburger.Term, m.NumState())
	for i := range out {
		out[i], _ = m.InitialValue(i)
	}
	return out
}

// reachableCounters returns the counters reachable from those of start
// by the movers of m's transitions, increasing.
func reachableCounters(m *counterabs.ParamModel, start map[int]bool) []int {
	in := map[int]bool{}
	var stack []int
	for c := range start {
		in[c] = true
		stack = append(stack, c)
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i := range m.Transitions {
			t := &m.Transitions[i]
			for _, mv := range append(t.Moves(), t.Transfers...) {
				if mv.From == c && !in[mv.To] {
					in[mv.To] = true
					stack = append(stack, mv.To)
				}
			}
		}
	}
	var out []int
	for c := range in {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// guardAtoms returns the comparisons of a formula in negation normal
// form (negated ones as their negations).
func guardAtoms(f presburger.Formula) []presburger.Formula {
	switch f := f.(type) {
	case presburger.And:
		var out []presburger.Formula
		for _, g := range f {
			out = append(out, guardAtoms(g)...)
		}
		return out
	case presburger.Or:
		var out []presburger.Formula
		for _, g := range f {
			out = append(out, guardAtoms(g)...)
		}
		return out
	case presburger.Cmp, presburger.Not:
		if presburger.IsQuantifierFree(f) {
			return []presburger.Formula{f}
		}
	}
	return nil
}

// readsLocal reports whether f reads a local of m's guards.
func readsLocal(m *counterabs.ParamModel, f presburger.Formula) bool {
	return slices.ContainsFunc(presburger.FreeVars(f), func(v presburger.Var) bool { return v >= m.LocalVar(0) })
}

// readsCounter reports whether f reads a counter of m (or a local).
func readsCounter(m *counterabs.ParamModel, f presburger.Formula) bool {
	for _, v := range presburger.FreeVars(f) {
		if int(v) < len(m.Counters) || v >= m.LocalVar(0) {
			return true
		}
	}
	return false
}

// houdiniWork bounds the size (presburger.Size) of the queries one run
// of houdini asks, together: past it, the filter cannot decide. Each
// round of the filter asks of every step at once; on a translation of
// Cubicle's German protocol (327 local states, 830 transitions, 600,000
// units a question) it went on for minutes, dropping a few candidates a
// round, beyond what any property's work bound reaches. The largest
// run on the suites and the Cubicle translations asks 2.8 million
// (germanish6), most under 0.1 million.
const houdiniWork = 20_000_000

// houdiniSelects is false only in the test that compares the filter
// with and without a presburger.Selector.
var houdiniSelects = true

// quantifierFree reports whether step and the candidates' conjunction
// are quantifier-free.
func quantifierFree(step, cands presburger.Formula) bool {
	return presburger.IsQuantifierFree(step) && presburger.IsQuantifierFree(cands)
}

// houdini returns the largest subset of cands that is inductive
// together on ts (every initial state satisfies each, and each is
// preserved by every transition from a state in the domain satisfying
// all of them and the conditions of ts.Init on the parameters alone,
// paramPart, which no step changes: an invariant made of them states
// paramPart too), dropping a candidate as soon as a query shows it fails
// (Houdini's algorithm, with the solver as the judge). Survivors that
// hold in every state of the domain, and say nothing, are kept: prune
// drops them with those the others imply, at no cost of its own, where
// asking of each survivor whether it is valid cost a query each. The
// result is inductive by the last round of queries, which found no
// violation; the caller re-checks what it uses with
// presburger.CheckInvariant. nil when nothing survives, the solver
// cannot decide, or the queries outgrow houdiniWork.
func houdini(ctx context.Context, s presburger.Solver, ts presburger.TransitionSystem, cands []Lemma, sample reachSample) ([]Lemma, error) {
	at, err := houdiniAt(ctx, s, ts, paramPart(ts), cands, sample, nil)
	return lemmasAt(cands, at), err
}

// lemmasAt returns the lemmas of cands at the positions at (nil for
// none).
func lemmasAt(cands []Lemma, at []int) []Lemma {
	if at == nil {
		return nil
	}
	out := make([]Lemma, len(at))
	for i, k := range at {
		out[i] = cands[k]
	}
	return out
}

// houdiniAt is houdini with constraint for paramPart(ts), which it
// answers with the positions in cands of the candidates kept, in their
// order (nil for none).
func houdiniAt(ctx context.Context, s presburger.Solver, ts presburger.TransitionSystem, constraint presburger.Formula, cands []Lemma, sample reachSample, fast *reducedView) ([]int, error) {
	// form is the formula of the candidate at position k of cands.
	form := func(k int) presburger.Formula { return cands[k].Formula }
	conj := func(keep []int) presburger.Formula {
		fs := make([]presburger.Formula, len(keep))
		for i, k := range keep {
			fs[i] = form(k)
		}
		return presburger.Conj(fs...)
	}
	spent := 0
	solve := func(bounds []presburger.Bound, f presburger.Formula) (presburger.Answer, error) {
		if spent += presburger.Size(f); spent > houdiniWork {
			return presburger.Answer{Result: presburger.Unknown}, nil
		}
		return s.Solve(ctx, presburger.Problem{Bounds: bounds, F: f})
	}
	// A candidate that a reachable state of the sample violates is in
	// no inductive part (sample.go).
	var keep []int
	for i, fails := range sample.failing(cands) {
		if !fails {
			keep = append(keep, i)
		}
	}
	for len(keep) > 0 {
		a, err := solve(ts.Domain, presburger.Conj(ts.Init, presburger.Negation(conj(keep))))
		if err != nil {
			return nil, err
		}
		if a.Result == presburger.Unknown {
			return nil, nil
		}
		if a.Result == presburger.Unsat {
			break
		}
		val := func(v presburger.Var) int64 { return a.Model[v] }
		n := len(keep)
		keep = slices.DeleteFunc(keep, func(c int) bool { return !presburger.Eval(form(c), val) })
		if len(keep) == n {
			// The witness violates none: a defect of the solver's model,
			// which the filter does not trust.
			return nil, nil
		}
	}
	// Consecution under any transition at once: a witness, a step by
	// one of them from a state satisfying every candidate left, shows
	// those it violates after the step; drop them and ask again, until
	// no step violates any. A witness that violates none by the model's
	// values (a variable left out) sends the rest to the queries one
	// transition at a time below.
	anyStep, anyBounds := ts.AnyStep()
	// The rounds ask one question with fewer candidates each time: a
	// solver that keeps what it learned from one round to the next
	// (presburger.Selector) is asked so, each candidate a part of the
	// question (ids: the part of each of keep), the work counted as
	// for a question asked anew. With a reduced view of the system
	// (fast, houdinireduce.go), the selection is asked of it, the same
	// question in fewer variables: the work is still counted on the
	// question as ts states it, so that the bound is reached, or not,
	// as without it.
	ids := make([]int, len(keep))
	var sel presburger.Selection
	selTS, selForm, selStep, selBounds := ts, form, anyStep, anyBounds
	if fast != nil {
		selTS, selForm = fast.ts, func(k int) presburger.Formula { return fast.forms[k] }
		selStep, selBounds = fast.ts.AnyStep()
	}
	if sr, ok := s.(presburger.Selector); ok && houdiniSelects && len(keep) > 0 && quantifierFree(anyStep, conj(keep)) && presburger.IsQuantifierFree(selStep) {
		pre := make([]presburger.Formula, len(keep))
		post := make([]presburger.Formula, len(keep))
		for k, c := range keep {
			ids[k], pre[k], post[k] = k, selForm(c), selTS.Prime(selForm(c))
		}
		x, err := sr.Select(ctx, selBounds, presburger.Conj(constraint, selStep), pre, post)
		if err != nil {
			return nil, err
		}
		defer x.Close()
		sel = x
	}
	batched := true
	for batched && len(keep) > 0 {
		all := make([]presburger.Formula, len(keep))
		primed := make([]presburger.Formula, len(keep))
		for k, c := range keep {
			all[k] = form(c)
			primed[k] = ts.Prime(form(c))
		}
		f := presburger.Conj(constraint, presburger.Conj(all...), anyStep, presburger.Negation(presburger.Conj(primed...)))
		var a presburger.Answer
		var err error
		// holds reports whether the witness satisfies the candidate at
		// position k of keep after its step.
		holds := func(k int) bool {
			return presburger.Eval(primed[k], func(v presburger.Var) int64 { return a.Model[v] })
		}
		if sel != nil {
			if spent += presburger.Size(f); spent > houdiniWork {
				return nil, nil
			}
			on := make([]bool, len(ids))
			for _, id := range ids[:len(keep)] {
				on[id] = true
			}
			a, err = sel.Solve(ctx, on)
			if fast != nil {
				holds = func(k int) bool {
					return presburger.Eval(selTS.Prime(selForm(keep[k])), func(v presburger.Var) int64 { return a.Model[v] })
				}
			}
		} else {
			a, err = solve(anyBounds, f)
		}
		if err != nil {
			return nil, err
		}
		switch a.Result {
		case presburger.Unknown:
			return nil, nil
		case presburger.Unsat:
			return keep, nil
		}
		var rest []int
		var restIDs []int
		for k, c := range keep {
			if holds(k) {
				rest = append(rest, c)
				restIDs = append(restIDs, ids[k])
			}
		}
		batched = len(rest) < len(keep)
		if batched {
			keep = rest
			copy(ids, restIDs)
		}
	}
	for changed := true; changed && len(keep) > 0; {
		changed = false
		for i, t := range ts.Trans {
			if len(keep) == 0 {
				break
			}
			bounds := ts.StepBounds(i)
			all := make([]presburger.Formula, len(keep))
			primed := make([]presburger.Formula, len(keep))
			for k, c := range keep {
				all[k] = form(c)
				primed[k] = ts.Prime(form(c))
			}
			pre := presburger.Conj(append(all, constraint, t)...)
			a, err := solve(bounds, presburger.Conj(pre, presburger.Negation(presburger.Conj(primed...))))
			if err != nil {
				return nil, err
			}
			switch a.Result {
			case presburger.Unsat:
				continue
			case presburger.Unknown:
				return nil, nil
			}
			// Drop what the witness violates; when the model leaves a
			// variable out (reading it as 0 may not be a witness), ask
			// for each candidate alone.
			val := func(v presburger.Var) int64 { return a.Model[v] }
			var rest []int
			for k, c := range keep {
				if presburger.Eval(primed[k], val) {
					rest = append(rest, c)
				}
			}
			if len(rest) == len(keep) {
				rest = rest[:0]
				for k, c := range keep {
					b, err := solve(bounds, presburger.Conj(pre, presburger.Negation(primed[k])))
					if err != nil {
						return nil, err
					}
					if b.Result == presburger.Unsat {
						rest = append(rest, c)
					} else if b.Result == presburger.Unknown {
						return nil, nil
					}
				}
			}
			keep, changed = rest, true
		}
	}
	return keep, nil
}

// needed returns a part of kept, lemmas inductive together on ts (with
// the facts its transitions carry), that is inductive on its own and
// implies phi, found by the counterexamples to induction: starting from
// the property (phi, when it is among kept), each state that satisfies
// the part so far but violates phi, or steps out of the part, brings in
// the lemmas of kept that it violates. A few queries, where pruning all
// of kept asks one per lemma. kept itself when a witness violates none
// of the rest (which a model that leaves a variable out can do) or the
// solver cannot tell.
func needed(ctx context.Context, s presburger.Solver, ts presburger.TransitionSystem, kept []Lemma, phi presburger.Formula) []Lemma {
	in := make([]bool, len(kept))
	for i, l := range kept {
		in[i] = l.Kind == propertyKind
	}
	part := func() []Lemma {
		var out []Lemma
		for i, l := range kept {
			if in[i] {
				out = append(out, l)
			}
		}
		return out
	}
	// grow adds the lemmas that the state of a's model violates, and
	// reports whether there was one.
	grow := func(a presburger.Answer) bool {
		val := func(v presburger.Var) int64 { return a.Model[v] }
		grew := false
		for i, l := range kept {
			if !in[i] && !presburger.Eval(l.Formula, val) {
				in[i], grew = true, true
			}
		}
		return grew
	}
	constraint := paramPart(ts)
	anyStep, anyBounds := ts.AnyStep()
	for {
		cur := lemmaConj(part())
		a, err := s.Solve(ctx, presburger.Problem{Bounds: ts.Domain, F: presburger.Conj(constraint, cur, presburger.Negation(phi))})
		if err != nil || a.Result == presburger.Unknown {
			return kept
		}
		if a.Result == presburger.Sat {
			if !grow(a) {
				return kept
			}
			continue
		}
		a, err = s.Solve(ctx, presburger.Problem{Bounds: anyBounds, F: presburger.Conj(constraint, cur, anyStep, presburger.Negation(ts.Prime(cur)))})
		switch {
		case err != nil || a.Result == presburger.Unknown:
			return kept
		case a.Result == presburger.Unsat:
			return part()
		case !grow(a):
			return kept
		}
	}
}

// paramPart returns the conjuncts of ts.Init that read parameters only
// (the assumption and the sizes over parameters, n the sum of the
// sizes): what holds at every step.
func paramPart(ts presburger.TransitionSystem) presburger.Formula {
	params := map[presburger.Var]bool{}
	for _, v := range ts.Params {
		params[v] = true
	}
	var out []presburger.Formula
	var walk func(f presburger.Formula)
	walk = func(f presburger.Formula) {
		if a, ok := f.(presburger.And); ok {
			for _, g := range a {
				walk(g)
			}
			return
		}
		for _, v := range presburger.FreeVars(f) {
			if !params[v] {
				return
			}
		}
		out = append(out, f)
	}
	walk(ts.Init)
	return presburger.Conj(out...)
}

// prune returns a part of lemmas whose conjunction, with facts
// (invariants that go with the lemmas), is the same formula up to
// equivalence within the domain, so that the report lists fewer (a
// threshold implied by "#S <= 0", say): the part that a state
// satisfying it but not all of lemmas brings in, the first lemma that
// state violates each time. A few queries, where asking for each lemma
// whether the others imply it asks one per lemma, each with all the
// others (Houdini's survivors on ByMC's c1cs are about 180, of which
// about 20 are brought in); a lemma brought in early may be implied by
// those after it, and stays (asking of each again cost c1cs a quarter
// of its time). A lemma valid in the domain (which Houdini's filter
// keeps) is never brought in. When a query has no answer, or a state
// violates none of the rest, each lemma is asked about in turn instead
// (pruneEach). With fp (the pivots of the linear invariants that facts
// states, houdinireduce.go) the incremental question is asked without
// the pivots, the same answers in fewer variables (factPivots.problem),
// each model completed with the pivots' values: on ByMC's c1cs with its
// counters as groups of tokens (244 state variables, about 20 not
// defined by the invariants) its 43 rounds took half the time so.
func prune(ctx context.Context, s presburger.Solver, ts presburger.TransitionSystem, lemmas []Lemma, facts presburger.Formula, fp *factPivots) []Lemma {
	constraint := presburger.Conj(paramPart(ts), facts)
	in := make([]bool, len(lemmas))
	part := func(want bool) []presburger.Formula {
		var out []presburger.Formula
		for i, l := range lemmas {
			if in[i] == want {
				out = append(out, l.Formula)
			}
		}
		return out
	}
	ask := func(rest []presburger.Formula) (presburger.Answer, error) {
		return s.Solve(ctx, presburger.Problem{Bounds: ts.Domain,
			F: presburger.Conj(constraint, presburger.Conj(part(true)...), presburger.Negation(presburger.Conj(rest...)))})
	}
	if sel := pruneSelection(ctx, s, ts, lemmas, constraint, fp); sel != nil {
		defer sel.Close()
		on := make([]bool, 2*len(lemmas))
		ask = func([]presburger.Formula) (presburger.Answer, error) {
			for i := range lemmas {
				on[2*i], on[2*i+1] = in[i], !in[i]
			}
			a, err := sel.Solve(ctx, on)
			if err == nil && a.Result == presburger.Sat && fp != nil {
				a.Model = fp.complete(a.Model)
			}
			return a, err
		}
	}
	for {
		rest := part(false)
		if len(rest) == 0 {
			break
		}
		a, err := ask(rest)
		if err != nil || a.Result == presburger.Unknown {
			return pruneEach(ctx, s, ts, lemmas, constraint)
		}
		if a.Result == presburger.Unsat {
			break
		}
		val := func(v presburger.Var) int64 { return a.Model[v] }
		grew := false
		for i, l := range lemmas {
			if !in[i] && !presburger.Eval(l.Formula, val) {
				in[i], grew = true, true
				break
			}
		}
		if !grew {
			// The model leaves a variable out: ask for each lemma.
			return pruneEach(ctx, s, ts, lemmas, constraint)
		}
	}
	var kept []Lemma
	for i, l := range lemmas {
		if in[i] {
			kept = append(kept, l)
		}
	}
	return kept
}

// pruneSelection returns prune's question as one incremental question
// (presburger.Selector), or nil when s asks none or a lemma is
// quantified: each lemma is two parts, the first stating it (selected
// while it is brought in), the second asking for a state violating it
// (selected while it is not). The questions of prune differ only in
// the lemma brought in last, and each used to start anew, with every
// lemma stated again: on ByMC's c1cs (testdata/bymc) they took a third
// of the liveness property's time. The answers are the same
// (satisfiable or not); the models may differ, and prune brings in, of
// the lemmas a model violates, the first, as before.
func pruneSelection(ctx context.Context, s presburger.Solver, ts presburger.TransitionSystem, lemmas []Lemma, constraint presburger.Formula, fp *factPivots) presburger.Selection {
	sr, ok := s.(presburger.Selector)
	if !ok || !pruneSelects || !presburger.IsQuantifierFree(constraint) {
		return nil
	}
	bounds, form := ts.Domain, func(f presburger.Formula) (presburger.Formula, bool) { return f, true }
	if fp != nil {
		p, ok := fp.problem(ts.Domain, constraint)
		if !ok {
			return nil
		}
		bounds, constraint = p.Bounds, p.F
		form = func(f presburger.Formula) (presburger.Formula, bool) { return presburger.SubstExact(f, fp.sub) }
	}
	pre := make([]presburger.Formula, 0, 2*len(lemmas))
	post := make([]presburger.Formula, 0, 2*len(lemmas))
	for _, l := range lemmas {
		if !presburger.IsQuantifierFree(l.Formula) {
			return nil
		}
		f, ok := form(l.Formula)
		if !ok {
			return nil
		}
		pre = append(pre, f, presburger.True)
		post = append(post, presburger.True, f)
	}
	sel, err := sr.Select(ctx, bounds, constraint, pre, post)
	if err != nil {
		return nil
	}
	return sel
}

// pruneSelects is false only in the tests that compare prune with and
// without its incremental question (export_test.go).
var pruneSelects = true

// pruneEach drops from lemmas, in turn from the last, each one that the
// others imply together with constraint within the domain. A query
// without an answer keeps the lemma.
func pruneEach(ctx context.Context, s presburger.Solver, ts presburger.TransitionSystem, lemmas []Lemma, constraint presburger.Formula) []Lemma {
	keep := slices.Clone(lemmas)
	for i := len(keep) - 1; i >= 0; i-- {
		others := append(slices.Clone(keep[:i]), keep[i+1:]...)
		a, err := s.Solve(ctx, presburger.Problem{Bounds: ts.Domain,
			F: presburger.Conj(constraint, lemmaConj(others), presburger.Negation(keep[i].Formula))})
		if err == nil && a.Result == presburger.Unsat {
			keep = others
		}
	}
	return keep
}

// lemmaConj is the conjunction of the lemmas' formulas.
func lemmaConj(ls []Lemma) presburger.Formula {
	fs := make([]presburger.Formula, len(ls))
	for i, l := range ls {
		fs[i] = l.Formula
	}
	return presburger.Conj(fs...)
}

// strengthen returns ts with every transition restricted to steps from
// states satisfying inv, an inductive invariant of ts: the same
// reachable states, the same runs. (Restricting the target states too
// would say no more, since inv is inductive, and makes each step of the
// prover's bounded search for a counterexample larger.)
func strengthen(ts presburger.TransitionSystem, inv presburger.Formula) presburger.TransitionSystem {
	out := ts
	out.Trans = make([]presburger.Formula, len(ts.Trans))
	for i, t := range ts.Trans {
		out.Trans[i] = presburger.Conj(inv, t)
	}
	return out
}
