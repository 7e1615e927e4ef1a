package gsst

import (
	"slices"

	"github.com/vsym/vsym/presburger"
)

// The rules of New for what the language has beyond the paper's GSSTs
// (shared.go): names, domains and initial values of shared variables,
// parameters and their assumption, group sizes over parameters, updates,
// broadcasts and rendezvous. Parse runs them on the Spec its checker
// builds, as it runs the others.

// reserved are names no parameter, shared variable or enumeration
// constant may take: the predeclared true and false, and the temporal
// operators, which the expression parser reads as operators.
var reserved = map[string]bool{"true": true, "false": true, "AG": true, "AF": true, "EG": true, "EF": true, "AX": true, "EX": true}

// checkNames checks that parameters, shared variables and enumeration
// constants have names, distinct across the three, none reserved, and
// that n is declared, if at all, as a parameter. An enumeration constant
// may appear in several variables' types only when those types list the
// same constants in the same order: the variables then share the type.
func (s *Spec) checkNames(src *source, at func(Pos, string, ...any)) {
	type decl struct {
		pos  Pos
		what string
		enum string // for an enumeration constant, its enumeration
	}
	seen := map[string]decl{}
	declare := func(name string, pos Pos, what, enum string) {
		switch {
		case !isName(name):
			at(pos, "%s %q is not a name (letters, digits and _, not starting with a digit)", what, name)
			return
		case reserved[name]:
			at(pos, "%s %q: %s is predeclared (or an operator) and cannot be redeclared", what, name, name)
			return
		case name == "n" && what != "parameter":
			at(pos, "%s %q: n is predeclared (the number of processes); declare it in params to make it a parameter", what, name)
			return
		}
		prev, dup := seen[name]
		switch {
		case !dup:
			seen[name] = decl{pos, what, enum}
		case enum != "" && prev.enum == enum:
			// the same constant of the same enumeration
		case enum != "" && prev.enum != "":
			at(pos, "enumeration constant %q is also a constant of another enumeration%s; two enumerations share constants only when they list the same ones in the same order",
				name, known("at", prev.pos))
		default:
			at(pos, "%s %q has the name of a %s%s; parameters, shared variables and enumeration constants share one name space", what, name, prev.what, known("at", prev.pos))
		}
	}
	for _, p := range s.Params {
		declare(p.Name, p.Pos, "parameter", "")
	}
	for j := range s.Shared {
		declare(s.Shared[j].Name, s.Shared[j].Pos, "shared variable", "")
	}
	for j := range s.Shared {
		v := &s.Shared[j]
		key := enumKey(v.Values)
		for i, c := range v.Values {
			pos := v.Pos
			if i < len(v.ValuePos) && v.ValuePos[i].Line != 0 {
				pos = v.ValuePos[i]
			}
			if slices.Index(v.Values, c) != i {
				at(pos, "enumeration constant %q appears twice in the type of %s", c, v.Name)
				continue
			}
			declare(c, pos, "enumeration constant", key)
		}
	}
}

// checkShared checks the domain and initial value of every shared
// variable.
func (s *Spec) checkShared(src *source, at func(Pos, string, ...any)) {
	for j := range s.Shared {
		v := &s.Shared[j]
		typ, init := v.TypePos, v.InitPos
		if typ.Line == 0 {
			typ = v.Pos
		}
		if init.Line == 0 {
			init = v.Pos
		}
		typeOK, initOK := true, true
		if j < len(src.shared) {
			typeOK, initOK = src.shared[j].typeOK, src.shared[j].initOK
		}
		if !typeOK {
			continue
		}
		switch {
		case v.Bool && (v.Values != nil || v.Lo != 0 || v.Hi != 1 || v.Unbounded):
			at(typ, "boolean variable %s must have the domain 0..1 and no constants", v.Name)
			continue
		case v.Values != nil && len(v.Values) == 0:
			at(typ, "shared variable %s has an empty enumeration", v.Name)
			continue
		case v.Values != nil && (v.Lo != 0 || v.Hi != len(v.Values)-1 || v.Unbounded):
			at(typ, "enumeration variable %s must have the domain 0..%d, one value per constant", v.Name, len(v.Values)-1)
			continue
		case v.Lo < -MaxValue || v.Lo > MaxValue || !v.Unbounded && (v.Hi < -MaxValue || v.Hi > MaxValue):
			at(typ, "domain %s of %s is beyond the limit of %d", v.TypeText(), v.Name, MaxValue)
			continue
		case !v.Unbounded && v.Hi < v.Lo:
			at(typ, "empty domain %s of %s: the greatest value is below the least", v.TypeText(), v.Name)
			continue
		}
		if initOK && !v.Contains(v.Init) {
			at(init, "initial value %d of %s is outside its domain %s", v.Init, v.Name, v.TypeText())
		}
	}
	for k, p := range s.Params {
		if p.Fixed && (p.Value < 0 || p.Value > MaxConstant) {
			at(s.Params[k].Pos, "parameter %s has the value %d; a parameter lies in 0..%d", p.Name, p.Value, MaxConstant)
		}
	}
}

