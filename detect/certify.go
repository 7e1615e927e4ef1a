package detect

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/progress"
)

// Verdict is the outcome of checking one transition or a whole system.
// The zero value is Unknown, so a result that was never filled in is not
// taken for success.
type Verdict int

const (
	// Unknown: the solver gave no answer (timeout, resource limit).
	Unknown Verdict = iota
	// Symmetric: the transition (or rendezvous) treats all processes
	// alike as written (for the paper's, one block of all groups, a
	// total-counter guard); no query was needed.
	Symmetric
	// Certified: the query was unsat: from any two configurations of an
	// orbit its steps reach the same successor orbits (for the paper's
	// transitions, Dom(R_r) is closed under orbits).
	Certified
	// Violated: a witness shows that they do not.
	Violated
)

func (v Verdict) String() string {
	switch v {
	case Symmetric:
		return "symmetric"
	case Certified:
		return "certified"
	case Violated:
		return "violated"
	}
	return "unknown"
}

// MarshalText encodes a verdict as its name.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// OK reports whether v is a positive verdict (Symmetric or Certified).
func (v Verdict) OK() bool { return v == Symmetric || v == Certified }

// TransitionResult is the verdict for one local transition, rendezvous
// or environment step. Reason says in
// words why (for Unknown, what the solver said). Stopped says, for
// Unknown, that a time bound or a cancellation stopped the solver
// (presburger.Answer.Stopped). Queries counts the solver calls made.
type TransitionResult struct {
	Transition *gsst.Transition // nil for a rendezvous
	Rendezvous *gsst.Rendezvous // set for a rendezvous (Report.Rendezvous)
	// Environment is set for an environment step (Report.Environment).
	Environment *gsst.Environment
	Verdict     Verdict
	Witness     *Witness // set when Verdict is Violated
	Reason      string
	Stopped     bool
	Queries     int
}

// Name names the item of r: its transition ("T -> C", or "r (T -> C)"
// when named), its rendezvous, or its environment step.
func (r *TransitionResult) Name(sys *gsst.System) string {
	switch {
	case r.Transition != nil:
		return sys.TransitionName(r.Transition)
	case r.Rendezvous != nil:
		return sys.RendezvousName(r.Rendezvous)
	}
	return sys.EnvironmentStepName(r.Environment)
}

// Label names the item of r in a sentence: "transition T -> C", a
// rendezvous's name (which says what it is), or "environment step E".
func (r *TransitionResult) Label(sys *gsst.System) string {
	switch {
	case r.Transition != nil:
		return "transition " + r.Name(sys)
	case r.Environment != nil && r.Environment.Name != "":
		return "environment step " + r.Name(sys)
	}
	return r.Name(sys)
}

// Pos is where the item of r was written.
func (r *TransitionResult) Pos() gsst.Pos {
	switch {
	case r.Transition != nil:
		return r.Transition.Pos
	case r.Rendezvous != nil:
		return r.Rendezvous.Pos
	}
	return r.Environment.Pos
}

// Report is the outcome of Certify: one result per transition of System,
// in the system's order, one per rendezvous and one per environment
// step.
type Report struct {
	System      *gsst.System
	Transitions []TransitionResult
	Rendezvous  []TransitionResult
	Environment []TransitionResult
}

// Results returns the results of the transitions, then those of the
// rendezvous, then those of the environment steps: result i is that of
// item i (Asymmetry's numbering).
func (r *Report) Results() []TransitionResult {
	return slices.Concat(r.Transitions, r.Rendezvous, r.Environment)
}

// Noun names the items the report has verdicts for, k of them (1: one,
// any other number: many), for prose that counts them: "transitions",
// or "transitions and rendezvous" when the system has rendezvous, and so
// on.
func (r *Report) Noun(k int) string {
	rdv, env := len(r.Rendezvous) > 0, len(r.Environment) > 0
	if k == 1 {
		switch {
		case rdv && env:
			return "transition, rendezvous or environment step"
		case rdv:
			return "transition or rendezvous"
		case env:
			return "transition or environment step"
		}
		return "transition"
	}
	switch {
	case rdv && env:
		return "transitions, rendezvous and environment steps"
	case rdv:
		return "transitions and rendezvous"
	case env:
		return "transitions and environment steps"
	}
	return "transitions"
}

