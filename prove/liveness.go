package prove

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/progress"
)

// Liveness for every size: the response properties AF q, AG (p -> AF q)
// and AG AF q (counterabs.LivenessFormula) under the system's justice
// and weak fairness, on the parametric group-counter model.
//
// The question is first made one about a single run. A monitor bit,
// pending, is added to the model: it is set when the obligation opens
// (at the initial state for AF q, at every state satisfying p for
// AG (p -> AF q)) and q does not hold, and cleared when q holds:
//
//	pending0  = start & !q
//	pending'  = (pending | trigger') & !q'
//
// The property fails exactly when some fair run is pending forever from
// some point on: a fair path from the state where the obligation opened
// avoids q for ever. (A fair path of CTL from a state on a fair path is
// a fair run from there, since fairness is a property of suffixes.)
//
// A proof shows that no fair run stays pending: a LiveCertificate, an
// inductive invariant of the model with the monitor and a well-founded
// argument in the style of Manna and Pnueli's rule for response under
// weak fairness, checked by plain SMT queries (checkLive).

// LiveCertificate is the certificate of a liveness proof. Let a state be
// pending when the monitor bit is set (the obligation is open and q
// false), and let its phase be the index, in Helpful, of the first weak
// fairness constraint some process can take there (len(Helpful) when
// none). Then, in every pending state that satisfies Invariant:
//
//   - every rank is nonnegative;
//   - every step to a pending state does not increase the tuple (ranks
//     in order, then the phase) in the lexicographic order, and a step
//     by the phase's own constraint decreases it;
//   - a step from a state satisfying one of the Justice conditions
//     decreases it, and such a state is no deadlock;
//   - when Justice is empty, some Helpful constraint can be taken.
//
// Soundness: along a run that stays pending the tuple never increases,
// so from some point on it is constant (the order is well founded); then
// the phase's constraint can be taken in every state and is never taken,
// which weak fairness forbids, and no state satisfies a Justice
// condition, which justice forbids (with Justice empty, every pending
// state is in some phase below len(Helpful)).
type LiveCertificate struct {
	// Invariant is over the model's variables and Pending.
	Invariant presburger.Formula
	Ranks     []Rank
	// Helpful and Justice are indices into the system's
	// Fairness.Weak and Fairness.Justice.
	Helpful []int
	Justice []int
	// Texts for people: the invariant (with "pending" for the monitor
	// bit), each rank, each helpful constraint and justice condition.
	InvariantText string
	RankTexts     []string
	HelpfulTexts  []string
	JusticeTexts  []string
	// Settled, when set, says that the proof is by settling (settle.go):
	// Ranks, Helpful and Justice are empty, SettleText is the measure
	// that every step changing the configuration lowers, and Invariant
	// excludes every pending configuration where a fair run can stay.
	Settled    bool
	SettleText string
	// PremiseText, when not empty, is the condition on the parameters
	// that the property's premise states (premiseScope): the certificate
	// is for the instances that meet it, and at the others the premise
	// never holds, so the property holds there without one.
	PremiseText string
	// m is the model the certificate is over, which its texts name the
	// variables of.
	m *counterabs.ParamModel
}

// liveQuestion is a response property on a parametric group-counter
// model, with the monitor bit.
type liveQuestion struct {
	m                 *counterabs.ParamModel
	start, trigger, q presburger.Formula
	fair              counterabs.ParamFairness
	// ts is the model with the monitor (Bad unset); pending is the
	// monitor's variable.
	ts      presburger.TransitionSystem
	pending presburger.Var
	state   map[presburger.Var]int // state variable of m -> its index (NumState)
	// idleAt marks the counters whose self-loop is enabled exactly when
	// they are not empty (settle.go: findIdle).
	idleAt map[int]bool
	// facts, when set, are the pivots of the model's linear invariants,
	// which unsatInv substitutes (houdinireduce.go).
	facts *factPivots
	// witnesses are reachable states where the monitor is set, which
	// answer unsatInv's satisfiable questions without a query
	// (livewitness.go); none until the sample is taken.
	witnesses liveWitnesses
}

