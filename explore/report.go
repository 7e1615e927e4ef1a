package explore

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
)

// This file holds the engine-independent results: every engine (the
// explicit one in explore/explicit, the BDD one in explore/symbolic) fills the
// same Report, so the command line prints and encodes them in one place.
// Keep the JSON field names stable: docs/explore.md documents them.

// Report is the outcome of one exploration.
//
// Counts are *big.Int because the symbolic engine counts states far beyond
// 2^64; in JSON they are plain numbers (encoding/json writes a *big.Int as
// its decimal digits), so JSON readers should parse them as big numbers.
type Report struct {
	System string           `json:"system"` // System.Name
	Model  counterabs.Level `json:"model"`  // "total" or "group"
	// Exact is false when the model is a forced abstraction of an
	// uncertified system: it over-approximates the quotient, so counts and
	// verdicts may be wrong in either direction.
	Exact bool `json:"exact"`
	// ReachableStates counts reachable states of the explored model:
	// total-counter vectors or group-counter vectors. Set exactly when
	// the caller asked for counts (CountStates), by every engine alike;
	// nil otherwise.
	ReachableStates *big.Int `json:"reachable_states"`
	// ConcreteStates, set for group-counter models only, counts the
	// process-indexed configurations the reachable states stand for: the
	// sum over reachable group-counter vectors y of prod_g
	// multinomial(size_g; y[g]). It is the number of configurations
	// reachable from any initial configuration whose group counters are
	// the system's Init. Set with the counts, when ConcreteCountable
	// allows it.
	ConcreteStates *big.Int `json:"concrete_states,omitempty"`
	// Deadlocks counts reachable states where no transition is enabled,
	// set with ReachableStates. Engines treat them as having a stutter
	// self-loop. On a forced model (Exact false) it counts the states
	// where some configuration with those totals may be deadlocked
	// (counterabs.Model.MayDeadlock), which have a stutter loop besides
	// their transitions.
	Deadlocks *big.Int `json:"deadlocks"`
	// DeadlockFree says whether no deadlock is reachable: set whenever the
	// caller asked for counts or for the deadlock check (CheckDeadlocks).
	DeadlockFree *bool `json:"deadlock_free,omitempty"`
	// DeadlockExamples are up to three reachable deadlocks at the least
	// distance from the initial state, the least of them in the order of
	// states (LessState), and DeadlockTraces[i] the canonical shortest
	// path to DeadlockExamples[i] (kind "deadlock", looping at its last
	// state: the stutter), lifted to the unreduced system.
	DeadlockExamples []State          `json:"deadlock_examples,omitempty"`
	DeadlockTraces   []*Trace         `json:"deadlock_traces,omitempty"`
	Properties       []PropertyResult `json:"properties"`
	// Fairness lists the justice constraints in force, as the spec
	// writes them; path quantifiers range over the paths that meet each
	// infinitely often. Empty without fairness.
	Fairness []string `json:"fairness,omitempty"`
	// Stats say which engine answered and how; they are the only part of
	// a report that depends on the engine.
	Stats Stats `json:"stats"`
}

// SharedBound is the bound up to which an engine encoded an unbounded
// shared variable (Stats.SharedBounds).
type SharedBound struct {
	Name string `json:"name"`
	Max  int64  `json:"max"`
}

// FairnessTexts returns the texts of m's justice constraints, for
// Report.Fairness.
func FairnessTexts(m *counterabs.Model) []string {
	var out []string
	for _, j := range m.Justice {
		out = append(out, j.Text)
	}
	return out
}

// Stats are engine figures for people, not part of any verdict: every
// other field of a Report is the same whichever engine filled it. Every
// engine fills the fields that apply to it.
type Stats struct {
	// Engine is the engine that answered, "explicit" or "bdd".
	Engine string `json:"engine"`
	// Method says how it searched: "forward" (the explicit engine
	// enumerates the reachable states and checks over them), "backward"
	// (the BDD engine decides every property backwards from its atoms,
	// without reachable states), or "reachable-first" (the BDD engine
	// computes the reachable states first and restricts every fixpoint to
	// them). All three decide the same verdicts at the initial state.
	Method      string  `json:"method"`
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
	// SharedBounds, from the BDD engine, are the bounds up to which it
	// encoded the unbounded shared variables: no reachable state has a
	// step that takes one beyond its bound, so no verdict depends on
	// them.
	SharedBounds []SharedBound `json:"shared_bounds,omitempty"`
}

