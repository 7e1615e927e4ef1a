package gsst

import "strings"

// Which constructs of the language a spec uses.

// Extension names a construct beyond the paper's GSSTs. Analyses that
// have not been taught a construct refuse a system that uses it (with
// Spec.Uses), rather than read it as if it were not there.
type Extension uint

var extNames = []string{"shared variables", "parameters", "rendezvous", "broadcast"}

func (x Extension) String() string {
	var out []string
	for i, n := range extNames {
		if x&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// Extensions returns the constructs beyond the paper that s uses.
func (s *Spec) Extensions() Extension {
	var x Extension
	if len(s.Shared) > 0 {
		x |= ExtShared
	}
	if len(s.Params) > 0 {
		x |= ExtParams
	}
	if len(s.Rendezvous) > 0 {
		x |= ExtRendezvous
	}
	for i := range s.Transitions {
		if len(s.Transitions[i].Broadcast) > 0 {
			x |= ExtBroadcast
		}
	}
	return x
}

// Unsupported returns an error naming what of s lies beyond supported,
// for an analysis that handles only the constructs in supported (and
// those of the paper); nil when s uses nothing else.
func (s *Spec) Unsupported(analysis string, supported Extension) error {
	if x := s.Extensions() &^ supported; x != 0 {
		return &UnsupportedError{Analysis: analysis, Uses: x}
	}
	return nil
}

// UnsupportedError says that an analysis does not handle a construct a
// system uses.
type UnsupportedError struct {
	Analysis string
	Uses     Extension
}

func (e *UnsupportedError) Error() string {
	return e.Analysis + " does not handle " + e.Uses.String() + " yet"
}

const (
	ExtShared     Extension = 1 << iota // shared variables
	ExtParams                           // parameters (and sizes over them)
	ExtRendezvous                       // rendezvous steps
	ExtBroadcast                        // broadcast transitions
)
