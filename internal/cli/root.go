package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

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

// exitError carries an exit code up to Main. A nil err means the command
// already printed its result and only the exit code remains.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// withCode wraps err so that Main exits with code.
func withCode(code int, err error) error { return &exitError{code, err} }

// subcommands holds the constructors registered by the subcommand files.
var subcommands []func() *cobra.Command

func register(f func() *cobra.Command) { subcommands = append(subcommands, f) }

// NewRootCmd builds the vsym command tree.
func NewRootCmd() *cobra.Command {
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
	}
	for _, f := range subcommands {
		root.AddCommand(f())
	}
	addCompletions(root)
	return root
}

// Main runs vsym with args and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	root := NewRootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			printError(stderr, ee.err)
		}
		return ee.code
	}
	// Errors cobra raises itself (unknown flag, wrong argument count) and
	// anything unclassified are usage errors.
	fmt.Fprintln(stderr, "vsym:", err)
	return ExitBadInput
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
