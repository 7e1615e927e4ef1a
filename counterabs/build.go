package counterabs

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/progress"
)

// An Option tunes Build.
type Option func(*config)

type config struct {
	force      bool
	maxClauses int
	simplify   bool
	progress   progress.Func
	runSteps   bool
	cert       *detect.Report
	first      bool
}

// OnProgress has Build report to f as it starts on each transition:
// phase progress.Build, transition K of N.
func OnProgress(f progress.Func) Option { return func(c *config) { c.progress = f } }

// Certified hands BuildParam the certification of the system it builds
// the model of, made before (prove reports it, and builds the model
// after): BuildParam then does not certify again. A report of another
// system (gsst's SameSteps) is not read.
func Certified(cert *detect.Report) Option { return func(c *config) { c.cert = cert } }

// FirstViolation has BuildParam certify with detect's FirstViolation:
// the level of the model needs only the verdict, and the model's Cert
// then names one violation, the steps after it not asked.
func FirstViolation() Option { return func(c *config) { c.first = true } }

// RunSteps has BuildGroup and BuildParamGroup (and BuildParam, when it
// builds the group-counter model) leave out the steps no run takes because a mover
// would leave a state its group never occupies (gsst's MayOccupy): a
// rendezvous part that allows any group gets a copy per group, and most
// of them move nobody. The model is then exact on every reachable
// configuration, which is what an invariant or a run is about, but not
// on the others: certification and the checks of a model against the
// processes on every configuration take the whole model. The
// parametric group-counter model built so is sparse (see ParamModel):
// it has no counter of a state its group never occupies.
func RunSteps() Option { return func(c *config) { c.runSteps = true } }

// movers returns the may of groupChoices for sys: the groups hold says
// may have processes, in any state, or with RunSteps only in the states
// MayOccupy allows them.
func (c *config) movers(sys *gsst.System, hold func(g int) bool) func(g, st int) bool {
	if !c.runSteps {
		return func(g, _ int) bool { return hold(g) }
	}
	occ := sys.MayOccupy()
	return func(g, st int) bool { return hold(g) && occ[g][st] }
}

// Force builds the model of a system that may not be fully virtually
// symmetric. Each g_r is then checked to be the existential abstraction of
// Dom(R_r) (a query with a quantifier), and Model.Certified says whether
// every transition also passed the certified check. Without Force, Build
// fails on a transition whose domain is not closed under orbits.
func Force() Option { return func(c *config) { c.force = true } }

// MaxClauses caps the number of DNF clauses the orbit construction (case
// c) and the simplifier work with; a guard whose DNF is larger goes to
// projection, and a projected guard with more clauses is kept unsimplified.
// The default is 256.
func MaxClauses(k int) Option {
	return func(c *config) {
		if k < 1 {
			k = 1
		}
		c.maxClauses = k
	}
}

// Simplify turns the solver-based simplification of g_r on or off (default
// on). The syntactic clean-up (bound merging, subsumption) always runs.
func Simplify(on bool) Option { return func(c *config) { c.simplify = on } }

// UnknownError reports that the construction or the check of g_r for a
// transition got an Unknown answer (errors.Is(err, errkind.Unknown)).
type UnknownError struct {
	Transition string   // "U -> V"
	Pos        gsst.Pos // of the transition in the spec
	What       string   // which step was interrupted
	Reason     string
}

func (e *UnknownError) Error() string {
	msg := fmt.Sprintf("counterabs: transition %s: %s: solver answered unknown", e.Transition, e.What)
	if e.Reason != "" {
		msg += " (" + e.Reason + ")"
	}
	return msg
}

// Is makes errors.Is(err, errkind.Unknown) hold.
func (e *UnknownError) Is(target error) bool { return target == errkind.Unknown }

// NotCertifiedError reports, for a Build without Force, a transition whose
// domain is not closed under orbits: Witness.Enabled and Witness.Disabled
// have equal total counters, a process can take the transition in the
// first and none in the second. The witness has been verified by direct
// evaluation of the guards.
type NotCertifiedError struct {
	Transition *gsst.Transition // nil for a rendezvous
	Name       string
	Witness    *detect.Witness
	// Beyond the paper: Pos is where the step was written (a
	// rendezvous has no Transition) and Shared the shared values both
	// configurations of the witness have; nil when the system has none.
	Pos    gsst.Pos
	Shared []int
	// Origin says which step of the spec it is (two unnamed rendezvous
	// with the same parts have the same Name); nil when not known.
	Origin *gsst.Origin
}

