package prove

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/progress"
)

// Some questions are asked of a system derived from the one given: the
// family with a pinned parameter at its value (Check), the system
// without the shared variables nothing reads (checkSliced), the
// initial set narrowed by a premise (narrow.go), the phase and the
// steps after an initial phase (phase.go). Their answers are turned
// into answers of the system given before they are reported, so that a
// proof is an invariant of the system as written, re-checked on its own
// model by the same checker as every invariant, and a refutation a run
// of that system, replayed on its instance: the argument that the
// derived question is the same question is then no part of the
// evidence, only of how it was found.

// safetyProof is what a proof of a safety question was checked on: the
// model m and its transition system ts (m's steps, ts.Init the initial
// states where the premise holds, ts.Bad the states violating phi), so
// that its invariant can be carried to the model of another system.
type safetyProof struct {
	m  *counterabs.ParamModel
	ts presburger.TransitionSystem
}

// liftFormula rewrites f, a formula over the variables of model from,
// over those of model to, the model of a system with the same local
// states and groups: counters by state and group (a total counter of
// from as the sum of the group counters of to), sizes and n as they
// are, shared variables and parameters by name. A shared variable that
// is a state variable of from but a constant of to reads to's constant.
// ok is false when f reads a variable with no counterpart (a local of a
// guard, a variable to's system does not have) or a coefficient would
// overflow.
func liftFormula(from, to *counterabs.ParamModel, f presburger.Formula) (presburger.Formula, bool) {
	return liftFormulaSums(from, to, f, nil)
}

// liftFormulaSums is liftFormula where some shared variables of from
// are sums of shared variables of to: sums maps the name of each to the
// names of the variables it adds up (a pair merged by gsst's MergeSums),
// and the variable reads as their sum.
func liftFormulaSums(from, to *counterabs.ParamModel, f presburger.Formula, sums map[string][]string) (presburger.Formula, bool) {
	return liftFormulaVia(from, to, f, liftMap{sums: sums})
}

// liftMap is what a derived system merged of the given one's variables:
// sums, as for liftFormulaSums; groups, when not nil, the groups of to
// each group of from stands for (gsst's MergeGroups: a counter or size
// of the merged group reads as the sum of the pair's), nil when the
// groups are the same; extra, variables of from and what they read as
// in to, before anything else (a controller's value, its states' empty
// counters and n: controllerLift).
type liftMap struct {
	sums   map[string][]string
	groups func(g int) []int
	extra  map[presburger.Var]presburger.Term
	// given, facts over to's variables conjoined to the carried
	// invariant (carryIntoVia) and re-checked with it: what holds of
	// to's reachable states that the derived model has no variable to
	// say (sameruns.go: a group's counters of states only another
	// group enters are 0).
	given []presburger.Formula
	// absorbed maps each state M that from's system absorbed into B
	// (gsst's AbsorbSteps) to B: from's counters of M, always 0 there,
	// read 0, and those of B read as to's of B and of each M absorbed
	// into it.
	absorbed map[int]int
}

