package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/promela"
)

func init() { register("promela", newPromelaCmd) }

func newPromelaCmd() *cobra.Command {
	o := &exportOpts{}
	cmd := &cobra.Command{
		Use:   "promela FILE",
		Short: "Export a GSST to Promela for Spin 6: its counter abstraction, or the unreduced system",
		Long: `Promela writes a Promela model of a GSST for the Spin 6 model checker, to
standard output or to the file given with -o.

--model chooses the model as for "vsym nusmv": auto (the default) writes
the counter model explore would check, the total-counter model when the
system is certified and every property reads total counters only, the
group-counter model otherwise; total and group ask for one level;
concrete writes the unreduced system, one Promela process per process,
and runs no certification. --force writes the total-counter model of an
uncertified system, with a warning in its header: verdicts on it are not
exact.

Every property that has an equivalent LTL formula becomes a named ltl
block (AG p, AF p, AG (p -> AF q), A[p U q]; EF p, EG p and E[p U q]
through their negation, so that they hold when pan finds an error). The
others (AG EF p, AF AG p, AX, EX, ...) are not exported: the header and a
note on standard error say why. The header lists, per property, the pan
command that checks it and how to read its answer. A configuration where
nothing can move stutters on itself, as in vsym's own checkers.

Liveness claims of the concrete model are meant for pan -a -f: weak
(per-process) fairness, which no counter model can express. Without -f,
pan's verdicts equal vsym's; with it, liveness verdicts can differ in the
direction the header explains. See docs/promela.md.

` + exitHelp,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runExport(cmd, o, promelaExporter(cmd.ErrOrStderr()))
		},
	}
	f := cmd.Flags()
	addSizesFlag(f, &o.sizes, &o.params)
	addOutFlag(f, &o.out, "the model")
	f.StringVar(&o.level, "model", "auto", "model to write: auto, total, group (see vsym explore --help) or concrete (one process per process)")
	f.BoolVar(&o.force, "force", false, "write the total-counter model of an uncertified system anyway (not exact)")
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3) after this long, e.g. 30s; 0 means no bound")
	addExportFlags(f, o)
	return cmd
}

// promelaExporter emits Promela and notes on stderr every property that
// has no ltl block.
func promelaExporter(stderr io.Writer) exporter {
	emit := func(p *promela.Program, err error) (string, error) {
		if err != nil {
			return "", err
		}
		for _, c := range p.Claims {
			if !c.Exported() {
				fmt.Fprintf(stderr, "vsym: note: property %s is not exported: %s\n", c.Property, c.Skipped)
			}
		}
		return p.Text, nil
	}
	return exporter{
		tool: "Promela", command: "promela",
		reduced: func(m *counterabs.Model, h exportHeader) (string, error) {
			return emit(promela.Reduced(m, promelaHeader(h)...))
		},
		concrete: func(sys *gsst.System, h exportHeader) (string, error) {
			return emit(promela.Concrete(sys, promelaHeader(h)...))
		},
	}
}

func promelaHeader(h exportHeader) []promela.Option {
	return []promela.Option{promela.Source(h.Source), promela.Version(h.Version), promela.Certification(h.Certification), promela.Bound(h.Bound)}
}
