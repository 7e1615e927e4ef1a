package detect

import (
	"context"
	"fmt"
	"runtime"
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
}

// TransitionResult is the verdict for one local transition. Reason says in
// words why (for Unknown, what the solver said). Stopped says, for
// Unknown, that a time bound or a cancellation stopped the solver
// (presburger.Answer.Stopped). Queries counts the solver calls made.
type TransitionResult struct {
	Transition *gsst.Transition
	Verdict    Verdict
	Witness    *Witness // set when Verdict is Violated
	Reason     string
	Stopped    bool
	Queries    int
}

// Report is the outcome of Certify: one result per transition of System,
// in the system's order.
type Report struct {
	System      *gsst.System
	Transitions []TransitionResult
}

// Verdict returns the verdict for the whole system: Violated if some
// transition is violated (a definite negative answer, even when others are
// unknown); otherwise Unknown if some transition is unknown; otherwise
// Symmetric if every transition is symmetric, else Certified.
func (r *Report) Verdict() Verdict {
	out := Symmetric
	for _, t := range r.Transitions {
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
func Certify(ctx context.Context, sys *gsst.System, s presburger.Solver, opts ...Option) (*Report, error) {
	if err := sys.Unsupported("certification", 0); err != nil {
		return nil, errkind.Wrap(errkind.Input, err)
	}
	cfg := config{workers: runtime.GOMAXPROCS(0), split: 1}
	for _, o := range opts {
		o(&cfg)
	}
	rep := &Report{System: sys, Transitions: make([]TransitionResult, len(sys.Transitions))}

	// Build every query up front, then run them on a pool of workers.
	type job struct {
		tr   int
		q    *query
		part [2]int // blocks part[0] to part[1]-1 of the transition
	}
	var jobs []job
	queries := make([]*query, len(sys.Transitions))
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		rep.Transitions[i] = TransitionResult{Transition: t}
		if !NeedsQuery(sys, t) {
			rep.Transitions[i].Verdict = Symmetric
			rep.Transitions[i].Reason = "one guard over total counters for all groups"
			continue
		}
		q := newQuery(sys, t)
		queries[i] = q
		for _, part := range parts(len(t.Blocks), cfg.split) {
			jobs = append(jobs, job{i, q, part})
		}
	}

	// Per-transition aggregation: the first sat answer decides (and later
	// jobs of that transition are skipped); otherwise any unknown makes the
	// transition unknown; otherwise it is certified.
	type agg struct {
		mu      sync.Mutex
		sat     *Witness
		unknown string
		stopped bool // the unknown answer was a time bound's
		queries int
		err     error
	}
	aggs := make([]agg, len(sys.Transitions))
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
			cfg.progress.Report(progress.Event{Phase: progress.Certify, Engine: progress.NameOf(s), Item: sys.TransitionName(&sys.Transitions[j.tr]), K: k, N: len(jobs)})

			a := &aggs[j.tr]
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

	for i := range sys.Transitions {
		if queries[i] == nil {
			continue
		}
		a := &aggs[i]
		res := &rep.Transitions[i]
		res.Queries = a.queries
		name := sys.TransitionName(res.Transition)
		switch {
		case a.err != nil:
			return nil, fmt.Errorf("detect: transition %s: %w", name, a.err)
		case a.sat != nil && a.sat.Enabled == nil:
			res.Verdict = Unknown
			res.Reason = fmt.Sprintf("the smallest instance with a witness has more than %d processes (sizes %s), beyond what vsym evaluates directly",
				gsst.MaxProcesses, sys.FormatSizes(a.sat.Sizes))
		case a.sat != nil:
			if err := VerifyWitness(sys, res.Transition, a.sat); err != nil {
				return nil, errkind.Wrap(errkind.Internal, &gsst.Error{Pos: res.Transition.Pos, Msg: fmt.Sprintf("detect: transition %s: solver model is not a witness: %v", name, err)})
			}
			res.Verdict = Violated
			res.Witness = a.sat
			res.Reason = fmt.Sprintf("group %s can take %s in a configuration whose orbit holds one where no process can", sys.Groups[a.sat.Group].Name, name)
		case a.unknown != "":
			res.Verdict = Unknown
			res.Reason, res.Stopped = a.unknown, a.stopped
		default:
			res.Verdict = Certified
			res.Reason = "no two configurations with equal total counters differ in whether the transition is enabled"
		}
	}
	return rep, nil
}

// VerifyWitness checks w against sys by direct evaluation: the sizes are
// allowed by the groups' ranges (the groups' own sizes when fixed), both
// configurations are well formed (each group's counters nonnegative and
// summing to its size), they agree on every total counter, Group can take
// t in Enabled and no process can take t in Disabled (n being the number
// of processes of the instance). A witness without Sizes is taken to be
// of the fixed sizes of sys.
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
	n := 0
	for g, k := range sizes {
		if !sys.Groups[g].Allows(k) {
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