// PropertyResult is the verdict on one property in the initial state.
type PropertyResult struct {
	Name  string   `json:"name"`
	Text  string   `json:"text,omitempty"`
	Pos   gsst.Pos `json:"-"` // of the property in the spec; the command line prints it
	Holds bool     `json:"holds"`
	// Inconclusive, set on a forced model only (Report.Exact false), says
	// why the verdict does not carry over to the system. The
	// over-approximation simulates the system, so a universal (ACTL)
	// property that holds on it holds in the system: such a verdict is
	// conclusive, and every other one (a failure, a property with an
	// existential path quantifier, weak fairness constraints) is not.
	Inconclusive string `json:"inconclusive,omitempty"`
	// Vacuous is set when the property holds only because no fair path
	// starts in the initial state (the model's justice constraints exclude
	// every run): then every property holds, as in NuSMV.
	Vacuous bool `json:"vacuous,omitempty"`
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
	// DeadlockPath is a shortest path to a reachable deadlock.
	DeadlockPath TraceKind = "deadlock"
)

// DeadlockTrace returns the trace of a path to a deadlock: its last
// state loops on itself (the stutter step), and its one segment is a path
// on which "deadlock-free" fails, ending where "deadlock" holds. It is
// lifted to the unreduced system sys, where the stutter is checked: no
// process can move in the configuration reached.
func DeadlockTrace(ctx context.Context, sys *gsst.System, path []State) *Trace {
	last := len(path) - 1
	tr := &Trace{Kind: DeadlockPath, States: path, Loop: last, Segments: []Segment{{
		Formula: "deadlock-free", Kind: PathSegment, Start: 0, End: last, Target: "deadlock", TargetHolds: true,
	}}}
	tr.Lifted = Lift(ctx, sys, tr)
	return tr
}

// NewPropertyResult returns the result of property p of m before its
// verdict: its name, text (the formula printed when the spec gave none)
// and position. Every engine starts each PropertyResult with it.
func NewPropertyResult(m *counterabs.Model, p *counterabs.Property) PropertyResult {
	res := PropertyResult{Name: p.Name, Text: p.Text, Pos: p.Pos}
	if res.Text == "" {
		res.Text = m.FormatProperty(p.Formula)
	}
	return res
}

// Conclude sets res.Inconclusive for a verdict on property p of a forced
// model m (see PropertyResult.Inconclusive); on an exact model it does
// nothing. Every engine calls it once Holds and Vacuous are set.
//
// On a forced model every run of the system has an abstract counterpart
// (deadlocks included: Model.MayDeadlock), and the counterpart of a fair
// run is fair as long as every constraint is a justice condition over
// total counters, which read the same on both. Then a universal property
// that holds abstractly holds in the system, and so does any property
// when no fair run starts in the abstract initial state (nor can one in
// the system). Weak fairness of a transition is not preserved: the
// abstract guard may hold where the configuration cannot take it.
func Conclude(m *counterabs.Model, p *counterabs.Property, res *PropertyResult) {
	if m.Exact {
		return
	}
	for _, j := range m.Justice {
		if j.Weak {
			res.Inconclusive = "the over-approximating model does not preserve weak fairness of transitions (a transition may be enabled in its counter vector but not in the configuration)"
			return
		}
	}
	switch {
	case res.Vacuous:
	case !res.Holds:
		res.Inconclusive = "fails on the over-approximating model, whose runs include some the system does not have"
	case !ctl.Universal(p.Formula):
		res.Inconclusive = "holds on the over-approximating model, but it has an existential path quantifier, and only universal (ACTL) properties carry over to the system"
	}
}

// Trace is a path of the explored model starting in the initial state.
// States[i+1] is a successor of States[i]; a deadlock state's successor
// is itself (stutter). When Loop >= 0 the path is a lasso: the successor
// of the last state is States[Loop], and the run repeats forever.
//
// Segments say which subformula each part of the path explains, in
// order; consecutive segments share their boundary state. Branches hold
// the explanations of further subformulas that the path does not show
// (both operands of a conjunction of existential claims): each is a
// trace of its own from the initial state.
type Trace struct {
	Kind   TraceKind `json:"kind"`
	States []State   `json:"states"`
	Loop   int       `json:"loop"` // -1: no loop
	// Lifted is the same run on the unreduced system, process by process.
	Lifted   *Lifted   `json:"lifted,omitempty"`
	Segments []Segment `json:"segments,omitempty"`
	Branches []*Trace  `json:"branches,omitempty"`
}

