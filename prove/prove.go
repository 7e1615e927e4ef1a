package prove

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
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
	// Skipped: the property is of no form Check decides (AG phi, the
	// response properties of liveness.go, and conjunctions of those,
	// parts.go), so it was not asked. Like Unknown, it is no success.
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
	// Sliced, when not nil, is the system whose answer this is:
	// Report.System without the shared variables nothing reads (gsst's
	// SliceUnread), which the property was asked of, when the answer
	// could not be carried to Report.System (a liveness certificate, an
	// invariant whose re-check on Report.System's model the solver could
	// not decide, a run that is no AG phi refutation); Invariant is then
	// over the sliced system's model. Nil when the answer is
	// Report.System's own: every proof the slicing found is re-checked
	// on Report.System's model, and every run replayed on its instance
	// (derived.go).
	Sliced *gsst.System
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
	Reason  string
	Stopped bool
	// Exhausted says, for Unknown, which budget of work ran out ("" when
	// none did): the answer is the same on every machine, and more of
	// that budget may give one. The CLI's hint to raise --property-work
	// keys on it.
	Exhausted Budget
	Duration  time.Duration
	// Lemmas (Proved) are the invariants found before the prover ran
	// and given to it (lemma.go); Invariant includes them.
	Lemmas []Lemma
	// Params (Refuted, for a system with parameters) are the values of
	// the parameters at the refuting instance.
	Params []int
	// Method (Proved, Refuted) says which step of the search answered
	// (docs/prove.md, "Cheap first").
	Method Method
	// Parts, for a property asked part by part (parts.go), are the
	// results of its parts in order, each with a Property of its own
	// ("all (part 1 of 2)"); Verdict is theirs combined (Refuted when
	// one is, Proved when all are, Unknown otherwise, Reason naming the
	// parts undecided), and a Refuted one has the Sizes, Params,
	// Instance, Trace and model of its first refuted part, whose run is
	// the evidence. Nil for a property asked whole.
	Parts []Result
	// jointRun is, for a joint question refuted (proveJoint), the run
	// on the model, replayed there.
	jointRun *presburger.Counterexample
	// run is, for a refutation, the run on the model that refute
	// replayed on the instance (a family's, proveOnFamily, may be
	// carried to an instance of the family).
	run *presburger.Counterexample
	// proof is, for a proof of a safety question, the model and the
	// question its invariant was checked on (derived.go).
	proof *safetyProof
	// askedAgain says that a derived question's refutation could not
	// be carried to the system given, which was asked again (for the
	// tests: a carrying that fails where it should not is no wrong
	// answer, only a slow one).
	askedAgain bool
	// groupsMerged lists, for an answer of a system with groups merged
	// (mergegroups.go), the groups of the system as written read as
	// one, each list one merged group; groupNote is what LevelReason
	// says of them.
	groupsMerged [][]string
	groupNote    string
	// explored is, for a liveness property of a family of one instance,
	// that instance explored whole with the property holding on every
	// fair run (lassoAt); exploredProof makes it the proof.
	explored *exploredInstance
	// noLasso says what refuteLive explored for a liveness property it
	// found no fair run failing (noLassoText).
	noLasso string
}

// Budget names a budget of work, counted the same way on every machine.
type Budget string

const (
	// ProverWork: Z3's resource limit of the prover's last attempt
	// (MaxWork).
	ProverWork Budget = "prover work"
	// StateBudget: the states the explicit exploration of an instance
	// may visit under fairness (MaxStates).
	StateBudget Budget = "states"
)

// Method names a step of Check's search for an answer, cheapest first.
type Method string

const (
	// ByRelaxed: an invariant of the relaxed model (relax.go).
	ByRelaxed Method = "relaxed model"
	// ByLemmas: the lemmas and the property, filtered by Houdini's
	// algorithm, with the linear invariants of the system as facts.
	ByLemmas Method = "lemmas"
	// ByInduction: the property is inductive on its own, or together
	// with the linear invariants of the system.
	ByInduction Method = "induction"
	// ByStateEquation: the state equation (equation.go), by a linear
	// inequality per disjunct of the bad states.
	ByStateEquation Method = "state equation"
	// ByCoverability: the backward coverability search of a system
	// whose steps are monotone (cover.go), by its run or its fixpoint.
	ByCoverability Method = "backward coverability"
	// ByExploration: every reachable state of a family of one instance,
	// explored (search.go): a run, or the reachable states as the
	// invariant; for a liveness property, every fair run of the
	// instance, explored by both engines (exploredProof).
	ByExploration Method = "exploration"
	// BySearch: a run found by exploring the small instances.
	BySearch Method = "small instances"
	// ByProver: the prover (Spacer, and its bounded search).
	ByProver Method = "prover"
	// ByOthers: the invariants proved for the other safety properties
	// of the model, which imply the property (byOthers).
	ByOthers Method = "other properties' invariants"
)

// Report is the outcome of Check.
type Report struct {
	System *gsst.System
	// Cert is the certification for every size, when it ran (some
	// safety property reads total counters only): its Verdict is the
	// system's, and a violation names one violated step, where the
	// certification stopped (detect's FirstViolation; vsym check finds
	// them all).
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
	maxWork   int64
	relaxed   presburger.Prover
	// joint marks the question of Check on several safety properties
	// together: proveOne skips the small instances (a run refutes one
	// property, which each asked alone finds) and gives the prover
	// jointWork at most.
	joint bool
	// linearOnly (a joint question asked again) has proveOne stop
	// after the backward search, which gets an eighth of its work
	// (coverWork): the steps that follow, and a search that runs out,
	// cost more on the conjunction than on each property alone, which
	// is where a property the search does not refute goes.
	linearOnly bool
	// cheapOnly has proveOne stop after the backward search too, which
	// gets half its work (a family's attempt, family.go). Its
	// candidates that hold by construction (tryProof's mustHold) are
	// not checked on the family's model: proveOnFamily checks what it
	// takes on the instance's own, the check that counts.
	cheapOnly   bool
	checker     presburger.Solver
	liveChecker presburger.Solver
	progress    progress.Func
	// apart names the safety properties asked alone, never in a joint
	// question: the negations of reachability properties (reach.go),
	// whose runs are the answer a user expects, and which would put a
	// failing property into the joint question of the others.
	apart map[string]bool
}

