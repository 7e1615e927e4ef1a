package cli

import (
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/nusmv"
)

func init() { register(newNusmvCmd) }

type nusmvOpts struct {
	sizes    string
	file     string
	out      string
	level    string
	concrete bool
	force    bool
	timeout  time.Duration
}

func newNusmvCmd() *cobra.Command {
	o := &nusmvOpts{}
	cmd := &cobra.Command{
		Use:   "nusmv FILE",
		Short: "Export a GSST to NuSMV 2.6: its counter abstraction, or the unreduced system",
		Long: `Nusmv writes a NuSMV 2.6 model of a GSST, to standard output or to the
file given with -o.

By default (--model auto) it writes the counter model that explore would
check: the total-counter model when the system is certified fully
virtually symmetric and every property reads total counters only, the
group-counter model otherwise (see "vsym explore --help"). Either has one
bounded counter per local state (per group and local state), an input
variable choosing the transition of each step, one case per counter, and
every property as a named CTLSPEC (and, for AG of a state formula, also
as an INVARSPEC). --force writes the total-counter model of an
uncertified system, with a warning in the model's header: verdicts on
that model are not exact.

With --model concrete (or --concrete) it writes the unreduced system
instead: one variable per process over the local states, input variables
choosing the process and the local transition, and the same properties.
It needs no certification, and none is run: its verdicts are always
exact. All models give the same verdicts where they are exact.

In both models a configuration where nothing can move stutters on itself,
as in vsym's own checkers. See docs/nusmv.md.

` + exitHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runNusmv(cmd, o)
		},
	}
	f := cmd.Flags()
	addSizesFlag(f, &o.sizes)
	f.StringVarP(&o.out, "out", "o", "", "write the model to this file instead of standard output")
	f.StringVar(&o.level, "model", "auto", "model to write: auto, total, group (see vsym explore --help) or concrete (one variable per process)")
	f.BoolVar(&o.concrete, "concrete", false, "write the unreduced system (one variable per process): the same as --model concrete")
	f.BoolVar(&o.force, "force", false, "write the total-counter model of an uncertified system anyway (not exact)")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30s; 0 means no bound")
	return cmd
}

func runNusmv(cmd *cobra.Command, o *nusmvOpts) error {
	stderr := cmd.ErrOrStderr()
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	level := o.level
	if o.concrete {
		if level != "auto" && level != "concrete" {
			return errkind.Errorf(errkind.Input, "--concrete is --model concrete; it cannot be combined with --model %s", level)
		}
		level = "concrete"
	}
	if o.force && (level == "concrete" || level == "group") {
		return errkind.Errorf(errkind.Input, "--force applies to the total-counter model; the %s model is exact and needs no certification", level)
	}
	if o.out != "" && sameFile(o.out, o.file) {
		return errkind.Errorf(errkind.Input, "-o %s would overwrite the input spec", o.out)
	}
	sys, err := loadInstance(o.file, o.sizes, "nusmv")
	if err != nil {
		return err
	}
	ctx, cancel := commandContext(cmd, o.timeout)
	defer cancel()
	opts := []nusmv.Option{nusmv.Source(o.file), nusmv.Version(vsymVersion(cmd))}

	var text, kind string
	if level == "concrete" {
		// The concrete model is exact whatever certification would say,
		// so none is run (it can take far longer than the export).
		opts = append(opts, nusmv.Certification("not checked (the concrete model needs none)"))
		text, err = nusmv.Concrete(sys, opts...)
		kind = "concrete"
	} else {
		var m *chosenModel
		m, err = buildModel(ctx, sys, modelRequest{File: o.file, Timeout: o.timeout, Level: level, Force: o.force, Stderr: stderr})
		if err != nil {
			return err
		}
		status := m.Reason
		if m.Level == counterabs.TotalLevel && m.Exact {
			status = certifiedHow(m.Cert)
		}
		opts = append(opts, nusmv.Certification(status))
		text, err = nusmv.Reduced(m.Model, opts...)
		kind = m.Level.String() + "-counter"
	}
	if err != nil {
		return fileError(o.file, err)
	}

	if o.out == "" {
		_, err := fmt.Fprint(cmd.OutOrStdout(), text)
		return err
	}
	if err := os.WriteFile(o.out, []byte(text), 0o644); err != nil {
		return errkind.Wrap(errkind.Input, err)
	}
	fmt.Fprintf(stderr, "vsym: wrote the %s NuSMV model of %s to %s (%d bytes)\n", kind, sys.Name, o.out, len(text))
	return nil
}

// vsymVersion is the version stamped into emitted models: the root
// command's, else the module version from the build, else "devel".
func vsymVersion(cmd *cobra.Command) string {
	if v := cmd.Root().Version; v != "" {
		return v
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// sameFile reports whether paths a and b name one existing file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
