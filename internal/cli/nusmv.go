package cli

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/nusmv"
)

func init() { register(newNusmvCmd) }

type nusmvOpts struct {
	file     string
	out      string
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

By default it certifies full virtual symmetry and writes the counter
abstraction: one bounded counter x_S per local state, an input variable
choosing the local transition of each step, one case per counter, the
sum invariant, and every property as a named CTLSPEC (and, for AG of a
state formula, also as an INVARSPEC). An uncertified system is refused
(exit 1, or 3 when certification could not decide) unless --force, which
writes its existential abstraction with a warning in the model's header:
verdicts on that model are not exact.

With --concrete it writes the unreduced system instead: one variable per
process over the local states, input variables choosing the process and
the local transition, and the same properties. It needs no certification,
and none is run: its verdicts are always exact. For a certified system
both models give the same verdicts.

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
	f.StringVarP(&o.out, "out", "o", "", "write the model to this file instead of standard output")
	f.BoolVar(&o.concrete, "concrete", false, "write the unreduced system (one variable per process)")
	f.BoolVar(&o.force, "force", false, "write the counter abstraction of an uncertified system anyway (not exact)")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30s; 0 means no bound")
	return cmd
}

func runNusmv(cmd *cobra.Command, o *nusmvOpts) error {
	stderr := cmd.ErrOrStderr()
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	if o.concrete && o.force {
		return withCode(ExitBadInput, errors.New("--force applies to the counter abstraction; the concrete model needs no certification"))
	}
	if o.out != "" && sameFile(o.out, o.file) {
		return withCode(ExitBadInput, fmt.Errorf("-o %s would overwrite the input spec", o.out))
	}
	sys, err := loadSystem(o.file)
	if err != nil {
		return err
	}
	ctx, cancel := commandContext(cmd, o.timeout)
	defer cancel()
	opts := []nusmv.Option{nusmv.Source(o.file), nusmv.Version(vsymVersion(cmd))}

	var text string
	if o.concrete {
		// The concrete model is exact whatever certification would say,
		// so none is run (it can take far longer than the export).
		opts = append(opts, nusmv.Certification("not checked (the concrete model needs none)"))
		text, err = nusmv.Concrete(sys, opts...)
	} else {
		var m *counterabs.Model
		var cert *detect.Report
		m, cert, err = certifyAndBuild(ctx, sys, modelRequest{
			File: o.file, Timeout: o.timeout, Force: o.force, Stderr: stderr,
			Refuse:  "use --concrete to export the unreduced system, or --force to export the (inexact) counter abstraction",
			Forced:  "exporting the existential abstraction anyway (--force): verdicts on it are not exact",
			Recheck: "use --concrete or --force",
		})
		if err != nil {
			return err
		}
		if cert.Certified() {
			opts = append(opts, nusmv.Certification(certifiedHow(cert)))
		} else {
			why, _ := certificationFailure(sys, cert)
			opts = append(opts, nusmv.Certification(why))
		}
		text, err = nusmv.Reduced(m, opts...)
	}
	if err != nil {
		return withCode(ExitBadInput, err)
	}

	if o.out == "" {
		if _, err := fmt.Fprint(cmd.OutOrStdout(), text); err != nil {
			return withCode(ExitUnknown, err)
		}
		return nil
	}
	if err := os.WriteFile(o.out, []byte(text), 0o644); err != nil {
		return withCode(ExitBadInput, err)
	}
	kind := "counter-abstracted"
	if o.concrete {
		kind = "concrete"
	}
	fmt.Fprintf(stderr, "vsym: wrote the %s NuSMV model of %s to %s (%d bytes)\n", kind, sys.Name, o.out, len(text))
	return nil
}

// certifiedHow says in words how a certified system was certified.
func certifiedHow(cert *detect.Report) string {
	if cert.Verdict() == detect.Symmetric {
		return "every transition treats all processes alike"
	}
	return "Theorem 6 checked with Z3"
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