// newLive builds the question for the property with the given premise
// (the runs asked about start where it holds: counterabs.Premise),
// start, trigger and goal on m.
func newLive(m *counterabs.ParamModel, premise, start, trigger, q presburger.Formula) (*liveQuestion, error) {
	fair, err := m.Fairness()
	if err != nil {
		return nil, err
	}
	lq := &liveQuestion{m: m, start: start, trigger: trigger, q: q, fair: fair, state: map[presburger.Var]int{}}
	ps := m.TransitionSystem()
	base := presburger.TransitionSystem{Vars: ps.Vars, Next: ps.Next}
	lq.pending = presburger.Var(m.NumVars() + m.NumState())
	next := lq.pending + 1
	for i := range m.NumState() {
		lq.state[m.StateVar(i)] = i
	}
	isSet := func(v presburger.Var) presburger.Formula {
		return presburger.Compare(presburger.VarTerm(v), presburger.Eq, presburger.ConstTerm(1))
	}
	notQ := presburger.Negation(q)
	lq.ts = presburger.TransitionSystem{
		Vars:   append(slices.Clone(ps.Vars), lq.pending),
		Next:   append(slices.Clone(ps.Next), next),
		Params: ps.Params,
		Domain: append(slices.Clone(ps.Domain), presburger.Bound{Var: lq.pending, Lo: 0, Hi: 1}),
		Init:   presburger.Conj(ps.Init, premise, presburger.Iff(isSet(lq.pending), presburger.Conj(start, notQ))),
	}
	for _, t := range ps.Trans {
		open := presburger.Conj(presburger.Disj(isSet(lq.pending), base.Prime(trigger)), base.Prime(notQ))
		lq.ts.Trans = append(lq.ts.Trans, presburger.Conj(t, presburger.Iff(isSet(next), open)))
	}
	return lq, nil
}

// varName names the variables of the question: the model's, and
// "pending" for the monitor bit.
func (lq *liveQuestion) varName(v presburger.Var) string {
	switch v {
	case lq.pending:
		return "pending"
	case lq.pending + 1:
		return "pending'"
	}
	return lq.m.VarName(v)
}

// format writes f, over the question's variables, for people.
func (lq *liveQuestion) format(f presburger.Formula) string {
	return FormatInvariant(f, lq.varName, lq.m.TypedAtom)
}

// isPending is "the monitor bit is set and q is false".
func (lq *liveQuestion) isPending() presburger.Formula {
	return presburger.Conj(presburger.Compare(presburger.VarTerm(lq.pending), presburger.Eq, presburger.ConstTerm(1)), presburger.Negation(lq.q))
}

// post reads f, over the model's state variables and parameters, in the
// state after a step by model transition i.
func (lq *liveQuestion) post(i int, f presburger.Formula) presburger.Formula {
	terms := lq.m.StepTerms(&lq.m.Transitions[i])
	return presburger.Subst(f, func(v presburger.Var) presburger.Term {
		if k, ok := lq.state[v]; ok {
			return terms[k]
		}
		return presburger.VarTerm(v)
	})
}

// Rank is a piecewise-linear function of a state: the Term of the first
// case whose When holds. The last case's When is true; a linear rank
// has one case.
type Rank []RankCase

// RankCase is one piece of a Rank.
type RankCase struct {
	When presburger.Formula
	Term presburger.Term
}

// linearRank is the rank t everywhere.
func linearRank(t presburger.Term) Rank { return Rank{{When: presburger.True, Term: t}} }

// pieces returns, for each case of r, the condition that it is the one
// that applies.
func (r Rank) pieces() []presburger.Formula {
	var out, before []presburger.Formula
	for _, c := range r {
		out = append(out, presburger.Conj(append(slices.Clone(before), c.When)...))
		before = append(before, presburger.Negation(c.When))
	}
	return out
}

// format writes r for people: "t" for a linear rank, else "if c1 then
// t1, if c2 then t2, else t3".
func (r Rank) format(lq *liveQuestion) string {
	if len(r) == 1 {
		return r[0].Term.Format(lq.varName)
	}
	var parts []string
	for k, c := range r {
		if k == len(r)-1 {
			parts = append(parts, "else "+c.Term.Format(lq.varName))
			continue
		}
		parts = append(parts, "if "+lq.format(c.When)+" then "+c.Term.Format(lq.varName))
	}
	return strings.Join(parts, ", ")
}

// compare is "r after a step by model transition t op r before it".
func (lq *liveQuestion) compare(t int, r Rank, op presburger.Op) presburger.Formula {
	before := r.pieces()
	var fs []presburger.Formula
	for i, bi := range before {
		for j, bj := range before {
			fs = append(fs, presburger.Conj(bi, lq.post(t, bj), presburger.Compare(lq.postTerm(t, r[j].Term), op, r[i].Term)))
		}
	}
	return presburger.Disj(fs...)
}

// negative is "r is below 0".
func (r Rank) negative() presburger.Formula {
	var fs []presburger.Formula
	for i, b := range r.pieces() {
		fs = append(fs, presburger.Conj(b, presburger.Compare(r[i].Term, presburger.Lt, presburger.ConstTerm(0))))
	}
	return presburger.Disj(fs...)
}

// postTerm reads t in the state after a step by model transition i.
func (lq *liveQuestion) postTerm(i int, t presburger.Term) presburger.Term {
	terms := lq.m.StepTerms(&lq.m.Transitions[i])
	return t.Subst(func(v presburger.Var) presburger.Term {
		if k, ok := lq.state[v]; ok {
			return terms[k]
		}
		return presburger.VarTerm(v)
	})
}

