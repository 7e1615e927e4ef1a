package gsst

import (
	"strconv"
	"strings"

	"github.com/vsym/vsym/presburger"
	"gopkg.in/yaml.v3"
)

// Shared variables: their declaration (the shared key), decoding,
// checking and the rules of New on their domains and initial values.
// Variables, after the counters, size variables and NVar of system.go:
// SharedVar(j) is shared variable j, ParamVar(k) parameter k
// (params.go). A shared variable is a state variable: it changes along a
// run; updates (update.go) write it.

// Shared is a shared variable: a boolean, an enumeration, or an integer in
// Lo..Hi (Unbounded: Lo and up). Every kind is an integer in the formulas:
// a boolean is 0 (false) or 1 (true), an enumeration the index of its
// value in Values.
type Shared struct {
	Name      string
	Bool      bool
	Values    []string // the constants of an enumeration; nil otherwise
	Lo, Hi    int      // the domain (a boolean's is 0..1, an enumeration's 0..len(Values)-1)
	Unbounded bool     // no greatest value (Hi unused)
	Init      int      // initial value (the least of a range; Lo while InitTerm reads parameters)
	// A set of initial values (initial.go): every value of the range
	// Init..InitHi (InitRange), whose least is InitTerm and whose
	// greatest InitHiTerm where they are linear terms over the parameters,
	// and which has no greatest with InitNoHi; or the value of InitTerm.
	// An instance folds the terms to Init and InitHi. InitText is the
	// set as written. InitLow and InitHigh read the bounds.
	InitRange  bool
	InitHi     int  // the greatest of a range (Init while InitHiTerm reads parameters)
	InitNoHi   bool // a range with no greatest value: Init and up (an unbounded variable's)
	InitTerm   presburger.Term
	InitHiTerm presburger.Term
	InitText   string
	Pos        Pos // of the name
	// TypePos, InitPos and ValuePos (one per constant of an
	// enumeration), in a Shared read from a file, say where the type,
	// the initial value and the constants were written, for the messages
	// of New; zero (nil) when built by hand.
	TypePos, InitPos Pos
	ValuePos         []Pos
}

// Contains reports whether k is in the domain of v.
func (v *Shared) Contains(k int) bool { return k >= v.Lo && (v.Unbounded || k <= v.Hi) }

// Bounds returns the domain of v as a presburger bound on variable x.
func (v *Shared) Bounds(x presburger.Var) presburger.Bound {
	return presburger.Bound{Var: x, Lo: int64(v.Lo), Hi: int64(v.Hi), NoHi: v.Unbounded}
}

// ValueName writes value k of v as the language does: true/false, an
// enumeration constant, or the integer.
func (v *Shared) ValueName(k int) string {
	switch {
	case v.Bool && k == 0:
		return "false"
	case v.Bool && k == 1:
		return "true"
	case v.Values != nil && k >= 0 && k < len(v.Values):
		return v.Values[k]
	}
	return strconv.Itoa(k)
}

// TypeText writes the type of v as the language does: "bool", "0..3",
// "0..", or "[free, held]".
func (v *Shared) TypeText() string {
	switch {
	case v.Bool:
		return "bool"
	case v.Values != nil:
		return "[" + strings.Join(v.Values, ", ") + "]"
	case v.Unbounded:
		return strconv.Itoa(v.Lo) + ".."
	}
	return strconv.Itoa(v.Lo) + ".." + strconv.Itoa(v.Hi)
}

// SharedVar returns the variable of shared variable j. It follows NVar.
func (s *Spec) SharedVar(j int) presburger.Var { return s.NVar() + 1 + presburger.Var(j) }

// SharedOf returns the index of the shared variable v, and false when v
// is no shared variable's.
func (s *Spec) SharedOf(v presburger.Var) (int, bool) {
	j := int(v - s.SharedVar(0))
	return j, j >= 0 && j < len(s.Shared)
}

// InitShared returns the initial value of every shared variable.
func (s *Spec) InitShared() []int {
	out := make([]int, len(s.Shared))
	for j := range s.Shared {
		out[j] = s.Shared[j].Init
	}
	return out
}

// domainRange matches the type of a bounded or unbounded integer shared
// variable: "0..3", "-2..2", "0..".
var domainRange = lazyRegexp(`^(-?[0-9]+)\.\.(-?[0-9]*)$`)

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
		case d.sharedInitSet(sd, v):
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
		m := domainRange().FindStringSubmatch(n.Value)
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
		if sd.TypeOK && sd.InitOK && !c.initSet(&v, sd, &ss) {
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
		if initOK && v.InitTerm.IsConst() && !v.Contains(v.Init) {
			at(init, "initial value %d of %s is outside its domain %s", v.Init, v.Name, v.TypeText())
		}
	}
	for k, p := range s.Params {
		if p.Fixed && (p.Value < 0 || p.Value > MaxConstant) {
			at(s.Params[k].Pos, "parameter %s has the value %d; a parameter lies in 0..%d", p.Name, p.Value, MaxConstant)
		}
	}
}
