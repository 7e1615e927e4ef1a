package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/progress"
	"github.com/vsym/vsym/sarif"
)

func init() { register("check", newCheckCmd) }

type checkOpts struct {
	files        []string
	output       string
	out          string
	timeout      time.Duration // --timeout: the whole run
	solverTO     time.Duration // --solver-timeout: each solver call
	solverWork   int64         // --solver-work: each solver call
	reachability bool          // --reachability
	maxMemory    string        // --max-memory, for the reachability questions
	allSizes     bool
}

func newCheckCmd() *cobra.Command {
	o := &checkOpts{}
	cmd := &cobra.Command{
		Use:   "check FILE...",
		Short: "Certify full virtual symmetry of GSSTs",
		Long: `Check decides, for each GSST file, whether the system is fully virtually
symmetric (Theorem 6 of Wei, Gurfinkel and Chechik): for every local
transition, the set of configurations in which some process can take it
must be closed under permutations of the processes, i.e. depend on total
counters only. Each transition is reported as

  symmetric   one guard over total counters for all groups: nothing to check
  certified   Z3 proved the domain closed under permutations
  violated    two configurations with equal total counters, one in which
              some process can take the transition and one in which none
              can (printed as tables)
  unknown     the solver gave no answer (timeout), with its reason

followed by the verdict for the whole system. A spec whose group sizes
are ranges (reader: 1..) is certified for every size in the ranges at
once, and a violation names the sizes of an instance where it occurs;
--all-sizes asks the same of any spec, every group's size read as 1..
A violation ranges over all configurations, reachable or not, so each
violated transition also says (decided exactly on the group-counter
model, of the witness's sizes) whether its two configurations are
reachable from the initial state, and whether any configuration where
the transition is asymmetric is; when none is, the asymmetry cannot
occur from the initial state (docs/symmetry.md). Reachable means by any
run: the spec's fairness constraints play no part. docs/certification.md
describes the query and the JSON output (one object for one file, an
array of objects for several; FILE - is standard input). With several files the exit code is the
most severe one: 2 (some file is bad) over 1 (some system is not fully
virtually symmetric) over 3 (some answer unknown) over 0. --timeout
bounds the whole run: when it runs out, whatever file is being checked,
the command stops with no report (under --output json the error object)
and exit 3; --solver-work bounds the work of each solver call (in units
of Z3's resource limit, alike on every machine) and --solver-timeout,
when given, its time: a call that runs out leaves its transition
unknown.

` + exitHelp,
		Args: someFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.files = args
			return runCheck(cmd, o)
		},
	}
	f := cmd.Flags()
	addOutputFlag(f, &o.output, sarifFormats)
	addOutFlag(f, &o.out, "the report")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30s; 0 means no bound")
	f.DurationVar(&o.solverTO, "solver-timeout", 0, "time bound on each solver call, e.g. 30s (0: none); a call that runs out makes its transition unknown; also bounds the reachability questions of each file")
	f.Int64Var(&o.solverWork, "solver-work", analysis.QueryWork, "work bound on each solver call, in units of Z3's resource limit (the same on every machine); a call that runs out makes its transition unknown")
	f.BoolVar(&o.reachability, "reachability", true, "after a violation, decide on the group-counter model whether the witness configurations and the asymmetry are reachable from the initial state (--reachability=false skips it)")
	f.StringVar(&o.maxMemory, "max-memory", defaultMaxMemory, "memory bound of the reachability questions (e.g. 512MiB; 0: none); answers beyond it are unknown")
	f.BoolVar(&o.allSizes, "all-sizes", false, "certify for every group size (each group's size read as 1..), whatever sizes the spec gives")
	return cmd
}

// checkResult is the outcome for one file: a report, or the error that
// kept it from being checked.
type checkResult struct {
	file  string
	sys   *gsst.System
	rep   *detect.Report
	reach *analysis.Reachability // nil when not decided (no violation, or --reachability=false)
	err   error
}

