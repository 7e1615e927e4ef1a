package mist

import (
	"fmt"

	"github.com/vsym/vsym/formats"
)

// The translation asks for each construct that the GSST language cannot
// state yet through one function of this file. When the language gains
// the construct, the function that refuses it is the one place to change.

// groupMayBeEmpty: the tokens that start in process place p may be none
// (p >= 0, p in [0, k], or p not in the init section).
func (t *translator) groupMayBeEmpty(p int) {
	name := t.net.Places[p]
	what := fmt.Sprintf("init: place %s may start with no token (%s)", name, t.initText(p))
	t.imp.Need(formats.SplitInit, t.initPos(p), "%s", what)
}

// counterInitRange: counter place p starts with any number of tokens in
// a range.
func (t *translator) counterInitRange(p int) {
	name := t.net.Places[p]
	t.imp.Need(formats.SharedInitRange, t.initPos(p), "init: counter place %s starts with any number of tokens (%s)", name, t.initText(p))
}

func (t *translator) initText(p int) string {
	if c := t.net.InitAt[p]; c != nil {
		return constraintText(c)
	}
	return "not constrained by init"
}

// noProcess: the net has no process at all, why says why; every rule
// that fires changes counters only, and a GSST has at least one process.
func (t *translator) noProcess(why string) {
	t.imp.Need(formats.NoProcess, t.net.File.InitPos, "%s: every rule that fires moves no process", why)
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
