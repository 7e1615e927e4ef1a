package gsst

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/presburger"
	"gopkg.in/yaml.v3"
)

// Updates of shared variables (the update key of a transition or a
// rendezvous): decoding, checking and the rules of New. What an update
// does at a step is step.go's and config.go's.

// Assign is one assignment of an update: shared variable Var (a SharedVar)
// gets Value, a linear term over the shared variables (and the ParamVars,
// in a family) read before the step. An update's assignments happen at
// once; a variable not assigned keeps its value. A step whose update
// would take a variable out of its domain is not enabled.
type Assign struct {
	Var   presburger.Var
	Value presburger.Term
}

// Update is the update of a block, of a rendezvous: what the step does
// to the shared variables. In a System no assignment is an identity
// (Assign.Identity): x := x writes nothing, and seal drops it, so that
// every stage that asks which steps write x (the initial phase, slicing,
// the counter models, the exporters) and every builder (Instantiate,
// PinParams, New) sees the same writes whether or not a file lists the
// variables a step keeps. Text stays as written.
type Update struct {
	Assign []Assign
	Text   string // as written; "" when there is none
	Pos    Pos
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

// updates resolves the update key of a transition into the Update of its
// blocks. A single update goes to every block; updates per group split
// the blocks so that the groups of a block share guard and update.
func (c *checker) updates(t *Transition, td *TransDecl, name string) {
	if len(td.Updates) == 0 {
		return
	}
	where := " in update of " + name
	if len(td.Updates) == 1 && td.Updates[0].Shared {
		u := c.update(td.Updates[0], where)
		for i := range t.Blocks {
			t.Blocks[i].Update = u
		}
		return
	}
	of := make([]int, len(c.sys.Groups)) // group -> index of its update, -1 none
	for g := range of {
		of[g] = -1
	}
	keyPos := make([]Pos, len(c.sys.Groups))
	var us []Update
	for _, ud := range td.Updates {
		for _, id := range ud.Groups {
			g, ok := c.group(id, where)
			switch {
			case !ok:
			case of[g] >= 0:
				c.errorf(id.NamePos, "group %q has two updates in %s (the other at %s)", id.Name, name, keyPos[g])
			case t.BlockOf(g) == nil:
				c.errorf(id.NamePos, "update of %s for group %s: the group cannot take this transition (it is in none of its guard blocks)", name, id.Name)
			default:
				of[g], keyPos[g] = len(us), id.NamePos
			}
		}
		us = append(us, c.update(ud, where))
	}
	var blocks []Block
	for _, b := range t.Blocks {
		var parts []Block
		index := map[int]int{} // update -> part
		for k, g := range b.Groups {
			u := -1
			if g >= 0 && g < len(of) {
				u = of[g]
			}
			i, ok := index[u]
			if !ok {
				i = len(parts)
				index[u] = i
				nb := Block{Guard: b.Guard, Text: b.Text, Pos: b.Pos}
				if u >= 0 {
					nb.Update = us[u]
				}
				parts = append(parts, nb)
			}
			parts[i].Groups = append(parts[i].Groups, g)
			if len(b.GroupPos) == len(b.Groups) {
				parts[i].GroupPos = append(parts[i].GroupPos, b.GroupPos[k])
			}
		}
		if len(parts) == 0 {
			parts = []Block{b}
		}
		blocks = append(blocks, parts...)
	}
	t.Blocks = blocks
}

// update resolves one update: every target a shared variable assigned
// once, every right side of the variable's type.
func (c *checker) update(ud *UpdateDecl, where string) Update {
	u := Update{Text: ud.Text, Pos: ud.Pos}
	seen := map[int]Pos{}
	for _, as := range ud.Assigns {
		nm, ok := c.names[as.Var.Name]
		// The right side is checked in any case, to report its errors.
		rhs, okR := c.expr(as.X, updateMode, where)
		switch {
		case ok && nm.dup:
			continue
		case !ok && as.Var.Name == "n" || ok && nm.param >= 0:
			c.errorf(as.Var.NamePos, "cannot assign %s%s: parameters and n are constant in a run", as.Var.Name, where)
			continue
		case !ok:
			c.errorf(as.Var.NamePos, "unknown shared variable %q%s", as.Var.Name, where)
			continue
		case nm.shared < 0:
			c.errorf(as.Var.NamePos, "cannot assign %s%s: it is an enumeration constant, not a shared variable", as.Var.Name, where)
			continue
		}
		if prev, dup := seen[nm.shared]; dup {
			c.errorf(as.Var.NamePos, "%s assigned twice in one update (first at %s); an update assigns each variable at most once", as.Var.Name, prev)
			continue
		}
		seen[nm.shared] = as.Var.NamePos
		if !okR {
			continue
		}
		v := &c.sys.Shared[nm.shared]
		switch {
		case v.Bool && !rhs.boolVal:
			c.errorf(as.X.Pos(), "%s is a boolean variable; assign it true, false or a boolean variable, not %s", v.Name, rhs.kind)
			continue
		case v.Values != nil && (rhs.kind != kindEnum || rhs.enum != enumKey(v.Values)):
			c.errorf(as.X.Pos(), "%s is of the enumeration %s; assign it one of its constants or a variable of that enumeration", v.Name, v.TypeText())
			continue
		case !v.Bool && v.Values == nil && rhs.kind != kindInt:
			c.errorf(as.X.Pos(), "%s is an integer variable; assign it a linear expression over integer shared variables, parameters and constants, not %s", v.Name, rhs.kind)
			continue
		}
		u.Assign = append(u.Assign, Assign{Var: c.sys.SharedVar(nm.shared), Value: rhs.t})
	}
	return u
}

// checkUpdate checks an update: every target a shared variable, assigned
// once, every value of its type and reading only shared variables and
// parameters that are not fixed (an integer reads integer variables
// only).
func (s *Spec) checkUpdate(u *Update, where string, pos Pos, at func(Pos, string, ...any)) {
	if u.Pos.Line != 0 {
		pos = u.Pos
	}
	seen := map[presburger.Var]bool{}
	for _, a := range u.Assign {
		j, ok := s.SharedOf(a.Var)
		if !ok {
			at(pos, "%s assigns %s, which is not a shared variable", where, s.VarName(a.Var))
			continue
		}
		v := &s.Shared[j]
		if seen[a.Var] {
			at(pos, "%s assigns %s twice; an update assigns each variable at most once", where, v.Name)
			continue
		}
		seen[a.Var] = true
		if !fits(a.Value) {
			at(pos, "%s: the value of %s has a constant beyond the limit of %d", where, v.Name, MaxConstant)
			continue
		}
		t := a.Value
		switch {
		case v.Bool:
			if !(t.IsConst() && (t.Const == 0 || t.Const == 1)) && !s.isVarOf(t, func(w *Shared) bool { return w.Bool }) {
				at(pos, "%s assigns boolean variable %s a value that is not true, false or a boolean variable", where, v.Name)
			}
		case v.Values != nil:
			key := enumKey(v.Values)
			if !(t.IsConst() && t.Const >= 0 && t.Const < int64(len(v.Values))) && !s.isVarOf(t, func(w *Shared) bool { return w.Values != nil && enumKey(w.Values) == key }) {
				at(pos, "%s assigns enumeration variable %s a value that is not one of its constants or a variable of its enumeration", where, v.Name)
			}
		default:
			for _, m := range t.Monos {
				k, isShared := s.SharedOf(m.Var)
				p, isParam := s.ParamOf(m.Var)
				switch {
				case isShared && !s.Shared[k].Bool && s.Shared[k].Values == nil:
				case isParam && !s.Params[p].Fixed:
				default:
					at(pos, "%s assigns %s a value reading %s; an integer update reads integer shared variables and parameters that are not fixed", where, v.Name, s.VarName(m.Var))
				}
			}
		}
	}
}

// isVarOf reports whether t is one shared variable for which ok holds.
func (s *Spec) isVarOf(t presburger.Term, ok func(*Shared) bool) bool {
	if t.Const != 0 || len(t.Monos) != 1 || t.Monos[0].Coef != 1 {
		return false
	}
	j, isShared := s.SharedOf(t.Monos[0].Var)
	return isShared && ok(&s.Shared[j])
}

// Identity reports whether a gives its variable the variable's own value
// (x := x, or a value that folds to x, such as x + f - f or, in an
// instance, x + f with f = 0): an assignment that writes nothing and
// cannot take x out of its domain.
func (a Assign) Identity() bool {
	t := a.Value
	return t.Const == 0 && len(t.Monos) == 1 && t.Monos[0].Var == a.Var && t.Monos[0].Coef == 1
}

// dropIdentities removes the identity assignments of shared variables
// from every update of s, so that x := x means no write to every reader
// of the System. seal calls it, after the rules ran on the updates as
// given (a variable assigned twice, x := x among them, is still an
// error). It changes the Spec it is given, which every caller of seal
// owns (Parse's, New's clone, the copies of instance); it allocates a new
// list of assignments for an update it changes, as a list may still be
// shared with the System the Spec was made from.
func (s *Spec) dropIdentities() {
	drop := func(u *Update) {
		if !slices.ContainsFunc(u.Assign, s.identity) {
			return
		}
		u.Assign = slices.DeleteFunc(slices.Clone(u.Assign), s.identity)
	}
	for i := range s.Transitions {
		t := &s.Transitions[i]
		for j := range t.Blocks {
			drop(&t.Blocks[j].Update)
		}
	}
	for i := range s.Rendezvous {
		drop(&s.Rendezvous[i].Update)
	}
	for i := range s.Environment {
		drop(&s.Environment[i].Update)
	}
}

// identity reports whether a is an identity assignment of one of s's
// shared variables.
func (s *Spec) identity(a Assign) bool {
	_, ok := s.SharedOf(a.Var)
	return ok && a.Identity()
}
