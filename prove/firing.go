package prove

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Steps that add no state. Four kinds of a model's transitions never
// change which states a run reaches, and the safety questions read the
// models without them (firing): every step fewer is a case fewer for
// each check, search and Spacer query.
//
//   - A step that changes nothing (counterabs' Stutters): ByMC's idle
//     self-loops, "locP0 -> locP0 when (true) do { unchanged(...) }",
//     kept in a translation by hand (nbacr with one in each location:
//     0.11 s, 0.07 s without them).
//   - A step that another before it already is: the same guard and the
//     same next values (stepKey), as a transition written twice under
//     two names (mist's queuedbusyflag with every transition twice
//     timed out, where it is proved in 0.3 s).
//   - A step whose movers leave a state no process reaches: a
//     translation that lists every combination of a process's fields
//     as a local state (Cubicle's germanish4 with 588 states, of which
//     540 no process reaches even with the guards ignored: 2.4 s, 1.0 s
//     without the steps out of them). A counter is raised when it may
//     start above 0, or a step whose movers all leave raised counters
//     moves a process into it, or a transfer empties a raised counter
//     into it (raisedCounters, a least fixpoint); the others stay 0.
//     So do those gsst's MayReach rules out, reading the guards too.
//   - A transfer out of such a counter (a broadcast whose source no
//     process reaches: Cubicle's "forall other j: if State[j] = X" on a
//     value nobody holds) moves nobody, and the step is read without
//     it. A transfer out of a counter weighs that counter with the
//     target's in every place invariant, so a broadcast from a state
//     nobody enters broke the invariants the proofs lean on (mist's
//     pncsacover with one on every step: 1.2 s, 0.06 s without).
//   - A step whose guard the values the shared variables may take make
//     false (MayReach: a shared variable with few values holds those it
//     starts at or some step that may be taken assigns): Cubicle's
//     German without data paths, written with steps on a command
//     "Curcmd = Reqs" that no step issues: a sub-system of it has 639
//     steps no run takes, of these two kinds, and was unknown after 15
//     s with them; it is proved in 0.15 s without them (the helpers'
//     translations of the eighteenth session). D then states those
//     values as well.
//
// The first two kinds are left out of every run without changing its
// states. A step whose guard is a disjunction is read, in the same
// pass, as one step per case of it (guardcases.go): the same pairs of
// states.
// The last three are not, as a model's fact, left to the arguments above
// (a hollow transfer changes nothing only where its counter is 0):
// that the counters not raised stay 0 and the shared variables keep to
// those values (their conjunction D) is checked on the whole model as
// an inductive invariant, and that no step left out is enabled where D
// holds, once per model (checkCut). An invariant
// of the model without those steps is then, with D, one of the whole
// model, and the model's reason says so. With the steps out of those
// counters left out, the shared integers are narrowed by what the steps
// kept write (keptDomains), and the bounds, checked with D on the whole
// model (checkDomains), are part of its invariant. The liveness questions read a
// model of their own (checkLive), with every step: a self-loop may keep
// a run from a deadlock, and fairness may name it. Of the four kinds,
// that model leaves out the hollow transfers alone (liveFiring).

// emptiedReason is reason saying that the transfers of emptied steps
// out of counters that stay 0 were left out.
func emptiedReason(reason string, emptied int) string {
	steps := fmt.Sprintf("%d steps", emptied)
	if emptied == 1 {
		steps = "one step"
	}
	return fmt.Sprintf("%s; the transfers of %s out of counters that stay 0 left out, as they move nobody (an inductive invariant of the model, checked)", reason, steps)
}

