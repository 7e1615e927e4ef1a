package gsst

import (
	"slices"
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

// cloneTransfers copies transfers down to their group lists.
func cloneTransfers(xs []Transfer) []Transfer {
	out := slices.Clone(xs)
	for j := range out {
		out[j].Groups = slices.Clone(out[j].Groups)
	}
	return out
}

// transfers decodes the broadcast key of a step, nil when it has none.
func (d *decoder) transfers(m map[string]pair) []*TransferDecl {
	p, ok := m["broadcast"]
	if !ok || !d.list(p.val, "a list of transfers S -> T or S -> T [groups]") {
		return nil
	}
	if len(p.val.Content) == 0 {
		d.errorf(d.pos(p.val), "empty broadcast list: leave the key out for a step that moves no other process")
	}
	var out []*TransferDecl
	for _, c := range p.val.Content {
		if t := d.transfer(c); t != nil {
			out = append(out, t)
		}
	}
	return out
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
func (c *checker) broadcast(list []*TransferDecl, name string) []Transfer {
	var out []Transfer
	where := " in broadcast of " + name
	for _, x := range list {
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

// checkTransfers checks the transfers of a step's broadcast: states in
// range, distinct sources, each moving processes to another state, groups
// in range (pos is the step's, for transfers built by hand).
func (s *Spec) checkTransfers(transfers []Transfer, name string, step Pos, at func(Pos, string, ...any)) {
	m := len(s.States)
	from := map[int]Pos{}
	for i := range transfers {
		x := &transfers[i]
		pos := x.Pos
		if pos.Line == 0 {
			pos = step
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