// coverWork is the work of the backward search (cover.go's coverWork,
// an eighth of it for a joint question asked again, half for a
// family's attempt).
func (c config) coverWork() int64 {
	switch {
	case c.linearOnly:
		return coverWork / 8
	case c.cheapOnly:
		return coverWork / 2
	}
	return coverWork
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

// MaxWork bounds the work of the prover on each property: no attempt
// (proveRestarts) gets more than n units of Z3's resource limit, and a
// property the last one cannot answer is Unknown for want of work, on
// every machine alike (default about half an hour of work).
func MaxWork(n int64) Option { return func(c *config) { c.maxWork = n } }

// RelaxedProver sets the prover of the relaxed first attempt (see
// proveRelaxed); by default it is Check's prover. A cheaper one fits
// there, since the attempt is given up on any answer but a proof.
func RelaxedProver(p presburger.Prover) Option { return func(c *config) { c.relaxed = p } }

// CheckSolver sets the solver of the queries asked about one property
// (the checks of candidate invariants, the lemmas' filters, the state
// equation, replays); by default it is Check's solver, which certifies.
// A solver with a smaller work bound per query keeps a property whose
// candidates are large (an invariant over hundreds of counters) from
// spending the certification's budget on each check: a check that runs
// out of work leaves the property Unknown, never wrongly proved.
func CheckSolver(s presburger.Solver) Option { return func(c *config) { c.checker = s } }

// LiveSolver sets the solver of the queries asked about a liveness
// property; by default it is the CheckSolver. The search of a liveness
// proof follows the models of its queries (the lemmas Houdini keeps,
// the ranks it synthesizes), so a caller that puts a faster solver in
// front of Z3 for the rest may keep Z3's models here.
func LiveSolver(s presburger.Solver) Option { return func(c *config) { c.liveChecker = s } }

// MaxStates bounds the explicit exploration of an instance that a
// refutation under fairness needs (default 1,000,000 states); beyond it
// the property is Unknown.
func MaxStates(n int64) Option { return func(c *config) { c.maxStates = n } }

// skipReason is the Reason of a Skipped property.
// The command line adds how to check the property instead, which
// depends on the spec (its flags) and the file.
const skipReason = "not of a form prove decides (AG phi or !EF c, AG (p -> AG q) where no step leaves p, EF c without fairness, AF q, AG (p -> AF q) or AG AF q, each also as c -> f, from the initial configurations where c holds, with c, phi, p and q conditions on one state, and conjunctions of these, also under one AG)"

// Check answers every safety property of sys for every size in its
// ranges: prover searches for an invariant or a counterexample on the
// parametric counter model, and solver certifies the system and
// re-checks invariants. It returns an error only for a malformed system,
// a failing back end, or an answer that does not survive its re-check
// (an internal error: errkind.Internal); everything else is a Result.
//
// A property written as a conjunction of forms Check decides, such as
// AG ((p1 -> AF q1) & (p2 -> AF q2)), is asked part by part, and its
// Result has the parts' results in Parts (parts.go).
func Check(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, opts ...Option) (*Report, error) {
	// A family with no instance has every property vacuously: refuse it.
	if err := detect.HasInstance(ctx, sys, solver); err != nil {
		return nil, err
	}
	// A parameter the assumption pins to one value is that value
	// (gsst's PinParams): the same family, with constants where the
	// stages read them best.
	given := sys
	sys, pinned, err := sys.PinParams()
	if err != nil {
		return nil, err
	}
	rep, err := checkSameRuns(ctx, sys, prover, solver, opts...)
	if err != nil {
		return nil, err
	}
	if pinned {
		// The certificates are of the pinned family: say which values.
		var values []string
		for k, p := range sys.Params {
			if p.Fixed && !given.Params[k].Fixed {
				values = append(values, fmt.Sprintf("%s = %d", p.Name, p.Value))
			}
		}
		rep.System = given
		// The answers are carried to the family as given (derived.go):
		// an invariant re-checked on its model, where the assumption
		// (paramPart) gives the parameter its value; a run replayed on
		// its instance at the same values.
		checker := checkerOf(solver, opts)
		models := newGivenModels(given, checker)
		for i := range rep.Results {
			r := &rep.Results[i]
			r.Property = &given.Properties[i]
			carried := false
			if r.Invariant != nil && r.Live == nil && r.proof != nil {
				if carried, err = carryInto(ctx, models.at(ctx, r.proof.m.Level), given.Properties[i].Name, checker, r); err != nil {
					return nil, err
				}
			}
			if r.Trace != nil {
				carried = liftRun(ctx, given, i, r)
			}
			if r.LevelReason != "" {
				r.LevelReason += "; " + strings.Join(values, ", ") + " read as the assumption pins them"
				switch {
				case carried && r.Trace != nil:
					r.LevelReason += ", the run replayed on the family as written"
				case carried:
					r.LevelReason += ", the invariant re-checked on the family as written"
				}
			}
		}
	}
	for i := range rep.Results {
		noteLeftOut(&rep.Results[i])
	}
	return rep, nil
}

// noteLeftOut has the LevelReason of r and of its parts say, for a
// certificate over a model that leaves out the counters of states a
// group never enters (counterabs' Sparse), that those counters are 0:
// its invariant and ranks do not write them.
func noteLeftOut(r *Result) {
	for i := range r.Parts {
		noteLeftOut(&r.Parts[i])
	}
	var m *counterabs.ParamModel
	switch {
	case r.Live != nil:
		m = r.Live.m
	case r.proof != nil:
		m = r.proof.m
	}
	if r.Invariant != nil && r.LevelReason != "" && m != nil && m.Sparse() {
		r.LevelReason += "; a group's counters of states it never enters are 0, not written"
	}
}

// checkSliced is Check on sys, whose parameters are pinned: on sys
// without the shared variables nothing reads (gsst's SliceUnread), when
// it has some. The runs of the sliced system are those of sys without
// those variables' values, so its answers are sys's, and they are
// carried to sys (derived.go): a proof's invariant, over the variables
// kept, is re-checked on sys's own model (liftProof), and a run is
// taken again by sys's processes, which computes the values left out,
// and replayed on sys's instance (liftRun). Only a refutation whose run
// cannot be carried so (a lasso, a fair run under justice, a property
// asked in another form: parts, stable premises, reachability) is
// asked again of sys itself, so that the run reported is one of sys;
// a proof that cannot be carried (the solver cannot decide the check)
// stays the sliced system's, which Result.Sliced names. Other answers
// (unknown, skipped) stand: sys has every run of the sliced system and
// more state, and the same forms.
func checkSliced(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, opts ...Option) (*Report, error) {
	sliced, cut, err := sys.SliceUnread()
	if err != nil {
		return nil, err
	}
	if len(cut) == 0 {
		return checkTight(ctx, sliced, prover, solver, opts...)
	}
	// The sliced system's checks are remembered, and the re-checks of
	// its proofs on sys, whose queries are the same ones over sys's
	// numbering of the variables (the variables left out are read by
	// no atom of them), get their answers without asking again
	// (presburger's Memo): a proof costs sys one check, as it costs
	// the system written without those variables.
	memo := presburger.NewMemo(checkerOf(solver, opts))
	rep, err := checkTight(ctx, sliced, prover, solver, append(slices.Clip(opts), CheckSolver(memo))...)
	if err != nil {
		return rep, err
	}
	memo.Answering()
	checker := presburger.Solver(memo)
	given := newGivenModels(sys, checker)
	note := strings.Join(cut, ", ") + " left out, as nothing reads it"
	if len(cut) > 1 {
		note = strings.Join(cut, ", ") + " left out, as nothing reads them"
	}
	var again []int
	lifted := liftedProofs{}
	for i := range rep.Results {
		r := &rep.Results[i]
		r.Property = &sys.Properties[i]
		carried, err := carrySliced(ctx, given, checker, sys, i, r, lifted)
		if err != nil {
			return nil, err
		}
		if r.LevelReason != "" {
			r.LevelReason += "; " + note
			switch {
			case carried && r.Verdict == Proved && r.Trace == nil:
				r.LevelReason += " (the invariant re-checked with it)"
			case carried && r.Trace != nil:
				r.LevelReason += " (the run replayed with it)"
			}
		}
		if !carried {
			r.Sliced = sliced
		}
		if r.Verdict == Refuted && !carried {
			again = append(again, i)
		}
	}
	rep.System = sys
	if len(again) == 0 {
		return rep, nil
	}
	// The runs that could not be carried: asked again of sys.
	whole, err := checkSplit(ctx, sys.WithProperties(again...), prover, solver, opts...)
	if err != nil {
		return nil, err
	}
	for k, i := range again {
		rep.Results[i] = whole.Results[k]
		rep.Results[i].Property = &sys.Properties[i]
		rep.Results[i].askedAgain = true
	}
	return rep, nil
}

// carrySliced carries r, the answer of the sliced system's property
// index, to sys (liftProof, liftRun), and its parts with it; carried
// says that the whole answer is now sys's: every invariant re-checked
// on sys's model, the run replayed on sys's instance. An answer with
// neither (unknown, skipped) is carried as it is.
func carrySliced(ctx context.Context, given *givenModels, checker presburger.Solver, sys *gsst.System, index int, r *Result, lifted liftedProofs) (carried bool, err error) {
	carried = true
	for k := range r.Parts {
		ok, err := carrySliced(ctx, given, checker, sys, -1, &r.Parts[k], lifted)
		if err != nil {
			return false, err
		}
		carried = carried && ok
	}
	if r.Invariant != nil && r.Live == nil {
		ok, err := lifted.lift(ctx, given, checker, r)
		if err != nil {
			return false, err
		}
		carried = carried && ok
	} else if r.Live != nil {
		carried = false
	}
	if r.Trace != nil {
		carried = carried && index >= 0 && liftRun(ctx, sys, index, r)
	}
	return carried, nil
}

// liftedProofs remembers what liftProof made of each proof it carried,
// by the proof: the properties that one invariant proved together
// (proveJoint) share it, and carrying it is the same check for each of
// them, on the joint question's initial and bad states (mist's bingham
// with 153 places as shared variables, a property per place, and a
// flag that nothing reads: 153 checks of one invariant took 8 s of CPU,
// the one check what the slice's proof did).
type liftedProofs map[*safetyProof]liftedProof

// liftedProof is one carried proof: the invariant it carried, and the
// certificate on the system as written it became (ok false: it did not
// carry).
type liftedProof struct {
	from presburger.Formula
	ok   bool
	cert Result // Invariant, InvariantText, Level, proof and Lemmas
}

// lift is liftProof on res, once per proof and invariant: a result that
// carries the proof and invariant of one already carried gets its
// certificate (or, when that did not carry, is not carried either).
func (l liftedProofs) lift(ctx context.Context, given *givenModels, checker presburger.Solver, res *Result) (bool, error) {
	p, from := res.proof, res.Invariant
	if c, seen := l[p]; seen && p != nil && reflect.DeepEqual(c.from, from) {
		if c.ok {
			res.takeCertificate(&c.cert)
		}
		return c.ok, nil
	}
	ok, err := liftProof(ctx, given, checker, res)
	if err != nil || p == nil {
		return ok, err
	}
	l[p] = liftedProof{from: from, ok: ok, cert: *res}
	return ok, nil
}

// checkSplit is Check on sys, whose parameters are pinned and whose
// shared variables are all read: AG (p -> AG q) with p stable asked as
// AG (p -> q) (stable.go), EF c as !EF c (reach.go), each property
// asked part by part when it is a conjunction of forms Check decides
// (parts.go), and after an initial phase where one ends (phase.go).
func checkSplit(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, opts ...Option) (*Report, error) {
	stabled, stable, err := stableProperties(ctx, sys, solver)
	if err != nil {
		return nil, err
	}
	reached, reach, err := reachProperties(stabled)
	if err != nil {
		return nil, err
	}
	asked, split, err := splitProperties(reached)
	if err != nil {
		return nil, err
	}
	if reach != nil {
		opts = append(opts, askApart(reached, reach))
	}
	rep, err := checkPhased(ctx, asked, prover, solver, opts...)
	if err != nil {
		return nil, err
	}
	if split != nil {
		fold(rep, reached, split)
	}
	if reach != nil {
		foldReach(rep, sys, reach)
	}
	if stable != nil {
		foldStable(rep, sys, stable)
	}
	return rep, nil
}

// check is Check on sys, whose properties are asked as they are.
func check(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, opts ...Option) (*Report, error) {
	cfg := config{maxStates: 1_000_000, maxWork: lastWork}
	for _, o := range opts {
		o(&cfg)
	}
	rep := &Report{System: sys}
	checker := solver
	if cfg.checker != nil {
		checker = cfg.checker
	}
	liveChecker := checker
	if cfg.liveChecker != nil {
		liveChecker = cfg.liveChecker
	}
	// Two models at most, each built once: the total-counter one for the
	// properties over total counters (through BuildParam, which certifies
	// and falls back to the group-counter model), the group-counter one
	// for the others.
	var total, group *counterabs.ParamModel
	var totalProps, groupProps []int // indices into sys.Properties
	for i := range sys.Properties {
		p := &sys.Properties[i]
		if _, _, ok := counterabs.PremisedSafety(p.Formula); !ok {
			continue
		}
		if counterabs.PropertyLevel(sys, p) == counterabs.GroupLevel {
			groupProps = append(groupProps, i)
		} else {
			totalProps = append(totalProps, i)
		}
	}
	if len(totalProps) > 0 {
		m, err := counterabs.BuildParam(ctx, sys.WithProperties(totalProps...), solver, counterabs.OnProgress(cfg.progress), counterabs.RunSteps(), counterabs.FirstViolation())
		if err != nil {
			return nil, err
		}
		m.ShortenSums()
		if total, err = firing(ctx, checker, m); err != nil {
			return nil, err
		}
		rep.Cert = m.Cert
	}
	if len(groupProps) > 0 {
		m, err := counterabs.BuildParamGroup(sys.WithProperties(groupProps...), counterabs.RunSteps())
		if err != nil {
			return nil, err
		}
		m.ShortenSums()
		m.Reason = "the property reads group counters, which only the group-counter model keeps"
		if group, err = firing(ctx, checker, m); err != nil {
			return nil, err
		}
	}
	// The backward search (cover.go) does not read a total-counter
	// model whose guards have locals (group counters under a
	// quantifier: the guards differ across groups); it reads the
	// group-counter model of those properties instead, exact for every
	// GSST (one group per rule of a Petri net, readers and writers).
	var coverGroup *counterabs.ParamModel
	if total != nil && total.Level == counterabs.TotalLevel && readsLocals(total) {
		m, err := counterabs.BuildParamGroup(sys.WithProperties(totalProps...), counterabs.RunSteps())
		if err != nil {
			return nil, err
		}
		m.ShortenSums()
		m.Reason = "the total-counter model's guards count processes by group under a quantifier, which the backward coverability search does not read; the group-counter model is exact too"
		if coverGroup, err = firing(ctx, checker, m); err != nil {
			return nil, err
		}
	}
	coverOn := func(m *counterabs.ParamModel, name string) *coverModel {
		if m != total || coverGroup == nil {
			return nil
		}
		premise, phi := premisedSafetyOf(coverGroup, name)
		if phi == nil {
			return nil
		}
		return &coverModel{m: coverGroup, premise: premise, phi: phi}
	}
	// The family in which the groups of a fixed size beyond the small
	// instances range over every size (familyModel), built for a model
	// when a property first needs it.
	families := map[*counterabs.ParamModel]*counterabs.ParamModel{}
	familyOn := func(m *counterabs.ParamModel, name string) (*familyModel, error) {
		fm, built := families[m]
		if !built {
			var err error
			if fm, err = familyModelOf(ctx, sys, m, total, totalProps, groupProps, solver, checker); err != nil {
				return nil, err
			}
			families[m] = fm
		}
		if fm == nil {
			return nil, nil
		}
		premise, phi := premisedSafetyOf(fm, name)
		if phi == nil {
			return nil, nil
		}
		return &familyModel{m: fm, premise: premise, phi: phi, first: !largeConstant(fm)}, nil
	}
	for _, m := range []*counterabs.ParamModel{total, group} {
		if m != nil && m.Scope != "" {
			rep.Scope = m.Scope + emptyGroups(ctx, solver, m)
		}
	}
	// Several safety properties of one model are first proved together
	// (proveJoint).
	joint := map[*counterabs.ParamModel]*jointOutcome{}
	var live liveModels // the group-counter models of the liveness properties, built when first needed
	for _, m := range []*counterabs.ParamModel{total, group} {
		if m == nil {
			continue
		}
		var cover *counterabs.ParamModel
		if m == total {
			cover = coverGroup
		}
		j, err := proveJoint(ctx, cfg, m, cover, prover, checker)
		if err != nil {
			return nil, err
		}
		joint[m] = j
	}
	proved := map[*counterabs.ParamModel][]presburger.Formula{} // the invariants of the unpremised safety properties proved so far
	implied := map[string]Result{}                              // the properties those invariants prove (byOthers)
	var pending []retry                                         // the unpremised ones left unknown
	modelOf := func(p *gsst.Property) *counterabs.ParamModel {
		if counterabs.PropertyLevel(sys, p) == counterabs.GroupLevel {
			return group
		}
		return total
	}
	// later lists the unpremised safety properties of m after the i-th
	// that nothing has decided yet, for byOthers.
	later := func(m *counterabs.ParamModel, i int) []string {
		var names []string
		for k := i + 1; k < len(sys.Properties); k++ {
			q := &sys.Properties[k]
			if _, ok := counterabs.SafetyFormula(q.Formula); !ok || modelOf(q) != m {
				continue
			}
			if joint[m].decides(q.Name) {
				continue
			}
			if _, ok := implied[q.Name]; !ok {
				names = append(names, q.Name)
			}
		}
		return names
	}
	for i := range sys.Properties {
		p := &sys.Properties[i]
		res := Result{Property: p}
		m := modelOf(p)
		if _, _, ok := counterabs.PremisedSafety(p.Formula); !ok {
			start := time.Now()
			err := checkLive(ctx, cfg, rep, i, prover, liveChecker, &live, &res)
			res.Duration = time.Since(start)
			if err != nil {
				return nil, fmt.Errorf("property %s: %w", p.Name, err)
			}
			rep.Results = append(rep.Results, res)
			continue
		}
		// The joint proof is of the properties without a premise
		// (SafetyFormula): one with a premise starts from fewer states.
		if j := joint[m]; j.decides(p.Name) {
			res = j.proof
			if !j.proved[p.Name] {
				res = j.refuted[p.Name]
			}
			res.Property = p
			rep.Results = append(rep.Results, res)
			continue
		}
		premise, phi := premisedSafetyOf(m, p.Name)
		if phi == nil {
			return nil, errkind.Errorf(errkind.Internal, "the parametric model has no safety property %s", p.Name)
		}
		start := time.Now()
		cfg.progress.Report(progress.Event{Phase: progress.Proof, Engine: progress.NameOf(prover), Item: p.Name, K: i + 1, N: len(sys.Properties)})
		_, unpremised := counterabs.SafetyFormula(p.Formula)
		r, done := implied[p.Name]
		if done {
			res = r
			res.Property = p
		} else {
			fam, err := familyOn(m, p.Name)
			if err != nil {
				return nil, err
			}
			if err := proveOne(ctx, cfg, m, premise, phi, p.Name, coverOn(m, p.Name), fam, prover, checker, &res); err != nil {
				return nil, fmt.Errorf("property %s: %w", p.Name, err)
			}
		}
		res.Duration = time.Since(start)
		switch {
		case !unpremised:
		case res.Verdict == Proved && res.Invariant != nil && !done:
			// (One proved by the others' invariants adds nothing new.)
			proved[m] = append(proved[m], res.Invariant)
			if err := byOthers(ctx, cfg, m, later(m, i), proved[m], checker, implied); err != nil {
				return nil, err
			}
		case res.Verdict == Unknown && !res.Stopped:
			pending = append(pending, retry{len(rep.Results), m})
		}
		rep.Results = append(rep.Results, res)
	}
	// A property left unknown may follow from the invariants proved for
	// the properties after it.
	for _, m := range []*counterabs.ParamModel{total, group} {
		var names []string
		for _, p := range pending {
			if p.m == m {
				names = append(names, rep.Results[p.result].Property.Name)
			}
		}
		if len(names) == 0 || ctx.Err() != nil {
			continue
		}
		if err := byOthers(ctx, cfg, m, names, proved[m], checker, implied); err != nil {
			return nil, err
		}
	}
	for _, p := range pending {
		res := &rep.Results[p.result]
		if again, ok := implied[res.Property.Name]; ok {
			again.Property, again.Duration = res.Property, res.Duration
			*res = again
		}
	}
	return rep, nil
}

// jointOutcome is what the joint questions on one model's safety
// properties answered (proveJoint): the proof of several together, the
// names of the properties it proves, and the properties refuted by the
// runs found, by name.
type jointOutcome struct {
	proof   Result
	proved  map[string]bool
	refuted map[string]Result
}

// decides reports whether the joint questions proved or refuted the
// property named name (false for a nil outcome).
func (j *jointOutcome) decides(name string) bool {
	return j != nil && (j.proved[name] || j.refuted[name].Verdict == Refuted)
}

// maxJointInduction bounds the disjuncts of the bad states of a joint
// question whose properties proveOne asks whether they are inductive
// (alone, then with the linear invariants).
const maxJointInduction = 1024

// maxJointRounds bounds the joint questions of proveJoint (a variable
// for the test of byOthers, which needs one).
var maxJointRounds = 16

// proveJoint asks the safety properties of m without a premise (one
// with a premise starts from fewer states) together, AG (phi1 & ... &
// phik): one search for an invariant instead of k (ASR with 10
// resources has 10 mutual exclusions over the same model, each search
// costing about the same). What it does not answer is asked alone, so
// that one failing property does not take the others with it.
//
// A run that refutes the joint question ends in a state that violates
// some of the properties: each of those is refuted by that run
// (replayed on the instance against that property), and the others are
// asked together again, at most maxJointRounds times in all, with the
// steps up to the backward search only (linearOnly). A net written
// with one property "at most one token" per place, one of which fails,
// has the others proved by one invariant: mist's bingham_h250 with its
// 253 places took 21 s with each property asked alone, 0.3 s so. cover
// is the model the backward search reads in m's place (Check's
// coverGroup), nil for m itself.
//
// The first joint question gets the cheap steps and one short attempt
// of the prover (jointWork), not the small instances: where the cheap
// steps do not prove it, the prover's search for the conjunction may
// cost more than for each property alone (ByMC's bosco: 2.5 s of Spacer
// for its four lemmas together, where two are proved by the lemmas
// alone and the other two by Spacer in 0.3 s each), or a fraction (the
// four properties of testdata/coverability/firefly.yaml: 0.08 s
// together, 0.45 s one by one).
func proveJoint(ctx context.Context, cfg config, m, cover *counterabs.ParamModel, prover presburger.Prover, solver presburger.Solver) (*jointOutcome, error) {
	var names []string
	for i := range m.Properties {
		if _, ok := counterabs.SafetyFormula(m.Properties[i].Formula); ok && !cfg.apart[m.Properties[i].Name] {
			names = append(names, m.Properties[i].Name)
		}
	}
	out := &jointOutcome{refuted: map[string]Result{}}
	if len(names) < 2 {
		return out, nil
	}
	all := len(names)
	cfg.joint = true
	cfg.maxWork = min(cfg.maxWork, jointWork)
	for range maxJointRounds {
		if len(names) < 2 {
			break
		}
		var c *coverModel
		if cover != nil {
			c = &coverModel{m: cover, premise: presburger.True, phi: safetyConj(cover, names)}
		}
		res := Result{}
		start := time.Now()
		cfg.progress.Report(progress.Event{Phase: progress.Proof, Engine: progress.NameOf(prover), Item: fmt.Sprintf("%d safety properties together", len(names))})
		if err := proveOne(ctx, cfg, m, presburger.True, safetyConj(m, names), "", c, nil, prover, solver, &res); err != nil {
			return nil, err
		}
		res.Duration = time.Since(start)
		if res.Verdict == Proved {
			res.Reason = fmt.Sprintf("proved together with the other safety properties on this model (%d in all), by one invariant", all)
			if len(names) < all {
				res.Reason = fmt.Sprintf("proved together with %d other safety properties of this model, by one invariant (runs violate the other %d)", len(names)-1, all-len(names))
			}
			out.proof, out.proved = res, map[string]bool{}
			for _, n := range names {
				out.proved[n] = true
			}
			break
		}
		if res.Verdict != Refuted || res.jointRun == nil {
			break
		}
		on := m // the model of the run: m's, or cover's (coverOnGroups)
		if res.Level != m.Level && cover != nil {
			on = cover
		}
		end := lastState(*res.jointRun)
		var kept []string
		for _, n := range names {
			if _, phi := premisedSafetyOf(on, n); !violatedAt(phi, end) {
				kept = append(kept, n)
				continue
			}
			r := Result{Level: on.Level, LevelReason: on.Reason, Method: res.Method, Duration: res.Duration}
			if err := refute(ctx, cfg, on, n, *res.jointRun, &r); err != nil {
				return nil, err
			}
			if r.Verdict == Refuted {
				out.refuted[n] = r
			}
		}
		if len(kept) == len(names) {
			break
		}
		names = kept
		cfg.linearOnly = true
	}
	return out, nil
}

// premisedSafetyOf returns the premise and phi of m's safety property
// named name, phi nil when there is none.
func premisedSafetyOf(m *counterabs.ParamModel, name string) (premise, phi presburger.Formula) {
	if q := m.Property(name); q != nil {
		premise, phi, _ = counterabs.PremisedSafety(q.Formula)
	}
	return premise, phi
}

// safetyConj is the conjunction of phi of m's safety properties named
// names.
func safetyConj(m *counterabs.ParamModel, names []string) presburger.Formula {
	var phis []presburger.Formula
	for _, n := range names {
		_, phi := premisedSafetyOf(m, n)
		phis = append(phis, phi)
	}
	return presburger.Conj(phis...)
}

// violatedAt says whether phi is false at state, which gives a value to
// each of its variables (false when it does not).
func violatedAt(phi presburger.Formula, state presburger.Model) bool {
	for _, v := range presburger.FreeVars(phi) {
		if _, ok := state[v]; !ok {
			return false
		}
	}
	return !presburger.Eval(phi, func(v presburger.Var) int64 { return state[v] })
}

// retry is a property left unknown: its result's index in the report
// and its model.
type retry struct {
	result int
	m      *counterabs.ParamModel
}

// proveOne asks prover whether AG phi holds on m from its initial states
// where premise holds (true for "AG phi", c for "c -> AG phi": ts.Init
// is m's initial condition and the premise, which every method reads
// from ts), phi and premise over m's variables, and fills res; name is
// the property's, for a refutation.
//
// What is cheap comes first, and every step is bounded by work, never by
// time, so that the answer and the invariant printed are the same on a
// loaded machine as on an idle one; only the bound on the property
// (cfg.timeout, wall-clock) cuts by time, and then the answer is
// Unknown. In order: the relaxed system (relax.go), the property alone,
// the state equation (equation.go), the property with the linear
// invariants (linear.go), the backward coverability search of a system
// whose steps are monotone (cover.go: it decides, by a run or a
// fixpoint), the lemmas and the property filtered together by Houdini's
// algorithm (lemma.go: when the property survives, or the lemmas imply
// it, they are the proof), the small instances (search.go), and the
// prover on the system strengthened by the lemmas, in attempts of
// doubling work (proveRestarts).
func proveOne(ctx context.Context, cfg config, m *counterabs.ParamModel, premise, phi presburger.Formula, name string, cover *coverModel, family *familyModel, prover presburger.Prover, solver presburger.Solver, res *Result) error {
	res.Level, res.LevelReason = m.Level, m.Reason
	defer func() {
		if res.Verdict != Proved && res.Verdict != Refuted {
			res.Method = ""
		}
	}()
	if cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
	}
	ts := safetySystem(m, premise, phi)
	avoid := varSet(phi)
	// The cheap proofs are checked once, here, with CheckInvariant on ts
	// (a second run of the same queries would say nothing new); those
	// of the prover are checked by the prover and again in answer.
	// The property alone, then the state equation; the other way round
	// when the bad states have many disjuncts: then the query whether
	// phi alone is inductive is large (a step from a conjunction of
	// thousands of clauses to a disjunction of as many: minutes on mist's
	// ME_250_bigtarget), and one inequality of the state equation may
	// exclude them all (equation.go).
	byInduction := func() (bool, error) {
		return tryProof(ctx, cfg, m, ts, solver, res, ByInduction, phi, false)
	}
	manyBad := presburger.DNFSize(ts.Bad, maxBadDisjuncts) > maxBadDisjuncts
	// A joint question of thousands of properties asks neither: the
	// conjunction of its properties is seldom inductive without the
	// invariants that prove each, and each query is as large as the
	// conjunction (mist's ME_250_bigtarget with a property per target
	// and two place invariants: 11 s for each of the two checks, where
	// each property alone and byOthers after it took 1 s in all).
	inductive := !cfg.joint || presburger.DNFSize(ts.Bad, maxJointInduction) <= maxJointInduction
	if !manyBad && inductive {
		if ok, err := byInduction(); ok || err != nil {
			return err
		}
	}
	if ses := stateEquation(ctx, solver, m, ts); ses != nil {
		// Inductive and excluding the bad states by construction: a
		// failing check is a defect here.
		if ok, err := tryProof(ctx, cfg, m, ts, solver, res, ByStateEquation, presburger.Conj(ses...), true); ok || err != nil {
			return err
		}
	}
	if manyBad && inductive {
		if ok, err := byInduction(); ok || err != nil {
			return err
		}
	}
	lis := linearInvariants(m, avoid)
	if len(lis) > 0 && inductive {
		if ok, err := tryProof(ctx, cfg, m, ts, solver, res, ByInduction, presburger.Conj(phi, linearConj(m, lis)), false); ok || err != nil {
			return err
		}
	}
	if family != nil && family.first {
		if ok, err := proveOnFamily(ctx, cfg, m, ts, family, name, prover, solver, res); ok || err != nil {
			return err
		}
	}
	// The backward search reads the invariants whose weights are all
	// nonnegative, which the basis may have only as combinations.
	coverLis := append(slices.Clip(lis), nonnegativeInvariants(lis)...)
	ok, lossyReach, err := coverFirst(ctx, cfg, m, ts, coverLis, name, solver, res)
	if !ok && err == nil && cover != nil {
		ok, lossyReach, err = coverOnGroups(ctx, cfg, m, ts, cover, name, solver, res)
	}
	if !ok && err == nil {
		var reach bool
		ok, reach, err = coverDefined(ctx, cfg, m, ts, premise, phi, coverLis, name, solver, res)
		lossyReach = lossyReach || reach
	}
	if ok || err != nil {
		return err
	}
	if cfg.linearOnly || cfg.cheapOnly {
		return nil
	}
	if proveRelaxed(ctx, cfg, m, ts, prover, solver, res) {
		return nil
	}
	if ok, err := exhaustOne(ctx, cfg, m, ts, name, solver, res); ok || err != nil {
		return err
	}
	// The small instances are explored before the lemmas when the lossy
	// backward search reached an initial state (lossy.go): a run is
	// likely then (Cubicle's germanish6).
	searched := false
	search := func() (bool, error) {
		searched = true
		a, ok, err := searchFirst(ctx, m, ts, solver)
		if err != nil || !ok {
			return false, err
		}
		res.Method = BySearch
		return true, answer(ctx, cfg, m, ts, a, nil, name, solver, res)
	}
	if lossyReach && !cfg.joint {
		if ok, err := search(); ok || err != nil {
			return err
		}
	}
	lemmas, proof, err := lemmasFor(ctx, solver, m, ts, phi, lis)
	if err != nil {
		return err
	}
	if proof != nil {
		// lemmasFor has checked it.
		res.Method = ByLemmas
		fillProof(m, ts, res, proof, lemmas)
		return nil
	}
	if family != nil && !family.first {
		if ok, err := proveOnFamily(ctx, cfg, m, ts, family, name, prover, solver, res); ok || err != nil {
			return err
		}
	}

	if !cfg.joint && !searched {
		if ok, err := search(); ok || err != nil {
			return err
		}
	}
	res.Method = ByProver
	// The prover gets the system strengthened by the lemmas, with the
	// variables the linear invariants define eliminated.
	q := ts
	if len(lemmas) > 0 {
		q = strengthen(ts, lemmaConj(lemmas))
	}
	red, reduced := eliminate(m, q, lis)
	if reduced {
		q = red.ts
	}
	// A guard's equality that the lemmas settle half of, read as its
	// other half (sharpen.go).
	facts := presburger.Formula(presburger.True)
	if reduced {
		facts = red.inDomain
	}
	shared := map[presburger.Var]bool{}
	for j := range m.Shared {
		shared[m.SharedVar(j)] = true
	}
	q, _ = sharpenEqualities(ctx, solver, q, facts, shared)
	a, err := proveRestarts(ctx, cfg, prover, q)
	if err != nil {
		return err
	}
	if reduced {
		a = red.answer(a)
		if a.Verdict == presburger.Refuted {
			if err := presburger.Replay(ctx, solver, ts, *a.Counterexample); err != nil {
				var ue *presburger.UndecidedError
				if errors.As(err, &ue) {
					a = presburger.SafetyAnswer{Verdict: presburger.Undecided, Reason: "replay of the counterexample: " + ue.Error()}
				} else {
					return errkind.Errorf(errkind.Internal, "the prover's run on the system without the variables its linear invariants define does not replay on the model: %w", err)
				}
			}
		}
	}
	if a.Verdict == presburger.Proved && len(lemmas) > 0 {
		// The lemmas are inductive under the conditions on the
		// parameters (houdini), which the invariant states with them.
		a.Invariant = presburger.Conj(a.Invariant, paramPart(ts), lemmaConj(lemmas))
	}
	if a.Verdict != presburger.Proved {
		lemmas = nil
	}
	return answer(ctx, cfg, m, ts, a, lemmas, name, solver, res)
}

