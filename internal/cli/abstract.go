package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/progress"
)

func init() { register("abstract", newAbstractCmd) }

type abstractOpts struct {
	sizes   string
	params  string // --params, for a spec with parameters
	file    string
	level   string
	force   bool
	output  string
	out     string
	timeout time.Duration
}

func newAbstractCmd() *cobra.Command {
	o := &abstractOpts{}
	cmd := &cobra.Command{
		Use:   "abstract FILE",
		Short: "Print the counter model of a GSST",
		Long: `Abstract prints the counter model of a GSST that explore and nusmv work
on, chosen as they choose it (--model, see "vsym explore --help").

The total-counter model is the counter abstraction of section 5 of Wei,
Gurfinkel and Chechik: one counter per local state, ranging over 0..n and
summing to n; the initial counter vector; for each local transition
u -> v the guard g_r over total counters under which x_u decreases and
x_v increases, with the case of the construction (a, b, c or
projection); and the deadlock condition. Every guard is checked against
its definition with Z3 before it is printed. --force prints the
existential abstraction of an uncertified system (an over-approximation
of the quotient) with a warning.

The group-counter model has one counter per group and local state, each
group's counters summing to its size, and one transition per local
transition and group that may take it, guarded by that group's guard.

` + exitHelp,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runAbstract(cmd, o)
		},
	}
	f := cmd.Flags()
	addSizesFlag(f, &o.sizes, &o.params)
	f.StringVar(&o.level, "model", "auto", levelFlag)
	f.BoolVar(&o.force, "force", false, "print the total-counter model of an uncertified system anyway (existential abstraction, not exact)")
	addOutputFlag(f, &o.output, textJSONFormats)
	addOutFlag(f, &o.out, "the model")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30s; 0 means no bound")
	return cmd
}

func runAbstract(cmd *cobra.Command, o *abstractOpts) error {
	prog := startProgress(cmd)
	defer prog.stop()
	if err := checkOutputFormat(o.output); err != nil {
		return err
	}
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	prog.phase(progress.Parse)
	file := displayName(o.file)
	// --timeout bounds the whole run, loading included.
	ctx, cancel := analysis.Limits{Timeout: o.timeout}.Context(cmd.Context())
	defer cancel()
	sys, err := analysis.Within(ctx, file, "loading", analysis.Limits{Timeout: o.timeout}, func() (*gsst.System, error) {
		return loadInstance(cmd, o.file, o.sizes, o.params, "abstract")
	})
	if err != nil {
		return err
	}
	req, err := modelRequest(cmd, file, o.level, o.force, o.timeout)
	if err != nil {
		return err
	}
	req.Progress = prog.report
	m, err := analysis.BuildModel(ctx, sys, req)
	prog.stop()
	if err != nil {
		return err
	}
	describeOutput(cmd, "the "+m.Level.String()+"-counter model of "+sys.Name)
	out := newAbstractJSON(file, m, o.force)
	if o.output == "json" {
		return writeJSON(cmd.OutOrStdout(), out)
	}
	writeAbstract(cmd.OutOrStdout(), out)
	return nil
}

// abstractJSON is the stable output of "vsym abstract --output json",
// documented in docs/counter-abstraction.md.
type abstractJSON struct {
	System    string           `json:"system"`
	File      string           `json:"file"`
	Model     counterabs.Level `json:"model"`
	Reason    string           `json:"reason"`
	Processes int              `json:"processes"`
	States    int              `json:"states"`
	Certified bool             `json:"certified"`
	Exact     bool             `json:"exact"`
	Forced    bool             `json:"forced"`
	Counters  []counterJSON    `json:"counters"`
	Invariant string           `json:"invariant"`
	Init      []int            `json:"init"`
	// Initials, when the system has several initial configurations,
	// holds every initial valuation of the counters and shared
	// variables, Init first.
	Initials    [][]int          `json:"initials,omitempty"`
	Transitions []transitionJSON `json:"transitions"`
	Deadlock    string           `json:"deadlock"`
	// MayDeadlock, forced models only: where some configuration with
	// these totals may be deadlocked (the model stutters there too).
	MayDeadlock string `json:"may_deadlock,omitempty"`
	// Fairness lists the fairness constraints the model carries.
	Fairness []string `json:"fairness,omitempty"`
	// Shared lists the shared variables, model variables after the
	// counters (their initial values follow the counters' in Init).
	Shared []abstractSharedJSON `json:"shared,omitempty"`
}