// liveFiring returns m, the model of the liveness questions (checkLive),
// without the transfers out of counters that stay 0 (the fourth kind
// above), under the same checked D; m itself when it has none or the
// check does not decide. Unlike firing it keeps every step: a
// self-loop may keep a run from a deadlock, and fairness may name a
// step. Where D holds, a transfer out of a counter that stays 0 moves
// nobody, so each step has the guard and effect it has without it: a
// certificate found on the model returned, with D added to its
// invariant, is one of m (a proof by settling, where m settles too),
// and counts only once checkLive has re-checked it there
// (recheckWritten). Kept, such a transfer weighs its empty counter with
// its target in every place invariant and every ranking: c1cs (tokens,
// liveness) with a broadcast "Zdead -> target" on every step, Zdead a
// state nobody enters, had its property unknown after 6.6 s of CPU; it
// is proved in 1.0 s, its base in 0.9 s. (The liveness model built with
// RunSteps has no counter of a state its group never enters, and so no
// transfer out of one: what is left to liveFiring there is a counter
// MayOccupy allows and raisedCounters does not.)
func liveFiring(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel) (*counterabs.ParamModel, error) {
	raised := raisedCounters(m)
	hollow := func(t counterabs.ParamTransition) bool {
		return slices.ContainsFunc(t.Transfers, func(tr counterabs.Move) bool { return !raised[tr.From] })
	}
	if !slices.ContainsFunc(m.Transitions, hollow) {
		return m, nil
	}
	if ok, err := checkCut(ctx, solver, m, raised, nil, nil); !ok || err != nil {
		return m, err
	}
	cut := *m
	cut.Transitions = slices.Clone(m.Transitions)
	emptied := 0
	for i := range cut.Transitions {
		if t := &cut.Transitions[i]; hollow(*t) {
			t.Transfers = slices.DeleteFunc(slices.Clone(t.Transfers), func(tr counterabs.Move) bool { return !raised[tr.From] })
			emptied++
		}
	}
	cut.Reason = emptiedReason(m.Reason, emptied)
	return &cut, nil
}

// firing returns m without the steps that add no state (m itself when
// it has none), its reason saying what the last three kinds left out.
func firing(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel) (*counterabs.ParamModel, error) {
	raised := raisedCounters(m)
	reach := reachOf(m)
	values := narrowByReach(m, reach, raised)
	guarded := 0 // steps of dead whose movers may be there, but not their guards' values
	fires := func(t *counterabs.ParamTransition) bool {
		return !slices.ContainsFunc(t.Moves(), func(mv counterabs.Move) bool { return !raised[mv.From] })
	}
	var dead []int // the indices in m.Transitions of the steps no run takes
	for i := range m.Transitions {
		t := &m.Transitions[i]
		switch {
		case !fires(t):
			dead = append(dead, i)
		case !slices.ContainsFunc(t.Steps, func(s int) bool { return reach.Fires[s] }):
			dead = append(dead, i)
			guarded++
		}
	}
	if guarded == 0 {
		values = nil // not needed: the counters say it all
	}
	// hollow says whether some transfer of t empties a counter that
	// stays 0: it moves nobody (the fourth kind, above).
	hollow := func(t *counterabs.ParamTransition) bool {
		return slices.ContainsFunc(t.Transfers, func(tr counterabs.Move) bool { return !raised[tr.From] })
	}
	cutDead := false // dead checked, and left out; hollow transfers too
	if len(dead) > 0 || slices.ContainsFunc(m.Transitions, func(t counterabs.ParamTransition) bool { return fires(&t) && hollow(&t) }) {
		ok, err := checkCut(ctx, solver, m, raised, values, dead)
		if err != nil {
			return nil, err
		}
		cutDead = ok // undecided: the steps stay, the stutters go
	}
	cut := *m
	var narrowed []int // the indices in m.Shared of the variables keptDomains narrowed, checked
	if cutDead {
		doms, facts := keptDomains(m, fires)
		if len(facts) > 0 {
			ok, err := checkDomains(ctx, solver, m, raised, values, facts)
			if err != nil {
				return nil, err
			}
			if ok {
				cut.Shared = doms
				for j := range doms {
					if d, w := &doms[j], &m.Shared[j]; d.Lo != w.Lo || d.Hi != w.Hi || d.Unbounded != w.Unbounded {
						narrowed = append(narrowed, j)
					}
				}
			}
		}
	}
	cut.Transitions = nil
	seen := map[string]bool{}
	left := 0      // the steps of dead left out
	emptied := 0   // the steps left without their hollow transfers
	split := false // some step read as its guard's cases (guardcases.go)
	for i := range m.Transitions {
		t := &m.Transitions[i]
		// A step of dead whose movers may be there (its guard is what D
		// falsifies) stays: MayReach reads the guards as written, atom
		// by atom, so leaving it out would make the model depend on how
		// a guard is written (an atom "everybody elsewhere" for a zero
		// test), where the searches after it read the model's own.
		if m.Stutters(t) || cutDead && !fires(t) {
			if slices.Contains(dead, i) {
				left++
			}
			continue
		}
		if cutDead && hollow(t) {
			kept := *t
			kept.Transfers = slices.DeleteFunc(slices.Clone(t.Transfers), func(tr counterabs.Move) bool { return !raised[tr.From] })
			t = &kept
			emptied++
		}
		cases, err := splitCases(ctx, solver, t)
		if err != nil {
			return nil, err
		}
		split = split || len(cases) > 1
		for j := range cases {
			if k := stepKey(m, &cases[j]); !seen[k] {
				seen[k] = true
				cut.Transitions = append(cut.Transitions, cases[j])
			}
		}
	}
	if !split && emptied == 0 && len(cut.Transitions) == len(m.Transitions) && len(narrowed) == 0 {
		return m, nil
	}
	if cutDead && left > 0 {
		var empty []string
		for i, r := range raised {
			if !r {
				empty = append(empty, m.VarName(m.StateVar(i)))
			}
		}
		steps := fmt.Sprintf("the %d steps", left)
		if left == 1 {
			steps = "the step"
		}
		switch {
		case guarded > 0:
			cut.Reason = fmt.Sprintf("%s; without %s out of counters that stay 0 while the shared variables keep to the values some step may give them (an inductive invariant of the model, checked)", m.Reason, steps)
		case len(empty) == 1:
			cut.Reason = fmt.Sprintf("%s; without %s out of %s, which stays 0 (an inductive invariant of the model, checked)", m.Reason, steps, empty[0])
		default:
			cut.Reason = fmt.Sprintf("%s; without %s out of %d counters that stay 0 (an inductive invariant of the model, checked)", m.Reason, steps, len(empty))
		}
	}
	if emptied > 0 {
		cut.Reason = emptiedReason(cut.Reason, emptied)
	}
	if len(narrowed) > 0 {
		var doms []string
		for _, j := range narrowed {
			doms = append(doms, fmt.Sprintf("%s as %s", cut.Shared[j].Name, domainText(cut.Shared[j])))
		}
		cut.Reason = fmt.Sprintf("%s; %s, all the steps left write (an inductive invariant of the model, checked)", cut.Reason, strings.Join(doms, ", "))
	}
	return &cut, nil
}

