package gsst

// This file holds the syntax tree of a GSST file: what the YAML and the
// guard and property strings say, with positions, before any name is
// resolved. The checker (check.go) turns it into a System.

// File is the syntax of a whole GSST file.
type File struct {
	Name    string // "" when the file has no name key
	NamePos Pos
	Pos     Pos // position of the top-level mapping
	States  []*Ident
	Groups  []*GroupDecl
	Init    *InitDecl // nil when missing or malformed
	// StatesBad and GroupsBad are set when the states or groups key is
	// missing or malformed; the checker then stays quiet about names it
	// cannot resolve, which would only repeat the first error.
	StatesBad, GroupsBad bool
	Transitions          []*TransDecl
	Properties           []*PropDecl
	Fairness             *FairnessDecl // nil when the file has no fairness key
	Environment          []*EnvDecl

	// Beyond the paper (docs/gsst-format.md, "Shared variables" and
	// on): parameters, their assumption, shared variables, rendezvous.
	Params     []*Ident
	Assume     *AssumeDecl // nil when the file has no assume key
	Shared     []*SharedDecl
	Rendezvous []*RendezvousDecl
}

// AssumeDecl is the assume key: a condition over the parameters.
type AssumeDecl struct {
	Text string
	Pos  Pos
	X    Expr // nil when the string did not parse
}

// SharedDecl is one entry "name: {type: ..., init: ...}" of the shared
// mapping. The type is bool, an enumeration (Values), or an integer range
// Lo..Hi (Unbounded: Lo..). Init holds the initial value as written: an
// integer (InitInt), or a name (InitName: true, false or an enumeration
// constant).
type SharedDecl struct {
	Name      *Ident
	TypePos   Pos
	Bool      bool
	Values    []*Ident // an enumeration's constants; nil otherwise
	Lo, Hi    int64
	Unbounded bool
	TypeOK    bool // false when the type did not decode (already reported)
	InitPos   Pos
	InitInt   int64
	InitName  *Ident // nil for an integer
	InitOK    bool   // false when init is missing or malformed (already reported)
	// A set of initial values (initial.go): every integer InitInt..InitHi
	// (InitRange), or a linear expression over the parameters (InitX,
	// written InitText). A range written with expressions (InitRange and
	// InitText set) has the least InitX and the greatest InitHiX, each
	// nil when left out: the domain's least, no greatest.
	InitRange bool
	InitHi    int64
	InitX     Expr
	InitHiX   Expr
	InitText  string
}

// UpdateDecl is one update of a transition or a rendezvous. Shared is set
// when it is a single update for all groups; otherwise Groups lists the
// groups of its key, as for guards.
type UpdateDecl struct {
	Shared  bool
	Groups  []*Ident
	KeyPos  Pos
	Text    string
	Pos     Pos           // position of the update string
	Assigns []*AssignStmt // nil when the string did not parse
}

// AssignStmt is one assignment "x := e" of an update.
type AssignStmt struct {
	Var *Ident
	X   Expr
}

// TransferDecl is one entry "S -> I" or "S -> I [g, h]" of a broadcast.
type TransferDecl struct {
	Text     string
	Pos      Pos
	From, To *Ident
	Groups   []*Ident // nil: every group
}

// RendezvousDecl is one element of the rendezvous list.
type RendezvousDecl struct {
	Pos       Pos
	Name      *Ident // nil when unnamed
	Broadcast []*TransferDecl
	Parts     []*PartDecl
	Guard     *GuardDecl  // nil when unguarded
	Update    *UpdateDecl // nil when the step updates nothing
	PartsOK   bool        // false when the parts key is missing or malformed (already reported)
}

// PartDecl is one part {from: S, to: T, groups: [g]} of a rendezvous.
type PartDecl struct {
	Pos      Pos
	From, To *Ident // nil when missing
	Groups   []*Ident
	GroupsOK bool // the groups key was given (Groups may still be empty)
}

// Ident is a name with its position.
type Ident struct {
	NamePos Pos
	Name    string
}

// GroupDecl is one entry "name: size" of the groups mapping. The size is
// an integer, or a range "N.." (Ranged and Unbounded) or "N..M" (Ranged,
// Max M), in which case Size is N.
type GroupDecl struct {
	Name *Ident
	// SizeX, when not nil, is a size written as an expression over the
	// parameters (SizeText as written); Size and the range fields are
	// then unused.
	SizeX     Expr
	SizeText  string
	Size      int64
	Ranged    bool
	Unbounded bool
	Max       int64
	SizePos   Pos
	SizeOK    bool // false when the size is not an integer or a range (already reported)
}

// InitDecl is the init key. Either All names the state every process
// starts in, or AllOver the states every group's processes spread over
// (initial.go), or Groups gives one entry per group.
type InitDecl struct {
	Pos     Pos // position of the init key
	All     *Ident
	AllOver []*Ident
	Groups  []*GroupInit
}

// GroupInit is the initial distribution of one group: either every process
// of the group in State, or Counts.
type GroupInit struct {
	Group  *Ident
	State  *Ident       // all processes of Group start here
	Counts []*InitCount // or: so many processes per state
	Over   []*Ident     // or: any number in each of these states (initial.go)
}