// Verdict returns the verdict for the whole system: Violated if some
// transition is violated (a definite negative answer, even when others are
// unknown); otherwise Unknown if some transition is unknown; otherwise
// Symmetric if every transition is symmetric, else Certified.
func (r *Report) Verdict() Verdict {
	out := Symmetric
	for _, t := range r.Results() {
		switch t.Verdict {
		case Violated:
			return Violated
		case Unknown:
			out = Unknown
		case Certified:
			if out == Symmetric {
				out = Certified
			}
		}
	}
	return out
}

// Certified reports whether the system is fully virtually symmetric: every
// transition is symmetric or certified.
func (r *Report) Certified() bool { return r.Verdict().OK() }

// An Option tunes Certify.
type Option func(*config)

type config struct {
	timeout  time.Duration
	workers  int
	split    int
	progress progress.Func
	witness  presburger.Solver
	first    bool
}

// FirstViolation has Certify stop at the first violation it finds: the
// queries not yet started are not asked, and their transitions are
// Unknown, said to be not asked. The report's Verdict is then Violated,
// as a full certification's would be, at a fraction of the work where
// most steps are violated (prove, which reads only the verdict to pick
// the group-counter model: a shared variable written as 58 processes of
// groups of their own, 236 of 237 rendezvous violated, each witness
// sought and made smallest, took 13 s). Which violation is found first
// depends on timing with several workers; the verdict does not.
func FirstViolation() Option { return func(c *config) { c.first = true } }

// WitnessSolver has Certify ask s again, one call after another, the
// query of the part that gave an item's witness, and report the witness
// s gives: the solver of the workers may find another model of the same
// query depending on what it solved before, which depends on timing (Z3
// with its reused contexts), while s answers each call as if it were the
// first (z3.Fresh). Certify keeps the workers' witness when s gives
// none (it runs out of its budget).
func WitnessSolver(s presburger.Solver) Option { return func(c *config) { c.witness = s } }

// OnProgress has Certify report to f as each query starts: phase
// progress.Certify, query K of N, named by its transition. The workers
// call f concurrently.
func OnProgress(f progress.Func) Option { return func(c *config) { c.progress = f } }

// Timeout bounds each solver call; a call that runs out answers Unknown.
// Zero (the default) means no bound beyond ctx.
func Timeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// Workers sets how many solver calls may run at once (default: GOMAXPROCS).
// With more than one, the solver must be safe for concurrent use.
func Workers(n int) Option {
	return func(c *config) {
		if n < 1 {
			n = 1
		}
		c.workers = n
	}
}

// Split divides the query of a transition or rendezvous into up to k
// parts (default 1): its enabled side is a disjunction over its steps
// (the blocks of a transition), so the query is unsat exactly when the
// query restricted to each run of consecutive steps is. Parts are
// smaller and can run in parallel (see Workers), but each costs a solver
// call; on GR&W one whole query is fastest.
func Split(k int) Option {
	return func(c *config) {
		if k < 1 {
			k = 1
		}
		c.split = k
	}
}

