package explore

import (
	"fmt"
	"math/big"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
)

// This file holds the engine-independent results: every engine (the
// explicit one in this package, the BDD one in explore/symbolic) fills the
// same Report, so the command line prints and encodes them in one place.
// Keep the JSON field names stable: docs/explore.md documents them.

// Report is the outcome of one exploration.
//
// Counts are *big.Int because the symbolic engine counts states far beyond
// 2^64; in JSON they are plain numbers (encoding/json writes a *big.Int as
// its decimal digits), so JSON readers should parse them as big numbers.
type Report struct {
	System string           `json:"system"` // System.Name
	Engine string           `json:"engine"` // "explicit" or "bdd"
	Model  counterabs.Level `json:"model"`  // "total" or "group"
	// Exact is false when the model is a forced abstraction of an
	// uncertified system: it over-approximates the quotient, so counts and
	// verdicts may be wrong in either direction.
	Exact bool `json:"exact"`
	// Method says how the engine searched: "forward" (the explicit engine
	// enumerates the reachable states and checks over them), "backward"
	// (the BDD engine decides every property backwards from its atoms,
	// without reachable states), or "reachable-first" (the BDD engine
	// computes the reachable states first and restricts every fixpoint to
	// them). All three decide the same verdicts at the initial state.
	Method string `json:"method"`
	// ReachableStates counts reachable states of the explored model:
	// total-counter vectors or group-counter vectors. Nil when the engine
	// decided the properties without computing them.
	ReachableStates *big.Int `json:"reachable_states"`
	// ConcreteStates, set for group-counter models only, counts the
	// process-indexed configurations the reachable states stand for: the
	// sum over reachable group-counter vectors y of prod_g
	// multinomial(size_g; y[g]). It is the number of configurations
	// reachable from any initial configuration whose group counters are
	// the system's Init.
	ConcreteStates *big.Int `json:"concrete_states,omitempty"`
	// Deadlocks counts reachable states where no transition is enabled.
	// Engines treat them as having a stutter self-loop.
	Deadlocks        *big.Int         `json:"deadlocks"`
	DeadlockExamples []State          `json:"deadlock_examples,omitempty"`
	Properties       []PropertyResult `json:"properties"`
	Stats            Stats            `json:"stats"`
}

// Stats are engine figures for people, not part of any verdict. Every
// engine fills the fields that apply to it.
type Stats struct {
	Seconds     float64 `json:"seconds"`
	StoredBytes int64   `json:"stored_bytes,omitempty"` // explicit: state store at the end of the search
	// BDD engine: the most BDD nodes in use at any sample point, the
	// largest Go heap sampled (runtime/metrics) in bytes, the number of
	// BDD variables, the time to build the encoding, and the iterations
	// and time of the reachable-state fixpoint when it ran.
	BDDPeakNodes int64   `json:"bdd_peak_nodes,omitempty"`
	PeakBytes    int64   `json:"peak_bytes,omitempty"`
	BDDVars      int     `json:"bdd_vars,omitempty"`
	BuildSeconds float64 `json:"build_seconds,omitempty"`
	ReachIters   int     `json:"reach_iterations,omitempty"`
	ReachSeconds float64 `json:"reach_seconds,omitempty"`
}

// PropertyResult is the verdict on one property in the initial state.
type PropertyResult struct {
	Name  string   `json:"name"`
	Text  string   `json:"text,omitempty"`
	Pos   gsst.Pos `json:"-"` // of the property in the spec; the command line prints it
	Holds bool     `json:"holds"`
	// Trace explains the verdict when the engine can: a counterexample for
	// a failed AG, AX, AF or A[U], a witness for a holding EF, EX, EG or
	// E[U]. Nil otherwise.
	Trace *Trace `json:"trace"`
}

// TraceKind says what a trace shows.
type TraceKind string

const (
	Counterexample TraceKind = "counterexample"
	Witness        TraceKind = "witness"
)

