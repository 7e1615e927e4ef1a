package gsst

import (
	"strconv"
	"strings"

	"github.com/vsym/vsym/presburger"
)

// This file holds what the language has beyond the paper's GSSTs: shared
// variables and the updates of transitions (issue 20), parameters with a
// resilience condition, group sizes over parameters, and steps that move
// several processes at once, rendezvous and broadcast (issue 21).
//
// Variables, after the counters, size variables and NVar of system.go:
// SharedVar(j) is shared variable j, ParamVar(k) parameter k. A shared
// variable is a state variable: it changes along a run. A parameter is a
// constant of a run: a fixed instance folds it to its value, as it folds n.

// Shared is a shared variable: a boolean, an enumeration, or an integer in
// Lo..Hi (Unbounded: Lo and up). Every kind is an integer in the formulas:
// a boolean is 0 (false) or 1 (true), an enumeration the index of its
// value in Values.
type Shared struct {
	Name      string
	Bool      bool
	Values    []string // the constants of an enumeration; nil otherwise
	Lo, Hi    int      // the domain (a boolean's is 0..1, an enumeration's 0..len(Values)-1)
	Unbounded bool     // no greatest value (Hi unused)
	Init      int      // initial value
	Pos       Pos      // of the name
	// TypePos, InitPos and ValuePos (one per constant of an
	// enumeration), in a Shared read from a file, say where the type,
	// the initial value and the constants were written, for the messages
	// of New; zero (nil) when built by hand.
	TypePos, InitPos Pos
	ValuePos         []Pos
}

// Contains reports whether k is in the domain of v.
func (v *Shared) Contains(k int) bool { return k >= v.Lo && (v.Unbounded || k <= v.Hi) }

// Bounds returns the domain of v as a presburger bound on variable x.
func (v *Shared) Bounds(x presburger.Var) presburger.Bound {
	return presburger.Bound{Var: x, Lo: int64(v.Lo), Hi: int64(v.Hi), NoHi: v.Unbounded}
}

// ValueName writes value k of v as the language does: true/false, an
// enumeration constant, or the integer.
func (v *Shared) ValueName(k int) string {
	switch {
	case v.Bool && k == 0:
		return "false"
	case v.Bool && k == 1:
		return "true"
	case v.Values != nil && k >= 0 && k < len(v.Values):
		return v.Values[k]
	}
	return strconv.Itoa(k)
}

// TypeText writes the type of v as the language does: "bool", "0..3",
// "0..", or "[free, held]".
func (v *Shared) TypeText() string {
	switch {
	case v.Bool:
		return "bool"
	case v.Values != nil:
		return "[" + strings.Join(v.Values, ", ") + "]"
	case v.Unbounded:
		return strconv.Itoa(v.Lo) + ".."
	}
	return strconv.Itoa(v.Lo) + ".." + strconv.Itoa(v.Hi)
}

// Param is a named parameter: a nonnegative integer constant of a run.
// In a family (Fixed false) formulas read it as ParamVar; an instance
// fixes it to Value and folds it into every formula.
type Param struct {
	Name  string
	Pos   Pos
	Fixed bool
	Value int
}

// Assumption is the resilience condition of a family with parameters: a
// formula over the ParamVars; only parameter values that satisfy it are
// instances. Formula is nil when the spec assumes nothing.
type Assumption struct {
	Formula presburger.Formula
	Text    string
	Pos     Pos
}

// Assign is one assignment of an update: shared variable Var (a SharedVar)
// gets Value, a linear term over the shared variables (and the ParamVars,
// in a family) read before the step. An update's assignments happen at
// once; a variable not assigned keeps its value. A step whose update
// would take a variable out of its domain is not enabled.
type Assign struct {
	Var   presburger.Var
	Value presburger.Term
}

// Update is the update of a block, of a rendezvous: what the step does
// to the shared variables.
type Update struct {
	Assign []Assign
	Text   string // as written; "" when there is none
	Pos    Pos
}

// Transfer is one part of a broadcast: at the step, every other process in
// From (of one of Groups; of any group when Groups is nil) moves to To.
// The moving process itself takes its own transition and is not
// transferred.
type Transfer struct {
	From, To int
	Groups   []int // sorted; nil: every group
	Pos      Pos
}

// Rendezvous is a step in which len(Parts) >= 2 distinct processes move
// together, each from its part's From to its To, when Guard holds (read
// before the step) and such processes exist; the step also applies
// Update.
type Rendezvous struct {
	Parts  []Part
	Guard  presburger.Formula // over the system's variables
	Text   string             // the guard as written; "" when unguarded
	Update Update
	Pos    Pos
}

