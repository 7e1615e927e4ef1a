package mist

import (
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
)

// This file holds the syntax tree of a mist file: what it says, with
// positions, before any name is resolved.

// File is a whole mist file: the places (vars), the rules, the initial
// markings, the target markings and the invariants.
type File struct {
	Name  string // the file name, as in positions
	Vars  []*Ident
	Rules []*Rule
	// Init is a conjunction of constraints: the initial markings.
	Init    []*Constraint
	InitPos gsst.Pos
	// Target is a disjunction of conjunctions: the markings to cover.
	Target    [][]*Constraint
	TargetPos gsst.Pos
	// Invariants are place invariants given to help mist's search, each
	// a conjunction of "place = weight"; they do not change the net.
	Invariants [][]*Constraint
	// Expected are the "#expected result: ..." comments.
	Expected []*Comment
	// Header holds the comment lines before the vars keyword.
	Header []*Comment
}

// Ident is a name with its position.
type Ident struct {
	Name string
	Pos  gsst.Pos
}

// Comment is a comment of the file, its text without the delimiters.
type Comment = formats.Comment

// Op is the relation of a constraint.
type Op int

const (
	Eq  Op = iota // place = K
	Geq           // place >= K
	In            // place in [K, Hi]
)

// Constraint is "place = K", "place >= K" or "place in [K, Hi]".
type Constraint struct {
	Place *Ident
	Op    Op
	K, Hi int64
}

// Rule is one rule of the rules section: a guard, a conjunction of
// constraints (none for "true"), and the assignments of the marking
// after the step.
type Rule struct {
	Index   int      // 1 for the first rule of the file
	Pos     gsst.Pos // of its first token
	Guard   []*Constraint
	Arrow   gsst.Pos
	Assigns []*Assign
	// Text is the rule as written, on one line; Doc the comment lines
	// between the previous rule (or the rules keyword) and this one.
	Text string
	Doc  []*Comment
}

// Assign is "place' = t1 + t2 ... ": the number of tokens in Place after
// the step, read from the marking before it.
type Assign struct {
	Place *Ident
	Terms []*Term
}

// Term is one term of the right side of an assignment: a place (Place
// not nil) or an integer (Value), added, or subtracted when Neg.
type Term struct {
	Place *Ident
	Value int64
	Neg   bool
	Pos   gsst.Pos
}
