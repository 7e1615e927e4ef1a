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
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/progress"
	"github.com/vsym/vsym/prove"
)

func init() { register("prove", newProveCmd) }

type proveOpts struct {
	file       string
	output     string
	out        string
	timeout    time.Duration // --timeout: the whole run
	propertyTO time.Duration // --property-timeout: each property
	work       int64         // --property-work: each property
	properties []string
	maxTrace   int
}

func newProveCmd() *cobra.Command {
	o := &proveOpts{}
	cmd := &cobra.Command{
		Use:   "prove FILE",
		Short: "Prove safety and liveness properties for every size in the ranges",
		Long: `Prove answers safety properties AG phi (phi a condition on one state)
and, under the spec's fairness, liveness properties AF q, AG (p -> AF q)
and AG AF q, for every instance of the spec at once: every choice of group
sizes in their ranges (reader: 1..), or the one instance of a spec with
fixed sizes. It asks Z3's CHC engine (Spacer) about the counter model with
unbounded counters and symbolic sizes: the total-counter model when the
system is certified fully virtually symmetric for every size and phi reads
total counters only, the group-counter model otherwise (exact for any
GSST). Each property is

  proved    for every size, with an inductive invariant (|g| is the size
            of group g), re-checked with independent satisfiability
            queries (exact: vsym's own solver, then Z3 for what it
            declines): initiation, consecution under every transition,
            and invariant implies phi (a liveness proof adds
            nonnegative ranks that a fair run never reaching q would
            have to lower for ever, re-checked alike);
  refuted   at the sizes named, with a run replayed process by process on
            that instance (and, under fairness, a fair run found by the
            explicit engine there: a fair lasso for liveness);
  unknown   with the reason: a timeout, the solver's unknown, a
            counterexample too long for the search. Counter systems can
            simulate Turing machines, so some questions have no answer.

A reachability property EF c (without fairness) is the negation of AG !c:
refuted at every size when AG !c is proved (with its invariant), proved on
a family of one instance with one initial configuration when AG !c is
refuted (the run is the witness), unknown otherwise. Other properties (EG,
nested temporal operators) are skipped: check them on one instance with
vsym explore (each skipped property says how). docs/prove.md has the details and
the JSON output. The exit code is 1 when some property is refuted, else 3
when some is unknown, else 0. --property-work bounds the prover's work on
each property in units of Z3's resource limit, which Z3 counts alike on
every machine (a property that runs out is unknown, whatever the load);
--property-timeout adds a time bound on each; --timeout bounds the whole run, which then
stops with no report (under --output json the error object) and exit 3.

` + exitHelp,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runProve(cmd, o)
		},
	}
	f := cmd.Flags()
	addOutputFlag(f, &o.output, textJSONFormats)
	addOutFlag(f, &o.out, "the report")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30s; 0 means no bound")
	f.DurationVar(&o.propertyTO, "property-timeout", 0, "time bound on each property, e.g. 30s (0: none); a property that runs out is unknown")
	f.Int64Var(&o.work, "property-work", analysis.PropertyWork, "work bound on the prover's largest attempt on each property, in units of Z3's resource limit (the same on every machine); a property that runs out is unknown")
	f.StringSliceVarP(&o.properties, "property", "p", nil, "prove only the named properties (repeatable, comma-separated)")
	f.IntVar(&o.maxTrace, "max-trace", 0, "show at most N states of each counterexample (and N steps of its replay); 0 shows all")
	return cmd
}

