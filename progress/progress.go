package progress

// Phase names a stage of a command's work.
type Phase string

// The phases vsym's layers report.
const (
	Parse    Phase = "parse"            // reading and checking the GSST
	Certify  Phase = "certify"          // detect: Theorem 6, one query per transition (part)
	Build    Phase = "build"            // counterabs: the counter model, one transition after another
	Encode   Phase = "encode"           // the BDD engine encodes the model
	Reach    Phase = "reachable states" // an engine's search for the reachable states
	Deadlock Phase = "deadlocks"        // an engine's search for the nearest deadlocks
	Property Phase = "property"         // an engine decides property K of N
	Proof    Phase = "proof"            // prove: the CHC proof of property K of N
	Emit     Phase = "emit"             // writing a model out (NuSMV, Promela, dot)
)

// Event is a snapshot of a running phase. The figures are those the
// reporting layer has; zero means "not reported".
type Event struct {
	Phase  Phase
	Engine string // "explicit", "bdd", "z3", "spacer"; "" when none
	// Item names what the phase works on (a property, a transition);
	// it is item K of N, counted from 1. K is zero when the phase has
	// no items.
	Item string
	K, N int

	States     int64 // states stored so far (explicit engine)
	Frontier   int64 // states found but not yet expanded (explicit engine)
	Nodes      int64 // BDD nodes in use (BDD engine)
	Iterations int64 // fixpoint iterations so far in this phase (BDD engine)

	// Note, when not empty, is a finding to show at once, while the
	// work goes on: an unbounded variable that keeps growing, so that
	// the search may never end (explore.Growth).
	Note string
}

// Func receives Events. Reporters call it on their own goroutines, some
// of them concurrently (certification runs queries in parallel), so a
// Func must be safe for concurrent use and return quickly.
type Func func(Event)

// Report calls f with e when f is not nil.
func (f Func) Report(e Event) {
	if f != nil {
		f(e)
	}
}

// NameOf returns the name of a back end (a solver, a prover) for
// Event.Engine: its Name() when it has that method, else "".
func NameOf(backEnd any) string {
	if n, ok := backEnd.(interface{ Name() string }); ok {
		return n.Name()
	}
	return ""
}