// Certify checks every transition and every rendezvous of sys for full
// virtual symmetry with solver s, one query each over the steps gsst
// lowers them to (query.go): by Theorem 3 of the paper, any two
// configurations with equal total counters and the same shared values
// must reach the same successor orbits. For a transition whose steps are
// the paper's (one process moves, nothing else changes) and whose effect
// no other step has, the query is Theorem 6's: Dom(R_r) closed under
// orbits. It returns an error for a malformed system, a failing solver,
// or a witness that does not survive re-verification (an internal
// error); unknown answers are verdicts, not errors. s may be nil when no
// transition needs a query.
//
// For a parametric system (some group size a range, or parameters not
// fixed) the group sizes and parameters are variables of the queries,
// within their ranges and under the assumption: Certified then means
// fully virtually symmetric for every instance, and a violation's
// witness names the sizes (and parameter values) of an instance where it
// breaks (one with the fewest processes). s must decide problems with
// open ranges when some range is unbounded (the Z3 solver does). A
// smallest witness with more than gsst.MaxProcesses processes cannot be
// re-verified by direct evaluation; the transition is then Unknown, with
// that reason.
func Certify(ctx context.Context, sys *gsst.System, s presburger.Solver, opts ...Option) (*Report, error) {
	cfg := config{workers: runtime.GOMAXPROCS(0), split: 1}
	for _, o := range opts {
		o(&cfg)
	}
	if err := HasInstance(ctx, sys, s); err != nil {
		return nil, err
	}
	nt := len(sys.Transitions)
	rep := &Report{System: sys, Transitions: make([]TransitionResult, nt)}
	if len(sys.Rendezvous) > 0 {
		rep.Rendezvous = make([]TransitionResult, len(sys.Rendezvous))
	}
	if len(sys.Environment) > 0 {
		rep.Environment = make([]TransitionResult, len(sys.Environment))
	}
	nr := len(sys.Rendezvous)
	// result returns the result of item i: transition i, rendezvous
	// i - nt, or environment step i - nt - nr.
	result := func(i int) *TransitionResult {
		switch {
		case i < nt:
			return &rep.Transitions[i]
		case i < nt+nr:
			return &rep.Rendezvous[i-nt]
		}
		return &rep.Environment[i-nt-nr]
	}
	items := nt + nr + len(sys.Environment)
	all := members(sys)
	stepsOf := make([][]*gsst.Step, items)
	steps := sys.Steps()
	for i := range steps {
		k := itemOf(sys, &steps[i])
		stepsOf[k] = append(stepsOf[k], &steps[i])
	}

	// Build every query up front, then run them on a pool of workers.
	type job struct {
		item int
		q    *query
		part [2]int // the item's members part[0] to part[1]-1
	}
	var jobs []job
	queries := make([]*query, items)
	can := map[[2]int]bool{} // pairs of effects that can be equal (newQuery)
	for i := range items {
		res := result(i)
		switch {
		case i < nt:
			res.Transition = &sys.Transitions[i]
		case i < nt+nr:
			res.Rendezvous = &sys.Rendezvous[i-nt]
		default:
			res.Environment = &sys.Environment[i-nt-nr]
		}
		if symmetric(sys, stepsOf[i]) {
			res.Verdict = Symmetric
			res.Reason = "enabledness and effect read only total counters and shared values, alike for all groups"
			if paperSteps(sys, stepsOf[i]) {
				res.Reason = "one guard over total counters for all groups"
			}
			continue
		}
		q := newQuery(sys, all, i, can, pinCounters)
		queries[i] = q
		for _, part := range parts(len(q.own), cfg.split) {
			jobs = append(jobs, job{i, q, part})
		}
	}

	// Per-item aggregation: the first sat answer decides (and later
	// jobs of that item are skipped); otherwise any unknown makes the
	// item unknown; otherwise it is certified.
	// The witness of an item is that of its first part (in the order of
	// its members) with one, and its queries those of the parts up to
	// that one: the parts run at once on several workers, and a part
	// after one with a witness may be skipped, so the first to answer
	// and the parts that ran depend on timing, while every part before
	// the first with a witness runs (the parts are handed out in order).
	type agg struct {
		mu      sync.Mutex
		sat     *Witness
		satPart [2]int // the members of the part that gave sat
		unknown string
		stopped bool        // the unknown answer was a time bound's
		queries map[int]int // by the part's first member
		err     error
	}
	aggs := make([]agg, items)
	var (
		next     int
		violated atomic.Bool // some job found a witness (read with FirstViolation)
		mu       sync.Mutex
		wg       sync.WaitGroup
	)
	work := func() {
		defer wg.Done()
		for {
			mu.Lock()
			if next == len(jobs) || cfg.first && violated.Load() {
				mu.Unlock()
				return
			}
			j := jobs[next]
			next++
			k := next
			mu.Unlock()
			cfg.progress.Report(progress.Event{Phase: progress.Certify, Engine: progress.NameOf(s), Item: itemName(sys, j.item), K: k, N: len(jobs)})

			a := &aggs[j.item]
			a.mu.Lock()
			done := a.sat != nil || a.err != nil
			a.mu.Unlock()
			if done {
				continue
			}
			w, ans, calls, err := j.q.run(ctx, s, j.part, cfg.timeout)
			a.mu.Lock()
			if a.queries == nil {
				a.queries = map[int]int{}
			}
			a.queries[j.part[0]] = calls
			switch {
			case err != nil:
				if a.err == nil {
					a.err = err
				}
			case ans.Result == presburger.Sat:
				if a.sat == nil || j.part[0] < a.satPart[0] {
					a.sat, a.satPart = w, j.part
				}
				violated.Store(true)
			case ans.Result == presburger.Unknown:
				if a.unknown == "" {
					a.unknown, a.stopped = ans.Reason, ans.Stopped
					if a.unknown == "" {
						a.unknown = "solver answered unknown"
					}
				}
			}
			a.mu.Unlock()
		}
	}
	n := min(cfg.workers, len(jobs))
	wg.Add(n)
	for range n {
		go work()
	}
	wg.Wait()
	if n > 1 {
		// Which calls each worker served depends on timing, and with
		// them the history of a solver that keeps one (Z3's reused
		// contexts): the caller's next calls start afresh.
		presburger.Forget(s)
	}

	for i, q := range queries {
		if a := &aggs[i]; q != nil && a.sat != nil && a.err == nil && cfg.witness != nil {
			w, ans, _, err := q.run(ctx, cfg.witness, a.satPart, cfg.timeout)
			if err != nil {
				return nil, fmt.Errorf("detect: %s: %w", itemLabel(sys, i), err)
			}
			if ans.Result == presburger.Sat {
				a.sat = w
			}
		}
	}
	for i, q := range queries {
		if q == nil {
			continue
		}
		a := &aggs[i]
		res := result(i)
		for part, calls := range a.queries {
			if a.sat == nil || part <= a.satPart[0] {
				res.Queries += calls
			}
		}
		name := itemName(sys, i)
		var pos gsst.Pos
		switch {
		case res.Transition != nil:
			pos = res.Transition.Pos
		case res.Rendezvous != nil:
			pos = res.Rendezvous.Pos
		default:
			pos = res.Environment.Pos
		}
		paper := q.paperForm()
		switch {
		case a.err != nil:
			return nil, fmt.Errorf("detect: %s: %w", itemLabel(sys, i), a.err)
		case a.sat != nil && a.sat.Enabled == nil:
			res.Verdict = Unknown
			res.Reason = fmt.Sprintf("the smallest instance with a witness has more than %d processes (sizes %s), beyond what vsym evaluates directly",
				gsst.MaxProcesses, sys.FormatSizes(a.sat.Sizes))
		case a.sat != nil:
			if err := VerifyWitness(sys, res.Transition, a.sat); err != nil {
				return nil, errkind.Wrap(errkind.Internal, &gsst.Error{Pos: pos, Msg: fmt.Sprintf("detect: %s: solver model is not a witness: %v", itemLabel(sys, i), err)})
			}
			res.Verdict = Violated
			res.Witness = a.sat
			switch {
			case paper:
				res.Reason = fmt.Sprintf("group %s can take %s in a configuration whose orbit holds one where no process can", sys.Groups[a.sat.Group].Name, name)
			case res.Environment != nil:
				res.Reason = fmt.Sprintf("%s leads to a successor orbit that no step reaches from another configuration of the same orbit", name)
			case res.Rendezvous != nil:
				res.Reason = fmt.Sprintf("processes of groups %s can take %s to a successor orbit that no step reaches from another configuration of the same orbit",
					groupNames(sys, a.sat.Step.Groups), name)
			default:
				res.Reason = fmt.Sprintf("group %s can take %s to a successor orbit that no step reaches from another configuration of the same orbit", sys.Groups[a.sat.Group].Name, name)
			}
		case a.unknown != "":
			res.Verdict = Unknown
			res.Reason, res.Stopped = a.unknown, a.stopped
		case cfg.first && violated.Load() && !askedAll(a.queries, len(q.own), cfg.split):
			res.Verdict = Unknown
			res.Reason = "not asked: certification stopped at the first violation"
		case paper:
			res.Verdict = Certified
			res.Reason = "no two configurations with equal total counters differ in whether the transition is enabled"
			if readsShared(sys, stepsOf[i]) {
				res.Reason = "no two configurations with equal total counters and shared values differ in whether the transition is enabled"
			}
		default:
			res.Verdict = Certified
			res.Reason = "from any two configurations with equal total counters and shared values, its steps reach successor orbits the other configuration reaches too"
			if others := q.others(); len(others) > 0 {
				res.Reason += " (compared with the steps of " + joinNames(others) + ", whose effects can coincide with its own)"
			}
		}
	}
	return rep, nil
}