func runProve(cmd *cobra.Command, o *proveOpts) error {
	prog := startProgress(cmd)
	defer prog.stop()
	stdout := cmd.OutOrStdout()
	if err := checkOutputFormat(o.output); err != nil {
		return err
	}
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	if err := checkFlagTimeout("--property-timeout", o.propertyTO); err != nil {
		return err
	}
	if o.work <= 0 {
		return errkind.Errorf(errkind.Input, "--property-work must be positive, not %d", o.work)
	}
	if o.maxTrace < 0 || o.maxTrace == 1 {
		return errkind.Errorf(errkind.Input, "--max-trace must be at least 2 (the first and the last state), or 0 to show whole traces")
	}
	// --timeout bounds the whole run from here, loading included;
	// --property-timeout each property and each certification query (cut
	// by what remains of the run: the contexts prove.Check gives the
	// prover derive from ctx).
	ctx, cancel := commandContext(cmd, o.timeout)
	defer cancel()
	limits := analysis.Limits{Timeout: o.timeout}
	file := displayName(o.file)
	prog.phase(progress.Parse)
	sys, err := analysis.Within(ctx, file, "loading", limits, func() (*gsst.System, error) { return loadSpec(cmd, o.file) })
	if err != nil {
		return err
	}
	sys, err = selectProperties(file, sys, o.properties)
	if err != nil {
		return err
	}
	proof, err := analysis.Prove(ctx, sys, analysis.ProveRequest{File: file, PropertyTimeout: o.propertyTO, Work: o.work, Limits: limits, Progress: prog.report})
	prog.stop()
	if err != nil {
		return err
	}
	rep := proof.Report
	addPropertyTimeoutHints(rep, o.propertyTO, o.work)
	addSkipHints(rep, o.file, formatArgs(cmd))
	describeOutput(cmd, "the proof report of "+sys.Name)
	view := newProveJSON(file, rep, o.maxTrace)
	for i := range view.Properties {
		view.Properties[i].Expected = expectedText(cmd, view.Properties[i].Name)
	}
	view.NotStated = notStated(cmd)
	if o.output == "json" {
		if err := writeJSON(stdout, view); err != nil {
			return err
		}
	} else {
		writeProveReport(stdout, sys, view, rep, o.maxTrace)
		writeNotStated(stdout, view.NotStated)
	}
	answer(cmd, proof.Verdict())
	return nil
}

// addPropertyTimeoutHints adds to the reason of each property left
// unknown because it ran out of time or of the prover's work the flag
// that gives it more (prove.Result says which bound ran out).
func addPropertyTimeoutHints(rep *prove.Report, timeout time.Duration, work int64) {
	addPartTimeoutHints(rep.Results, timeout, work)
}

// addPartTimeoutHints is addPropertyTimeoutHints on results, and on the
// parts of a property asked part by part (which say what ran out) in
// its place.
func addPartTimeoutHints(results []prove.Result, timeout time.Duration, work int64) {
	for i := range results {
		r := &results[i]
		switch {
		case r.Parts != nil:
			addPartTimeoutHints(r.Parts, timeout, work)
		case r.Verdict != prove.Unknown:
		case timeout > 0 && r.Stopped:
			r.Reason += fmt.Sprintf("; raise %s (now %v per property)", limitFlags[analysis.PropertyTimeout], timeout)
		case r.Exhausted == prove.ProverWork:
			r.Reason += fmt.Sprintf("; raise --property-work (now %d units per property)", work)
		}
	}
}

// addSkipHints adds to the reason of each skipped property the command
// that checks it instead: explore, on one instance of a family, with
// the flags the spec needs to name one, and format's (--format as
// given).
func addSkipHints(rep *prove.Report, file string, format []string) {
	for i := range rep.Results {
		r := &rep.Results[i]
		// A part of a property asked part by part is no property of
		// the file: explore checks the whole property.
		name := r.Property.Name
		for k := range r.Parts {
			addSkipHint(rep.System, &r.Parts[k], name, file, format)
		}
		addSkipHint(rep.System, r, name, file, format)
	}
}

// addSkipHint is addSkipHints on r when skipped, or when it is a
// reachability property left unknown (reached at one instance, which
// decides nothing of the others), with name the property of the file
// to explore.
func addSkipHint(sys *gsst.System, r *prove.Result, name, file string, format []string) {
	if r.Verdict != prove.Skipped && (r.Verdict != prove.Unknown || !prove.IsReachability(r.Property.Formula)) {
		return
	}
	args := append([]string{"vsym", "explore"}, instanceExample(sys)...)
	where := "check it with "
	if len(args) > 2 {
		where = "check it on one instance with "
	}
	args = append(append(args, format...), "-p", name, file)
	r.Reason += "; " + where + shellCommand(args...)
}

// proveJSON is the stable output of "vsym prove --output json",
// documented in docs/prove.md.
type proveJSON struct {
	File   string            `json:"file"`
	System string            `json:"system"`
	Sizes  map[string]string `json:"sizes"` // group name -> "3", "1..", "2..5"
	// Certification is the verdict of the certification for every size
	// ("certified", "violated", ...), when it ran.
	Certification string `json:"certification,omitempty"`
	// Scope, for a spec with parameters, says which parameter values
	// "every size" covers.
	Scope      string              `json:"scope,omitempty"`
	Properties []provePropertyJSON `json:"properties"`
	// NotStated are the properties of a file in another format that its
	// translation does not state (docs/formats.md).
	NotStated []notStatedJSON `json:"not_stated,omitempty"`
}