// liftFormulaVia is liftFormula with the variables merged as lm says.
func liftFormulaVia(from, to *counterabs.ParamModel, f presburger.Formula, lm liftMap) (presburger.Formula, bool) {
	sums := lm.sums
	groupsOf := lm.groups
	if groupsOf == nil {
		groupsOf = func(g int) []int { return []int{g} }
	}
	if len(from.System.States) != len(to.System.States) || lm.groups == nil && len(from.System.Groups) != len(to.System.Groups) {
		return nil, false
	}
	sharedAt := map[string]presburger.Term{}
	for j := range to.System.Shared {
		v := &to.System.Shared[j]
		if v.InitTerm.IsConst() && !v.InitSeveral() {
			sharedAt[v.Name] = presburger.ConstTerm(int64(v.Init))
		}
	}
	for j := range to.Shared {
		sharedAt[to.Shared[j].Name] = presburger.VarTerm(to.SharedVar(j))
	}
	for name, parts := range sums {
		var t presburger.Term
		for _, part := range parts {
			u, ok := sharedAt[part]
			if !ok {
				return nil, false
			}
			if t, ok = t.AddExact(u); !ok {
				return nil, false
			}
		}
		sharedAt[name] = t
	}
	paramAt := map[string]presburger.Var{}
	for k := range to.System.Params {
		paramAt[to.System.Params[k].Name] = to.ParamVar(k)
	}
	sub := map[presburger.Var]presburger.Term{}
	for _, v := range presburger.FreeVars(f) {
		if t, ok := lm.extra[v]; ok {
			sub[v] = t
			continue
		}
		var t presburger.Term
		ok := true
		switch {
		case int(v) < len(from.Counters):
			t, ok = liftCounter(to, lm, from.Counters[v])
		case v >= from.SizeVar(0) && v < from.NVar():
			for _, g := range groupsOf(int(v - from.SizeVar(0))) {
				t = t.Add(presburger.VarTerm(to.SizeVar(g)))
			}
		case v == from.NVar():
			t = presburger.VarTerm(to.NVar())
		case len(from.Shared) > 0 && v >= from.SharedVar(0) && v < from.SharedVar(len(from.Shared)):
			t, ok = sharedAt[from.Shared[v-from.SharedVar(0)].Name]
		case len(from.System.Params) > 0 && v >= from.ParamVar(0) && v < from.ParamVar(len(from.System.Params)):
			var w presburger.Var
			w, ok = paramAt[from.System.Params[v-from.ParamVar(0)].Name]
			t = presburger.VarTerm(w)
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
		sub[v] = t
	}
	return presburger.SubstExact(f, func(v presburger.Var) presburger.Term { return sub[v] })
}

// liftCounter is the term over to's counters of c, a counter of a
// model of a system with to's states, as liftFormulaVia reads it: 0 for
// a state the system absorbed, else c read in to (counterIn) plus, for
// the state B that absorbed others, to's counters of each of them.
func liftCounter(to *counterabs.ParamModel, lm liftMap, c counterabs.Counter) (t presburger.Term, ok bool) {
	if _, gone := lm.absorbed[c.State]; gone {
		return t, true // 0: no process of from is ever there
	}
	if t, ok = counterIn(to, lm, c); !ok {
		return t, false
	}
	for _, m := range slices.Sorted(maps.Keys(lm.absorbed)) {
		if lm.absorbed[m] != c.State {
			continue
		}
		u, found := counterIn(to, lm, counterabs.Counter{State: m, Group: c.Group})
		if !found {
			return t, false
		}
		t = t.Add(u)
	}
	return t, true
}

// counterIn is the term over to's counters of the counter c of a model
// of a system with to's states (to's Counter, which reads a counter to
// leaves out as 0): c itself, a group counter of the groups lm reads it
// as (merged, when lm merges groups), or a total counter read over to's
// groups. ok is false for a group counter when to is the total-counter
// model.
func counterIn(to *counterabs.ParamModel, lm liftMap, c counterabs.Counter) (t presburger.Term, ok bool) {
	switch {
	case c.Group >= 0 && to.Level == counterabs.TotalLevel:
		return t, false
	case c.Group >= 0 && lm.groups != nil:
		for _, g := range lm.groups(c.Group) {
			t = t.Add(to.CounterTerm(c.State, g))
		}
		return t, true
	case c.Group >= 0 || to.Level == counterabs.TotalLevel:
		return to.CounterTerm(c.State, c.Group), true
	}
	for g := range to.System.Groups {
		t = t.Add(to.CounterTerm(c.State, g))
	}
	return t, true
}

// leftOutFacts states over to's variables that the counters from
// leaves out (a sparse model's, of states a group never enters) are 0,
// each of to's counters their lift reads (liftCounter) where to has
// it: what cutFacts says of those counters on a model that has them,
// and what an invariant of from leans on without writing it.
func leftOutFacts(from, to *counterabs.ParamModel, lm liftMap) ([]presburger.Formula, bool) {
	if !from.Sparse() {
		return nil, true
	}
	var facts []presburger.Formula
	for g := range from.System.Groups {
		for s := range from.System.States {
			if _, ok := from.Counter(s, g); ok {
				continue
			}
			t, ok := liftCounter(to, lm, counterabs.Counter{State: s, Group: g})
			if !ok {
				return nil, false
			}
			for _, mo := range t.Monos {
				facts = append(facts, presburger.Compare(presburger.VarTerm(mo.Var), presburger.Eq, presburger.Term{}))
			}
		}
	}
	return facts, true
}

// givenModels builds, once per level, the model of a system given to
// Check (with no property: the questions bring their own), as check
// builds it: the steps a run can take (RunSteps), without the steps no
// run takes (firing, whose cut is checked), with the guards as written.
type givenModels struct {
	sys    *gsst.System
	solver presburger.Solver
	// cert, when set, is sys's certification, made before: the
	// total-counter model is built without certifying again.
	cert *detect.Report
	// written is the system with all its properties, whose liveness
	// model (liveModel) is built when first asked.
	written   *gsst.System
	live      *counterabs.ParamModel
	liveBuilt bool
	built     map[counterabs.Level]*counterabs.ParamModel
	failed    map[counterabs.Level]bool
}

func newGivenModels(sys *gsst.System, solver presburger.Solver) *givenModels {
	// The safety properties, which the model writes over its
	// variables (carryInto reads them); the others it does not take.
	var safety []int
	for i := range sys.Properties {
		if _, _, ok := counterabs.PremisedSafety(sys.Properties[i].Formula); ok {
			safety = append(safety, i)
		}
	}
	return &givenModels{sys: sys.WithProperties(safety...), written: sys, solver: solver, built: map[counterabs.Level]*counterabs.ParamModel{}, failed: map[counterabs.Level]bool{}}
}

// liveModel is the given system's model of its liveness questions
// (liveModelOf), which every liveness certificate carried to it is
// re-checked on: built once, when first asked; nil when it cannot be.
func (g *givenModels) liveModel() *counterabs.ParamModel {
	if !g.liveBuilt {
		g.live, g.liveBuilt = liveModelOf(g.written), true
	}
	return g.live
}

// carryInto carries the proof of res, found on a derived question, to
// the safety property name of the given system, at its model to
// (givenModels), from that property's own premise: the invariant over
// to's variables (liftFormula), with what the derived model may take
// for granted stated: what firing checked before it left steps out of
// the derived model (cutFacts: the counters that stay 0, the values the
// shared variables keep to), each shared variable it
// reads as a constant (the narrowed system starts it at one value, and
// no step writes it) has that value, and the conditions on the
// parameters; checked with CheckInvariant on to from the premise as
// written. ok says that res now holds it; false, with res unchanged,
// when a formula does not carry or the check fails or cannot decide
// (then the derived answer stands, with what was derived said in its
// reason).
func carryInto(ctx context.Context, to *counterabs.ParamModel, name string, solver presburger.Solver, res *Result) (bool, error) {
	return carryIntoSums(ctx, to, []string{name}, solver, res, nil)
}

// carryIntoSums is carryInto where some shared variables of the derived
// system are sums of shared variables of the given one (sums, as for
// liftFormulaSums), for the properties names together: one name, or
// several without a premise that one invariant proved together
// (proveJoint), checked once from every initial configuration against
// the conjunction of their phis.
func carryIntoSums(ctx context.Context, to *counterabs.ParamModel, names []string, solver presburger.Solver, res *Result, sums map[string][]string) (bool, error) {
	return carryIntoVia(ctx, to, names, solver, res, liftMap{sums: sums})
}

// carryIntoVia is carryIntoSums with the variables merged as lm says
// (liftFormulaVia).
func carryIntoVia(ctx context.Context, to *counterabs.ParamModel, names []string, solver presburger.Solver, res *Result, lm liftMap) (bool, error) {
	sums := lm.sums
	if to == nil || res.proof == nil || res.Invariant == nil || res.Live != nil || len(names) == 0 {
		return false, nil
	}
	premise, phi := premisedSafetyOf(to, names[0])
	if len(names) > 1 {
		for _, name := range names {
			if p, f := premisedSafetyOf(to, name); p != presburger.Formula(presburger.True) || f == nil {
				return false, nil
			}
		}
		phi = safetyConj(to, names)
	}
	if phi == nil {
		return false, nil
	}
	from := res.proof.m
	parts := []presburger.Formula{res.Invariant}
	parts = append(parts, cutFacts(from)...)
	inv, ok := liftFormulaVia(from, to, conjOnce(parts...), lm)
	if !ok {
		return false, nil
	}
	leftOut, ok := leftOutFacts(from, to, lm)
	if !ok {
		return false, nil
	}
	given := append(slices.Clone(lm.given), leftOut...)
	state := map[string]bool{}
	for j := range from.Shared {
		state[from.Shared[j].Name] = true
	}
	// A counter of to that the given facts say stays 0 (a group's
	// counter of a state only other groups enter, or one from leaves
	// out) reads as 0 in inv: the facts are conjoined and re-checked
	// with it, so the invariant is the same, and a total counter of
	// from read as the sum over every group of to keeps only the groups
	// that may be there (a shared variable written as 58 controllers,
	// each a group of its own: 59 terms for each counter, 5 s of
	// substitutions in the re-check).
	if zero := zeroVars(given); len(zero) > 0 {
		if inv, ok = presburger.SubstExact(inv, func(v presburger.Var) presburger.Term {
			if zero[v] {
				return presburger.Term{}
			}
			return presburger.VarTerm(v)
		}); !ok {
			return false, nil
		}
	}
	facts := append([]presburger.Formula{inv}, given...)
	// The derived family's conditions on the parameters: its assumption
	// may say more than to's (a premise's conjunct on a variable that
	// starts at a parameter's value, narrow.go), and a parameter it
	// pins is a constant of its formulas.
	cond, ok := liftFormulaVia(from, to, paramPart(res.proof.ts), lm)
	if !ok {
		return false, nil
	}
	facts = append(facts, cond)
	for k := range from.System.Params {
		p := &from.System.Params[k]
		if q, found := paramNamed(to.System, p.Name); p.Fixed && found && !to.System.Params[q].Fixed {
			facts = append(facts, presburger.Compare(presburger.VarTerm(to.ParamVar(q)), presburger.Eq, presburger.ConstTerm(int64(p.Value))))
		}
	}
	for j := range to.Shared {
		k, found := sharedNamed(from.System, to.Shared[j].Name)
		if !found || state[to.Shared[j].Name] {
			continue
		}
		v := &from.System.Shared[k]
		if !v.InitTerm.IsConst() || v.InitSeveral() {
			return false, nil
		}
		facts = append(facts, presburger.Compare(presburger.VarTerm(to.SharedVar(j)), presburger.Eq, presburger.ConstTerm(int64(v.Init))))
	}
	// A sum the derived model reads as a constant (no step it takes
	// writes it) is its parts at their initial values, each a constant
	// (MergeSums merges no other).
	for name, parts := range sums {
		if state[name] {
			continue
		}
		for j := range to.Shared {
			if v := &to.System.Shared[to.SharedIndex(j)]; slices.Contains(parts, v.Name) {
				facts = append(facts, presburger.Compare(presburger.VarTerm(to.SharedVar(j)), presburger.Eq, presburger.ConstTerm(int64(v.Init))))
			}
		}
	}
	ts := safetySystem(to, premise, phi)
	return recheck(ctx, solver, to, ts, conjOnce(append([]presburger.Formula{paramPart(ts)}, facts...)...), liftLemmasVia(from, to, res.Lemmas, lm, to.VarName), res)
}

// zeroVars returns the variables facts say are 0: the atoms x = 0
// among them (zeroFacts).
func zeroVars(facts []presburger.Formula) map[presburger.Var]bool {
	zero := map[presburger.Var]bool{}
	for _, f := range facts {
		c, ok := f.(presburger.Cmp)
		if ok && c.Op == presburger.Eq && c.T.Const == 0 && len(c.T.Monos) == 1 {
			zero[c.T.Monos[0].Var] = true
		}
	}
	return zero
}

// recheck checks inv on ts, the question of a property on model m,
// with CheckInvariant, and makes it res's certificate when it passes
// (ok), with lemmas, res's lemmas carried to m (each a consequence of
// inv); false, with res unchanged, when it fails or the solver cannot
// decide: a carried proof that is no certificate of the system as
// written leaves the derived one.
func recheck(ctx context.Context, solver presburger.Solver, m *counterabs.ParamModel, ts presburger.TransitionSystem, inv presburger.Formula, lemmas []Lemma, res *Result) (bool, error) {
	err := presburger.CheckInvariant(ctx, solver, ts, inv)
	var ue *presburger.UndecidedError
	var ie *presburger.InvariantError
	switch {
	case errors.As(err, &ue), errors.As(err, &ie):
		return false, nil
	case err != nil:
		return false, err
	}
	res.Invariant, res.Level, res.Lemmas = inv, m.Level, lemmas
	res.InvariantText = FormatInvariant(inv, m.VarName, m.TypedAtom)
	res.proof = &safetyProof{m: m, ts: ts}
	return true, nil
}

// checkerOf is the solver that re-checks invariants under opts: the
// CheckSolver when one is set, else solver.
func checkerOf(solver presburger.Solver, opts []Option) presburger.Solver {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.checker != nil {
		return cfg.checker
	}
	return solver
}

// at returns the model at level, or the group-counter one when the
// system is not certified for the total-counter one (a total counter
// reads there as a sum, liftFormula); nil when it cannot be built.
func (g *givenModels) at(ctx context.Context, level counterabs.Level) *counterabs.ParamModel {
	if m, ok := g.built[level]; ok || g.failed[level] {
		return m
	}
	var m *counterabs.ParamModel
	var err error
	if level == counterabs.TotalLevel {
		// BuildParam certifies, and falls back to the group-counter
		// model when it cannot.
		m, err = counterabs.BuildParam(ctx, g.sys, g.solver, counterabs.RunSteps(), counterabs.Certified(g.cert), counterabs.FirstViolation())
	} else {
		m, err = counterabs.BuildParamGroup(g.sys, counterabs.RunSteps())
	}
	if err == nil {
		m, err = firing(ctx, g.solver, m)
	}
	if err != nil {
		g.failed[level] = true
		return nil
	}
	g.built[level] = m
	return m
}

// liftProof carries the proof of res (res.proof, res.Invariant), found
// on a derived question, to the given system's model at its level: the
// invariant, the question's initial condition (its premise, and the
// derived system's initial set, which the given system's narrows to the
// same states) and bad states rewritten by liftFormula, the initial
// states and steps the given model's own; and checks it there with
// CheckInvariant. ok says that res now holds the re-checked certificate
// (Invariant, InvariantText, Level); false, with res unchanged, when
// the proof cannot be carried (a variable with no counterpart, a model
// that cannot be built) or the solver cannot decide the check. An
// invariant that fails the check is an internal error: the derived
// question was not the same question.
func liftProof(ctx context.Context, given *givenModels, solver presburger.Solver, res *Result) (ok bool, err error) {
	p := res.proof
	if p == nil || res.Invariant == nil || res.Live != nil {
		return false, nil
	}
	to := given.at(ctx, p.m.Level)
	if to == nil {
		return false, nil
	}
	inv, ok1 := liftFormula(p.m, to, res.Invariant)
	init, ok2 := liftFormula(p.m, to, p.ts.Init)
	bad, ok3 := liftFormula(p.m, to, p.ts.Bad)
	if !ok1 || !ok2 || !ok3 {
		return false, nil
	}
	ts := to.TransitionSystem().Question(bad)
	ts.Init = presburger.Conj(ts.Init, init)
	err = presburger.CheckInvariant(ctx, solver, ts, inv)
	var ue *presburger.UndecidedError
	switch {
	case errors.As(err, &ue):
		return false, nil
	case err != nil:
		return false, errkind.Errorf(errkind.Internal, "the invariant %s of the derived question does not carry to the system as written: %w", to.FormatFormula(inv), err)
	}
	res.Invariant, res.Level = inv, to.Level
	res.InvariantText = FormatInvariant(inv, to.VarName, to.TypedAtom)
	res.Lemmas = liftLemmasVia(p.m, to, res.Lemmas, liftMap{}, to.VarName)
	res.proof = &safetyProof{m: to, ts: ts}
	return true, nil
}

// liftRun carries the refutation of res (a run of a derived system's
// instance: res.Trace with its lifted steps, res.Sizes, res.Params) to
// the instance of sys at the same values, and replays it there
// (execute), property index of sys being what it refutes: the steps are
// taken again on sys's processes, by the same transitions (sys has the
// derived system's steps, in the same order, plus assignments to the
// shared variables the derived system left out), which computes the
// values of the variables left out; the states so reached are the
// trace, lifted to processes again (explore.Lift) and executed against
// the property's premise and phi. ok is false, with res unchanged, when
// the run cannot be carried: a lasso, fairness with justice (the fair
// run is explore's, of the derived instance), a property that is not
// AG phi on sys, a step the processes of sys cannot take.
func liftRun(ctx context.Context, sys *gsst.System, index int, res *Result) bool {
	inst, premise, phi, ok := safetyRunAt(sys, index, res)
	if !ok || len(res.Instance.Fairness.Justice) > 0 {
		return false
	}
	tr := res.Trace
	derived := res.Instance
	// The start: the derived run's processes and shared values, the
	// variables it does not have at their least initial value.
	start := gsst.Config{Counts: make([][]int, len(inst.Groups))}
	from := startConfig(res)
	if len(from.Counts) != len(inst.Groups) {
		return false
	}
	for g := range from.Counts {
		start.Counts[g] = slices.Clone(from.Counts[g])
	}
	start.Shared = make([]int, len(inst.Shared))
	for j := range inst.Shared {
		v := &inst.Shared[j]
		low := v.InitLow()
		if !low.IsConst() {
			return false
		}
		start.Shared[j] = int(low.Const)
		if k, found := sharedNamed(derived, v.Name); found {
			if k >= len(from.Shared) {
				return false
			}
			start.Shared[j] = from.Shared[k]
		}
	}
	start.Params = slices.Clone(from.Params)
	out := &explore.Trace{Kind: tr.Kind, Loop: -1, Segments: slices.Clone(tr.Segments)}
	withGroups := len(tr.States) > 0 && tr.States[0].Groups != nil
	if _, out.States, ok = restep(inst, start, tr.Lifted.Steps, nil, withGroups, false); !ok {
		return false
	}
	if len(out.States) != len(tr.States) {
		return false
	}
	for k := range out.States {
		if !slices.Equal(out.States[k].Counters, tr.States[k].Counters) {
			return false
		}
	}
	inst, ok = replayStates(ctx, inst, out, premise, phi)
	if !ok {
		return false
	}
	res.Instance, res.Trace = inst, out
	return true
}

// restep takes steps, the lifted run of an instance of a derived
// system, again on inst from start: each by the processes rename gives
// for its movers (the same ones when rename is nil), by the step of
// inst that explore.StepOf names, which gsst's CheckMovers lets them
// take. It returns the steps so renamed, what each transfers as inst
// computes it, and the configurations reached, start first, as trace
// states (with their group counters when withGroups says so). A
// stutter step moves no process; it is taken (the configuration
// repeated) only where stutters says so, on a lasso, whose replay
// (replayLasso) checks that it stands at a deadlock. ok is false when
// a step cannot be taken so. Every carrying of a run step by step to
// the system as written (liftRun, the group merge's carryRun and
// carryLasso) takes it here.
func restep(inst *gsst.System, start gsst.Config, steps []explore.Step, rename func(g, p int) (int, int), withGroups, stutters bool) ([]explore.Step, []explore.State, bool) {
	if rename == nil {
		rename = func(g, p int) (int, int) { return g, p }
	}
	mover := func(m explore.Mover) explore.Mover {
		m.Group, m.Process = rename(m.Group, m.Process)
		if m.Group < 0 || m.Group >= len(inst.Groups) {
			return explore.Mover{Group: -1}
		}
		m.GroupName = inst.Groups[m.Group].Name
		return m
	}
	procs := inst.NewProcs(start)
	states := []explore.State{stateOf(inst, procs.View(), withGroups)}
	out := make([]explore.Step, 0, len(steps))
	for _, st := range steps {
		if st.Stutter {
			if !stutters {
				return nil, nil, false
			}
			out = append(out, st)
			states = append(states, states[len(states)-1])
			continue
		}
		if st.Environment == nil {
			m := mover(explore.Mover{Group: st.Group, Process: st.Process})
			if m.Group < 0 {
				return nil, nil, false
			}
			st.Group, st.GroupName, st.Process = m.Group, m.GroupName, m.Process
		}
		st.Also = slices.Clone(st.Also)
		for i := range st.Also {
			if st.Also[i] = mover(st.Also[i]); st.Also[i].Group < 0 {
				return nil, nil, false
			}
		}
		step, movers, err := explore.StepOf(inst, st)
		if err != nil {
			return nil, nil, false
		}
		transferred, shared, err := inst.CheckMovers(step, procs, movers)
		if err != nil {
			return nil, nil, false
		}
		st.Transferred = nil
		for _, m := range transferred {
			st.Transferred = append(st.Transferred, explore.Mover{Group: m.Group, GroupName: inst.Groups[m.Group].Name, Process: m.Process,
				From: m.From, To: m.To, FromName: inst.States[m.From], ToName: inst.States[m.To]})
		}
		procs.Take(movers, transferred, shared)
		out = append(out, st)
		states = append(states, stateOf(inst, procs.View(), withGroups))
	}
	return out, states, true
}

// replayStates lifts tr, whose States are configurations of inst as
// counters and shared values, to process moves of inst (explore.Lift)
// and executes them (execute) from an initial configuration where
// premise holds to one where phi fails; it returns the instance the
// run is of (inst with its initial configurations up to the run's
// start, for a shared variable that starts in a range) and whether
// the run replays.
func replayStates(ctx context.Context, inst *gsst.System, tr *explore.Trace, premise, phi presburger.Formula) (*gsst.System, bool) {
	if len(tr.States) == 0 {
		return nil, false
	}
	inst = inst.InitialsUpTo(slices.Max(append([]int{0}, tr.States[0].Shared...)))
	tr.Lifted = explore.Lift(ctx, inst, tr)
	if tr.Lifted.Error != "" || execute(inst, tr, premise, phi) != nil {
		return nil, false
	}
	return inst, true
}

// instanceOf instantiates sys at the values of res, a refutation of a
// system with sys's parameters and groups.
func instanceOf(sys *gsst.System, res *Result) (*gsst.System, bool) {
	params := res.Params
	if params == nil {
		params = make([]int, len(sys.Params))
		for k := range sys.Params {
			if !sys.Params[k].Fixed {
				return nil, false
			}
			params[k] = sys.Params[k].Value
		}
	}
	inst, err := sys.InstantiateParams(params, res.Sizes)
	return inst, err == nil
}

// safetyAt returns the instance of sys at the values of res (instanceOf)
// and the premise and phi of its property index, a safety property: what
// each carrying of a run to sys replays it against. ok is false when
// the instance cannot be made or the property is no safety property.
func safetyAt(sys *gsst.System, index int, res *Result) (inst *gsst.System, premise, phi presburger.Formula, ok bool) {
	inst, ok = instanceOf(sys, res)
	if !ok || index >= len(inst.Properties) {
		return nil, nil, nil, false
	}
	premise, phi, ok = counterabs.PremisedSafety(inst.Properties[index].Formula)
	return inst, premise, phi, ok
}

// jointCarry carries the safety proofs that one invariant proved
// together (proveJoint: one proof for all their properties) to the
// system as written with one check for all, where they carry together
// (none has a premise, and the check passes), else each on its own:
// bingham with 153 places, each with its property, took 12 s for 153
// checks, where one takes what the proof did.
type jointCarry struct {
	together  map[*safetyProof][]string // the properties each proof proved
	carriedAs map[*safetyProof]*Result  // a proof carried for all of its properties
	apart     map[*safetyProof]bool     // a proof that does not carry for all of them
}

func newJointCarry() *jointCarry {
	return &jointCarry{together: map[*safetyProof][]string{}, carriedAs: map[*safetyProof]*Result{}, apart: map[*safetyProof]bool{}}
}

// add notes res, the answer to property name.
func (j *jointCarry) add(name string, res *Result) {
	if res.Verdict == Proved && res.proof != nil {
		j.together[res.proof] = append(j.together[res.proof], name)
	}
}

// carry carries res, the safety proof of property name, with carry,
// which re-checks it on the system as written for the properties names
// and says whether res now holds the certificate so re-checked: once
// for all the properties of its proof, or on its own.
func (j *jointCarry) carry(name string, res *Result, carry func(names []string, res *Result) (bool, error)) (bool, error) {
	proof := res.proof
	if c, ok := j.carriedAs[proof]; ok {
		res.takeCertificate(c)
		return true, nil
	}
	names := j.together[proof]
	if j.apart[proof] {
		names = nil
	}
	carried, err := false, error(nil)
	if len(names) > 1 {
		carried, err = carry(names, res)
		j.apart[proof] = !carried
	}
	if err == nil && !carried {
		carried, err = carry([]string{name}, res)
	}
	if err != nil || !carried {
		return false, err
	}
	if len(names) > 1 {
		c := *res
		j.carriedAs[proof] = &c
	}
	return true, nil
}

// safetyRunAt is safetyAt where res holds a run that carries to sys as
// a run to a state where phi fails: a path (no lasso), lifted without
// error, and sys without justice (a fair run is explore's). Every
// carrying of a safety run (liftRun, carryMergedRun, carryAlikeRun)
// starts here.
func safetyRunAt(sys *gsst.System, index int, res *Result) (inst *gsst.System, premise, phi presburger.Formula, ok bool) {
	tr := res.Trace
	if tr == nil || tr.Lifted == nil || res.Instance == nil || tr.Loop >= 0 || tr.Lifted.Loop >= 0 || tr.Lifted.Error != "" || len(tr.States) == 0 || len(sys.Fairness.Justice) > 0 {
		return nil, nil, nil, false
	}
	return safetyAt(sys, index, res)
}

// startConfig is the configuration the lifted run of res starts from,
// on its instance.
func startConfig(res *Result) gsst.Config {
	if res.Instance.SingleInitial() {
		return res.Instance.InitConfig()
	}
	return res.Trace.Lifted.Start
}

// stateOf writes configuration c of inst as a trace state, with its
// group counters when withGroups says so.
func stateOf(inst *gsst.System, c gsst.Config, withGroups bool) explore.State {
	var groups [][]int
	if withGroups {
		groups = make([][]int, len(c.Counts))
		for g := range c.Counts {
			groups[g] = slices.Clone(c.Counts[g])
		}
	}
	st := explore.SystemState(inst, c.Totals(len(inst.States)), groups)
	if len(inst.Shared) > 0 {
		st = st.WithShared(slices.Clone(c.Shared))
	}
	return st
}

// phaseCarrier carries the answers of the two questions of an initial
// phase (phase.go) to sys, the system it was cut from.
type phaseCarrier struct {
	ph     *initialPhase
	sys    *gsst.System
	solver presburger.Solver
	// m is sys's group-counter model with the properties carryProof
	// reads, built when first needed (built says it was tried).
	m     *counterabs.ParamModel
	built bool
	// fixed are the disjuncts constantPart moved, by index into
	// sys.Properties.
	fixed map[int]presburger.Formula
}

// linkName and fixedName name the properties of the model carryProof
// builds that carry the link and a phi's constant disjuncts: names no
// property of a file has (they start with a space).
const linkName = " link"

func fixedName(name string) string { return " constant part of " + name }

// model returns sys's group-counter model, its properties those of sys,
// the link, and each of c.fixed as AG f, so that the model writes them over its
// variables; nil when it cannot be built.
func (c *phaseCarrier) model(ctx context.Context) *counterabs.ParamModel {
	if c.built {
		return c.m
	}
	c.built = true
	ag := func(f presburger.Formula) ctl.Formula { return ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: f}} }
	var props []gsst.Property
	for i := range c.sys.Properties {
		props = append(props, c.sys.Properties[i])
		if f := c.fixed[i]; f != nil {
			props = append(props, gsst.Property{Name: fixedName(c.sys.Properties[i].Name), Formula: ag(f)})
		}
	}
	props = append(props, gsst.Property{Name: linkName, Formula: ag(c.ph.link)})
	if c.ph.pool != nil {
		props = append(props, gsst.Property{Name: capsName, Formula: ag(presburger.Conj(c.ph.pool.caps...))})
	}
	with, err := c.sys.WithDerivedProperties(props)
	if err != nil {
		return nil
	}
	m, err := counterabs.BuildParamGroup(with, counterabs.RunSteps())
	if err == nil {
		m, err = firing(ctx, c.solver, m)
	}
	if err != nil {
		return nil
	}
	c.m = m
	return m
}