// safetySystem is m's transition system from the initial states
// satisfying premise, with the states violating phi bad.
func safetySystem(m *counterabs.ParamModel, premise, phi presburger.Formula) presburger.TransitionSystem {
	ts := m.TransitionSystem().Question(presburger.Negation(phi))
	ts.Init = presburger.Conj(ts.Init, premise)
	return ts
}

// varSet is the set of phi's free variables.
func varSet(phi presburger.Formula) map[presburger.Var]bool {
	set := map[presburger.Var]bool{}
	for _, v := range presburger.FreeVars(phi) {
		set[v] = true
	}
	return set
}

// lemmasFor returns the lemmas of m (lemma.go) that are inductive
// together, given the linear invariants lis as facts, and, when they
// prove AG phi (phi is inductive with them, or they exclude the bad
// states on their own), the invariant that proves it, checked: the
// lemmas, phi itself unless they imply it, and the linear invariants. A
// lemma that the others and the linear invariants imply is not
// reported.
//
// The candidates come in up to three rounds: those of candidates
// first; when the survivors do not prove phi, the survivors again with
// the monotone combinations and ceilings (monotone.go), and when those
// do not prove it either, with the sum thresholds (ghostbound.go).
// Those are many and mostly hold, so that the filter, and the pruning
// of what it keeps, would cost more where an earlier round suffices or
// nothing does (ByMC's cf1s: its properties go to the prover either
// way, and the second round in the first made them twice as slow);
// they give the facts a threshold automaton with crashes needs (c1cs:
// 0.4 s for one_step0, where the prover took 20 s), or one whose
// decisions compare the initial votes (bosco: lemma4_0 and lemma4_1,
// where the prover took a quarter of a second each). A later round's
// proof keeps the lemmas it needs (needed: a few queries) before the
// pruning, which asks one per lemma. When no round proves phi, the
// first round's lemmas go on to the prover, as before.
func lemmasFor(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem, phi presburger.Formula, lis []linearInvariant) ([]Lemma, presburger.Formula, error) {
	facts := linearConj(m, lis)
	base := ts
	if len(lis) > 0 {
		base = strengthen(ts, facts)
	}
	// The property goes last, so that prune drops it first when the
	// lemmas imply it.
	property := Lemma{Kind: propertyKind, Formula: phi}
	sample := sampleReachable(ctx, m, base)
	kept, err := houdiniFacts(ctx, solver, m, ts, lis, append(candidates(m, ts), property), sample)
	if err != nil {
		return nil, nil, err
	}
	if !proves(ctx, solver, ts, kept, facts, phi) {
		// The later rounds start from what the first kept (a candidate
		// the first dropped may survive with the new facts, but seldom
		// does, and a round costs less without them); the sum
		// thresholds come last, so that a property the monotone round
		// proves (c1cs) does not filter them.
		var sums []Lemma
		for _, f := range sumThresholds(m) {
			sums = append(sums, Lemma{Kind: "sum threshold", Formula: f, Text: FormatInvariant(f, m.VarName, m.TypedAtom)})
		}
		for _, more := range [][]Lemma{raiseToInitial(ctx, solver, m, ts, monotoneLemmas(m, lis)), sums, modeEqualities(m, base, sample)} {
			cands := slices.DeleteFunc(slices.Clone(kept), func(l Lemma) bool { return l.Kind == propertyKind })
			cands = append(append(cands, more...), property)
			if len(more) == 0 || !mayProve(ctx, solver, base, cands, phi) {
				continue
			}
			again, err := houdiniFacts(ctx, solver, m, ts, lis, cands, sample)
			if err != nil {
				return nil, nil, err
			}
			if proves(ctx, solver, ts, again, facts, phi) {
				kept = needed(ctx, solver, base, again, phi)
				break
			}
		}
	}
	if len(kept) == 0 {
		return nil, nil, nil
	}
	kept = prune(ctx, solver, ts, kept, facts, nil)
	var lemmas []Lemma
	for _, l := range kept {
		if l.Kind != propertyKind {
			lemmas = append(lemmas, l)
		}
	}
	// One check: the survivors were filtered with the facts, and the
	// facts are cheap to state. The filter and the pruning read the
	// conditions on the parameters (paramPart), which the invariant
	// states too: a property that the lemmas imply only under the
	// system's assumption (ByMC's bosco: "N > 3*T") fails the check
	// without them.
	inv := m.WithSumFacts(presburger.Conj(paramPart(ts), lemmaConj(kept), facts))
	if presburger.CheckInvariant(ctx, solver, ts, inv) == nil {
		return lemmas, inv, nil
	}
	return lemmas, nil, nil
}

