package dot

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
)

// supports are the constructs beyond the paper that the pictures draw:
// the shared variables (a box in the skeleton, a row of values in each
// configuration of a trace), parameters (stated in the title), updates
// (under the guard of each block), broadcasts (dashed edges from each
// transfer's source to its target) and rendezvous (a node joining the
// parts). Graphviz renders every one in the tests.
const supports = gsst.ExtShared | gsst.ExtParams | gsst.ExtBroadcast | gsst.ExtRendezvous

// Colours of what lies beyond the paper.
const (
	colourBroadcast  = "#8e44ad"
	colourRendezvous = "#1f618d"
)

// updateText writes an update as the spec did, or from its assignments
// for a spec built by hand; "" for none.
func updateText(sys *gsst.System, u *gsst.Update) string {
	if u.Text != "" || len(u.Assign) == 0 {
		return u.Text
	}
	return sys.FormatUpdate(u)
}

// paramsLine states the parameters: their values at an instance, or
// their names and the assumption for a family.
func paramsLine(sys *gsst.System) string {
	if len(sys.Params) == 0 {
		return ""
	}
	if !sys.Parametric() {
		return "parameters of this instance: " + emit.ParamsText(sys)
	}
	var names []string
	for _, p := range sys.Params {
		names = append(names, p.Name)
	}
	line := "parameters " + strings.Join(names, ", ")
	if sys.Assume.Text != "" {
		line += ", assuming " + sys.Assume.Text
	}
	return line
}

// sharedBox draws the shared variables as one box: name, type and
// initial value of each.
func (d *skeleton) sharedBox(b *strings.Builder) {
	sys := d.sys
	if len(sys.Shared) == 0 {
		return
	}
	var rows strings.Builder
	fmt.Fprintf(&rows, `<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="2"><TR><TD COLSPAN="3" ALIGN="LEFT"><B>shared variables</B></TD></TR>`)
	var tip []string
	for j := range sys.Shared {
		v := &sys.Shared[j]
		fmt.Fprintf(&rows, `<TR><TD ALIGN="LEFT">%s</TD><TD ALIGN="LEFT">%s</TD><TD ALIGN="LEFT">= %s</TD></TR>`,
			esc(v.Name), font(colourMuted, 0, esc(v.TypeText())), esc(v.ValueName(v.Init)))
		tip = append(tip, fmt.Sprintf("%s: %s, initially %s", v.Name, v.TypeText(), v.ValueName(v.Init)))
	}
	rows.WriteString("</TABLE>")
	fmt.Fprintf(b, "  shared %s;\n", attrs(
		"shape", "box",
		"style", `"rounded,filled"`,
		"fillcolor", quote("white"),
		"color", quote(colourMuted),
		"label", "<"+rows.String()+">",
		"tooltip", quote(tooltip(strings.Join(tip, "\n"))),
	))
}

// broadcasts draws the transfers of transition i: a dashed edge from
// each source to its target, labelled with the transition that carries
// the processes along.
func (d *skeleton) broadcasts(b *strings.Builder, i int) {
	sys := d.sys
	t := &sys.Transitions[i]
	for _, tf := range t.Broadcast {
		label := "at " + sys.TransitionName(t) + ": all others" + emit.GroupsText(sys, tf.Groups)
		fmt.Fprintf(b, "  s%d -> s%d %s;\n", tf.From, tf.To, attrs(
			"label", quote(label),
			"style", "dashed",
			"color", quote(colourBroadcast),
			"fontcolor", quote(colourBroadcast),
			"penwidth", "1.5",
			"arrowhead", "empty",
			"tooltip", quote(tooltip("broadcast: when a process takes "+sys.TransitionName(t)+", every other process"+emit.GroupsText(sys, tf.Groups)+" in "+sys.States[tf.From]+" moves to "+sys.States[tf.To]+" at the same step")),
		))
	}
}

// rendezvous draws rendezvous r as a node with an edge in from each
// part's source and an edge out to its target, labelled with the part's
// number (and groups); the node holds the guard and the update.
func (d *skeleton) rendezvous(b *strings.Builder, r int) {
	sys := d.sys
	rz := &sys.Rendezvous[r]
	lines := []string{"<B>" + esc(fmt.Sprintf("rendezvous %d", r+1)) + "</B>"}
	tip := []string{fmt.Sprintf("rendezvous %d: %d distinct processes move together: %s", r+1, len(rz.Parts), emit.PartsText(sys, r))}
	if rz.Text != "" {
		guard, cut := wrapGuard(rz.Text, d.abbreviate())
		d.abbreviated = d.abbreviated || cut
		for _, l := range guard {
			lines = append(lines, esc(l))
		}
		tip = append(tip, "guard: "+rz.Text)
	}
	if u := updateText(sys, &rz.Update); u != "" {
		lines = append(lines, font(colourRendezvous, 0, esc("update: "+u)))
		tip = append(tip, "update: "+u)
	}
	fmt.Fprintf(b, "  rv%d %s;\n", r, attrs(
		"shape", "box",
		"style", `"rounded,bold"`,
		"color", quote(colourRendezvous),
		"label", "<"+rows(lines)+">",
		"tooltip", quote(tooltip(strings.Join(tip, "\n"))),
	))
	for j, pt := range rz.Parts {
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
}

// updateLines returns the label line (escaped HTML) and tooltip line of
// a block's update; none when it has no update.
func updateLines(sys *gsst.System, u *gsst.Update, prefix string) (label, tip []string) {
	text := updateText(sys, u)
	if text == "" {
		return nil, nil
	}
	return []string{prefix + font(colourMuted, 0, esc("update: "+text))}, []string{"update: " + text}
}