func (e *NotCertifiedError) Error() string {
	return fmt.Sprintf("counterabs: transition %s is not fully virtually symmetric: its domain is not closed under orbits (use Force to build the existential abstraction anyway)", e.Name)
}

// InternalError reports a g_r that failed its check against the
// definition: a bug in the construction, the simplifier or a solver. The
// guard is never used.
type InternalError struct {
	Transition string
	Msg        string
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("counterabs: transition %s: %s", e.Transition, e.Msg)
}

// Is makes errors.Is(err, errkind.Internal) hold.
func (e *InternalError) Is(target error) bool { return target == errkind.Internal }

// Build returns the counter abstraction of sys: one abstract transition
// per local transition and distinct update (the guard blocks with that
// update, whose steps have one effect on the orbit of a configuration),
// and one per rendezvous. solver decides the check of every guard (and
// the simplifier's queries); proj eliminates group counters for guards
// that need projection and may be nil when no guard does (an error
// names the transition otherwise).
//
// Each guard is the existential abstraction of its steps' enabledness
// (System.EnabledFormula) onto the total counters and shared variables:
// by the paper's cases (construct) for steps of one mover, by projection
// for the others, and written as it is where it reads total counters
// only. Without Force, sys must be fully virtually symmetric: Build
// checks every abstract transition and returns a *NotCertifiedError for
// one that is not exact. Force builds the over-approximation of a
// system that is not, for systems whose every step moves one process and
// changes nothing else (ForceRefusal). Errors matching errkind.Unknown
// mean a solver gave no answer; a malformed system, or one with a
// broadcast restricted to groups (GroupReason), is errkind.Input. A
// property that reads group counters cannot be checked on this model;
// it is left out of Model.Properties and reported by PropertyLevel.
func Build(ctx context.Context, sys *gsst.System, solver presburger.Solver, proj presburger.Projector, opts ...Option) (*Model, error) {
	cfg := config{maxClauses: 256, simplify: true}
	for _, o := range opts {
		o(&cfg)
	}
	if err := checkFixed(sys); err != nil {
		return nil, err
	}
	if solver == nil {
		return nil, errkind.Errorf(errkind.Input, "counterabs: nil solver")
	}
	if why := restrictedBroadcast(sys); why != "" {
		return nil, errkind.Errorf(errkind.Input, "counterabs: %s; use the group-counter model", why)
	}
	if why := ForceRefusal(sys); cfg.force && why != "" {
		return nil, errkind.Errorf(errkind.Input, "counterabs: a total-counter model cannot be forced on this system: %s; use the group-counter model, exact for any system", why)
	}
	b := &builder{ctx: ctx, sys: sys, solver: solver, proj: proj, cfg: cfg, n: sys.N(), shared: sharedBounds(sys)}
	m := newModel(sys, TotalLevel)
	origins := stepsByOrigin(sys)
	for k, steps := range origins {
		first := &sys.Steps()[steps[0]]
		cfg.progress.Report(progress.Event{Phase: progress.Build, Engine: progress.NameOf(solver), Item: stepName(sys, first, nil), K: k + 1, N: len(origins)})
		classes := updateClasses(sys, steps, func(g int) bool { return sys.Groups[g].Size > 0 })
		for _, cls := range classes {
			if err := b.abstract(m, cls, len(classes) > 1); err != nil {
				return nil, err
			}
		}
	}
	if err := m.finish(errkind.Internal); err != nil {
		return nil, err
	}
	if !m.Exact {
		b.cur = nil
		f, err := b.mayDeadlock()
		if err != nil {
			return nil, err
		}
		if m.MayDeadlock, err = m.Translate(f); err != nil {
			return nil, err
		}
	}
	b.shared = nil
	for j := range m.Shared {
		b.shared = append(b.shared, m.Shared[j].Bounds(presburger.Var(m.SharedVar(j))))
	}
	if f, clauses := deadlock(m); clauses == nil {
		m.deadlock = f
	} else {
		var err error
		m.deadlock, err = b.simplifyClauses(-1, clauses)
		if err != nil {
			return nil, err
		}
	}
	m.deadlockKey = guardsKey(m)
	return m, nil
}

