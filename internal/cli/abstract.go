package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
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
	if err := checkOutputFormat(o.output); err != nil {
		return err
	}
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	sys, err := loadSystem(o.file)
	if err != nil {
		return err
	}
	ctx, cancel := commandContext(cmd, o.timeout)
	defer cancel()
	m, cert, err := certifyAndBuild(ctx, sys, modelRequest{
		File: o.file, Timeout: o.timeout, Force: o.force, Stderr: cmd.ErrOrStderr(),
		Refuse:  "use --force to print the existential abstraction anyway",
		Forced:  "printing the existential abstraction (--force), which over-approximates the quotient",
		Recheck: "use --force to print the existential abstraction",
	})
	if err != nil {
		return err
	}
	out := newAbstractJSON(o.file, m, cert, o.force)
	if o.output == "json" {
		return writeJSON(cmd.OutOrStdout(), out)
	}
	writeAbstract(cmd.OutOrStdout(), out)
	return nil
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