// guard is the guard of model transition i.
func (lq *liveQuestion) guard(i int) presburger.Formula { return lq.m.Transitions[i].Guard }

// enabled is "some process can take weak fairness constraint k".
func (lq *liveQuestion) enabled(k int) presburger.Formula {
	var fs []presburger.Formula
	for _, i := range lq.fair.Weak[k] {
		fs = append(fs, lq.guard(i))
	}
	return presburger.Disj(fs...)
}

// liveCondition is one obligation of a certificate: Bad must be
// unsatisfiable in a pending state of the invariant.
type liveCondition struct {
	What string
	Bad  presburger.Formula
}

// certOrder reads a certificate's order on pending states: the phase
// (the first helpful constraint enabled) and the lexicographic
// comparison of the tuple across a step.
type certOrder struct {
	lq *liveQuestion
	c  *LiveCertificate
	en []presburger.Formula // en[k]: helpful constraint k is enabled
}

func (lq *liveQuestion) order(c *LiveCertificate) certOrder {
	o := certOrder{lq: lq, c: c}
	for _, w := range c.Helpful {
		o.en = append(o.en, lq.enabled(w))
	}
	return o
}

// phase is "the phase is i" (len(Helpful): no helpful constraint is
// enabled).
func (o certOrder) phase(i int) presburger.Formula {
	var fs []presburger.Formula
	for k := 0; k < i; k++ {
		fs = append(fs, presburger.Negation(o.en[k]))
	}
	if i < len(o.en) {
		fs = append(fs, o.en[i])
	}
	return presburger.Conj(fs...)
}

// lex is "after the step by t the tuple is below the one before it (or
// equal, when not strict)", the phase before being i.
func (o certOrder) lex(t, i int, strict bool) presburger.Formula {
	// The phase after the step is at most i (below i when strict).
	var f presburger.Formula = presburger.True
	if strict || i < len(o.en) {
		var fs []presburger.Formula
		for k := 0; k < i || !strict && k == i; k++ {
			fs = append(fs, o.lq.post(t, o.en[k]))
		}
		f = presburger.Disj(fs...)
	}
	for j := len(o.c.Ranks) - 1; j >= 0; j-- {
		r := o.c.Ranks[j]
		f = presburger.Disj(o.lq.compare(t, r, presburger.Lt), presburger.Conj(o.lq.compare(t, r, presburger.Eq), f))
	}
	return f
}

// conditions returns the obligations of c (see LiveCertificate), each a
// formula over the current state that no pending state satisfying the
// invariant may satisfy: the steps are read through post, so that every
// obligation is a question about one state.
func (lq *liveQuestion) conditions(c *LiveCertificate) []liveCondition {
	var out []liveCondition
	for j, r := range c.Ranks {
		out = append(out, liveCondition{fmt.Sprintf("rank %d is nonnegative", j+1), r.negative()})
	}
	o := lq.order(c)
	notQ := presburger.Negation(lq.q)
	for i := 0; i <= len(c.Helpful); i++ {
		ph := o.phase(i)
		for t := range lq.m.Transitions {
			strict := i < len(c.Helpful) && slices.Contains(lq.fair.Weak[c.Helpful[i]], t)
			what := "does not increase the tuple"
			if strict {
				what = "decreases the tuple (a helpful step)"
			}
			out = append(out, liveCondition{
				What: fmt.Sprintf("in phase %d, a step by %s %s", i+1, lq.m.TransitionName(&lq.m.Transitions[t]), what),
				Bad:  presburger.Conj(ph, lq.guard(t), lq.post(t, notQ), presburger.Negation(o.lex(t, i, strict))),
			})
		}
	}
	for _, j := range c.Justice {
		out = append(out, lq.justiceConditions(o, j)...)
	}
	if len(c.Justice) == 0 {
		out = append(out, liveCondition{"some helpful constraint can be taken", o.phase(len(c.Helpful))})
	}
	return out
}

// justiceConditions are the obligations of justice condition j in a
// certificate: no state satisfying it is a deadlock, and every pending
// step from one decreases the tuple.
func (lq *liveQuestion) justiceConditions(o certOrder, j int) []liveCondition {
	jf := lq.fair.Justice[j]
	text := lq.m.System.Fairness.Justice[j].Text
	notQ := presburger.Negation(lq.q)
	dead := []presburger.Formula{jf}
	for t := range lq.m.Transitions {
		dead = append(dead, presburger.Negation(lq.guard(t)))
	}
	out := []liveCondition{{fmt.Sprintf("no state satisfying justice condition %s is a deadlock", text), presburger.Conj(dead...)}}
	for i := 0; i <= len(o.c.Helpful); i++ {
		for t := range lq.m.Transitions {
			out = append(out, liveCondition{
				What: fmt.Sprintf("in phase %d, a step by %s from a state satisfying %s decreases the tuple", i+1, lq.m.TransitionName(&lq.m.Transitions[t]), text),
				Bad:  presburger.Conj(jf, o.phase(i), lq.guard(t), lq.post(t, notQ), presburger.Negation(o.lex(t, i, true))),
			})
		}
	}
	return out
}

