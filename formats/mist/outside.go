package mist

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/gsst"
)

// This file adds, where the translation needs it, a local state that is
// no place: outside, where processes wait that take no step and hold no
// token. Two initial conditions of a net need it, which the groups of a
// GSST cannot state otherwise (a GSST has at least one process, and a
// group at least one):
//
//   - a net with no process (every place a shared counter, or no token
//     starts in a process place): one observer, a group of one process
//     that starts in outside;
//   - a process place p that may start with no token (p >= 0, p in
//     [0, h], p not in init): the group p spread over p and outside
//     (gsst/initial.go), of size 1.. (h): any number of its processes
//     start in p, zero included, the rest in outside, and the instances
//     together start p at every number the init allows.
//
// Why the translation stays exact: no step leaves or enters outside (a
// transition, a rendezvous part and a transfer each join two process
// places), so its processes never move and the others are the tokens
// of the process places. Projecting a configuration to the places (a
// process place its number of processes, a counter place its shared
// variable) maps the initial configurations onto the initial markings
// and every step onto a firing of its rule, both ways. So the markings
// the GSST reaches, over every instance, are the net's reachable
// markings; a configuration is a deadlock exactly when no rule can
// change its marking (a process outside enables nothing; a rule that
// changes no marking is left out, idleStep); and every property over the
// places, the target's among them, has the net's verdict, for every
// kind of guard the net has (zero tests included). Only what reads the
// processes outside (n, #outside) sees them, and the YAML says so.

// outsideName is the name of the state outside: "outside", or with
// underscores after it when a place (or a place's shared variable) has
// that name.
func (t *translator) outsideName() string {
	name := "outside"
	for slices.ContainsFunc(t.net.Places, func(p string) bool { return p == name || formats.SafeName(p) == name }) {
		name += "_"
	}
	return name
}

// addOutside adds the state outside, after every place's, and returns
// it.
func (t *translator) addOutside() int {
	s := t.spec
	name := t.outsideName()
	s.States = append(s.States, name)
	t.imp.Notes.States = append(t.imp.Notes.States, "no place: processes that take no step and hold no token (see the top of the file)")
	t.imp.Notes.Header = append(t.imp.Notes.Header,
		fmt.Sprintf("State %s is no place: no step leaves or enters it, so its processes", name),
		"never move, and every other process is a token. The markings the system",
		"reaches and the verdict of every property over the places are the net's,",
		fmt.Sprintf("and so are its deadlocks; n and #%s count the processes %s too.", name, name))
	return len(s.States) - 1
}

// observer makes the group of one process that starts in outside, for
// a net with no process of its own (why says why): its every step is
// then an environment step.
func (t *translator) observer(outside int, why string) {
	pos := t.net.File.InitPos
	g := gsst.Group{Name: t.spec.States[outside], Size: 1, Pos: pos, SizePos: pos}
	t.addGroup(g, outside, "an observer, which never moves: "+why)
}

// mayBeEmpty makes the group of process place p, whose init allows no
// token (iv.Lo is 0): spread over p and outside, of size iv.Hi, or 1..
// when the init gives no greatest number.
func (t *translator) mayBeEmpty(p, outside int, spread map[int][]int) {
	s := t.spec
	iv := t.net.Init[p]
	name := t.net.Places[p]
	g := gsst.Group{Name: name, Size: 1, Pos: t.initPos(p), SizePos: t.initPos(p)}
	note := fmt.Sprintf("the tokens that start in place %s (%s): any number of them start there, none included, the rest in %s", name, t.initText(p), s.States[outside])
	if iv.NoHi {
		g.Ranged, g.Max = true, gsst.Unbounded
	} else {
		g.Size = int(iv.Hi)
	}
	spread[t.addGroup(g, t.state[p], note)] = []int{t.state[p], outside}
}
