package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Certification quantifies over all configurations (Theorem 6), so a
// violation may rest on configurations the system never reaches. After a
// violation, check decides on the group-counter model, which is exact for
// any GSST, three reachability questions per violated transition r:
//
//   - is the witness's enabled configuration reachable from the initial
//     state (up to permutations inside groups, which the group counters
//     do not see and no guard can tell apart)?
//   - is its disabled configuration reachable?
//   - is some asymmetric configuration of r reachable: one where no
//     process can take r although a configuration with the same total
//     counters lets one (counterabs.Asymmetry)? This is the question that
//     matters: exactly there the total-counter model has a move the
//     system lacks. When it is "no" for every transition, the guards of
//     the total-counter model are exact on every reachable
//     configuration, even though certification failed.
//
// Each is EF of a state formula of the group-counter model, decided by
// the explicit engine, or by the BDD engine when the reachable states
// are too many for it (reachExplicitStates). The spec's fairness plays
// no part: symmetry is about the configurations the system can reach, by
// any run, and a fair EF would answer "reachable and continued by a fair
// run" (and count the fair continuation in its steps). So the questions
// are asked of the system without its fairness constraints, and a step
// count is the length of a shortest path to the configuration.

// reachAnswer is the answer to one reachability question.
type reachAnswer struct {
	Reachable *bool          `json:"reachable"`        // null: undecided, see reason
	Steps     *int           `json:"steps,omitempty"`  // length of a shortest path from the initial state
	State     *explore.State `json:"state,omitempty"`  // asymmetry: the configuration that path reaches
	Reason    string         `json:"reason,omitempty"` // why it is undecided
}

// reachJSON holds the three answers for one violated transition.
type reachJSON struct {
	// Sizes, for a spec whose group sizes are ranges, are those of the
	// witness's instance, which the questions are asked of.
	Sizes     map[string]int `json:"sizes,omitempty"`
	Enabled   reachAnswer    `json:"enabled"`
	Disabled  reachAnswer    `json:"disabled"`
	Asymmetry reachAnswer    `json:"asymmetry"`
}

// reachResult is the reachability of every violated transition of one
// system, by index in System.Transitions.
type reachResult struct {
	Engines     []string // the engines that ran, in order
	Transitions map[int]*reachJSON
	// parametric: the system is a family of sizes, and each transition's
	// questions were asked of its witness's instance only.
	parametric bool
}

