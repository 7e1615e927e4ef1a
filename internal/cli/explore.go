package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
)

func init() { register(newExploreCmd) }

type exploreOpts struct {
	sizes      string
	file       string
	level      string
	concrete   bool
	force      bool
	output     string
	engine     string
	maxStates  int64
	maxMemory  string
	timeout    time.Duration
	properties []string
	bddOrder   string // --bdd-order (BDD engine)
	bddNoReach bool   // --bdd-no-reach: deprecated, the default
	count      bool   // --count-states

	// choose picks the engine; nil means chooseEngine. It is the one
	// seam through which tests put an engine double behind the command
	// (to see that an engine's internal error exits 3, not 2); vsym
	// itself never sets it.
	choose func(name string, m *counterabs.Model, bdd symbolic.BDD) (explore.Engine, error)
}

// autoBDDThreshold is the counter-space size (Model.CounterSpace) above
// which --engine auto picks the BDD engine. Measured (docs/symbolic.md):
// the explicit engine stores and expands states at a few million per
// second, while the BDD engine's cost on these models is dominated by a
// fixed setup of some tens of milliseconds and grows with the BDD sizes,
// not the state count. On GR&W (m = 10) the two meet between 92,378
// counter vectors (n = 10: both 0.02 s of CPU) and 293,930 (n = 12: 0.07 s
// against 0.06 s); at 1.3 million (n = 15) the BDD engine is five times
// faster.
const autoBDDThreshold = 200_000

// engineNames lists the values of --engine.
const engineNames = "explicit, bdd or auto"

// chooseEngine returns the engine --engine name selects for m: the
// explicit engine, the BDD engine with the given tuning, or for auto the
// BDD engine when m's counter space exceeds autoBDDThreshold.
func chooseEngine(name string, m *counterabs.Model, bdd symbolic.BDD) (explore.Engine, error) {
	switch name {
	case "explicit":
		return explore.Explicit{}, nil
	case "bdd":
		return bdd, nil
	case "auto":
		if m.CounterSpace() > autoBDDThreshold {
			return bdd, nil
		}
		return explore.Explicit{}, nil
	}
	return nil, errkind.Errorf(errkind.Input, "unknown engine %q (want %s)", name, engineNames)
}

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
over-approximates it (results not exact, exit code 3).

` + exitHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return exploreSARIFOnError(cmd, o, runExplore(cmd, o))
		},
	}
	f := cmd.Flags()
	addSizesFlag(f, &o.sizes)
	f.StringVar(&o.level, "model", "auto", levelFlag)
	f.BoolVar(&o.concrete, "concrete", false, "explore the unreduced system with group-sorted states: the same as --model group")
	f.BoolVar(&o.force, "force", false, "explore the total-counter model of an uncertified system anyway (results not exact)")
	f.StringVarP(&o.output, "output", "o", "text", "output format: text, json or sarif (SARIF 2.1.0, for code scanning: docs/ci.md)")
	f.StringVar(&o.engine, "engine", "auto", "engine: "+engineNames)
	f.Int64Var(&o.maxStates, "max-states", 0, "stop (exit 3) when more states are reachable (explicit engine: as soon as it has stored this many); 0 means no bound")
	f.StringVar(&o.maxMemory, "max-memory", defaultMaxMemory, "stop (exit 3) when the state store would exceed this size (e.g. 512MiB, 2G); 0 means no bound")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30s; 0 means no bound")
	f.StringSliceVarP(&o.properties, "property", "p", nil, "check only the named properties (repeatable, comma-separated)")
	f.StringVar(&o.bddOrder, "bdd-order", "auto", "BDD variable order: auto, interleaved, blocked or split (see docs/symbolic.md)")
	f.BoolVar(&o.count, "count-states", false, "count reachable states and deadlocks (the explicit engine always does; the BDD engine then computes the reachable states first)")
	// --bdd-no-reach was the way to skip reachable states before that was
	// the default; it still says "no counts", and is hidden.
	f.BoolVar(&o.bddNoReach, "bdd-no-reach", false, "do not count reachable states (the default)")
	_ = f.MarkHidden("bdd-no-reach")
	return cmd
}

func runExplore(cmd *cobra.Command, o *exploreOpts) error {
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
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	if o.bddNoReach && (o.count || o.maxStates > 0) {
		return errkind.Errorf(errkind.Input, "--bdd-no-reach contradicts --count-states and --max-states, which need the reachable states")
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
	sys, err := loadInstance(o.file, o.sizes, "explore")
	if err != nil {
		return err
	}
	sys, err = selectProperties(o.file, sys, o.properties)
	if err != nil {
		return err
	}
	ctx, cancel := commandContext(cmd, o.timeout)
	defer cancel()
	m, err := buildModel(ctx, sys, modelRequest{File: o.file, Timeout: o.timeout, Level: level, Force: o.force, Stderr: stderr})
	if err != nil {
		return err
	}
	bdd := symbolic.DefaultBDD()
	bdd.Order = order
	choose := o.choose
	if choose == nil {
		choose = chooseEngine
	}
	engine, err := choose(o.engine, m.Model, bdd)
	if err != nil {
		return err
	}
	prog := newProgress(stderr)
	// --max-states bounds the reachable states, so it asks for them.
	rep, err := engine.Check(ctx, m.Model,
		explore.MaxStates(o.maxStates), explore.MaxMemory(mem),
		explore.OnProgress(time.Second, prog.show), explore.CountStates(o.count || o.maxStates > 0))
	prog.done()
	if err != nil {
		if ctx.Err() != nil {
			return stoppedError(ctx, o.file, "exploration", o.timeout)
		}
		return fileError(o.file, err)
	}
	switch o.output {
	case "sarif":
		if err := writeExploreSARIF(cmd, o.file, sys, rep); err != nil {
			return err
		}
	case "json":
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	default:
		writeReport(stdout, sys, m.Reason, rep)
	}
	if !rep.Exact {
		fmt.Fprintln(stderr, "vsym: warning: the model over-approximates an uncertified system; results are not exact (exit 3)")
		return withCode(ExitUnknown, nil)
	}
	for _, p := range rep.Properties {
		if !p.Holds {
			return withCode(ExitNo, nil)
		}
	}
	return nil
}

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

// progress shows a one-line progress display on stderr, only when stderr
// is a terminal (a pipe or file gets no carriage-return clutter).
type progress struct {
	w     io.Writer
	shown bool
}

func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	if !ok {
		return &progress{}
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return &progress{}
	}
	return &progress{w: w}
}

func (p *progress) show(pr explore.Progress) {
	if p.w == nil {
		return
	}
	p.shown = true
	fmt.Fprintf(p.w, "\r%d states, frontier %d, %.0f states/s, %s   ", pr.States, pr.Frontier, pr.Rate(), pr.Elapsed.Round(time.Second))
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// writeReport prints rep for people; reason says why its model was chosen.
func writeReport(w io.Writer, sys *gsst.System, reason string, rep *explore.Report) {
	fmt.Fprintf(w, "%s: %s engine (%s), %s-counter model\n", rep.System, rep.Engine, rep.Method, rep.Model)
	if reason != "" {
		fmt.Fprintf(w, "model: %s\n", reason)
	}
	if !rep.Exact {
		fmt.Fprintln(w, "warning: uncertified system: the counter model over-approximates it; results are not exact")
	}
	if rep.ReachableStates == nil {
		// The BDD engine decides properties backwards, without the
		// reachable states, unless asked for counts.
		fmt.Fprintln(w, "reachable states: not computed (the BDD engine decides properties backwards; --count-states computes them)")
	} else {
		fmt.Fprintf(w, "reachable states: %v\n", rep.ReachableStates)
	}
	if rep.ConcreteStates != nil {
		fmt.Fprintf(w, "concrete states represented: %v\n", rep.ConcreteStates)
	}
	if rep.Deadlocks != nil {
		fmt.Fprintf(w, "deadlocks: %v\n", rep.Deadlocks)
	}
	for _, s := range rep.DeadlockExamples {
		fmt.Fprintf(w, "  deadlock: %s\n", formatState(sys, s))
	}
	for _, p := range rep.Properties {
		verdict := "holds"
		if !p.Holds {
			verdict = "FAILS"
		}
		fmt.Fprintf(w, "property %s: %s: %s\n", p.Name, p.Text, verdict)
		if p.Trace != nil {
			writeTrace(w, sys, p.Trace)
		}
	}
}

func formatState(sys *gsst.System, s explore.State) string {
	var b strings.Builder
	for i, c := range s.Counters {
		if i > 0 {
			b.WriteString(" ")
		}
		name := fmt.Sprint(i)
		if i < len(sys.States) {
			name = sys.States[i]
		}
		fmt.Fprintf(&b, "#%s=%d", name, c)
	}
	if s.Groups != nil {
		b.WriteString("  (")
		for g, row := range s.Groups {
			if g > 0 {
				b.WriteString("; ")
			}
			if g < len(sys.Groups) {
				b.WriteString(sys.Groups[g].Name + ":")
			}
			for i, c := range row {
				if i < len(sys.States) {
					fmt.Fprintf(&b, " %s=%d", sys.States[i], c)
				}
			}
		}
		b.WriteString(")")
	}
	return b.String()
}

func writeTrace(w io.Writer, sys *gsst.System, tr *explore.Trace) {
	shape := "path"
	if tr.Loop >= 0 {
		shape = "lasso"
	}
	fmt.Fprintf(w, "  %s (%s of %d states):\n", tr.Kind, shape, len(tr.States))
	for i, s := range tr.States {
		mark := ""
		if i == tr.Loop {
			mark = "  <- loop start"
		}
		fmt.Fprintf(w, "    %d: %s%s\n", i, formatState(sys, s), mark)
	}
	if tr.Loop >= 0 {
		fmt.Fprintf(w, "    then back to state %d, forever\n", tr.Loop)
	}
	l := tr.Lifted
	if l == nil {
		return
	}
	fmt.Fprintln(w, "  replay on the unreduced system (processes numbered from 0 within each group, initially placed in state order):")
	for i, s := range l.Steps {
		fmt.Fprintf(w, "    %d. %s\n", i+1, s)
	}
	if l.Loop >= 0 {
		fmt.Fprintf(w, "    then repeat from step %d, forever\n", l.Loop+1)
	}
	if l.Error != "" {
		fmt.Fprintf(w, "    lifting stopped: %s\n", l.Error)
	}
}
