package prove

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/progress"
)

// Verdict is the answer for one property.
type Verdict int

const (
	// Unknown: no answer (timeout, solver unknown, limit); Result.Reason
	// says why. Never to be read as Proved or Refuted.
	Unknown Verdict = iota
	// Proved: the property holds in every instance of the family.
	Proved
	// Refuted: the property fails in the instance of Result.Sizes.
	Refuted
	// Skipped: the property is of no form Check decides (AG phi, and
	// the response properties of liveness.go), so it was not asked.
	// Like Unknown, it is no success.
	Skipped
)

func (v Verdict) String() string {
	switch v {
	case Proved:
		return "proved"
	case Refuted:
		return "refuted"
	case Skipped:
		return "skipped"
	}
	return "unknown"
}

// Result is the answer for one property.
type Result struct {
	Property *gsst.Property
	Verdict  Verdict
	// Live (Proved, a liveness property) is the re-checked certificate;
	// Invariant and InvariantText are then its invariant.
	Live *LiveCertificate
	// Level is the counter model the prover was asked about, and
	// LevelReason why (unset for Skipped).
	Level       counterabs.Level
	LevelReason string
	// Invariant (Proved) is an inductive invariant over the variables of
	// the parametric model, re-checked; InvariantText prints it with the
	// counters as GSST writes them and |g| for the size of group g.
	Invariant     presburger.Formula
	InvariantText string
	// Sizes (Refuted) are the group sizes of the instance where the
	// property fails, Instance that instance, and Trace the run into a
	// state violating phi, as counter states with their replay on the
	// instance (Trace.Lifted).
	Sizes    []int
	Instance *gsst.System
	Trace    *explore.Trace
	// Reason says why the verdict is Unknown or Skipped, and, for a
	// refutation under fairness, how the fair continuation was found.
	// Stopped says, for Unknown, that the bound on the property
	// (Timeout) ran out.
	Reason   string
	Stopped  bool
	Duration time.Duration
	// Lemmas (Proved) are the invariants found before the prover ran
	// and given to it (lemma.go); Invariant includes them.
	Lemmas []Lemma
	// Params (Refuted, for a system with parameters) are the values of
	// the parameters at the refuting instance.
	Params []int
}

// Report is the outcome of Check.
type Report struct {
	System *gsst.System
	// Cert is the certification for every size, when it ran (some
	// safety property reads total counters only).
	Cert    *detect.Report
	Results []Result
	// Scope, for a system with parameters, says which instances "every
	// size" covers: the parameter values satisfying the assumption at
	// which every group has at least one process.
	Scope string
}

// Option configures Check.
type Option func(*config)

type config struct {
	timeout   time.Duration
	maxStates int64
	relaxed   presburger.Prover
	progress  progress.Func
}

// OnProgress has Check report to f: the certification's queries (phase
// progress.Certify), then each proof as it starts (progress.Proof,
// property K of N, or K zero for the safety properties of one model
// proved together). A proof reports nothing while the prover runs: a
// display shows how long it has been running.
func OnProgress(f progress.Func) Option { return func(c *config) { c.progress = f } }

// Timeout bounds the work on each property (the prover's search and the
// checks of its answer); zero means no bound beyond the context's.
func Timeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// RelaxedProver sets the prover of the relaxed first attempt (see
// proveRelaxed); by default it is Check's prover. A cheaper one fits
// there, since the attempt is given up on any answer but a proof.
func RelaxedProver(p presburger.Prover) Option { return func(c *config) { c.relaxed = p } }

// MaxStates bounds the explicit exploration of an instance that a
// refutation under fairness needs (default 1,000,000 states); beyond it
// the property is Unknown.
func MaxStates(n int64) Option { return func(c *config) { c.maxStates = n } }

// supported are the constructs beyond the paper that Check handles (on
// the group-counter model; TestProveExtendedRandom cross-checks them
// against explicit exploration of instances).
const supported = gsst.ExtShared | gsst.ExtParams | gsst.ExtBroadcast | gsst.ExtRendezvous

