// Package cli implements the vsym command line: one file per subcommand,
// each with a newXCmd that builds the cobra command and a runX that does
// the work. Errors travel up as values; Main prints them once and maps them
// to the documented exit codes. pipeline.go holds the steps that several
// commands share: flag checks, loading, the --timeout context, and
// certify-then-build of the counter abstraction with its error messages.
// sarif.go writes "--output sarif" for check and explore; completion.go
// teaches the commands shell completion. output.go holds what every
// command shares about its input and output: -o/--out FILE, --output
// (one JSON document on stdout, errors included), "-" for standard
// input, and the argument checks with their usage line; input.go chooses
// the reader of a FILE (GSST YAML, or another tool's model translated
// by package formats, by extension or --format) and keeps the verdicts
// a file announces, and convert.go writes a translation as YAML.
// reach.go answers, after a violated certification, whether the
// witnesses and the asymmetry are reachable from the initial state.
//
// The tests run whole command lines against golden transcripts
// (testdata/transcripts/*.txtar, transcript_test.go; -update rewrites
// them), one after another in the test's process, a few as processes of
// their own (the real binary end to end).
package cli
