package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/progress"
)

func init() { register("explore", newExploreCmd) }

type exploreOpts struct {
	sizes      string
	params     string // --params, for a spec with parameters
	file       string
	level      string
	concrete   bool
	force      bool
	output     string
	out        string
	maxTrace   int  // --max-trace: states (and steps) shown per trace, 0 for all
	noTraces   bool // --no-traces
	engine     string
	maxStates  int64
	maxMemory  string
	timeout    time.Duration
	properties []string
	bddOrder   string // --bdd-order (BDD engine)
	bddNoReach bool   // --bdd-no-reach: deprecated, the default
	count      bool   // --count-states
	deadlocks  bool   // --deadlock-free
	bound      int64  // --bound

	allowNoFairRun bool // --allow-no-fair-run

	// choose picks the engine; nil means analysis.Engines. It is the one
	// seam through which tests put an engine double behind the command
	// (to see that an engine's internal error exits 3, not 2); vsym
	// itself never sets it.
	choose func(name string, m *counterabs.Model, bdd symbolic.BDD) (explore.Engine, error)
}

// engineNames lists the values of --engine.
const engineNames = analysis.EngineNames

// defaultMaxMemory bounds the search when --max-memory is not given, so a
// large model stops with exit code 3 instead of exhausting the machine.
const defaultMaxMemory = "4GiB"

func newExploreCmd() *cobra.Command { return exploreCmd(&exploreOpts{}) }

// exploreCmd builds the explore command around o, whose flags it sets.
func exploreCmd(o *exploreOpts) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "explore FILE",
		Short: "Explore the state space and model check the CTL properties",
		Long: `Explore builds the reachable state space of a GSST and checks its CTL
properties, with counterexamples and witnesses lifted to process moves.

It works on one of two exact counter models (--model):
  total  one counter per local state: the counter abstraction, exact for
         a system certified fully virtually symmetric;
  group  one counter per group and local state: exact for every GSST,
         certified or not, and the only one that can check properties
         over group counters (#S[g]).
With --model auto (the default) vsym certifies the system and takes the
total-counter model when it is certified and every property reads total
counters only, and the group-counter model otherwise; the output says
which and why. --concrete is --model group: the unreduced system with
the processes of each group sorted is the group-counter model. --force
takes the total-counter model of an uncertified system, which
over-approximates it: a universal (ACTL) property that holds there holds
in the system (exit 0 when all do); any other verdict is inconclusive
(exit code 3).

Under the spec's fairness constraints path quantifiers range over fair
runs (docs/fairness.md). When no fair run starts in the initial state,
every property holds vacuously, as in NuSMV; vsym reports "no fair run
from the initial state" as a finding and exits 1, unless
--allow-no-fair-run accepts it.

` + exitHelp,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return exploreSARIFOnError(cmd, o, runExplore(cmd, o))
		},
	}
	f := cmd.Flags()
	addSizesFlag(f, &o.sizes, &o.params)
	f.StringVar(&o.level, "model", "auto", levelFlag)
	f.BoolVar(&o.concrete, "concrete", false, "explore the unreduced system with group-sorted states: the same as --model group")
	f.BoolVar(&o.force, "force", false, "explore the over-approximating total-counter model of an uncertified system: universal (ACTL) properties that hold there hold in the system, other verdicts are inconclusive")
	addOutputFlag(f, &o.output, sarifFormats)
	addOutFlag(f, &o.out, "the report")
	f.IntVar(&o.maxTrace, "max-trace", 0, "show at most N states of each trace (and N steps of its replay): the first N/2 and the last N/2, saying how many were left out; 0 shows all")
	f.BoolVar(&o.noTraces, "no-traces", false, "build no counterexamples or witnesses (faster, smaller output)")
	f.StringVar(&o.engine, "engine", "auto", "engine: "+engineNames+" (auto picks bdd when a --bdd-* flag is given)")
	f.Int64Var(&o.maxStates, "max-states", 0, "stop (exit 3) when more states are reachable (explicit engine: as soon as it has stored this many); 0 means no bound")
	f.StringVar(&o.maxMemory, "max-memory", defaultMaxMemory, "stop (exit 3) when the state store would exceed this size (e.g. 512MiB, 2G); 0 means no bound")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30s; 0 means no bound")
	f.StringSliceVarP(&o.properties, "property", "p", nil, "check only the named properties (repeatable, comma-separated)")
	f.StringVar(&o.bddOrder, "bdd-order", "auto", "BDD variable order: auto, interleaved, blocked or split (see docs/symbolic.md)")
	f.BoolVar(&o.count, "count-states", false, "count reachable states and deadlocks (done unasked on a space of at most 200000 states)")
	// --bdd-no-reach was the way to skip reachable states before that was
	// the default; it still says "no counts", and is hidden.
	f.BoolVar(&o.bddNoReach, "bdd-no-reach", false, "do not count reachable states (the default)")
	_ = f.MarkHidden("bdd-no-reach")
	f.Int64Var(&o.bound, "bound", 0, "explore the unbounded shared variables (\"0..\") up to this value: a reachable step beyond it stops the run (exit 3), and when none is, the bound decided nothing; 0 means no bound")
	f.BoolVar(&o.deadlocks, "deadlock-free", false, "also require that no deadlock is reachable: a reachable deadlock fails the run (exit 1), with a shortest path to it")
	f.BoolVar(&o.allowNoFairRun, "allow-no-fair-run", false, "accept fairness constraints that no run from the initial state meets (every property then holds vacuously), which otherwise fail the run (exit 1)")
	return cmd
}