// skipReason is the Reason of a Skipped property.
// The command line adds how to check the property instead, which
// depends on the spec (its flags) and the file.
const skipReason = "not of a form prove decides (AG phi, AF q, AG (p -> AF q) or AG AF q, with phi, p and q conditions on one state)"

// Check answers every safety property of sys for every size in its
// ranges: prover searches for an invariant or a counterexample on the
// parametric counter model, and solver certifies the system and
// re-checks invariants. It returns an error only for a malformed system,
// a failing back end, or an answer that does not survive its re-check
// (an internal error: errkind.Internal); everything else is a Result.
func Check(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, opts ...Option) (*Report, error) {
	if err := sys.Unsupported("prove", supported); err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
	cfg := config{maxStates: 1_000_000}
	for _, o := range opts {
		o(&cfg)
	}
	rep := &Report{System: sys}
	// Two models at most, each built once: the total-counter one for the
	// properties over total counters (through BuildParam, which certifies
	// and falls back to the group-counter model), the group-counter one
	// for the others.
	var total, group *counterabs.ParamModel
	var totalProps, groupProps []int // indices into sys.Properties
	for i := range sys.Properties {
		p := &sys.Properties[i]
		if _, ok := counterabs.SafetyFormula(p.Formula); !ok {
			continue
		}
		if counterabs.PropertyLevel(sys, p) == counterabs.GroupLevel {
			groupProps = append(groupProps, i)
		} else {
			totalProps = append(totalProps, i)
		}
	}
	if len(totalProps) > 0 {
		m, err := counterabs.BuildParam(ctx, sys.WithProperties(totalProps...), solver, counterabs.OnProgress(cfg.progress))
		if err != nil {
			return nil, err
		}
		total, rep.Cert = m, m.Cert
	}
	if len(groupProps) > 0 {
		m, err := counterabs.BuildParamGroup(sys.WithProperties(groupProps...))
		if err != nil {
			return nil, err
		}
		m.Reason = "the property reads group counters, which only the group-counter model keeps"
		group = m
	}
	for _, m := range []*counterabs.ParamModel{total, group} {
		if m != nil && m.Scope != "" {
			rep.Scope = m.Scope + emptyGroups(ctx, solver, m)
		}
	}
	// Several safety properties of one model are first proved together,
	// AG (phi1 & ... & phik): one search for an invariant instead of k
	// (ASR with 10 resources has 10 mutual exclusions over the same
	// model, each search costing about the same). Only when that fails
	// is each asked alone, so that one failing property does not take
	// the others with it.
	joint := map[*counterabs.ParamModel]*Result{}
	var live *counterabs.ParamModel // the group-counter model of the liveness properties, built when first needed
	for _, m := range []*counterabs.ParamModel{total, group} {
		if m == nil {
			continue
		}
		var phis []presburger.Formula
		for i := range m.Properties {
			if phi, ok := counterabs.SafetyFormula(m.Properties[i].Formula); ok {
				phis = append(phis, phi)
			}
		}
		if len(phis) < 2 {
			continue
		}
		res := Result{}
		start := time.Now()
		cfg.progress.Report(progress.Event{Phase: progress.Proof, Engine: progress.NameOf(prover), Item: fmt.Sprintf("%d safety properties together", len(phis))})
		if err := proveOne(ctx, cfg, m, presburger.Conj(phis...), "", prover, solver, &res); err != nil {
			return nil, err
		}
		res.Duration = time.Since(start)
		if res.Verdict == Proved {
			res.Reason = fmt.Sprintf("proved together with the other safety properties on this model (%d in all), by one invariant", len(phis))
			joint[m] = &res
		}
	}
	for i := range sys.Properties {
		p := &sys.Properties[i]
		res := Result{Property: p}
		m := total
		if counterabs.PropertyLevel(sys, p) == counterabs.GroupLevel {
			m = group
		}
		if _, ok := counterabs.SafetyFormula(p.Formula); !ok {
			start := time.Now()
			err := checkLive(ctx, cfg, rep, i, prover, solver, &live, &res)
			res.Duration = time.Since(start)
			if err != nil {
				return nil, fmt.Errorf("property %s: %w", p.Name, err)
			}
			rep.Results = append(rep.Results, res)
			continue
		}
		if j := joint[m]; j != nil {
			res = *j
			res.Property = p
			rep.Results = append(rep.Results, res)
			continue
		}
		var phi presburger.Formula
		for k := range m.Properties {
			if q := &m.Properties[k]; q.Name == p.Name {
				phi, _ = counterabs.SafetyFormula(q.Formula)
			}
		}
		if phi == nil {
			return nil, errkind.Errorf(errkind.Internal, "the parametric model has no safety property %s", p.Name)
		}
		start := time.Now()
		cfg.progress.Report(progress.Event{Phase: progress.Proof, Engine: progress.NameOf(prover), Item: p.Name, K: i + 1, N: len(sys.Properties)})
		err := proveOne(ctx, cfg, m, phi, p.Name, prover, solver, &res)
		res.Duration = time.Since(start)
		if err != nil {
			return nil, fmt.Errorf("property %s: %w", p.Name, err)
		}
		rep.Results = append(rep.Results, res)
	}
	return rep, nil
}

