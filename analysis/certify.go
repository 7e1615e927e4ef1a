package analysis

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/progress"
	"github.com/vsym/vsym/prove"
)

// CertifyRequest is check's question: is the system fully virtually
// symmetric, and after a violation, are its witnesses and asymmetries
// reachable?
type CertifyRequest struct {
	File string
	// SolverTimeout bounds each solver call; a call that runs out leaves
	// its transition unknown (TransitionResult.Stopped). It also bounds
	// the reachability questions of the file as a whole: an answer it
	// leaves undecided has Limit SolverTimeout.
	SolverTimeout time.Duration
	// Work bounds each solver query by units of Z3's resource limit (0:
	// QueryWork); a query that runs out leaves its transition unknown,
	// on every machine alike.
	Work int64
	// Reachability asks the reachability questions after a violation,
	// with Engine, within Limits.MaxMemory.
	Reachability bool
	Engine       string
	// Limits.Timeout is the bound on the whole run that ctx carries,
	// for the message of the error when it runs out.
	Limits Limits
	// Progress, when not nil, is told what the work is doing (package
	// progress).
	Progress progress.Func
}

// Certification is the answer to a CertifyRequest.
type Certification struct {
	Report *detect.Report
	Reach  *Reachability // nil when not asked (no violation, or not requested)
}

// Certify certifies sys (detect.Certify with Z3) and, after a violation
// and when r asks, decides the reachability questions (Reach). An error
// is the solver's failure, a witness that did not survive
// re-verification, or ctx ending (Stopped, at stage "certification" or
// "reachability"), never an answer.
func Certify(ctx context.Context, sys *gsst.System, r CertifyRequest) (*Certification, error) {
	solver := z3.New(z3.Timeout(r.SolverTimeout), z3.Work(orDefault(r.Work, QueryWork)))
	// The witness printed is asked again in fresh contexts (WitnessSolver).
	witness := z3.New(z3.Timeout(r.SolverTimeout), z3.Work(orDefault(r.Work, QueryWork)), z3.Fresh())
	rep, err := detect.Certify(ctx, sys, solver, detect.Timeout(r.SolverTimeout), detect.OnProgress(r.Progress), detect.WitnessSolver(witness))
	if ctx.Err() != nil {
		// The run's bound, not a call's: no report at all.
		return nil, Stopped(ctx, r.File, "certification", r.Limits.Timeout)
	}
	if err != nil {
		return nil, FileError(r.File, err)
	}
	c := &Certification{Report: rep}
	if r.Reachability && rep.Verdict() == detect.Violated {
		limits := r.Limits
		limits.Timeout = r.SolverTimeout
		c.Reach = Reach(ctx, rep, solver, ReachRequest{Engine: r.Engine, Limits: limits, Progress: r.Progress})
		if ctx.Err() != nil {
			return nil, Stopped(ctx, r.File, "reachability", r.Limits.Timeout)
		}
		// ctx goes on: a time bound that left an answer undecided is
		// the file's, SolverTimeout.
		for _, t := range c.Reach.Transitions {
			for _, a := range []*ReachAnswer{&t.Enabled, &t.Disabled, &t.Asymmetry} {
				if a.Limit == Timeout {
					a.Limit = SolverTimeout
				}
			}
		}
	}
	return c, nil
}

// Verdict is the answer as a whole: Yes when certified (or symmetric),
// No when some transition is violated, Unknown otherwise.
func (c *Certification) Verdict() Verdict {
	switch c.Report.Verdict() {
	case detect.Symmetric, detect.Certified:
		return Yes
	case detect.Violated:
		return No
	}
	return Unknown
}

// ProveRequest is prove's question: does each safety property hold for
// every size?
type ProveRequest struct {
	File string
	// PropertyTimeout bounds each property and each certification query;
	// a property that runs out is unknown (prove.Result.Stopped).
	PropertyTimeout time.Duration
	// Work bounds the prover's largest attempt on each property, in
	// units of Z3's resource limit (0: PropertyWork); a property the
	// last attempt cannot answer is unknown, on every machine alike.
	// Each certification query has QueryWork.
	Work int64
	// Limits.Timeout is the bound on the whole run that ctx carries,
	// for the message of the error when it runs out.
	Limits Limits
	// Progress, when not nil, is told what the work is doing: the
	// certification's queries, then each proof as it starts.
	Progress progress.Func
}