// mayProve reports whether some of cands, inductive together, could
// imply phi: false when a step from a state satisfying all of them
// (phi among them) violates phi. Any part K of cands that is inductive
// and implies phi holds in that state, hence after the step, and phi
// with it; so there is none, and Houdini's filter over cands, several
// queries, need not run (one query instead: ByMC's cf1s, whose
// properties the monotone combinations do not prove). True when the
// solver cannot tell.
func mayProve(ctx context.Context, solver presburger.Solver, ts presburger.TransitionSystem, cands []Lemma, phi presburger.Formula) bool {
	anyStep, anyBounds := ts.AnyStep()
	a, err := solver.Solve(ctx, presburger.Problem{Bounds: anyBounds,
		F: presburger.Conj(lemmaConj(cands), anyStep, presburger.Negation(ts.Prime(phi)))})
	return err != nil || a.Result != presburger.Sat
}

// proves reports whether the lemmas kept by the filter, with the facts,
// imply phi within the domain: then, being inductive together, they
// prove it (which lemmasFor checks). False when the solver cannot tell.
func proves(ctx context.Context, solver presburger.Solver, ts presburger.TransitionSystem, kept []Lemma, facts, phi presburger.Formula) bool {
	if slices.ContainsFunc(kept, func(l Lemma) bool { return l.Kind == propertyKind }) {
		return true
	}
	if len(kept) == 0 {
		return false
	}
	a, err := solver.Solve(ctx, presburger.Problem{Bounds: ts.Domain,
		F: presburger.Conj(paramPart(ts), facts, lemmaConj(kept), presburger.Negation(phi))})
	return err == nil && a.Result == presburger.Unsat
}

