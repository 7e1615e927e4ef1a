package analysis

import (
	"context"
	"errors"
	"fmt"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/progress"
)

// Certification quantifies over all configurations, so a violation may
// rest on configurations the system never reaches. After a violation,
// check decides on the group-counter model, which is exact for any
// system, three reachability questions per violated transition or
// rendezvous r:
//
//   - is the witness's enabled configuration reachable from the initial
//     state (up to permutations inside groups, which the group counters
//     do not see and no guard can tell apart), with the witness's shared
//     values?
//   - is its disabled configuration reachable?
//   - is some asymmetric configuration of r reachable: one from which no
//     step reaches an orbit that a step of r reaches from a
//     configuration with the same total counters and shared values
//     (detect.Asymmetry; for a transition of the paper, one where no
//     process can take r although such a configuration lets one)? This
//     is the question that matters: exactly there the total-counter
//     model has a move the system lacks. When it is "no" for every
//     transition and rendezvous, every reachable configuration reaches
//     the same successor orbits as every configuration of its orbit,
//     even though certification failed.
//
// Each is EF of a state formula of the group-counter model from some
// initial state (asked as AG of its negation, see answer), decided by
// the engines auto gives (Engines): the explicit engine, and on a large
// counter space the BDD engine when the reachable states outgrow the
// explicit engine's budget. The spec's fairness plays
// no part: symmetry is about the configurations the system can reach, by
// any run, and a fair EF would answer "reachable and continued by a fair
// run" (and count the fair continuation in its steps). So the questions
// are asked of the system without its fairness constraints, and a step
// count is the length of a shortest path to the configuration.

// ReachAnswer is the answer to one reachability question.
type ReachAnswer struct {
	Reachable *bool          // nil: undecided, see Reason
	Steps     *int           // length of a shortest path from the (first) initial state that reaches it
	State     *explore.State // asymmetry: the configuration that path reaches
	Reason    string         // why it is undecided
	Limit     Limit          // the bound that left it undecided, if one did
}

// TransitionReach holds the three answers for one violated transition or
// rendezvous.
type TransitionReach struct {
	// Sizes, for a spec whose group sizes are ranges, are those of the
	// witness's instance, which the questions are asked of.
	Sizes     map[string]int
	Enabled   ReachAnswer
	Disabled  ReachAnswer
	Asymmetry ReachAnswer
}

// Reachability is the reachability of every violated transition and
// rendezvous of one system, by index in detect.Report.Results
// (transitions, then rendezvous).
type Reachability struct {
	Engines     []string // the engines that ran, in order
	Transitions map[int]*TransitionReach
	// parametric: the system is a family of sizes, and each transition's
	// questions were asked of its witness's instance only.
	parametric bool
}

// ReachRequest says how to decide the reachability questions.
type ReachRequest struct {
	// Engine is "auto", "explicit" or "bdd".
	Engine string
	// Limits: Timeout bounds the whole decision, MaxMemory each engine.
	Limits Limits
	// Progress, when not nil, is told of the construction of the
	// total-counter guards and of the engines' progress.
	Progress progress.Func
}

// AsymmetryReachable summarises r for the whole system: true when some
// violated transition's asymmetry is reachable, false when none is and
// every transition was decided (of a system of fixed sizes: one instance
// of a family says nothing of the others), nil otherwise.
func (r *Reachability) AsymmetryReachable(cert *detect.Report) *bool {
	if r == nil {
		return nil
	}
	for _, t := range cert.Results() {
		if t.Verdict == detect.Unknown {
			return nil
		}
	}
	no := false
	for _, a := range r.Transitions {
		switch {
		case a.Asymmetry.Reachable == nil:
			return nil
		case *a.Asymmetry.Reachable:
			yes := true
			return &yes
		}
	}
	if r.parametric {
		return nil
	}
	return &no
}