// proveOne asks prover whether AG phi holds on m, phi over m's
// variables, and fills res; name is the property's, for a refutation.
func proveOne(ctx context.Context, cfg config, m *counterabs.ParamModel, phi presburger.Formula, name string, prover presburger.Prover, solver presburger.Solver, res *Result) error {
	res.Level, res.LevelReason = m.Level, m.Reason
	if cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
	}
	ps := m.TransitionSystem()
	ts := presburger.TransitionSystem{
		Vars: ps.Vars, Next: ps.Next, Params: ps.Params, Domain: ps.Domain,
		Init: ps.Init, Trans: ps.Trans, Bad: presburger.Negation(phi),
	}
	if proveRelaxed(ctx, cfg, m, ts, prover, solver, res) {
		return nil
	}
	// With shared variables the lemmas come first: the thresholds of a
	// distributed algorithm are what Spacer misses (issue 20). Without,
	// the prover gets a first try alone, and the lemmas only when it has
	// not answered within a part of the time.
	if m.System.Extensions() == 0 {
		qctx, cancel := context.WithTimeout(ctx, quickBudget(ctx))
		a, err := prover.Prove(qctx, ts)
		cancel()
		if err != nil {
			return err
		}
		if a.Verdict != presburger.Undecided || ctx.Err() != nil {
			return answer(ctx, cfg, m, ts, a, nil, name, solver, res)
		}
	}
	lemmas, err := houdini(ctx, solver, ts, candidates(m, ts))
	if err != nil {
		return err
	}
	lemmas = prune(ctx, solver, ts, lemmas)
	if len(lemmas) == 0 && m.System.Extensions() == 0 {
		// Nothing new to say: the prover's own answer, with what time
		// is left.
		a, err := prover.Prove(ctx, ts)
		if err != nil {
			return err
		}
		return answer(ctx, cfg, m, ts, a, nil, name, solver, res)
	}
	if len(lemmas) > 0 {
		inv := lemmaConj(lemmas)
		// The lemmas may prove the property on their own.
		if presburger.CheckInvariant(ctx, solver, ts, inv) == nil {
			return answer(ctx, cfg, m, ts, presburger.SafetyAnswer{Verdict: presburger.Proved, Invariant: inv}, lemmas, name, solver, res)
		}
		if a, ok, err := searchFirst(ctx, m, ts, solver); err != nil || ok {
			if err != nil {
				return err
			}
			return answer(ctx, cfg, m, ts, a, nil, name, solver, res)
		}
		a, err := proveRestarts(ctx, prover, strengthen(ts, inv))
		if err != nil {
			return err
		}
		if a.Verdict == presburger.Proved {
			a.Invariant = presburger.Conj(a.Invariant, inv)
		}
		return answer(ctx, cfg, m, ts, a, lemmas, name, solver, res)
	}
	if a, ok, err := searchFirst(ctx, m, ts, solver); err != nil || ok {
		if err != nil {
			return err
		}
		return answer(ctx, cfg, m, ts, a, nil, name, solver, res)
	}
	a, err := proveRestarts(ctx, prover, ts)
	if err != nil {
		return err
	}
	return answer(ctx, cfg, m, ts, a, nil, name, solver, res)
}

