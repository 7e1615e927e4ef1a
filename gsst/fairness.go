package gsst

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// This file decodes and checks the fairness key (docs/gsst-format.md,
// "fairness"):
//
//	fairness:
//	  justice:                 # conditions every fair path meets infinitely often
//	    - "#T[w] = 0 | #C[w] >= 1"
//	  weak:                    # weak fairness of local transitions
//	    - T -> C               # any process: per transition
//	    - T -> C [w, r]        # per group, for the groups listed
//	    - T -> C [*]           # per group, for every group that may take it
//	    - all                  # every local transition, any process
//	    - all [*]              # every local transition, per group

// decodeFairness reads the fairness mapping. "fairness:" with nothing
// after it means no fairness constraints.
func (d *decoder) decodeFairness(key, n *yaml.Node) *FairnessDecl {
	fd := &FairnessDecl{Pos: d.pos(key)}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return fd
	}
	if !d.want(n, yaml.MappingNode, "a mapping with keys justice and weak") {
		return fd
	}
	m := d.fields(n, "fairness", "justice", "weak")
	if p, ok := m["justice"]; ok && d.list(p.val, "a list of justice conditions") {
		for _, c := range p.val.Content {
			jd := &JusticeDecl{Pos: d.pos(c)}
			if text, ok := d.text(c, c, "justice condition"); ok {
				jd.Text = text
				jd.X = d.parseString(c)
			}
			fd.Justice = append(fd.Justice, jd)
		}
	}
	if p, ok := m["weak"]; ok && d.list(p.val, "a list of transitions (U -> V, U -> V [g], U -> V [*], all)") {
		for _, c := range p.val.Content {
			if !d.want(c, yaml.ScalarNode, "a transition U -> V, U -> V [groups] or all") {
				continue
			}
			if wd := d.weak(c); wd != nil {
				fd.Weak = append(fd.Weak, wd)
			}
		}
	}
	return fd
}

// list checks that n is a list; an empty value (null) counts as an empty
// list and reports nothing.
func (d *decoder) list(n *yaml.Node, what string) bool {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return false
	}
	return d.want(n, yaml.SequenceNode, what)
}

// weak parses one entry of the weak list, reporting syntax errors at
// their exact position.
func (d *decoder) weak(n *yaml.Node) *WeakDecl {
	e := d.entry(n, "weak fairness entry")
	wd := &WeakDecl{Text: e.v, Pos: d.pos(n)}
	first := e.name("a transition U -> V or all")
	if first == nil {
		return nil
	}
	e.skip()
	switch {
	case first.Name == "all" && (e.i == len(e.v) || e.v[e.i] == '['):
		// "all", unless a state named all starts a transition.
		wd.All = true
	case e.i == len(e.v) || e.v[e.i] == '[':
		wd.Name = first // a transition by its name
	case strings.HasPrefix(e.v[e.i:], "->"):
		wd.From = first
		e.i += 2
		if wd.To = e.name("a state name after ->"); wd.To == nil {
			return nil
		}
	default:
		d.errorf(e.pos(e.i), "expected -> in weak fairness entry %q (write U -> V, a transition's name, either with [groups] or [*], or all)", e.v)
		return nil
	}
	e.skip()
	if e.i < len(e.v) && e.v[e.i] == '[' {
		wd.PerGroup = true
		var ok bool
		if wd.Groups, wd.EachGroup, ok = e.groups(true); !ok {
			return nil
		}
	}
	if !e.end() {
		return nil
	}
	return wd
}

// entryScanner reads an entry "U -> V [g, h]" of the weak fairness and
// broadcast lists, reporting syntax errors at their exact position.
type entryScanner struct {
	d    *decoder
	v    string
	i    int
	pos  func(off int) Pos
	what string // "weak fairness entry", "transfer"
}

func (d *decoder) entry(n *yaml.Node, what string) *entryScanner {
	return &entryScanner{d: d, v: n.Value, pos: d.offsets(n), what: what}
}

func (e *entryScanner) skip() {
	for e.i < len(e.v) && (e.v[e.i] == ' ' || e.v[e.i] == '\t') {
		e.i++
	}
}

// name reads a name after optional blanks.
func (e *entryScanner) name(what string) *Ident {
	e.skip()
	j := e.i
	for j < len(e.v) && (isLetter(e.v[j]) || isDigit(e.v[j])) {
		j++
	}
	if j == e.i || !isLetter(e.v[e.i]) {
		e.d.errorf(e.pos(e.i), "expected %s in %s %q", what, e.what, e.v)
		return nil
	}
	id := &Ident{e.pos(e.i), e.v[e.i:j]}
	e.i = j
	return id
}