// violation is the disjunction of c's obligations in a pending state:
// the bad states of the safety question whose invariant completes c.
func (lq *liveQuestion) violation(c *LiveCertificate) presburger.Formula {
	var fs []presburger.Formula
	for _, cond := range lq.conditions(c) {
		fs = append(fs, cond.Bad)
	}
	return presburger.Conj(lq.isPending(), presburger.Disj(fs...))
}

// checkLive re-checks c with plain SMT queries: the invariant is
// inductive (presburger.CheckInvariant on the model with the monitor),
// and each obligation alone is unsatisfiable in a pending state of the
// invariant. It returns nil, an *presburger.UndecidedError, or an error
// naming the obligation that fails.
func (lq *liveQuestion) checkLive(ctx context.Context, solver presburger.Solver, c *LiveCertificate) error {
	ts := lq.ts
	ts.Bad = presburger.False
	if err := presburger.CheckInvariant(ctx, solver, ts, c.Invariant); err != nil {
		return err
	}
	base := presburger.Conj(paramPart(lq.ts), c.Invariant, lq.isPending())
	conds := lq.conditions(c)
	// All the obligations at once first: no pending state of the
	// invariant violates any of them exactly when none violates their
	// disjunction, one query where each alone asked one per transition
	// and phase (46 on ByMC's c1cs with tokens as groups, half the
	// re-check's time). When some state does, or the query has no
	// answer, each is asked alone, to name the one that fails.
	bads := make([]presburger.Formula, len(conds))
	for k, cond := range conds {
		bads[k] = cond.Bad
	}
	if a, err := solver.Solve(ctx, presburger.Problem{Bounds: lq.ts.Domain, F: presburger.Conj(base, presburger.Disj(bads...))}); err == nil && a.Result == presburger.Unsat {
		return nil
	}
	for _, cond := range conds {
		a, err := solver.Solve(ctx, presburger.Problem{Bounds: lq.ts.Domain, F: presburger.Conj(base, cond.Bad)})
		if err != nil {
			return err
		}
		switch a.Result {
		case presburger.Unknown:
			return &presburger.UndecidedError{What: cond.What, Reason: a.Reason}
		case presburger.Sat:
			return fmt.Errorf("the certificate fails: %s (witness %s)", cond.What, lq.formatModel(a.Model))
		}
	}
	return nil
}

// formatModel writes the state variables and parameters of a witness.
func (lq *liveQuestion) formatModel(val presburger.Model) string {
	var parts []string
	for _, v := range append(slices.Clone(lq.ts.Vars), lq.ts.Params...) {
		parts = append(parts, fmt.Sprintf("%s=%d", lq.varName(v), val[v]))
	}
	return strings.Join(parts, " ")
}

// unsat reports whether f is unsatisfiable in a state of the domain
// whose parameters satisfy the constraint; an unknown answer counts as
// satisfiable.
func (lq *liveQuestion) unsat(ctx context.Context, solver presburger.Solver, f presburger.Formula) (bool, error) {
	a, err := solver.Solve(ctx, presburger.Problem{Bounds: lq.ts.Domain, F: presburger.Conj(paramPart(lq.ts), f)})
	if err != nil {
		return false, err
	}
	return a.Result == presburger.Unsat, nil
}

// unsatInv is unsat for an f that states the model's linear invariants
// (an invariant with the lemmas, lq.facts's): asked without the
// variables they define when lq.facts is set, the same answer in fewer
// variables (factPivots.problem). A question that a state of
// lq.witnesses satisfies is satisfiable without a query.
func (lq *liveQuestion) unsatInv(ctx context.Context, solver presburger.Solver, f presburger.Formula) (bool, error) {
	if liveWitnessesOn && lq.witnesses.satisfied(presburger.Conj(paramPart(lq.ts), f)) {
		if onLiveWitness != nil {
			onLiveWitness(presburger.Problem{Bounds: lq.ts.Domain, F: presburger.Conj(paramPart(lq.ts), f)})
		}
		return false, nil
	}
	if lq.facts == nil {
		return lq.unsat(ctx, solver, f)
	}
	p, ok := lq.facts.problem(lq.ts.Domain, presburger.Conj(paramPart(lq.ts), f))
	if !ok {
		return lq.unsat(ctx, solver, f)
	}
	a, err := solver.Solve(ctx, p)
	if err != nil {
		return false, err
	}
	return a.Result == presburger.Unsat, nil
}

