package counterabs

import (
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Model is the counter abstraction of a GSST: one counter x_i in 0..N per
// local state i, summing to N. Counter i is the presburger variable
// presburger.Var(i), which is also the system's total-counter variable
// System.TotalVar(i), so property atoms apply to counter vectors as they
// are.
type Model struct {
	System      *gsst.System
	N           int
	Init        []int // initial counter vector
	Transitions []Transition
	// Certified is false when the model was built with Force for a system
	// that is not certified fully virtually symmetric: it then
	// over-approximates the quotient and verdicts on it are not exact.
	Certified bool

	// deadlock is Deadlock simplified with the solver, set by Build;
	// deadlockKey identifies the guards it was computed for, so that a
	// copy of the model with other transitions does not use it.
	deadlock    presburger.Formula
	deadlockKey string
}

// Transition is the abstract transition of one local transition r: when
// Guard (g_r) holds, x_From decreases by one and x_To increases by one.
// Guard implies x_From >= 1.
type Transition struct {
	From, To int
	Guard    presburger.Formula // over counter variables presburger.Var(i)
	Case     Case               // how Guard was built
	Local    *gsst.Transition   // the local transition it abstracts
}

// Case says how a guard g_r was constructed (section 5 of Wei, Gurfinkel
// and Chechik, plus exact projection beyond the paper's fragment).
type Case int

const (
	CaseA          Case = iota // one guard over total counters
	CaseB                      // several guards, all over total counters
	CaseC                      // group counters on the source state only: orbit formulas with summed bounds
	CaseProjection             // any other guard: existential projection of Dom(R_r) onto total counters
)

func (c Case) String() string {
	return [...]string{CaseA: "a", CaseB: "b", CaseC: "c", CaseProjection: "projection"}[c]
}
