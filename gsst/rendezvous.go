package gsst

import (
	"strings"

	"github.com/vsym/vsym/presburger"
	"gopkg.in/yaml.v3"
)

// Rendezvous (the rendezvous key): steps that several distinct processes
// take together, one per part. Decoding, checking, the rules of New and
// their names in messages; what a rendezvous does is step.go's.

// Rendezvous is a step in which len(Parts) >= 2 distinct processes move
// together, each from its part's From to its To, when Guard holds (read
// before the step) and such processes exist; the step also applies
// Update.
type Rendezvous struct {
	Name    string // "" when unnamed
	NamePos Pos    // of the name, when read from a file
	Parts   []Part
	// Broadcast, when not empty, makes the rendezvous also a broadcast:
	// every other process in a transfer's From moves to its To.
	Broadcast []Transfer
	Guard     presburger.Formula // over the system's variables
	Text      string             // the guard as written; "" when unguarded
	Update    Update
	Pos       Pos
}

// Part is one participant of a rendezvous: a process in From, of one of
// Groups (any group when nil), moving to To.
type Part struct {
	From, To int
	Groups   []int // sorted; nil: every group
	Pos      Pos
}

// decodeRendezvous reads one element of the rendezvous list.
func (d *decoder) decodeRendezvous(n *yaml.Node) *RendezvousDecl {
	if !d.want(n, yaml.MappingNode, "a rendezvous {parts: [...], guard: ..., update: ...}") {
		return nil
	}
	rd := &RendezvousDecl{Pos: d.pos(n)}
	m := d.fields(n, "rendezvous", "name", "parts", "guard", "update", "broadcast")
	rd.Name = d.stepName(m)
	rd.Broadcast = d.transfers(m)
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

// rendezvous resolves the rendezvous list. A rendezvous with a part
// that did not resolve is kept (its guard and update are checked) and
// marked for the rules to skip its parts.
func (c *checker) rendezvous(f *File) {
	c.src.rdv = make([]bool, len(f.Rendezvous))
	for i, rd := range f.Rendezvous {
		r := Rendezvous{Pos: rd.Pos, Guard: presburger.True}
		if rd.Name != nil {
			r.Name, r.NamePos = rd.Name.Name, rd.Name.NamePos
		}
		var names []string
		ok := rd.PartsOK
		for _, pd := range rd.Parts {
			from, okF := c.state(pd.From, " in rendezvous part")
			to, okT := c.state(pd.To, " in rendezvous part")
			groups, okG := c.groupSet(pd.Groups, " in rendezvous part")
			if pd.GroupsOK && len(pd.Groups) == 0 {
				okG = false // reported by the decoder
			}
			if !okF || !okT || !okG {
				ok = false
			}
			if pd.From != nil && pd.To != nil {
				names = append(names, pd.From.Name+" -> "+pd.To.Name)
			}
			r.Parts = append(r.Parts, Part{From: from, To: to, Groups: groups, Pos: pd.Pos})
		}
		c.src.rdv[i] = !ok
		name := "rendezvous " + strings.Join(names, ", ")
		if g := rd.Guard; g != nil {
			r.Text, r.Guard = g.Text, c.guard(g, name)
		}
		if rd.Update != nil {
			r.Update = c.update(rd.Update, " in update of "+name)
		}
		r.Broadcast = c.broadcast(rd.Broadcast, name)
		c.sys.Rendezvous = append(c.sys.Rendezvous, r)
	}
}

// checkRendezvous checks the rendezvous: at least two parts, each a move
// between states in range (a part may stay) by processes of groups in
// range; guards and updates as for transitions.
func (s *Spec) checkRendezvous(src *source, fromFile bool, at func(Pos, string, ...any)) {
	m := len(s.States)
	for i := range s.Rendezvous {
		r := &s.Rendezvous[i]
		pos := r.Pos
		if pos.Line == 0 {
			pos.File = s.File
		}
		name := s.RendezvousName(r)
		if i >= len(src.rdv) || !src.rdv[i] {
			if len(r.Parts) < 2 {
				at(pos, "rendezvous %d has %d parts; a rendezvous moves at least two processes", i, len(r.Parts))
			}
			for k := range r.Parts {
				p := &r.Parts[k]
				ppos := p.Pos
				if ppos.Line == 0 {
					ppos = pos
				}
				if p.From < 0 || p.From >= m || p.To < 0 || p.To >= m {
					at(ppos, "rendezvous %d: part %d has a state out of range", i, k)
					continue
				}
				s.checkGroupSet(p.Groups, "part "+s.States[p.From]+" -> "+s.States[p.To]+" of "+name, ppos, at)
			}
			byState := map[int][]int{}
			for k, p := range r.Parts {
				if p.From >= 0 && p.From < m {
					byState[p.From] = append(byState[p.From], k)
				}
			}
			for st, from := range byState {
				if c := len(s.partClasses(r.Parts, from)); c > MaxPartClasses {
					at(pos, "%s: its parts from %s allow %d different sets of groups; at most %d can be written (the condition that distinct processes take the parts has a term per union of them)", name, s.States[st], c, MaxPartClasses)
				}
			}
		}
		switch {
		case r.Guard != nil:
			s.checkFormula(r.Guard, "guard of "+name, pos, at)
		case !fromFile:
			at(pos, "%s: missing guard", name)
		}
		s.checkUpdate(&r.Update, "update of "+name, pos, at)
		s.checkTransfers(r.Broadcast, name, pos, at)
	}
}

// RendezvousName names a rendezvous by its parts: "rendezvous P -> P2,
// C -> C2".
func (s *Spec) RendezvousName(r *Rendezvous) string {
	if r.Name != "" {
		r := *r
		name := r.Name
		r.Name = ""
		return name + " (" + s.RendezvousName(&r) + ")"
	}
	out := "rendezvous"
	for k, p := range r.Parts {
		if k > 0 {
			out += ","
		}
		if p.From < 0 || p.From >= len(s.States) || p.To < 0 || p.To >= len(s.States) {
			out += " ?"
			continue
		}
		out += " " + s.States[p.From] + " -> " + s.States[p.To]
	}
	return out
}
