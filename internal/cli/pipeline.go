package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
)

// The steps shared by the commands that turn a GSST file into a counter
// model (abstract, nusmv, explore): check the common flags, load the
// file, and ask package analysis, which bounds the work by --timeout,
// chooses the model level, certifies when the level needs it and builds.

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
	var props []int // indices into sys.Properties
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
			return nil, analysis.Errorf(errkind.Input, gsst.Pos{File: file}, "no property named %q (%s)", name, known)
		}
		seen = append(seen, name)
		props = append(props, i)
	}
	return sys.WithProperties(props...), nil
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

// levelFlag is the help text of --model.
const levelFlag = "model to work on: auto (total-counter model when certified and every property reads total counters only, else the group-counter model), total, or group (exact for any GSST)"

// modelRequest returns the model request of a command on file: the level
// as --model names it, --force, and --timeout for the whole question;
// the --force warning goes to the command's stderr.
func modelRequest(cmd *cobra.Command, file, level string, force bool, timeout time.Duration) (analysis.ModelRequest, error) {
	l, err := analysis.ParseLevel(level)
	if err != nil {
		return analysis.ModelRequest{}, err
	}
	stderr := cmd.ErrOrStderr()
	return analysis.ModelRequest{File: file, Level: l, Force: force, Limits: analysis.Limits{Timeout: timeout},
		Warn: func(msg string) { fmt.Fprintf(stderr, "vsym: warning: %s\n", msg) }}, nil
}
