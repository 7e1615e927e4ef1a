package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
)

// The steps shared by the commands that turn a GSST file into a counter
// model (abstract, nusmv, explore): check the common flags, load the
// file, bound the work by --timeout, choose the model level, certify when
// the level needs it, build, print.

// checkOutputFormat rejects an --output other than text or json.
func checkOutputFormat(output string) error {
	if output != "text" && output != "json" {
		return errkind.Errorf(errkind.Input, "unknown output format %q (want text or json)", output)
	}
	return nil
}

// checkTimeout rejects a negative --timeout.
func checkTimeout(d time.Duration) error {
	if d < 0 {
		return errkind.Errorf(errkind.Input, "--timeout must not be negative")
	}
	return nil
}

// selectProperties returns sys restricted to the named properties, each
// once, in the order first named; all of them when names is empty. An
// unknown name is bad input, and the message lists the names there are.
func selectProperties(file string, sys *gsst.System, names []string) (*gsst.System, error) {
	if len(names) == 0 {
		return sys, nil
	}
	var props []gsst.Property
	var seen []string
	for _, name := range names {
		if slices.Contains(seen, name) {
			continue
		}
		i := slices.IndexFunc(sys.Properties, func(p gsst.Property) bool { return p.Name == name })
		if i < 0 {
			var have []string
			for _, p := range sys.Properties {
				have = append(have, p.Name)
			}
			known := "it defines none"
			if len(have) > 0 {
				known = "it defines " + strings.Join(have, ", ")
			}
			return nil, errkind.Errorf(errkind.Input, "%s: no property named %q (%s)", file, name, known)
		}
		seen = append(seen, name)
		props = append(props, sys.Properties[i])
	}
	cp := *sys
	cp.Properties = props
	return &cp, nil
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
		return errkind.Wrap(errkind.Internal, err)
	}
	return nil
}

// modelRequest says which model a command wants for one system.
type modelRequest struct {
	File    string
	Timeout time.Duration // the --timeout the context was bounded by, for messages
	// Level is "auto", "total" or "group" (--model). Auto takes the
	// total-counter model when the system is certified and every property
	// reads total counters only, and the group-counter model otherwise.
	Level string
	// Force builds the total-counter model of an uncertified system: it
	// over-approximates the quotient (--force).
	Force  bool
	Stderr io.Writer // where the --force warning goes
	// TotalBudget bounds the time --model auto spends on certifying and
	// building the total-counter model before it takes the group-counter
	// model instead; zero means totalBudget's default.
	TotalBudget time.Duration
}

// defaultTotalBudget is how long --model auto tries the total-counter
// model (certification and abstraction, both Z3 queries) when the
// command has no --timeout: the group-counter model, which needs no
// solver, is exact as well, and answers where a query runs on.
const defaultTotalBudget = 10 * time.Second

// totalBudget returns the time --model auto gives the total-counter
// model: r.TotalBudget or the default, and at most half of what is left
// of ctx, so that the group-counter model still has the other half.
func totalBudget(ctx context.Context, r modelRequest) time.Duration {
	d := r.TotalBudget
	if d <= 0 {
		d = defaultTotalBudget
	}
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(dl)/2)
	}
	return d
}

// levelFlag is the help text of --model.
const levelFlag = "model to work on: auto (total-counter model when certified and every property reads total counters only, else the group-counter model), total, or group (exact for any GSST)"

// chosenModel is the model a command works on, with the reason for its
// level in words (for the output) and the certification report when
// certification ran.
type chosenModel struct {
	*counterabs.Model
	Cert   *detect.Report
	Reason string
}

