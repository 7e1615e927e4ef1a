package mist

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// The translation asks for each construct that the GSST language cannot
// state yet through one function of this file. When the language gains
// the construct, the function that refuses it is the one place to change.

// counterInitParam: counter place p starts with any number of tokens
// from k up (p >= k, or p not in the init section, k = 0). Its shared
// variable starts at the value of a parameter of its own, p_init, that
// the assumption bounds by p_init >= k: an instance is a choice of that
// number, and every instance together is every initial marking.
func (t *translator) counterInitParam(p int) {
	s := t.spec
	name := formats.SafeName(t.net.Places[p]) + "_init"
	for t.taken(name) {
		name += "_"
	}
	k := len(s.Params)
	s.Params = append(s.Params, gsst.Param{Name: name, Pos: t.initPos(p)})
	t.imp.Notes.Params = append(t.imp.Notes.Params, fmt.Sprintf("the tokens place %s starts with (%s)", t.net.Places[p], t.initText(p)))
	v := &s.Shared[t.shared[p]]
	v.InitTerm, v.InitText, v.Init = presburger.VarTerm(s.ParamVar(k)), name, 0
	lo := t.net.Init[p].Lo
	atom := presburger.Compare(presburger.VarTerm(s.ParamVar(k)), presburger.Ge, presburger.ConstTerm(lo))
	text := fmt.Sprintf("%s >= %d", name, lo)
	if s.Assume.Formula == nil {
		s.Assume = gsst.Assumption{Formula: atom, Text: text, Pos: t.initPos(p)}
	} else {
		s.Assume.Formula = presburger.Conj(s.Assume.Formula, atom)
		s.Assume.Text += " & " + text
	}
}

// taken reports whether name is a place's (a state's or a shared
// variable's) or a parameter's already.
func (t *translator) taken(name string) bool {
	if slices.Contains(t.net.Places, name) {
		return true
	}
	for _, v := range t.spec.Shared {
		if v.Name == name {
			return true
		}
	}
	return slices.ContainsFunc(t.spec.Params, func(p gsst.Param) bool { return p.Name == name })
}

func (t *translator) initText(p int) string {
	if c := t.net.InitAt[p]; c != nil {
		return constraintText(c)
	}
	return "not constrained by init"
}

// rendezvousBroadcast: rule r moves several tokens and transfers
// others, in a way a rendezvous that broadcasts cannot state (why).
func (t *translator) rendezvousBroadcast(r *NetRule, why string) {
	t.imp.Need(formats.RendezvousBroadcast, r.Rule.Pos, "rule %d moves several tokens and transfers the tokens of a place, and %s", r.Rule.Index, why)
}

// idleStep: rule r changes nothing. mist's property is about the
// markings a run reaches, which such a step cannot change, so it is
// left out, and said so.
func (t *translator) idleStep(r *NetRule) {
	t.imp.Notes.Trailer = append(t.imp.Notes.Trailer,
		fmt.Sprintf("rule %d (line %d) changes no marking and is left out: it cannot change which markings are reachable: %s", r.Rule.Index, r.Rule.Pos.Line, r.Rule.Text))
}