// lemmaJSON is a lemma a proof used: an invariant found before the
// prover ran, proved inductive with the others.
type lemmaJSON struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// liveJSON is the well-founded part of a liveness certificate
// (prove.LiveCertificate): the ranks, compared lexicographically, the
// helpful weak fairness constraints in the order that defines the
// phase, and the justice conditions that force the ranks down.
type liveJSON struct {
	// Settles, when set, is the measure every step that changes the
	// configuration lowers: the proof is by settling (docs/prove.md), and
	// Ranks and Helpful are empty.
	Settles string   `json:"settles,omitempty"`
	Ranks   []string `json:"ranks"`
	Helpful []string `json:"helpful"`
	Justice []string `json:"justice,omitempty"`
	// Premise: the condition on the parameters the premise states; the
	// certificate is for the instances that meet it.
	Premise string `json:"premise,omitempty"`
}

type provePropertyJSON struct {
	Name string `json:"name"`
	Text string `json:"text"`
	// File, Line and Col locate the property in the spec.
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Verdict string `json:"verdict"` // proved, refuted, unknown, skipped
	// Model is the counter model asked ("total" or "group"), and
	// ModelReason why; empty for a skipped property.
	Model       string `json:"model,omitempty"`
	ModelReason string `json:"model_reason,omitempty"`
	Invariant   string `json:"invariant,omitempty"`
	// Sizes and Trace: the instance where a refuted property fails and
	// the run into a bad state (kept for an unknown one whose run the
	// fairness check could not confirm).
	Sizes map[string]int `json:"sizes,omitempty"`
	// Params are the parameter values of the refuting instance (its run
	// is Trace, lifted to processes as explore's traces are).
	Params map[string]int `json:"params,omitempty"`
	// Lemmas are the lemmas the proof used (Invariant includes them).
	Lemmas []lemmaJSON `json:"lemmas,omitempty"`
	// Liveness is the certificate of a proved liveness property, beside
	// Invariant (which then reads the monitor bit "pending").
	Liveness *liveJSON  `json:"liveness,omitempty"`
	Trace    *traceJSON `json:"trace,omitempty"`
	Reason   string     `json:"reason,omitempty"`
	Seconds  float64    `json:"seconds"`
	// Expected is the verdict the file announces for the property, as
	// written ("safe"), when it announces one.
	Expected string `json:"expected,omitempty"`
	// Parts, for a property prove asked part by part (AG (f1 & f2) as
	// AG f1 and AG f2), are its parts, each with its own verdict and
	// evidence; Verdict is theirs combined.
	Parts []provePropertyJSON `json:"parts,omitempty"`
}

func newProveJSON(file string, rep *prove.Report, maxTrace int) *proveJSON {
	sys := rep.System
	out := &proveJSON{File: file, System: sys.Name, Sizes: map[string]string{}, Properties: []provePropertyJSON{}}
	for g := range sys.Groups {
		out.Sizes[sys.Groups[g].Name] = proveSizeText(&sys.Groups[g])
	}
	if rep.Cert != nil {
		out.Certification = rep.Cert.Verdict().String()
	}
	out.Scope = rep.Scope
	for _, r := range rep.Results {
		out.Properties = append(out.Properties, newProvePropertyJSON(sys, r, maxTrace))
	}
	return out
}

// newProvePropertyJSON is the output of one property's result, and of
// its parts' for a property prove asked part by part: the evidence is
// then the parts', and the property has their combined verdict, with the
// sizes and parameters of the part refuted.
func newProvePropertyJSON(sys *gsst.System, r prove.Result, maxTrace int) provePropertyJSON {
	p := r.Property
	pj := provePropertyJSON{
		Name: p.Name, Text: p.Text, File: p.Pos.File, Line: p.Pos.Line, Col: p.Pos.Col,
		Verdict: r.Verdict.String(), Invariant: r.InvariantText, Reason: r.Reason,
		Trace: newTraceJSON(r.Trace, maxTrace), Seconds: r.Duration.Seconds(),
	}
	if r.Verdict != prove.Skipped {
		pj.Model, pj.ModelReason = r.Level.String(), r.LevelReason
	}
	if r.Parts != nil {
		pj.Model, pj.ModelReason, pj.Trace = "", "", nil
		for _, part := range r.Parts {
			pj.Parts = append(pj.Parts, newProvePropertyJSON(sys, part, maxTrace))
		}
	}
	if r.Sizes != nil {
		pj.Sizes = map[string]int{}
		for g, k := range r.Sizes {
			pj.Sizes[sys.Groups[g].Name] = k
		}
	}
	if len(r.Params) > 0 {
		pj.Params = map[string]int{}
		for k, v := range r.Params {
			pj.Params[sys.Params[k].Name] = v
		}
	}
	for _, l := range r.Lemmas {
		pj.Lemmas = append(pj.Lemmas, lemmaJSON{Kind: l.Kind, Text: l.Text})
	}
	if c := r.Live; c != nil {
		pj.Liveness = &liveJSON{Settles: c.SettleText, Ranks: append([]string{}, c.RankTexts...), Helpful: append([]string{}, c.HelpfulTexts...), Justice: c.JusticeTexts, Premise: c.PremiseText}
	}
	return pj
}