type abstractSharedJSON struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Init string `json:"init"`
}

// moveJSON is a move between two counters, by their names.
type moveJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type counterJSON struct {
	State string `json:"state"`
	Group string `json:"group,omitempty"`
	Name  string `json:"name"`
	Min   int    `json:"min"`
	Max   int    `json:"max"`
}

type transitionJSON struct {
	From    string `json:"from,omitempty"` // empty for a step that moves no process
	To      string `json:"to,omitempty"`
	Group   string `json:"group,omitempty"`
	Guard   string `json:"guard"`
	Case    string `json:"case"`
	Verdict string `json:"verdict,omitempty"`
	// Beyond the paper: the rendezvous the transition moves by (its
	// index in the spec; From and To are its first part's), its other
	// parts, the transfers of a broadcast, and the assignments of an
	// update ("x := e").
	Rendezvous *int `json:"rendezvous,omitempty"`
	// Environment is the index of the environment step the transition
	// takes (a step that moves no process: From and To are empty).
	Environment *int       `json:"environment,omitempty"`
	Also        []moveJSON `json:"also,omitempty"`
	Transfers   []moveJSON `json:"transfers,omitempty"`
	Assign      []string   `json:"assign,omitempty"`
	name        string     // for the text output
}

func newAbstractJSON(file string, m *analysis.Model, forced bool) *abstractJSON {
	sys := m.System
	name := m.VarName
	out := &abstractJSON{
		// Empty arrays, never null: the schema promises arrays, and a
		// system may have no transitions.
		Counters:    []counterJSON{},
		Transitions: []transitionJSON{},
		System:      sys.Name,
		File:        file,
		Model:       m.Level,
		Reason:      m.Reason,
		Processes:   m.N,
		States:      len(sys.States),
		Certified:   m.Cert != nil && m.Cert.Certified(),
		Exact:       m.Exact,
		Forced:      forced,
		Init:        m.Init,
		Initials:    m.Initials,
		Deadlock:    m.FormatFormula(m.Deadlock()),
	}
	if m.MayDeadlock != nil {
		out.MayDeadlock = m.FormatFormula(m.MayDeadlock)
	}
	for _, j := range m.Justice {
		text := j.Text
		if !j.Weak {
			text = "justice " + m.FormatFormula(j.State)
		}
		out.Fairness = append(out.Fairness, text)
	}
	var inv []presburger.Formula
	for _, p := range m.Pools {
		var sum presburger.Term
		for _, c := range p.Counters {
			cj := counterJSON{State: sys.States[m.Counters[c].State], Name: m.CounterName(c), Min: 0, Max: p.Sum}
			if g := m.Counters[c].Group; g >= 0 {
				cj.Group = sys.Groups[g].Name
			}
			out.Counters = append(out.Counters, cj)
			sum = sum.Add(presburger.VarTerm(presburger.Var(c)))
		}
		inv = append(inv, presburger.Compare(sum, presburger.Eq, presburger.ConstTerm(int64(p.Sum))))
	}
	out.Invariant = m.FormatFormula(presburger.Conj(inv...))
	verdict := map[*gsst.Transition]string{}
	if m.Cert != nil {
		for _, t := range m.Cert.Transitions {
			verdict[t.Transition] = t.Verdict.String()
		}
	}
	for j := range m.Shared {
		v := &m.Shared[j]
		out.Shared = append(out.Shared, abstractSharedJSON{Name: v.Name, Type: v.TypeText(), Init: v.ValueName(m.Init[m.SharedVar(j)])})
	}
	moves := func(ms []counterabs.Move) []moveJSON {
		var out []moveJSON
		for _, mv := range ms {
			out = append(out, moveJSON{From: m.CounterName(mv.From), To: m.CounterName(mv.To)})
		}
		return out
	}
	for i := range m.Transitions {
		t := &m.Transitions[i]
		tj := transitionJSON{
			Guard:     m.FormatFormula(t.Guard),
			Case:      t.Case.String(),
			Also:      moves(t.Also),
			Transfers: moves(t.Transfers),
			name:      m.TransitionName(t),
		}
		if t.From >= 0 {
			tj.From, tj.To = sys.States[m.Counters[t.From].State], sys.States[m.Counters[t.To].State]
		}
		switch lt := m.Local(t); {
		case lt != nil:
			tj.Verdict = verdict[lt]
		case t.IsEnvironment():
			e := t.Environment
			tj.Environment = &e
		default:
			r := t.Rendezvous
			tj.Rendezvous = &r
		}
		if t.Group >= 0 {
			tj.Group = sys.Groups[t.Group].Name
		}
		for _, a := range t.Assign {
			val := a.Value.Format(name)
			if v := &m.Shared[a.Var-len(m.Counters)]; a.Value.IsConst() {
				val = v.ValueName(int(a.Value.Const))
			}
			tj.Assign = append(tj.Assign, name(presburger.Var(a.Var))+" := "+val)
		}
		out.Transitions = append(out.Transitions, tj)
	}
	return out
}