func runExplore(cmd *cobra.Command, o *exploreOpts) error {
	prog := startProgress(cmd)
	defer prog.stop()
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if err := checkOutputFormatSARIF(o.output); err != nil {
		return err
	}
	mem, err := parseSize(o.maxMemory)
	if err != nil {
		return errkind.Errorf(errkind.Input, "--max-memory: %w", err)
	}
	if o.maxStates < 0 {
		return errkind.Errorf(errkind.Input, "--max-states must not be negative")
	}
	if o.bound < 0 {
		return errkind.Errorf(errkind.Input, "--bound must not be negative")
	}
	if o.bound > gsst.MaxValue {
		return errkind.Errorf(errkind.Input, "--bound %d is beyond %d, the limit on a shared variable's value", o.bound, int64(gsst.MaxValue))
	}
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	if o.bddNoReach && (o.count || o.maxStates > 0) {
		return errkind.Errorf(errkind.Input, "--bdd-no-reach contradicts --count-states and --max-states, which need the reachable states")
	}
	engineName, err := engineFor(cmd, o)
	if err != nil {
		return err
	}
	if err := checkMaxTrace(o.maxTrace, "show whole traces"); err != nil {
		return err
	}
	if o.noTraces && o.maxTrace > 0 {
		return errkind.Errorf(errkind.Input, "--no-traces and --max-trace exclude each other")
	}
	level := o.level
	if o.concrete {
		if level != "auto" && level != "group" {
			return errkind.Errorf(errkind.Input, "--concrete is --model group; it cannot be combined with --model %s", level)
		}
		level = "group"
	}
	if o.force && level == "group" {
		return errkind.Errorf(errkind.Input, "--force applies to the total-counter model; the group-counter model (--model group, --concrete) is exact and needs no certification")
	}
	order, err := symbolic.ParseOrder(o.bddOrder)
	if err != nil {
		return errkind.Errorf(errkind.Input, "--bdd-order: %w", err)
	}
	prog.phase(progress.Parse)
	file := displayName(o.file)
	// --timeout bounds the whole run, loading included; an interrupt
	// (Ctrl-C) stops it with a message too, which names an unbounded
	// variable that kept growing.
	ctx, stopSignal := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stopSignal()
	ctx, cancel := analysis.Limits{Timeout: o.timeout}.Context(ctx)
	defer cancel()
	sys, err := analysis.Within(ctx, file, "loading", analysis.Limits{Timeout: o.timeout}, func() (*gsst.System, error) {
		return loadInstance(cmd, o.file, o.sizes, o.params, "explore")
	})
	if err != nil {
		return err
	}
	sys, err = selectProperties(file, sys, o.properties)
	if err != nil {
		return err
	}
	req, err := modelRequest(cmd, file, level, o.force, o.timeout)
	if err != nil {
		return err
	}
	req.Limits.MaxStates, req.Limits.MaxMemory = o.maxStates, mem
	warned := false
	req.Progress = func(ev progress.Event) {
		if ev.Note != "" && !warned {
			// Said at once, while the search goes on: it may never end.
			warned = true
			fmt.Fprintf(cmd.ErrOrStderr(), "vsym: warning: %s: %s\n", file, ev.Note)
		}
		prog.report(ev)
	}
	bdd := symbolic.DefaultBDD()
	bdd.Order = order
	x, err := analysis.Explore(ctx, sys, analysis.ExploreRequest{
		ModelRequest: req, Engine: engineName, BDD: bdd, Choose: o.choose,
		CountStates: o.count, Bound: o.bound, Deadlocks: o.deadlocks, NoTraces: o.noTraces,
	})
	prog.stop()
	if err != nil {
		return err
	}
	rep := x.Report
	describeOutput(cmd, "the exploration report of "+sys.Name)
	view := newExploreReport(file, x, o.maxTrace, o.allowNoFairRun)
	for i := range view.Properties {
		view.Properties[i].Expected = expectedText(cmd, view.Properties[i].Name)
	}
	view.NotStated = notStated(cmd)
	switch o.output {
	case "sarif":
		if err := writeExploreSARIF(cmd, file, sys, view); err != nil {
			return err
		}
	case "json":
		if err := writeJSON(stdout, view); err != nil {
			return err
		}
	default:
		writeReport(stdout, sys, view, o.deadlocks)
		writeNotStated(stdout, view.NotStated)
	}
	if x.NoFairRun() {
		if !o.allowNoFairRun {
			fmt.Fprintf(stderr, "vsym: %s: %s; fix the fairness constraints, or accept this with --allow-no-fair-run\n", file, noFairRun)
		} else {
			fmt.Fprintf(stderr, "vsym: warning: %s: %s (accepted: --allow-no-fair-run)\n", file, noFairRun)
		}
	}
	switch verdict := x.Verdict(o.allowNoFairRun); {
	case x.NoFairRun() && !o.allowNoFairRun:
	case !rep.Exact && verdict == analysis.Unknown:
		fmt.Fprintf(stderr, "vsym: warning: the model over-approximates an uncertified system; these results are inconclusive (exit 3):\n  %s\n", strings.Join(x.Inconclusive(), "\n  "))
	case !rep.Exact:
		fmt.Fprintln(stderr, "vsym: note: the model over-approximates an uncertified system; every property checked is universal (ACTL) and holds on it, so it holds in the system")
	case !x.Fails() && x.DeadlockReachable():
		fmt.Fprintf(stderr, "vsym: %s: a deadlock is reachable (--deadlock-free)\n", file)
	}
	answer(cmd, x.Verdict(o.allowNoFairRun))
	return nil
}