// longCertificate is the length beyond which a certificate printed for
// one property is not printed again for another (writeProveReport).
const longCertificate = 400

// writeProveReport prints a proof report for people.
func writeProveReport(w io.Writer, sys *gsst.System, view *proveJSON, rep *prove.Report, maxTrace int) {
	sizes := groupSizes(sys)
	if len(sys.Params) > 0 {
		parts := make([]string, len(sys.Groups))
		for g := range sys.Groups {
			parts[g] = sys.Groups[g].Name + " " + proveSizeText(&sys.Groups[g])
		}
		sizes = strings.Join(parts, ", ")
	}
	if len(rep.Results) == 0 {
		// ByMC's cav15 automata come without specifications.
		fmt.Fprintf(w, "%s: %s (%s): no property to prove: the file states none\n", view.File, sys.Name, sizes)
		return
	}
	fmt.Fprintf(w, "%s: %s (%s): %s for every size\n", view.File, sys.Name, sizes, proveKind(rep))
	if rep.Cert != nil {
		fmt.Fprintf(w, "certification for every size: %s\n", view.Certification)
	}
	if rep.Scope != "" {
		fmt.Fprintf(w, "parameters: %s\n", rep.Scope)
	}
	// A long certificate printed once: the properties proved together by
	// one invariant refer to the first of them (a net with a property per
	// place has hundreds, and printed it for each: megabytes). A short
	// one is printed again, where it is read more easily than a reference.
	shown := map[string]string{} // the certificate's text -> the first property printed with it
	for i, r := range rep.Results {
		writeProveProperty(w, sys, view.Properties[i], r, shown, maxTrace)
	}
	writeUndecided(w, rep)
}

// writeProveProperty prints the result of one property, and, for a
// property prove asked part by part, each part indented as a property
// of its own, under the combined verdict. shown is writeProveReport's.
func writeProveProperty(w io.Writer, sys *gsst.System, pj provePropertyJSON, r prove.Result, shown map[string]string, maxTrace int) {
	var verdict string
	switch r.Verdict {
	case prove.Proved:
		verdict = "proved for every size"
	case prove.Refuted:
		verdict = "REFUTED at " + sys.FormatSizes(r.Sizes)
		if r.Sizes == nil {
			// A reachability property whose condition no instance reaches.
			verdict = "REFUTED at every size"
		}
		if len(r.Params) > 0 {
			verdict = "REFUTED at " + formatParamValues(sys, r.Params) + " (" + sys.FormatSizes(r.Sizes) + ")"
		}
	case prove.Unknown:
		verdict = "unknown: " + r.Reason
	case prove.Skipped:
		verdict = "skipped: " + r.Reason
	}
	if pj.Expected != "" {
		verdict += " (expected: " + pj.Expected + ")"
	}
	fmt.Fprintf(w, "property %s: %s: %s\n", pj.Name, pj.Text, verdict)
	if r.Verdict == prove.Skipped {
		return
	}
	if r.Parts != nil {
		if r.Verdict != prove.Unknown && r.Reason != "" {
			fmt.Fprintf(w, "  %s\n", r.Reason)
		}
		for k, part := range r.Parts {
			var b strings.Builder
			writeProveProperty(&b, sys, pj.Parts[k], part, shown, maxTrace)
			for line := range strings.Lines(b.String()) {
				io.WriteString(w, "  "+line)
			}
		}
		return
	}
	fmt.Fprintf(w, "  model: %s-counter (%s)\n", r.Level, r.LevelReason)
	if r.Verdict == prove.Refuted && r.InvariantText != "" {
		// A reachability property refuted at every size: the invariant
		// that excludes its condition is the evidence.
		fmt.Fprintf(w, "  inductive invariant (re-checked): %s\n", r.InvariantText)
	}
	if r.Verdict == prove.Proved {
		var cert strings.Builder
		if r.InvariantText != "" {
			// (A liveness property of a family of one instance may be
			// proved by exploring it whole: the reason below says so.)
			fmt.Fprintf(&cert, "  inductive invariant (re-checked): %s\n", r.InvariantText)
		}
		if c := pj.Liveness; c != nil {
			writeLiveCertificate(&cert, c)
		}
		if len(r.Lemmas) > 0 {
			fmt.Fprintf(&cert, "  lemmas found and proved inductive (part of the invariant):\n")
			for _, l := range r.Lemmas {
				fmt.Fprintf(&cert, "    %s: %s\n", l.Kind, l.Text)
			}
		}
		key := r.Level.String() + "\x00" + cert.String()
		if first, ok := shown[key]; ok && cert.Len() > longCertificate {
			fmt.Fprintf(w, "  inductive invariant (re-checked): the one printed for property %s above\n", first)
		} else {
			shown[key] = pj.Name
			io.WriteString(w, cert.String())
		}
	}
	if r.Verdict != prove.Unknown && r.Reason != "" {
		fmt.Fprintf(w, "  %s\n", r.Reason)
	}
	if pj.Trace != nil {
		writeTrace(w, r.Instance, pj.Trace, maxTrace)
	}
}

