// Package cli implements the vsym command line: one file per subcommand,
// each with a newXCmd that builds the cobra command and a runX that does
// the work. Errors travel up as values; Main prints them once and maps them
// to the documented exit codes. pipeline.go holds the steps that several
// commands share: flag checks, loading, the --timeout context, and
// certify-then-build of the counter abstraction with its error messages.
// sarif.go writes "--output sarif" for check and explore; completion.go
// teaches the commands shell completion.
package cli