// InitCount is "state: count" inside a per-group init mapping.
type InitCount struct {
	State    *Ident
	Count    int64
	CountPos Pos
}

// EnvDecl is one element of the environment list: a step that moves no
// process by its own choice.
type EnvDecl struct {
	Pos       Pos
	Name      *Ident      // nil when unnamed
	Guard     *GuardDecl  // nil when unguarded
	Update    *UpdateDecl // nil when the step updates nothing
	Broadcast []*TransferDecl
}

// TransDecl is one element of the transitions list.
type TransDecl struct {
	Pos      Pos
	Name     *Ident // nil when unnamed
	From, To *Ident // nil when missing
	Guards   []*GuardDecl
	// Guarded is false when the transition has no guard key: it is then
	// enabled for every process in From.
	Guarded bool
	// Updates are the transition's updates (one Shared, or one per key
	// of the update mapping); Broadcast its transfers.
	Updates   []*UpdateDecl
	Broadcast []*TransferDecl
}

// GuardDecl is one guard of a transition. Shared is set when the guard is
// a single expression for all groups; otherwise Groups lists the groups of
// its key (a key "a, b" names two groups sharing the guard).
type GuardDecl struct {
	Shared bool
	Groups []*Ident
	KeyPos Pos
	Text   string
	Pos    Pos  // position of the guard string
	X      Expr // nil when the string did not parse
}

// PropDecl is one named property.
type PropDecl struct {
	Name *Ident
	Text string
	Pos  Pos
	X    Expr // nil when the string did not parse
}

// FairnessDecl is the fairness key: justice conditions and weak fairness
// of local transitions.
type FairnessDecl struct {
	Pos     Pos // position of the fairness key
	Justice []*JusticeDecl
	Weak    []*WeakDecl
}

// JusticeDecl is one condition of the justice list.
type JusticeDecl struct {
	Text string
	Pos  Pos
	X    Expr // nil when the string did not parse
}

// WeakDecl is one entry of the weak list: "U -> V", "U -> V [g, h]",
// "U -> V [*]", "all" or "all [*]".
type WeakDecl struct {
	Text string
	Pos  Pos
	// All is set for "all": every local transition. Otherwise From and To
	// name the transition (nil when missing or not a name, already
	// reported).
	All      bool
	From, To *Ident
	// Name, when not nil, names the transition instead of From and To.
	Name *Ident
	// PerGroup is set when a group list follows: Groups names the groups,
	// or EachGroup is set for "[*]", every group that may take the
	// transition. Without a group list the entry is per transition: any
	// process.
	PerGroup  bool
	EachGroup bool
	Groups    []*Ident
}

// Expr is an expression of the guard and property language: one of
// *IntLit, *NameExpr, *CounterExpr, *ParenExpr, *UnaryExpr, *BinaryExpr,
// *UntilExpr. Integer and boolean expressions share one syntax; the
// checker tells them apart.
type Expr interface {
	Pos() Pos // position of the first character of the expression
	exprNode()
}

// IntLit is a decimal integer constant, kept as written.
type IntLit struct {
	ValuePos Pos
	Lit      string
}

// NameExpr is one of the predeclared names n, true and false, or an
// unknown name (reported by the checker).
type NameExpr struct {
	NamePos Pos
	Name    string
}

// CounterExpr is #S (Group nil) or #S[g].
type CounterExpr struct {
	Hash  Pos
	State *Ident
	Group *Ident
}

// ParenExpr is a parenthesised expression.
type ParenExpr struct {
	Lparen Pos
	X      Expr
}

// UnaryExpr is Op X, where Op is Not, Sub (negation) or a unary temporal
// operator (AG, AF, EG, EF, AX, EX).
type UnaryExpr struct {
	OpPos Pos
	Op    Token
	X     Expr
}

// BinaryExpr is X Op Y for an arithmetic, comparison or boolean operator.
type BinaryExpr struct {
	X     Expr
	OpPos Pos
	Op    Token
	Y     Expr
}

// UntilExpr is A[L U R] (All) or E[L U R].
type UntilExpr struct {
	Quant Pos
	All   bool
	L, R  Expr
}

func (x *IntLit) Pos() Pos      { return x.ValuePos }
func (x *NameExpr) Pos() Pos    { return x.NamePos }
func (x *CounterExpr) Pos() Pos { return x.Hash }
func (x *ParenExpr) Pos() Pos   { return x.Lparen }
func (x *UnaryExpr) Pos() Pos   { return x.OpPos }
func (x *BinaryExpr) Pos() Pos {
	// A loop, not recursion: a chain "a & b & ..." nests to the left as
	// deep as it is long.
	for {
		y, ok := x.X.(*BinaryExpr)
		if !ok {
			return x.X.Pos()
		}
		x = y
	}
}
func (x *UntilExpr) Pos() Pos { return x.Quant }

func (*IntLit) exprNode()      {}
func (*NameExpr) exprNode()    {}
func (*CounterExpr) exprNode() {}
func (*ParenExpr) exprNode()   {}
func (*UnaryExpr) exprNode()   {}
func (*BinaryExpr) exprNode()  {}
func (*UntilExpr) exprNode()   {}