// askedAll reports whether every part of an item's query (parts, of n
// members split k ways) ran: queries holds the calls of each that did,
// by its first member.
func askedAll(queries map[int]int, n, k int) bool {
	for _, part := range parts(n, k) {
		if _, ok := queries[part[0]]; !ok {
			return false
		}
	}
	return true
}

// symmetric reports whether the steps of a transition or rendezvous treat
// all processes alike as written: there is a step, and every step's
// parts and transfers hold every group and its guard reads no group
// counter. Its enabledness and effect then read total counters and
// shared values only, so a step from one configuration is a step from
// every configuration of its orbit. For a transition of the paper this
// is one block of every group with a guard over total counters.
func symmetric(sys *gsst.System, steps []*gsst.Step) bool {
	for _, st := range steps {
		for _, p := range st.Parts {
			if restricted(sys, p.Groups) {
				return false
			}
		}
		for _, x := range st.Transfers {
			if restricted(sys, x.Groups) {
				return false
			}
		}
		if !sys.IsTotal(st.Guard) {
			return false
		}
	}
	return len(steps) > 0
}

// restricted reports whether groups (of a part or a transfer) leaves out
// some group of sys: nil, and a list of every group, leave out none.
func restricted(sys *gsst.System, groups []int) bool {
	return groups != nil && len(groups) < len(sys.Groups)
}