// errUndecided reports whether err is a solver's unknown.
func errUndecided(err error) bool {
	var ue *presburger.UndecidedError
	return errors.As(err, &ue)
}

// proveLive answers a liveness property on m (its group-counter model)
// and fills res: a re-checked certificate, a fair lasso at a small
// instance replayed on it, or unknown.
//
// On a system that settles (settle.go) the question is the safety one
// of proveSettled once the cheap certificate fails, with j the
// property's own justice condition (true for a response property);
// settledOnly says that the property's shape is decided only there.
func proveLive(ctx context.Context, cfg config, m *counterabs.ParamModel, name string, premise, start, trigger, q, j presburger.Formula, settledOnly bool, prover presburger.Prover, solver presburger.Solver, res *Result) error {
	res.Level, res.LevelReason = m.Level, m.Reason
	if cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
	}
	lq, err := newLive(m, premise, start, trigger, q)
	if err != nil {
		return err
	}
	settling, why := settleCheck(m)
	if settledOnly && !settling {
		res.Verdict, res.Reason = Skipped, "a fairness premise in the formula is decided only on a system whose runs settle, and this one may not: "+why
		return nil
	}
	// Lemmas first: most response properties of counter systems rest on
	// facts a filter finds (thresholds once passed, counts of senders)
	// and a rank the local states' graph gives. The linear invariants of
	// m (linear.go) hold on the question too, which moves the model's
	// variables as m does: they go with the lemmas as facts, as for a
	// safety property, and the prover below does without the variables
	// they define.
	avoid := map[presburger.Var]bool{}
	for _, f := range []presburger.Formula{start, trigger, q} {
		for _, v := range presburger.FreeVars(f) {
			avoid[v] = true
		}
	}
	lis := linearInvariants(m, avoid)
	facts := linearConj(m, lis)
	lq.facts, _ = newFactPivots(m, lq.ts, lis)
	// The sample follows the steps of lq.ts itself: the facts hold in
	// every state it reaches, and reading them at each step cost more
	// than the rest of the walk.
	// Its states where the monitor is set answer the certificate
	// search's satisfiable questions (livewitness.go).
	sample := sampleReachable(ctx, m, lq.ts)
	lq.witnesses = lq.witnessesOf(sample)
	lemmas, err := houdiniFacts(ctx, solver, m, lq.ts, lis, lq.candidates(), sample)
	if err != nil {
		return err
	}
	lemmas = prune(ctx, solver, lq.ts, lemmas, facts, lq.facts)
	// The lemmas are inductive under the conditions on the parameters
	// (houdini), which every certificate states with them (the
	// queries of lq.unsat read them; the prover's question starts
	// from them, which is all it needs, and goes astray when every step
	// states them again: bosco's fast0 in testdata/bymc).
	inv := presburger.Conj(lemmaConj(lemmas), facts)
	withParams := presburger.Conj(paramPart(lq.ts), inv)
	var cert *LiveCertificate
	if !settledOnly {
		if cert, err = lq.synthesize(ctx, solver, withParams); err != nil {
			return err
		}
	}
	if cert != nil {
		if ok, err := lq.unsatInv(ctx, solver, presburger.Conj(inv, lq.violation(cert))); err != nil {
			return err
		} else if ok {
			cert.Invariant = withParams
			return lq.accept(ctx, solver, cert, lemmas, res)
		}
	}
	if settling {
		return proveSettled(ctx, cfg, lq, premise, j, inv, lemmas, lis, name, prover, solver, res)
	}
	// A fair lasso at a small instance refutes the property.
	if found, err := refuteLive(ctx, cfg, m, name, res); err != nil || found {
		return err
	}
	if cert == nil {
		res.Verdict = Unknown
		res.Reason = "no ranking argument found: no rank over the counters of the local states' graph decreases along the pending steps; " + res.noLasso
		stopped(ctx, cfg, res)
		return nil
	}
	// The rank and the order of the helpful constraints stand; an
	// invariant strong enough to discharge the obligations is a safety
	// question on the model with the monitor.
	a, err := lq.proveMonitored(ctx, cfg, prover, inv, lq.violation(cert), lis)
	if err != nil {
		// The back end failed on this question (Spacer may give up with
		// an error of its own): no answer, which is no success.
		res.Verdict, res.Reason = Unknown, "the prover failed on the ranking argument's obligations: "+err.Error()
		return nil
	}
	if a.Verdict == presburger.Proved {
		cert.Invariant = presburger.Conj(a.Invariant, withParams)
		return lq.accept(ctx, solver, cert, lemmas, res)
	}
	res.Verdict = Unknown
	res.Reason = "the ranking argument's obligations could not be shown for every reachable pending state (" + a.Reason + "); " + res.noLasso
	if a.Exhausted {
		res.Exhausted = ProverWork
	}
	if a.Verdict == presburger.Refuted {
		res.Reason = "the ranking argument found does not hold in some reachable pending state, and " + res.noLasso
	}
	stopped(ctx, cfg, res)
	return nil
}