// Proof is the answer to a ProveRequest.
type Proof struct {
	*prove.Report
	// Queries counts the satisfiability queries of the run (not
	// printed: for tests and measurements).
	Queries Queries
}

// Prove answers r for sys with Z3's CHC engine (prove.Check), on the
// model the one rule gives (counterabs.GroupReason, then certification
// for every size). When ctx ends first the error is Stopped, at stage
// "proof".
func Prove(ctx context.Context, sys *gsst.System, r ProveRequest) (*Proof, error) {
	// The prover takes its bound from the context prove.Check gives it
	// (derived from ctx: cut by what remains of the run); the solver
	// bounds each certification query, and the checker each query about
	// a property (re-checks of candidates, lemma filters) by the
	// property's work as well, so that --property-work bounds them too.
	//
	// Both ask Quick first (quickFirst): the easy queries, most of those
	// of a proof by a place invariant or the state equation, never reach
	// Z3. The queries about a liveness property go to Z3 alone: that
	// search follows their models, and with Quick's (and the different
	// history of Z3's reused contexts) testdata/bymc/bosco.yaml's fast0
	// ended unknown, Spacer out of work, where it is proved.
	//
	// Z3's models depend on what its reused contexts served before, and
	// the search follows them: the proof starts from fresh contexts, as
	// vsym prove's own process does, so that a program that proves file
	// after file gets each answer vsym prove gives (the same bosco.yaml
	// ended unknown after the mist translations in one process).
	z3.DropIdleContexts()
	work := orDefault(r.Work, PropertyWork)
	solver := quickFirst(z3.New(z3.Timeout(r.PropertyTimeout), z3.Work(QueryWork)))
	z3checker := z3.New(z3.Timeout(r.PropertyTimeout), z3.Work(min(QueryWork, work)))
	checker := quickFirst(z3checker)
	var proofs atomic.Int64
	prover := countedProver{z3.New(), &proofs}
	relaxed := countedProver{z3.New(z3.NoHull()), &proofs}
	rep, err := prove.Check(ctx, sys, prover, solver, prove.Timeout(r.PropertyTimeout), prove.MaxWork(work), prove.CheckSolver(checker), prove.LiveSolver(z3checker), prove.RelaxedProver(relaxed), prove.OnProgress(r.Progress))
	if ctx.Err() != nil {
		return nil, Stopped(ctx, r.File, "proof", r.Limits.Timeout)
	}
	if err != nil {
		return nil, FileError(r.File, err)
	}
	p := &Proof{Report: rep}
	p.Queries.Spacer = proofs.Load()
	for _, c := range []*presburger.Chain{solver, checker} {
		n, asked := c.Answered(), c.Asked()
		p.Queries.Quick += n[0]
		p.Queries.Z3 += asked[1]
	}
	return p, nil
}

// quickFirst returns the solver that asks presburger.Quick, the exact
// Go solver of the easy queries, and s only for what Quick declines.
func quickFirst(s presburger.Solver) *presburger.Chain {
	return presburger.NewChain(presburger.Quick{}, s)
}

// Queries counts the satisfiability queries of a run by who answered
// them: Quick answered Quick of them, and Z3 was asked Z3 (those Quick
// declined); Spacer counts the calls of Z3's CHC engine.
type Queries struct {
	Quick, Z3, Spacer int64
}

// countedProver counts the calls of a Prover in n.
type countedProver struct {
	presburger.Prover
	n *atomic.Int64
}

func (p countedProver) Prove(ctx context.Context, ts presburger.TransitionSystem, b presburger.Budget) (presburger.SafetyAnswer, error) {
	p.n.Add(1)
	return p.Prover.Prove(ctx, ts, b)
}

// Name is the prover's, for progress displays.
func (p countedProver) Name() string { return progress.NameOf(p.Prover) }

// Verdict is the answer as a whole: No when some property is refuted,
// else Unknown when some is unknown, else Yes.
func (p *Proof) Verdict() Verdict {
	v := Yes
	for _, r := range p.Results {
		switch r.Verdict {
		case prove.Refuted:
			v = v.Worse(No)
		case prove.Unknown, prove.Skipped:
			// A property prove cannot decide is no success.
			v = v.Worse(Unknown)
		}
	}
	return v
}
