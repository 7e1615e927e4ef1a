package gsst

import (
	"github.com/vsym/vsym/presburger"
	"gopkg.in/yaml.v3"
)

// Parameters (the params key), the assumption over them (assume), and
// group sizes written over them: decoding, checking, the rules of New,
// and the condition every instance of a family satisfies. A parameter is
// a constant of a run: a fixed instance folds it to its value, as it
// folds n (instance.go).

// Param is a named parameter: a nonnegative integer constant of a run.
// In a family (Fixed false) formulas read it as ParamVar; an instance
// fixes it to Value and folds it into every formula.
type Param struct {
	Name  string
	Pos   Pos
	Fixed bool
	Value int
}

// Assumption is the resilience condition of a family with parameters: a
// formula over the ParamVars; only parameter values that satisfy it are
// instances. Formula is nil when the spec assumes nothing.
type Assumption struct {
	Formula presburger.Formula
	Text    string
	Pos     Pos
}

// ParamVar returns the variable of parameter k. It follows the shared
// variables.
func (s *Spec) ParamVar(k int) presburger.Var {
	return s.NVar() + 1 + presburger.Var(len(s.Shared)+k)
}

// ParamOf returns the index of the parameter v, and false when v is no
// parameter's.
func (s *Spec) ParamOf(v presburger.Var) (int, bool) {
	k := int(v - s.ParamVar(0))
	return k, k >= 0 && k < len(s.Params)
}

// InstanceCondition returns what the parameters (ParamVar), the group
// sizes (SizeVar) and n (NVar) of every instance of s satisfy, beyond
// the ranges of SizeBounds: each parameter not fixed is at least 0, the
// assumption holds, each size over the parameters equals its term (and,
// with SizeBounds, is at least 1), and n is the sum of the sizes. An
// instance of the family is exactly a solution of the two together; for
// a system without parameters it is SizeSum.
func (s *Spec) InstanceCondition() presburger.Formula {
	var parts []presburger.Formula
	for k, p := range s.Params {
		if !p.Fixed {
			parts = append(parts, presburger.Compare(presburger.VarTerm(s.ParamVar(k)), presburger.Ge, presburger.ConstTerm(0)))
		}
	}
	if s.Assume.Formula != nil {
		parts = append(parts, s.Assume.Formula)
	}
	for g := range s.Groups {
		if grp := &s.Groups[g]; grp.OverParams() {
			parts = append(parts, presburger.Compare(presburger.VarTerm(s.SizeVar(g)), presburger.Eq, grp.SizeTerm))
		}
	}
	parts = append(parts, s.initDomains()...)
	return presburger.Conj(append(parts, s.SizeSum())...)
}

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

func (c *checker) declareParams(f *File) {
	for _, id := range f.Params {
		k := len(c.sys.Params)
		c.sys.Params = append(c.sys.Params, Param{Name: id.Name, Pos: id.NamePos})
		c.declareName(id.Name, name{param: k, shared: -1})
	}
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
