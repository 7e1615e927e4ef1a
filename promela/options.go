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
