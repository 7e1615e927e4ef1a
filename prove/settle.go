package prove

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
)

// Liveness of systems whose runs settle, decided as a safety property.
//
// A system settles when every infinite run makes only finitely many
// steps that change the configuration. settles checks a sufficient
// condition on the model's transitions: the graph of the counters whose
// edges are the moves of the transitions (movers and transfers) that go
// from one counter to another is acyclic, and a transition none of whose
// movers goes from one counter to another assigns no shared variable a
// new value. Then, with d(c) the longest path from counter c to a sink,
// the potential sum_c d(c)*#c (each process's distance to a sink)
// strictly decreases on every step that changes the configuration: a
// mover along an edge lowers it by at least one, a transfer along an
// edge never raises it, and a step whose movers all stay where they are
// changes the configuration only by its transfers, which then move
// someone down. The potential is a natural number, so every infinite
// run is eventually constant at some configuration c, where it repeats
// by steps that are identities at c, or by stuttering when c is a
// deadlock (explore's semantics: only a deadlock stutters).
//
// A fair run that stays pending for ever (liveness.go's monitor) then
// exists exactly when a reachable configuration c is pending and
// repeatable under fairness: every justice condition holds at c (and
// the property's own, see liveShape); c is a deadlock or some step is
// an identity at c; and every weak fairness constraint is disabled at
// c or has a step that is an identity at c. (Such a c gives the run
// that reaches it and then takes, in turn, the identity steps of the
// enabled weak constraints, or any identity step, or stutters; a fair
// run that stays pending ends constant at such a c.) So the property
// holds exactly when AG !(pending & repeatable & fair) holds on the
// model with the monitor, a safety question.

// settleCheck is the check proveLive and checkSettled use: settles,
// replaced only by the test that shows a wrong check is caught.
var settleCheck = settles

// settles reports whether m's transitions pass the syntactic check
// above, and, when they do not, why not.
func settles(m *counterabs.ParamModel) (ok bool, why string) {
	succ := make([][]int, len(m.Counters))
	edge := func(mv counterabs.Move) {
		if mv.From != mv.To && !slices.Contains(succ[mv.From], mv.To) {
			succ[mv.From] = append(succ[mv.From], mv.To)
		}
	}
	for i := range m.Transitions {
		t := &m.Transitions[i]
		if t.Guard == presburger.False {
			continue // it never fires
		}
		if len(t.Locals) > 0 {
			return false, fmt.Sprintf("the guard of %s has local variables", m.TransitionName(t))
		}
		moves := false
		for _, mv := range t.Moves() {
			edge(mv)
			moves = moves || mv.From != mv.To
		}
		for _, mv := range t.Transfers {
			edge(mv)
		}
		if moves {
			continue
		}
		for _, a := range t.Assign {
			if !a.Value.Equal(presburger.VarTerm(presburger.Var(a.Var))) {
				return false, fmt.Sprintf("%s changes %s without moving a process to another local state", m.TransitionName(t), m.VarName(presburger.Var(a.Var)))
			}
		}
	}
	if cyc := cycle(succ); cyc != nil {
		var names []string
		for _, c := range cyc {
			names = append(names, m.VarName(presburger.Var(c)))
		}
		return false, "the local states' graph has the cycle " + strings.Join(names, " -> ")
	}
	return true, ""
}

