package promela

// An Option sets what the header comment of an emitted model says.
type Option func(*config)

type config struct {
	source  string
	version string
	status  string
}

// Source names the GSST file the model comes from.
func Source(file string) Option { return func(c *config) { c.source = file } }

// Version is the vsym version stamped into the header.
func Version(v string) Option { return func(c *config) { c.version = v } }

// Certification is the certification outcome to report in the header, in
// words (for instance "certified" or "violated: T -> C"). For the reduced
// model the header always states, from Model.Certified, whether verdicts
// are exact; this adds the detail.
func Certification(status string) Option { return func(c *config) { c.status = status } }

func newConfig(opts []Option) config {
	c := config{version: "devel"}
	for _, o := range opts {
		o(&c)
	}
	return c
}