// firstAttempt is the budget of the prover's first attempt in
// proveRestarts; each further one gets twice the one before.
const firstAttempt = time.Second

// proveRestarts asks prover about ts in attempts of growing budgets
// (firstAttempt, twice that, ...) until one answers or ctx ends. Spacer's
// time on one question varies by orders of magnitude from one Z3
// context to another (nbac's proof: 0.4 s in most of 20 runs, 10 s to
// 2 minutes in four), and a restart gets another context; doubling
// bounds what the restarts cost to about the time of the last attempt.
// An attempt that gives up before its budget (no counterexample within
// the unrolling bound, a solver's unknown) is the answer.
func proveRestarts(ctx context.Context, prover presburger.Prover, ts presburger.TransitionSystem) (presburger.SafetyAnswer, error) {
	for budget := firstAttempt; ; budget *= 2 {
		actx, cancel := context.WithTimeout(ctx, budget)
		a, err := prover.Prove(actx, ts)
		expired := actx.Err() != nil
		cancel()
		if err != nil || a.Verdict != presburger.Undecided || !expired || ctx.Err() != nil {
			return a, err
		}
	}
}

// searchFirst runs the explicit search of small instances (search.go)
// on a system with constructs beyond the paper, and returns its run as
// the prover's answer, replayed on ts, when it finds one (ok). A run that
// does not replay is an internal error.
func searchFirst(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, solver presburger.Solver) (presburger.SafetyAnswer, bool, error) {
	if m.System.Extensions() == 0 {
		return presburger.SafetyAnswer{}, false, nil
	}
	cex := searchSmall(ctx, m, ts)
	if cex == nil {
		return presburger.SafetyAnswer{}, false, nil
	}
	if err := presburger.Replay(ctx, solver, ts, *cex); err != nil {
		return presburger.SafetyAnswer{}, false, errkind.Errorf(errkind.Internal, "the run found by exploring a small instance does not replay on the model: %w", err)
	}
	return presburger.SafetyAnswer{Verdict: presburger.Refuted, Counterexample: cex}, true, nil
}

// emptyGroups says whether the assumption of m's system leaves
// parameter values at which some group sized over the parameters would
// have no process (those are no instances, and nothing is claimed for
// them), with an example, or that it rules them out; "" when no group
// is sized over the parameters or the solver cannot tell.
func emptyGroups(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel) string {
	sys := m.System
	var bounds []presburger.Bound
	for k := range sys.Params {
		bounds = append(bounds, presburger.AtLeast(m.ParamVar(k), 0))
	}
	var empty []presburger.Formula
	for g := range sys.Groups {
		bounds = append(bounds, presburger.AnyInt(m.SizeVar(g)))
		if sys.Groups[g].OverParams() {
			empty = append(empty, presburger.Compare(presburger.VarTerm(m.SizeVar(g)), presburger.Lt, presburger.ConstTerm(1)))
		}
	}
	if len(empty) == 0 {
		return ""
	}
	a, err := solver.Solve(ctx, presburger.Problem{Bounds: bounds, F: presburger.Conj(m.Constraint, presburger.Disj(empty...))})
	switch {
	case err != nil || a.Result == presburger.Unknown:
		return ""
	case a.Result == presburger.Unsat:
		return "; the assumption implies that every group has a process"
	}
	vals := make([]string, len(sys.Params))
	for k, p := range sys.Params {
		vals[k] = fmt.Sprintf("%s=%d", p.Name, a.Model[m.ParamVar(k)])
	}
	return "; values at which some group would be empty, such as " + strings.Join(vals, ", ") + ", are not instances"
}

