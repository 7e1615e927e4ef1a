package cli

import (
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
)

func init() { register(newCheckCmd) }

type checkOpts struct {
	files        []string
	output       string
	out          string
	timeout      time.Duration
	reachability bool   // --reachability
	maxMemory    string // --max-memory, for the reachability questions
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
virtually symmetric) over 3 (some answer unknown) over 0.

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
	f.DurationVar(&o.timeout, "timeout", 30*time.Second, "bound on each solver call, e.g. 30s (0: none); a call that runs out makes its transition unknown; also bounds the reachability questions of each file")
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
	mem, err := parseSize(o.maxMemory)
	if err != nil {
		return errkind.Errorf(errkind.Input, "--max-memory: %w", err)
	}
	// --timeout bounds each solver call here, and the reachability
	// questions of each file as a whole, not the whole run.
	ctx, cancel := commandContext(cmd, 0)
	defer cancel()

	describeOutput(cmd, "the certification report")
	var results []checkResult
	for _, arg := range o.files {
		r := checkResult{file: displayName(arg)}
		var opts []gsst.Option
		if o.allSizes {
			opts = append(opts, gsst.AllSizes())
		}
		prog.phase(progress.Parse)
		r.sys, r.err = loadSpec(cmd, arg, opts...)
		var c *analysis.Certification
		if r.err == nil {
			c, r.err = analysis.Certify(ctx, r.sys, analysis.CertifyRequest{File: r.file, SolverTimeout: o.timeout,
				Reachability: o.reachability, Engine: "auto", Limits: analysis.Limits{Timeout: o.timeout, MaxMemory: mem}, Progress: prog.report})
		}
		if r.err != nil {
			// Parse errors carry file:line:col; others (a missing file)
			// get the usual prefix.
			report(cmd, r.err)
		} else {
			r.rep, r.reach = c.Report, c.Reach
			addTimeoutHints(r.rep, o.timeout)
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
			writeCheck(stdout, r.file, r.rep, r.reach)
		}
	}
	return nil
}

