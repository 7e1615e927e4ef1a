package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
)

// Exit codes, documented in the root help and the README.
const (
	ExitOK       = 0 // certified / every property holds / success
	ExitNo       = 1 // not fully virtually symmetric / some property fails
	ExitBadInput = 2 // bad input or usage
	ExitUnknown  = 3 // solver unknown, timeout or resource limit
)

const exitHelp = `Exit codes:
  0  success: certified, or every property holds
  1  negative answer: not fully virtually symmetric, or some property fails
  2  bad input or usage
  3  unknown: solver unknown, timeout, resource limit, or a verdict that
     is not exact (explore --force)`

// commandError marks an error returned by a command's RunE, as opposed to
// cobra's own errors (unknown command or flag, wrong number of
// arguments), which are usage errors.
type commandError struct {
	cmd *cobra.Command
	err error
}

func (e *commandError) Error() string { return e.err.Error() }
func (e *commandError) Unwrap() error { return e.err }

// markCommandErrors wraps the run function of c and of its subcommands so
// that their errors reach exitCode as command errors.
func markCommandErrors(c *cobra.Command) {
	if f := c.RunE; f != nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if err := f(cmd, args); err != nil {
				return &commandError{cmd, err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		markCommandErrors(sub)
	}
}

// The one place where outcomes become exit codes: verdictCode for the
// answer a command gives beside its report, classify for the error it
// fails with.

// verdictCode returns the exit code of an answer.
func verdictCode(v analysis.Verdict) int {
	switch v {
	case analysis.Yes:
		return ExitOK
	case analysis.No:
		return ExitNo
	}
	return ExitUnknown
}

// classify returns the exit code for err and its kind as the JSON error
// object names it: cobra's own complaints about the command line are
// "usage", anything else goes by its error kind.
func classify(err error) (code int, kind string) {
	if err == nil {
		return ExitOK, ""
	}
	var ce *commandError
	if !errors.As(err, &ce) {
		return ExitBadInput, "usage"
	}
	return classifyKind(err)
}

// classifyKind maps the errkind of err to an exit code and the kind
// named in JSON error objects.
func classifyKind(err error) (code int, kind string) {
	switch k := errkind.Of(err); k {
	case errkind.Input:
		return ExitBadInput, "input"
	case errkind.Negative:
		return ExitNo, "negative"
	case errkind.Unknown:
		return ExitUnknown, "unknown"
	case errkind.Limit:
		return ExitUnknown, "limit"
	}
	return ExitUnknown, "internal"
}

// codeOf returns the exit code for err (classify).
func codeOf(err error) int {
	code, _ := classify(err)
	return code
}

// failureMessage is the message for err of the given kind, as printed
// after "vsym: ": with the flag to change for a limit or timeout, and the
// request to report an internal error.
func failureMessage(err error, kind string) string {
	switch kind {
	case "unknown", "limit":
		return withHint(err)
	case "internal":
		return "internal error: " + err.Error() + " (please report this)"
	}
	return err.Error()
}

// printFailure prints err once on w: an error list as it is, a usage
// error with the usage line of cmd, anything else after "vsym:".
func printFailure(w io.Writer, cmd *cobra.Command, err error) {
	if err == nil {
		return
	}
	_, kind := classify(err)
	switch kind {
	case "usage":
		fmt.Fprintf(w, "vsym: %v\nUsage: %s\nRun '%s --help' for the flags and details.\n", err, cmd.UseLine(), cmd.CommandPath())
	case "input", "negative":
		printError(w, err)
	default:
		fmt.Fprintln(w, "vsym:", failureMessage(err, kind))
	}
}

// limitFlags names the flag that changes each bound.
var limitFlags = map[analysis.Limit]string{
	analysis.Timeout:   "--timeout",
	analysis.MaxMemory: "--max-memory",
	analysis.MaxStates: "--max-states",
	// The per-call bounds of check and dot --check, and of prove.
	analysis.SolverTimeout:   "--solver-timeout",
	analysis.PropertyTimeout: "--property-timeout",
}

// withHint adds to the message of err the flag that changes the bound
// that stopped the work, which the error carries; library messages
// describe the condition only.
func withHint(err error) string {
	var ae *analysis.Error
	if errors.As(err, &ae) && limitFlags[ae.Limit] != "" {
		return err.Error() + "; raise " + limitFlags[ae.Limit]
	}
	return err.Error()
}

// A subcommand is registered by its file with its name (the first word
// of its Use), so that a command line that names it can build it alone
// (rootFor).
type subcommand struct {
	name string
	make func() *cobra.Command
}

// subcommands holds the subcommands registered by the subcommand files.
var subcommands []subcommand

func register(name string, f func() *cobra.Command) {
	subcommands = append(subcommands, subcommand{name, f})
}

// NewRootCmd builds the vsym command tree.
func NewRootCmd() *cobra.Command { return newRoot(subcommands) }

// rootFor builds the part of the tree that a run of args needs: when
// args start with the name of a subcommand, the root with that
// subcommand alone, since no other can take part in the run, and
// building every command with its flags, help and completions is about
// a millisecond of the start of a process; the whole tree for anything
// else (help, completion, a flag or an unknown word first, which
// cobra's suggestions compare with every name).
func rootFor(args []string) *cobra.Command {
	if len(args) > 0 {
		for _, s := range subcommands {
			if s.name == args[0] {
				return newRoot([]subcommand{s})
			}
		}
	}
	return NewRootCmd()
}

// newRoot builds the root command with the given subcommands.
func newRoot(subs []subcommand) *cobra.Command {
	root := &cobra.Command{
		Use:   "vsym",
		Short: "Certify full virtual symmetry, abstract to counters, export to NuSMV, model check",
		Long: `vsym analyzes systems of many similar but not identical processes, written
as generalized synchronization skeleton templates (GSST, a YAML format).

It certifies full virtual symmetry with Presburger queries decided by Z3,
abstracts certified systems to total-counter models, exports them to NuSMV
and checks CTL properties with its own explicit and symbolic engines.

` + exitHelp,
		SilenceErrors: true,
		SilenceUsage:  true,
		// -o/--out, for every command that has it (output.go).
		PersistentPreRunE: prepareOutput,
	}
	for _, sub := range subs {
		c := sub.make()
		markCommandErrors(c)
		root.AddCommand(c)
	}
	addFormatFlags(root)
	addCompletions(root)
	root.SetFlagErrorFunc(flagError)
	return root
}

// flagError adds to an error about a flag what the user who gave it
// needs to know: --output, on a command that writes a model, a picture
// or a spec, is not one of its flags.
func flagError(cmd *cobra.Command, err error) error {
	if strings.HasPrefix(err.Error(), "unknown flag: --output") && cmd.Flags().Lookup("output") == nil {
		return fmt.Errorf("%w: vsym %s writes one format only (its model, picture or spec as it is) and has no --output; -o FILE writes it to a file", err, cmd.Name())
	}
	return err
}

// Main runs vsym with args on the process's standard input and returns
// the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	return Run(args, os.Stdin, stdout, stderr)
}

// printError writes err to stderr once. A list of file errors is printed
// as it is, one "file:line:col: message" per line (as check does), so that
// every line has the same shape and editors can jump to each; anything
// else gets the "vsym:" prefix.
func printError(w io.Writer, err error) {
	var list gsst.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		fmt.Fprintln(w, list)
		return
	}
	fmt.Fprintln(w, "vsym:", err)
}
