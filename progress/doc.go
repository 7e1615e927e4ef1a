// Package progress carries what a long computation is doing up to the
// layer that shows it. The library packages (detect, counterabs, the
// engines of explore, prove) report Events through a Func their callers
// pass in with their other options; they never print. Rendering is the
// command line's: it throttles the events and draws them on one line of
// a terminal, or drops them.
//
// The package is a leaf: it imports nothing of vsym, so every layer can
// report to it.
package progress