// asymmetryReachable summarises r for the whole system: true when some
// violated transition's asymmetry is reachable, false when none is and
// every transition was decided (of a system of fixed sizes: one instance
// of a family says nothing of the others), nil otherwise.
func (r *reachResult) asymmetryReachable(cert *detect.Report) *bool {
	if r == nil {
		return nil
	}
	for _, t := range cert.Transitions {
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

// decideReachability answers the three questions for every violated
// transition of cert with the engine engineName (as --engine names it).
// It does not fail for want of an answer: a limit, the timeout or a
// solver unknown leaves the answers undecided, with the reason. timeout
// bounds the whole decision (0: none).
func decideReachability(ctx context.Context, cert *detect.Report, solver interface {
	presburger.Solver
	presburger.Projector
}, engineName string, timeout time.Duration, maxMemory int64) *reachResult {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	out := &reachResult{Transitions: map[int]*reachJSON{}, parametric: cert.System.Parametric()}
	// A parametric system's witnesses are of some instance each (their
	// Sizes); the questions are asked of that instance.
	byInstance := map[string][]int{}
	var keys []string
	for i, t := range cert.Transitions {
		if t.Verdict != detect.Violated {
			continue
		}
		out.Transitions[i] = &reachJSON{}
		key := fmt.Sprint(t.Witness.Sizes)
		if _, ok := byInstance[key]; !ok {
			keys = append(keys, key)
		}
		byInstance[key] = append(byInstance[key], i)
	}
	for _, key := range keys {
		violated := byInstance[key]
		sys, err := reachSystem(cert.System, cert.Transitions[violated[0]].Witness.Sizes)
		if err == nil && out.parametric {
			for _, i := range violated {
				out.Transitions[i].Sizes = map[string]int{}
				for _, g := range sys.Groups {
					out.Transitions[i].Sizes[g.Name] = g.Size
				}
			}
		}
		out.decideInstance(ctx, sys, err, cert, violated, solver, engineName, timeout, maxMemory)
	}
	return out
}

// reachSystem returns sys without its properties (the questions become
// the model's properties) and without its fairness constraints (the
// questions are about every run), as the instance of the given sizes
// when sys is parametric.
func reachSystem(sys *gsst.System, sizes []int) (*gsst.System, error) {
	if sys.Parametric() {
		inst, err := sys.Instantiate(sizes)
		if err != nil {
			return nil, err
		}
		sys = inst
	}
	return sys.WithProperties().WithoutFairness(), nil
}

// decideInstance answers the questions of the violated transitions of
// cert (indices into System.Transitions) on sys, the system or the
// instance their witnesses belong to; sysErr says why there is none.
func (out *reachResult) decideInstance(ctx context.Context, sys *gsst.System, sysErr error, cert *detect.Report, violated []int, solver interface {
	presburger.Solver
	presburger.Projector
}, engineName string, timeout time.Duration, maxMemory int64) {
	undecided := func(a *reachAnswer, why string) { a.Reachable, a.Reason = nil, why }
	var group *counterabs.Model
	if sysErr == nil {
		group, sysErr = counterabs.BuildGroup(sys)
	}
	if sysErr != nil {
		for _, i := range violated {
			a := out.Transitions[i]
			for _, x := range []*reachAnswer{&a.Enabled, &a.Disabled, &a.Asymmetry} {
				undecided(x, "the group-counter model could not be built: "+sysErr.Error())
			}
		}
		return
	}
	// First the witnesses' own configurations: EF of one point each,
	// cheap whatever the engine.
	var points []question
	for _, i := range violated {
		a, w := out.Transitions[i], cert.Transitions[i].Witness
		points = append(points,
			question{&a.Enabled, configuration(group, w.Enabled), false},
			question{&a.Disabled, configuration(group, w.Disabled), false})
	}
	out.answer(ctx, group, points, engineName, timeout, maxMemory)
	// Then the asymmetry, which needs g_r: the guards of the total-counter
	// model built without certification.
	var asyms []question
	total, err := counterabs.Build(ctx, sys, solver, solver, counterabs.Force(), counterabs.Simplify(false))
	for _, i := range violated {
		a := &out.Transitions[i].Asymmetry
		if err != nil {
			undecided(a, "the guards of the total-counter model could not be built: "+stopReason(ctx, err, timeout))
			continue
		}
		f, err := counterabs.Asymmetry(group, total, i)
		if err != nil {
			undecided(a, err.Error())
			continue
		}
		asyms = append(asyms, question{a, f, true})
	}
	out.answer(ctx, group, asyms, engineName, timeout, maxMemory)
}

// question is one reachability question: is a configuration satisfying
// f reachable from the initial state?
type question struct {
	answer *reachAnswer
	f      presburger.Formula // over the group-counter model's counters
	state  bool               // report the configuration reached
}

// reachExplicitStates bounds the explicit engine's attempt under
// --engine auto. The questions are EF from the initial state, which the
// explicit engine answers in one forward search of the reachable
// states; those are often far fewer than the counter space the BDD
// engine's choice looks at (the shared-reading lock with 100 readers and
// 100 writers: 530,351 reachable of 26 million vectors, 0.5 s explicit,
// minutes backwards with BDDs). At a few million states per second this
// bound keeps the attempt to seconds; beyond it the BDD engine answers.
var reachExplicitStates int64 = 10_000_000 // a variable so that tests can lower it

// answer decides qs on the group-counter model group with the engine
// engineName ("auto": explicit, then BDD if the explicit search outgrows
// reachExplicitStates) and fills in their answers; a question left
// without an answer says why.
func (r *reachResult) answer(ctx context.Context, group *counterabs.Model, qs []question, engineName string, timeout time.Duration, maxMemory int64) {
	if len(qs) == 0 {
		return
	}
	m := *group
	m.Properties = nil
	m.Justice = nil // plain EF: reachable by any run (reachSystem drops them already)
	for k, q := range qs {
		m.Properties = append(m.Properties, counterabs.Property{
			Name:    fmt.Sprintf("q%d", k),
			Formula: ctl.Unary{Op: ctl.EF, X: ctl.Atom{P: q.f}},
		})
	}
	opts := []explore.Option{explore.MaxMemory(maxMemory), explore.Traces(true), explore.CountStates(false), explore.CountConcrete(false)}
	var engines []explore.Engine
	switch engineName {
	case "auto":
		engines = []explore.Engine{explicit.Engine{}, symbolic.DefaultBDD()}
	case "explicit":
		engines = []explore.Engine{explicit.Engine{}}
	case "bdd":
		engines = []explore.Engine{symbolic.DefaultBDD()}
	default:
		for _, q := range qs {
			q.answer.Reason = fmt.Sprintf("unknown engine %q", engineName)
		}
		return
	}
	var rep *explore.Report
	var err error
	for k, e := range engines {
		r.Engines = append(r.Engines, e.Name())
		bound := opts
		if k < len(engines)-1 {
			bound = append(bound, explore.MaxStates(reachExplicitStates))
		}
		rep, err = e.Check(ctx, &m, bound...)
		if err == nil || !errors.Is(err, errkind.Limit) || ctx.Err() != nil {
			break
		}
	}
	if err != nil {
		why := stopReason(ctx, err, timeout)
		for _, q := range qs {
			q.answer.Reachable, q.answer.Reason = nil, why
		}
		return
	}
	for k, q := range qs {
		p := rep.Properties[k]
		reachable := p.Holds
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

// stopReason says why err ended the work: the timeout, check's
// --solver-timeout (with the flag to raise), when ctx ran out, else err
// with its hint.
func stopReason(ctx context.Context, err error, timeout time.Duration) string {
	switch {
	case ctx.Err() == nil:
		return withHint(err)
	case timeout > 0:
		return fmt.Sprintf("stopped: timeout after %v; raise --solver-timeout", timeout)
	}
	return "stopped: " + ctx.Err().Error()
}

// configuration returns the formula that holds exactly at the
// group-counter vector of conf (conf[g][s] processes of group g in s).
func configuration(m *counterabs.Model, conf [][]int) presburger.Formula {
	var parts []presburger.Formula
	for g, row := range conf {
		for s, k := range row {
			x := presburger.VarTerm(presburger.Var(m.Counter(s, g)))
			parts = append(parts, presburger.Compare(x, presburger.Eq, presburger.ConstTerm(int64(k))))
		}
	}
	return presburger.Conj(parts...)
}

// writeReach prints the answers for one violated transition.
func writeReach(w io.Writer, sys *gsst.System, name string, a *reachJSON) {
	// Fairness plays no part (reachSystem); say so where the spec has some.
	anyRun := ""
	if !sys.Fairness.Empty() {
		anyRun = " by any run, fair or not"
	}
	if a.Sizes != nil {
		var sizes []string
		for _, g := range sys.Groups {
			sizes = append(sizes, fmt.Sprintf("%s=%d", g.Name, a.Sizes[g.Name]))
		}
		fmt.Fprintf(w, "    reachable from the initial state of the witness's instance %s%s (decided exactly on its group-counter model):\n", strings.Join(sizes, ", "), anyRun)
	} else {
		fmt.Fprintf(w, "    reachable from the initial state%s (decided exactly on the group-counter model):\n", anyRun)
	}
	fmt.Fprintf(w, "      the enabled configuration: %s\n", describeReach(sys, &a.Enabled))
	fmt.Fprintf(w, "      the disabled configuration: %s\n", describeReach(sys, &a.Disabled))
	asym := describeReach(sys, &a.Asymmetry)
	if r := a.Asymmetry.Reachable; r != nil && !*r {
		asym += ": this asymmetry cannot occur from the initial state"
	}
	fmt.Fprintf(w, "      some configuration where no process can take %s although one with the same total counters lets one: %s\n", name, asym)
}

func describeReach(sys *gsst.System, a *reachAnswer) string {
	switch {
	case a.Reachable == nil:
		return "unknown (" + a.Reason + ")"
	case !*a.Reachable:
		return "no"
	}
	var b strings.Builder
	b.WriteString("yes")
	if a.Steps != nil {
		fmt.Fprintf(&b, ", in %s", countNoun(*a.Steps, "step", "steps"))
	}
	if a.State != nil {
		fmt.Fprintf(&b, ", e.g. %s", formatState(sys, *a.State))
	}
	return b.String()
}

// writeReachSummary says what the reachability answers mean for the
// whole system.
func writeReachSummary(w io.Writer, sys *gsst.System, reachable *bool) {
	switch {
	case reachable == nil:
	case *reachable:
		fmt.Fprintf(w, "  an asymmetry can occur from the initial state, so the total-counter model would not be exact for %s; explore, abstract and nusmv use the group-counter model by default, which is exact for any system\n", sys.Name)
	default:
		fmt.Fprintf(w, "  but no asymmetry can occur from the initial state: in every reachable configuration a transition can be taken exactly when some configuration with the same total counters allows it, so the guards of the total-counter model are exact there; explore, abstract and nusmv still use the group-counter model by default, which is exact for any system\n")
	}
}