// SegmentKind says what a segment of a trace shows.
type SegmentKind string

const (
	// PathSegment: a path from States[Start] to States[End], where
	// Target has truth value TargetHolds (EF, AG, E[U], A[U]). For E[L U R]
	// the states before the last satisfy L; for a failing A[L U R] they
	// violate R.
	PathSegment SegmentKind = "path"
	// RunSegment: as PathSegment, a path from States[Start] to
	// States[End] where Target has truth value TargetHolds, but not
	// known to be a shortest one (vsym prove's refutations, where no
	// breadth-first search of the instance showed one).
	RunSegment SegmentKind = "run"
	// StepSegment: one step to a successor where Target has truth value
	// TargetHolds (EX, AX).
	StepSegment SegmentKind = "step"
	// LassoSegment: a path from States[Start] to the end of the trace,
	// which loops back to States[Loop]; Target has truth value
	// TargetHolds in every state of it, and the cycle meets every
	// fairness constraint (EG, AF, A[U] through an infinite path).
	LassoSegment SegmentKind = "lasso"
	// FairContinuation: a fair lasso that continues a run ending in a
	// state where a fair path starts, shown when the model has fairness
	// constraints so that the whole trace is a fair run.
	FairContinuation SegmentKind = "fair-continuation"
)

// Segment is one part of a trace: the states Start..End (indices into
// Trace.States, and into the lifted run's configurations) explain why
// Formula has truth value Holds at States[Start].
type Segment struct {
	Formula     string      `json:"formula,omitempty"`
	Holds       bool        `json:"holds"`
	Kind        SegmentKind `json:"kind"`
	Start       int         `json:"start"`
	End         int         `json:"end"`
	Target      string      `json:"target,omitempty"`
	TargetHolds bool        `json:"target_holds"`
}

// State is one state of a trace. In JSON it is an object naming each
// counter as the GSST language writes it (state.go).
type State struct {
	// Counters[s] is the total counter #S of local state s.
	Counters []int
	// Groups[g][s] is the group counter #S[g]; group-counter models only.
	Groups [][]int
	// Shared[j] is the value of shared variable j; nil when the system
	// has none.
	Shared []int
	// text keeps enumeration constants read from JSON (UnmarshalJSON).
	text []string
	// sys names the states and groups in JSON; nil for a State made by
	// hand, whose counters are then named by index.
	sys *gsst.System
}

// CounterState converts a state x of model m (a value per counter, as
// m.Counters orders them) to a trace State that names its counters after
// m's system. Every engine makes its trace states with it.
func CounterState(m *counterabs.Model, x []int) State {
	return State{Counters: m.Totals(x), Groups: m.Groups(x), Shared: m.SharedValues(x), sys: m.System}
}

// SystemState makes a trace State of sys from its total counters and,
// for a state of a group-counter model, its group counters [group][state]
// (nil otherwise), for traces that come from outside the engines (a
// safety prover's counterexample, package prove). The State names its
// counters after sys in JSON.
func SystemState(sys *gsst.System, totals []int, groups [][]int) State {
	return State{Counters: totals, Groups: groups, sys: sys}
}

// WithShared returns s with the shared values vals (a value per shared
// variable of its system).
func (s State) WithShared(vals []int) State {
	s.Shared = vals
	return s
}

// Lifted is a trace replayed on the unreduced system. Processes are named
// by group and by index within the group (0-based). In the initial
// configuration the processes of group g occupy the local states in
// order: the first Start.Counts[g][0] processes are in state 0, the next
// Start.Counts[g][1] in state 1, and so on; Start is the system's
// initial configuration the trace starts from (InitConfig, when the
// system has one).
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
	// Start is the initial configuration the steps start from.
	Start gsst.Config `json:"-"`
}

// Step is one move of one process: process Process of group Group moves
// from local state From to local state To by transition Transition (an
// index into System.Transitions). A stutter step (deadlock) moves nobody.
//
// Beyond the paper a step moves more: a rendezvous (Transition -1,
// Rendezvous its index in System.Rendezvous) moves the process of its
// first part as above and those of its other parts (Also); a broadcast
// moves the processes in Transferred besides. Shared holds the values of
// the shared variables after the step (nil when the system has none); in
// JSON an object as in a State.
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
	Rendezvous *int   `json:"rendezvous,omitempty"`
	// Environment is the index of the environment step taken (a step
	// that moves no process: Group, Process, From and To are -1), and
	// EnvironmentName its name.
	Environment     *int    `json:"environment,omitempty"`
	EnvironmentName string  `json:"environment_name,omitempty"`
	Also            []Mover `json:"also,omitempty"`
	Transferred     []Mover `json:"transferred,omitempty"`
	Shared          []int   `json:"-"`

	sys *gsst.System // names the shared values
}

