package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
)

// The steps shared by the commands that turn a GSST file into a counter
// model (abstract, nusmv, explore): check the common flags, load the
// file, bound the work by --timeout, certify, build, print.

// checkOutputFormat rejects an --output other than text or json.
func checkOutputFormat(output string) error {
	if output != "text" && output != "json" {
		return withCode(ExitBadInput, fmt.Errorf("unknown output format %q (want text or json)", output))
	}
	return nil
}

// checkTimeout rejects a negative --timeout.
func checkTimeout(d time.Duration) error {
	if d < 0 {
		return withCode(ExitBadInput, errors.New("--timeout must not be negative"))
	}
	return nil
}

// loadSystem loads and checks a GSST file; every failure is bad input.
func loadSystem(file string) (*gsst.System, error) {
	sys, err := gsst.Load(file)
	if err != nil {
		return nil, withCode(ExitBadInput, err)
	}
	return sys, nil
}

// commandContext returns the command's context, bounded by timeout when
// it is positive. The caller must call cancel.
func commandContext(cmd *cobra.Command, timeout time.Duration) (ctx context.Context, cancel context.CancelFunc) {
	ctx = cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	if timeout > 0 {
		return context.WithTimeout(ctx, timeout)
	}
	return ctx, func() {}
}

// writeJSON writes v as indented JSON. HTML escaping is off: guards and
// properties are full of < > &, which must stay readable.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return withCode(ExitUnknown, err)
	}
	return nil
}

// modelRequest says how a command certifies and abstracts one system, and
// how it words what goes wrong. Each hint completes a sentence that
// already names the file and the problem.
type modelRequest struct {
	File    string
	Timeout time.Duration // the --timeout the context was bounded by, for messages
	Force   bool          // build the existential abstraction of an uncertified system
	Stderr  io.Writer     // where the --force warning goes

	Refuse  string // what to do instead, when an uncertified system is refused ("use --force to ...")
	Forced  string // what happens, in the warning printed under --force
	Recheck string // what to do, when Build finds a witness certification missed
}

// certifyAndBuild certifies sys with Z3 (Theorem 6) and builds its counter
// abstraction. An uncertified system is refused (exit 1, or 3 when the
// solver could not decide) unless r.Force, which warns and builds the
// existential abstraction. A context that runs out stops with exit 3 and
// says which stage it stopped, never "use --force". The report is returned
// with the model so that callers can say how the system was certified.
func certifyAndBuild(ctx context.Context, sys *gsst.System, r modelRequest) (*counterabs.Model, *detect.Report, error) {
	solver := z3.New()
	cert, err := detect.Certify(ctx, sys, solver)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, stoppedError(ctx, r.File, "certification", r.Timeout)
		}
		// A loaded system is well formed: the solver failed, or a witness
		// did not survive re-verification. Neither is an answer.
		return nil, nil, withCode(ExitUnknown, err)
	}
	if !cert.Certified() && cert.Verdict() != detect.Violated && ctx.Err() != nil {
		// Unknown verdicts because time ran out: say so, not "use --force".
		return nil, nil, stoppedError(ctx, r.File, "certification", r.Timeout)
	}
	var opts []counterabs.Option
	if !cert.Certified() {
		why, code := certificationFailure(sys, cert)
		if !r.Force {
			return nil, nil, withCode(code, fmt.Errorf("%s: %s; %s", r.File, why, r.Refuse))
		}
		fmt.Fprintf(r.Stderr, "vsym: warning: %s: %s; %s\n", r.File, why, r.Forced)
		opts = append(opts, counterabs.Force())
	}
	m, err := counterabs.Build(ctx, sys, solver, solver, opts...)
	if err != nil {
		var nc *counterabs.NotCertifiedError
		switch {
		case ctx.Err() != nil:
			return nil, nil, stoppedError(ctx, r.File, "abstraction", r.Timeout)
		case errors.Is(err, counterabs.ErrUnknown):
			return nil, nil, withCode(ExitUnknown, fmt.Errorf("%s: unknown: %v", r.File, err))
		case errors.As(err, &nc):
			// detect certified the system, but Build found a verified
			// witness against it: trust the witness, report both.
			return nil, nil, withCode(ExitNo, fmt.Errorf("%s: transition %s breaks full virtual symmetry (%s), although certification passed it: please report this; %s",
				r.File, nc.Name, describeWitness(sys, nc.Witness), r.Recheck))
		}
		return nil, nil, withCode(ExitUnknown, err)
	}
	return m, cert, nil
}

// certificationFailure explains why cert does not certify sys: the
// violated transitions with their witnesses (exit 1), or else the
// transitions left unknown (exit 3).
func certificationFailure(sys *gsst.System, cert *detect.Report) (string, int) {
	var bad, unknown []string
	for _, t := range cert.Transitions {
		switch t.Verdict {
		case detect.Violated:
			bad = append(bad, fmt.Sprintf("transition %s breaks full virtual symmetry (%s)", sys.TransitionName(t.Transition), describeWitness(sys, t.Witness)))
		case detect.Unknown:
			msg := sys.TransitionName(t.Transition)
			if t.Reason != "" {
				msg += " (" + t.Reason + ")"
			}
			unknown = append(unknown, msg)
		}
	}
	if len(bad) > 0 {
		return "not fully virtually symmetric: " + strings.Join(bad, "; "), ExitNo
	}
	return "full virtual symmetry could not be decided for transition " + strings.Join(unknown, ", "), ExitUnknown
}

// describeWitness says in words what a witness shows.
func describeWitness(sys *gsst.System, w *detect.Witness) string {
	if w == nil {
		return "no witness"
	}
	return fmt.Sprintf("group %s can take it in %s, but no process can in %s, which has the same total counters",
		sys.Groups[w.Group].Name, describeConfig(sys, w.Enabled), describeConfig(sys, w.Disabled))
}

// describeConfig prints a configuration as {reader: T=1; writer: N=1, T=1}.
func describeConfig(sys *gsst.System, conf [][]int) string {
	var groups []string
	for g, row := range conf {
		var parts []string
		for s, k := range row {
			if k != 0 {
				parts = append(parts, fmt.Sprintf("%s=%d", sys.States[s], k))
			}
		}
		if len(parts) == 0 {
			parts = append(parts, "empty")
		}
		groups = append(groups, sys.Groups[g].Name+": "+strings.Join(parts, ", "))
	}
	return "{" + strings.Join(groups, "; ") + "}"
}