func writeAbstract(w io.Writer, a *abstractJSON) {
	fmt.Fprintf(w, "system %s: %s, %s, %s-counter model\n", a.System, countNoun(a.Processes, "process", "processes"),
		countNoun(a.States, "local state", "local states"), a.Model)
	status := a.Reason
	if a.Model == counterabs.TotalLevel && a.Certified {
		status = "certified fully virtually symmetric: the model is isomorphic to the symmetry quotient"
	} else if !a.Exact {
		status = "NOT certified (--force): existential abstraction, over-approximates the quotient"
	}
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
	for _, v := range a.Shared {
		init = append(init, v.Name+" = "+v.Init)
	}
	if len(a.Initials) > 1 {
		fmt.Fprintf(w, "init: one of %d initial states, %s\n", len(a.Initials), strings.Join(init, ", "))
		writeInitials(w, a)
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "init: %s\n\n", strings.Join(init, ", "))
	}
	if len(a.Shared) > 0 {
		fmt.Fprintln(w, "shared variables:")
		for _, v := range a.Shared {
			fmt.Fprintf(w, "  %s: %s\n", v.Name, v.Type)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "transitions (when the guard holds, the source counter decreases by 1 and the target counter increases by 1):")
	for _, t := range a.Transitions {
		note := "case " + t.Case
		if t.Verdict == detect.Violated.String() {
			note += ", violates symmetry"
		}
		name := t.name // the step's name: "U -> V [g]", "r (U -> V)", a rendezvous's parts, an environment step's name
		fmt.Fprintf(w, "  %s: %s   [%s]\n", name, t.Guard, note)
		for _, mv := range t.Transfers {
			fmt.Fprintf(w, "    and every other process counted by %s moves to %s\n", mv.From, mv.To)
		}
		if len(t.Assign) > 0 {
			fmt.Fprintf(w, "    and %s\n", strings.Join(t.Assign, "; "))
		}
	}
	fmt.Fprintf(w, "\ndeadlock (no transition enabled): %s\n", a.Deadlock)
	if a.MayDeadlock != "" {
		fmt.Fprintf(w, "may be deadlocked (some configuration with these totals; the forced model stutters there too): %s\n", a.MayDeadlock)
	}
	for _, f := range a.Fairness {
		fmt.Fprintf(w, "fairness: %s\n", f)
	}
}

// maxInitialsShown bounds the initial states abstract lists in text.
const maxInitialsShown = 8

// writeInitials lists the initial states after the first, up to
// maxInitialsShown of them in all.
func writeInitials(w io.Writer, a *abstractJSON) {
	nc := len(a.Counters)
	for k, v := range a.Initials[1:] {
		if k+1 >= maxInitialsShown {
			fmt.Fprintf(w, "  ... and %d more (--format json lists them all)\n", len(a.Initials)-maxInitialsShown)
			return
		}
		var parts []string
		for i, c := range a.Counters {
			parts = append(parts, fmt.Sprintf("%s = %d", c.Name, v[i]))
		}
		for j, sv := range a.Shared {
			// Only integer variables start in a range; the others keep
			// their one initial value.
			val := sv.Init
			if sv.Type != "bool" && !strings.HasPrefix(sv.Type, "[") {
				val = strconv.Itoa(v[nc+j])
			}
			parts = append(parts, sv.Name+" = "+val)
		}
		fmt.Fprintf(w, "  or %s\n", strings.Join(parts, ", "))
	}
}
