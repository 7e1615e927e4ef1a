package gsst

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// This file decodes the keys beyond the paper's GSSTs
// (docs/gsst-format.md): params, assume's neighbours shared and
// rendezvous, and a transition's update and broadcast.

// decodeParams reads the params list: names, each a parameter.
func (d *decoder) decodeParams(n *yaml.Node) []*Ident {
	out := []*Ident{}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return out
	}
	if !d.want(n, yaml.SequenceNode, "a list of parameter names") {
		return out
	}
	for _, c := range n.Content {
		if id := d.ident(c, "parameter name"); id != nil {
			out = append(out, id)
		}
	}
	return out
}

// domainRange matches the type of a bounded or unbounded integer shared
// variable: "0..3", "-2..2", "0..".
var domainRange = regexp.MustCompile(`^(-?[0-9]+)\.\.(-?[0-9]*)$`)

// decodeShared reads the shared mapping: name: {type: T, init: V}.
func (d *decoder) decodeShared(n *yaml.Node) []*SharedDecl {
	var out []*SharedDecl
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if !d.want(n, yaml.MappingNode, "a mapping from shared variable names to {type, init}") {
		return nil
	}
	for _, q := range d.pairs(n, "shared") {
		name := d.ident(q.key, "shared variable name")
		if name == nil {
			continue
		}
		sd := &SharedDecl{Name: name, TypePos: d.pos(q.val), InitPos: d.pos(q.val)}
		out = append(out, sd)
		if !d.want(q.val, yaml.MappingNode, "a shared variable {type: ..., init: ...}") {
			continue
		}
		m := d.fields(q.val, "shared variable "+name.Name, "type", "init")
		p, ok := m["type"]
		if !ok {
			d.errorf(d.pos(q.val), "shared variable %s has no type (bool, [a, b, ...], Lo..Hi or Lo..)", name.Name)
		} else {
			d.sharedType(sd, p.val)
		}
		p, ok = m["init"]
		if !ok {
			d.errorf(d.pos(q.val), "shared variable %s has no init (its initial value)", name.Name)
			continue
		}
		sd.InitPos = d.pos(p.val)
		v := p.val
		if !d.want(v, yaml.ScalarNode, "an initial value") {
			continue
		}
		switch {
		case v.Tag == "!!int":
			k, ok := d.integer(v, "an initial value")
			sd.InitInt, sd.InitOK = k, ok
		case v.Tag == "!!bool" && (v.Value == "true" || v.Value == "false"):
			sd.InitName, sd.InitOK = &Ident{d.pos(v), v.Value}, true
		case (v.Tag == "!!str" || v.Tag == "!!bool") && isName(v.Value):
			sd.InitName, sd.InitOK = &Ident{d.pos(v), v.Value}, true
		default:
			d.errorf(d.pos(v), "expected an initial value (an integer, true, false or an enumeration constant), found %s", kindName(v))
		}
	}
	return out
}

// sharedType reads the type of a shared variable.
func (d *decoder) sharedType(sd *SharedDecl, n *yaml.Node) {
	sd.TypePos = d.pos(n)
	const want = "a type (bool, a list of constants [a, b], a range Lo..Hi, or Lo.. for no greatest value)"
	switch n.Kind {
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			d.errorf(d.pos(n), "empty enumeration: a shared variable needs at least one value")
			return
		}
		for _, c := range n.Content {
			id := d.ident(c, "enumeration constant")
			if id == nil {
				return
			}
			sd.Values = append(sd.Values, id)
		}
		sd.TypeOK = true
		return
	case yaml.ScalarNode:
		if n.Value == "bool" && n.Tag == "!!str" {
			sd.Bool, sd.TypeOK = true, true
			return
		}
		m := domainRange.FindStringSubmatch(n.Value)
		if m == nil || n.Tag != "!!str" {
			d.errorf(d.pos(n), "expected %s, found %s", want, kindName(n))
			return
		}
		lo, err1 := strconv.ParseInt(m[1], 10, 64)
		hi, err2 := int64(0), error(nil)
		if m[2] != "" {
			hi, err2 = strconv.ParseInt(m[2], 10, 64)
		}
		if err1 != nil || err2 != nil {
			d.errorf(d.pos(n), "range %s is out of range", n.Value)
			return
		}
		sd.Lo, sd.Hi, sd.Unbounded, sd.TypeOK = lo, hi, m[2] == "", true
		return
	}
	d.want(n, yaml.ScalarNode, want)
}

