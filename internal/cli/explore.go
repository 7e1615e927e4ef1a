package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
)

func init() { register(newExploreCmd) }

type exploreOpts struct {
	file       string
	concrete   bool
	force      bool
	output     string
	engine     string
	maxStates  int64
	maxMemory  string
	timeout    time.Duration
	properties []string
	bddOrder   string // --bdd-order (BDD engine)
	bddNoReach bool   // --bdd-no-reach (BDD engine)
}

// exploreLimits are the engine-independent settings of one exploration.
type exploreLimits struct {
	MaxStates  int64                  // 0: none
	MaxMemory  int64                  // bytes; 0: none
	Progress   func(explore.Progress) // nil: no progress display
	Properties []string               // nil: all properties
	BDD        []symbolic.Option      // settings of the BDD engine
}

// abstractEngine checks a counter model. Engines register themselves in
// abstractEngines (the BDD engine adds "bdd" from a file of its own).
type abstractEngine func(ctx context.Context, m *counterabs.Model, lim exploreLimits) (*explore.Report, error)

var abstractEngines = map[string]abstractEngine{
	"explicit": func(ctx context.Context, m *counterabs.Model, lim exploreLimits) (*explore.Report, error) {
		return explore.CheckAbstract(ctx, m, explicitOptions(lim)...)
	},
}

// autoEngine picks the engine for --engine auto; engines may replace it.
var autoEngine = func(m *counterabs.Model) string { return "explicit" }

func explicitOptions(lim exploreLimits) []explore.Option {
	opts := []explore.Option{explore.MaxStates(lim.MaxStates), explore.MaxMemory(lim.MaxMemory)}
	if lim.Progress != nil {
		opts = append(opts, explore.OnProgress(time.Second, lim.Progress))
	}
	if lim.Properties != nil {
		opts = append(opts, explore.Properties(lim.Properties...))
	}
	return opts
}

// defaultMaxMemory bounds the search when --max-memory is not given, so a
// large model stops with exit code 3 instead of exhausting the machine.
const defaultMaxMemory = "4GiB"

func newExploreCmd() *cobra.Command {
	o := &exploreOpts{}
	cmd := &cobra.Command{
		Use:   "explore FILE",
		Short: "Explore the state space and model check the CTL properties",
		Long: `Explore builds the reachable state space of a GSST and checks its CTL
properties, with counterexamples and witnesses lifted to process moves.

By default it certifies full virtual symmetry and explores the counter
abstraction (exact for certified systems). An uncertified system is
refused unless --force is given (results are then not exact and the exit
code is 3). With --concrete it explores the unreduced system instead,
canonicalized by sorting each group's processes; that works for any GSST.

` + exitHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return exploreSARIFOnError(cmd, o, runExplore(cmd, o))
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.concrete, "concrete", false, "explore the unreduced system (group-sorted states) instead of the counter abstraction")
	f.BoolVar(&o.force, "force", false, "explore the counter abstraction of an uncertified system anyway (results not exact)")
	f.StringVarP(&o.output, "output", "o", "text", "output format: text, json or sarif (SARIF 2.1.0, for code scanning: docs/ci.md)")
	f.StringVar(&o.engine, "engine", "auto", "engine for the counter abstraction: "+engineNames()+" or auto")
	f.Int64Var(&o.maxStates, "max-states", 0, "stop (exit 3) when more states are reachable (explicit engine: as soon as it has stored this many); 0 means no bound")
	f.StringVar(&o.maxMemory, "max-memory", defaultMaxMemory, "stop (exit 3) when the state store would exceed this size (e.g. 512MiB, 2G); 0 means no bound")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30s; 0 means no bound")
	f.StringSliceVarP(&o.properties, "property", "p", nil, "check only the named properties (repeatable, comma-separated)")
	f.StringVar(&o.bddOrder, "bdd-order", "auto", "BDD variable order: auto, interleaved, blocked or split (see docs/symbolic.md)")
	f.BoolVar(&o.bddNoReach, "bdd-no-reach", false, "BDD engine: decide properties without computing reachable states first (no state counts)")
	return cmd
}