// buildModel chooses the level of r for sys, certifies when the
// total-counter model is wanted, and builds the model. An uncertified
// system gets the group-counter model under auto; with --model total it
// is refused (exit 1, or 3 when certification could not decide) unless
// r.Force. A context that runs out stops with exit 3 and names the stage.
func buildModel(ctx context.Context, sys *gsst.System, r modelRequest) (*chosenModel, error) {
	level := r.Level
	if r.Force {
		level = "total"
	}
	switch level {
	case "group":
		return groupModel(sys, "the group-counter model was asked for (--model group)")
	case "auto":
		for i := range sys.Properties {
			if p := &sys.Properties[i]; counterabs.PropertyLevel(sys, p) == counterabs.GroupLevel {
				return groupModel(sys, fmt.Sprintf("property %s reads group counters, which only the group-counter model keeps", p.Name))
			}
		}
		if why := groupFairness(sys); why != "" {
			return groupModel(sys, why+", which only the group-counter model keeps")
		}
	case "total":
	default:
		return nil, errkind.Errorf(errkind.Input, "unknown model %q (want auto, total or group)", r.Level)
	}
	// Under auto, the total-counter model gets a time budget (tctx); when
	// it runs out, or the solver cannot decide, the group-counter model
	// takes over (fallBack), with the reason in words.
	tctx := ctx
	budget := totalBudget(ctx, r)
	if level == "auto" {
		var cancel context.CancelFunc
		tctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	fallBack := func(what string) (*chosenModel, error) {
		return groupModel(sys, what+"; the group-counter model is exact for any system")
	}
	solver := z3.New()
	cert, err := detect.Certify(tctx, sys, solver)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return nil, stoppedError(ctx, r.File, "certification", r.Timeout)
		case tctx.Err() != nil:
			return fallBack(fmt.Sprintf("certification did not finish within %v", budget.Round(time.Millisecond)))
		}
		return nil, err
	}
	if !cert.Certified() && cert.Verdict() != detect.Violated {
		switch {
		case ctx.Err() != nil:
			// Unknown verdicts because time ran out: say so.
			return nil, stoppedError(ctx, r.File, "certification", r.Timeout)
		case tctx.Err() != nil:
			return fallBack(fmt.Sprintf("certification did not finish within %v", budget.Round(time.Millisecond)))
		}
	}
	var opts []counterabs.Option
	reason := "certified fully virtually symmetric (" + certifiedHow(cert) + "): the total-counter model is exact"
	if !cert.Certified() {
		why, code := certificationFailure(sys, cert)
		switch {
		case r.Force:
			fmt.Fprintf(r.Stderr, "vsym: warning: %s: %s; using the total-counter model anyway (--force): it over-approximates the system, so verdicts on it are not exact\n", r.File, why)
			opts = append(opts, counterabs.Force())
			reason = why + "; total-counter model forced (--force): it over-approximates the system"
		case level == "auto":
			return groupModel(sys, why+"; the group-counter model is exact for any system")
		default:
			return nil, withCode(code, fmt.Errorf("%s: %s; use --model group for the exact group-counter model, or --force for the (over-approximating) total-counter model", r.File, why))
		}
	}
	m, err := counterabs.Build(tctx, sys, solver, solver, opts...)
	if err != nil {
		var nc *counterabs.NotCertifiedError
		switch {
		case ctx.Err() != nil:
			return nil, stoppedError(ctx, r.File, "abstraction", r.Timeout)
		case level == "auto" && tctx.Err() != nil:
			return fallBack(fmt.Sprintf("building the total-counter model did not finish within %v", budget.Round(time.Millisecond)))
		case level == "auto" && errkind.Of(err) == errkind.Unknown:
			return fallBack(fmt.Sprintf("building the total-counter model failed (%v)", err))
		case errors.As(err, &nc):
			// detect certified the system, but Build found a verified
			// witness against it: trust the witness, report both.
			return nil, withCode(ExitNo, fmt.Errorf("%s: transition %s breaks full virtual symmetry (%s), although certification passed it: please report this; use --model group",
				r.File, nc.Name, describeWitness(sys, nc.Witness)))
		}
		return nil, fileError(r.File, err)
	}
	return &chosenModel{Model: m, Cert: cert, Reason: reason}, nil
}

// fileError prefixes err with the file it is about and, for a failure
// to find an answer (a limit, a solver unknown), with "unknown", so that
// it is never mistaken for a verdict.
func fileError(file string, err error) error {
	if strings.HasPrefix(err.Error(), file+":") {
		return err // already positioned in the file
	}
	switch errkind.Of(err) {
	case errkind.Unknown, errkind.Limit:
		return fmt.Errorf("%s: unknown: %w", file, err)
	}
	return fmt.Errorf("%s: %w", file, err)
}

// groupFairness says which fairness constraint of sys needs the
// group-counter model, or "" when the total-counter model can express them
// all.
func groupFairness(sys *gsst.System) string {
	for _, j := range sys.Fairness.Justice {
		if counterabs.MentionsGroups(sys, j.Formula) {
			return fmt.Sprintf("justice condition %s reads group counters", j.Text)
		}
	}
	for i := range sys.Fairness.Weak {
		if w := &sys.Fairness.Weak[i]; w.Group >= 0 {
			return fmt.Sprintf("weak fairness of %s is per group", sys.WeakName(w))
		}
	}
	return ""
}

// groupModel builds the group-counter model of sys.
func groupModel(sys *gsst.System, reason string) (*chosenModel, error) {
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		return nil, err
	}
	return &chosenModel{Model: m, Reason: reason}, nil
}

// certifiedHow says in words how a certified system was certified.
func certifiedHow(cert *detect.Report) string {
	if cert.Verdict() == detect.Symmetric {
		return "every transition treats all processes alike"
	}
	return "Theorem 6 checked with Z3"
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