// keptDomains returns m's shared variables with the domains that the
// steps firing keeps write (counterabs.NarrowedShared, reading the
// steps of the transitions whose movers leave raised counters, fires),
// and, for each narrower than m's, its bounds as facts over m's
// variables (domainFacts). A step out of a state no process enters
// writes nothing in a run: Cubicle's german_protocol with a place no
// process enters and "ex := ex + 1" out of it keeps ex at 0..1 as the
// base does, and its backward search reads that bound (0.45 s of
// lemmas and Spacer with ex unbounded, 0.01 s so). The transitions
// firing keeps though a guard reads values no run gives (they stay,
// below) count as kept: the domains are those of firing's model, read
// from its transitions alone, so two systems firing gives one model
// get one domain.
func keptDomains(m *counterabs.ParamModel, fires func(*counterabs.ParamTransition) bool) ([]gsst.Shared, []presburger.Formula) {
	taken := make([]bool, len(m.System.Steps()))
	for i := range m.Transitions {
		if t := &m.Transitions[i]; fires(t) {
			for _, s := range t.Steps {
				taken[s] = true
			}
		}
	}
	all := counterabs.NarrowedShared(m.System, taken)
	out := slices.Clone(m.Shared)
	for j := range out {
		cur, d := &out[j], &all[m.SharedIndex(j)]
		if d.Unbounded {
			continue
		}
		if cur.Unbounded || d.Hi < cur.Hi {
			cur.Hi, cur.Unbounded = d.Hi, false
		}
		cur.Lo = max(cur.Lo, d.Lo)
		if cur.Lo > cur.Hi {
			// No value: NarrowedShared reads the initial values, so it
			// should not be (a defect); keep m's domain.
			out[j] = m.Shared[j]
		}
	}
	return out, domainFacts(m, out, m.Shared)
}