// noFairRun is the finding that the fairness constraints exclude every
// run (docs/fairness.md).
const noFairRun = "no fair run from the initial state: the fairness constraints exclude every run, so every property holds vacuously"

// parseSize reads a byte size: a number with an optional unit K, M, G or
// T (binary multiples; "KB", "KiB" and "k" mean the same).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty size")
	}
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToUpper(strings.TrimSpace(t[i:]))
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || x < 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I")
	mult := map[string]float64{"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("bad size %q (use a number with K, M, G or T)", s)
	}
	v := x * mult
	if v > 1<<62 {
		return 0, fmt.Errorf("size %q too large", s)
	}
	return int64(v), nil
}

// engineFor returns the engine --engine names, refusing the BDD engine's
// tuning flags with the explicit engine (they would be ignored) and
// letting them pick the BDD engine under auto.
func engineFor(cmd *cobra.Command, o *exploreOpts) (string, error) {
	var bddFlags []string
	for _, name := range []string{"bdd-no-reach", "bdd-order"} {
		if cmd.Flags().Changed(name) {
			bddFlags = append(bddFlags, "--"+name)
		}
	}
	switch {
	case len(bddFlags) == 0:
		return o.engine, nil
	case o.engine == "explicit":
		return "", errkind.Errorf(errkind.Input, "%s tunes the BDD engine and has no meaning with --engine explicit", strings.Join(bddFlags, " and "))
	case o.engine == "auto":
		return "bdd", nil
	}
	return o.engine, nil
}