func runCheck(cmd *cobra.Command, o *checkOpts) error {
	prog := startProgress(cmd)
	defer prog.stop()
	stdout := cmd.OutOrStdout()
	if err := checkOutputFormatSARIF(o.output); err != nil {
		return err
	}
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	if err := checkFlagTimeout("--solver-timeout", o.solverTO); err != nil {
		return err
	}
	if o.solverWork <= 0 {
		return errkind.Errorf(errkind.Input, "--solver-work must be positive, not %d", o.solverWork)
	}
	mem, err := parseSize(o.maxMemory)
	if err != nil {
		return errkind.Errorf(errkind.Input, "--max-memory: %w", err)
	}
	// --timeout bounds the whole run, --solver-timeout each solver call
	// and the reachability questions of each file (cut by what remains
	// of the run: their contexts derive from ctx).
	ctx, cancel := commandContext(cmd, o.timeout)
	defer cancel()
	limits := analysis.Limits{Timeout: o.timeout, MaxMemory: mem}

	describeOutput(cmd, "the certification report")
	var results []checkResult
	for _, arg := range o.files {
		r := checkResult{file: displayName(arg)}
		var opts []gsst.Option
		if o.allSizes {
			opts = append(opts, gsst.AllSizes())
		}
		prog.phase(progress.Parse)
		r.sys, r.err = analysis.Within(ctx, r.file, "loading", limits, func() (*gsst.System, error) { return loadSpec(cmd, arg, opts...) })
		if ctx.Err() != nil {
			return checkStopped(cmd, o, analysis.Stopped(ctx, r.file, "loading", o.timeout), r.file)
		}
		var c *analysis.Certification
		if r.err == nil {
			c, r.err = analysis.Certify(ctx, r.sys, analysis.CertifyRequest{File: r.file, SolverTimeout: o.solverTO, Work: o.solverWork,
				Reachability: o.reachability, Engine: "auto", Limits: limits, Progress: prog.report})
			if ctx.Err() != nil {
				// The run's bound, not a call's: no report at all.
				// Certify says at which stage it stopped.
				if !errors.Is(r.err, errkind.Unknown) {
					r.err = analysis.Stopped(ctx, r.file, "certification", o.timeout)
				}
				return checkStopped(cmd, o, r.err, r.file)
			}
		}
		if r.err != nil {
			// Parse errors carry file:line:col; others (a missing file)
			// get the usual prefix.
			report(cmd, r.err)
		} else {
			r.rep, r.reach = c.Report, c.Reach
			addTimeoutHints(r.rep, o.solverTO)
			answer(cmd, c.Verdict())
		}
		results = append(results, r)
	}
	prog.stop()

	if o.output == "sarif" {
		if err := writeCheckSARIF(cmd, results); err != nil {
			return err
		}
	} else if o.output == "json" {
		var doc any
		if len(results) == 1 {
			doc = checkResultJSON(cmd, results[0])
		} else {
			all := make([]any, len(results))
			for i, r := range results {
				all[i] = checkResultJSON(cmd, r)
			}
			doc = all
		}
		if err := writeJSON(stdout, doc); err != nil {
			return err
		}
	} else {
		for i, r := range results {
			if r.rep == nil {
				continue
			}
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			writeCheck(stdout, r)
		}
	}
	return nil
}

// checkStopped returns err, the run stopped by --timeout while file was
// checked; with --output sarif it first writes a log with that one
// undecided result at file, so that a CI job still has results to
// upload (as explore does).
func checkStopped(cmd *cobra.Command, o *checkOpts, err error, file string) error {
	if o.output != "sarif" {
		return err
	}
	run := newSARIFRun(cmd, "vsym/check", ruleInvalidSpec, ruleViolatedTransition, ruleUndecidedTransition)
	run.Add(ruleUndecidedTransition.ID, sarif.Text{Text: withHint(err)}, file, 0, 0)
	if werr := writeSARIF(cmd, run); werr != nil {
		return werr
	}
	return err
}

// addTimeoutHints adds to the reason of each transition (rendezvous,
// environment step) left unknown
// because a solver call ran out of time the flag that gives it more
// (the run's own bound, --timeout, stops the command instead).
func addTimeoutHints(rep *detect.Report, timeout time.Duration) {
	for _, results := range [][]detect.TransitionResult{rep.Transitions, rep.Rendezvous, rep.Environment} {
		addTimeoutHintsTo(results, timeout)
	}
}

