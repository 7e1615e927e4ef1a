package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
)

func init() { register(newAbstractCmd) }

type abstractOpts struct {
	file    string
	force   bool
	output  string
	timeout time.Duration
}

func newAbstractCmd() *cobra.Command {
	o := &abstractOpts{}
	cmd := &cobra.Command{
		Use:   "abstract FILE",
		Short: "Print the counter abstraction of a GSST",
		Long: `Abstract certifies full virtual symmetry of a GSST and prints its counter
abstraction (section 5 of Wei, Gurfinkel and Chechik): one counter per
local state, ranging over 0..n and summing to n; the initial counter
vector; for each local transition u -> v the guard g_r over total
counters under which x_u decreases and x_v increases, with the case of
the construction (a, b, c or projection); and the deadlock condition.

Every guard is checked against its definition with Z3 before it is
printed. An uncertified system is refused (exit 1) unless --force, which
prints its existential abstraction (an over-approximation of the quotient)
with a warning.

` + exitHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runAbstract(cmd, o)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.force, "force", false, "abstract an uncertified system anyway (existential abstraction, not exact)")
	f.StringVarP(&o.output, "output", "o", "text", "output format: text or json")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30s; 0 means no bound")
	return cmd
}

func runAbstract(cmd *cobra.Command, o *abstractOpts) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if o.output != "text" && o.output != "json" {
		return withCode(ExitBadInput, fmt.Errorf("unknown output format %q (want text or json)", o.output))
	}
	if o.timeout < 0 {
		return withCode(ExitBadInput, errors.New("--timeout must not be negative"))
	}
	sys, err := gsst.Load(o.file)
	if err != nil {
		return withCode(ExitBadInput, err)
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	stopped := func(what string) error { return stoppedError(ctx, o.file, what, o.timeout) }

	solver := z3.New()
	cert, err := detect.Certify(ctx, sys, solver)
	if err != nil {
		if ctx.Err() != nil {
			return stopped("certification")
		}
		// A loaded system is well formed, so this is the solver failing.
		return withCode(ExitUnknown, err)
	}
	var opts []counterabs.Option
	if !cert.Certified() && cert.Verdict() != detect.Violated && ctx.Err() != nil {
		// Unknown verdicts because time ran out: say so, not "use --force".
		return stopped("certification")
	}
	if !cert.Certified() {
		why, code := certificationFailure(sys, cert)
		if !o.force {
			return withCode(code, fmt.Errorf("%s: %s; use --force to print the existential abstraction anyway", o.file, why))
		}
		fmt.Fprintf(stderr, "vsym: warning: %s: %s; printing the existential abstraction (--force), which over-approximates the quotient\n", o.file, why)
		opts = append(opts, counterabs.Force())
	}

	m, err := counterabs.Build(ctx, sys, solver, solver, opts...)
	if err != nil {
		var nc *counterabs.NotCertifiedError
		switch {
		case errors.Is(err, counterabs.ErrUnknown) || ctx.Err() != nil:
			if ctx.Err() != nil {
				return stopped("abstraction")
			}
			return withCode(ExitUnknown, fmt.Errorf("%s: unknown: %v", o.file, err))
		case errors.As(err, &nc):
			// detect certified the system, but Build found a verified
			// witness against it: trust the witness, report both.
			return withCode(ExitNo, fmt.Errorf("%s: transition %s breaks full virtual symmetry (%s), although certification passed it: please report this; use --force to print the existential abstraction",
				o.file, nc.Name, describeWitness(sys, nc.Witness)))
		}
		return withCode(ExitUnknown, err)
	}

	out := newAbstractJSON(o.file, m, cert, o.force)
	if o.output == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false) // guards are full of < > &
		if err := enc.Encode(out); err != nil {
			return withCode(ExitUnknown, err)
		}
		return nil
	}
	writeAbstract(stdout, out)
	return nil
}

// certificationFailure explains why cert does not certify sys: the
// violated transitions with their witnesses (exit 1), or else the
// transitions left unknown (exit 3).
func certificationFailure(sys *gsst.System, cert *detect.Report) (string, int) {
	var bad, unknown []string
	for _, t := range cert.Transitions {
		switch t.Verdict {
		case detect.Violated:
			bad = append(bad, fmt.Sprintf("transition %s breaks full virtual symmetry (%s)", sys.TransitionName(t.Transition), describeWitness(sys, t.Witness)))
		case detect.Unknown:
			msg := sys.TransitionName(t.Transition)
			if t.Reason != "" {
				msg += " (" + t.Reason + ")"
			}
			unknown = append(unknown, msg)
		}
	}
	if len(bad) > 0 {
		return "not fully virtually symmetric: " + strings.Join(bad, "; "), ExitNo
	}
	return "full virtual symmetry could not be decided for transition " + strings.Join(unknown, ", "), ExitUnknown
}