// carryProof joins the proofs of property index of sys on the phase
// system (phaseRes) and on the rest system (restRes) into an invariant
// of sys's group-counter model, and checks it there with
// CheckInvariant; ok says that restRes now holds it. With In the sum
// of I's counters, the invariant is
//
//	In > 0 & PhaseInv & Frozen  |  In = 0 & (Fixed | RestInv & Stay)
//
// (with the conditions on the parameters), PhaseInv and RestInv the
// two invariants over sys's variables (liftFormula), Stay what firing
// checked of the rest system's model before it left steps out of it
// (cutFacts), which its invariant need not say, Frozen what holds
// throughout the phase (every counter
// but those of I and of the group's targets 0, each shared variable no
// step out of I increments at its initial value, which may be a term
// over the parameters, the pools' sums, the link, the premise), Fixed the disjuncts of phi that constantPart
// moved into the rest question's premise (false when none). While a
// process is in I only the steps out of I can fire (the others wait
// for In = 0), which keep PhaseInv (inductive on the phase system) and
// Frozen; the step that empties I ends in a configuration that Frozen
// and In = 0 make one of the rest system's initial ones where the link
// and the premise hold, so where RestInv holds, unless Fixed does;
// after it, no step enters I, Fixed reads only what no step changes
// there, and RestInv is inductive under the other steps. The checker
// decides all of it on sys's model; false, with restRes unchanged, when
// the check fails or cannot decide (the model's steps may differ from
// the derived models': a step no run takes, cut from one of them), or a
// formula does not carry. The property is then asked of sys as written
// (checkPhased): the argument of phase.go alone is no certificate.
//
// After a start step (ph.oneStep, startstep.go) the phase is the
// initial configurations themselves, and the invariant is
//
//	In > 0 & Init  |  In = 0 & (Fixed | RestInv & Stay)
//
// with Init the question's initial set (the premise's part included):
// no step but the start step fires there, and it leads to the rest
// system's initial configurations. phaseRes's invariant is not read.
// also are properties the rest system proved by restRes's invariant
// from the same premise: the check is then against the conjunction of
// their phis, so that the one invariant is a certificate of each.
func (c *phaseCarrier) carryProof(ctx context.Context, index int, also []int, fixed presburger.Formula, phaseRes, restRes *Result) (bool, error) {
	if !phaseJoin || phaseRes.proof == nil || restRes.proof == nil || phaseRes.Invariant == nil || restRes.Invariant == nil || phaseRes.Live != nil || restRes.Live != nil {
		return false, nil
	}
	m := c.model(ctx)
	if m == nil {
		return false, nil
	}
	name := c.sys.Properties[index].Name
	premise, phi := premisedSafetyOf(m, name)
	_, linked := premisedSafetyOf(m, linkName)
	fixedNow := presburger.Formula(presburger.False)
	if fixed != nil {
		_, fixedNow = premisedSafetyOf(m, fixedName(name))
	}
	if phi == nil || linked == nil || fixedNow == nil {
		return false, nil
	}
	for _, j := range also {
		// Proved by the same invariant from the same premise: one check
		// of it against all their phis is a certificate of each.
		p, q := premisedSafetyOf(m, c.sys.Properties[j].Name)
		if q == nil || presburger.Format(p, numbered) != presburger.Format(premise, numbered) {
			return false, nil
		}
		phi = presburger.Conj(phi, q)
	}
	ph := c.ph
	ts := safetySystem(m, premise, phi)
	phaseInv, ok1 := presburger.Formula(presburger.True), true
	if !ph.oneStep {
		phaseInv, ok1 = liftFormula(phaseRes.proof.m, m, phaseRes.Invariant)
	}
	// The rest system's model has no step out of a counter no run of
	// it raises (the steps a run can take, firing), so its invariant
	// need not say that such a counter stays 0; sys's model has those
	// steps (they fire in the phase's other ends), and the invariant
	// after the phase says it.
	restModel := restRes.proof.m
	restInv, ok2 := liftFormula(restModel, m, presburger.Conj(append(cutFacts(restModel), restRes.Invariant)...))
	leftOut, ok3 := leftOutFacts(restModel, m, liftMap{})
	if !ok1 || !ok2 || !ok3 {
		return false, nil
	}
	restInv = presburger.Conj(append([]presburger.Formula{restInv}, leftOut...)...)
	if ph.pool != nil {
		return c.carryPoolProof(ctx, m, ts, premise, phaseInv, fixedNow, restInv, restRes)
	}
	var inI presburger.Term
	frozen := []presburger.Formula{phaseInv, linked, premise}
	for i, ctr := range m.Counters {
		x := presburger.VarTerm(presburger.Var(i))
		switch {
		case ctr.State == ph.first:
			inI = inI.Add(x)
		case !slices.Contains(ph.targets[ctr.Group], ctr.State):
			frozen = append(frozen, presburger.Compare(x, presburger.Eq, presburger.Term{}))
		}
	}
	if ph.oneStep {
		// A start step (startstep.go): while a process is in I the
		// configuration is an initial one, where phi holds (the phase
		// system's question); the start step leads to the rest
		// system's initial configurations.
		init := ts.Init
		if ph.seeded != nil {
			// A seeding phase (seeds.go): its configurations are the
			// rest system's initial ones.
			restInit, ok := c.restInit(m)
			if !ok {
				return false, nil
			}
			init = presburger.Conj(restInit, premise)
		}
		inPhase := presburger.Compare(inI, presburger.Ge, presburger.ConstTerm(1))
		afterPhase := presburger.Compare(inI, presburger.Eq, presburger.Term{})
		if ph.mode != nil {
			// A seeding phase kept by a shared variable: it is at its
			// value in the phase, and never again after.
			var ok bool
			if inPhase, afterPhase, ok = modeTests(m, ph.mode); !ok {
				return false, nil
			}
		}
		during := presburger.Conj(inPhase, init)
		after := presburger.Conj(afterPhase, presburger.Disj(fixedNow, restInv))
		if ph.startMove {
			// The variables the rest system never writes keep the
			// values it starts them at; its models fold them to those
			// constants, which its invariant then need not say
			// (a value the move writes, nothing after).
			for j, k := range constantShared(ph.rest) {
				if x, ok := modelShared(m, j); ok {
					after = presburger.Conj(after, presburger.Compare(presburger.VarTerm(x), presburger.Eq, presburger.ConstTerm(int64(k))))
				}
			}
		}
		return recheck(ctx, c.solver, m, ts, conjOnce(paramPart(ts), presburger.Disj(during, after)), lemmasAfter(restModel, m, restRes.Lemmas, afterPhase, fixedNow), restRes)
	}
	facts, ok := phaseFacts(m, func(j int) bool { return ph.incr[j] })
	if !ok {
		return false, nil
	}
	frozen = append(frozen, facts...)
	during := presburger.Conj(append([]presburger.Formula{presburger.Compare(inI, presburger.Ge, presburger.ConstTerm(1))}, frozen...)...)
	after := presburger.Conj(presburger.Compare(inI, presburger.Eq, presburger.Term{}), presburger.Disj(fixedNow, restInv))
	// The conditions on the parameters (the assumption, n the sum of
	// the sizes) hold throughout; the rest system's invariant may read
	// them, and the phase's must then state them too.
	return recheck(ctx, c.solver, m, ts, conjOnce(paramPart(ts), presburger.Disj(during, after)), lemmasAfter(restModel, m, restRes.Lemmas, presburger.Compare(inI, presburger.Eq, presburger.Term{}), fixedNow), restRes)
}

