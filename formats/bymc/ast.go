package bymc

import (
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
)

// This file holds the syntax tree of a threshold automaton: what the file
// says, with positions, before any name is resolved.

// File is a whole .ta file: one automaton.
type File struct {
	Name      string // the file name, as in positions
	Automaton *Ident // the name after skel, threshAuto or thresholdAutomaton
	Decls     []*Decl
	Defines   []*Define
	// Assumptions is the resilience condition: a conjunction.
	Assumptions []Expr
	Locations   []*Location
	// Inits is the initial condition: a conjunction of comparisons.
	Inits []Expr
	Rules []*Rule
	Specs []*Spec
	// Header holds the comments before the automaton.
	Header []*Comment

	// Positions of the section keywords.
	AssumptionsPos, LocationsPos, InitsPos, RulesPos, SpecsPos gsst.Pos
}

// Ident is a name with its position.
type Ident struct {
	Name string
	Pos  gsst.Pos
}

// Comment is a comment of the file, its text without the delimiters.
type Comment = formats.Comment

// Decl is a declaration "local pc;", "shared nsnt, nfaulty;",
// "parameters N, T, F;" or "unknowns a, b;".
type Decl struct {
	Kind  Token // LOCAL, SHARED, PARAMETERS or UNKNOWNS
	Pos   gsst.Pos
	Names []*Ident
}

// Define is "define THRESH1 == T + 1;": a macro.
type Define struct {
	Name *Ident
	X    Expr
}

// Location is "loc0: [0];": a location and the values of the local
// variables in it.
type Location struct {
	Name   *Ident
	Values []int64
}

// Rule is "3: loc0 -> locSE when (nsnt >= T + 1) do { nsnt' == nsnt + 1; };".
type Rule struct {
	Label    int64
	Pos      gsst.Pos // of the label
	From, To *Ident
	When     gsst.Pos
	Guard    Expr // nil for "when (true)" and "when (1)"
	Actions  []*Action
	// Text is the rule as written, on one line; Doc the comments between
	// the previous rule and this one.
	Text string
	Doc  []*Comment
}

// Action is "x' == e;" (X the right side) or an entry of
// "unchanged(x, y);" (X nil).
type Action struct {
	Var *Ident
	X   Expr
}

// Spec is "name: ltl-formula;".
type Spec struct {
	Name *Ident
	X    Expr
	Text string // as written, on one line
	Doc  []*Comment
}

// Expr is an expression: one of *IntLit, *NameExpr, *TrueExpr,
// *ParenExpr, *UnaryExpr, *BinaryExpr. Arithmetic, comparisons, boolean
// connectives and the temporal operators share one syntax; the
// translation tells them apart.
type Expr interface {
	Pos() gsst.Pos
	exprNode()
}

// IntLit is a decimal integer.
type IntLit struct {
	ValuePos gsst.Pos
	Value    int64
}

// NameExpr is a name: a location, a shared variable, a parameter, a
// local variable or a macro; Prime marks the value after a step (x').
type NameExpr struct {
	Ident
	Prime bool
}

// TrueExpr is true.
type TrueExpr struct{ TruePos gsst.Pos }

// ParenExpr is (X).
type ParenExpr struct {
	Lparen gsst.Pos
	X      Expr
}

// UnaryExpr is Op X for Op NOT, SUB, LTLF (<>) or LTLG ([]).
type UnaryExpr struct {
	OpPos gsst.Pos
	Op    Token
	X     Expr
}

// BinaryExpr is X Op Y.
type BinaryExpr struct {
	X     Expr
	OpPos gsst.Pos
	Op    Token
	Y     Expr
}

func (x *IntLit) Pos() gsst.Pos    { return x.ValuePos }
func (x *NameExpr) Pos() gsst.Pos  { return x.Ident.Pos }
func (x *TrueExpr) Pos() gsst.Pos  { return x.TruePos }
func (x *ParenExpr) Pos() gsst.Pos { return x.Lparen }
func (x *UnaryExpr) Pos() gsst.Pos { return x.OpPos }
func (x *BinaryExpr) Pos() gsst.Pos {
	for {
		y, ok := x.X.(*BinaryExpr)
		if !ok {
			return x.X.Pos()
		}
		x = y
	}
}

func (*IntLit) exprNode()     {}
func (*NameExpr) exprNode()   {}
func (*TrueExpr) exprNode()   {}
func (*ParenExpr) exprNode()  {}
func (*UnaryExpr) exprNode()  {}
func (*BinaryExpr) exprNode() {}