// cycle returns a cycle of the graph succ (its nodes, the first one
// repeated at the end), or nil when the graph is acyclic.
func cycle(succ [][]int) []int {
	const (
		unseen = iota
		open
		done
	)
	mark := make([]int, len(succ))
	var path []int
	var visit func(v int) []int
	visit = func(v int) []int {
		mark[v] = open
		path = append(path, v)
		for _, w := range succ[v] {
			switch mark[w] {
			case open:
				k := slices.Index(path, w)
				return append(slices.Clone(path[k:]), w)
			case unseen:
				if c := visit(w); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		mark[v] = done
		return nil
	}
	for v := range succ {
		if mark[v] == unseen {
			if c := visit(v); c != nil {
				return c
			}
		}
	}
	return nil
}

// potential is the settling argument's measure, sum_c d(c)*#c, with d(c)
// the longest path from counter c to a sink of the (acyclic) graph of
// the moves, for the report.
func potential(m *counterabs.ParamModel) presburger.Term {
	succ := make([][]int, len(m.Counters))
	for i := range m.Transitions {
		t := &m.Transitions[i]
		for _, mv := range append(t.Moves(), t.Transfers...) {
			if mv.From != mv.To {
				succ[mv.From] = append(succ[mv.From], mv.To)
			}
		}
	}
	d := make([]int, len(succ))
	seen := make([]bool, len(succ))
	var depth func(v int) int
	depth = func(v int) int {
		if !seen[v] {
			seen[v] = true
			for _, w := range succ[v] {
				d[v] = max(d[v], depth(w)+1)
			}
		}
		return d[v]
	}
	var out presburger.Term
	for c := range succ {
		if k := depth(c); k > 0 {
			out = out.Add(presburger.VarTerm(presburger.Var(c)).Scale(int64(k)))
		}
	}
	return out
}

// identity is "a step by model transition t changes nothing", over the
// state before it.
func (lq *liveQuestion) identity(t int) presburger.Formula {
	terms := lq.m.StepTerms(&lq.m.Transitions[t])
	var fs []presburger.Formula
	for k, term := range terms {
		if v := presburger.VarTerm(lq.m.StateVar(k)); !term.Equal(v) {
			fs = append(fs, presburger.Compare(term, presburger.Eq, v))
		}
	}
	return presburger.Conj(fs...)
}

// idles is "some transition of ts can be taken and changes nothing".
func (lq *liveQuestion) idles(ts []int) presburger.Formula {
	var fs []presburger.Formula
	for _, t := range ts {
		fs = append(fs, presburger.Conj(lq.guard(t), lq.identity(t)))
	}
	return presburger.Disj(fs...)
}

// settled is the bad states of the safety question of a settling
// system: pending configurations where justice (the system's conditions
// and j, the property's own) holds and a fair run can stay for ever.
func (lq *liveQuestion) settled(j presburger.Formula) presburger.Formula {
	return presburger.Conj(lq.isPending(), lq.stays(j))
}

// stays is "a fair run can stay in this configuration for ever, and j
// holds in it" (settled without the monitor). Written plainly, "no
// step is enabled" is a conjunction of negated guards whose disjunctive
// normal form, which the safety search computes, is exponential in the
// steps; so the counters with a self-loop that is enabled exactly when
// the counter is not empty (lq.idleAt, each shown so by the solver)
// stand for their steps: in a deadlock they are empty, and then no step
// from them is enabled, every guard implying that its movers exist.
func (lq *liveQuestion) stays(j presburger.Formula) presburger.Formula {
	m := lq.m
	var dead, idle []presburger.Formula
	for c := range m.Counters {
		if !lq.idleAt[c] {
			continue
		}
		x := presburger.VarTerm(presburger.Var(c))
		dead = append(dead, presburger.Compare(x, presburger.Le, presburger.ConstTerm(0)))
		idle = append(idle, presburger.Compare(x, presburger.Ge, presburger.ConstTerm(1)))
	}
	var all []int
	for t := range m.Transitions {
		tr := &m.Transitions[t]
		if !lq.idleAt[tr.From] {
			dead = append(dead, presburger.Negation(lq.guard(t)))
		}
		if !movesAway(tr) && !lq.idleAt[tr.From] {
			all = append(all, t)
		}
	}
	idle = append(idle, lq.idles(all))
	fs := []presburger.Formula{j}
	fs = append(fs, lq.fair.Justice...)
	fs = append(fs, presburger.Disj(presburger.Conj(dead...), presburger.Disj(idle...)))
	for w := range lq.fair.Weak {
		var can []int
		for _, t := range lq.fair.Weak[w] {
			if !movesAway(&m.Transitions[t]) {
				can = append(can, t)
			}
		}
		fs = append(fs, presburger.Disj(presburger.Negation(lq.enabled(w)), lq.idles(can)))
	}
	return presburger.Conj(fs...)
}

// movesAway reports whether a mover of t goes to another counter: then
// no step by t is an identity.
func movesAway(t *counterabs.ParamTransition) bool {
	return slices.ContainsFunc(t.Moves(), func(mv counterabs.Move) bool { return mv.From != mv.To })
}

// findIdle fills lq.idleAt: the counters c with a transition whose one
// mover stays in c, with no transfer and no assignment, and whose guard
// holds exactly when c is not empty (an unsatisfiable query).
func (lq *liveQuestion) findIdle(ctx context.Context, solver presburger.Solver) error {
	m := lq.m
	lq.idleAt = map[int]bool{}
	for t := range m.Transitions {
		tr := &m.Transitions[t]
		if tr.From < 0 || tr.From != tr.To || len(tr.Also) > 0 || len(tr.Transfers) > 0 || len(tr.Assign) > 0 || lq.idleAt[tr.From] {
			continue
		}
		occupied := presburger.Compare(presburger.VarTerm(presburger.Var(tr.From)), presburger.Ge, presburger.ConstTerm(1))
		ok, err := lq.unsat(ctx, solver, presburger.Conj(occupied, presburger.Negation(lq.guard(t))))
		if err != nil {
			return err
		}
		lq.idleAt[tr.From] = ok
	}
	return nil
}

// liveShape recognises the liveness properties prove decides: the
// response properties of counterabs.PremisedLiveness (justice true), and
// the shapes in which ByMC's importer states a fairness premise in the
// formula, after a premise c on the initial configuration:
//
//	!E[a U EG (a & j)]         from the initial configurations
//	!EG a                      the same with j true
//	AG (p -> !E[a U EG (a & j)]) from every configuration satisfying p
//
// (and EG a for the EG part in the last; the last in every spelling
// counterabs.GuardedAG reads, such as !EF (p & E[...]), AG (!p |
// !E[...]) or AG !(E[...] & p), and a's conjuncts in a & j in any
// order, as presburger.SameUpToOrder reads them). E[a U EG (a & j)] holds
// where a path through a reaches a configuration from which a fair run
// stays in a & j: a run that never meets q = !a and on which j holds
// from some point on. So "every run on which j holds from some point on
// meets q", the response property with j as one more justice condition
// of its own. settledOnly is true for those shapes: prove decides them
// only on systems that settle (settles), where j at the configuration
// the run repeats is j from some point on.
func liveShape(f ctl.Formula) (premise, start, trigger, q, j presburger.Formula, settledOnly, ok bool) {
	if premise, start, trigger, q, ok := counterabs.PremisedLiveness(f); ok {
		return premise, start, trigger, q, presburger.True, false, true
	}
	premise, g := counterabs.Premise(f)
	if a, j, ok := avoidForever(g, true); ok {
		return premise, presburger.True, presburger.False, presburger.Negation(a), j, true, true
	}
	// AG (p -> !X), in every spelling counterabs.GuardedAG reads: !EF (p &
	// X), AG (!p | !X), AG !(X & p), AG (p1 -> p2 -> !X), either way round.
	p, x, ok := counterabs.GuardedAG(g)
	if !ok {
		return nil, nil, nil, nil, nil, false, false
	}
	a, j, ok := avoidForever(x, true)
	if !ok {
		return nil, nil, nil, nil, nil, false, false
	}
	return premise, p, p, presburger.Negation(a), j, true, true
}

// avoidForever recognises E[a U EG (a & j)] and EG a (j true), negated
// when negated is set, with a and j conditions on one state.
func avoidForever(f ctl.Formula, negated bool) (a, j presburger.Formula, ok bool) {
	if negated {
		n, isNot := f.(ctl.Not)
		if !isNot {
			return nil, nil, false
		}
		f = n.X
	}
	eg := func(f ctl.Formula) (ctl.Formula, bool) {
		u, isEG := f.(ctl.Unary)
		if !isEG || u.Op != ctl.EG {
			return nil, false
		}
		return u.X, true
	}
	if x, isEG := eg(f); isEG {
		a, ok := counterabs.StateFormula(x)
		return a, presburger.True, ok
	}
	u, isUntil := f.(ctl.Until)
	if !isUntil || u.All {
		return nil, nil, false
	}
	x, isEG := eg(u.R)
	if !isEG {
		return nil, nil, false
	}
	a, okA := counterabs.StateFormula(u.L)
	psi, okPsi := counterabs.StateFormula(x)
	if !okA || !okPsi {
		return nil, nil, false
	}
	// psi is a & j when a's conjuncts are among psi's: j is the others
	// (Conjuncts drops the true ones: the model may have simplified an
	// atom of a to a constant, a shared variable that never changes,
	// which Conj then drops from a & j). It may have simplified psi to false (an atom of j that no
	// state satisfies): then j is false.
	if psi == presburger.False {
		return a, presburger.False, true
	}
	have := presburger.Conjuncts(psi)
	for _, c := range presburger.Conjuncts(a) {
		k := slices.IndexFunc(have, func(h presburger.Formula) bool { return presburger.SameUpToOrder(h, c) })
		if k < 0 {
			return nil, nil, false
		}
		have = slices.Delete(have, k, k+1)
	}
	return a, presburger.Conj(have...), true
}

// IsLiveness reports whether prove decides f as a liveness property
// (liveShape), the shapes with a fairness premise only on a system that
// settles.
func IsLiveness(f ctl.Formula) bool {
	_, _, _, _, _, _, ok := liveShape(f)
	return ok
}

// settledWorkShare: the settled runs' question gets 1/settledWorkShare
// of the property's work (proveSettled).
const settledWorkShare = 4

// proveSettled answers the question of lq on a system that settles,
// with j the property's own justice condition, inv an inductive
// invariant of lq.ts (the lemmas and the linear invariants lis) and
// lemmas the lemmas in it: the safety question AG !lq.settled(j) by the
// lemmas, then a fair lasso at a small instance, then the prover on the
// model with the monitor strengthened by inv, without the variables the
// linear invariants define. A proof is re-checked
// (checkSettled); a reachable bad state the prover finds is made a
// refutation only by the lasso explore finds at its instance, replayed.
func proveSettled(ctx context.Context, cfg config, lq *liveQuestion, premise, j presburger.Formula, inv presburger.Formula, lemmas []Lemma, lis []linearInvariant, name string, prover presburger.Prover, solver presburger.Solver, res *Result) error {
	// The settled runs' safety question gets a quarter of the
	// property's work: with the whole of prove's default budget, the
	// ISoLA'18 liveness properties that the lemmas did not decide then
	// (bosco's fast0 and fast1, cc's and cf1s's termination) kept `vsym
	// prove FILE` running past five minutes in Spacer (bosco fast0
	// alone: 40 s at an eighth of it); the lemmas now decide all of
	// them (ghost.go, entrycount.go), with Spacer's help on the
	// strengthened system, whose work varies with the order of the
	// spec: bosco's fast0 with its transitions or states listed in
	// reverse, or an unused parameter, needed two to four times the
	// sixteenth it had (unknown at 0.5 s; proved in 0.6-1.9 s now). The
	// bound is work, so the answer is still the same on every machine.
	cfg.maxWork = max(cfg.maxWork/settledWorkShare, 1)
	if err := lq.findIdle(ctx, solver); err != nil {
		return err
	}
	bad := lq.settled(j)
	cert := &LiveCertificate{Settled: true}
	if ok, err := lq.unsatInv(ctx, solver, presburger.Conj(inv, bad)); err != nil {
		return err
	} else if ok {
		cert.Invariant = presburger.Conj(paramPart(lq.ts), inv)
		return lq.acceptSettled(ctx, solver, cert, j, lemmas, res)
	}
	if lq.trigger == presburger.False {
		return lq.proveAvoiding(ctx, cfg, j, premise, lemmas, name, prover, solver, res)
	}
	// A fair lasso at a small instance refutes the property: first
	// within liveQuickStates states, then, when the prover does not
	// prove the property, the whole search (refuteLive), which finds
	// the same lasso as when it came first.
	if found, err := refuteLiveWithin(ctx, cfg, lq.m, name, liveQuickStates, res); err != nil || found {
		return err
	}
	a, err := lq.proveMonitored(ctx, cfg, prover, inv, bad, lis)
	if err == nil && a.Verdict == presburger.Proved {
		cert.Invariant = presburger.Conj(paramPart(lq.ts), a.Invariant, inv)
		return lq.acceptSettled(ctx, solver, cert, j, lemmas, res)
	}
	if found, err := refuteLive(ctx, cfg, lq.m, name, res); err != nil || found {
		return err
	}
	if err != nil {
		res.Verdict, res.Reason = Unknown, "the prover failed on the safety question of the settled runs: "+err.Error()
		return nil
	}
	switch a.Verdict {
	case presburger.Refuted:
		if found, err := refuteLiveAt(ctx, cfg, lq.m, name, *a.Counterexample, res); err != nil || found {
			return err
		}
		res.Verdict = Unknown
		res.Reason = "the prover reaches a pending configuration where a fair run can stay, but exploring its instance found no fair run that fails"
	default:
		res.Verdict = Unknown
		res.Reason = "no invariant excludes the pending configurations where a fair run can stay (" + a.Reason + "); " + res.noLasso
		if a.Exhausted {
			res.Exhausted = ProverWork
		}
	}
	stopped(ctx, cfg, res)
	return nil
}

// checkSettled re-checks a certificate of a settling system: the system
// settles (settles, again), and its invariant is inductive on the model
// with the monitor and excludes every pending configuration where a
// fair run can stay (lq.settled(j)).
func (lq *liveQuestion) checkSettled(ctx context.Context, solver presburger.Solver, c *LiveCertificate, j presburger.Formula) error {
	if ok, why := settleCheck(lq.m); !ok {
		return fmt.Errorf("the system does not settle: %s", why)
	}
	ts := lq.ts
	ts.Bad = lq.settled(j)
	return presburger.CheckInvariant(ctx, solver, ts, c.Invariant)
}

// acceptSettled re-checks cert and fills res with the proof.
func (lq *liveQuestion) acceptSettled(ctx context.Context, solver presburger.Solver, cert *LiveCertificate, j presburger.Formula, lemmas []Lemma, res *Result) error {
	if err := lq.checkSettled(ctx, solver, cert, j); err != nil {
		if errUndecided(err) {
			res.Verdict, res.Reason = Unknown, "the certificate found could not be re-checked: "+err.Error()
			return nil
		}
		return errkind.Errorf(errkind.Internal, "the liveness certificate of a settling system fails the re-check: %w", err)
	}
	lq.provedSettled(cert, lemmas, res)
	return nil
}

// provedSettled fills res with cert, a certificate by settling
// re-checked on lq, and its texts.
func (lq *liveQuestion) provedSettled(cert *LiveCertificate, lemmas []Lemma, res *Result) {
	cert.m = lq.m
	cert.InvariantText = lq.format(cert.Invariant)
	cert.SettleText = potential(lq.m).Format(lq.varName)
	res.Verdict, res.Live, res.Lemmas = Proved, cert, lemmas
	res.Invariant, res.InvariantText = cert.Invariant, cert.InvariantText
}

// proveAvoiding answers the question of lq when the obligation opens at
// the initial configurations only (AF q, and the shapes with a fairness
// premise that read the initial configurations): then a configuration is
// pending exactly when a run that never met q reaches it, so the
// question is one of plain safety on the model whose steps keep q false
// (each transition's guard strengthened by "q is false after it", the
// initial configurations those where the premise and start hold and q
// does not): is a configuration where a fair run can stay reachable?
// That is asked by the whole safety search of proveOne, cheap methods
// first; its invariant I gives the certificate "pending = 0 | I", which
// is re-checked on the model with the monitor (checkSettled). When the
// safety question is refuted, or unknown, the small instances are
// explored for a fair lasso, replayed.
func (lq *liveQuestion) proveAvoiding(ctx context.Context, cfg config, j, premise presburger.Formula, lemmas []Lemma, name string, prover presburger.Prover, solver presburger.Solver, res *Result) error {
	notQ := presburger.Negation(lq.q)
	mm := *lq.m
	mm.Transitions = slices.Clone(lq.m.Transitions)
	for i := range mm.Transitions {
		mm.Transitions[i].Guard = presburger.Conj(mm.Transitions[i].Guard, lq.post(i, notQ))
	}
	var sub Result
	if err := proveByCases(ctx, cfg, &mm, premise, presburger.Conj(lq.start, notQ), presburger.Negation(presburger.Conj(notQ, lq.stays(j))), prover, solver, &sub); err != nil {
		return err
	}
	if sub.Verdict == Proved {
		idle := presburger.Compare(presburger.VarTerm(lq.pending), presburger.Eq, presburger.ConstTerm(0))
		cert := &LiveCertificate{Settled: true, Invariant: presburger.Conj(paramPart(lq.ts), presburger.Disj(idle, sub.Invariant))}
		return lq.acceptSettled(ctx, solver, cert, j, sub.Lemmas, res)
	}
	if found, err := refuteLive(ctx, cfg, lq.m, name, res); err != nil || found {
		return err
	}
	res.Verdict, res.Exhausted = Unknown, sub.Exhausted
	switch sub.Verdict {
	case Refuted:
		res.Reason = "a pending configuration where a fair run can stay is reachable at some instance, but " + res.noLasso
	default:
		res.Reason = "no invariant excludes the pending configurations where a fair run can stay (" + sub.Reason + "); " + res.noLasso
	}
	stopped(ctx, cfg, res)
	return nil
}

// proveMonitored asks prover whether bad is unreachable on the model
// with the monitor, strengthened by inv (inductive), without the
// variables the linear invariants lis define, in attempts of doubling
// work; the answer is over the model's variables again.
func (lq *liveQuestion) proveMonitored(ctx context.Context, cfg config, prover presburger.Prover, inv, bad presburger.Formula, lis []linearInvariant) (presburger.SafetyAnswer, error) {
	ts := strengthen(lq.ts, inv)
	ts.Bad = bad
	red, reduced := eliminate(lq.m, ts, lis)
	if reduced {
		ts = red.ts
	}
	a, err := proveRestarts(ctx, cfg, prover, ts)
	if reduced {
		a = red.answer(a)
	}
	return a, err
}