// domainFacts states over m's variables the bounds of doms (domains of
// m's shared variables) that are narrower than those of wider: lo <= x
// where doms' least value is greater, x <= hi where its greatest is
// less or wider has none.
func domainFacts(m *counterabs.ParamModel, doms, wider []gsst.Shared) []presburger.Formula {
	var facts []presburger.Formula
	for j := range doms {
		d, w := &doms[j], &wider[j]
		x := presburger.VarTerm(m.SharedVar(j))
		if d.Lo > w.Lo {
			facts = append(facts, presburger.Compare(x, presburger.Ge, presburger.ConstTerm(int64(d.Lo))))
		}
		if !d.Unbounded && (w.Unbounded || d.Hi < w.Hi) {
			facts = append(facts, presburger.Compare(x, presburger.Le, presburger.ConstTerm(int64(d.Hi))))
		}
	}
	return facts
}

// domainText is d's domain as the language writes a type: lo..hi, or
// lo.. with no greatest value.
func domainText(d gsst.Shared) string {
	if d.Unbounded {
		return fmt.Sprintf("%d..", d.Lo)
	}
	return fmt.Sprintf("%d..%d", d.Lo, d.Hi)
}

// checkDomains checks, once firing has cut m's steps out of counters
// that stay 0 (checkCut), that the narrowed domains' bounds (facts,
// keptDomains) hold too: D (the counters not raised at 0, the values
// of MayReach) with the bounds is an inductive invariant of m, every
// step of it. The steps left out are not enabled in D (checkCut), and
// the others write only what the bounds allow, so a failure is a defect
// of counterabs.NarrowedShared; ok is false when the solver cannot
// tell (m keeps its domains).
func checkDomains(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, raised []bool, values, facts []presburger.Formula) (bool, error) {
	d := presburger.Conj(append(append(zeroFacts(m, raised), values...), facts...)...)
	ts := m.TransitionSystem().Question(presburger.False)
	holds, err := presburger.IsInvariant(ctx, solver, ts, m.WithSumFacts(d))
	return decided(ctx, holds, err, "the shared variables leave the domains the steps a run may take write")
}

// zeroFacts states that the counters of m not raised are 0.
func zeroFacts(m *counterabs.ParamModel, raised []bool) []presburger.Formula {
	var zero []presburger.Formula
	for i, r := range raised {
		if !r {
			zero = append(zero, presburger.Compare(presburger.VarTerm(m.StateVar(i)), presburger.Eq, presburger.ConstTerm(0)))
		}
	}
	return zero
}

// decided reads the answer of a check that firing's D holds on the whole
// model: ok when it holds, false when the solver cannot tell (or ctx
// ended), and an internal error saying fails when it does not hold,
// which is a defect of what firing read the model by.
func decided(ctx context.Context, holds bool, err error, fails string) (bool, error) {
	var ue *presburger.UndecidedError
	switch {
	case errors.As(err, &ue) || ctx.Err() != nil:
		return false, nil
	case err != nil:
		return false, err
	case !holds:
		return false, errkind.Errorf(errkind.Internal, "%s", fails)
	}
	return true, nil
}

// stepKey is what t does on m, as text: its guard and the next value
// of every state variable it changes. Two steps with one key are one
// step twice. (The variables it keeps are left out: a net of 250
// places as a group-counter model has 500 counters, and writing each
// of 500 steps' 500 next values took 50 ms.)
func stepKey(m *counterabs.ParamModel, t *counterabs.ParamTransition) string {
	var b strings.Builder
	b.WriteString(presburger.Format(t.Guard, m.VarName))
	for _, c := range m.StepChanges(t) {
		fmt.Fprintf(&b, " ; %d := %s", c.Index, c.Next.Format(m.VarName))
	}
	return b.String()
}

// reachOf is what gsst's MayReach says of m's system, at m's level (the
// total-counter model's counters state the totals only).
func reachOf(m *counterabs.ParamModel) gsst.Reach {
	if m.Level == counterabs.TotalLevel {
		return m.System.MayReachTotals()
	}
	return m.System.MayReach()
}