// Part is one participant of a rendezvous: a process in From, of one of
// Groups (any group when nil), moving to To.
type Part struct {
	From, To int
	Groups   []int // sorted; nil: every group
	Pos      Pos
}

// Extension names a construct beyond the paper's GSSTs. Analyses that
// have not been taught a construct refuse a system that uses it (with
// Spec.Uses), rather than read it as if it were not there.
type Extension uint

const (
	ExtShared     Extension = 1 << iota // shared variables
	ExtParams                           // parameters (and sizes over them)
	ExtRendezvous                       // rendezvous steps
	ExtBroadcast                        // broadcast transitions
)

var extNames = []string{"shared variables", "parameters", "rendezvous", "broadcast"}

func (x Extension) String() string {
	var out []string
	for i, n := range extNames {
		if x&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// Extensions returns the constructs beyond the paper that s uses.
func (s *Spec) Extensions() Extension {
	var x Extension
	if len(s.Shared) > 0 {
		x |= ExtShared
	}
	if len(s.Params) > 0 {
		x |= ExtParams
	}
	if len(s.Rendezvous) > 0 {
		x |= ExtRendezvous
	}
	for i := range s.Transitions {
		if len(s.Transitions[i].Broadcast) > 0 {
			x |= ExtBroadcast
		}
	}
	return x
}

// Unsupported returns an error naming what of s lies beyond supported,
// for an analysis that handles only the constructs in supported (and
// those of the paper); nil when s uses nothing else.
func (s *Spec) Unsupported(analysis string, supported Extension) error {
	if x := s.Extensions() &^ supported; x != 0 {
		return &UnsupportedError{Analysis: analysis, Uses: x}
	}
	return nil
}

// UnsupportedError says that an analysis does not handle a construct a
// system uses.
type UnsupportedError struct {
	Analysis string
	Uses     Extension
}

func (e *UnsupportedError) Error() string {
	return e.Analysis + " does not handle " + e.Uses.String() + " yet"
}

// SharedVar returns the variable of shared variable j. It follows NVar.
func (s *Spec) SharedVar(j int) presburger.Var { return s.NVar() + 1 + presburger.Var(j) }

// ParamVar returns the variable of parameter k. It follows the shared
// variables.
func (s *Spec) ParamVar(k int) presburger.Var {
	return s.NVar() + 1 + presburger.Var(len(s.Shared)+k)
}

// SharedOf returns the index of the shared variable v, and false when v
// is no shared variable's.
func (s *Spec) SharedOf(v presburger.Var) (int, bool) {
	j := int(v - s.SharedVar(0))
	return j, j >= 0 && j < len(s.Shared)
}

// ParamOf returns the index of the parameter v, and false when v is no
// parameter's.
func (s *Spec) ParamOf(v presburger.Var) (int, bool) {
	k := int(v - s.ParamVar(0))
	return k, k >= 0 && k < len(s.Params)
}

// InitShared returns the initial value of every shared variable.
func (s *Spec) InitShared() []int {
	out := make([]int, len(s.Shared))
	for j := range s.Shared {
		out[j] = s.Shared[j].Init
	}
	return out
}

// InstanceCondition returns what the parameters (ParamVar), the group
// sizes (SizeVar) and n (NVar) of every instance of s satisfy, beyond
// the ranges of SizeBounds: each parameter not fixed is at least 0, the
// assumption holds, each size over the parameters equals its term (and,
// with SizeBounds, is at least 1), and n is the sum of the sizes. An
// instance of the family is exactly a solution of the two together; for
// a system without parameters it is SizeSum.
func (s *Spec) InstanceCondition() presburger.Formula {
	var parts []presburger.Formula
	for k, p := range s.Params {
		if !p.Fixed {
			parts = append(parts, presburger.Compare(presburger.VarTerm(s.ParamVar(k)), presburger.Ge, presburger.ConstTerm(0)))
		}
	}
	if s.Assume.Formula != nil {
		parts = append(parts, s.Assume.Formula)
	}
	for g := range s.Groups {
		if grp := &s.Groups[g]; grp.OverParams() {
			parts = append(parts, presburger.Compare(presburger.VarTerm(s.SizeVar(g)), presburger.Eq, grp.SizeTerm))
		}
	}
	return presburger.Conj(append(parts, s.SizeSum())...)
}
