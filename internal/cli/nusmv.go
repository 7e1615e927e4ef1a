package cli

import (
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/nusmv"
)

func init() { register("nusmv", newNusmvCmd) }

type nusmvOpts struct {
	exportOpts
	concrete bool
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
every property as a named CTLSPEC. Check the model with "NuSMV -df FILE"
(the header says why). --force writes the total-counter model of an
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
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runNusmv(cmd, o)
		},
	}
	f := cmd.Flags()
	addSizesFlag(f, &o.sizes, &o.params)
	addOutFlag(f, &o.out, "the model")
	f.StringVar(&o.level, "model", "auto", "model to write: auto, total, group (see vsym explore --help) or concrete (one variable per process)")
	f.BoolVar(&o.concrete, "concrete", false, "write the unreduced system (one variable per process): the same as --model concrete")
	f.BoolVar(&o.force, "force", false, "write the total-counter model of an uncertified system anyway (not exact)")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30s; 0 means no bound")
	addExportFlags(f, &o.exportOpts)
	return cmd
}

func runNusmv(cmd *cobra.Command, o *nusmvOpts) error {
	if o.concrete {
		if o.level != "auto" && o.level != "concrete" {
			return errkind.Errorf(errkind.Input, "--concrete is --model concrete; it cannot be combined with --model %s", o.level)
		}
		o.level = "concrete"
	}
	return runExport(cmd, &o.exportOpts, exporter{
		tool: "NuSMV", command: "nusmv",
		reduced: func(m *counterabs.Model, h exportHeader) (string, error) {
			return nusmv.Reduced(m, nusmvHeader(h)...)
		},
		concrete: func(sys *gsst.System, h exportHeader) (string, error) {
			return nusmv.Concrete(sys, nusmvHeader(h)...)
		},
	})
}

func nusmvHeader(h exportHeader) []nusmv.Option {
	return []nusmv.Option{nusmv.Source(h.Source), nusmv.Version(h.Version), nusmv.Certification(h.Certification), nusmv.Bound(h.Bound)}
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
