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

// sharedInitRange: the inits give shared variable x initial values
// that are no range from a constant to a value over the parameters (or
// no greatest): x != e, a least value over the parameters, several
// bounds of one side, a value and a bound.
func (t *translator) sharedInitRange(x *NameExpr, why string) {
	t.imp.Need(formats.SharedInitRange, x.Ident.Pos, "inits: shared variable %s %s", x.Name, why)
}

// sharedInitAny: the inits leave shared variable j free. Like every
// variable of ByMC it is a natural number, so it starts at any of them:
// the range 0.. (gsst/initial.go).
func (t *translator) sharedInitAny(j int) {
	v := &t.spec.Shared[j]
	v.InitRange, v.Init, v.InitNoHi, v.InitPos = true, 0, true, v.Pos
	if j < len(t.imp.Notes.Shared) {
		t.imp.Notes.Shared[j] += "; no initial condition: any natural number"
	}
}