// paperSteps reports whether steps are the paper's: each moves one
// process and changes nothing else, under a guard that reads no shared
// variable and no free parameter.
func paperSteps(sys *gsst.System, steps []*gsst.Step) bool {
	for _, st := range steps {
		if !st.Simple() {
			return false
		}
	}
	return !readsShared(sys, steps) && !readsParams(sys, steps)
}

// readsShared reports whether a guard of steps reads a shared variable.
func readsShared(sys *gsst.System, steps []*gsst.Step) bool {
	for _, st := range steps {
		for _, v := range presburger.FreeVars(st.Guard) {
			if _, ok := sys.SharedOf(v); ok {
				return true
			}
		}
	}
	return false
}

// readsParams reports whether a guard of steps reads a parameter that is
// not fixed.
func readsParams(sys *gsst.System, steps []*gsst.Step) bool {
	for _, st := range steps {
		for _, v := range presburger.FreeVars(st.Guard) {
			if k, ok := sys.ParamOf(v); ok && !sys.Params[k].Fixed {
				return true
			}
		}
	}
	return false
}

// itemName names item i: transition i, rendezvous i - len(Transitions),
// or environment step i - len(Transitions) - len(Rendezvous).
func itemName(sys *gsst.System, i int) string {
	nt, nr := len(sys.Transitions), len(sys.Rendezvous)
	switch {
	case i < nt:
		return sys.TransitionName(&sys.Transitions[i])
	case i < nt+nr:
		return sys.RendezvousName(&sys.Rendezvous[i-nt])
	}
	return sys.EnvironmentName(i - nt - nr)
}

// itemLabel is "transition T -> C", "rendezvous P -> Q, ..." (a
// rendezvous's name says what it is) or "environment step E".
func itemLabel(sys *gsst.System, i int) string {
	nt, nr := len(sys.Transitions), len(sys.Rendezvous)
	switch {
	case i < nt:
		return "transition " + itemName(sys, i)
	case i < nt+nr || sys.Environment[i-nt-nr].Name == "":
		return itemName(sys, i)
	}
	return "environment step " + itemName(sys, i)
}

// groupNames lists the names of groups, "a, b and a".
func groupNames(sys *gsst.System, groups []int) string {
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = sys.Groups[g].Name
	}
	return joinNames(names)
}

// joinNames is "a", "a and b", "a, b and c".
func joinNames(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	out := names[0]
	for _, n := range names[1 : len(names)-1] {
		out += ", " + n
	}
	return out + " and " + names[len(names)-1]
}

// pinCounters lets Certify's queries write the group counters of a
// system with one local state as the group sizes (query.pinned); tests
// turn it off to compare the two forms.
var pinCounters = true

var errNoSolver = fmt.Errorf("a query is needed but no solver was given")

// parts divides blocks 0..n-1 into at most k runs of nearly equal length;
// a transition without blocks still gets one (empty) part.
func parts(n, k int) [][2]int {
	k = max(1, min(k, n))
	out := make([][2]int, 0, k)
	lo := 0
	for i := range k {
		hi := lo + (n-lo)/(k-i)
		out = append(out, [2]int{lo, hi})
		lo = hi
	}
	return out
}
