package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
)

// failingEngine is an engine double whose Check fails with err.
type failingEngine struct{ err error }

func (failingEngine) Name() string { return "failing" }
func (e failingEngine) Check(context.Context, *counterabs.Model, ...explore.Option) (*explore.Report, error) {
	return nil, e.err
}

// runExploreWith runs "vsym explore args..." as Run does, with the engine
// double behind the command (exploreOpts.choose): the same command tree,
// error marking, output session and exit-code mapping.
func runExploreWith(engine explore.Engine, args ...string) (stdout, stderr string, code int) {
	o := &exploreOpts{choose: func(string, *counterabs.Model, symbolic.BDD) (explore.Engine, error) { return engine, nil }}
	root := NewRootCmd()
	for _, c := range root.Commands() {
		if c.Name() == "explore" {
			root.RemoveCommand(c)
		}
	}
	c := exploreCmd(o)
	markCommandErrors(c)
	root.AddCommand(c)
	var out, errb bytes.Buffer
	code = execute(root, append([]string{"explore"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// TestEngineInternalError: an error of an engine that is not a verdict,
// a limit or bad input (a bug) exits 3 with "internal error ... please
// report this", never 2 (bad input), and prints no result; a limit exits
// 3 as "unknown", an input error 2. The engine double stands in for the
// explicit and BDD engines behind the command.
func TestEngineInternalError(t *testing.T) {
	rw := writeExploreFile(t, "rw.yaml", rwYAML)
	cases := []struct {
		name string
		err  error
		code int
		want string // in stderr
		not  string // not in stderr
	}{
		{"unclassified", errors.New("the fixpoint did not converge"), ExitUnknown,
			"vsym: internal error: " + rw + ": the fixpoint did not converge (please report this)", "bad input"},
		// Library messages do not say "internal error"; the command line
		// says it once, by the error's kind.
		{"internal", errkind.Errorf(errkind.Internal, "symbolic: no trace found for a verdict that has one"), ExitUnknown,
			"vsym: internal error: " + rw + ": symbolic: no trace found for a verdict that has one (please report this)", "internal error: internal error"},
		{"limit", &explore.LimitError{Kind: "states", Limit: 5, States: 6}, ExitUnknown, rw + ": unknown: ", "internal error"},
		{"input", errkind.Errorf(errkind.Input, "no property named %q", "x"), ExitBadInput, `no property named "x"`, "internal error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runExploreWith(failingEngine{c.err}, rw)
			if code != c.code || !strings.Contains(stderr, c.want) || strings.Contains(stderr, c.not) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q without %q", code, stdout, stderr, c.code, c.want, c.not)
			}
		})
	}
	// The seam is the only difference: with the real engine the same
	// command succeeds.
	if _, stderr, code := runExploreWith(explicit.Engine{}, "-p", "mutex", rw); code != ExitOK {
		t.Errorf("with the explicit engine: exit %d, %s", code, stderr)
	}
}