// writeReport prints an exploration report for people.
func writeReport(w io.Writer, sys *gsst.System, r *exploreReportJSON, deadlocks bool) {
	rep := r.Report
	fmt.Fprintf(w, "%s: %s: %s-counter model\n", r.File, rep.System, rep.Model)
	if r.ModelReason != "" {
		fmt.Fprintf(w, "model: %s\n", r.ModelReason)
	}
	if !rep.Exact {
		fmt.Fprintln(w, "warning: uncertified system: the counter model over-approximates it; a universal (ACTL) property that holds on it holds in the system, every other verdict is inconclusive")
	}
	if rep.ReachableStates == nil {
		// Counting can cost far more than the properties on a large
		// space (analysis.CountSpace), so it is done on request.
		fmt.Fprintf(w, "reachable states: not counted on a space of more than %d states (--count-states counts them and the deadlocks)\n", analysis.CountSpace)
	} else {
		fmt.Fprintf(w, "reachable states: %v\n", rep.ReachableStates)
	}
	if rep.ConcreteStates != nil {
		fmt.Fprintf(w, "concrete states represented: %v\n", rep.ConcreteStates)
	}
	if rep.Deadlocks != nil {
		fmt.Fprintf(w, "deadlocks: %v\n", rep.Deadlocks)
	}
	if len(rep.Fairness) > 0 {
		fmt.Fprintf(w, "fairness (path quantifiers range over paths meeting each infinitely often): %s\n", strings.Join(rep.Fairness, "; "))
	}
	if r.noFairRun() {
		accepted := " (exit 1; --allow-no-fair-run accepts it)"
		if r.allowNoFairRun {
			accepted = " (accepted: --allow-no-fair-run)"
		}
		fmt.Fprintf(w, "%s%s\n", noFairRun, accepted)
	}
	if deadlocks && rep.DeadlockFree != nil {
		verdict := "holds"
		if !*rep.DeadlockFree {
			verdict = "FAILS"
		}
		fmt.Fprintf(w, "deadlock-free (--deadlock-free): %s\n", verdict)
	}
	for i, s := range rep.DeadlockExamples {
		fmt.Fprintf(w, "  deadlock: %s\n", formatState(sys, s))
		if i < len(r.DeadlockTraces) {
			writeTraceIndent(w, sys, r.DeadlockTraces[i], "    ", r.maxTrace)
		}
	}
	for _, p := range r.Properties {
		verdict := "holds"
		switch {
		case p.Vacuous:
			verdict = "holds vacuously: no fair path starts in the initial state"
		case !p.Holds:
			verdict = "FAILS"
		}
		if p.Inconclusive != "" {
			verdict += " on the over-approximation; inconclusive for the system: " + p.Inconclusive
		} else if !rep.Exact {
			verdict += " (universal: it holds in the system too)"
		}
		if p.Expected != "" {
			verdict += " (expected: " + p.Expected + ")"
		}
		fmt.Fprintf(w, "property %s: %s: %s\n", p.Name, p.Text, verdict)
		if p.reliesOnPrecedence {
			fmt.Fprintf(w, "  parsed as: %s\n", p.Parsed)
		}
		if p.Trace != nil {
			writeTrace(w, sys, p.Trace, r.maxTrace)
		}
	}
}

func formatState(sys *gsst.System, s explore.State) string {
	return sys.FormatConfig(s.Counters, s.Groups, s.Shared)
}

func writeTrace(w io.Writer, sys *gsst.System, tr *traceJSON, maxTrace int) {
	writeTraceIndent(w, sys, tr, "  ", maxTrace)
	for i, b := range tr.Branches {
		fmt.Fprintf(w, "  branch %d (explains another part of the formula, from the initial state):\n", i+1)
		writeTraceIndent(w, sys, b, "    ", maxTrace)
	}
}