// modeTests returns the tests of a phase kept by the shared variable
// of mode on m: at its value in the phase, at another after it.
func modeTests(m *counterabs.ParamModel, mode *seedMode) (in, after presburger.Formula, ok bool) {
	v, ok := modelShared(m, mode.shared)
	if !ok {
		return nil, nil, false
	}
	in = presburger.Compare(presburger.VarTerm(v), presburger.Eq, presburger.ConstTerm(int64(mode.value)))
	return in, presburger.Negation(in), true
}

// phaseFacts returns what holds throughout a phase on m: each shared
// variable at its initial value, but those that moves (by the index of
// the system's variable) says the phase's steps write, and each pool's
// sum; ok is false when an initial value is not one term.
func phaseFacts(m *counterabs.ParamModel, moves func(j int) bool) (facts []presburger.Formula, ok bool) {
	for j := range m.Shared {
		if moves(m.SharedIndex(j)) {
			continue
		}
		// Its initial value, a term over the parameters where the
		// file writes one (a count down from n, "left_x: {init: n}"):
		// no step writes it in the phase.
		init, fixed := m.InitialValue(len(m.Counters) + j)
		if !fixed {
			return nil, false
		}
		facts = append(facts, presburger.Compare(presburger.VarTerm(m.SharedVar(j)), presburger.Eq, init))
	}
	for _, pool := range m.Pools {
		var sum presburger.Term
		for _, i := range pool.Counters {
			sum = sum.Add(presburger.VarTerm(presburger.Var(i)))
		}
		facts = append(facts, presburger.Compare(sum, presburger.Eq, pool.Sum))
	}
	return facts, true
}

