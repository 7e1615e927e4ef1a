package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
)

// Where results go, for every command alike:
//
//   - -o/--out FILE writes the command's output (the result, or with
//     --output json the error object) to FILE instead of standard output;
//     the file is written once, at the end, and only when there is
//     output. A bare format name (-o json) is refused as a mistake for
//     --output.
//   - --output text|json (a long flag only) picks the format of commands
//     that have more than one. With json, standard output (or FILE) gets
//     exactly one JSON document, also when the command fails: then an
//     error object (errorDocJSON).
//   - FILE "-" is standard input, named <stdin> in positions and results.

// outputFormats names every value --output takes on some command. A
// -o/--out naming one of them is a mistake for --output, not a file.
var outputFormats = []string{"text", "json", "sarif"}

// stdinName stands for standard input in positions and results.
const stdinName = "<stdin>"

// session is the state of one run of the command line.
type session struct {
	stdin  io.Reader
	stdout *countingWriter
	stderr io.Writer
	// out is the -o/--out file of the command that ran ("" for standard
	// output); buf collects its output until the run ends.
	out string
	buf bytes.Buffer
	// what describes the output for the message that says where it went
	// ("the total-counter NuSMV model of rw"); empty: "the output".
	what      string
	stdinRead bool
	// expected holds, per property, the verdicts the file read
	// announces (mist's "#expected result:"), for the outputs to show.
	expected map[string][]formats.Expected
	// notStated are the properties of the file read that its
	// translation does not state, for the outputs to show.
	notStated []formats.Refusal
	// code is the exit code of the answers the command gave and the
	// failures it printed itself (answer, reported); an error it returns
	// adds its own.
	code int
}

// answer records the verdict v of the command cmd: it exits with the
// most severe code of its verdicts and failures.
func answer(cmd *cobra.Command, v analysis.Verdict) {
	s := sessionOf(cmd)
	s.code = severerExit(s.code, verdictCode(v))
}

// report prints a failure of the command cmd that it goes on after
// (check, for one file of several) as a returned error would be printed,
// and records its exit code.
func report(cmd *cobra.Command, err error) {
	err = &commandError{cmd, err}
	printFailure(cmd.ErrOrStderr(), cmd, err)
	s := sessionOf(cmd)
	s.code = severerExit(s.code, codeOf(err))
}

type sessionKey struct{}

// sessionOf returns the session cmd runs in. Commands run outside Run
// (none do) get a fresh one on the process's standard streams.
func sessionOf(cmd *cobra.Command) *session {
	if ctx := cmd.Context(); ctx != nil {
		if s, ok := ctx.Value(sessionKey{}).(*session); ok {
			return s
		}
	}
	return &session{stdin: os.Stdin, stdout: &countingWriter{w: os.Stdout}, stderr: os.Stderr}
}

// countingWriter counts what went through it, so that Run knows whether
// a command printed its result before failing.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// outAnnotation marks the -o/--out flags whose file prepareOutput
// writes; a command that writes its own file (dot renders pictures) has
// an unmarked one.
const outAnnotation = "vsym-out-file"

// addOutFlag registers -o/--out FILE on cmd.
func addOutFlag(f *pflag.FlagSet, out *string, what string) {
	f.StringVarP(out, "out", "o", "", "write "+what+" to this file instead of standard output")
	_ = f.SetAnnotation("out", outAnnotation, []string{"true"})
}

// The formats of --output, for its help.
const (
	textJSONFormats = "text or json (one JSON document, errors included)"
	sarifFormats    = "text, json (one JSON document, errors included) or sarif (SARIF 2.1.0, for code scanning: docs/ci.md)"
)

// addOutputFlag registers --output on cmd, a long flag only; formats
// lists its values for the help.
func addOutputFlag(f *pflag.FlagSet, output *string, formats string) {
	f.StringVar(output, "output", "text", "output format: "+formats)
}

// prepareOutput runs before every command: it checks -o/--out and, when
// it names a file, collects the command's output for writing at the end.
func prepareOutput(cmd *cobra.Command, args []string) error {
	f := cmd.Flags().Lookup("out")
	if f == nil || f.Annotations[outAnnotation] == nil || f.Value.String() == "" || f.Value.String() == "-" {
		return nil
	}
	out := f.Value.String()
	if slices.Contains(outputFormats, strings.ToLower(out)) {
		return fmt.Errorf("-o/--out names the file to write, and %q is an output format: use --output %s for the format (to write a file named %s, give ./%s)",
			out, strings.ToLower(out), out, out)
	}
	for _, in := range args {
		if in != "-" && sameFile(out, in) {
			return fmt.Errorf("-o %s would overwrite the input spec", out)
		}
	}
	s := sessionOf(cmd)
	s.out = out
	cmd.SetOut(&s.buf)
	return nil
}

// describeOutput sets what the output of cmd is, for the message that
// says which file it went to.
func describeOutput(cmd *cobra.Command, what string) { sessionOf(cmd).what = what }

// Run runs vsym with args on the given streams and returns the process
// exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return execute(rootFor(args), args, stdin, stdout, stderr)
}

