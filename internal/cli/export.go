package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/progress"
)

// The steps shared by the commands that write a model for another model
// checker (nusmv, promela): check the flags, load the spec, build the
// model --model asks for (or none, for the unreduced system), emit it,
// and write it to standard output (the session redirects it to -o).

// exportOpts are the flags of an export command.
type exportOpts struct {
	sizes   string // --sizes, for a spec whose group sizes are ranges
	params  string // --params, for a spec with parameters
	file    string
	out     string // -o/--out, handled by the session
	level   string // auto, total, group or concrete
	force   bool
	timeout time.Duration
	bound   int // --bound: the greatest value of an unbounded shared variable; 0: the default
	// properties are the names given with -p: only they are exported
	// (all when none are given), and only they choose the model.
	properties []string
}

// exportHeader is what an emitter states in its header comment.
type exportHeader struct {
	Source, Version, Certification string
	Bound                          int
}

// exporter is one target language.
type exporter struct {
	tool     string // named in messages: "NuSMV", "Promela"
	command  string // the vsym command, for messages: "nusmv", "promela"
	reduced  func(m *counterabs.Model, h exportHeader) (string, error)
	concrete func(sys *gsst.System, h exportHeader) (string, error)
}

// runExport writes the model of o.file that o.level asks for with e, to
// standard output; the session sends it to the -o file.
func runExport(cmd *cobra.Command, o *exportOpts, e exporter) error {
	prog := startProgress(cmd)
	defer prog.stop()
	if err := checkTimeout(o.timeout); err != nil {
		return err
	}
	if o.force && (o.level == "concrete" || o.level == "group") {
		return errkind.Errorf(errkind.Input, "--force applies to the total-counter model; the %s model is exact and needs no certification", o.level)
	}
	switch {
	case o.bound < 0:
		return errkind.Errorf(errkind.Input, "--bound %d: a bound is at least 1 (0 asks for the default)", o.bound)
	case o.bound > gsst.MaxConstant:
		return errkind.Errorf(errkind.Input, "--bound %d is out of range: a shared variable's value is at most %d", o.bound, gsst.MaxConstant)
	}
	prog.phase(progress.Parse)
	file := displayName(o.file)
	// --timeout bounds the whole run: loading, the model and its writing.
	limits := analysis.Limits{Timeout: o.timeout}
	ctx, cancel := limits.Context(cmd.Context())
	defer cancel()
	sys, err := analysis.Within(ctx, file, "loading", limits, func() (*gsst.System, error) {
		return loadInstance(cmd, o.file, o.sizes, o.params, e.command)
	})
	if err != nil {
		return err
	}
	if sys, err = selectProperties(file, sys, o.properties); err != nil {
		return err
	}
	h := exportHeader{Source: file, Version: vsymVersion(cmd), Bound: o.bound}

	var text, kind string
	if o.level == "concrete" {
		// The concrete model is exact whatever certification would say,
		// so none is run (it can take far longer than the export).
		h.Certification = "not checked (the concrete model needs none)"
		prog.phase(progress.Emit)
		text, err = analysis.Within(ctx, file, e.tool+" output", limits, func() (string, error) { return e.concrete(sys, h) })
		kind = "concrete"
	} else {
		var req analysis.ModelRequest
		if req, err = modelRequest(cmd, file, o.level, o.force, o.timeout); err != nil {
			return err
		}
		req.Progress = prog.report
		var m *analysis.Model
		if m, err = analysis.BuildModel(ctx, sys, req); err != nil {
			return err
		}
		h.Certification = m.Reason
		if m.Level == counterabs.TotalLevel && m.Exact {
			h.Certification = m.CertifiedHow()
		}
		prog.phase(progress.Emit)
		text, err = analysis.Within(ctx, file, e.tool+" output", limits, func() (string, error) { return e.reduced(m.Model, h) })
		kind = m.Level.String() + "-counter"
	}
	prog.stop()
	if err != nil {
		return analysis.FileError(file, err)
	}
	describeOutput(cmd, fmt.Sprintf("the %s %s model of %s", kind, e.tool, sys.Name))
	_, err = fmt.Fprint(cmd.OutOrStdout(), text)
	return err
}

// addExportFlags adds the flags the export commands share.
func addExportFlags(f *pflag.FlagSet, o *exportOpts) {
	f.IntVar(&o.bound, "bound", 0, boundFlag)
	f.StringSliceVarP(&o.properties, "property", "p", nil, "export only the named properties (repeatable, comma-separated); the model is chosen for them alone")
}

// boundFlag documents --bound, shared by the export commands.
const boundFlag = "greatest value of every unbounded shared variable in the exported model; 0: its initial value plus the number of processes. The model checks that no reachable step passes it (NuSMV: INVARSPEC bound_ok; Promela: an assertion)"