// stopped marks an unknown res as stopped by the bound on the property
// when that bound has run out: then the reason is the time, and what
// was found until then follows in parentheses.
func stopped(ctx context.Context, cfg config, res *Result) {
	if ctx.Err() != nil && cfg.timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		res.Reason, res.Stopped, res.Exhausted = fmt.Sprintf("timeout after %s (%s)", cfg.timeout, res.Reason), true, ""
	}
}

// tamperLive, when set, changes each certificate before its re-check:
// only in the test that the re-check rejects a certificate that fails
// (export_test.go).
var tamperLive func(*LiveCertificate)

// accept re-checks cert and fills res with the proof.
func (lq *liveQuestion) accept(ctx context.Context, solver presburger.Solver, cert *LiveCertificate, lemmas []Lemma, res *Result) error {
	if tamperLive != nil {
		tamperLive(cert)
	}
	// The re-check's queries state the invariant, whose equalities
	// (the linear invariants, every pool's sum) define most variables
	// of a model with message tokens: they are solved for before Z3
	// is asked (presburger.SolveEqs), the same answers.
	if err := lq.checkLive(ctx, presburger.SolveEqs{S: solver}, cert); err != nil {
		if errUndecided(err) {
			res.Verdict, res.Reason = Unknown, "the certificate found could not be re-checked: "+err.Error()
			return nil
		}
		return errkind.Errorf(errkind.Internal, "the liveness certificate fails the re-check: %w", err)
	}
	lq.proved(cert, lemmas, res)
	return nil
}

// proved fills res with cert, re-checked on lq, and its texts.
func (lq *liveQuestion) proved(cert *LiveCertificate, lemmas []Lemma, res *Result) {
	sys := lq.m.System
	cert.m = lq.m
	cert.InvariantText = lq.format(cert.Invariant)
	for _, r := range cert.Ranks {
		cert.RankTexts = append(cert.RankTexts, r.format(lq))
	}
	for _, k := range cert.Helpful {
		cert.HelpfulTexts = append(cert.HelpfulTexts, sys.WeakName(&sys.Fairness.Weak[k]))
	}
	for _, j := range cert.Justice {
		cert.JusticeTexts = append(cert.JusticeTexts, sys.Fairness.Justice[j].Text)
	}
	res.Verdict, res.Live, res.Lemmas = Proved, cert, lemmas
	res.Invariant, res.InvariantText = cert.Invariant, cert.InvariantText
}

// checkCert re-checks c on lq: checkLive, or checkSettled (with j, the
// property's own justice condition, askLive's) for a proof by settling.
func (lq *liveQuestion) checkCert(ctx context.Context, solver presburger.Solver, c *LiveCertificate, j presburger.Formula) error {
	eqs := presburger.SolveEqs{S: solver}
	if c.Settled {
		return lq.checkSettled(ctx, eqs, c, j)
	}
	return lq.checkLive(ctx, eqs, c)
}

// provedCert fills res with c, re-checked on lq (checkCert), and its
// texts.
func (lq *liveQuestion) provedCert(c *LiveCertificate, lemmas []Lemma, res *Result) {
	if c.Settled {
		lq.provedSettled(c, lemmas, res)
	} else {
		lq.proved(c, lemmas, res)
	}
}

// liveModels are the models of a system's liveness questions, built at
// the first one: written, the group-counter model as the system writes
// it, and asked, the one the questions are asked on, written without
// its hollow transfers (liveFiring) or written itself.
type liveModels struct {
	written, asked *counterabs.ParamModel
}

