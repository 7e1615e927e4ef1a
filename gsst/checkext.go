package gsst

import (
	"sort"
	"strings"

	"github.com/vsym/vsym/presburger"
)

// This file resolves what the language has beyond the paper's GSSTs
// (shared.go): parameters and their assumption, shared variables and
// their enumeration constants, group sizes over parameters, updates,
// broadcasts and rendezvous.

// name is what an identifier of an expression stands for, beyond n,
// true and false.
type name struct {
	param  int // index of a parameter, or -1
	shared int // index of a shared variable, or -1
	// an enumeration constant: its index among the values of the
	// enumeration enum (enumKey)
	enum  string
	value int
	// dup marks a name declared twice (the rules report it): its uses
	// are not checked, which would only repeat that error.
	dup bool
}

// declareName enters nm into the name space, marking a name declared
// twice. The same constant of one enumeration, listed by two variables,
// is one declaration.
func (c *checker) declareName(id string, nm name) {
	if reserved[id] {
		return
	}
	prev, ok := c.names[id]
	switch {
	case !ok:
		c.names[id] = nm
	case nm.enum != "" && prev.enum == nm.enum && prev.value == nm.value:
	default:
		prev.dup = true
		c.names[id] = prev
	}
}

// enumKey identifies an enumeration by its constants: two shared
// variables declared with the same list of constants have the same type.
func enumKey(values []string) string { return strings.Join(values, ",") }

func (c *checker) declareParams(f *File) {
	for _, id := range f.Params {
		k := len(c.sys.Params)
		c.sys.Params = append(c.sys.Params, Param{Name: id.Name, Pos: id.NamePos})
		c.declareName(id.Name, name{param: k, shared: -1})
	}
}

func (c *checker) declareShared(f *File) {
	c.src.shared = make([]sharedSrc, len(f.Shared))
	for j, sd := range f.Shared {
		v := Shared{Name: sd.Name.Name, Pos: sd.Name.NamePos, TypePos: sd.TypePos, InitPos: sd.InitPos}
		ss := sharedSrc{initOK: sd.InitOK, typeOK: sd.TypeOK}
		switch {
		case !sd.TypeOK:
			v.Lo, v.Hi, v.Unbounded = 0, 0, true // anything: the type is reported
		case sd.Bool:
			v.Bool, v.Lo, v.Hi = true, 0, 1
		case sd.Values != nil:
			for _, id := range sd.Values {
				v.Values = append(v.Values, id.Name)
				v.ValuePos = append(v.ValuePos, id.NamePos)
			}
			v.Lo, v.Hi = 0, len(v.Values)-1
		default:
			v.Lo, v.Hi, v.Unbounded = int(sd.Lo), int(sd.Hi), sd.Unbounded
		}
		if sd.TypeOK && sd.InitOK {
			c.initialValue(&v, sd, &ss)
		}
		c.sys.Shared = append(c.sys.Shared, v)
		c.src.shared[j] = ss
		// Reserved names are reported by the rules; n stays the number
		// of processes.
		if v.Name != "n" {
			c.declareName(v.Name, name{param: -1, shared: j})
		}
		key := enumKey(v.Values)
		for i, val := range v.Values {
			if val != "n" {
				c.declareName(val, name{param: -1, shared: -1, enum: key, value: i})
			}
		}
	}
}

// initialValue resolves the initial value of a shared variable as
// written: true/false for a boolean, a constant of an enumeration, an
// integer otherwise. Whether it lies in the domain is a rule of New.
func (c *checker) initialValue(v *Shared, sd *SharedDecl, ss *sharedSrc) {
	id := sd.InitName
	switch {
	case v.Bool && id != nil && (id.Name == "true" || id.Name == "false"):
		if id.Name == "true" {
			v.Init = 1
		}
		return
	case v.Bool:
		c.errorf(sd.InitPos, "initial value of boolean variable %s must be true or false", v.Name)
	case v.Values != nil && id != nil:
		for i, val := range v.Values {
			if val == id.Name {
				v.Init = i
				return
			}
		}
		c.errorf(sd.InitPos, "initial value %s of %s is not one of its constants %s", id.Name, v.Name, v.TypeText())
	case v.Values != nil:
		c.errorf(sd.InitPos, "initial value of %s must be one of its constants %s", v.Name, v.TypeText())
	case id != nil:
		c.errorf(sd.InitPos, "initial value of integer variable %s must be an integer, not %s", v.Name, id.Name)
	default:
		if sd.InitInt > MaxValue || sd.InitInt < -MaxValue {
			c.errorf(sd.InitPos, "initial value %d of %s is beyond the limit of %d", sd.InitInt, v.Name, MaxValue)
		} else {
			v.Init = int(sd.InitInt)
			return
		}
	}
	ss.initOK = false // reported: the rules skip it
}