// cutFacts is D, the invariant firing checks before it leaves steps
// out of m: the counters that stay 0 (not raised, or of a state
// MayReach says no process of its group reaches) are 0, and the shared
// variables MayReach tracks keep to the values some step may give them,
// and those firing narrowed keep to their domains (keptDomains).
// An invariant of firing's model says nothing of these; carried to a
// model with the steps left out, it needs them stated (and checked
// there with the rest).
func cutFacts(m *counterabs.ParamModel) []presburger.Formula {
	raised := raisedCounters(m)
	values := narrowByReach(m, reachOf(m), raised)
	facts := append(zeroFacts(m, raised), values...)
	// The domains firing narrowed by the steps it kept (keptDomains):
	// those narrower than the ones the model is built with.
	built := counterabs.NarrowedShared(m.System, nil)
	wider := make([]gsst.Shared, len(m.Shared))
	for j := range m.Shared {
		wider[j] = built[m.SharedIndex(j)]
	}
	return append(facts, domainFacts(m, m.Shared, wider)...)
}

// raisedCounters says, for each counter of m, whether some run may
// raise it above 0 (the least fixpoint of firing's comment): it may
// start above 0 (its initial value is not the constant 0 in every
// initial state), or a step whose movers all leave raised counters
// moves a process into it, or a transfer takes a raised counter's
// processes into it.
func raisedCounters(m *counterabs.ParamModel) []bool {
	raised := make([]bool, len(m.Counters))
	for i := range m.Counters {
		x, fixed := m.InitialValue(i)
		raised[i] = !fixed || !x.IsConst() || x.Const != 0
	}
	for changed := true; changed; {
		changed = false
		raise := func(i int) {
			if !raised[i] {
				raised[i], changed = true, true
			}
		}
		for i := range m.Transitions {
			t := &m.Transitions[i]
			if slices.ContainsFunc(t.Moves(), func(mv counterabs.Move) bool { return !raised[mv.From] }) {
				continue
			}
			for _, mv := range t.Moves() {
				raise(mv.To)
			}
			for _, tr := range t.Transfers {
				if raised[tr.From] && !brokenRaised {
					raise(tr.To)
				}
			}
		}
	}
	return raised
}

// narrowByReach marks as not raised the counters of m that gsst's
// MayReach rules out (a state its group never occupies, read with the
// guards), and returns what it says of the shared variables' values:
// for each whose values it tracks and that may not take every value of
// its domain, the disjunction of those it may take (ranges of them as
// bounds). A step whose guard those values make false is never taken
// (MayFire); the checks of checkCut make both facts of the model.
func narrowByReach(m *counterabs.ParamModel, reach gsst.Reach, raised []bool) []presburger.Formula {
	for i, c := range m.Counters {
		may := false
		for g := range reach.Occupy {
			may = may || (c.Group < 0 || c.Group == g) && reach.Occupy[g][c.State]
		}
		if !may {
			raised[i] = false
		}
	}
	// (Values are the spec's, by its shared variables and from their
	// least values: the model's may be fewer, and narrowed.)
	var facts []presburger.Formula
	for j := range m.Shared {
		k := m.SharedIndex(j)
		vals, lo := reach.Values[k], m.System.Shared[k].Lo
		if vals == nil || !slices.Contains(vals, false) {
			continue
		}
		x := presburger.VarTerm(m.StateVar(len(m.Counters) + j))
		var cases []presburger.Formula
		for a := 0; a < len(vals); a++ {
			if !vals[a] {
				continue
			}
			b := a // vals[a..b] a run of values the variable may hold
			for b+1 < len(vals) && vals[b+1] {
				b++
			}
			from, to := presburger.ConstTerm(int64(lo+a)), presburger.ConstTerm(int64(lo+b))
			if a == b {
				cases = append(cases, presburger.Compare(x, presburger.Eq, from))
			} else {
				cases = append(cases, presburger.Conj(presburger.Compare(x, presburger.Ge, from), presburger.Compare(x, presburger.Le, to)))
			}
			a = b
		}
		facts = append(facts, presburger.Disj(cases...))
	}
	return facts
}

// brokenRaised has raisedCounters ignore transfers, for the test that
// checkCut catches it (BreakRaised).
var brokenRaised = false