// carryRun carries a run of a derived system of the cut to sys and
// replays it on sys's instance at the same values (replayStates): a
// run of the phase system (phaseRes nil) is a run of sys as it is; a
// run of the rest system (phaseRes its phase's proof) starts at an end
// of the phase, which the steps out of I reach from sys's initial
// configuration, each group's processes leaving I for their targets
// one by one, each step adding its constants: those steps, then the
// run (after a start step: the configuration with the targets'
// processes back in I, the start step from it, then the run). ok says that res now holds the run of sys; false, with res
// unchanged, when it does not carry (a lasso, fairness with justice,
// which asks explore for a fair run, a start the phase does not
// reach) or does not replay.
func (c *phaseCarrier) carryRun(ctx context.Context, index int, res *Result, phaseRes *Result) bool {
	tr := res.Trace
	if tr == nil || tr.Lifted == nil || res.Instance == nil || tr.Loop >= 0 || tr.Lifted.Loop >= 0 || len(tr.States) == 0 {
		return false
	}
	if len(c.sys.Fairness.Justice) > 0 {
		return false
	}
	inst, premise, phi, ok := safetyAt(c.sys, index, res)
	if !ok {
		return false
	}
	withGroups := tr.States[0].Groups != nil
	out := &explore.Trace{Kind: tr.Kind, Loop: -1, Segments: slices.Clone(tr.Segments)}
	copyState := func(st explore.State) explore.State {
		var groups [][]int
		for _, row := range st.Groups {
			groups = append(groups, slices.Clone(row))
		}
		s := explore.SystemState(inst, slices.Clone(st.Counters), groups)
		if len(inst.Shared) > 0 {
			if len(st.Shared) != len(inst.Shared) {
				return explore.State{}
			}
			s = s.WithShared(slices.Clone(st.Shared))
		}
		return s
	}
	states := tr.States
	if phaseRes != nil {
		// The phase: from sys's initial configuration to the run's
		// start, which the derived instance's lifted run names group
		// by group.
		end := startConfig(res)
		cur := inst.InitConfig()
		if len(end.Counts) != len(cur.Counts) {
			return false
		}
		if c.ph.pool != nil {
			run, ok := c.ph.poolRun(inst, end)
			if !ok {
				return false
			}
			for _, cfg := range run {
				out.States = append(out.States, stateOf(inst, cfg, withGroups))
			}
		} else if c.ph.seeded != nil {
			run, ok := c.ph.seedRun(inst, end)
			if !ok {
				return false
			}
			for _, cfg := range run {
				out.States = append(out.States, stateOf(inst, cfg, withGroups))
			}
		} else if c.ph.oneStep {
			// The start step: from the run's start with every process
			// of a target back in I (at most the group's size, an int),
			// shared values as they are.
			cur = end.Clone()
			for g := range cur.Counts {
				for _, t := range c.ph.targets[g] {
					moved := cur.Counts[g][t]
					if c.ph.startMove {
						// One process moved, and the variables it
						// wrote start at their initial values.
						moved = min(moved, 1)
					}
					cur.Counts[g][c.ph.first] += moved
					cur.Counts[g][t] -= moved
				}
			}
			for j := range c.ph.startWrites {
				cur.Shared[j] = inst.Shared[j].Init
			}
			out.States = append(out.States, stateOf(inst, cur, withGroups), stateOf(inst, end, withGroups))
		} else {
			out.States = append(out.States, stateOf(inst, cur, withGroups))
			for g := range cur.Counts {
				for _, t := range c.ph.targets[g] {
					for range end.Counts[g][t] {
						if cur.Counts[g][c.ph.first] == 0 {
							return false
						}
						cur.Counts[g][c.ph.first]--
						cur.Counts[g][t]++
						for j, add := range c.ph.adds[t] {
							cur.Shared[j] += int(add)
						}
						out.States = append(out.States, stateOf(inst, cur, withGroups))
					}
				}
			}
		}
		last := out.States[len(out.States)-1]
		first := copyState(states[0])
		if !slices.Equal(last.Counters, first.Counters) || !slices.Equal(last.Shared, first.Shared) {
			return false
		}
		states = states[1:]
	}
	for _, st := range states {
		s := copyState(st)
		if s.Counters == nil {
			return false
		}
		out.States = append(out.States, s)
	}
	last := len(out.States) - 1
	for k := range out.Segments {
		out.Segments[k].Start, out.Segments[k].End = 0, last
		// A run, not known to be a shortest one of sys: its other
		// steps may reach a bad state sooner once I is empty.
		out.Segments[k].Kind = explore.RunSegment
	}
	inst, ok = replayStates(ctx, inst, out, premise, phi)
	if !ok {
		return false
	}
	res.Instance, res.Trace = inst, out
	if len(inst.Fairness.Weak) > 0 {
		// The derived systems have no fairness; sys's weak fairness
		// excludes no finite run (refute).
		res.Reason = "weak fairness alone excludes no finite run: the run continues as a fair one (docs/prove.md, Fairness)"
	}
	return true
}

