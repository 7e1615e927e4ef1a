package gsst

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// Broadcasts (the broadcast key of a transition): at the step, every
// other process in a transfer's source moves to its target. Decoding,
// checking and the rules of New; what a transfer does is step.go's.

// Transfer is one part of a broadcast: at the step, every other process in
// From (of one of Groups; of any group when Groups is nil) moves to To.
// The moving process itself takes its own transition and is not
// transferred.
type Transfer struct {
	From, To int
	Groups   []int // sorted; nil: every group
	Pos      Pos
}

// transfer parses one entry of a broadcast list, "S -> T" or
// "S -> T [g, h]", reporting syntax errors at their exact position.
func (d *decoder) transfer(n *yaml.Node) *TransferDecl {
	if !d.want(n, yaml.ScalarNode, "a transfer S -> T or S -> T [groups]") {
		return nil
	}
	e := d.entry(n, "transfer")
	td := &TransferDecl{Text: e.v, Pos: d.pos(n)}
	if td.From = e.name("a state name"); td.From == nil {
		return nil
	}
	e.skip()
	if !strings.HasPrefix(e.v[e.i:], "->") {
		d.errorf(e.pos(e.i), "expected -> in transfer %q (write S -> T or S -> T [groups])", e.v)
		return nil
	}
	e.i += 2
	if td.To = e.name("a state name after ->"); td.To == nil {
		return nil
	}
	e.skip()
	if e.i < len(e.v) && e.v[e.i] == '[' {
		var ok bool
		if td.Groups, _, ok = e.groups(false); !ok {
			return nil
		}
	}
	if !e.end() {
		return nil
	}
	return td
}

// broadcast resolves the transfers of a broadcast transition.
func (c *checker) broadcast(td *TransDecl, name string) []Transfer {
	var out []Transfer
	where := " in broadcast of " + name
	for _, x := range td.Broadcast {
		from, okF := c.state(x.From, where)
		to, okT := c.state(x.To, where)
		groups, okG := c.groupSet(x.Groups, where)
		if okF && okT && okG {
			// At the source's name: the entry's first token, after any quote.
			out = append(out, Transfer{From: from, To: to, Groups: groups, Pos: x.From.NamePos})
		}
	}
	return out
}

// checkBroadcast checks the transfers of a transition: states in range,
// each moving somewhere else, from distinct states.
func (s *Spec) checkBroadcast(t *Transition, name string, at func(Pos, string, ...any)) {
	m := len(s.States)
	from := map[int]Pos{}
	for i := range t.Broadcast {
		x := &t.Broadcast[i]
		pos := x.Pos
		if pos.Line == 0 {
			pos = t.Pos
		}
		if x.From < 0 || x.From >= m || x.To < 0 || x.To >= m {
			at(pos, "broadcast of %s: transfer %d has a state out of range", name, i)
			continue
		}
		where := "transfer " + s.States[x.From] + " -> " + s.States[x.To] + " of " + name
		switch prev, dup := from[x.From]; {
		case x.From == x.To:
			at(pos, "%s moves no process (a transfer must change the state)", where)
		case dup:
			at(pos, "broadcast of %s moves the processes in %s twice%s; a state is the source of one transfer", name, s.States[x.From], known("first at", prev))
		default:
			from[x.From] = pos
		}
		s.checkGroupSet(x.Groups, where, pos, at)
	}
}