// quickBudget is the time the prover gets alone on a system without
// shared variables before lemmas are searched: a quarter of what is
// left, at most 10 s (no proof of the bundled specs takes one).
func quickBudget(ctx context.Context) time.Duration {
	d := 10 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(dl)/4)
	}
	return d
}

// answer fills res from the prover's answer on ts (the model m's system
// with Bad the negation of the property), re-checking it: an invariant
// with CheckInvariant on ts itself, a counterexample by replay on the
// instance. lemmas are those the invariant includes.
func answer(ctx context.Context, cfg config, m *counterabs.ParamModel, ts presburger.TransitionSystem, ans presburger.SafetyAnswer, lemmas []Lemma, name string, solver presburger.Solver, res *Result) error {
	switch ans.Verdict {
	case presburger.Proved:
		// The prover re-checked it, by contract; check again here so
		// that "proved" never rests on one implementation's word.
		err := presburger.CheckInvariant(ctx, solver, ts, ans.Invariant)
		var ue *presburger.UndecidedError
		switch {
		case errors.As(err, &ue):
			res.Verdict, res.Reason = Unknown, "the invariant found could not be re-checked: "+ue.Error()
			return nil
		case err != nil:
			return errkind.Errorf(errkind.Internal, "the prover's invariant %s fails the re-check: %w",
				m.FormatFormula(ans.Invariant), err)
		}
		res.Verdict, res.Invariant = Proved, ans.Invariant
		res.InvariantText = FormatInvariant(ans.Invariant, m.VarName, m.TypedAtom)
		res.Lemmas = lemmas
	case presburger.Refuted:
		if ans.Counterexample == nil {
			return errkind.Errorf(errkind.Internal, "the prover refuted the property without a counterexample")
		}
		if name == "" {
			// A joint question: each property is asked alone next.
			res.Verdict = Refuted
			return nil
		}
		// The run is replayed on the instance, not on the model.
		return refute(ctx, cfg, m, name, *ans.Counterexample, res)
	default:
		res.Verdict, res.Reason = Unknown, ans.Reason
		if ctx.Err() != nil && cfg.timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			res.Reason, res.Stopped = fmt.Sprintf("timeout after %s (%s)", cfg.timeout, ans.Reason), true
		}
	}
	return nil
}

// relaxBudget bounds the first attempt on the relaxed system (relaxed)
// when no timeout is set; with one, the attempt gets a quarter of it.
const relaxBudget = 15 * time.Second

// proveRelaxed tries to prove AG phi on the relaxed system of ts, within
// part of the time allowed, and reports whether it did: then res holds
// the proof, its invariant re-checked on ts itself. Any other outcome
// (refuted, unknown, an error, an invariant that fails on ts, the
// context ending) leaves res alone and the question goes to ts, whose
// search then gives the answer, an Unknown for a timeout included.
func proveRelaxed(ctx context.Context, cfg config, m *counterabs.ParamModel, ts presburger.TransitionSystem, prover presburger.Prover, solver presburger.Solver, res *Result) bool {
	rts, ok := relaxed(m, ts)
	if !ok {
		return false
	}
	budget := relaxBudget
	if cfg.timeout > 0 {
		budget = cfg.timeout / 4
	}
	rctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	if cfg.relaxed != nil {
		prover = cfg.relaxed
	}
	ans, err := prover.Prove(rctx, rts)
	if err != nil || ans.Verdict != presburger.Proved {
		return false
	}
	if presburger.CheckInvariant(ctx, solver, ts, ans.Invariant) != nil {
		return false
	}
	res.Verdict, res.Invariant = Proved, ans.Invariant
	res.InvariantText = FormatInvariant(ans.Invariant, m.VarName, m.TypedAtom)
	return true
}
