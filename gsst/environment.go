package gsst

import (
	"strconv"

	"github.com/vsym/vsym/presburger"
	"gopkg.in/yaml.v3"
)

// Environment steps (the environment key): steps that no process takes
// by its own choice. An environment step has a guard, and updates shared
// variables, broadcasts (moves every process of its transfers' sources),
// or both: a token created in a Petri net's place that no process
// models, a message delivered by the network, a clock tick. Decoding,
// checking and the rules of New; what the step does is step.go's.

// Environment is a step that moves no process by its own choice: when
// Guard holds and Update keeps every shared variable in its domain, every
// process in a transfer's From (of its groups) moves to its To and the
// shared variables take their new values, all read before the step.
type Environment struct {
	Name      string // "" when unnamed
	NamePos   Pos    // of the name, when read from a file
	Guard     presburger.Formula
	Text      string // the guard as written; "" when unguarded
	Update    Update
	Broadcast []Transfer
	Pos       Pos
}

// EnvironmentName names an environment step in messages: its name, or
// "environment step k" (1-based) when it has none.
func (s *Spec) EnvironmentName(i int) string {
	if e := &s.Environment[i]; e.Name != "" {
		return e.Name
	}
	return "environment step " + strconv.Itoa(i+1)
}

// EnvironmentStepName names environment step e, one of s.Environment,
// as EnvironmentName does.
func (s *Spec) EnvironmentStepName(e *Environment) string {
	for i := range s.Environment {
		if &s.Environment[i] == e {
			return s.EnvironmentName(i)
		}
	}
	return e.Name
}

// decodeEnvironment decodes one element of the environment list.
func (d *decoder) decodeEnvironment(n *yaml.Node) *EnvDecl {
	if !d.want(n, yaml.MappingNode, "an environment step {guard: ..., update: ..., broadcast: [...]}") {
		return nil
	}
	ed := &EnvDecl{Pos: d.pos(n)}
	m := d.fields(n, "environment step", "name", "guard", "update", "broadcast")
	ed.Name = d.stepName(m)
	if p, ok := m["guard"]; ok {
		if p.val.Kind == yaml.MappingNode {
			d.errorf(d.pos(p.val), "an environment step has one guard, a string; found a mapping")
		} else {
			ed.Guard = d.sharedGuard(p)
		}
	}
	if p, ok := m["update"]; ok {
		if us := d.decodeUpdates(p, false); len(us) > 0 {
			ed.Update = us[0]
		}
	}
	ed.Broadcast = d.transfers(m)
	if ed.Update == nil && ed.Broadcast == nil {
		if _, ok := m["update"]; !ok {
			if _, ok := m["broadcast"]; !ok {
				d.errorf(ed.Pos, "an environment step changes nothing without update or broadcast")
			}
		}
	}
	return ed
}

// environment resolves the environment steps.
func (c *checker) environment(f *File) {
	for i, ed := range f.Environment {
		e := Environment{Pos: ed.Pos, Guard: presburger.True}
		if ed.Name != nil {
			e.Name, e.NamePos = ed.Name.Name, ed.Name.NamePos
		}
		name := "environment step " + strconv.Itoa(i+1)
		if e.Name != "" {
			name = e.Name
		}
		if g := ed.Guard; g != nil {
			e.Text, e.Guard = g.Text, c.guard(g, name)
		}
		if ed.Update != nil {
			e.Update = c.update(ed.Update, " in update of "+name)
		}
		e.Broadcast = c.broadcast(ed.Broadcast, name)
		c.sys.Environment = append(c.sys.Environment, e)
	}
}

// checkEnvironment checks the environment steps: a guard over the
// system's variables, an update and transfers. A step that changes
// nothing is allowed: a file's language asks for an update or a
// broadcast key, but an update of only x := x writes nothing (seal drops
// it), and so may an instance's ("k := k + f" with f = 0) or a sliced
// system's, which New checks again: such a step is idle, as a process's
// self-loop that does nothing.
func (s *Spec) checkEnvironment(fromFile bool, at func(Pos, string, ...any)) {
	for i := range s.Environment {
		e := &s.Environment[i]
		pos := e.Pos
		if pos.Line == 0 {
			pos.File = s.File
		}
		name := s.EnvironmentName(i)
		switch {
		case e.Guard != nil:
			s.checkFormula(e.Guard, "guard of "+name, pos, at)
		case !fromFile:
			at(pos, "%s: missing guard", name)
		}
		s.checkUpdate(&e.Update, "update of "+name, pos, at)
		s.checkTransfers(e.Broadcast, name, pos, at)
	}
}