// propertyKind marks the property among the candidates of lemmasFor; it
// is never reported as a lemma.
const propertyKind = "property"

// Work budgets of the prover (presburger.Budget, Z3's resource limit):
// Z3 does about 2.5 million units per second of one CPU of the machine
// of BENCHMARKS.md on Spacer's queries, so firstWork is about a second
// of work, relaxWork four.
const (
	firstWork = 2_500_000
	// jointWork is the prover's work on several safety properties
	// together (Check): enough for firefly's four, also written as a
	// counter system with a hub (200,000 were not: the first property
	// alone then took the prover 1.4 s), and a tenth of a second lost
	// where it does not suffice (bosco.ta).
	jointWork = 1_000_000
	relaxWork = 10_000_000
	// lastWork bounds the doubling: an attempt beyond it is not made,
	// and the answer is unknown for want of work (about half an hour).
	lastWork = 4_000_000_000
	// searchShare: the search for a run beside Spacer gets work /
	// searchShare of each attempt (proveRestarts).
	searchShare = 4
)

// proveRestarts asks prover about ts in attempts of doubling work
// (firstWork, twice that, ...) until one answers, the work would exceed
// cfg.maxWork (lastWork unless MaxWork), or ctx ends. Each attempt is a
// new search (Z3 changes its
// random seed with Budget.Attempt, and starts its bounded search for a
// counterexample beside Spacer from the second attempt on): Spacer's
// effort on one question varies by orders of magnitude with its seed and
// the order of its work (nbac's proof: 0.4 s in most runs of an earlier
// version that reused Z3 contexts, 10 s to 2 minutes in some), and
// doubling bounds what the restarts cost to about the work of the last
// attempt. An attempt that gives up before its budget is spent (no
// counterexample within the unrolling bound, a solver's unknown) is the
// answer. The attempts depend on the work done only, so the answer is
// the same on every machine unless ctx ends first. The search beside
// Spacer gets a quarter of each attempt's work (Budget.SearchWork): its
// checks run up to five times slower per unit than Spacer's, and at the
// whole work the search alone took minutes of the last attempts on
// mist's delegatebuffer. Spacer's attempts then cost at most twice
// cfg.maxWork in all, the search's half of it.
func proveRestarts(ctx context.Context, cfg config, prover presburger.Prover, ts presburger.TransitionSystem) (presburger.SafetyAnswer, error) {
	for k, work := 0, min(firstWork, cfg.maxWork); ; k, work = k+1, work*2 {
		a, err := prover.Prove(ctx, ts, presburger.Budget{Work: work, Attempt: k, SearchWork: work / searchShare})
		if err != nil || a.Verdict != presburger.Undecided || !a.Exhausted || ctx.Err() != nil || 2*work > cfg.maxWork {
			return a, err
		}
	}
}