// sizeTerm resolves a group size written as an expression over the
// parameters. A constant expression is a fixed size.
func (c *checker) sizeTerm(grp *Group, g *GroupDecl) {
	if !c.sizeTermOK(grp, g) {
		if c.badSize == nil {
			c.badSize = map[int]bool{}
		}
		c.badSize[c.groups[grp.Name]] = true
	}
}

func (c *checker) sizeTermOK(grp *Group, g *GroupDecl) bool {
	v, ok := c.expr(g.SizeX, sizeMode, " in the size of group "+grp.Name)
	switch {
	case !ok:
		return false
	case v.kind != kindInt:
		c.errorf(g.SizeX.Pos(), "size of group %s is %s; expected an expression over the parameters such as %q", grp.Name, v.kind, "n - f")
		return false
	case v.t.IsConst():
		c.errorf(g.SizeX.Pos(), "size %q of group %s reads no parameter; write a fixed size as an integer (%d)", g.SizeText, grp.Name, v.t.Const)
		return false
	}
	grp.SizeTerm, grp.SizeTermText = v.t, g.SizeText
	return true
}

func (c *checker) assume(f *File) {
	ad := f.Assume
	if ad == nil {
		return
	}
	c.sys.Assume = Assumption{Text: ad.Text, Pos: ad.Pos}
	if len(f.Params) == 0 {
		c.errorf(ad.Pos, "assume without params: the assumption is a condition on the parameters (declare them in params)")
		return
	}
	if ad.X == nil {
		return
	}
	if v, ok := c.expr(ad.X, assumeMode, " in the assumption"); ok {
		if v.kind != kindBool {
			c.errorf(ad.X.Pos(), "the assumption is %s; expected a condition such as %q", v.kind, "n > 3*t")
			return
		}
		c.sys.Assume.Formula = v.f
	}
}

// processCount reports whether a counter or n (the number of processes)
// may appear in mode m, reporting it when not.
func (c *checker) processCount(pos Pos, what string, m mode, where string) bool {
	switch m {
	case assumeMode, sizeMode, updateMode:
	default:
		return true
	}
	if what == "n" {
		what = "n (the number of processes)"
	}
	why := map[mode]string{
		assumeMode: "the assumption reads the parameters only",
		sizeMode:   "a group size is an expression over the parameters",
		updateMode: "an update reads shared variables, parameters and constants",
	}[m]
	hint := ""
	if what != "counter" && m != updateMode {
		hint = " (declare n in params to make it a parameter)"
	}
	c.errorf(pos, "%s%s: %s%s", what, where, why, hint)
	return false
}

// named gives the meaning of an identifier declared by the file.
func (c *checker) named(x *NameExpr, nm name, m mode, where string) (value, bool) {
	switch {
	case nm.dup:
		return value{}, false
	case nm.param >= 0:
		p := &c.sys.Params[nm.param]
		if p.Fixed {
			return value{kind: kindInt, t: presburger.ConstTerm(int64(p.Value))}, true
		}
		return value{kind: kindInt, t: presburger.VarTerm(c.sys.ParamVar(nm.param))}, true
	case nm.shared >= 0:
		if m == assumeMode || m == sizeMode {
			c.errorf(x.NamePos, "shared variable %s%s: %s", x.Name, where, map[mode]string{
				assumeMode: "the assumption reads the parameters only",
				sizeMode:   "a group size is an expression over the parameters"}[m])
			return value{}, false
		}
		v := &c.sys.Shared[nm.shared]
		t := presburger.VarTerm(c.sys.SharedVar(nm.shared))
		switch {
		case v.Bool:
			return value{kind: kindBool, f: presburger.Compare(t, presburger.Eq, presburger.ConstTerm(1)), t: t, boolVal: true, boolVar: true}, true
		case v.Values != nil:
			return value{kind: kindEnum, t: t, enum: enumKey(v.Values)}, true
		}
		return value{kind: kindInt, t: t}, true
	}
	return value{kind: kindEnum, t: presburger.ConstTerm(int64(nm.value)), enum: nm.enum}, true
}