// sharedNamed returns the index of sys's shared variable named name.
func sharedNamed(sys *gsst.System, name string) (int, bool) {
	for j := range sys.Shared {
		if sys.Shared[j].Name == name {
			return j, true
		}
	}
	return 0, false
}

// conjOnce is the conjunction of fs with each conjunct once (an
// invariant and the facts stated beside it often share some), in the
// order of their first occurrence.
func conjOnce(fs ...presburger.Formula) presburger.Formula {
	seen := map[string]bool{}
	var out []presburger.Formula
	for _, f := range fs {
		for _, c := range presburger.Conjuncts(f) {
			if k := presburger.Format(c, numbered); !seen[k] {
				seen[k] = true
				out = append(out, c)
			}
		}
	}
	return presburger.Conj(out...)
}

// paramNamed returns the index of sys's parameter named name.
func paramNamed(sys *gsst.System, name string) (int, bool) {
	for k := range sys.Params {
		if sys.Params[k].Name == name {
			return k, true
		}
	}
	return 0, false
}

// progressAs returns opts with the progress of a derived question
// counted on sys's properties: the question's properties answer those
// of sys at the indices at, and an event about one of them is numbered
// as that property of sys (K of N).
func progressAs(sys *gsst.System, at []int, opts []Option) []Option {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	pos := map[string]int{}
	for _, i := range at {
		pos[sys.Properties[i].Name] = i
	}
	report := func(e progress.Event) {
		if i, ok := pos[e.Item]; ok && e.K > 0 {
			e.K, e.N = i+1, len(sys.Properties)
		}
		cfg.progress.Report(e)
	}
	return append(slices.Clip(opts), OnProgress(report))
}