// searchFirst runs the explicit search of small instances (search.go)
// on a system that is not one of the paper's GSSTs (Spacer answers
// those directly), and returns its run as
// the prover's answer, replayed on ts, when it finds one (ok). A run that
// does not replay is an internal error.
func searchFirst(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, solver presburger.Solver) (presburger.SafetyAnswer, bool, error) {
	if m.System.Simple() {
		return presburger.SafetyAnswer{}, false, nil
	}
	return searchRun(ctx, m, ts, solver)
}

// searchRun is searchFirst for every system.
func searchRun(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, solver presburger.Solver) (presburger.SafetyAnswer, bool, error) {
	cex := searchSmall(ctx, solver, m, ts)
	if cex == nil {
		return presburger.SafetyAnswer{}, false, nil
	}
	if err := presburger.Replay(ctx, solver, ts, *cex); err != nil {
		return presburger.SafetyAnswer{}, false, errkind.Errorf(errkind.Internal, "the run found by exploring a small instance does not replay on the model: %w", err)
	}
	return presburger.SafetyAnswer{Verdict: presburger.Refuted, Counterexample: cex}, true, nil
}

// probeShare is the comparisons of the backward search per state of
// the small-instance search between its rounds (coverFirst). A state
// costs about as much as 3,000 comparisons (Cubicle's germanish6: 12
// microseconds, 4 nanoseconds), so that a probe costs a few percent of
// the round before it: at 4,000, germanish6's run came in the same
// round, a safe system's probes cost twice as much.
const probeShare = 8000