// addTimeoutHints adds to the reason of each transition left unknown
// because a solver call ran out of time the flag that gives it more.
func addTimeoutHints(rep *detect.Report, timeout time.Duration) {
	for i := range rep.Transitions {
		t := &rep.Transitions[i]
		if t.Verdict == detect.Unknown && timeout > 0 && t.Stopped {
			t.Reason += fmt.Sprintf("; raise --timeout (now %v per solver call)", timeout)
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
func writeCheck(w io.Writer, file string, rep *detect.Report, reach *analysis.Reachability) {
	sys := rep.System
	// everySize qualifies the verdicts of a parametric system.
	everySize := ""
	if sys.Parametric() {
		everySize = " for every size"
		groups := groupSizes(sys)
		if len(sys.Groups) <= maxGroupsListed {
			groups = countNoun(len(sys.Groups), "group", "groups") + " of sizes " + groups
		}
		fmt.Fprintf(w, "%s: %s: %s, %s; every size is checked\n", file, sys.Name,
			groups, countNoun(len(sys.Transitions), "transition", "transitions"))
	} else {
		fmt.Fprintf(w, "%s: %s: %s in %s, %s\n", file, sys.Name,
			countNoun(sys.N(), "process", "processes"), countNoun(len(sys.Groups), "group", "groups"),
			countNoun(len(sys.Transitions), "transition", "transitions"))
	}
	counts := map[detect.Verdict]int{}
	for i, t := range rep.Transitions {
		counts[t.Verdict]++
		name := sys.TransitionName(t.Transition)
		switch t.Verdict {
		case detect.Violated:
			at := ""
			if sys.Parametric() {
				at = " at sizes " + sys.FormatSizes(t.Witness.Sizes)
			}
			fmt.Fprintf(w, "  %s: violated%s: the two configurations below have equal total counters;\n", name, at)
			fmt.Fprintf(w, "    in the first a process of group %s can take %s, in the second no process can\n",
				sys.Groups[t.Witness.Group].Name, name)
			writeWitnessTables(w, sys, t.Witness)
			if reach != nil {
				writeReach(w, sys, name, newReachJSON(reach.Transitions[i]))
			}
		case detect.Unknown:
			fmt.Fprintf(w, "  %s: unknown: %s\n", name, t.Reason)
		default:
			fmt.Fprintf(w, "  %s: %s\n", name, t.Verdict)
		}
	}
	switch rep.Verdict() {
	case detect.Symmetric:
		fmt.Fprintf(w, "%s: fully symmetric%s: every transition treats all processes alike\n", sys.Name, everySize)
	case detect.Certified:
		fmt.Fprintf(w, "%s: certified fully virtually symmetric%s (%s by the solver, %d symmetric)\n",
			sys.Name, everySize, countNoun(counts[detect.Certified], "transition certified", "transitions certified"), counts[detect.Symmetric])
	case detect.Violated:
		fmt.Fprintf(w, "%s: not fully virtually symmetric%s (%d of %d transitions violated)\n",
			sys.Name, everySize, counts[detect.Violated], len(rep.Transitions))
		writeReachSummary(w, sys, reach.AsymmetryReachable(rep))
	default:
		fmt.Fprintf(w, "%s: unknown: %d of %d transitions undecided\n",
			sys.Name, counts[detect.Unknown], len(rep.Transitions))
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
			parts[g] = sys.Groups[g].Name + " " + sys.Groups[g].SizeText()
		}
		return strings.Join(parts, ", ")
	}
	var sizes []string
	count := map[string]int{}
	for g := range sys.Groups {
		size := sys.Groups[g].SizeText()
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
	// AsymmetryReachable: whether some violated transition's asymmetry
	// can occur from the initial state (false also for certified
	// systems); null when not decided.
	AsymmetryReachable *bool `json:"asymmetry_reachable"`
}

type checkTransitionJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
	// File, Line and Col locate the transition in the spec (its entry in
	// the transitions list); Line and Col are 0 when unknown.
	File    string            `json:"file"`
	Line    int               `json:"line"`
	Col     int               `json:"col"`
	Verdict string            `json:"verdict"`
	Reason  string            `json:"reason"`
	Queries int               `json:"queries"`
	Witness *checkWitnessJSON `json:"witness"`
	// Reachability answers, for a violated transition, whether the
	// witness and the asymmetry are reachable (reach.go); null otherwise.
	Reachability *reachJSON `json:"reachability"`
}

// checkWitnessJSON gives each configuration as group name -> counts in the
// order of "states".
type checkWitnessJSON struct {
	Group    string           `json:"group"`
	Sizes    map[string]int   `json:"sizes"` // of the instance the configurations belong to
	States   []string         `json:"states"`
	Enabled  map[string][]int `json:"enabled"`
	Disabled map[string][]int `json:"disabled"`
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
		out.Sizes[sys.Groups[g].Name] = sys.Groups[g].SizeText()
	}

	out.AsymmetryReachable = r.reach.AsymmetryReachable(r.rep)
	if out.Certified {
		no := false
		out.AsymmetryReachable = &no
	}
	for i, t := range r.rep.Transitions {
		tj := checkTransitionJSON{
			From:    sys.States[t.Transition.From],
			To:      sys.States[t.Transition.To],
			File:    t.Transition.Pos.File,
			Line:    t.Transition.Pos.Line,
			Col:     t.Transition.Pos.Col,
			Verdict: t.Verdict.String(),
			Reason:  t.Reason,
			Queries: t.Queries,
		}
		if w := t.Witness; w != nil {
			wj := &checkWitnessJSON{
				Group:    sys.Groups[w.Group].Name,
				Sizes:    map[string]int{},
				States:   sys.States,
				Enabled:  map[string][]int{},
				Disabled: map[string][]int{},
			}
			for g, gr := range sys.Groups {
				wj.Sizes[gr.Name] = w.Sizes[g]
				wj.Enabled[gr.Name] = w.Enabled[g]
				wj.Disabled[gr.Name] = w.Disabled[g]
			}
			tj.Witness = wj
		}
		if r.reach != nil {
			tj.Reachability = newReachJSON(r.reach.Transitions[i])
		}
		out.Transitions = append(out.Transitions, tj)
	}
	return out
}