// Trace is a path of the explored model starting in the initial state.
// States[i+1] is a successor of States[i]; a deadlock state's successor
// is itself (stutter). When Loop >= 0 the path is a lasso: the successor
// of the last state is States[Loop], and the run repeats forever.
type Trace struct {
	Kind   TraceKind `json:"kind"`
	States []State   `json:"states"`
	Loop   int       `json:"loop"` // -1: no loop
	// Lifted is the same run on the unreduced system, process by process.
	Lifted *Lifted `json:"lifted,omitempty"`
}

// State is one state of a trace.
type State struct {
	// Counters[s] is the total counter #S of local state s.
	Counters []int `json:"counters"`
	// Groups[g][s] is the group counter #S[g]; group-counter models only.
	Groups [][]int `json:"groups,omitempty"`
}

// modelState converts a state x of m (a value per counter) to a State.
func modelState(m *counterabs.Model, x []int) State {
	return State{Counters: m.Totals(x), Groups: m.Groups(x)}
}

// ModelState converts a state x of m (a value per counter) to a trace
// State, for engines outside this package.
func ModelState(m *counterabs.Model, x []int) State { return modelState(m, x) }

// Lifted is a trace replayed on the unreduced system. Processes are named
// by group and by index within the group (0-based). In the initial
// configuration the processes of group g occupy the local states in
// order: the first Init[g][0] processes are in state 0, the next
// Init[g][1] in state 1, and so on.
//
// Configuration 0 is the initial one and Steps[i] leads from configuration
// i to configuration i+1. When Loop >= 0 the configuration after the last
// step equals configuration Loop, so the steps from Loop on repeat
// forever. A loop of the counter trace may have to be unrolled several
// times before the process identities repeat, so the lifted trace can be
// longer than the counter trace; a stutter step at a deadlock leaves the
// configuration unchanged.
type Lifted struct {
	Steps []Step `json:"steps"`
	Loop  int    `json:"loop"`
	// Error, when not empty, says why lifting stopped early: some abstract
	// step had no matching process move. That can happen only on a
	// forced, uncertified model, where the abstraction is not exact.
	Error string `json:"error,omitempty"`
}

// Step is one move of one process: process Process of group Group moves
// from local state From to local state To by transition Transition (an
// index into System.Transitions). A stutter step (deadlock) moves nobody.
type Step struct {
	Stutter    bool   `json:"stutter,omitempty"`
	Transition int    `json:"transition"`
	Group      int    `json:"group"`
	GroupName  string `json:"group_name"`
	Process    int    `json:"process"`
	From       int    `json:"from"`
	To         int    `json:"to"`
	FromName   string `json:"from_name"`
	ToName     string `json:"to_name"`
}

func (s Step) String() string {
	if s.Stutter {
		return "stutter (deadlock)"
	}
	return fmt.Sprintf("%s[%d]: %s -> %s", s.GroupName, s.Process, s.FromName, s.ToName)
}

// Progress is a snapshot of a running search, for progress displays.
type Progress struct {
	States   int64         // states stored so far
	Frontier int64         // states discovered but not yet expanded
	Elapsed  time.Duration // since the search started
}

// Rate returns stored states per second.
func (p Progress) Rate() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.States) / p.Elapsed.Seconds()
}

// LimitError reports a search stopped by a resource limit (state count or
// memory); errors.Is(err, errkind.Limit) holds.
type LimitError struct {
	Kind   string // "states" or "memory"
	Limit  int64  // the configured bound (states or bytes)
	States int64  // states stored when the search stopped
	Bytes  int64  // estimated bytes in use when the search stopped
}

func (e *LimitError) Error() string {
	switch e.Kind {
	case "memory":
		if e.States == 0 {
			return fmt.Sprintf("memory limit of %s reached (about %s in use)",
				FormatBytes(e.Limit), FormatBytes(e.Bytes))
		}
		return fmt.Sprintf("memory limit of %s reached after %d states (about %s in use)",
			FormatBytes(e.Limit), e.States, FormatBytes(e.Bytes))
	}
	return fmt.Sprintf("state limit of %d reached", e.Limit)
}

// Is makes errors.Is(err, errkind.Limit) hold.
func (e *LimitError) Is(target error) bool { return target == errkind.Limit }

// FormatBytes writes n with a binary unit (KiB, MiB, GiB).
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