// Mover is one more process moved by a step: a part of a rendezvous or
// a process a broadcast transfers.
type Mover struct {
	Group     int    `json:"group"`
	GroupName string `json:"group_name"`
	Process   int    `json:"process"`
	From      int    `json:"from"`
	To        int    `json:"to"`
	FromName  string `json:"from_name"`
	ToName    string `json:"to_name"`
}

func (m Mover) String() string {
	return fmt.Sprintf("%s[%d]: %s -> %s", m.GroupName, m.Process, m.FromName, m.ToName)
}

// MarshalJSON writes a step as its fields do, with the shared values
// after the step under "shared" when the system has shared variables.
func (s Step) MarshalJSON() ([]byte, error) {
	type plain Step
	b, err := json.Marshal(plain(s))
	if err != nil || s.Shared == nil {
		return b, err
	}
	out := append(b[:len(b)-1:len(b)-1], `,"shared":`...)
	out = append(out, sharedJSON(s.sys, s.Shared, nil)...)
	return append(out, '}'), nil
}

func (s Step) String() string {
	if s.Stutter {
		return "stutter (deadlock)"
	}
	var b strings.Builder
	switch {
	case s.Environment != nil:
		fmt.Fprintf(&b, "environment: %s", s.EnvironmentName)
	case s.Rendezvous != nil:
		fmt.Fprintf(&b, "rendezvous: ")
	}
	if s.Environment == nil {
		fmt.Fprintf(&b, "%s[%d]: %s -> %s", s.GroupName, s.Process, s.FromName, s.ToName)
	}
	for _, m := range s.Also {
		fmt.Fprintf(&b, ", %s", m)
	}
	if len(s.Transferred) > 0 {
		b.WriteString("; transfers")
		for i, m := range s.Transferred {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s", m)
		}
	}
	if s.Shared != nil {
		b.WriteString("  (" + sharedText(s.sys, s.Shared) + ")")
	}
	return b.String()
}

// sharedText writes shared values as "lock=true turn=writer"
// (gsst's FormatShared; positions when no system names them).
func sharedText(sys *gsst.System, vals []int) string {
	if sys != nil && len(vals) == len(sys.Shared) {
		return sys.FormatShared(vals)
	}
	return fmt.Sprint(vals)
}

// SharedText writes the shared values of s as "lock=true turn=writer",
// "" when it has none.
func (s State) SharedText() string {
	if s.Shared == nil {
		return ""
	}
	return sharedText(s.sys, s.Shared)
}

// LimitError reports a search stopped by a resource limit (state count,
// memory, or the bound of the unbounded shared variables);
// errors.Is(err, errkind.Limit) holds.
type LimitError struct {
	Kind   string // "states", "memory" or "bound"
	Limit  int64  // the configured bound (states, bytes, or the value of Config.Bound)
	States int64  // states stored when the search stopped
	Bytes  int64  // estimated bytes in use when the search stopped
	// Note, when not empty, says why the states may not be finite (a
	// model with unbounded shared variables).
	Note string
	// Growth, when not nil, is an unbounded shared variable that kept
	// growing (growth.go): raising the limit will not help.
	Growth *Growth
}

func (e *LimitError) Error() string {
	var msg string
	switch {
	case e.Kind == "bound":
		return fmt.Sprintf("a reachable step takes shared variable %s beyond the bound %d (--bound, initially %d): the state space may be infinite; vsym prove decides safety properties for every value",
			e.Growth.Var, e.Limit, e.Growth.Init)
	case e.Kind == "memory" && e.States == 0:
		msg = fmt.Sprintf("memory limit of %s reached (about %s in use)", FormatBytes(e.Limit), FormatBytes(e.Bytes))
	case e.Kind == "memory":
		msg = fmt.Sprintf("memory limit of %s reached after %d states (about %s in use)", FormatBytes(e.Limit), e.States, FormatBytes(e.Bytes))
	case e.Note != "" && e.Growth == nil:
		msg = fmt.Sprintf("state limit of %d reached (%s)", e.Limit, e.Note)
	default:
		msg = fmt.Sprintf("state limit of %d reached", e.Limit)
	}
	if e.Growth != nil {
		msg += "; " + e.Growth.String()
	}
	return msg
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
