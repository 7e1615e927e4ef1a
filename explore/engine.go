package explore

import (
	"context"
	"slices"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/progress"
)

// Engine is what every model checker of vsym implements: the explicit
// engine of explore/explicit and the BDD engine of explore/symbolic.
// Check decides the model's properties at its initial state and fills a
// Report. It honours ctx (an expired or cancelled context stops it with
// an error of kind errkind.Unknown) and the shared Options; settings
// peculiar to one engine are fields of its own type. The conformance
// suite explore/enginetest checks an engine against this contract.
// The model comes from counterabs, which has checked it: engines trust
// it.
type Engine interface {
	Name() string
	Check(ctx context.Context, m *counterabs.Model, opts ...Option) (*Report, error)
}

// Option sets one of the settings every engine understands.
type Option func(*Config)

// Config holds the settings every engine understands. Engines read it
// with NewConfig; users set it with the Option functions.
type Config struct {
	// MaxStates stops the exploration with a *LimitError once more states
	// are reachable, during the search: the explicit engine as soon as it
	// has stored one more, the BDD engine as soon as its growing set of
	// reachable states holds more (it bounds them when it computes them:
	// CountStates). Zero means no bound.
	MaxStates int64
	// MaxMemory stops the exploration with a *LimitError when the memory
	// an engine estimates or samples exceeds it, in bytes. Zero means no
	// bound.
	MaxMemory int64
	// Progress, when not nil, is called at the start of each phase (the
	// reachable states, the deadlocks, each property) and about once
	// every ProgressEvery while one runs, on the search goroutine, with
	// the engine's figures: states and frontier for the explicit engine,
	// BDD nodes and fixpoint iterations for the BDD engine.
	Progress      progress.Func
	ProgressEvery time.Duration
	// Properties restricts checking to the named properties, in the given
	// order; nil means all of the model's properties.
	Properties []string
	// Traces says whether counterexamples and witnesses are built.
	Traces bool
	// CountStates asks for the number of reachable states and deadlocks.
	// The explicit engine always has them; the BDD engine computes the
	// reachable states only when asked, since every CTL verdict at the
	// initial state can be decided without them.
	CountStates bool
	// CountConcrete asks a group-counter exploration for the number of
	// process-indexed configurations (Report.ConcreteStates).
	CountConcrete bool
	// CheckDeadlocks asks for Report.DeadlockFree (with shortest paths to
	// the nearest deadlocks) even when states are not counted.
	CheckDeadlocks bool
	// MaxWork bounds the work of a symbolic engine, in decision-diagram
	// nodes produced (every node created counts): it stops with an error
	// of kind errkind.Limit once they are more. Unlike time, the measure
	// does not depend on the machine or its load. Zero means no bound;
	// engines without diagrams ignore it.
	MaxWork int
	// Bound, when positive, is the largest value the search lets an
	// unbounded shared variable take: a reachable step that takes one
	// beyond it stops the search with a *LimitError of kind "bound".
	// When none does, the bound decided nothing and the report is the
	// one without it. Zero means no bound.
	Bound int64
}

// NewConfig returns the configuration opts set, starting from the
// defaults: no limits, all properties, traces on, counts on.
func NewConfig(opts ...Option) Config {
	c := Config{Traces: true, CountStates: true, CountConcrete: true}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// MaxStates bounds the reachable states (see Config.MaxStates).
func MaxStates(n int64) Option { return func(c *Config) { c.MaxStates = max(n, 0) } }

// MaxMemory bounds the memory in bytes (see Config.MaxMemory).
func MaxMemory(b int64) Option { return func(c *Config) { c.MaxMemory = max(b, 0) } }

// MaxWork bounds the work of a symbolic engine (see Config.MaxWork).
func MaxWork(n int) Option { return func(c *Config) { c.MaxWork = max(n, 0) } }

// Bound bounds the values of the unbounded shared variables (see
// Config.Bound).
func Bound(k int64) Option { return func(c *Config) { c.Bound = max(k, 0) } }

// OnProgress calls f at the start of each phase and about once every
// interval while one runs (see Config.Progress).
func OnProgress(interval time.Duration, f progress.Func) Option {
	return func(c *Config) { c.Progress, c.ProgressEvery = f, interval }
}

// Properties restricts checking to the named properties, in the given
// order; a name the model does not define makes Check fail with an
// errkind.Input error.
func Properties(names ...string) Option {
	return func(c *Config) { c.Properties = append([]string{}, names...) }
}

// Traces turns counterexamples and witnesses on or off.
func Traces(on bool) Option { return func(c *Config) { c.Traces = on } }

// CountStates asks for (or waives) the reachable-state and deadlock
// counts (see Config.CountStates).
func CountStates(on bool) Option { return func(c *Config) { c.CountStates = on } }

// CheckDeadlocks asks every engine to decide whether a deadlock is
// reachable (see Config.CheckDeadlocks).
func CheckDeadlocks(on bool) Option { return func(c *Config) { c.CheckDeadlocks = on } }

// CountConcrete turns the count of process-indexed configurations of a
// group-counter exploration on or off.
func CountConcrete(on bool) Option { return func(c *Config) { c.CountConcrete = on } }

// SelectProperties returns the model's properties that c asks for, in
// its order: all of them when c names none.
func (c Config) SelectProperties(m *counterabs.Model) ([]*counterabs.Property, error) {
	if c.Properties == nil {
		out := make([]*counterabs.Property, len(m.Properties))
		for i := range m.Properties {
			out[i] = &m.Properties[i]
		}
		return out, nil
	}
	out := make([]*counterabs.Property, 0, len(c.Properties))
	for _, name := range c.Properties {
		i := slices.IndexFunc(m.Properties, func(p counterabs.Property) bool { return p.Name == name })
		if i < 0 {
			return nil, errkind.Errorf(errkind.Input, "no property named %q", name)
		}
		out = append(out, &m.Properties[i])
	}
	return out, nil
}
