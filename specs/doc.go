// Package specs bundles vsym's example GSST files and generates the two
// parameterized families of section 6 of Wei, Gurfinkel and Chechik.
//
// The bundled files (*.yaml in this directory and in threshold) are
// embedded in the binary; List names them and Read returns one.
//
// GRW writes generalized readers/writers: d priority groups of q processes
// that cycle through m local states and compete for the critical state.
// ASR writes a reconstruction of asymmetric sharing of resources: n
// processes, r resources, each owned by one group of processes that may
// overtake the others at its resource. Both produce YAML text in the format
// of docs/gsst-format.md, so they exercise the parser exactly as a user's
// file does; both reject parameters out of range with an error.
package specs