func writeTraceIndent(w io.Writer, sys *gsst.System, tr *traceJSON, in string, maxTrace int) {
	shape := "path"
	if tr.Loop >= 0 {
		shape = "lasso"
	}
	fmt.Fprintf(w, "%s%s (%s of %d states", in, tr.Kind, shape, tr.Length)
	if tr.Omitted != nil {
		fmt.Fprintf(w, ", %d shown: --max-trace %d", len(tr.States), maxTrace)
	}
	fmt.Fprintln(w, "):")
	for k, s := range tr.States {
		i := tr.Omitted.original(k)
		if tr.Omitted != nil && i == tr.Omitted.From+tr.Omitted.Count {
			fmt.Fprintf(w, "%s  ... states %d to %d not shown\n", in, tr.Omitted.From, i-1)
		}
		mark := ""
		if i == tr.Loop {
			mark = "  <- loop start"
		}
		fmt.Fprintf(w, "%s  %d: %s%s\n", in, i, formatState(sys, s), mark)
	}
	if tr.Loop >= 0 {
		fmt.Fprintf(w, "%s  then back to state %d, forever\n", in, tr.Loop)
	}
	if len(tr.Segments) > 0 {
		fmt.Fprintf(w, "%sexplanation:\n", in)
		for _, sg := range tr.Segments {
			fmt.Fprintf(w, "%s  %s\n", in, describeSegment(sg, tr.Loop))
		}
	}
	l := tr.Lifted
	if l == nil {
		return
	}
	fmt.Fprintf(w, "%sreplay on the unreduced system (processes numbered from 0 within each group, initially placed in state order):\n", in)
	for k, s := range l.Steps {
		i := l.Omitted.original(k)
		if l.Omitted != nil && i == l.Omitted.From+l.Omitted.Count {
			fmt.Fprintf(w, "%s  ... steps %d to %d not shown\n", in, l.Omitted.From+1, i)
		}
		fmt.Fprintf(w, "%s  %d. %s\n", in, i+1, s)
	}
	if l.Loop >= 0 {
		fmt.Fprintf(w, "%s  then repeat from step %d, forever\n", in, l.Loop+1)
	}
	if l.Error != "" {
		fmt.Fprintf(w, "%s  lifting stopped: %s\n", in, l.Error)
	}
}

// describeSegment says in words what one segment of a trace shows.
func describeSegment(sg explore.Segment, loop int) string {
	span := fmt.Sprintf("states %d-%d", sg.Start, sg.End)
	if sg.Start == sg.End {
		span = fmt.Sprintf("state %d", sg.Start)
	}
	truth := func(holds bool) string {
		if holds {
			return "holds"
		}
		return "fails"
	}
	claim := fmt.Sprintf("%s: %s %s", span, sg.Formula, truth(sg.Holds))
	switch sg.Kind {
	case explore.PathSegment:
		return fmt.Sprintf("%s: a shortest path to a state where %s %s", claim, sg.Target, truth(sg.TargetHolds))
	case explore.RunSegment:
		return fmt.Sprintf("%s: a path to a state where %s %s", claim, sg.Target, truth(sg.TargetHolds))
	case explore.StepSegment:
		return fmt.Sprintf("%s: a step to a state where %s %s", claim, sg.Target, truth(sg.TargetHolds))
	case explore.LassoSegment:
		if loop == sg.End && sg.Start == sg.End {
			return fmt.Sprintf("%s: a deadlock, where %s %s and the run stutters forever", claim, sg.Target, truth(sg.TargetHolds))
		}
		if loop == sg.End {
			// A one-state cycle is a deadlock's stutter step.
			return fmt.Sprintf("%s: a path on which %s %s, into a deadlock that stutters forever", claim, sg.Target, truth(sg.TargetHolds))
		}
		return fmt.Sprintf("%s: a run on which %s %s forever (a lasso looping back to state %d)", claim, sg.Target, truth(sg.TargetHolds), loop)
	case explore.FairContinuation:
		return fmt.Sprintf("%s: the run continues fairly (its cycle meets every fairness constraint)", span)
	}
	return claim
}