func engineNames() string {
	var names []string
	for n := range abstractEngines {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func runExplore(cmd *cobra.Command, o *exploreOpts) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if err := checkOutputFormatSARIF(o.output); err != nil {
		return err
	}
	mem, err := parseSize(o.maxMemory)
	if err != nil {
		return withCode(ExitBadInput, fmt.Errorf("--max-memory: %v", err))
	}
	if o.maxStates < 0 {
		return withCode(ExitBadInput, fmt.Errorf("--max-states must not be negative"))
	}
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	if _, ok := abstractEngines[o.engine]; !ok && o.engine != "auto" {
		return withCode(ExitBadInput, fmt.Errorf("unknown engine %q (want %s or auto)", o.engine, engineNames()))
	}
	if o.concrete && o.engine != "explicit" && o.engine != "auto" {
		return withCode(ExitBadInput, fmt.Errorf("--concrete works with the explicit engine only"))
	}
	if o.bddNoReach && o.maxStates > 0 {
		return withCode(ExitBadInput, errors.New("--max-states bounds the reachable states, which --bdd-no-reach does not compute"))
	}
	if o.concrete && o.force {
		return withCode(ExitBadInput, errors.New("--force applies to the counter abstraction; the unreduced system (--concrete) needs no certification"))
	}
	sys, err := loadSystem(o.file)
	if err != nil {
		return err
	}
	lim := exploreLimits{MaxStates: o.maxStates, MaxMemory: mem}
	order, err := symbolic.ParseOrder(o.bddOrder)
	if err != nil {
		return withCode(ExitBadInput, fmt.Errorf("--bdd-order: %v", err))
	}
	lim.BDD = []symbolic.Option{symbolic.WithOrder(order), symbolic.WithReachable(!o.bddNoReach)}
	if len(o.properties) > 0 {
		for _, name := range o.properties {
			if !hasProperty(sys, name) {
				return withCode(ExitBadInput, fmt.Errorf("%s: no property named %q", o.file, name))
			}
		}
		// Each property once, in the order first named: -p a -p a must
		// not report a twice.
		for _, name := range o.properties {
			if !slices.Contains(lim.Properties, name) {
				lim.Properties = append(lim.Properties, name)
			}
		}
	}
	ctx, cancel := commandContext(cmd, o.timeout)
	defer cancel()
	prog := newProgress(stderr)
	lim.Progress = prog.show

	var rep *explore.Report
	if o.concrete {
		rep, err = explore.CheckConcrete(ctx, sys, explicitOptions(lim)...)
	} else {
		var m *counterabs.Model
		m, _, err = certifyAndBuild(ctx, sys, modelRequest{
			File: o.file, Timeout: o.timeout, Force: o.force, Stderr: stderr,
			Refuse:  "use --concrete to explore the unreduced system, or --force to explore the (inexact) counter abstraction",
			Forced:  "exploring the counter abstraction anyway (--force): results are not exact",
			Recheck: "use --concrete or --force",
		})
		if err != nil {
			return err
		}
		engine := o.engine
		if engine == "auto" {
			engine = autoEngine(m)
		}
		run, ok := abstractEngines[engine]
		if !ok {
			return withCode(ExitBadInput, fmt.Errorf("unknown engine %q", engine))
		}
		rep, err = run(ctx, m, lim)
	}
	prog.done()
	if err != nil {
		return exploreError(ctx, err, o)
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
		writeReport(stdout, sys, rep)
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

func hasProperty(sys *gsst.System, name string) bool {
	for _, p := range sys.Properties {
		if p.Name == name {
			return true
		}
	}
	return false
}

func exploreError(ctx context.Context, err error, o *exploreOpts) error {
	switch {
	case explore.IsLimit(err):
		return limitError(o.file, err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled), ctx.Err() != nil:
		return stoppedError(ctx, o.file, "exploration", o.timeout)
	}
	return withCode(ExitBadInput, fmt.Errorf("%s: %v", o.file, err))
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

// writeReport prints rep for people.
func writeReport(w io.Writer, sys *gsst.System, rep *explore.Report) {
	model := "counter abstraction"
	if rep.Mode == explore.Concrete {
		model = "unreduced system, group-sorted states"
	}
	fmt.Fprintf(w, "%s: %s engine, %s\n", rep.System, rep.Engine, model)
	if !rep.Exact {
		fmt.Fprintln(w, "warning: uncertified system: the counter model over-approximates it; results are not exact")
	}
	if rep.ReachableStates == nil {
		// The BDD engine with --bdd-no-reach decides properties without
		// computing the reachable states, so there are no counts.
		fmt.Fprintln(w, "reachable states: not computed (--bdd-no-reach)")
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
