package analysis

import "fmt"

// Verdict is the answer to a command's question as a whole, beside its
// report: the command line maps it to the exit code (0, 1, 3).
type Verdict int

const (
	// Yes: certified, every property holds, the picture is drawn.
	Yes Verdict = iota
	// Unknown: some answer was not found (a solver's unknown, a limit),
	// or is not exact (a forced model's verdict that does not carry
	// over to the system). Never a success.
	Unknown
	// No: a negative answer: not fully virtually symmetric, some
	// property fails, no fair run.
	No
)

var verdictNames = [...]string{Yes: "yes", Unknown: "unknown", No: "no"}

func (v Verdict) String() string {
	if v < 0 || int(v) >= len(verdictNames) {
		return fmt.Sprintf("Verdict(%d)", int(v))
	}
	return verdictNames[v]
}

// Worse returns the more severe of v and w: a definite No over Unknown
// over Yes.
func (v Verdict) Worse(w Verdict) Verdict { return max(v, w) }
