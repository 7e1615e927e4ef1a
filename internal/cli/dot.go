package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/dot"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/progress"
	"github.com/vsym/vsym/prove"
)

func init() { register("dot", newDotCmd) }

type dotOpts struct {
	file     string
	out      string
	check    bool
	trace    string
	concrete bool
	level    string
	full     bool
	maxTrace int           // --max-trace: configurations drawn, 0 for the default
	timeout  time.Duration // --timeout: the whole run
	solverTO time.Duration // --solver-timeout: each solver call of --check
	sizes    string
	params   string
}

func newDotCmd() *cobra.Command {
	o := &dotOpts{}
	cmd := &cobra.Command{
		Use:   "dot FILE",
		Short: "Draw the skeleton of a GSST, or a trace, as a Graphviz picture",
		Long: `Dot writes a Graphviz DOT graph to standard output:

  vsym dot FILE                   the skeleton: local states as nodes, local
                                  transitions as edges labelled with their
                                  guard per group
  vsym dot --check FILE           the same, each transition, rendezvous and
                                  environment step coloured by its
                                  certification verdict (as vsym check), a
                                  violated one with its witness
  vsym dot --trace PROPERTY FILE  the counterexample or witness of a property
                                  (as vsym explore finds it) as a column of
                                  configurations joined by process moves

With -o FILE.svg, -o FILE.png or -o FILE.pdf it renders the picture with
the dot program of Graphviz, which must be on PATH; -o FILE.dot (or .gv)
writes the DOT text. Without Graphviz, render the text yourself:

  vsym dot specs/readers-writers.yaml | dot -Tsvg > rw.svg

Long guards, long lists of groups and long traces are abbreviated, and
the picture says so; --full draws everything. In SVG every edge has a
tooltip with its whole guard (and, with --check, the verdict and
witness). --trace explores the counter abstraction of a certified system,
or with --concrete the unreduced system (any system), of one instance: a
spec whose group sizes are ranges, or that has parameters, needs --sizes
or --params, and without them dot names an instance (where vsym prove
refutes the property, when it does). The exit code is 0
when the picture is written, whatever verdict it shows; 3 when --timeout,
a bound on the whole run, runs out first. docs/pictures.md describes the
pictures.

` + exitHelp,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runDot(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "out", "o", "", "write to this file: .svg, .png or .pdf renders with Graphviz's dot, .dot or .gv writes DOT text")
	f.BoolVar(&o.check, "check", false, "certify with Z3 and colour each transition by its verdict")
	f.StringVar(&o.trace, "trace", "", "draw the counterexample or witness of this property")
	f.BoolVar(&o.concrete, "concrete", false, "with --trace: explore the unreduced system with group-sorted states (--model group)")
	f.StringVar(&o.level, "model", "auto", "with --trace: "+levelFlag)
	f.BoolVar(&o.full, "full", false, "draw every guard, group and configuration in full, without abbreviating")
	f.IntVar(&o.maxTrace, "max-trace", 0, "with --trace: draw at most N configurations, the first N/2 and the last N/2 (a lasso's loop start among them), the others as one node; 0: up to 40, and the first round of a lasso that goes round its loop more than once")
	f.StringVar(&o.sizes, "sizes", "", "draw the instance of these sizes of a spec whose group sizes are ranges (as group=k,...); --trace needs it for such a spec, which is otherwise drawn as the family of every size")
	f.StringVar(&o.params, "params", "", "draw the instance of these parameter values of a spec with parameters (as name=k,...); --trace needs it for such a spec")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30s; 0 means no bound")
	f.DurationVar(&o.solverTO, "solver-timeout", 0, "with --check: bound on each solver call, e.g. 30s (0: none); a transition whose call runs out is drawn as unknown")
	return cmd
}

func runDot(cmd *cobra.Command, o *dotOpts) error {
	switch {
	case o.check && o.trace != "":
		return errkind.Errorf(errkind.Input, "--check draws the skeleton and --trace a trace: give one of them")
	case o.concrete && o.trace == "":
		return errkind.Errorf(errkind.Input, "--concrete applies to --trace")
	case o.maxTrace != 0 && o.trace == "":
		return errkind.Errorf(errkind.Input, "--max-trace applies to --trace")
	case o.solverTO != 0 && !o.check:
		return errkind.Errorf(errkind.Input, "--solver-timeout applies to --check")
	case o.maxTrace != 0 && o.full:
		return errkind.Errorf(errkind.Input, "--full and --max-trace exclude each other")
	}
	if err := checkMaxTrace(o.maxTrace, "abbreviate as usual"); err != nil {
		return err
	}
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	if err := checkFlagTimeout("--solver-timeout", o.solverTO); err != nil {
		return err
	}
	format := "dot"
	if o.out != "" {
		var ok bool
		if format, ok = dot.FormatOf(o.out); !ok {
			return errkind.Errorf(errkind.Input, "-o %s: unknown picture format %q (want .svg, .png, .pdf, or .dot for DOT text)", o.out, format)
		}
		if sameFile(o.out, o.file) {
			return errkind.Errorf(errkind.Input, "-o %s would overwrite the input spec", o.out)
		}
	}
	prog := startProgress(cmd)
	defer prog.stop()
	// --timeout bounds the whole run from here, loading included, as it
	// does for every command; --solver-timeout each solver call of
	// --check (a call that runs out leaves its transition unknown, drawn
	// as such), cut by what remains of the run.
	ctx, cancel := commandContext(cmd, o.timeout)
	defer cancel()
	limits := analysis.Limits{Timeout: o.timeout}
	// A spec with ranges of sizes is a family: the skeleton can show it,
	// a trace needs one instance (--sizes).
	prog.phase(progress.Parse)
	sys, err := analysis.Within(ctx, o.file, "loading", limits, func() (*gsst.System, error) {
		if o.sizes != "" || o.params != "" {
			return loadInstance(cmd, o.file, o.sizes, o.params, "dot --trace")
		}
		return loadSpec(cmd, o.file)
	})
	if err != nil {
		return err
	}
	if o.trace != "" && o.sizes == "" && o.params == "" && len(instanceExample(sys)) > 0 {
		return traceFamily(ctx, o, sys, prog.report)
	}
	opts := []dot.Option{dot.Source(o.file)}
	if o.full {
		opts = append(opts, dot.Full())
	}
	if o.maxTrace > 0 {
		opts = append(opts, dot.MaxConfigs(o.maxTrace))
	}
	var text string
	switch {
	case o.trace != "":
		text, err = dotTrace(ctx, cmd, o, sys, opts, prog.report)
	case o.check:
		var c *analysis.Certification
		c, err = analysis.Certify(ctx, sys, analysis.CertifyRequest{File: o.file, SolverTimeout: o.solverTO, Limits: limits, Progress: prog.report})
		if err != nil {
			// The solver failed, a witness did not survive
			// re-verification, or --timeout ran out: no verdicts to
			// draw.
			return err
		}
		text, err = dot.Skeleton(sys, append(opts, dot.Verdicts(c.Report))...)
	default:
		text, err = dot.Skeleton(sys, opts...)
	}
	prog.stop()
	if err != nil {
		return err
	}
	return writePicture(cmd, o, format, text)
}

// traceFamily explains that a trace needs one instance of the family
// sys, and names one with the command that draws it: for a property
// vsym prove refutes, the instance where prove finds it failing; for one
// it proves, none (no instance has a counterexample); otherwise the
// least sizes. Progress goes to report.
func traceFamily(ctx context.Context, o *dotOpts, sys *gsst.System, report progress.Func) error {
	i := slices.IndexFunc(sys.Properties, func(p gsst.Property) bool { return p.Name == o.trace })
	if i < 0 {
		return noProperty(o.file, sys, o.trace)
	}
	file := displayName(o.file)
	what := "group sizes are ranges (" + strings.Join(sys.RangedGroups(), ", ") + ")"
	if free := paramNames(sys); len(free) > 0 {
		what = "the spec has " + parametersNamed(free)
	}
	// at returns the command line of o drawing the instance of sizes and
	// params.
	at := func(sizes, params string) string {
		inst := *o
		inst.sizes, inst.params = sizes, params
		return dotCommandLine(&inst, true)
	}
	proof, err := analysis.Prove(ctx, sys.WithProperties(i), analysis.ProveRequest{File: file,
		Limits: analysis.Limits{Timeout: o.timeout}, Progress: report})
	if err != nil {
		return err
	}
	switch r := proof.Results[0]; r.Verdict {
	case prove.Refuted:
		params := namedValues(len(sys.Params), func(k int) (string, int, bool) {
			return sys.Params[k].Name, r.Params[k], !sys.Params[k].Fixed
		})
		sizes := namedValues(len(sys.Groups), func(g int) (string, int, bool) {
			return sys.Groups[g].Name, r.Sizes[g], sys.Groups[g].Ranged
		})
		var values []string
		for _, v := range []string{params, sizes} {
			if v != "" {
				values = append(values, v)
			}
		}
		return analysis.Errorf(errkind.Input, gsst.Pos{File: file}, "%s; dot --trace draws one instance: vsym prove refutes %s at %s, draw it with: %s",
			what, o.trace, strings.Join(values, ", "), at(sizes, params))
	case prove.Proved:
		return analysis.Errorf(errkind.Input, gsst.Pos{File: file}, "%s; dot --trace draws one instance, but vsym prove proves %s for every one: no instance has a counterexample to draw",
			what, o.trace)
	}
	return analysis.Errorf(errkind.Input, gsst.Pos{File: file}, "%s; dot --trace draws one instance: name it, e.g. %s",
		what, at(sizesExample(sys), paramsExample(sys)))
}

// namedValues writes the values named by at(k) for k below n, those it
// keeps, as name=value,... (the form of --sizes and --params).
func namedValues(n int, at func(k int) (name string, value int, keep bool)) string {
	var parts []string
	for k := range n {
		if name, v, keep := at(k); keep {
			parts = append(parts, fmt.Sprintf("%s=%d", name, v))
		}
	}
	return strings.Join(parts, ",")
}

// noProperty says that sys has no property named name.
func noProperty(file string, sys *gsst.System, name string) error {
	var names []string
	for _, p := range sys.Properties {
		names = append(names, p.Name)
	}
	return analysis.Errorf(errkind.Input, gsst.Pos{File: file}, "no property named %q (have: %s)", name, strings.Join(names, ", "))
}

// dotTrace explores sys as vsym explore does, for the one property named
// by --trace, and draws its trace. Progress goes to report.
func dotTrace(ctx context.Context, cmd *cobra.Command, o *dotOpts, sys *gsst.System, opts []dot.Option, report progress.Func) (string, error) {
	var prop *gsst.Property
	for i := range sys.Properties {
		if sys.Properties[i].Name == o.trace {
			prop = &sys.Properties[i]
		}
	}
	if prop == nil {
		return "", noProperty(o.file, sys, o.trace)
	}
	mem, err := parseSize(defaultMaxMemory)
	if err != nil {
		return "", err
	}
	one, err := selectProperties(o.file, sys, []string{prop.Name})
	if err != nil {
		return "", err
	}
	level := o.level
	if o.concrete {
		level = "group"
	}
	req, err := modelRequest(cmd, o.file, level, false, o.timeout)
	if err != nil {
		return "", err
	}
	req.Limits.MaxMemory = mem
	req.Progress = report
	x, err := analysis.Explore(ctx, one, analysis.ExploreRequest{ModelRequest: req, Engine: "auto", BDD: symbolic.DefaultBDD(),
		// As explore.NewConfig's defaults, which dot has always used: the
		// BDD engine computes the reachable states first.
		CountStates: true})
	if err != nil {
		return "", err
	}
	for _, res := range x.Report.Properties {
		if res.Name != prop.Name {
			continue
		}
		if res.Trace == nil {
			verdict := "holds"
			if !res.Holds {
				verdict = "fails"
			}
			return "", analysis.Errorf(errkind.Input, gsst.Pos{File: o.file}, "property %s %s, and there is no trace to draw: vsym finds a counterexample to a failed AG, AX, AF or A[U] and a witness of a holding EF, EX, EG or E[U]", prop.Name, verdict)
		}
		text, err := dot.Trace(sys, res.Trace, append(opts, dot.ForProperty(*prop))...)
		if err != nil {
			return "", errkind.Wrap(errkind.Internal, err)
		}
		return text, nil
	}
	return "", analysis.Errorf(errkind.Internal, prop.Pos, "the engine reported no verdict on property %s", prop.Name)
}

// writePicture writes DOT text to stdout, or to o.out as DOT text or as a
// picture rendered by Graphviz.
func writePicture(cmd *cobra.Command, o *dotOpts, format, text string) error {
	if o.out == "" {
		if _, err := fmt.Fprint(cmd.OutOrStdout(), text); err != nil {
			return errkind.Wrap(errkind.Unknown, err)
		}
		return nil
	}
	data := []byte(text)
	if format != "dot" {
		ctx, cancel := commandContext(cmd, 0)
		defer cancel()
		var err error
		data, err = dot.Render(ctx, text, format)
		if errors.Is(err, dot.ErrNoGraphviz) {
			return errkind.Errorf(errkind.Input, "cannot write %s: %v; install Graphviz (Debian and Ubuntu: apt-get install graphviz), or write the DOT text and render it elsewhere: %s | %s > %s",
				o.out, err, dotCommandLine(o, false), shellCommand("dot", "-T"+format), shellQuote(o.out))
		}
		if err != nil {
			return errkind.Wrap(errkind.Unknown, err)
		}
	}
	if err := os.WriteFile(o.out, data, 0o644); err != nil {
		return errkind.Wrap(errkind.Input, err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "vsym: wrote %s (%d bytes)\n", o.out, len(data))
	return nil
}

// checkMaxTrace rejects a --max-trace below 2 other than 0, which means
// what zero says.
func checkMaxTrace(n int, zero string) error {
	if n < 0 || n == 1 {
		return errkind.Errorf(errkind.Input, "--max-trace must be at least 2 (the first and the last state), or 0 to %s", zero)
	}
	return nil
}

// dotCommandLine rebuilds the command line of o, quoted for the shell:
// with its -o when out is set, else the command that prints its DOT
// text.
func dotCommandLine(o *dotOpts, out bool) string {
	args := []string{"vsym", "dot"}
	if o.check {
		args = append(args, "--check")
	}
	if o.trace != "" {
		args = append(args, "--trace", o.trace)
	}
	if o.concrete {
		args = append(args, "--concrete")
	}
	if o.level != "" && o.level != "auto" {
		args = append(args, "--model", o.level)
	}
	if o.sizes != "" {
		args = append(args, "--sizes", o.sizes)
	}
	if o.params != "" {
		args = append(args, "--params", o.params)
	}
	if o.full {
		args = append(args, "--full")
	}
	if o.maxTrace > 0 {
		args = append(args, "--max-trace", fmt.Sprint(o.maxTrace))
	}
	if o.timeout > 0 {
		args = append(args, "--timeout", o.timeout.String())
	}
	if o.solverTO > 0 {
		args = append(args, "--solver-timeout", o.solverTO.String())
	}
	if out && o.out != "" {
		args = append(args, "-o", o.out)
	}
	return shellCommand(append(args, o.file)...)
}
