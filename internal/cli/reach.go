package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/explore"
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
//     system lacks. When it is "no" for every transition, the
//     total-counter model is exact from the initial state even though
//     certification failed.
//
// Each is EF of a state formula of the group-counter model, decided by
// the engine --engine auto would pick.

// reachAnswer is the answer to one reachability question.
type reachAnswer struct {
	Reachable *bool          `json:"reachable"`        // null: undecided, see reason
	Steps     *int           `json:"steps,omitempty"`  // length of a shortest path from the initial state
	State     *explore.State `json:"state,omitempty"`  // asymmetry: the configuration that path reaches
	Reason    string         `json:"reason,omitempty"` // why it is undecided
}

// reachJSON holds the three answers for one violated transition.
type reachJSON struct {
	Enabled   reachAnswer `json:"enabled"`
	Disabled  reachAnswer `json:"disabled"`
	Asymmetry reachAnswer `json:"asymmetry"`
}

// reachResult is the reachability of every violated transition of one
// system, by index in System.Transitions.
type reachResult struct {
	Engine      string
	Transitions map[int]*reachJSON
}

// asymmetryReachable summarises r for the whole system: true when some
// violated transition's asymmetry is reachable, false when none is and
// every transition was decided, nil otherwise.
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
	// The system's own properties play no part; the questions become the
	// model's properties.
	sys := *cert.System
	sys.Properties = nil
	out := &reachResult{Transitions: map[int]*reachJSON{}}
	var violated []int
	for i, t := range cert.Transitions {
		if t.Verdict == detect.Violated {
			violated = append(violated, i)
			out.Transitions[i] = &reachJSON{}
		}
	}
	if len(violated) == 0 {
		return out
	}
	undecided := func(a *reachAnswer, why string) { a.Reachable, a.Reason = nil, why }
	group, err := counterabs.BuildGroup(&sys)
	if err != nil {
		for _, a := range out.Transitions {
			for _, x := range []*reachAnswer{&a.Enabled, &a.Disabled, &a.Asymmetry} {
				undecided(x, "the group-counter model could not be built: "+err.Error())
			}
		}
		return out
	}
	// Asym_r needs g_r, the guard of the total-counter model built
	// without certification.
	total, totalErr := counterabs.Build(ctx, &sys, solver, solver, counterabs.Force(), counterabs.Simplify(false))
	type question struct {
		answer *reachAnswer
		state  bool // report the reached configuration
	}
	var questions []question
	var props []counterabs.Property
	ask := func(a *reachAnswer, f presburger.Formula, state bool) {
		props = append(props, counterabs.Property{
			Name:    fmt.Sprintf("q%d", len(props)),
			Formula: ctl.Unary{Op: ctl.EF, X: ctl.Atom{P: f}},
		})
		questions = append(questions, question{a, state})
	}
	for _, i := range violated {
		a, w := out.Transitions[i], cert.Transitions[i].Witness
		ask(&a.Enabled, configuration(group, w.Enabled), false)
		ask(&a.Disabled, configuration(group, w.Disabled), false)
		if totalErr != nil {
			undecided(&a.Asymmetry, "the guards of the total-counter model could not be built: "+withHint(totalErr))
			continue
		}
		asym, err := counterabs.Asymmetry(group, total, i)
		if err != nil {
			undecided(&a.Asymmetry, err.Error())
			continue
		}
		ask(&a.Asymmetry, asym, true)
	}
	m := *group
	m.Properties = props
	engine, err := chooseEngine(engineName, &m, symbolic.DefaultBDD())
	if err != nil {
		for _, q := range questions {
			undecided(q.answer, err.Error())
		}
		return out
	}
	out.Engine = engine.Name()
	rep, err := engine.Check(ctx, &m, explore.MaxMemory(maxMemory), explore.Traces(true),
		explore.CountStates(false), explore.CountConcrete(false))
	if err != nil {
		why := withHint(err)
		if ctx.Err() != nil {
			why = "stopped: " + ctx.Err().Error()
			if timeout > 0 {
				why = fmt.Sprintf("stopped: timeout after %v; raise --timeout", timeout)
			}
		}
		for _, q := range questions {
			undecided(q.answer, why)
		}
		return out
	}
	for k, q := range questions {
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
	return out
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
	fmt.Fprintln(w, "    reachable from the initial state (decided exactly on the group-counter model):")
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
		fmt.Fprintf(w, "  but no asymmetry can occur from the initial state: in every reachable configuration a transition can be taken exactly when some configuration with the same total counters allows it, so the total-counter model is exact from the initial state; explore, abstract and nusmv still use the group-counter model by default, which is exact for any system\n")
	}
}