// checkLive answers property i of rep's system when it is a response
// property (counterabs.LivenessFormula), on the system's parametric
// group-counter model (live, built at the first one), and marks it
// Skipped otherwise.
func checkLive(ctx context.Context, cfg config, rep *Report, i int, prover presburger.Prover, solver presburger.Solver, live *liveModels, res *Result) error {
	sys := rep.System
	p := &sys.Properties[i]
	if !IsLiveness(p.Formula) {
		res.Verdict, res.Reason = Skipped, skipReason
		return nil
	}
	if live.asked == nil {
		written, err := buildLiveModel(sys)
		if err != nil {
			return err
		}
		m, err := liveFiring(ctx, solver, written)
		if err != nil {
			return err
		}
		if rep.Scope == "" && m.Scope != "" {
			rep.Scope = m.Scope + emptyGroups(ctx, solver, m)
		}
		live.written, live.asked = written, m
	}
	m := live.asked
	a, ok, err := askLive(ctx, solver, m, p.Name)
	if err != nil {
		return err
	}
	if !ok {
		// The model's formula is the system's with its atoms simplified;
		// a shape that no longer shows is not decided.
		res.Verdict, res.Reason = Skipped, skipReason+" (on the group-counter model, where its atoms simplify, the formula no longer has a shape prove decides)"
		return nil
	}
	cfg.progress.Report(progress.Event{Phase: progress.Proof, Engine: progress.NameOf(prover), Item: p.Name, K: i + 1, N: len(sys.Properties)})
	if err := proveLive(ctx, cfg, a.m, p.Name, a.premise, a.start, a.trigger, a.q, a.j, a.settledOnly, prover, solver, res); err != nil {
		return err
	}
	if m != live.written && res.Verdict == Proved && res.Live != nil {
		if err := recheckWritten(ctx, cfg, prover, solver, live.written, p.Name, res); err != nil {
			return err
		}
	}
	if err := exploredProof(ctx, p.Name, res); err != nil {
		return err
	}
	if res.Live != nil && a.cond != presburger.True {
		res.Live.PremiseText = FormatInvariant(a.cond, m.VarName, m.TypedAtom)
	}
	return nil
}

// recheckWritten re-checks the certificate of res, found on the model
// without its hollow transfers (liveFiring), on the question of
// property name on written, the model with them, and fills res with it
// there. Its invariant is stated with D, the counters that stay 0 at 0
// (inductive on written, checkCut): where D holds, a transfer out of
// such a counter moves nobody, so each step of written has the guard
// and effect of its step without the transfer, and every obligation of
// a ranking certificate met without the transfers is met with them. A
// proof by settling also needs written to pass the settling check
// (settles), which reads the transfers as edges of the local states'
// graph: where one closes a cycle, the property is asked again on
// written. Any other failure is a defect of the argument (an internal
// error); a re-check the solver cannot decide leaves the property
// unknown.
func recheckWritten(ctx context.Context, cfg config, prover presburger.Prover, solver presburger.Solver, written *counterabs.ParamModel, name string, res *Result) error {
	a, ok, err := askLive(ctx, solver, written, name)
	switch {
	case err != nil:
		return err
	case !ok:
		return errkind.Errorf(errkind.Internal, "the liveness property %s has no shape prove decides on the model with its hollow transfers, but has one without them", name)
	}
	cert := res.Live
	if settling, _ := settleCheck(a.m); cert.Settled && !settling {
		*res = Result{Property: res.Property}
		return proveLive(ctx, cfg, a.m, name, a.premise, a.start, a.trigger, a.q, a.j, a.settledOnly, prover, solver, res)
	}
	lq, err := newLive(a.m, a.premise, a.start, a.trigger, a.q)
	if err != nil {
		return err
	}
	out := &LiveCertificate{Invariant: presburger.Conj(append([]presburger.Formula{cert.Invariant}, zeroFacts(written, raisedCounters(written))...)...), Ranks: cert.Ranks, Helpful: cert.Helpful, Justice: cert.Justice, Settled: cert.Settled}
	if err := lq.checkCert(ctx, solver, out, a.j); err != nil {
		if errUndecided(err) {
			res.Verdict, res.Live, res.Invariant, res.InvariantText = Unknown, nil, nil, ""
			res.Reason = "the certificate found without the transfers out of counters that stay 0 could not be re-checked on the model with them: " + err.Error()
			return nil
		}
		return errkind.Errorf(errkind.Internal, "the liveness certificate found without the transfers out of counters that stay 0 fails the re-check on the model with them: %w", err)
	}
	lq.provedCert(out, res.Lemmas, res)
	res.LevelReason += "; the certificate, with that invariant, re-checked on the model with them"
	return nil
}

// liveAsk is the question of a liveness property on a group-counter
// model: the model restricted to where the premise can hold
// (premiseScope, with its condition cond on the parameters), and the
// parts of the property's shape (liveShape) with the negations pushed
// to the atoms.
type liveAsk struct {
	m                             *counterabs.ParamModel
	premise, start, trigger, q, j presburger.Formula
	settledOnly                   bool
	cond                          presburger.Formula
}