// decodeUpdates reads an update key: one string for every group, or a
// mapping from group keys ("a, b") to strings, as for guard. perGroup is
// false where a mapping is not allowed (a rendezvous has one update).
func (d *decoder) decodeUpdates(p pair, perGroup bool) []*UpdateDecl {
	u := p.val
	if u.Kind == yaml.MappingNode && perGroup {
		var out []*UpdateDecl
		if len(u.Content) == 0 {
			d.errorf(d.pos(u), "empty update mapping: leave the key out for a transition that updates nothing")
		}
		for _, q := range d.pairs(u, "update") {
			ud := &UpdateDecl{KeyPos: d.pos(q.key), Pos: d.pos(q.val)}
			ud.Groups = d.groupList(q.key, "update")
			if text, ok := d.text(q.key, q.val, "update"); ok {
				ud.Text = text
				ud.Assigns = d.parseUpdate(q.val)
			}
			out = append(out, ud)
		}
		return out
	}
	if u.Kind != yaml.ScalarNode && u.Kind != yaml.AliasNode {
		what := "an update string (x := e; y := e), or a mapping from groups to update strings"
		if !perGroup {
			what = "an update string (x := e; y := e)"
		}
		d.errorf(d.pos(u), "expected %s, found %s", what, kindName(u))
		return nil
	}
	ud := &UpdateDecl{Shared: true, KeyPos: d.pos(p.key), Pos: d.pos(u)}
	if text, ok := d.text(p.key, u, "update"); ok {
		ud.Text = text
		ud.Assigns = d.parseUpdate(u)
	}
	return []*UpdateDecl{ud}
}

// parseUpdate parses the update held by scalar n, reporting a syntax
// error at its exact position.
func (d *decoder) parseUpdate(n *yaml.Node) []*AssignStmt {
	out, err := parseUpdate(n.Value, d.offsets(n))
	if err != nil {
		if n.Style == 0 && n.LineComment != "" {
			err.Msg += fmt.Sprintf(" (quote it: in YAML an unquoted # starts a comment, so only %q was read and %q was dropped)", n.Value, n.LineComment)
		}
		d.errs = append(d.errs, err)
		return nil
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

// decodeRendezvous reads one element of the rendezvous list.
func (d *decoder) decodeRendezvous(n *yaml.Node) *RendezvousDecl {
	if !d.want(n, yaml.MappingNode, "a rendezvous {parts: [...], guard: ..., update: ...}") {
		return nil
	}
	rd := &RendezvousDecl{Pos: d.pos(n)}
	m := d.fields(n, "rendezvous", "parts", "guard", "update")
	p, ok := m["parts"]
	switch {
	case !ok:
		d.errorf(rd.Pos, "rendezvous without %q", "parts")
	case d.want(p.val, yaml.SequenceNode, "a list of parts {from: S, to: T}"):
		rd.PartsOK = true
		for _, c := range p.val.Content {
			if pd := d.part(c); pd != nil {
				rd.Parts = append(rd.Parts, pd)
			} else {
				rd.PartsOK = false
			}
		}
		if len(p.val.Content) < 2 && rd.PartsOK {
			d.errorf(d.pos(p.val), "a rendezvous has at least two parts (one process moving alone is a transition)")
			rd.PartsOK = false
		}
	}
	if p, ok := m["guard"]; ok {
		if p.val.Kind == yaml.MappingNode {
			d.errorf(d.pos(p.val), "a rendezvous has one guard, a string; found a mapping")
		} else {
			rd.Guard = d.sharedGuard(p)
		}
	}
	if p, ok := m["update"]; ok {
		if us := d.decodeUpdates(p, false); len(us) > 0 {
			rd.Update = us[0]
		}
	}
	return rd
}

// part reads one part of a rendezvous.
func (d *decoder) part(n *yaml.Node) *PartDecl {
	if !d.want(n, yaml.MappingNode, "a part {from: S, to: T} or {from: S, to: T, groups: [g]}") {
		return nil
	}
	pd := &PartDecl{Pos: d.pos(n)}
	m := d.fields(n, "rendezvous part", "from", "to", "groups")
	pd.From, pd.To = d.fromTo(m, pd.Pos, "rendezvous part")
	if p, ok := m["groups"]; ok && d.want(p.val, yaml.SequenceNode, "a list of group names") {
		pd.GroupsOK = true
		if len(p.val.Content) == 0 {
			d.errorf(d.pos(p.val), "empty list of groups: no process could take this part (leave the key out for every group)")
		}
		pd.Groups = []*Ident{}
		for _, c := range p.val.Content {
			if id := d.ident(c, "group name"); id != nil {
				pd.Groups = append(pd.Groups, id)
			}
		}
	}
	return pd
}
