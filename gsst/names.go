package gsst

import (
	"slices"
	"strings"
)

// One name space for parameters, shared variables and enumeration
// constants (docs/gsst-format.md, "Names"): the checker's table of names
// and the rules of New on them.

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