// execute runs the command tree root (NewRootCmd, or in tests one with an
// engine double behind explore) as Run describes.
func execute(root *cobra.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Text from the spec and the command line reaches the terminal with
	// its control characters escaped (terminal.go).
	escOut, escErr := &controlEscaper{w: stdout}, &controlEscaper{w: stderr}
	defer escOut.flush()
	defer escErr.flush()
	stderr = escErr
	s := &session{stdin: stdin, stdout: &countingWriter{w: escOut}, stderr: stderr}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(s.stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(context.WithValue(context.Background(), sessionKey{}, s))
	if cmd == nil {
		cmd = root
	}
	code, kind := classify(err)
	printFailure(stderr, cmd, err)
	code = severerExit(s.code, code)
	if err != nil && wantsJSON(cmd, args) && s.buf.Len() == 0 && s.stdout.n == 0 {
		// The command printed no result: the error is the result.
		var dst io.Writer = s.stdout
		if s.out != "" {
			dst = &s.buf
		}
		if err := writeJSON(dst, newErrorDoc(cmd, code, kind, err)); err != nil {
			fmt.Fprintln(stderr, "vsym:", err)
		}
	}
	if s.out != "" && s.buf.Len() > 0 {
		if werr := os.WriteFile(s.out, s.buf.Bytes(), 0o644); werr != nil {
			fmt.Fprintln(stderr, "vsym:", werr)
			return severerExit(code, ExitBadInput)
		}
		what := s.what
		if what == "" {
			what = "the output"
		}
		fmt.Fprintf(stderr, "vsym: wrote %s to %s (%d bytes)\n", what, s.out, s.buf.Len())
	}
	return code
}

// wantsJSON reports whether the command line asked for JSON output: from
// the parsed flag when there is one, else (flag parsing stopped early, or
// the command has no --output) from the arguments as written.
func wantsJSON(cmd *cobra.Command, args []string) bool {
	if f := cmd.Flags().Lookup("output"); f != nil && f.Changed {
		return f.Value.String() == "json"
	}
	for i, a := range args {
		if a == "--" {
			break
		}
		if a == "--output=json" || a == "--output" && i+1 < len(args) && args[i+1] == "json" {
			return true
		}
	}
	return false
}

// errorDocJSON is what a command prints with --output json when it fails
// without a result, documented in the README ("JSON output").
type errorDocJSON struct {
	File     string      `json:"file"`      // the input file, when the command has exactly one
	Command  string      `json:"command"`   // "explore", "gen grw", ...
	ExitCode int         `json:"exit_code"` // as the process exits
	Kind     string      `json:"kind"`      // usage, input, negative, unknown, limit, internal
	Errors   []errorJSON `json:"errors"`
}

// errorJSON is one error: a position (line and col are 0 when there is
// none) and a message without the position.
type errorJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

func newErrorDoc(cmd *cobra.Command, code int, kind string, err error) *errorDocJSON {
	file := ""
	if in := cmd.Flags().Args(); len(in) == 1 {
		file = displayName(in[0])
	}
	name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	if cmd == cmd.Root() {
		name = ""
	}
	return &errorDocJSON{File: file, Command: name, ExitCode: code, Kind: kind, Errors: errorsJSON(file, kind, err)}
}

// errorsJSON splits err, of the given kind, into positioned errors
// (analysis.Errors), each message as failureMessage words it.
func errorsJSON(file, kind string, err error) []errorJSON {
	list := analysis.Errors(file, err)
	out := make([]errorJSON, len(list))
	for i, e := range list {
		msg := e.Msg
		if len(list) == 1 {
			msg = failureMessage(&analysis.Error{Kind: e.Kind, Msg: e.Msg, Limit: e.Limit}, kind)
		}
		out[i] = errorJSON{File: e.Pos.File, Line: e.Pos.Line, Col: e.Pos.Col, Message: msg}
	}
	return out
}

// displayName is how a FILE argument appears in positions and results.
func displayName(arg string) string {
	if arg == "-" {
		return stdinName
	}
	return arg
}

// loadSpec reads and checks the spec named by a FILE argument, in the
// format its extension or --format names (input.go); "-" reads standard
// input (once per run). Every failure is bad input.
func loadSpec(cmd *cobra.Command, arg string, opts ...gsst.Option) (*gsst.System, error) {
	format, err := inputFormat(cmd, arg)
	if err != nil {
		return nil, err
	}
	name, src, err := readInput(cmd, arg)
	if err != nil {
		return nil, err
	}
	return readSpec(cmd, format, name, src, opts...)
}

// readInput reads the FILE argument arg: the file, or standard input
// for "-" (once per run), named as positions and results name it.
func readInput(cmd *cobra.Command, arg string) (name string, src []byte, err error) {
	if arg != "-" {
		src, err := os.ReadFile(arg)
		if err != nil {
			return "", nil, errkind.Wrap(errkind.Input, err)
		}
		return arg, src, nil
	}
	s := sessionOf(cmd)
	if s.stdinRead {
		return "", nil, errkind.Errorf(errkind.Input, "standard input (-) can be read only once")
	}
	s.stdinRead = true
	src, err = io.ReadAll(s.stdin)
	if err != nil {
		return "", nil, errkind.Errorf(errkind.Input, "reading standard input: %w", err)
	}
	return stdinName, src, nil
}

// oneFile accepts exactly one FILE argument, and says what went wrong
// otherwise.
func oneFile(cmd *cobra.Command, args []string) error {
	switch len(args) {
	case 1:
		return nil
	case 0:
		return fmt.Errorf("%s needs a FILE: a GSST spec, or - for standard input", cmd.Name())
	}
	return fmt.Errorf("%s takes one FILE, got %d arguments: %s", cmd.Name(), len(args), strings.Join(args, " "))
}

// someFiles accepts one or more FILE arguments.
func someFiles(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%s needs at least one FILE: a GSST spec, or - for standard input", cmd.Name())
	}
	return nil
}

// noArgs accepts no positional arguments.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s takes no arguments, got %s", cmd.CommandPath(), strings.Join(args, " "))
	}
	return nil
}