// compareValues compares enumeration values, or boolean variables with
// each other and with true and false: = and != only, within one type.
func (c *checker) compareValues(x *BinaryExpr, l, r value) (value, bool) {
	if x.Op != EQL && x.Op != NEQ {
		what := "enumeration values"
		if l.kind == kindBool || r.kind == kindBool {
			what = "booleans"
		}
		c.errorf(x.OpPos, "comparison %s of %s: %s are compared with = and != only", x.Op, what, what)
		return value{}, false
	}
	switch {
	case l.kind == kindEnum && r.kind == kindEnum && l.enum == r.enum:
	case l.kind == kindEnum && r.kind == kindEnum:
		c.errorf(x.OpPos, "comparison %s of values of two different enumerations [%s] and [%s]", x.Op,
			strings.ReplaceAll(l.enum, ",", ", "), strings.ReplaceAll(r.enum, ",", ", "))
		return value{}, false
	case l.boolVal && r.boolVal:
	case l.kind == kindEnum || r.kind == kindEnum:
		other := r
		if r.kind == kindEnum {
			other = l
		}
		c.errorf(x.OpPos, "comparison %s of an enumeration value with %s: compare it with a constant or a variable of its enumeration", x.Op, other.kind)
		return value{}, false
	default:
		c.errorf(x.OpPos, "comparison %s of a boolean variable with %s: compare it with true, false or a boolean variable, or use it as a condition", x.Op, describeValue(l, r))
		return value{}, false
	}
	return value{kind: kindBool, f: presburger.Compare(l.t, cmpOps[x.Op], r.t)}, true
}

// describeValue names the side of a comparison that is not a boolean
// variable or constant.
func describeValue(l, r value) string {
	if l.boolVal {
		l = r
	}
	if l.kind == kindBool {
		return "a condition"
	}
	return l.kind.String()
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

// groupSet resolves a list of group names into sorted indices; nil
// stays nil (every group). ok is false when a name did not resolve.
func (c *checker) groupSet(ids []*Ident, where string) (out []int, ok bool) {
	if ids == nil {
		return nil, true
	}
	ok = true
	out = []int{}
	for _, id := range ids {
		g, okG := c.group(id, where)
		switch {
		case !okG:
			ok = false
		case contains(out, g):
			c.errorf(id.NamePos, "group %s listed twice%s", id.Name, where)
			ok = false
		default:
			out = append(out, g)
		}
	}
	sort.Ints(out)
	return out, ok
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// rendezvous resolves the rendezvous list. A rendezvous with a part
// that did not resolve is kept (its guard and update are checked) and
// marked for the rules to skip its parts.
func (c *checker) rendezvous(f *File) {
	c.src.rdv = make([]bool, len(f.Rendezvous))
	for i, rd := range f.Rendezvous {
		r := Rendezvous{Pos: rd.Pos, Guard: presburger.True}
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
			r.Text, r.Guard = g.Text, nil
			if g.X != nil {
				if v, okV := c.expr(g.X, guardMode, " in guard of "+name); okV {
					if v.kind != kindBool {
						c.errorf(g.X.Pos(), "guard of %s is %s; expected a condition such as %q", name, v.kind, "#C = 0")
					} else {
						r.Guard = v.f
					}
				}
			}
		}
		if rd.Update != nil {
			r.Update = c.update(rd.Update, " in update of "+name)
		}
		c.sys.Rendezvous = append(c.sys.Rendezvous, r)
	}
}