// isParamVar reports whether v is the variable of a parameter, fixed or
// not.
func (s *Spec) isParamVar(v presburger.Var) bool { _, ok := s.ParamOf(v); return ok }

// checkAssume checks that the assumption reads only parameters that are
// not fixed, and that it holds when it reads none (in an instance).
func (s *Spec) checkAssume(at func(Pos, string, ...any)) {
	f := s.Assume.Formula
	if f == nil {
		return
	}
	pos := s.Assume.Pos
	if pos.Line == 0 {
		pos.File = s.File
	}
	if !presburger.IsQuantifierFree(f) {
		at(pos, "the assumption has a quantifier, which the GSST language does not have")
		return
	}
	vars := presburger.FreeVars(f)
	for _, v := range vars {
		if k, ok := s.ParamOf(v); !ok || s.Params[k].Fixed {
			at(pos, "the assumption reads %s; it may read only parameters that are not fixed", s.VarName(v))
			return
		}
	}
	if len(vars) == 0 && !presburger.Eval(f, func(presburger.Var) int64 { return 0 }) {
		at(pos, "the assumption %q does not hold", s.Assume.Text)
	}
}

// checkSizeTerm checks a group size given over the parameters: a linear
// term reading parameters not fixed, at least one, in a group that is
// not also a range.
func (s *Spec) checkSizeTerm(g *Group, pos Pos, at func(Pos, string, ...any)) {
	t := g.SizeTerm
	switch {
	case g.Ranged:
		at(pos, "group %q has both a range of sizes and a size over the parameters", g.Name)
	case t.IsConst():
		at(pos, "group %q has the constant size term %d; a constant size is Size", g.Name, t.Const)
	case !fits(t):
		at(pos, "the size of group %q has a constant beyond the limit of %d", g.Name, MaxConstant)
	}
	for _, m := range t.Monos {
		if k, ok := s.ParamOf(m.Var); !ok || s.Params[k].Fixed {
			at(pos, "the size of group %q reads %s; a size reads only parameters that are not fixed", g.Name, s.VarName(m.Var))
			return
		}
	}
}

// sizeTermText writes a size over the parameters as written, or as the
// term when built by hand.
func (g *Group) sizeTermText(s *Spec) string {
	if g.SizeTermText != "" {
		return g.SizeTermText
	}
	return g.SizeTerm.Format(func(v presburger.Var) string { return s.VarName(v) })
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

// checkGroupSet checks a restriction to groups: nil (every group), or
// groups in range, strictly increasing, at least one.
func (s *Spec) checkGroupSet(groups []int, where string, pos Pos, at func(Pos, string, ...any)) {
	if groups == nil {
		return
	}
	if len(groups) == 0 {
		at(pos, "%s is restricted to no group (nil restricts to none: every group)", where)
		return
	}
	for i, g := range groups {
		switch {
		case g < 0 || g >= len(s.Groups):
			at(pos, "%s: group %d out of range", where, g)
			return
		case i > 0 && groups[i-1] >= g:
			at(pos, "%s: groups not sorted or listed twice", where)
			return
		}
	}
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

// checkRendezvous checks the rendezvous: at least two parts, each a move
// between distinct states in range by processes of groups in range;
// guards and updates as for transitions.
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
				if p.From == p.To {
					at(ppos, "self-loop %s -> %s in %s: each part must change the state", s.States[p.From], s.States[p.To], name)
				}
				s.checkGroupSet(p.Groups, "part "+s.States[p.From]+" -> "+s.States[p.To]+" of "+name, ppos, at)
			}
		}
		switch {
		case r.Guard != nil:
			s.checkFormula(r.Guard, "guard of "+name, pos, at)
		case !fromFile:
			at(pos, "%s: missing guard", name)
		}
		s.checkUpdate(&r.Update, "update of "+name, pos, at)
	}
}

// RendezvousName names a rendezvous by its parts: "rendezvous P -> P2,
// C -> C2".
func (s *Spec) RendezvousName(r *Rendezvous) string {
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