// updateClasses partitions steps (the guard blocks of one local
// transition, or one rendezvous) by their update, in order of first
// appearance; a class whose steps no process can take (their groups have
// none: mayHold) is left out.
func updateClasses(sys *gsst.System, steps []int, mayHold func(g int) bool) [][]int {
	all := sys.Steps()
	var keys []string
	var out [][]int
	for _, s := range steps {
		if !canTake(sys, &all[s], mayHold) {
			continue
		}
		k := updateKey(sys, &all[s].Update)
		at := slices.Index(keys, k)
		if at < 0 {
			keys, out = append(keys, k), append(out, nil)
			at = len(out) - 1
		}
		out[at] = append(out[at], s)
	}
	return out
}

// canTake reports whether a process of sys may take the first part of
// st: a rendezvous always counts, its guard says the rest.
func canTake(sys *gsst.System, st *gsst.Step, mayHold func(g int) bool) bool {
	if st.Origin.Transition < 0 { // a rendezvous or an environment step
		return true
	}
	for g := range sys.Groups {
		if st.Parts[0].Allows(g) && mayHold(g) {
			return true
		}
	}
	return false
}

// abstract adds to m the abstract transition of the steps cls (one local
// transition's blocks with one update, or one rendezvous): its effect
// derived from the steps, its guard constructed and checked. split says
// that the local transition has other classes, which its name then tells
// apart.
func (b *builder) abstract(m *Model, cls []int, split bool) error {
	sys := b.sys
	first := &sys.Steps()[cls[0]]
	t, err := m.transition(cls, nil)
	if err != nil {
		return err
	}
	b.cur = &current{name: stepName(sys, first, nil), pos: first.Origin.Pos, origin: first.Origin}
	if o := &first.Origin; o.Transition >= 0 {
		b.cur.local = &sys.Transitions[o.Transition]
		b.cur.pos = b.cur.local.Pos
	}
	if split {
		b.cur.name += fmt.Sprintf(" (update %q)", first.Update.Text)
	}
	guard, c, err := b.construct(cls)
	if err != nil {
		return err
	}
	certified, err := b.check(cls, guard)
	if err != nil {
		return err
	}
	m.Exact = m.Exact && certified
	if t.Guard, err = m.Translate(guard); err != nil {
		return err
	}
	t.Case = c
	m.Transitions = append(m.Transitions, t)
	return nil
}

// sharedBounds returns the domain of every shared variable of sys, over
// the system's variables.
func sharedBounds(sys *gsst.System) []presburger.Bound {
	out := make([]presburger.Bound, len(sys.Shared))
	for j := range sys.Shared {
		out[j] = sys.Shared[j].Bounds(sys.SharedVar(j))
	}
	return out
}

// Deadlock returns the condition under which no abstract transition is
// enabled: the conjunction of the negated guards, simplified on the
// abstract state space (counters in 0..N summing to N), where alone it is
// meaningful; it is false when every counter vector enables some
// transition. The engines add a stutter step there so that every path is
// infinite. A model from Build carries a form simplified with the solver;
// otherwise the simplification is syntactic.
func (m *Model) Deadlock() presburger.Formula {
	if m.deadlock != nil && m.deadlockKey == guardsKey(m) {
		return m.deadlock
	}
	f, clauses := deadlock(m)
	if clauses == nil || m.Level != TotalLevel {
		return f
	}
	return presburger.Disj(syntactic(clauses, len(m.System.States), m.N, -1, m.VarName)...)
}

// deadlock returns the conjunction of the negated guards of m and, when its
// DNF is small enough to simplify, that DNF.
func deadlock(m *Model) (presburger.Formula, [][]presburger.Formula) {
	parts := make([]presburger.Formula, len(m.Transitions))
	for i, t := range m.Transitions {
		parts[i] = negate(t.Guard)
	}
	f := presburger.Conj(parts...)
	if dnfSize(f, maxDeadlockClauses) > maxDeadlockClauses {
		return f, nil
	}
	return f, presburger.DNF(f)
}

