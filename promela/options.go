package promela

import "github.com/vsym/vsym/internal/emit"

// An Option sets what the header comment of an emitted model says
// (emit.Header, shared with the other emitter).
type Option = emit.HeaderOption

// Source names the GSST file the model comes from.
func Source(file string) Option { return emit.Source(file) }

// Version is the vsym version stamped into the header.
func Version(v string) Option { return emit.Version(v) }

// Certification is the certification outcome to report in the header, in
// words (for instance "certified" or "violated: T -> C"). For the reduced
// model the header always states, from Model.Certified, whether verdicts
// are exact; this adds the detail.
func Certification(status string) Option { return emit.Certification(status) }

// Bound sets the greatest value of every unbounded shared variable in
// the concrete model; 0 (the default) is the variable's initial value
// plus the number of processes (emit.BoundRule).
func Bound(b int) Option { return emit.Bound(b) }
