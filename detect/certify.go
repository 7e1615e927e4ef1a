package detect

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
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
	// Symmetric: the transition treats all processes alike (one block of
	// all groups, total-counter guard); no query was needed.
	Symmetric
	// Certified: the query was unsat, Dom(R_r) is closed under orbits.
	Certified
	// Violated: a witness shows Dom(R_r) is not closed under orbits.
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

// Witness shows that a transition's domain is not closed under orbits:
// two configurations with equal total counters, where Group has a process
// able to take the transition in Enabled and no process can in Disabled.
// Configurations are indexed [group][state]. Sizes are the group sizes of
// the instance they belong to: the system's own for a fixed-size system,
// sizes within the ranges (those of a smallest instance with a witness)
// for a parametric one.
type Witness struct {
	Sizes    []int
	Enabled  [][]int
	Disabled [][]int
	Group    int

	// For a system with constructs beyond the paper (shared variables,
	// broadcast, rendezvous, parameters), the step is the point: both
	// configurations have the shared values Shared (and, in a family,
	// the parameter values Params; nil otherwise), and Step, taken in
	// Enabled (by a process of Group, the group of its first part for a
	// rendezvous), reaches an orbit (total counters and shared values)
	// that no step of Disabled reaches. Step is nil, and Shared and
	// Params too, for a system within the paper.
	Shared []int
	Params []int
	Step   *Step
}

// TransitionResult is the verdict for one local transition. Reason says in
// words why (for Unknown, what the solver said). Stopped says, for
// Unknown, that a time bound or a cancellation stopped the solver
// (presburger.Answer.Stopped). Queries counts the solver calls made.
type TransitionResult struct {
	Transition *gsst.Transition // nil for a rendezvous
	Rendezvous *gsst.Rendezvous // set for a rendezvous (Report.Rendezvous)
	Verdict    Verdict
	Witness    *Witness // set when Verdict is Violated
	Reason     string
	Stopped    bool
	Queries    int
}

// Report is the outcome of Certify: one result per transition of System,
// in the system's order, and one per rendezvous.
type Report struct {
	System      *gsst.System
	Transitions []TransitionResult
	Rendezvous  []TransitionResult
}

// Results returns the results of the transitions, then those of the
// rendezvous.
func (r *Report) Results() []TransitionResult {
	return append(slices.Clip(r.Transitions), r.Rendezvous...)
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
}

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

// Split divides the query of a transition into up to k parts (default 1):
// phi_r(y') is a disjunction over the blocks of r, so the query is unsat
// exactly when the query restricted to each group of consecutive blocks
// is. Parts are smaller and can run in parallel (see Workers), but each
// costs a solver call; on GR&W one whole query is fastest.
func Split(k int) Option {
	return func(c *config) {
		if k < 1 {
			k = 1
		}
		c.split = k
	}
}