// coverFirst runs the backward coverability search (cover.go) on a
// model whose steps are monotone, and fills res when it answers (ok): a
// run, replayed on ts and then on the instance, or the complement of its
// fixpoint, checked as an invariant. A run that does not replay, or a
// fixpoint that fails the check, is an internal error. The search reads
// ts loosened by the linear invariants lis (looseDomain): the same runs,
// and monotone where a transfer into a bounded variable is not.
// lossyReach says that the search, reading a guard's upper bounds
// lossily, reached an initial state by a chain that is no run
// (lossy.go).
//
// On a system that is no paper's GSST (Spacer answers those), the
// small instances are explored between the rounds of
// the search (backward), each time within a state per probeShare
// comparisons of the round that ended, skipping the instances explored
// to the end before: a run there is answered as the search's would be
// (BySearch), the run searchFirst would find. Cubicle's germanish6 has
// one at proc=3, which the second probe (1,000 states, after those of
// 1 and 2 processes the first explored) finds after 20 million
// comparisons, where the search alone ends capped after 270 million
// (0.8 s): a run through a step whose caps fail is no run of the model
// (lossy.go), and the search cannot answer with it. A search without
// caps may run out of its work before its run (mist's queuedbusyflag
// with a property per place, s_Oafterwait: 3.4 s). A safe system pays
// for the probes only when the search needs more than one round
// (docs/prove.md, Backward coverability). A joint question explores no
// small instance.
func coverFirst(ctx context.Context, cfg config, m *counterabs.ParamModel, ts presburger.TransitionSystem, lis []linearInvariant, name string, solver presburger.Solver, res *Result) (ok, lossyReach bool, err error) {
	cs, monotone := monotoneSystem(m, ts, lis)
	rangedFirst := false
	if !monotone {
		if cs, rangedFirst = rangedSystem(m, ts, lis); !rangedFirst {
			if cfg.joint && !cfg.linearOnly {
				ok, err = coverUpward(ctx, cfg, m, ts, lis, name, solver, res)
			}
			return ok, false, err
		}
	}
	var probed *presburger.Counterexample
	if !cfg.joint && !m.System.Simple() {
		probeSmall(cs, m, ts, &probed)
	}
	out := cs.backward(ctx, cfg.coverWork())
	if probed == nil {
		out = againWithSums(ctx, m, ts, lis, out, cfg.coverWork())
	}
	if probed == nil && !rangedFirst {
		out = againRanged(ctx, m, ts, lis, out, cfg.coverWork())
	}
	switch {
	case probed != nil:
		ok, err = refuteBy(ctx, cfg, m, ts, BySearch, "the run found by exploring a small instance", *probed, name, solver, res)
	case out.cex != nil:
		ok, err = refuteBy(ctx, cfg, m, ts, ByCoverability, "the run of the backward coverability search", *out.cex, name, solver, res)
	case out.invariant != nil:
		ok, err = tryProof(ctx, cfg, m, ts, solver, res, ByCoverability, out.invariant, true)
	}
	return ok, out.capped, err
}

// coverUpward is coverFirst on the first joint question (not one asked
// again) whose bad states the backward search does not read, since
// some property's are not upward closed (an equation such as a place
// invariant "x0 + ... + x250 = 1" is violated below as well as above):
// the search looks for a run into the bad states of the properties
// whose are (upwardPart), within an eighth of its work, and refutes the
// question with it. A run there is a run into the bad states of the
// conjunction; its fixpoint is no proof of the conjunction, and is not
// used. Without it the question went on to the lemmas and Spacer, which
// may not find the run within the joint question's work: mist's
// ME_250_bigtarget with a token per process, 8,989 targets, two place
// invariants and two failing bounds spent 8 s there (5.5 s of them in
// the affine hull of 251 variables) before each property was asked
// alone.
func coverUpward(ctx context.Context, cfg config, m *counterabs.ParamModel, ts presburger.TransitionSystem, lis []linearInvariant, name string, solver presburger.Solver, res *Result) (ok bool, err error) {
	up, some := upwardPart(m, ts.Bad)
	if !some {
		return false, nil
	}
	uts := ts
	uts.Bad = up
	cs, monotone := monotoneSystem(m, uts, lis)
	if !monotone {
		return false, nil
	}
	out := cs.backward(ctx, cfg.coverWork()/8)
	if out.cex == nil {
		return false, nil
	}
	return refuteBy(ctx, cfg, m, ts, ByCoverability, "the run of the backward coverability search", *out.cex, name, solver, res)
}

// upwardPart returns the disjunction of the clauses of bad's DNF
// (within maxClauses) whose atoms each bound a sum of m's state
// variables with nonnegative weights from below by a constant, or read
// none of them: what of bad may be upward closed, for the backward
// search to read. some is false when no clause is left out (the search
// has read bad as it is) or none is kept.
func upwardPart(m *counterabs.ParamModel, bad presburger.Formula) (up presburger.Formula, some bool) {
	clauses, ok := presburger.DNFWithin(bad, maxClauses)
	if !ok {
		return nil, false
	}
	state := map[presburger.Var]bool{}
	for i := range m.NumState() {
		state[m.StateVar(i)] = true
	}
	var kept []presburger.Formula
	for _, clause := range clauses {
		if !slices.ContainsFunc(clause, func(f presburger.Formula) bool { return !lowerBound(f, state) }) {
			kept = append(kept, presburger.Conj(clause...))
		}
	}
	if len(kept) == 0 || len(kept) == len(clauses) {
		return nil, false
	}
	return presburger.Disj(kept...), true
}

// lowerBound reports whether f is "t >= c" or "t > c" with t a sum of
// state variables with nonnegative weights, or a comparison that reads
// no state variable. (A bound by a parameter or a size, "#C > n", is
// upward closed at each instance, but not read so by the search.)
func lowerBound(f presburger.Formula, state map[presburger.Var]bool) bool {
	c, ok := f.(presburger.Cmp)
	if !ok {
		return false
	}
	states, others := 0, 0
	for _, mo := range c.T.Monos {
		switch {
		case !state[mo.Var]:
			others++
		case mo.Coef < 0:
			return false
		default:
			states++
		}
	}
	return states == 0 || others == 0 && (c.Op == presburger.Ge || c.Op == presburger.Gt)
}