// groups reads a group list "[g, h]" (or "[*]" when star is allowed),
// at the [.
func (e *entryScanner) groups(star bool) (out []*Ident, all, ok bool) {
	e.i++
	e.skip()
	if star && e.i < len(e.v) && e.v[e.i] == '*' {
		all = true
		e.i++
	} else {
		what := "a group name"
		if star {
			what = "a group name or *"
		}
		out = []*Ident{}
		for {
			g := e.name(what)
			if g == nil {
				return nil, false, false
			}
			out = append(out, g)
			e.skip()
			if e.i < len(e.v) && e.v[e.i] == ',' {
				e.i++
				continue
			}
			break
		}
	}
	e.skip()
	if e.i >= len(e.v) || e.v[e.i] != ']' {
		e.d.errorf(e.pos(e.i), "expected ] in %s %q", e.what, e.v)
		return nil, false, false
	}
	e.i++
	e.skip()
	return out, all, true
}

// end reports whether the entry is read to its end, reporting what
// follows otherwise.
func (e *entryScanner) end() bool {
	if e.i < len(e.v) {
		e.d.errorf(e.pos(e.i), "unexpected %q in %s %q", e.v[e.i:], e.what, e.v)
		return false
	}
	return true
}

// fairness resolves the fairness key. "all" and "[*]" are expanded into
// one Weak per transition and group; a constraint asked for twice is kept
// once.
func (c *checker) fairness(f *File) {
	fd := f.Fairness
	if fd == nil {
		return
	}
	sys := c.sys
	for _, jd := range fd.Justice {
		j := Justice{Text: jd.Text, Pos: jd.Pos}
		if jd.X != nil {
			if v, ok := c.expr(jd.X, justiceMode, " in justice condition"); ok {
				if v.kind != kindBool {
					c.errorf(jd.X.Pos(), "justice condition is %s; expected a condition such as %q", v.kind, "#C[writer] >= 1")
				} else {
					j.Formula = v.f
				}
			}
		}
		sys.Fairness.Justice = append(sys.Fairness.Justice, j)
	}
	type key struct{ t, g int }
	seen := map[key]bool{}
	add := func(t, g int, pos, gpos Pos) {
		if !seen[key{t, g}] {
			seen[key{t, g}] = true
			sys.Fairness.Weak = append(sys.Fairness.Weak, Weak{Transition: t, Group: g, Pos: pos, GroupPos: gpos})
		}
	}
	for _, wd := range fd.Weak {
		var trans []int
		switch {
		case wd.All:
			for i := range sys.Transitions {
				trans = append(trans, i)
			}
		case wd.Name != nil:
			i := slices.IndexFunc(sys.Transitions, func(t Transition) bool { return t.Name == wd.Name.Name })
			if i < 0 {
				c.errorf(wd.Name.NamePos, "weak fairness of %s: the system has no transition of that name (weak fairness is of transitions: U -> V, or a transition's name)", wd.Name.Name)
				continue
			}
			trans = []int{i}
		default:
			from, okF := c.state(wd.From, " in weak fairness entry")
			to, okT := c.state(wd.To, " in weak fairness entry")
			if !okF || !okT {
				continue
			}
			var names []string
			for i, t := range sys.Transitions {
				if t.From == from && t.To == to {
					trans = append(trans, i)
					names = append(names, t.Name)
				}
			}
			switch {
			case len(trans) == 0:
				c.errorf(wd.From.NamePos, "weak fairness of %s -> %s: the system has no such transition", wd.From.Name, wd.To.Name)
				continue
			case len(trans) > 1:
				c.errorf(wd.From.NamePos, "weak fairness of %s -> %s: %d transitions join these states (%s); name the one meant", wd.From.Name, wd.To.Name, len(trans), strings.Join(names, ", "))
				continue
			}
		}
		for _, t := range trans {
			tr := &sys.Transitions[t]
			switch {
			case !wd.PerGroup:
				add(t, -1, wd.Pos, Pos{})
			case wd.EachGroup:
				for g := range sys.Groups {
					if tr.BlockOf(g) != nil {
						add(t, g, wd.Pos, Pos{})
					}
				}
			default:
				for _, id := range wd.Groups {
					g, ok := c.group(id, " in weak fairness entry")
					if !ok {
						continue
					}
					add(t, g, wd.Pos, id.NamePos) // the rules check that g may take t
				}
			}
		}
	}
}