// askLive returns the question of the liveness property name of m; ok
// is false when m has no such property or its formula has no shape
// prove decides.
func askLive(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, name string) (liveAsk, bool, error) {
	k := slices.IndexFunc(m.Properties, func(q counterabs.Property) bool { return q.Name == name })
	if k < 0 {
		return liveAsk{}, false, errkind.Errorf(errkind.Internal, "the parametric model has no property %s", name)
	}
	premise, start, trigger, q, j, settledOnly, ok := liveShape(m.Properties[k].Formula)
	if !ok {
		return liveAsk{}, false, nil
	}
	// Read with the negations pushed to the atoms, as the guards are
	// (counterabs): the lemmas take a premise's atoms one by one, and
	// "!(#I != 0 | chose0 != n - f)" hid them.
	// A zero test of a sum of counters (and of nonnegative parameters and
	// shared variables), "#I + f = 0", is read as its terms' ("#I = 0 &
	// f = 0"), as the other readers of premises do: premiseScope takes
	// the conjuncts on the parameters alone from it (ByMC's cf1s so
	// written lost f = 0 and took 5 s).
	nonneg := presburger.NonnegIn(m.Ranges()) // the transition system's Domain, without building its steps
	read := func(f presburger.Formula) presburger.Formula {
		return presburger.SplitZeroSums(presburger.PushNegations(f), nonneg)
	}
	a := liveAsk{premise: read(premise), start: read(start), trigger: presburger.PushNegations(trigger), q: presburger.PushNegations(q), j: presburger.PushNegations(j), settledOnly: settledOnly}
	var err error
	if a.m, a.cond, err = premiseScope(ctx, solver, m, presburger.Conj(a.premise, a.start)); err != nil {
		return liveAsk{}, false, err
	}
	return a, true, nil
}

// premiseScope returns m restricted to the parameter values at which
// start, the premise of the property (p of AG (p -> AF q)), can hold:
// with the conditions of start on the parameters alone (ByMC's cf1s:
// f = 0) added to the model's Constraint, and every transition whose
// guard no state of such an instance satisfies made false (under f = 0
// the crashes, guarded by nfaulty < f, never happen). At the other
// parameter values the premise is false in every state, so the
// obligation never opens and the property holds there; a proof on the
// restricted model is a proof for every instance. Dead transitions
// change no run, but the linear invariants of the steps that remain
// are stronger (cf1s: the messages sent are counted by the processes
// that sent them once nobody crashes). A guard no configuration of
// the model's domain meets is made false too, with the premise or
// without: a transition written never to fire ("#A > n" guarding a way
// out of A) then closes no cycle for settles. cond is the condition
// (True for none).
func premiseScope(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, start presburger.Formula) (_ *counterabs.ParamModel, cond presburger.Formula, _ error) {
	ps := m.TransitionSystem()
	cond = paramCondition(ps.Params, start)
	mm := *m
	if cond != presburger.True {
		mm.Constraint = presburger.Conj(m.Constraint, cond)
	}
	mm.Transitions = slices.Clone(m.Transitions)
	dead := false
	domain := m.Domain()
	// Only whether a guard is met matters here, never a model: Quick
	// (exact, presburger.Quick) answers these queries first, and Z3
	// only what it declines. ByMC's c1cs with its counters as groups
	// of tokens has 244 state variables, and each query asked Z3 cost
	// about 10 ms; Quick meets each guard in one or two.
	quick := presburger.NewChain(presburger.Quick{}, solver)
	for i := range mm.Transitions {
		t := &mm.Transitions[i]
		if t.Guard == presburger.False {
			continue
		}
		bounds := slices.Clone(ps.Domain)
		for _, v := range t.Locals {
			bounds = append(bounds, presburger.AnyInt(v))
		}
		// Within the model's domain (the pools sum to the sizes): a
		// guard no configuration meets ("#A > n" in a group of n - f)
		// is dead whatever the premise says.
		a, err := quick.Solve(ctx, presburger.Problem{Bounds: bounds, F: presburger.Conj(t.Guard, mm.Constraint, domain)})
		if err != nil {
			return nil, nil, err
		}
		if a.Result == presburger.Unsat {
			t.Guard, dead = presburger.False, true
		}
	}
	if !dead && cond == presburger.True {
		return m, cond, nil
	}
	return &mm, cond, nil
}

// paramCondition returns a condition on params alone that f implies:
// its conjuncts that read params only, and of a disjunction the
// disjunction of what each case implies so (a premise written in
// disjunctive normal form, "#I = 0 & f = 0 & n > 5*t | #I = 0 & n >
// 7*t", states "f = 0 & n > 5*t | n > 7*t" as the factored form does).
// True when f states nothing of the parameters alone.
func paramCondition(params []presburger.Var, f presburger.Formula) presburger.Formula {
	if !slices.ContainsFunc(presburger.FreeVars(f), func(v presburger.Var) bool { return !slices.Contains(params, v) }) {
		return f
	}
	switch g := f.(type) {
	case presburger.And:
		out := make([]presburger.Formula, len(g))
		for i, h := range g {
			out[i] = paramCondition(params, h)
		}
		return presburger.Conj(out...)
	case presburger.Or:
		out := make([]presburger.Formula, len(g))
		for i, h := range g {
			out[i] = paramCondition(params, h)
		}
		return presburger.Disj(out...)
	}
	return presburger.True
}