// liveModelOf returns sys's group-counter model of its liveness
// properties as the system writes them (checkLive's written), which a
// liveness certificate carried from a derived system is re-checked on;
// nil when it cannot be built.
func liveModelOf(sys *gsst.System) *counterabs.ParamModel {
	m, err := buildLiveModel(sys)
	if err != nil {
		return nil
	}
	return m
}

// buildLiveModel builds sys's group-counter model of its liveness
// properties as the system writes them.
func buildLiveModel(sys *gsst.System) (*counterabs.ParamModel, error) {
	var idx []int
	for k := range sys.Properties {
		if IsLiveness(sys.Properties[k].Formula) {
			idx = append(idx, k)
		}
	}
	m, err := counterabs.BuildParamGroup(sys.WithProperties(idx...), counterabs.RunSteps())
	if err != nil {
		return nil, err
	}
	m.Reason = "liveness is decided on the group-counter model, exact for any system, where fairness per group is expressible"
	return m, nil
}

// carryLiveVia carries the liveness certificate of res, found on
// fromSys (a derived system, whose model is rebuilt as checkLive builds
// it, which names its variables), to the liveness question of property
// name on model to of the system as written (liveModelOf), with the
// variables merged as lm says (liftFormulaVia; the monitor bit as the
// monitor bit), and re-checks it there: checkLive, or checkSettled for
// a proof by settling. The helpful constraints and justice conditions
// are the same indices: the derived systems that carry liveness (merged
// groups, merged sums) keep the fairness lists in order. ok says that
// res now holds the certificate re-checked on the system as written;
// false, with res unchanged, when a formula does not carry or the
// re-check fails or cannot decide.
func carryLiveVia(ctx context.Context, solver presburger.Solver, to *counterabs.ParamModel, fromSys *gsst.System, name string, res *Result, lm liftMap) (bool, error) {
	return carryLiveFrom(ctx, solver, to, liveModelOf(fromSys), name, res, lm)
}