// addTimeoutHintsTo adds the hint of addTimeoutHints to results.
func addTimeoutHintsTo(results []detect.TransitionResult, timeout time.Duration) {
	for i := range results {
		t := &results[i]
		if t.Verdict == detect.Unknown && timeout > 0 && t.Stopped {
			t.Reason += fmt.Sprintf("; raise %s (now %v per solver call)", limitFlags[analysis.SolverTimeout], timeout)
		}
	}
}

// severerExit orders exit codes by severity: bad input, then a negative
// answer (definite, even if other files are undecided), then unknown.
func severerExit(a, b int) int {
	rank := map[int]int{ExitOK: 0, ExitUnknown: 1, ExitNo: 2, ExitBadInput: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// writeCheck prints a report as text: one line per transition (a
// witness as two tables), then the system's verdict.
func writeCheck(w io.Writer, r checkResult) {
	file, rep, reach := r.file, r.rep, r.reach
	sys := rep.System
	// everySize qualifies the verdicts of a parametric system.
	everySize := ""
	steps := countNoun(len(sys.Transitions), "transition", "transitions") + rendezvousCount(sys)
	if sys.Parametric() {
		checked := "every size is checked"
		everySize = " for every size"
		if freeParams(sys) {
			everySize, checked = " for every parameter value", "every parameter value satisfying the assumption is checked"
		}
		groups := groupSizes(sys)
		if len(sys.Groups) <= maxGroupsListed {
			groups = countNoun(len(sys.Groups), "group", "groups") + " of sizes " + groups
		}
		fmt.Fprintf(w, "%s: %s: %s, %s; %s\n", file, sys.Name, groups, steps, checked)
	} else {
		fmt.Fprintf(w, "%s: %s: %s in %s, %s\n", file, sys.Name,
			countNoun(sys.N(), "process", "processes"), countNoun(len(sys.Groups), "group", "groups"), steps)
	}
	counts := map[detect.Verdict]int{}
	for i, t := range rep.Results() {
		counts[t.Verdict]++
		name := resultName(sys, &t)
		switch {
		case t.Verdict == detect.Violated && t.Witness.Step != nil:
			writeStepWitness(w, sys, name, t.Witness)
			if reach != nil {
				writeReach(w, sys, name, &t, newReachJSON(reach.Transitions[i]))
			}
		case t.Verdict == detect.Violated:
			fmt.Fprintf(w, "  %s: violated%s: the two configurations below have equal total counters%s;\n", name, witnessAt(sys, t.Witness), guardShared(sys, &t))
			fmt.Fprintf(w, "    in the first a process of group %s can take %s, in the second no process can\n",
				sys.Groups[t.Witness.Group].Name, name)
			writeWitnessTables(w, sys, t.Witness)
			if reach != nil {
				writeReach(w, sys, name, &t, newReachJSON(reach.Transitions[i]))
			}
		case t.Verdict == detect.Unknown:
			fmt.Fprintf(w, "  %s: unknown: %s\n", name, t.Reason)
		default:
			fmt.Fprintf(w, "  %s: %s\n", name, t.Verdict)
		}
	}
	what := rep.Noun(2)
	switch rep.Verdict() {
	case detect.Symmetric:
		fmt.Fprintf(w, "%s: fully symmetric%s: every transition treats all processes alike\n", sys.Name, everySize)
	case detect.Certified:
		fmt.Fprintf(w, "%s: certified fully virtually symmetric%s (%s by the solver, %d symmetric)\n",
			sys.Name, everySize, countNoun(counts[detect.Certified], certifiedNoun(sys, 1), certifiedNoun(sys, 2)), counts[detect.Symmetric])
	case detect.Violated:
		fmt.Fprintf(w, "%s: not fully virtually symmetric%s (%d of %d %s violated)\n",
			sys.Name, everySize, counts[detect.Violated], len(rep.Results()), what)
		writeReachSummary(w, sys, rep, reach.AsymmetryReachable(rep))
	default:
		fmt.Fprintf(w, "%s: unknown: %d of %d %s undecided\n",
			sys.Name, counts[detect.Unknown], len(rep.Results()), what)
	}
}

// writeWitnessTables prints the two configurations of a witness as tables with
// a row per group, a column per state and a row of total counters (equal
// in both tables), aligned with each other.
func writeWitnessTables(w io.Writer, sys *gsst.System, wit *detect.Witness) {
	table := func(title string, conf [][]int) [][]string {
		rows := [][]string{append([]string{title}, sys.States...)}
		totals := make([]int, len(sys.States))
		for g, row := range conf {
			cells := []string{sys.Groups[g].Name}
			for s, k := range row {
				cells = append(cells, fmt.Sprint(k))
				totals[s] += k
			}
			rows = append(rows, cells)
		}
		cells := []string{"total"}
		for _, k := range totals {
			cells = append(cells, fmt.Sprint(k))
		}
		return append(rows, cells)
	}
	tables := [][][]string{table("enabled", wit.Enabled), table("disabled", wit.Disabled)}
	widths := make([]int, len(sys.States)+1)
	for _, t := range tables {
		for _, r := range t {
			for i, c := range r {
				widths[i] = max(widths[i], len(c))
			}
		}
	}
	for _, t := range tables {
		for _, r := range t {
			var b strings.Builder
			b.WriteString("      ")
			for i, c := range r {
				if i == 0 {
					b.WriteString(c + strings.Repeat(" ", widths[0]-len(c)))
					continue
				}
				b.WriteString("  " + strings.Repeat(" ", widths[i]-len(c)) + c)
			}
			fmt.Fprintln(w, b.String())
		}
	}
}

// maxGroupsListed is the most groups a header lists one by one.
const maxGroupsListed = 8

// groupSizes writes the sizes of a parametric system's groups: each
// group's, "reader 1.., writer 2", up to maxGroupsListed groups, else how
// many groups have each size, "1000 groups, each 1.." or "1000 groups:
// 999 of size 1.. and 1 of size 2..5" (sizes in the order they first
// occur).
func groupSizes(sys *gsst.System) string {
	if len(sys.Groups) <= maxGroupsListed {
		parts := make([]string, len(sys.Groups))
		for g := range sys.Groups {
			parts[g] = sys.Groups[g].Name + " " + sizeText(&sys.Groups[g])
		}
		return strings.Join(parts, ", ")
	}
	var sizes []string
	count := map[string]int{}
	for g := range sys.Groups {
		size := sizeText(&sys.Groups[g])
		if count[size] == 0 {
			sizes = append(sizes, size)
		}
		count[size]++
	}
	if len(sizes) == 1 {
		return fmt.Sprintf("%d groups, each %s", len(sys.Groups), sizes[0])
	}
	parts := make([]string, len(sizes))
	for i, size := range sizes {
		parts[i] = fmt.Sprintf("%d of size %s", count[size], size)
	}
	last := len(parts) - 1
	return fmt.Sprintf("%d groups: %s and %s", len(sys.Groups), strings.Join(parts[:last], ", "), parts[last])
}

func countNoun(k int, one, many string) string {
	if k == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", k, many)
}

// checkJSON is the stable output of "vsym check --output json", one per
// file, documented in docs/certification.md.
type checkJSON struct {
	File      string `json:"file"`
	System    string `json:"system,omitempty"`
	Verdict   string `json:"verdict"` // symmetric, certified, violated, unknown
	Certified bool   `json:"certified"`
	// AllSizes says that the verdict is for every size in the ranges of
	// Sizes (group name -> "3", "1..", "2..5").
	AllSizes    bool                  `json:"all_sizes"`
	Sizes       map[string]string     `json:"sizes,omitempty"`
	Transitions []checkTransitionJSON `json:"transitions"`
	// Rendezvous: one result per rendezvous, when the system has any.
	Rendezvous []checkRendezvousJSON `json:"rendezvous,omitempty"`
	// Environment: one result per environment step, when the system
	// has any.
	Environment []checkEnvironmentJSON `json:"environment,omitempty"`
	// AsymmetryReachable: whether some violated transition's (or
	// rendezvous's) asymmetry can occur from the initial state (false
	// also for certified systems); null when not decided.
	AsymmetryReachable *bool `json:"asymmetry_reachable"`
}

type checkTransitionJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
	checkVerdictJSON
	// Reachability answers, for a violated transition, whether the
	// witness and the asymmetry are reachable (reach.go); null otherwise.
	Reachability *reachJSON `json:"reachability"`
}

// checkWitnessJSON gives each configuration as group name -> counts in the
// order of "states".
type checkWitnessJSON struct {
	Group    string           `json:"group"` // "" for an environment step's witness
	Sizes    map[string]int   `json:"sizes"` // of the instance the configurations belong to
	States   []string         `json:"states"`
	Enabled  map[string][]int `json:"enabled"`
	Disabled map[string][]int `json:"disabled"`
	// The parameters of the instance (a family's), the shared values of
	// both configurations (with shared variables), and, when the point
	// of the witness is a step, the step of the enabled one whose
	// successor orbit no step of the disabled one reaches.
	Params map[string]int  `json:"params,omitempty"`
	Shared json.RawMessage `json:"shared,omitempty"`
	Step   *checkStepJSON  `json:"step,omitempty"`
}

// checkStepJSON is a witness's step (detect.Witness.Step): the
// transition (or rendezvous) taken, by which groups (one per part of a
// rendezvous), and the orbit it reaches: the total counters, in the
// order of "states", and the shared values.
type checkStepJSON struct {
	Transition  string          `json:"transition,omitempty"`
	Rendezvous  string          `json:"rendezvous,omitempty"`
	Environment string          `json:"environment,omitempty"`
	Groups      []string        `json:"groups"`
	TotalsAfter []int           `json:"totals_after"`
	SharedAfter json.RawMessage `json:"shared_after,omitempty"`
}

// checkVerdictJSON is the verdict of a transition or a rendezvous.
type checkVerdictJSON struct {
	// File, Line and Col locate the transition or rendezvous in the spec
	// (its entry in the list); Line and Col are 0 when unknown.
	File    string            `json:"file"`
	Line    int               `json:"line"`
	Col     int               `json:"col"`
	Verdict string            `json:"verdict"`
	Reason  string            `json:"reason"`
	Queries int               `json:"queries"`
	Witness *checkWitnessJSON `json:"witness"`
}

// newVerdictJSON is the JSON of a result, found at pos.
func newVerdictJSON(sys *gsst.System, t *detect.TransitionResult, pos gsst.Pos) checkVerdictJSON {
	return checkVerdictJSON{File: pos.File, Line: pos.Line, Col: pos.Col, Verdict: t.Verdict.String(),
		Reason: t.Reason, Queries: t.Queries, Witness: newWitnessJSON(sys, t.Witness)}
}

// checkRendezvousJSON is the result of one rendezvous.
type checkRendezvousJSON struct {
	Name  string          `json:"name"`
	Parts []checkPartJSON `json:"parts"`
	checkVerdictJSON
	// Reachability answers, for a violated rendezvous, whether the
	// witness and the asymmetry are reachable; null otherwise.
	Reachability *reachJSON `json:"reachability"`
}

// checkEnvironmentJSON is the result of one environment step, named by
// its name or "environment step k".
type checkEnvironmentJSON struct {
	Name string `json:"name"`
	checkVerdictJSON
	// Reachability answers, for a violated environment step, whether the
	// witness and the asymmetry are reachable; null otherwise.
	Reachability *reachJSON `json:"reachability"`
}

// checkPartJSON is one part of a rendezvous; Groups is omitted when any
// group may take it.
type checkPartJSON struct {
	From   string   `json:"from"`
	To     string   `json:"to"`
	Groups []string `json:"groups,omitempty"`
}

// checkResultJSON is the JSON of one file's outcome: its report, or,
// when the file could not be checked (it did not parse, or the solver
// failed), the error object every command prints (errorDocJSON), with
// the file's own exit code.
func checkResultJSON(cmd *cobra.Command, r checkResult) any {
	if r.rep == nil {
		code, kind := classifyKind(r.err)
		return &errorDocJSON{File: r.file, Command: "check", ExitCode: code, Kind: kind,
			Errors: errorsJSON(r.file, kind, r.err)}
	}
	return newCheckJSON(r)
}

// newCheckJSON is the JSON of a report (r.rep != nil).
func newCheckJSON(r checkResult) *checkJSON {
	out := &checkJSON{File: r.file, Transitions: []checkTransitionJSON{}}
	sys := r.rep.System
	out.System = sys.Name
	out.Verdict = r.rep.Verdict().String()
	out.Certified = r.rep.Certified()
	out.AllSizes = sys.Parametric()
	out.Sizes = map[string]string{}
	for g := range sys.Groups {
		out.Sizes[sys.Groups[g].Name] = sizeText(&sys.Groups[g])
	}

	out.AsymmetryReachable = r.reach.AsymmetryReachable(r.rep)
	if out.Certified {
		no := false
		out.AsymmetryReachable = &no
	}
	for i, t := range r.rep.Transitions {
		tj := checkTransitionJSON{
			From:             sys.States[t.Transition.From],
			To:               sys.States[t.Transition.To],
			checkVerdictJSON: newVerdictJSON(sys, &t, t.Transition.Pos),
		}
		if r.reach != nil {
			tj.Reachability = newReachJSON(r.reach.Transitions[i])
		}
		out.Transitions = append(out.Transitions, tj)
	}
	for k, t := range r.rep.Rendezvous {
		rj := checkRendezvousJSON{
			Name:             sys.RendezvousName(t.Rendezvous),
			checkVerdictJSON: newVerdictJSON(sys, &t, t.Rendezvous.Pos),
		}
		if r.reach != nil {
			rj.Reachability = newReachJSON(r.reach.Transitions[len(r.rep.Transitions)+k])
		}
		for _, p := range t.Rendezvous.Parts {
			pj := checkPartJSON{From: sys.States[p.From], To: sys.States[p.To]}
			for _, g := range p.Groups {
				pj.Groups = append(pj.Groups, sys.Groups[g].Name)
			}
			rj.Parts = append(rj.Parts, pj)
		}
		out.Rendezvous = append(out.Rendezvous, rj)
	}
	for k, t := range r.rep.Environment {
		ej := checkEnvironmentJSON{Name: t.Name(sys), checkVerdictJSON: newVerdictJSON(sys, &t, t.Environment.Pos)}
		if r.reach != nil {
			ej.Reachability = newReachJSON(r.reach.Transitions[len(r.rep.Transitions)+len(r.rep.Rendezvous)+k])
		}
		out.Environment = append(out.Environment, ej)
	}
	return out
}

// newWitnessJSON is the JSON of a witness; nil for none.
func newWitnessJSON(sys *gsst.System, w *detect.Witness) *checkWitnessJSON {
	if w == nil {
		return nil
	}
	wj := &checkWitnessJSON{
		Sizes:    map[string]int{},
		States:   sys.States,
		Enabled:  map[string][]int{},
		Disabled: map[string][]int{},
	}
	if w.Group >= 0 {
		wj.Group = sys.Groups[w.Group].Name
	}
	for g, gr := range sys.Groups {
		wj.Sizes[gr.Name] = w.Sizes[g]
		wj.Enabled[gr.Name] = w.Enabled[g]
		wj.Disabled[gr.Name] = w.Disabled[g]
	}
	if w.Params != nil {
		wj.Params = map[string]int{}
		for k, p := range sys.Params {
			wj.Params[p.Name] = w.Params[k]
		}
	}
	wj.Shared = sharedJSON(sys, w.Shared)
	if st := w.Step; st != nil {
		sj := &checkStepJSON{Groups: []string{}, TotalsAfter: st.Next.Totals(len(sys.States)), SharedAfter: sharedJSON(sys, st.Next.Shared)}
		switch o := &sys.Steps()[st.Step].Origin; {
		case o.Rendezvous >= 0:
			sj.Rendezvous = sys.RendezvousName(&sys.Rendezvous[o.Rendezvous])
		case o.Environment >= 0:
			sj.Environment = sys.EnvironmentName(o.Environment)
		default:
			sj.Transition = sys.TransitionName(&sys.Transitions[o.Transition])
		}
		for _, g := range st.Groups {
			sj.Groups = append(sj.Groups, sys.Groups[g].Name)
		}
		wj.Step = sj
	}
	return wj
}

// sharedJSON writes the shared values as every JSON output does
// (gsst's SharedJSON); nil without shared variables.
func sharedJSON(sys *gsst.System, vals []int) json.RawMessage {
	if len(sys.Shared) == 0 || len(vals) != len(sys.Shared) {
		return nil
	}
	return sys.SharedJSON(vals)
}
