// Package cli implements the vsym command line: one file per subcommand,
// each with a newXCmd that builds the cobra command and a runX that does
// the work. Errors travel up as values; Main prints them once and maps them
// to the documented exit codes.
package cli
