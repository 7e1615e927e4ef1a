package prove

import (
	"context"
	"fmt"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Parts exposes partsOf to the tests: the parts Check asks of f, ok
// false when it asks f whole or skips it.
func Parts(f ctl.Formula) (parts []ctl.Formula, ok bool) { return partsOf(f) }

// LinearInvariants exposes the linear invariants of m to the tests, as
// equalities over its variables, with the number that define a variable
// (and are eliminated before the prover runs).
func LinearInvariants(m *counterabs.ParamModel) (invs []presburger.Formula, pivots int) {
	for _, li := range linearInvariants(m, nil) {
		invs = append(invs, li.formula(m))
		if li.pivot >= 0 {
			pivots++
		}
	}
	return invs, pivots
}

// NonnegativeInvariants exposes the invariants nonnegativeInvariants
// finds from those of m, as equalities, and whether each has every
// weight nonnegative.
func NonnegativeInvariants(m *counterabs.ParamModel) (invs []presburger.Formula, nonnegative bool) {
	nonnegative = true
	for _, li := range nonnegativeInvariants(linearInvariants(m, nil)) {
		nonnegative = nonnegative && !slices.ContainsFunc(li.coef, func(c int64) bool { return c < 0 })
		invs = append(invs, li.formula(m))
	}
	return invs, nonnegative
}

// IdleCasesLeftOut is how many idle cases of m's steps linearInvariants
// leaves out, the invariants excluding them.
func IdleCasesLeftOut(m *counterabs.ParamModel) int {
	_, left := houdiniInvariants(m, nil)
	return left
}

// OneJointQuestion has Check ask the safety properties of a model
// together once at most, until the returned function restores it.
func OneJointQuestion() (restore func()) {
	saved := maxJointRounds
	maxJointRounds = 1
	return func() { maxJointRounds = saved }
}

// WithoutHoudini makes linearInvariants keep every case from the start,
// until the returned function restores it.
func WithoutHoudini() (restore func()) {
	noHoudini = true
	return func() { noHoudini = false }
}

// BreakHoudini makes linearInvariants leave every idle case out, until
// the returned function restores it.
func BreakHoudini() (restore func()) {
	brokenHoudini = true
	return func() { brokenHoudini = false }
}

// CoverAnswer is what the backward coverability search (cover.go) says
// of ts, the transition system of m with its bad states: Applies is
// false when m's steps are not monotone; otherwise Cex (a run) or
// Invariant (the complement of the fixpoint, with the place invariants
// it pruned by) when it answered within work, neither when it ran out.
type CoverAnswer struct {
	Applies   bool
	Transfers bool // some step sets a counter to a sum
	Cex       *presburger.Counterexample
	Invariant presburger.Formula
	Work      int64
	Fused     int // the variables fused (coverfuse.go)
	Twins     int // the variables merged into their twins (covertwins.go)
	Loosened  int // variables unbounded and clauses pruned by the linear invariants
	// Capped counts the steps with caps (lossy.go), and CappedEnd says
	// that the search ended with neither answer, on a chain through a
	// step whose caps fail.
	Capped    int
	CappedEnd bool
	Pooled    int // sizes read as sums of counters (poolSums)
	Hot       int // variables read one-hot (coverhot.go)
	Projected int // dead variables projected out of the vectors (coverdead.go)
	Ranged    int // variables read without their greatest values (rangedSystem)
	Dropped   int // steps the semi-positive invariants exclude (coverhoudini.go)
}

// Cover runs the backward coverability search on ts.
func Cover(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, work int64) CoverAnswer {
	lis := linearInvariants(m, nil)
	cs, ok := monotoneSystem(m, ts, lis)
	if !ok {
		return CoverAnswer{}
	}
	out := againWithSums(ctx, m, ts, lis, cs.backward(ctx, work), work)
	return coverAnswer(cs, out)
}

// CoverRanged is Cover on the reading with the greatest values of the
// variables that may hold more than one read as caps (rangedSystem),
// with no other reading after it; Applies is false when the reading is
// not monotone or reads no variable so.
func CoverRanged(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, work int64) CoverAnswer {
	cs, ok := rangedSystem(m, ts, linearInvariants(m, nil))
	if !ok {
		return CoverAnswer{}
	}
	return coverAnswer(cs, cs.backward(ctx, work))
}

func coverAnswer(cs *coverSystem, out coverOutcome) CoverAnswer {
	transfers := slices.ContainsFunc(cs.steps, func(s coverStep) bool { return s.moved != nil })
	return CoverAnswer{Applies: true, Transfers: transfers, Cex: out.cex, Invariant: out.invariant, Work: out.work, Fused: cs.fused, Twins: cs.twinned, Loosened: cs.loosened, Capped: cs.capped, CappedEnd: out.capped, Pooled: len(cs.poolFacts), Hot: cs.hotCount(), Projected: len(cs.projected), Ranged: cs.ranged, Dropped: cs.dropped}
}

// WithoutHoudiniSteps turns the least fixpoint of the semi-positive
// invariants off (coverhoudini.go), until the returned function
// restores it.
func WithoutHoudiniSteps() (restore func()) {
	noHoudiniSteps = true
	return func() { noHoudiniSteps = false }
}

// BreakHoudiniSteps makes the fixpoint stop after its first round,
// until the returned function restores it: the steps that the
// invariants of the steps enabled at the start exclude are left out,
// whatever the other steps do.
func BreakHoudiniSteps() (restore func()) {
	brokenHoudiniSteps = true
	return func() { brokenHoudiniSteps = false }
}

// WithoutProjection turns the projection of dead variables off
// (coverdead.go), until the returned function restores it.
func WithoutProjection() (restore func()) {
	noProjection = true
	return func() { noProjection = false }
}

// BreakProjection makes the projection wrong, until the returned
// function restores it: a proof leaves the values of the variables
// projected out unstated.
func BreakProjection() (restore func()) {
	brokenProjection = true
	return func() { brokenProjection = false }
}

// CoverProbing is Cover with the small instances explored between the
// rounds of the search, as coverFirst does on a system with caps: run
// is the run a probe found, which ended the search.
func CoverProbing(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, work int64) (a CoverAnswer, run *presburger.Counterexample) {
	cs, ok := monotoneSystem(m, ts, linearInvariants(m, nil))
	if !ok {
		return CoverAnswer{}, nil
	}
	probeSmall(cs, m, ts, &run)
	out := cs.backward(ctx, work)
	return CoverAnswer{Applies: true, Cex: out.cex, Invariant: out.invariant, Work: out.work, Capped: cs.capped, CappedEnd: out.capped}, run
}

// WithoutOneHot turns the one-hot reading of program counters off
// (coverhot.go), until the returned function restores it.
func WithoutOneHot() (restore func()) {
	noOneHot = true
	return func() { noOneHot = false }
}

// BreakOneHot makes the one-hot reading wrong, until the returned
// function restores it: a step that sets a program counter adds its
// token to the new value without taking it from the old one.
func BreakOneHot() (restore func()) {
	brokenHot = true
	return func() { brokenHot = false }
}

// WithoutFusion turns the fusion of transient variables off, until the
// returned function restores it.
func WithoutFusion() (restore func()) {
	noFusion = true
	return func() { noFusion = false }
}

// BreakFusion makes the fusion wrong, until the returned function
// restores it: a variable that other steps read is fused all the same.
func BreakFusion() (restore func()) {
	brokenFusion = true
	return func() { brokenFusion = false }
}

// WithoutTwins turns the merging of twin variables off, until the
// returned function restores it.
func WithoutTwins() (restore func()) {
	noTwins = true
	return func() { noTwins = false }
}

// BreakTwins makes the merging of twins wrong, until the returned
// function restores it: variables read only by the steps that take
// from them are merged whatever those steps are.
func BreakTwins() (restore func()) {
	brokenTwins = true
	return func() { brokenTwins = false }
}

// CoverGeneralized runs the backward coverability search with
// generalization (coversample.go) on ts, however the plain search would
// end, with a sample of at most states states of the instances up to
// extra processes beyond the least sizes, and says how many elements of
// the last search were generalized and how many wrong guesses made it
// start again.
func CoverGeneralized(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, work, extra int64, states int) (a CoverAnswer, generalized, restarts int) {
	cs, ok := monotoneSystem(m, ts, linearInvariants(m, nil))
	if !ok {
		return CoverAnswer{}, 0, 0
	}
	var spent int64
	smp := cs.sample(ctx, extra, states, states, &spent)
	if smp == nil {
		return CoverAnswer{Applies: true}, 0, 0
	}
	out := cs.generalizedSearch(ctx, work, smp, new(*coverSearch))
	out.work += spent
	transfers := slices.ContainsFunc(cs.steps, func(s coverStep) bool { return s.moved != nil })
	return CoverAnswer{Applies: true, Transfers: transfers, Cex: out.cex, Invariant: out.invariant, Work: out.work, Fused: cs.fused, Twins: cs.twinned, Loosened: cs.loosened, Capped: cs.capped, CappedEnd: out.capped, Pooled: len(cs.poolFacts)}, out.generalized, out.restarts
}

// BreakGeneralization makes the generalization wrong, until the
// returned function restores it: with initial set, a generalized
// element may lie below an initial state; with chains, a chain through
// a generalized element is taken for a run. The tests that the random
// cross-check catches either use it.
func BreakGeneralization(initial, chains bool) (restore func()) {
	brokenInitial, brokenChains = initial, chains
	return func() { brokenInitial, brokenChains = false, false }
}

// BreakCaps makes the lossy reading of caps wrong (lossy.go), until the
// returned function restores it: with chains, a chain through a step
// whose caps fail is taken for a run; with pre, the pre-image keeps the
// states that meet the caps after the step rather than before it; with
// poolFacts, an invariant leaves out the sums of counters it read n or
// a size as (poolSums).
func BreakCaps(chains, pre, poolFacts bool) (restore func()) {
	brokenCaps, brokenPreCaps, brokenPoolFacts = chains, pre, poolFacts
	return func() { brokenCaps, brokenPreCaps, brokenPoolFacts = false, false, false }
}

// MonotoneCandidates returns the candidate lemmas of m from its
// monotone combinations and from the ceilings of its guards
// (monotone.go).
func MonotoneCandidates(m *counterabs.ParamModel) (monotone, ceiling []presburger.Formula) {
	s := newMonotoneSearch(m)
	return monotoneCandidates(m, s), ceilingCandidates(m, s, thresholdAtoms(m, stepSigns(m)))
}

// Houdini returns the candidates that Houdini's filter keeps on ts
// (lemma.go): the largest subset inductive together.
func Houdini(ctx context.Context, s presburger.Solver, ts presburger.TransitionSystem, cands []presburger.Formula) ([]presburger.Formula, error) {
	return houdiniWith(ctx, s, ts, cands, reachSample{})
}

// HoudiniSampled is Houdini with the candidates that a reachable state
// of m's small instances violates dropped first (sample.go), as Check
// runs it.
func HoudiniSampled(ctx context.Context, s presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem, cands []presburger.Formula) ([]presburger.Formula, error) {
	return houdiniWith(ctx, s, ts, cands, sampleReachable(ctx, m, ts))
}

// SampleReachable returns the states of ts that sample.go takes from
// the small instances of m, each as a valuation of the state variables
// and parameters of ts.
func SampleReachable(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem) []func(presburger.Var) int64 {
	var out []func(presburger.Var) int64
	for _, x := range sampleReachable(ctx, m, ts).states {
		out = append(out, func(v presburger.Var) int64 { return x[v] })
	}
	return out
}

// IgnoreGuardsInSample makes the sample of sample.go follow every step,
// its guard and transition formula unread, until the returned function
// restores the checks.
func IgnoreGuardsInSample() (restore func()) {
	sampleChecksSteps = false
	return func() { sampleChecksSteps = true }
}

func houdiniWith(ctx context.Context, s presburger.Solver, ts presburger.TransitionSystem, cands []presburger.Formula, sample reachSample) ([]presburger.Formula, error) {
	ls := make([]Lemma, len(cands))
	for i, f := range cands {
		ls[i] = Lemma{Formula: f}
	}
	kept, err := houdini(ctx, s, ts, ls, sample)
	var out []presburger.Formula
	for _, l := range kept {
		out = append(out, l.Formula)
	}
	return out, err
}

// AssumeSettling makes prove take every system for one whose runs
// settle, until the returned function restores the check: the test that
// a wrong settling check is caught by the oracle uses it.
func AssumeSettling() (restore func()) {
	settleCheck = func(*counterabs.ParamModel) (bool, string) { return true, "" }
	return func() { settleCheck = settles }
}

// Settles exposes the settling check (settle.go).
func Settles(m *counterabs.ParamModel) bool {
	ok, _ := settles(m)
	return ok
}

// EntryCounts exposes the entry-count candidates of m (entrycount.go).
func EntryCounts(m *counterabs.ParamModel) []presburger.Formula {
	sg := stepSigns(m)
	counted := eventVars(m, sg)
	return entryCounts(m, counted, sg.countedDown(counted))
}

// Transported exposes the conditions of ts.Init carried to every state
// through the ghost constants (ghost.go).
func Transported(m *counterabs.ParamModel, ts presburger.TransitionSystem) []presburger.Formula {
	return transported(m, ts)
}

// AcceptSomeCase makes a premise split into cases count as proved when
// some case is (ghost.go: everyCase), until the returned function
// restores the check.
func AcceptSomeCase() (restore func()) {
	everyCase = false
	return func() { everyCase = true }
}

// SumThresholds exposes the sum threshold candidates of m (ghostbound.go).
func SumThresholds(m *counterabs.ParamModel) []presburger.Formula { return sumThresholds(m) }

// StateEquation is stateEquation: invariants, one per disjunct of
// ts.Bad, that exclude the bad states, or nil.
func StateEquation(ctx context.Context, s presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem) []presburger.Formula {
	return stateEquation(ctx, s, m, ts)
}

// UpwardPart exposes upwardPart: the clauses of bad that the backward
// search may read on a joint question that it does not read whole.
func UpwardPart(m *counterabs.ParamModel, bad presburger.Formula) (presburger.Formula, bool) {
	return upwardPart(m, bad)
}

// CoverUpward runs coverUpward on ts, the joint question of Check,
// and returns the run it refutes ts with, nil when it finds none.
func CoverUpward(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, solver presburger.Solver) (*presburger.Counterexample, error) {
	var res Result
	ok, err := coverUpward(ctx, config{joint: true}, m, ts, linearInvariants(m, nil), "", solver, &res)
	if err != nil || !ok || res.Verdict != Refuted {
		return nil, err
	}
	return res.jointRun, nil
}

// RaisedCounters exposes raisedCounters: whether some run may raise
// each counter of m above 0.
func RaisedCounters(m *counterabs.ParamModel) []bool { return raisedCounters(m) }

// Firing exposes firing: m without the steps that add no state.
func Firing(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel) (*counterabs.ParamModel, error) {
	return firing(ctx, solver, m)
}

// LiveFiring exposes liveFiring: the liveness questions' model without
// its transfers out of counters that stay 0.
func LiveFiring(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel) (*counterabs.ParamModel, error) {
	return liveFiring(ctx, solver, m)
}

// BreakRaised makes raisedCounters ignore transfers (a broadcast into a
// state raises nothing), until the returned function restores it.
func BreakRaised() (restore func()) {
	brokenRaised = true
	return func() { brokenRaised = false }
}

// NoFixedSums has the backward search read no upper bound through a
// fixed sum (fixedsum.go), until the returned function restores it.
func NoFixedSums() (restore func()) {
	noFixedSums = true
	return func() { noFixedSums = false }
}

// CountCandidates returns the texts of the candidate lemmas of kind
// "count" of m, without the steps that add no state as Check reads it
// (firing), with the bad states bad (candidates).
func CountCandidates(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, bad presburger.Formula) ([]string, error) {
	m, err := firing(ctx, solver, m)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range candidates(m, presburger.TransitionSystem{Bad: bad}) {
		if l.Kind == "count" {
			out = append(out, l.Text)
		}
	}
	return out, nil
}

// WithoutNarrowing has Check ask every premise as written, not folded
// into the initial set (narrow.go).
func WithoutNarrowing() (restore func()) {
	narrowPremises = false
	return func() { narrowPremises = true }
}

// ShallowSample has the breadth-first walk of sample.go stop after
// states at each instance, so that the random walks start early, until
// the returned function restores the bound.
func ShallowSample(states int) func() {
	old := sampleInstanceStates
	sampleInstanceStates = states
	return func() { sampleInstanceStates = old }
}

// HoudiniAsksAnew has Houdini's filter ask each batched round anew,
// not through a presburger.Selector, until the returned function
// restores it.
func HoudiniAsksAnew() func() {
	houdiniSelects = false
	return func() { houdiniSelects = true }
}

// RaiseToInitial returns the formulas fs, read as candidates, raised
// to the greatest value over m's initial states where premise holds
// (initmax.go).
func RaiseToInitial(ctx context.Context, s presburger.Solver, m *counterabs.ParamModel, premise presburger.Formula, fs []presburger.Formula) []presburger.Formula {
	var cands []Lemma
	for _, f := range fs {
		cands = append(cands, Lemma{Kind: "monotone", Formula: f})
	}
	var out []presburger.Formula
	for _, l := range raiseToInitial(ctx, s, m, safetySystem(m, premise, presburger.True), cands) {
		out = append(out, l.Formula)
	}
	return out
}

// WithoutPhaseCut has Check ask every property of the system as written
// (no initial phase cut off, phase.go), until the returned function
// restores it.
func WithoutPhaseCut() (restore func()) {
	phaseElimination = false
	return func() { phaseElimination = true }
}

// WithoutPhaseJoin has every join of the two proofs of an initial
// phase's questions fail (carryProof), until the returned function
// restores it.
func WithoutPhaseJoin() (restore func()) {
	phaseJoin = false
	return func() { phaseJoin = true }
}

// AskedAgain says that res, the answer of a derived question (a sliced
// system, the steps after an initial phase), was a run that could not
// be carried to the system given, which was asked again.
func AskedAgain(res Result) bool { return res.askedAgain }

// HoudiniFacts returns the candidates that Houdini's filter keeps on ts
// with m's linear invariants as facts, as Check asks it (houdiniFacts:
// the batched rounds on the system without the variables the
// invariants define) and as houdini asks it of ts strengthened by them;
// reduced says whether some invariant defines a variable.
func HoudiniFacts(ctx context.Context, s presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem, cands []presburger.Formula) (withFacts, plain []presburger.Formula, reduced bool, err error) {
	lis := linearInvariants(m, nil)
	ls := make([]Lemma, len(cands))
	for i, f := range cands {
		ls[i] = Lemma{Formula: f}
	}
	formulas := func(ls []Lemma) []presburger.Formula {
		var out []presburger.Formula
		for _, l := range ls {
			out = append(out, l.Formula)
		}
		return out
	}
	kept, err := houdiniFacts(ctx, s, m, ts, lis, ls, reachSample{})
	if err != nil {
		return nil, nil, false, err
	}
	base := ts
	if len(lis) > 0 {
		base = strengthen(ts, linearConj(m, lis))
	}
	again, err := houdini(ctx, s, base, ls, reachSample{})
	_, _, reduced = reduceByFacts(m, ts, lis)
	return formulas(kept), formulas(again), reduced, err
}

// FactsQuestion answers whether f holds with m's linear invariants in a
// state of the domain of ts, asked as it is (plain) and without the
// variables the invariants define (reduced, factPivots.problem); ok is
// false when no invariant defines one.
func FactsQuestion(ctx context.Context, s presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem, f presburger.Formula) (plain, reduced presburger.Result, ok bool, err error) {
	lis := linearInvariants(m, nil)
	fp, ok := newFactPivots(m, ts, lis)
	if !ok {
		return 0, 0, false, nil
	}
	a, err := s.Solve(ctx, presburger.Problem{Bounds: ts.Domain, F: presburger.Conj(f, linearConj(m, lis))})
	if err != nil {
		return 0, 0, false, err
	}
	p, ok := fp.problem(ts.Domain, f)
	if !ok {
		return 0, 0, false, nil
	}
	b, err := s.Solve(ctx, p)
	return a.Result, b.Result, true, err
}

// CoverRound is what one round of the backward search answered
// (CoverRounds).
type CoverRound struct {
	Exhausted, Capped bool
	Elements          int
	// Work is the comparisons of the search from its start (the plain
	// search only: the generalized one's rounds count their own).
	Work                  int64
	Invariant, Cex, Chain string
	Generalized, Restarts int
	SampleStates          int
}

// CoverRounds runs the backward search on ts within each budget of
// works in turn, until a round answers, twice: going on with the last
// round's search (coverSearch, as backward does) and as a new search
// at each budget (as it did before). With sampled, the search is the
// generalized one (generalizedSearch), on a sample of the initial
// states alone, which grows after each wrong guess: each of the two
// has a sample of its own, drawn alike. ok is false when the system is
// not monotone.
func CoverRounds(ctx context.Context, m *counterabs.ParamModel, ts presburger.TransitionSystem, works []int64, sampled bool) (resumed, fresh []CoverRound, ok bool) {
	cs, ok := monotoneSystem(m, ts, linearInvariants(m, nil))
	if !ok {
		return nil, nil, false
	}
	round := func(out coverOutcome, work int64, smp *coverSample) CoverRound {
		r := CoverRound{Exhausted: out.exhausted, Capped: out.capped, Elements: out.elements, Work: work,
			Generalized: out.generalized, Restarts: out.restarts, Chain: fmt.Sprint(out.spurious)}
		if out.invariant != nil {
			r.Invariant = m.FormatFormula(out.invariant)
		}
		if out.cex != nil {
			r.Cex = fmt.Sprint(*out.cex)
		}
		if smp != nil {
			r.SampleStates = len(smp.states)
		}
		return r
	}
	newSample := func() *coverSample {
		var spent int64
		return cs.sample(ctx, 0, 1, 1, &spent)
	}
	if !sampled {
		srch := cs.newSearch(nil)
		for _, w := range works {
			out := srch.run(ctx, w)
			resumed = append(resumed, round(out, srch.used, nil))
			if !out.exhausted {
				break
			}
		}
		for _, w := range works {
			out := cs.search(ctx, w, nil)
			fresh = append(fresh, round(out, out.work, nil))
			if !out.exhausted {
				break
			}
		}
		return resumed, fresh, true
	}
	smp, last := newSample(), (*coverSearch)(nil)
	for _, w := range works {
		out := cs.generalizedSearch(ctx, w, smp, &last)
		resumed = append(resumed, round(out, 0, smp))
		if !out.exhausted {
			break
		}
	}
	smp = newSample()
	for _, w := range works {
		out := cs.generalizedSearch(ctx, w, smp, new(*coverSearch))
		fresh = append(fresh, round(out, 0, smp))
		if !out.exhausted {
			break
		}
	}
	return resumed, fresh, true
}

// WithoutLiveWitnesses has the liveness certificate's search ask every
// question of the solver, none answered by the sample's states
// (livewitness.go), until the returned function restores them.
func WithoutLiveWitnesses() (restore func()) {
	liveWitnessesOn = false
	return func() { liveWitnessesOn = true }
}

// OnLiveWitness has f called with each question that the sample's
// states answer as satisfiable (livewitness.go), until the returned
// function restores the default.
func OnLiveWitness(f func(presburger.Problem)) (restore func()) {
	onLiveWitness = f
	return func() { onLiveWitness = nil }
}

// Prune returns the part of fs that prune (lemma.go) keeps, with facts.
// With m, facts must be the linear invariants of m (LinearInvariants),
// and prune asks its question without their pivots, as the liveness
// questions do; reduced says whether it could (some invariant has a
// pivot).
func Prune(ctx context.Context, s presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem, fs []presburger.Formula, facts presburger.Formula) (kept []presburger.Formula, reduced bool) {
	var lemmas []Lemma
	for _, f := range fs {
		lemmas = append(lemmas, Lemma{Formula: f})
	}
	var fp *factPivots
	if m != nil {
		fp, reduced = newFactPivots(m, ts, linearInvariants(m, nil))
	}
	for _, l := range prune(ctx, s, ts, lemmas, facts, fp) {
		kept = append(kept, l.Formula)
	}
	return kept, reduced
}

// PruneAsksAnew has prune ask each of its questions anew, not through
// a presburger.Selector, until the returned function restores it.
func PruneAsksAnew() (restore func()) {
	pruneSelects = false
	return func() { pruneSelects = true }
}

// ParamPart returns the conditions of ts.Init on the parameters alone
// (paramPart).
func ParamPart(ts presburger.TransitionSystem) presburger.Formula { return paramPart(ts) }

// TamperLive has f change each liveness certificate of a ranking
// argument before its re-check, until the returned function restores
// the certificates.
func TamperLive(f func(*LiveCertificate)) (restore func()) {
	tamperLive = f
	return func() { tamperLive = nil }
}

// Negative returns r with every case's term negated.
func (r Rank) Negative() Rank {
	out := slices.Clone(r)
	for i := range out {
		out[i].Term = out[i].Term.Scale(-1)
	}
	return out
}

// SetTightening turns the narrowing of shared integers to the values
// they take (tight.go) on or off, returning the function that restores
// it.
func SetTightening(on bool) (restore func()) {
	was := tightening
	tightening = on
	return func() { tightening = was }
}

// TightBound exposes tightBound to the tests: the constant that shared
// variable j of sys stays at or below, by an inductive argument of its
// own, ok false when there is none below its domain's greatest.
func TightBound(ctx context.Context, sys *gsst.System, j int, solver presburger.Solver) (int, bool, error) {
	return tightBound(ctx, sys, j, sys.MayFire(), solver)
}

// CarryGroupRun asks property index of the system sys has with its
// first pair of groups merged (gsst's MergeGroups), hands its answer to
// tamper, and carries it back to sys as prove does (carryRun): the
// result and whether it carried; ok false also when there is no pair or
// no refutation.
func CarryGroupRun(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, index int, tamper func(*Result)) (Result, bool, error) {
	mg, ok, err := sys.MergeGroups()
	if err != nil || !ok {
		return Result{}, false, err
	}
	sub, err := checkMerged(ctx, mg.System.WithProperties(index), prover, solver)
	if err != nil {
		return Result{}, false, err
	}
	r := sub.Results[0]
	if r.Verdict != Refuted {
		return r, false, nil
	}
	tamper(&r)
	cr := &groupCarrier{sys: sys, mg: mg, solver: solver, given: newGivenModels(sys, solver)}
	return r, cr.carryRun(ctx, index, &r), nil
}

// CarrySumsLive asks liveness property index of the system sys has with
// its first pair of shared variables merged (gsst's MergeSums), hands
// its answer to tamper, and carries it back to sys as prove does
// (carrySumsLive): the result and whether it carried; ok false also
// when there is no pair or no liveness certificate.
func CarrySumsLive(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, index int, tamper func(*Result)) (Result, bool, error) {
	mg, ok, err := sys.MergeSums()
	if err != nil || !ok {
		return Result{}, false, err
	}
	from := mg.System.WithProperties(index)
	sub, err := checkSliced(ctx, from, prover, solver)
	if err != nil {
		return Result{}, false, err
	}
	r := sub.Results[0]
	if r.Verdict != Proved || r.Live == nil {
		return r, false, nil
	}
	tamper(&r)
	sums := map[string][]string{mg.System.Shared[mg.X].Name: {sys.Shared[mg.A].Name, sys.Shared[mg.B].Name}}
	ok, err = carrySumsLive(ctx, solver, liveModelOf(sys), mg, sums, sys.Properties[index].Name, &r)
	return r, ok, err
}

// SetGroupFreeing turns the asking of a system with the group lists no
// run reads dropped (sameruns.go) on or off, returning the function
// that restores it.
func SetGroupFreeing(on bool) (restore func()) {
	was := groupFreeing
	groupFreeing = on
	return func() { groupFreeing = was }
}

// SetCaseJoining turns the asking of a system with its case splits
// joined (sameruns.go) on or off, returning the function that restores
// it.
func SetCaseJoining(on bool) (restore func()) {
	was := caseJoining
	caseJoining = on
	return func() { caseJoining = was }
}

// SetControllersShared turns the reading of controllers as shared
// variables (sameruns.go) on or off, returning the function that
// restores it.
func SetControllersShared(on bool) (restore func()) {
	was := controllersShared
	controllersShared = on
	return func() { controllersShared = was }
}

// SetSameRunsControlled makes prove ask, in place of the system of the
// same runs, the system of read's Controlled, with its controllers: the
// tests give it one read from a system of other runs.
func SetSameRunsControlled(read func(*gsst.System) *gsst.Controlled) (restore func()) {
	was := sameRunsOf
	sameRunsOf = func(sys *gsst.System) (sameRunsSystem, error) {
		c := read(sys)
		return sameRunsSystem{sys: c.System, ctl: c, what: []string{"the controllers read as shared variables (tampered)"}}, nil
	}
	return func() { sameRunsOf = was }
}

// SetStepAbsorbing turns the absorption of intermediate states
// (sameruns.go, gsst's AbsorbSteps) on or off, returning the function
// that restores it.
func SetStepAbsorbing(on bool) (restore func()) {
	was := stepAbsorbing
	stepAbsorbing = on
	return func() { stepAbsorbing = was }
}

// SetAbsorbed makes prove ask, in place of the system of the same runs,
// what absorb returns for the system as written, read as a system with
// the states of into absorbed into their targets: the tests give it a
// system that absorbed what it may not. It returns the function that
// restores it.
func SetAbsorbed(absorb func(*gsst.System) (*gsst.System, map[int]int)) (restore func()) {
	was := sameRunsOf
	sameRunsOf = func(sys *gsst.System) (sameRunsSystem, error) {
		alike, into := absorb(sys)
		return sameRunsSystem{sys: alike, absorbed: into, what: []string{"intermediate states absorbed (tampered)"}}, nil
	}
	return func() { sameRunsOf = was }
}

// SetSameRuns makes prove ask, in place of the system of the same runs
// (sameruns.go), what alike returns for the system as written, as
// though cases were joined: the tests give it a system with other runs.
// It returns the function that restores it.
func SetSameRuns(alike func(*gsst.System) *gsst.System) (restore func()) {
	was := sameRunsOf
	sameRunsOf = func(sys *gsst.System) (sameRunsSystem, error) {
		return sameRunsSystem{sys: alike(sys), what: []string{"the case splits joined (tampered)"}}, nil
	}
	return func() { sameRunsOf = was }
}

// CarryFreed asks property index of sys with the group lists no run
// reads dropped (gsst's FreeGroups), hands its answer to tamper, and
// carries it back to sys as prove does (carryFreed): the result and
// whether it carried; ok false also when no list is dropped or the
// property is not proved.
func CarryFreed(ctx context.Context, sys *gsst.System, prover presburger.Prover, solver presburger.Solver, index int, tamper func(*Result)) (Result, bool, error) {
	free, ok, err := sys.FreeGroups()
	if err != nil || !ok {
		return Result{}, false, err
	}
	one := free.WithProperties(index)
	sub, err := checkGroupsMerged(ctx, one, prover, solver)
	if err != nil {
		return Result{}, false, err
	}
	r := sub.Results[0]
	if r.Verdict != Proved {
		return r, false, nil
	}
	tamper(&r)
	ok, err = carryFreed(ctx, sys, one, sameRunsSystem{}, newGivenModels(sys, solver), solver, newJointCarry(), index, &r)
	return r, ok, err
}
