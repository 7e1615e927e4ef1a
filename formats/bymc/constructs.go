package bymc

import (
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
)

// The translation asks for each construct that the GSST language cannot
// state yet through one function of this file. When the language gains
// the construct, the function that refuses it is the one place to change.

// splitInit: the processes start spread over several locations (or the
// inits leave a location's number free).
func (t *translator) splitInit(pos gsst.Pos, what string) {
	t.imp.Need(formats.SplitInit, pos, "inits: %s", what)
}

// sharedInitRange: the inits give shared variable x a range of initial
// values (x <= e, ...).
func (t *translator) sharedInitRange(x *NameExpr, b *BinaryExpr) {
	t.imp.Need(formats.SharedInitRange, x.Ident.Pos, "inits: shared variable %s starts at any value with %s %s ...", x.Name, x.Name, b.Op)
}

// sharedInitAny: the inits leave shared variable j free.
func (t *translator) sharedInitAny(j int) {
	v := &t.spec.Shared[j]
	t.imp.Need(formats.SharedInitRange, v.Pos, "inits: shared variable %s may start at any natural number: no initial condition gives it a value, and nothing in the file bounds it (vsym reads a value over the parameters, %s == N - F, one value at each instance)", v.Name, v.Name)
}