const maxDeadlockClauses = 1024

// guardsKey identifies the transitions of m and their guards.
func guardsKey(m *Model) string {
	var sb strings.Builder
	for _, t := range m.Transitions {
		fmt.Fprintf(&sb, "%d>%d:%s;", t.From, t.To, presburger.Format(t.Guard, func(v presburger.Var) string { return fmt.Sprint("v", int(v)) }))
	}
	return sb.String()
}

// negate pushes a negation down to the atoms (De Morgan), keeping "!="
// atoms as they are so that the result reads like the guards.
func negate(f presburger.Formula) presburger.Formula {
	switch f := f.(type) {
	case presburger.And:
		out := make([]presburger.Formula, len(f))
		for i, g := range f {
			out[i] = negate(g)
		}
		return presburger.Disj(out...)
	case presburger.Or:
		out := make([]presburger.Formula, len(f))
		for i, g := range f {
			out[i] = negate(g)
		}
		return presburger.Conj(out...)
	}
	return presburger.Negation(f)
}

// Domain returns the model's state space as a formula over the counters:
// every counter in 0..its pool's sum, and every pool summing to its sum.
func (m *Model) Domain() presburger.Formula {
	var parts []presburger.Formula
	for _, p := range m.Pools {
		parts = append(parts, poolConstraints(p.Counters, presburger.ConstTerm(int64(p.Sum)), true)...)
	}
	return presburger.Conj(parts...)
}

// poolConstraints says that the counters of a pool are nonnegative (and
// at most sum, when bounded is set) and add up to sum.
func poolConstraints(counters []int, sum presburger.Term, bounded bool) []presburger.Formula {
	var parts []presburger.Formula
	var total presburger.Term
	for _, c := range counters {
		x := presburger.VarTerm(presburger.Var(c))
		total = total.Add(x)
		parts = append(parts, presburger.Compare(x, presburger.Ge, presburger.ConstTerm(0)))
		if bounded {
			parts = append(parts, presburger.Compare(x, presburger.Le, sum))
		}
	}
	return append(parts, presburger.Compare(total, presburger.Eq, sum))
}

// Bounds returns the range 0..pool sum of every counter variable.
func (m *Model) Bounds() []presburger.Bound {
	out := make([]presburger.Bound, len(m.Counters))
	for _, p := range m.Pools {
		for _, c := range p.Counters {
			out[c] = presburger.Bound{Var: presburger.Var(c), Lo: 0, Hi: int64(p.Sum)}
		}
	}
	return out
}

// domain is the total-level state space over states counters summing to n.
func domain(states, n int) presburger.Formula {
	var sum presburger.Term
	parts := make([]presburger.Formula, 0, 2*states+1)
	for s := 0; s < states; s++ {
		x := presburger.VarTerm(presburger.Var(s))
		sum = sum.Add(x)
		parts = append(parts,
			presburger.Compare(x, presburger.Ge, presburger.ConstTerm(0)),
			presburger.Compare(x, presburger.Le, presburger.ConstTerm(int64(n))))
	}
	parts = append(parts, presburger.Compare(sum, presburger.Eq, presburger.ConstTerm(int64(n))))
	return presburger.Conj(parts...)
}

// builder holds what the construction of every g_r shares.
type builder struct {
	ctx    context.Context
	sys    *gsst.System
	solver presburger.Solver
	proj   presburger.Projector
	cfg    config
	n      int
	cur    *current // the abstract transition being built
	// shared bounds the shared variables in the simplifier's queries:
	// their domains, over the system's variables while guards are built
	// and over the model's for the deadlock condition.
	shared []presburger.Bound
}

// current is the abstract transition being built, for messages: its
// name, where it was written, and its local transition (nil for a
// rendezvous).
type current struct {
	name   string
	pos    gsst.Pos
	local  *gsst.Transition
	origin gsst.Origin
}

// pos returns the position of the transition being built, for errors.
func (b *builder) pos() gsst.Pos {
	if b.cur == nil {
		return gsst.Pos{}
	}
	return b.cur.pos
}