// carryLiveFrom is carryLiveVia with the derived system's liveness
// model from built already (nil when it cannot be).
func carryLiveFrom(ctx context.Context, solver presburger.Solver, to, from *counterabs.ParamModel, name string, res *Result, lm liftMap) (bool, error) {
	cert := res.Live
	if to == nil || from == nil || cert == nil {
		return false, nil
	}
	a, ok, err := askLive(ctx, solver, to, name)
	if err != nil || !ok || a.settledOnly != cert.Settled && a.settledOnly {
		return false, err
	}
	lq, err := newLive(a.m, a.premise, a.start, a.trigger, a.q)
	if err != nil {
		return false, nil
	}
	// The monitor bit follows each model's variables.
	extra := map[presburger.Var]presburger.Term{
		presburger.Var(from.NumVars() + from.NumState()): presburger.VarTerm(lq.pending),
	}
	for v, t := range lm.extra {
		extra[v] = t
	}
	lm.extra = extra
	lift := func(f presburger.Formula) (presburger.Formula, bool) { return liftFormulaVia(from, to, f, lm) }
	out := &LiveCertificate{Helpful: cert.Helpful, Justice: cert.Justice, Settled: cert.Settled}
	if cert.Invariant == presburger.False {
		// from's question has no initial state: its premise reads
		// counters from leaves out (states its steps never fill), which
		// read as 0 there, and no instance is left in its scope
		// (premiseScope). Over to, which has those counters, that is
		// the monitor bit never set, shown with the facts below (the
		// counters from leaves out are 0).
		out.Invariant = presburger.Compare(presburger.VarTerm(lq.pending), presburger.Eq, presburger.Term{})
	} else if out.Invariant, ok = lift(cert.Invariant); !ok {
		return false, nil
	}
	// What to's reachable states hold that from has no variable to
	// say (the counters from leaves out are 0 among them), re-checked
	// with the invariant.
	leftOut, ok := leftOutFacts(from, to, lm)
	if !ok {
		return false, nil
	}
	if given := append(slices.Clone(lm.given), leftOut...); len(given) > 0 {
		out.Invariant = conjOnce(append([]presburger.Formula{out.Invariant}, given...)...)
	}
	for _, r := range cert.Ranks {
		var rank Rank
		for _, rc := range r {
			if rc.Term.IsConst() {
				when, ok := lift(rc.When)
				if !ok {
					return false, nil
				}
				rank = append(rank, RankCase{When: when, Term: rc.Term})
				continue
			}
			when, ok1 := lift(rc.When)
			term, ok2 := lift(presburger.Compare(rc.Term, presburger.Eq, presburger.Term{}))
			t, ok3 := cmpTerm(term)
			if !ok1 || !ok2 || !ok3 {
				return false, nil
			}
			rank = append(rank, RankCase{When: when, Term: t})
		}
		out.Ranks = append(out.Ranks, rank)
	}
	if err := lq.checkCert(ctx, solver, out, a.j); err != nil {
		// Not a certificate of the system as written (or the solver
		// cannot tell): the property is asked again as written.
		return false, nil
	}
	lq.provedCert(out, liftLemmasVia(from, to, res.Lemmas, lm, lq.varName), res)
	if a.cond != presburger.True {
		out.PremiseText = FormatInvariant(a.cond, to.VarName, to.TypedAtom)
	}
	res.Level, res.LevelReason = to.Level, to.Reason
	return true, nil
}

// takeCertificate makes c's certificate of safety res's: its invariant,
// lemmas and model. c answers the same property, or one its invariant
// proved together with res's (proveJoint).
func (res *Result) takeCertificate(c *Result) {
	res.Invariant, res.InvariantText, res.Level, res.proof, res.Lemmas = c.Invariant, c.InvariantText, c.Level, c.proof, c.Lemmas
}

// lemmasAfter carries lemmas, found on model from of the rest system of
// a phase (carryProof), to model to of the system as written, each as
// holding where the joined invariant has the rest system's: once after
// holds (the phase over), unless fixed does (phi's disjuncts that the
// rest question's premise took, false when none).
func lemmasAfter(from, to *counterabs.ParamModel, lemmas []Lemma, after, fixed presburger.Formula) []Lemma {
	var out []Lemma
	for _, l := range liftLemmasVia(from, to, lemmas, liftMap{}, to.VarName) {
		f := presburger.Disj(presburger.Negation(after), fixed, l.Formula)
		out = append(out, Lemma{Kind: l.Kind, Formula: f, Text: FormatInvariant(f, to.VarName, to.TypedAtom)})
	}
	return out
}

// liftLemmasVia writes lemmas, found on model from of a derived system,
// over the variables of model to of the system as written, merged as lm
// says (liftFormulaVia), named by name, as part of the certificate
// carried there; a lemma that does not carry is left out of the list
// (the certificate, re-checked, holds it all the same).
func liftLemmasVia(from, to *counterabs.ParamModel, lemmas []Lemma, lm liftMap, name func(presburger.Var) string) []Lemma {
	var out []Lemma
	for _, l := range lemmas {
		f, ok := liftFormulaVia(from, to, l.Formula, lm)
		if !ok {
			continue
		}
		out = append(out, Lemma{Kind: l.Kind, Formula: f, Text: FormatInvariant(f, name, to.TypedAtom)})
	}
	return out
}

// askAsWritten asks the properties left (indices into sys.Properties)
// with check, the stage after a derived question, and sets their
// answers in rep, each marked asked again where again says the derived
// answer did not carry; rep takes the certification of that report
// when it has none. It returns that report, whose scope each caller
// reads its own way. Every derived question (merge.go, mergegroups.go,
// tight.go) ends so.
func askAsWritten(ctx context.Context, sys *gsst.System, rep *Report, left []int, again []bool, check func(context.Context, *gsst.System, presburger.Prover, presburger.Solver, ...Option) (*Report, error), prover presburger.Prover, solver presburger.Solver, opts []Option) (*Report, error) {
	whole, err := check(ctx, sys.WithProperties(left...), prover, solver, progressAs(sys, left, opts)...)
	if err != nil {
		return nil, err
	}
	if rep.Cert == nil {
		rep.Cert = whole.Cert
	}
	for k, i := range left {
		r := whole.Results[k]
		r.Property = &sys.Properties[i]
		r.askedAgain = r.askedAgain || again[i]
		rep.Results[i] = r
	}
	return whole, nil
}