// Reach answers the three questions for every violated transition and
// rendezvous of cert with the engine r.Engine, within r.Limits. It does not fail for
// want of an answer: a limit, the timeout or a solver unknown leaves the
// answers undecided, with the reason.
func Reach(ctx context.Context, cert *detect.Report, solver interface {
	presburger.Solver
	presburger.Projector
}, r ReachRequest) *Reachability {
	ctx, cancel := r.Limits.Context(ctx)
	defer cancel()
	out := &Reachability{Transitions: map[int]*TransitionReach{}, parametric: cert.System.Parametric()}
	// A parametric system's witnesses are of some instance each (their
	// Sizes, and Params in a family); the questions are asked of that
	// instance.
	byInstance := map[string][]int{}
	var keys []string
	results := cert.Results()
	for i, t := range results {
		if t.Verdict != detect.Violated {
			continue
		}
		out.Transitions[i] = &TransitionReach{}
		key := fmt.Sprint(t.Witness.Params, t.Witness.Sizes)
		if _, ok := byInstance[key]; !ok {
			keys = append(keys, key)
		}
		byInstance[key] = append(byInstance[key], i)
	}
	for _, key := range keys {
		violated := byInstance[key]
		w := results[violated[0]].Witness
		sys, err := reachSystem(cert.System, w.Params, w.Sizes)
		if err == nil && out.parametric {
			for _, i := range violated {
				out.Transitions[i].Sizes = map[string]int{}
				for _, g := range sys.Groups {
					out.Transitions[i].Sizes[g.Name] = g.Size
				}
			}
		}
		out.decideInstance(ctx, sys, err, cert, violated, solver, r)
	}
	return out
}

// reachSystem returns sys without its properties (the questions become
// the model's properties) and without its fairness constraints (the
// questions are about every run), as the instance of the given
// parameters (in a family) and sizes when sys is parametric.
func reachSystem(sys *gsst.System, params, sizes []int) (*gsst.System, error) {
	if sys.Parametric() {
		inst, err := sys.InstantiateParams(params, sizes)
		if err != nil {
			return nil, err
		}
		sys = inst
	}
	return sys.WithProperties().WithoutFairness(), nil
}

// decideInstance answers the questions of the violated transitions and
// rendezvous of cert (indices into Report.Results) on sys, the system or
// the instance their witnesses belong to; sysErr says why there is none.
func (out *Reachability) decideInstance(ctx context.Context, sys *gsst.System, sysErr error, cert *detect.Report, violated []int, solver interface {
	presburger.Solver
	presburger.Projector
}, r ReachRequest) {
	undecided := func(a *ReachAnswer, why string, limit Limit) { a.Reachable, a.Reason, a.Limit = nil, why, limit }
	var group *counterabs.Model
	if sysErr == nil {
		group, sysErr = counterabs.BuildGroup(sys)
	}
	if sysErr != nil {
		for _, i := range violated {
			a := out.Transitions[i]
			for _, x := range []*ReachAnswer{&a.Enabled, &a.Disabled, &a.Asymmetry} {
				undecided(x, "the group-counter model could not be built: "+sysErr.Error(), NoLimit)
			}
		}
		return
	}
	// First the witnesses' own configurations: EF of one point each,
	// cheap whatever the engine.
	results := cert.Results()
	var points []question
	for _, i := range violated {
		a, w := out.Transitions[i], results[i].Witness
		points = append(points,
			question{&a.Enabled, configuration(group, w.Enabled, w.Shared), false},
			question{&a.Disabled, configuration(group, w.Disabled, w.Shared), false})
	}
	out.answer(ctx, group, points, r)
	// Then the asymmetry: the configurations the certification query
	// finds on its disabled side.
	var asyms []question
	for _, i := range violated {
		a := &out.Transitions[i].Asymmetry
		f, err := detect.Asymmetry(ctx, sys, i, solver)
		if err == nil {
			f, err = group.Translate(f)
		}
		if err != nil {
			why, limit := stopReason(ctx, err, r.Limits.Timeout)
			undecided(a, "the asymmetric configurations could not be computed: "+why, limit)
			continue
		}
		asyms = append(asyms, question{a, f, true})
	}
	out.answer(ctx, group, asyms, r)
}