// probeSmall has cs.backward explore the small instances of m (on ts)
// between its rounds, within a state per probeShare comparisons of the
// round that ended (coverFirst); *found is then the run found, nil when
// none is. The search ends when a probe finds one.
func probeSmall(cs *coverSystem, m *counterabs.ParamModel, ts presburger.TransitionSystem, found **presburger.Counterexample) {
	p := newInstanceProbe(m, ts)
	if p == nil {
		return
	}
	cs.probe = func(ctx context.Context, round int64) bool {
		*found = p.within(ctx, int(min(round/probeShare, searchStates)))
		return *found != nil
	}
}

// refuteBy answers with cex, a run found by method (what names it in an
// error): replayed on ts, then on the instance (answer). ok is false
// when the context ended during the replay; a run that does not replay
// is an internal error.
func refuteBy(ctx context.Context, cfg config, m *counterabs.ParamModel, ts presburger.TransitionSystem, method Method, what string, cex presburger.Counterexample, name string, solver presburger.Solver, res *Result) (ok bool, err error) {
	if err := presburger.Replay(ctx, solver, ts, cex); err != nil {
		if ctx.Err() != nil {
			return false, nil
		}
		return false, errkind.Errorf(errkind.Internal, "%s does not replay on the model: %w", what, err)
	}
	res.Method = method
	return true, answer(ctx, cfg, m, ts, presburger.SafetyAnswer{Verdict: presburger.Refuted, Counterexample: &cex}, nil, name, solver, res)
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

// tryProof checks inv, found by method, as a proof of the property on
// ts with CheckInvariant, and fills res when it is one (ok). When the
// time runs out in the check, res is the timeout (ok as well). A
// candidate that fails a check, or whose check the solver cannot
// decide, leaves res alone; one that must hold (inductive by
// construction) and fails is an internal error.
func tryProof(ctx context.Context, cfg config, m *counterabs.ParamModel, ts presburger.TransitionSystem, solver presburger.Solver, res *Result, method Method, inv presburger.Formula, mustHold bool) (ok bool, err error) {
	// On a model whose atoms ShortenSums rewrote, the invariant states
	// the identities it rewrote by, so that it is a certificate for the
	// guards and the property as written too (they agree with the
	// rewritten ones where the identities hold), and is checked so.
	inv = m.WithSumFacts(inv)
	if mustHold && cfg.cheapOnly {
		// A family's attempt (proveOnFamily): the invariant is checked
		// on the instance's model, where it is taken; a second check
		// here, on the family's, cost as much again (Cubicle's crash at
		// 10 processes: 0.2 of 1 s).
		res.Method = method
		fillProof(m, ts, res, inv, nil)
		return true, nil
	}
	// Whether it holds is the question (IsInvariant); where it must
	// hold and does not, CheckInvariant says where it fails.
	holds, err := presburger.IsInvariant(ctx, solver, ts, inv)
	if err == nil && !holds {
		if !mustHold {
			return false, nil
		}
		err = presburger.CheckInvariant(ctx, solver, ts, inv)
	}
	var ue *presburger.UndecidedError
	var ie *presburger.InvariantError
	switch {
	case err == nil:
		res.Method = method
		fillProof(m, ts, res, inv, nil)
		return true, nil
	case timedOut(ctx, cfg):
		res.Verdict, res.Reason, res.Stopped = Unknown, fmt.Sprintf("timeout after %s", cfg.timeout), true
		return true, nil
	case errors.As(err, &ie) && mustHold:
		return false, errkind.Errorf(errkind.Internal, "the %s gives %s, which fails the check: %w", method, m.FormatFormula(inv), err)
	case errors.As(err, &ue), errors.As(err, &ie):
		return false, nil
	}
	return false, err
}

// fillProof records inv, checked, as the proof of res.
func fillProof(m *counterabs.ParamModel, ts presburger.TransitionSystem, res *Result, inv presburger.Formula, lemmas []Lemma) {
	res.Verdict, res.Invariant, res.Lemmas = Proved, inv, lemmas
	res.proof = &safetyProof{m: m, ts: ts}
	res.InvariantText = FormatInvariant(inv, m.VarName, m.TypedAtom)
}

// answer fills res from the prover's answer on ts (the model m's system
// with Bad the negation of the property), re-checking it: an invariant
// with CheckInvariant on ts itself, a counterexample by replay on the
// instance. lemmas are those the invariant includes.
func answer(ctx context.Context, cfg config, m *counterabs.ParamModel, ts presburger.TransitionSystem, ans presburger.SafetyAnswer, lemmas []Lemma, name string, solver presburger.Solver, res *Result) error {
	switch ans.Verdict {
	case presburger.Proved:
		// The prover re-checked it, by contract; check again here so
		// that "proved" never rests on one implementation's word (with
		// the identities of a rewritten model: tryProof).
		ans.Invariant = m.WithSumFacts(ans.Invariant)
		err := presburger.CheckInvariant(ctx, solver, ts, ans.Invariant)
		var ue *presburger.UndecidedError
		switch {
		case errors.As(err, &ue) && timedOut(ctx, cfg):
			res.Verdict, res.Reason, res.Stopped = Unknown, fmt.Sprintf("timeout after %s", cfg.timeout), true
			return nil
		case errors.As(err, &ue):
			res.Verdict, res.Reason = Unknown, "the invariant found could not be re-checked: "+ue.Error()
			return nil
		case err != nil:
			return errkind.Errorf(errkind.Internal, "the prover's invariant %s fails the re-check: %w",
				m.FormatFormula(ans.Invariant), err)
		}
		fillProof(m, ts, res, ans.Invariant, lemmas)
	case presburger.Refuted:
		if ans.Counterexample == nil {
			return errkind.Errorf(errkind.Internal, "the prover refuted the property without a counterexample")
		}
		if name == "" {
			// A joint question: proveJoint asks again without the
			// properties the run's last state violates.
			res.Verdict, res.jointRun = Refuted, ans.Counterexample
			return nil
		}
		// The run is replayed on the instance, not on the model.
		res.run = ans.Counterexample
		return refute(ctx, cfg, m, name, *ans.Counterexample, res)
	default:
		res.Verdict, res.Reason = Unknown, ans.Reason
		if ans.Exhausted {
			res.Exhausted = ProverWork
		}
		if timedOut(ctx, cfg) {
			// What was running when the time ran out depends on the
			// machine and its load; the reason does not say it.
			res.Reason, res.Stopped, res.Exhausted = fmt.Sprintf("timeout after %s", cfg.timeout), true, ""
		}
	}
	return nil
}

// lastState is the last state of cex with the values of its parameters.
func lastState(cex presburger.Counterexample) presburger.Model {
	if len(cex.States) == 0 {
		return nil
	}
	state := maps.Clone(cex.States[len(cex.States)-1])
	maps.Copy(state, cex.Params)
	return state
}

// timedOut reports whether the bound on the property (Timeout) has run
// out.
func timedOut(ctx context.Context, cfg config) bool {
	return cfg.timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded)
}

// proveRelaxed tries to prove AG phi on the relaxed system of ts, within
// relaxWork, and reports whether it did: then res holds
// the proof, its invariant re-checked on ts itself. Any other outcome
// (refuted, unknown, an error, an invariant that fails on ts, the
// context ending) leaves res alone and the question goes to ts, whose
// search then gives the answer, an Unknown for a timeout included.
func proveRelaxed(ctx context.Context, cfg config, m *counterabs.ParamModel, ts presburger.TransitionSystem, prover presburger.Prover, solver presburger.Solver, res *Result) bool {
	rts, ok := relaxed(m, ts)
	if !ok {
		return false
	}
	if cfg.relaxed != nil {
		prover = cfg.relaxed
	}
	ans, err := prover.Prove(ctx, rts, presburger.Budget{Work: relaxWork})
	if err != nil || ans.Verdict != presburger.Proved {
		return false
	}
	ans.Invariant = m.WithSumFacts(ans.Invariant) // as in tryProof
	if presburger.CheckInvariant(ctx, solver, ts, ans.Invariant) != nil {
		return false
	}
	res.Method = ByRelaxed
	fillProof(m, ts, res, ans.Invariant, nil)
	return true
}