// checkCut checks what firing leaves out on m: D, every counter not
// raised at 0 and the facts on the shared variables' values, is an
// inductive invariant of m (every step of it), and no step of dead
// (indices into m.Transitions) is enabled in a state of D. ok is false
// when the solver cannot tell; a check that fails is a defect of
// raisedCounters or of gsst's MayReach.
func checkCut(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, raised []bool, values []presburger.Formula, dead []int) (ok bool, err error) {
	// On a model whose atoms ShortenSums rewrote, D states the
	// identities too, so that what is checked holds of the guards as
	// written as well (they agree with the rewritten ones there).
	d := m.WithSumFacts(presburger.Conj(append(zeroFacts(m, raised), values...)...))
	domain := m.Ranges()
	holds, err := false, error(nil)
	if len(values) == 0 && staysZero(m, raised, dead) {
		// D holds initially (one query), and the steps keep it by
		// their terms; those of dead are not enabled in D (below).
		holds, err = initially(ctx, solver, m.InitialStates(), domain, d)
	} else {
		ts := m.TransitionSystem().Question(presburger.False)
		holds, err = presburger.IsInvariant(ctx, solver, ts, d)
	}
	if ok, err := decided(ctx, holds, err, "the local states no process reaches do not stay empty in the model, or the shared variables leave the values no run was to give them"); !ok || err != nil {
		return false, err
	}
	var guards []presburger.Formula
	for _, i := range dead {
		guards = append(guards, m.Transitions[i].Guard)
	}
	a, err := solveIn(ctx, solver, domain, presburger.Conj(d, presburger.Disj(guards...)))
	switch {
	case err != nil:
		return false, err
	case a.Result == presburger.Sat:
		return false, errkind.Errorf(errkind.Internal, "a step no run was to take (out of a local state no process reaches, or guarded by values no run gives) is enabled where those states are empty and those values not taken")
	}
	return a.Result == presburger.Unsat, nil
}

// staysZero says whether every step of m but those of dead leaves each
// counter not raised at 0 by its terms alone: its next value is the
// constant 0 once every counter not raised is 0 (the steps of dead
// leave such counters, and are not enabled there, which checkCut asks
// the solver). Where it holds, D's induction needs no query: on the
// token-style ByMC files (a group per shared counter, 133 counters)
// the query over every step took 60% of the run.
func staysZero(m *counterabs.ParamModel, raised []bool, dead []int) bool {
	zeros := map[presburger.Var]presburger.Term{}
	for i, r := range raised {
		if !r {
			zeros[m.StateVar(i)] = presburger.ConstTerm(0)
		}
	}
	under := func(v presburger.Var) presburger.Term {
		if t, ok := zeros[v]; ok {
			return t
		}
		return presburger.VarTerm(v)
	}
	for i := range m.Transitions {
		if slices.Contains(dead, i) {
			continue
		}
		next := m.StepTerms(&m.Transitions[i])
		for c, r := range raised {
			if t := next[c].Subst(under); !r && (!t.IsConst() || t.Const != 0) {
				return false
			}
		}
	}
	return true
}

// initially says whether every initial state (init, within domain)
// satisfies d.
func initially(ctx context.Context, solver presburger.Solver, init presburger.Formula, domain []presburger.Bound, d presburger.Formula) (bool, error) {
	a, err := solveIn(ctx, solver, domain, presburger.Conj(init, presburger.Negation(d)))
	switch {
	case err != nil:
		return false, err
	case a.Result == presburger.Unknown:
		return false, &presburger.UndecidedError{What: "the initial states", Reason: "the solver cannot tell"}
	}
	return a.Result == presburger.Unsat, nil
}

// solveIn asks solver whether f has a solution within domain, its
// other variables any integers.
func solveIn(ctx context.Context, solver presburger.Solver, domain []presburger.Bound, f presburger.Formula) (presburger.Answer, error) {
	bounds := slices.Clone(domain)
	for _, v := range presburger.FreeVars(f) {
		if !slices.ContainsFunc(bounds, func(b presburger.Bound) bool { return b.Var == v }) {
			bounds = append(bounds, presburger.AnyInt(v))
		}
	}
	return solver.Solve(ctx, presburger.Problem{Bounds: bounds, F: f})
}