// writeUndecided ends a report with the properties that were not
// decided, unknown or skipped: none of them is a success, and they make
// the exit code 3 (unless some property is refuted).
func writeUndecided(w io.Writer, rep *prove.Report) {
	var open []string
	for _, r := range rep.Results {
		if r.Verdict == prove.Unknown || r.Verdict == prove.Skipped {
			open = append(open, r.Property.Name+" ("+r.Verdict.String()+")")
		}
	}
	if len(open) > 0 {
		fmt.Fprintf(w, "not decided: %s\n", strings.Join(open, ", "))
	}
}

// proveKind says what the report decides: "safety", "liveness" or
// "safety and liveness", by the properties asked (the parts of one asked
// part by part).
func proveKind(rep *prove.Report) string {
	var safety, live bool
	var kinds func(results []prove.Result)
	kinds = func(results []prove.Result) {
		for _, r := range results {
			if r.Parts != nil {
				kinds(r.Parts)
			} else if _, _, ok := counterabs.PremisedSafety(r.Property.Formula); ok {
				safety = true
			} else if prove.IsLiveness(r.Property.Formula) {
				live = true
			}
		}
	}
	kinds(rep.Results)
	switch {
	case live && safety:
		return "safety and liveness"
	case live:
		return "liveness"
	}
	return "safety"
}

// writeLiveCertificate prints the well-founded part of a liveness
// certificate under its invariant.
func writeLiveCertificate(w io.Writer, c *liveJSON) {
	if c.Settles != "" {
		fmt.Fprintf(w, "  runs settle (checked on the steps): every step that changes the configuration lowers %s, so a run that stays pending ends repeating one configuration; the invariant excludes every pending one where a fair run can stay\n", c.Settles)
		if c.Premise != "" {
			fmt.Fprintf(w, "  for the parameters where the premise can hold (%s): elsewhere it never holds, and the property with it\n", c.Premise)
		}
		return
	}
	fmt.Fprintf(w, "  ranks (re-checked; lexicographic, each nonnegative, none increases along a pending step):\n")
	for k, r := range c.Ranks {
		fmt.Fprintf(w, "    %d. %s\n", k+1, r)
	}
	if len(c.Ranks) == 0 {
		fmt.Fprintf(w, "    none (every pending step ends the obligation)\n")
	}
	if len(c.Helpful) > 0 {
		fmt.Fprintf(w, "  helpful weak fairness, in phase order (a step by the first one enabled decreases the ranks): %s\n", strings.Join(c.Helpful, "; "))
	}
	if len(c.Justice) > 0 {
		fmt.Fprintf(w, "  justice conditions every step from which decreases the ranks: %s\n", strings.Join(c.Justice, "; "))
	}
	if c.Premise != "" {
		fmt.Fprintf(w, "  for the parameters where the premise can hold (%s): elsewhere it never holds, and the property with it\n", c.Premise)
	}
}

// proveSizeText writes a group's size as the spec gives it: "3", "1..",
// or the expression over the parameters ("n - f").
func proveSizeText(g *gsst.Group) string {
	if g.OverParams() && g.SizeTermText != "" {
		return g.SizeTermText
	}
	return g.SizeText()
}

// formatParamValues writes parameter values as "n=4, t=1, f=0".
func formatParamValues(sys *gsst.System, params []int) string {
	parts := make([]string, len(params))
	for k, v := range params {
		parts[k] = sys.Params[k].Name + "=" + strconv.Itoa(v)
	}
	return strings.Join(parts, ", ")
}
