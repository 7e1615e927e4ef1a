package dot

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
)

// The steps that move more than one process are drawn beside the local
// transitions: a broadcast as dashed edges from each transfer's source
// to its target, a rendezvous as a node joining its parts.

// Colours of the steps that move several processes.
const (
	colourBroadcast  = "#8e44ad"
	colourRendezvous = "#1f618d"
)

// broadcasts draws the transfers of transition i as the spec writes
// them (also when no group may take it): a dashed edge from each source
// to its target, labelled with the transition that carries the
// processes along.
func (d *skeleton) broadcasts(b *strings.Builder, i int) {
	t := &d.sys.Transitions[i]
	d.transfers(b, t.Broadcast, d.sys.TransitionName(t), "when a process takes "+d.sys.TransitionName(t)+", every other process")
}

// transfers draws the transfers of a step named name: a dashed edge from
// each source to its target; who says, for the tooltip, when and which
// processes move.
func (d *skeleton) transfers(b *strings.Builder, transfers []gsst.Transfer, name, who string) {
	sys := d.sys
	for _, tf := range transfers {
		label := "at " + name + ": all others" + emit.GroupsText(sys, tf.Groups)
		fmt.Fprintf(b, "  s%d -> s%d %s;\n", tf.From, tf.To, attrs(
			"label", quote(label),
			"style", "dashed",
			"color", quote(colourBroadcast),
			"fontcolor", quote(colourBroadcast),
			"penwidth", "1.5",
			"arrowhead", "empty",
			"tooltip", quote(tooltip("broadcast: "+who+emit.GroupsText(sys, tf.Groups)+" in "+sys.States[tf.From]+" moves to "+sys.States[tf.To]+" at the same step")),
		))
	}
}

// environment draws environment step st (no part) as a node holding its
// name, guard and update, with its transfers as dashed edges.
func (d *skeleton) environment(b *strings.Builder, st *gsst.Step) {
	sys := d.sys
	k := st.Origin.Environment
	name := sys.EnvironmentName(k)
	var res *detect.TransitionResult
	if rep := d.c.report; rep != nil {
		res = &rep.Environment[k]
	}
	d.stepNode(b, fmt.Sprintf("env%d", k), `"rounded,dashed"`, colourBroadcast, st, "environment: "+name,
		"environment step "+name+": no process moves by its own choice", res)
	d.transfers(b, st.Transfers, name, "when the environment step "+name+" is taken, every process")
}

// stepNode draws step st as a box node id (style and colour given) that
// holds its title, guard and update; about opens its tooltip. With a
// certification result res, the box's border takes the colour and width
// of its verdict, and a violated step shows its witness, as an edge does.
func (d *skeleton) stepNode(b *strings.Builder, id, style, colour string, st *gsst.Step, title, about string, res *detect.TransitionResult) {
	sys := d.sys
	lines := []string{"<B>" + esc(title) + "</B>"}
	tip := []string{about}
	border, width := colour, 1.0
	if res != nil {
		border, _, width = verdictStyle(res.Verdict)
		lines, tip = verdictMarks(res, lines, tip)
	}
	if text := st.Origin.GuardText; text != "" {
		guard, cut := wrapGuard(text, d.abbreviate())
		d.abbreviated = d.abbreviated || cut
		for _, l := range guard {
			lines = append(lines, esc(l))
		}
		tip = append(tip, "guard: "+text)
	}
	if u := updateText(sys, &st.Update); u != "" {
		lines = append(lines, font(colour, 0, esc("update: "+u)))
		tip = append(tip, "update: "+u)
	}
	if res != nil && res.Verdict == detect.Violated && res.Witness != nil {
		lines = append(lines, d.witnessTable(title, res.Witness))
		tip = append(tip, d.witnessText(title, res.Witness))
	}
	fmt.Fprintf(b, "  %s %s;\n", id, attrs(
		"shape", "box",
		"style", style,
		"color", quote(border),
		"penwidth", fmt.Sprint(width),
		"label", "<"+rows(lines)+">",
		"tooltip", quote(tooltip(strings.Join(tip, "\n"))),
	))
}

// rendezvous draws step st, of several parts, as a node with an edge in
// from each part's source and an edge out to its target, labelled with
// the part's number (and groups); the node holds the guard and the
// update.
func (d *skeleton) rendezvous(b *strings.Builder, st *gsst.Step) {
	sys := d.sys
	r := st.Origin.Rendezvous
	var res *detect.TransitionResult
	if rep := d.c.report; rep != nil {
		res = &rep.Rendezvous[r]
	}
	d.stepNode(b, fmt.Sprintf("rv%d", r), `"rounded,bold"`, colourRendezvous, st, fmt.Sprintf("rendezvous %d", r+1),
		fmt.Sprintf("rendezvous %d: %d distinct processes move together: %s", r+1, len(st.Parts), emit.PartsText(sys, st.Parts)), res)
	for j, pt := range st.Parts {
		label := fmt.Sprintf("%d%s", j+1, emit.GroupsText(sys, pt.Groups))
		edge := func(from, to string) {
			fmt.Fprintf(b, "  %s -> %s %s;\n", from, to, attrs(
				"label", quote(label),
				"color", quote(colourRendezvous),
				"fontcolor", quote(colourRendezvous),
				"penwidth", "1.5",
				"tooltip", quote(tooltip(fmt.Sprintf("part %d of rendezvous %d: a process%s in %s moves to %s", j+1, r+1, emit.GroupsText(sys, pt.Groups), sys.States[pt.From], sys.States[pt.To]))),
			))
		}
		edge(fmt.Sprintf("s%d", pt.From), fmt.Sprintf("rv%d", r))
		edge(fmt.Sprintf("rv%d", r), fmt.Sprintf("s%d", pt.To))
	}
	d.transfers(b, st.Transfers, fmt.Sprintf("rendezvous %d", r+1), fmt.Sprintf("when rendezvous %d is taken, every process that is none of its parts", r+1))
}

// severalMove reports whether the skeleton of sys draws a step that
// moves more than one process (a transfer, also of a transition no group
// may take, or a rendezvous): the picture then says how they are drawn.
func severalMove(sys *gsst.System) bool {
	for i := range sys.Transitions {
		if len(sys.Transitions[i].Broadcast) > 0 {
			return true
		}
	}
	return len(sys.Rendezvous) > 0 || len(sys.Environment) > 0
}
