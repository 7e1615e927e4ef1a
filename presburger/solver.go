package presburger

import (
	"context"
	"fmt"
)

// Result is a solver's answer to a satisfiability question.
type Result int

const (
	// Unknown means the solver gave no answer (timeout, resource limit,
	// incompleteness). It is never to be read as Sat or Unsat.
	Unknown Result = iota
	Sat
	Unsat
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Problem asks whether F has a model in which every variable lies in its
// range. Every free variable of F must appear in Bounds; a variable that
// appears more than once lies in the intersection of its ranges. A range
// may be open on either side (AtLeast, AnyInt): the Z3 solver decides
// such problems, BruteForce refuses them.
type Problem struct {
	Bounds []Bound
	F      Formula
}

// Model is a satisfying assignment of a Problem's variables.
type Model map[Var]int64

// Answer is the outcome of Solve. Model is set when Result is Sat; Reason
// says why when Result is Unknown, and Stopped says whether a time bound
// or a cancellation (of the context or of the back end's own timeout)
// made it Unknown, so that a caller can offer more time without reading
// Reason.
type Answer struct {
	Result  Result
	Model   Model
	Reason  string
	Stopped bool
}

// A Solver decides Problems. Solve honours ctx's deadline and cancellation
// by answering Unknown; it returns an error only for malformed problems or
// a failing back end.
type Solver interface {
	Solve(ctx context.Context, p Problem) (Answer, error)
}

// A Forgetter is a Solver whose models can depend on what it solved
// before (Z3 with its reused contexts). Forget has it answer the calls
// that follow as a new one would: a caller that ran calls on several
// goroutines, in an order that depends on timing, forgets before the
// calls whose models it follows, so that they are the same on every
// run.
type Forgetter interface {
	Solver
	Forget()
}

// Forget calls s.Forget when s is a Forgetter.
func Forget(s Solver) {
	if f, ok := s.(Forgetter); ok {
		f.Forget()
	}
}

// CheckBounds reports an error when a free variable of p.F has no bound,
// a bound is empty, or a variable of an Exists in p.F has an open range.
func (p Problem) CheckBounds() error {
	have := map[Var]bool{}
	for _, b := range p.Bounds {
		if b.Empty() {
			return fmt.Errorf("presburger: empty range %d..%d for variable %d", b.Lo, b.Hi, b.Var)
		}
		have[b.Var] = true
	}
	for _, v := range FreeVars(p.F) {
		if !have[v] {
			return fmt.Errorf("presburger: variable %d has no bound", v)
		}
	}
	return checkExistsRanges(p.F)
}

// BruteForce decides problems by enumerating every assignment in range.
// It exists to cross-check other solvers on small problems; Limit caps the
// number of assignments tried (0 means 10 million) and an attempt past it
// answers Unknown. A problem with a variable whose range (after
// intersection) is open cannot be enumerated: Solve returns an error for
// it rather than search a part of the range.
type BruteForce struct {
	Limit int64
}

// Solve implements Solver.
func (bf BruteForce) Solve(ctx context.Context, p Problem) (Answer, error) {
	if err := p.CheckBounds(); err != nil {
		return Answer{}, err
	}
	limit := bf.Limit
	if limit == 0 {
		limit = 10_000_000
	}
	bounds := Intersect(p.Bounds)
	for _, b := range bounds {
		if !b.Finite() {
			return Answer{}, fmt.Errorf("presburger: brute force cannot enumerate the open range %s of variable %d", b.Range(), b.Var)
		}
	}
	size := int64(1)
	for _, b := range bounds {
		if b.Lo > b.Hi {
			return Answer{Result: Unsat}, nil // disjoint ranges of one variable
		}
		// Checked by division: a wrapped product could look small.
		width := b.Hi - b.Lo + 1
		if width <= 0 || size > limit/width {
			return Answer{Result: Unknown, Reason: "search space exceeds brute-force limit"}, nil
		}
		size *= width
	}
	vals := make(map[Var]int64, len(bounds))
	val := func(v Var) int64 { return vals[v] }
	var tried int64
	var rec func(i int) (bool, error)
	rec = func(i int) (bool, error) {
		if i == len(bounds) {
			tried++
			if tried%65536 == 0 {
				if err := ctx.Err(); err != nil {
					return false, err
				}
			}
			return Eval(p.F, val), nil
		}
		b := bounds[i] // not empty, checked above
		// Stop at Hi rather than after it: x++ past MaxInt64 wraps.
		for x := b.Lo; ; x++ {
			vals[b.Var] = x
			ok, err := rec(i + 1)
			if ok || err != nil || x == b.Hi {
				return ok, err
			}
		}
	}
	ok, err := rec(0)
	if err != nil {
		return Answer{Result: Unknown, Reason: err.Error(), Stopped: ctx.Err() != nil}, nil
	}
	if !ok {
		return Answer{Result: Unsat}, nil
	}
	m := make(Model, len(vals))
	for v, x := range vals {
		m[v] = x
	}
	return Answer{Result: Sat, Model: m}, nil
}

// Intersect returns bs with one bound per variable, in order of first
// appearance: a variable bounded more than once gets the intersection of
// its ranges, which may be empty (Lo > Hi) and is open on a side only
// when every range of the variable is. It gives a Problem's Bounds the
// meaning the Problem type documents.
func Intersect(bs []Bound) []Bound {
	at := make(map[Var]int, len(bs))
	out := make([]Bound, 0, len(bs))
	for _, b := range bs {
		i, ok := at[b.Var]
		if !ok {
			at[b.Var] = len(out)
			out = append(out, b)
			continue
		}
		out[i] = out[i].Intersect(b)
	}
	return out
}

// A Projector eliminates variables: Project returns a quantifier-free
// formula over keep, equivalent (within p's bounds on keep) to "there are
// values in range of the other variables that make p.F true". A result
// that cannot be expressed (for instance, one that needs divisibility
// constraints) is an error; an interrupted projection answers Unknown.
type Projector interface {
	Project(ctx context.Context, p Problem, keep []Var) (Formula, Result, error)
}

// A Selector asks one question again and again with fewer of its parts
// each time, on one incremental solver that keeps what it learned
// between the calls: Houdini's filter, whose rounds differ only in the
// candidates dropped.
type Selector interface {
	Solver
	// Select starts the questions "base, pre[i] for every selected i,
	// and not post[i] for some selected i", over the variables of
	// bounds; pre and post have the same length.
	Select(ctx context.Context, bounds []Bound, base Formula, pre, post []Formula) (Selection, error)
}

// A Selection is the question of a Selector. Solve asks it with the
// parts on[i] selected; a Sat model satisfies base, every selected pre
// and fails some selected post. It honours ctx as Solver.Solve does.
// Close releases the solver; a Selection is used by one goroutine.
type Selection interface {
	Solve(ctx context.Context, on []bool) (Answer, error)
	Close()
}