// describeWitness says in words what a witness shows.
func describeWitness(sys *gsst.System, w *detect.Witness) string {
	if w == nil {
		return "no witness"
	}
	return fmt.Sprintf("group %s can take it in %s, but no process can in %s, which has the same total counters",
		sys.Groups[w.Group].Name, describeConfig(sys, w.Enabled), describeConfig(sys, w.Disabled))
}

// describeConfig prints a configuration as {reader: T=1; writer: N=1, T=1}.
func describeConfig(sys *gsst.System, conf [][]int) string {
	var groups []string
	for g, row := range conf {
		var parts []string
		for s, k := range row {
			if k != 0 {
				parts = append(parts, fmt.Sprintf("%s=%d", sys.States[s], k))
			}
		}
		if len(parts) == 0 {
			parts = append(parts, "empty")
		}
		groups = append(groups, sys.Groups[g].Name+": "+strings.Join(parts, ", "))
	}
	return "{" + strings.Join(groups, "; ") + "}"
}

// abstractJSON is the stable output of "vsym abstract --output json",
// documented in docs/counter-abstraction.md.
type abstractJSON struct {
	System      string           `json:"system"`
	File        string           `json:"file"`
	Processes   int              `json:"processes"`
	Certified   bool             `json:"certified"`
	Forced      bool             `json:"forced"`
	Counters    []counterJSON    `json:"counters"`
	Invariant   string           `json:"invariant"`
	Init        []int            `json:"init"`
	Transitions []transitionJSON `json:"transitions"`
	Deadlock    string           `json:"deadlock"`
}

type counterJSON struct {
	State string `json:"state"`
	Name  string `json:"name"`
	Min   int    `json:"min"`
	Max   int    `json:"max"`
}

type transitionJSON struct {
	From    string `json:"from"`
	To      string `json:"to"`
	Guard   string `json:"guard"`
	Case    string `json:"case"`
	Verdict string `json:"verdict"`
}

func newAbstractJSON(file string, m *counterabs.Model, cert *detect.Report, forced bool) *abstractJSON {
	sys := m.System
	name := sys.VarName
	out := &abstractJSON{
		// Empty arrays, never null: the schema promises arrays, and a
		// system may have no transitions.
		Counters:    []counterJSON{},
		Transitions: []transitionJSON{},
		System:      sys.Name,
		File:        file,
		Processes:   m.N,
		Certified:   m.Certified,
		Forced:      forced,
		Init:        m.Init,
		Deadlock:    presburger.Format(m.Deadlock(), name),
	}
	var sum presburger.Term
	for s, st := range sys.States {
		out.Counters = append(out.Counters, counterJSON{State: st, Name: name(sys.TotalVar(s)), Min: 0, Max: m.N})
		sum = sum.Add(presburger.VarTerm(sys.TotalVar(s)))
	}
	out.Invariant = presburger.Format(presburger.Compare(sum, presburger.Eq, presburger.ConstTerm(int64(m.N))), name)
	verdict := map[*gsst.Transition]string{}
	for _, t := range cert.Transitions {
		verdict[t.Transition] = t.Verdict.String()
	}
	for _, t := range m.Transitions {
		out.Transitions = append(out.Transitions, transitionJSON{
			From:    sys.States[t.From],
			To:      sys.States[t.To],
			Guard:   presburger.Format(t.Guard, name),
			Case:    t.Case.String(),
			Verdict: verdict[t.Local],
		})
	}
	return out
}

func writeAbstract(w io.Writer, a *abstractJSON) {
	status := "certified fully virtually symmetric: the model is isomorphic to the symmetry quotient"
	if !a.Certified {
		status = "NOT certified (--force): existential abstraction, over-approximates the quotient"
	}
	fmt.Fprintf(w, "system %s: %s, %s\n", a.System, countNoun(a.Processes, "process", "processes"), countNoun(len(a.Counters), "local state", "local states"))
	fmt.Fprintf(w, "%s\n\n", status)
	fmt.Fprintln(w, "counters:")
	for _, c := range a.Counters {
		fmt.Fprintf(w, "  %s in %d..%d\n", c.Name, c.Min, c.Max)
	}
	fmt.Fprintf(w, "invariant: %s\n", a.Invariant)
	var init []string
	for i, c := range a.Counters {
		init = append(init, fmt.Sprintf("%s = %d", c.Name, a.Init[i]))
	}
	fmt.Fprintf(w, "init: %s\n\n", strings.Join(init, ", "))
	fmt.Fprintln(w, "transitions (when the guard holds, the source counter decreases by 1 and the target counter increases by 1):")
	for _, t := range a.Transitions {
		note := "case " + t.Case
		if t.Verdict == detect.Violated.String() {
			note += ", violates symmetry"
		}
		fmt.Fprintf(w, "  %s -> %s: %s   [%s]\n", t.From, t.To, t.Guard, note)
	}
	fmt.Fprintf(w, "\ndeadlock (no transition enabled): %s\n", a.Deadlock)
}
