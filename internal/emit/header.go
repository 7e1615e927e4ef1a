package emit

import "fmt"

// Header is what the header comment of an emitted model says besides
// what the model itself gives: the GSST file it comes from, the vsym
// version, and the certification outcome in words. Packages nusmv and
// promela take it as options (HeaderOption), each under its own names.
type Header struct {
	Source        string // the GSST file; empty: not said
	Version       string // the vsym version; "devel" unless set
	Certification string // for instance "certified" or "violated: T -> C"; empty: not said
	// Bound, when positive, is the greatest value of every unbounded
	// shared variable in a concrete export; 0 asks for BoundRule.
	Bound int
}

// A HeaderOption sets a field of Header.
type HeaderOption func(*Header)

// Source sets Header.Source.
func Source(file string) HeaderOption { return func(h *Header) { h.Source = file } }

// Version sets Header.Version.
func Version(v string) HeaderOption { return func(h *Header) { h.Version = v } }

// Certification sets Header.Certification.
func Certification(status string) HeaderOption {
	return func(h *Header) { h.Certification = status }
}

// NewHeader returns the header opts set, starting from version "devel".
func NewHeader(opts []HeaderOption) Header {
	h := Header{Version: "devel"}
	for _, o := range opts {
		o(&h)
	}
	return h
}

// Processes writes a number of processes: "1 process", "3 processes".
func Processes(n int) string {
	if n == 1 {
		return "1 process"
	}
	return fmt.Sprintf("%d processes", n)
}