// Certify checks every transition of sys for full virtual symmetry
// (Theorem 6) with solver s. It returns an error for a malformed system, a
// failing solver, or a witness that does not survive re-verification (an
// internal error); unknown answers are verdicts, not errors. s may be nil
// when no transition needs a query.
//
// For a parametric system (some group size a range) the group sizes are
// variables of the queries, within their ranges: Certified then means
// fully virtually symmetric for every choice of sizes, and a violation's
// witness names the sizes of an instance where it breaks (one with the
// fewest processes). s must decide problems with open ranges when some
// range is unbounded (the Z3 solver does). A smallest witness with more
// than gsst.MaxProcesses processes cannot be re-verified by direct
// evaluation; the transition is then Unknown, with that reason.
//
// A system with shared variables, updates, broadcasts, rendezvous or
// parameters is checked by the exact condition of Theorem 3 (ext.go):
// every transition and every rendezvous (Report.Rendezvous) gets a
// query asking for a step of its own whose successor orbit (totals and
// shared values) some configuration of the same orbit cannot reach by
// any step. A family over parameters is certified for every parameter
// value satisfying its assumption (and giving every group at least one
// process); its witnesses name the parameter values (Witness.Params).
func Certify(ctx context.Context, sys *gsst.System, s presburger.Solver, opts ...Option) (*Report, error) {
	if err := sys.Unsupported("certification", gsst.ExtShared|gsst.ExtParams|gsst.ExtRendezvous|gsst.ExtBroadcast); err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
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
	// result returns the result of item i: transition i, or rendezvous
	// i - nt.
	result := func(i int) *TransitionResult {
		if i < nt {
			return &rep.Transitions[i]
		}
		return &rep.Rendezvous[i-nt]
	}
	items := nt + len(sys.Rendezvous)
	extended := sys.Extensions() != 0
	var ext *extSystem
	if extended {
		ext = newExtSystem(sys)
	}

	// Build every query up front, then run them on a pool of workers.
	type job struct {
		item int
		q    runner
		part [2]int // blocks (members, for an extended system) part[0] to part[1]-1
	}
	var jobs []job
	queries := make([]runner, items)
	classes := make([][]string, items)
	for i := range items {
		res := result(i)
		tr, rv := i, -1
		if i >= nt {
			tr, rv = -1, i-nt
			res.Rendezvous = &sys.Rendezvous[rv]
		} else {
			res.Transition = &sys.Transitions[i]
		}
		switch {
		case !extended && !NeedsQuery(sys, res.Transition):
			res.Verdict = Symmetric
			res.Reason = "one guard over total counters for all groups"
			continue
		case extended && symmetricExt(sys, tr, rv):
			res.Verdict = Symmetric
			res.Reason = "enabledness and effect read only total counters and shared values, alike for all groups"
			continue
		}
		var q runner
		n := 0
		if extended {
			eq := ext.queryOf(tr, rv)
			q, n = eq, eq.numParts()
			classes[i] = eq.class()
		} else {
			q, n = newQuery(sys, res.Transition), len(res.Transition.Blocks)
		}
		queries[i] = q
		for _, part := range parts(n, cfg.split) {
			jobs = append(jobs, job{i, q, part})
		}
	}
	itemName := func(i int) string {
		if i < nt {
			return sys.TransitionName(&sys.Transitions[i])
		}
		return sys.RendezvousName(&sys.Rendezvous[i-nt])
	}

	// Per-item aggregation: the first sat answer decides (and later
	// jobs of that item are skipped); otherwise any unknown makes the
	// item unknown; otherwise it is certified.
	type agg struct {
		mu      sync.Mutex
		sat     *Witness
		unknown string
		stopped bool // the unknown answer was a time bound's
		queries int
		err     error
	}
	aggs := make([]agg, items)
	var (
		next int
		mu   sync.Mutex
		wg   sync.WaitGroup
	)
	work := func() {
		defer wg.Done()
		for {
			mu.Lock()
			if next == len(jobs) {
				mu.Unlock()
				return
			}
			j := jobs[next]
			next++
			k := next
			mu.Unlock()
			cfg.progress.Report(progress.Event{Phase: progress.Certify, Engine: progress.NameOf(s), Item: itemName(j.item), K: k, N: len(jobs)})

			a := &aggs[j.item]
			a.mu.Lock()
			done := a.sat != nil || a.err != nil
			a.mu.Unlock()
			if done {
				continue
			}
			w, ans, calls, err := j.q.run(ctx, s, j.part, cfg.timeout)
			a.mu.Lock()
			a.queries += calls
			switch {
			case err != nil:
				if a.err == nil {
					a.err = err
				}
			case ans.Result == presburger.Sat:
				if a.sat == nil {
					a.sat = w
				}
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

	for i := range items {
		if queries[i] == nil {
			continue
		}
		a := &aggs[i]
		res := result(i)
		res.Queries = a.queries
		name := itemName(i)
		var pos gsst.Pos
		if res.Transition != nil {
			pos = res.Transition.Pos
		} else {
			pos = res.Rendezvous.Pos
		}
		switch {
		case a.err != nil:
			return nil, fmt.Errorf("detect: %s: %w", itemLabel(name, i < nt), a.err)
		case a.sat != nil && a.sat.Enabled == nil:
			res.Verdict = Unknown
			res.Reason = fmt.Sprintf("the smallest instance with a witness has more than %d processes (sizes %s), beyond what vsym evaluates directly",
				gsst.MaxProcesses, sys.FormatSizes(a.sat.Sizes))
		case a.sat != nil:
			if err := VerifyWitness(sys, res.Transition, a.sat); err != nil {
				return nil, errkind.Wrap(errkind.Internal, &gsst.Error{Pos: pos, Msg: fmt.Sprintf("detect: %s: solver model is not a witness: %v", itemLabel(name, i < nt), err)})
			}
			res.Verdict = Violated
			res.Witness = a.sat
			switch {
			case !extended:
				res.Reason = fmt.Sprintf("group %s can take %s in a configuration whose orbit holds one where no process can", sys.Groups[a.sat.Group].Name, name)
			case res.Rendezvous != nil:
				res.Reason = fmt.Sprintf("processes of groups %s can take %s to a successor orbit that no step reaches from another configuration of the same orbit",
					groupNames(sys, a.sat.Step.Groups), name)
			default:
				res.Reason = fmt.Sprintf("group %s can take %s to a successor orbit that no step reaches from another configuration of the same orbit", sys.Groups[a.sat.Group].Name, name)
			}
		case a.unknown != "":
			res.Verdict = Unknown
			res.Reason, res.Stopped = a.unknown, a.stopped
		case !extended:
			res.Verdict = Certified
			res.Reason = "no two configurations with equal total counters differ in whether the transition is enabled"
		default:
			res.Verdict = Certified
			res.Reason = "from any two configurations with equal total counters and shared values, its steps reach successor orbits the other configuration reaches too"
			if len(classes[i]) > 0 {
				res.Reason += " (compared with the steps of " + joinNames(classes[i]) + ", whose effects can coincide with its own)"
			}
		}
	}
	return rep, nil
}

// runner decides one part of the query of a transition or rendezvous.
type runner interface {
	run(ctx context.Context, s presburger.Solver, part [2]int, timeout time.Duration) (*Witness, presburger.Answer, int, error)
}

// itemLabel is "transition T -> C" or "rendezvous P -> Q, ..." (a
// rendezvous's name says what it is).
func itemLabel(name string, transition bool) string {
	if transition {
		return "transition " + name
	}
	return name
}

// groupNames lists the names of groups, "a, b, a".
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

// VerifyWitness checks w against sys by direct evaluation: the sizes are
// allowed by the groups' ranges (the groups' own sizes when fixed), both
// configurations are well formed (each group's counters nonnegative and
// summing to its size), they agree on every total counter, Group can take
// t in Enabled and no process can take t in Disabled (n being the number
// of processes of the instance). A witness without Sizes is taken to be
// of the fixed sizes of sys.
//
// For a system with constructs beyond the paper (gsst.Spec.Extensions)
// the step decides instead of t (nil for a rendezvous): the shared
// values lie in their domains, the parameters (of a family) satisfy the
// assumption and give the sizes of the groups sized over them, w.Step is
// a step of Enabled (Successors) by w.Group, and no step of Disabled
// reaches its orbit.
func VerifyWitness(sys *gsst.System, t *gsst.Transition, w *Witness) error {
	if w == nil {
		return fmt.Errorf("no witness")
	}
	sizes := w.Sizes
	if sizes == nil {
		sizes = make([]int, len(sys.Groups))
		for g := range sys.Groups {
			sizes[g] = sys.Groups[g].Size
		}
	}
	if len(sizes) != len(sys.Groups) {
		return fmt.Errorf("%d sizes for %d groups", len(sizes), len(sys.Groups))
	}
	extended := sys.Extensions() != 0
	if extended {
		if err := verifyValues(sys, w, sizes); err != nil {
			return err
		}
	}
	n := 0
	for g, k := range sizes {
		if extended && sys.Parametric() && sys.Groups[g].OverParams() {
			// verifyValues checked it against the parameters
		} else if !sys.Groups[g].Allows(k) {
			return fmt.Errorf("group %s cannot have %d processes (its size is %s)", sys.Groups[g].Name, k, sys.Groups[g].SizeText())
		}
		if n += k; n > gsst.MaxProcesses {
			return fmt.Errorf("more than %d processes", gsst.MaxProcesses)
		}
	}
	for _, c := range []struct {
		name string
		conf [][]int
	}{{"enabled", w.Enabled}, {"disabled", w.Disabled}} {
		if len(c.conf) != len(sys.Groups) {
			return fmt.Errorf("%s configuration has %d groups, want %d", c.name, len(c.conf), len(sys.Groups))
		}
		for g, row := range c.conf {
			if len(row) != len(sys.States) {
				return fmt.Errorf("%s configuration: group %s has %d states, want %d", c.name, sys.Groups[g].Name, len(row), len(sys.States))
			}
			sum := 0
			for _, x := range row {
				if x < 0 || x > sizes[g] {
					return fmt.Errorf("%s configuration: counter %d of group %s outside 0..%d", c.name, x, sys.Groups[g].Name, sizes[g])
				}
				sum += x
			}
			if sum != sizes[g] {
				return fmt.Errorf("%s configuration: group %s has %d processes, want %d", c.name, sys.Groups[g].Name, sum, sizes[g])
			}
		}
	}
	for s := range sys.States {
		a, b := 0, 0
		for g := range sys.Groups {
			a += w.Enabled[g][s]
			b += w.Disabled[g][s]
		}
		if a != b {
			return fmt.Errorf("total counters of %s differ: %d and %d", sys.States[s], a, b)
		}
	}
	if extended {
		if w.Step == nil || len(w.Step.Groups) == 0 || w.Step.Groups[0] != w.Group {
			return fmt.Errorf("the step is missing or not taken by group %d", w.Group)
		}
		return verifyStep(sys, w)
	}
	fire := FiringGroups(sys, t, w.Enabled)
	found := false
	for _, g := range fire {
		found = found || g == w.Group
	}
	if !found {
		return fmt.Errorf("group %d cannot take the transition in the enabled configuration", w.Group)
	}
	if f := FiringGroups(sys, t, w.Disabled); len(f) > 0 {
		return fmt.Errorf("group %s can take the transition in the disabled configuration", sys.Groups[f[0]].Name)
	}
	return nil
}

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