// question is one reachability question: is a configuration satisfying
// f reachable from the initial state?
type question struct {
	answer *ReachAnswer
	f      presburger.Formula // over the group-counter model's counters
	state  bool               // report the configuration reached
}

// answer decides qs on the group-counter model group with the engines
// req.Engine names (Engines: under auto, the explicit engine, then the
// BDD engine if the explicit search outgrows its budget) and fills in
// their answers; a question left without an answer says why.
func (r *Reachability) answer(ctx context.Context, group *counterabs.Model, qs []question, req ReachRequest) {
	if len(qs) == 0 {
		return
	}
	m := *group
	m.Properties = nil
	m.Justice = nil // plain EF: reachable by any run (reachSystem drops them already)
	// Each question asks AG !q: it fails exactly when q is reachable
	// from some initial state (a property holds when it holds in every
	// initial state, and a system may have several), and its
	// counterexample is a shortest path to q from the first initial
	// state that reaches it.
	for k, q := range qs {
		m.Properties = append(m.Properties, counterabs.Property{
			Name:    fmt.Sprintf("q%d", k),
			Formula: ctl.Unary{Op: ctl.AG, X: ctl.Not{X: ctl.Atom{P: q.f}}},
		})
	}
	opts := []explore.Option{explore.MaxMemory(req.Limits.MaxMemory), explore.Traces(true), explore.CountStates(false), explore.CountConcrete(false), explore.OnProgress(progressEvery, req.Progress)}
	engines, err := Engines(req.Engine, &m, symbolic.DefaultBDD())
	if err != nil {
		for _, q := range qs {
			q.answer.Reason = err.Error()
		}
		return
	}
	// A shared variable without an upper bound may take infinitely many
	// values, and the search of the reachable configurations then never
	// ends. The search stops instead when a reachable step takes such a
	// variable beyond the value past which it is said to keep growing
	// (explore.GrowthBound): a bound of work, so that the answer (unknown,
	// if the bound is passed) is the same on every machine. When no step
	// passes it, the bound decided nothing and the answers are exact.
	var bound int64
	for j := range m.Shared {
		if m.Shared[j].Unbounded {
			bound = max(bound, explore.GrowthBound(&m, j))
		}
	}
	if bound > 0 {
		opts = append(opts, explore.Bound(bound))
	}
	rep, ran, err := check(ctx, engines, &m, 0, opts...)
	r.Engines = append(r.Engines, ran...)
	if err != nil {
		why, limit := stopReason(ctx, err, req.Limits.Timeout)
		var le *explore.LimitError
		if errors.As(err, &le) && le.Kind == "bound" && le.Growth != nil {
			why = fmt.Sprintf("a reachable step takes shared variable %s beyond %d: the configurations reachable may be infinitely many", le.Growth.Var, le.Limit)
		}
		for _, q := range qs {
			q.answer.Reachable, q.answer.Reason, q.answer.Limit = nil, why, limit
		}
		return
	}
	for k, q := range qs {
		p := rep.Properties[k]
		reachable := !p.Holds
		q.answer.Reachable = &reachable
		if !reachable || p.Trace == nil {
			continue
		}
		steps := len(p.Trace.States) - 1
		q.answer.Steps = &steps
		if q.state {
			last := p.Trace.States[steps]
			q.answer.State = &last
		}
	}
}

// configuration returns the formula that holds exactly at the
// group-counter vector of conf (conf[g][s] processes of group g in s)
// with the shared values shared.
func configuration(m *counterabs.Model, conf [][]int, shared []int) presburger.Formula {
	var parts []presburger.Formula
	for g, row := range conf {
		for s, k := range row {
			x := presburger.VarTerm(presburger.Var(m.Counter(s, g)))
			parts = append(parts, presburger.Compare(x, presburger.Eq, presburger.ConstTerm(int64(k))))
		}
	}
	for j, v := range shared {
		x := presburger.VarTerm(presburger.Var(m.SharedVar(j)))
		parts = append(parts, presburger.Compare(x, presburger.Eq, presburger.ConstTerm(int64(v))))
	}
	return presburger.Conj(parts...)
}
