package dot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
)

// Skeleton returns the DOT graph of the skeleton of sys: local states as
// nodes, local transitions as edges labelled with their guard blocks, and
// arrows from a start point to the states holding processes initially.
// With Verdicts, edges are coloured by verdict and violated ones carry
// their witness. It fails only when the report is not about sys.
func Skeleton(sys *gsst.System, opts ...Option) (string, error) {
	c := newConfig(opts)
	if rep := c.report; rep != nil && (len(rep.Transitions) != len(sys.Transitions) || (rep.System != nil && rep.System.Name != sys.Name)) {
		return "", fmt.Errorf("dot: the certification report is about another system")
	}
	d := &skeleton{sys: sys, c: c}
	var body strings.Builder
	d.states(&body)
	d.init(&body)
	d.sharedBox(&body)
	steps := sys.Steps()
	for i := range sys.Transitions {
		d.transition(&body, i)
		d.broadcasts(&body, i)
	}
	for s := range steps {
		switch o := &steps[s].Origin; {
		case o.Rendezvous >= 0:
			d.rendezvous(&body, &steps[s])
		case o.Environment >= 0:
			d.environment(&body, &steps[s])
		}
	}
	var b strings.Builder
	// Left to right suits short cycles and stars (readers/writers, ASR);
	// a long chain of states (GR&W) would make a picture many times
	// wider than high, so it runs top to bottom.
	dir := "LR"
	if depth(sys) > 6 {
		dir = "TB"
	}
	header(&b, sys.Name, d.title(), "rankdir="+dir+", nodesep=0.5, ranksep=1.1")
	b.WriteString(body.String())
	b.WriteString("}\n")
	return b.String(), nil
}

type skeleton struct {
	sys         *gsst.System
	c           *config
	abbreviated bool
}

func (d *skeleton) abbreviate() bool { return !d.c.full }

// names returns the group names of group indices.
func (d *skeleton) names(groups []int) []string {
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = d.sys.Groups[g].Name
	}
	return out
}

// nameList lists names, noting whether it abbreviated.
func (d *skeleton) nameList(names []string) string {
	s, cut := nameList(names, d.abbreviate())
	d.abbreviated = d.abbreviated || cut
	return s
}

func (d *skeleton) title() []string {
	sys := d.sys
	var groups []string
	for _, g := range sys.Groups {
		groups = append(groups, fmt.Sprintf("%s ×%s", g.Name, g.SizeText()))
	}
	name := sys.Name
	if d.c.source != "" {
		name += " (" + d.c.source + ")"
	}
	// A spec with ranges of sizes is drawn as the family it stands for.
	processes := plural(sys.N(), "process", "processes")
	if sys.Parametric() {
		processes = "Every size"
	}
	lines := []string{
		font("", 16, "<B>"+esc(name)+"</B>"),
		esc(fmt.Sprintf("%s in %s: %s", processes,
			plural(len(sys.Groups), "group", "groups"), d.nameList(groups))),
		font(colourMuted, 0, esc("edges: local transitions, labelled with the guard of each group (no label: no guard); dotted arrows: initial configuration")),
	}
	if line := paramsLine(sys); line != "" {
		lines = append(lines, esc(line))
	}
	if severalMove(sys) {
		lines = append(lines, font(colourMuted, 0, esc("dashed hollow arrows: broadcasts (every other process in the source moves at the step of the transition named); boxes with numbered edges: rendezvous (one distinct process per part)")))
	}
	if len(sys.Environment) > 0 {
		lines = append(lines, font(colourMuted, 0, esc("dashed boxes: environment steps (no process moves by its own choice; their broadcasts are dashed hollow arrows)")))
	}
	if rep := d.c.report; rep != nil {
		lines = append(lines, d.verdictLine(rep), d.legend(rep))
	}
	if d.abbreviated {
		lines = append(lines, font(colourUnknown, 0, esc("Labels abbreviated: long guards are cut at conjunctions and long lists elided;")),
			font(colourUnknown, 0, esc("each edge's tooltip (SVG) holds its whole guard, and vsym dot --full draws everything.")))
	}
	return lines
}

// verdictLine states the verdict of the whole system, in its colour.
func (d *skeleton) verdictLine(rep *detect.Report) string {
	counts := map[detect.Verdict]int{}
	for _, t := range rep.Results() {
		counts[t.Verdict]++
	}
	items := fmt.Sprintf("%d %s", len(rep.Results()), rep.Noun(2))
	var text string
	v := rep.Verdict()
	switch v {
	case detect.Symmetric:
		text = "Fully symmetric: every transition treats all processes alike"
	case detect.Certified:
		text = fmt.Sprintf("Certified fully virtually symmetric%s: %s certified by Z3, %d symmetric", d.everySize(),
			plural(counts[detect.Certified], rep.Noun(1), rep.Noun(2)), counts[detect.Symmetric])
	case detect.Violated:
		text = fmt.Sprintf("NOT fully virtually symmetric%s: %d of %s violated", d.everySize(),
			counts[detect.Violated], items)
	default:
		text = fmt.Sprintf("Unknown: %d of %s undecided by the solver",
			counts[detect.Unknown], items)
	}
	colour, _, _ := verdictStyle(v)
	return font(colour, 14, "<B>"+esc(text)+"</B>")
}

// everySize qualifies the verdict of a spec with ranges of sizes, which
// is about every instance.
func (d *skeleton) everySize() string {
	if d.sys.Parametric() {
		return " for every size"
	}
	return ""
}

// legend explains the edge styles of the verdicts present.
func (d *skeleton) legend(rep *detect.Report) string {
	present := map[detect.Verdict]bool{}
	for _, t := range rep.Results() {
		present[t.Verdict] = true
	}
	var parts []string
	for _, v := range []detect.Verdict{detect.Violated, detect.Unknown, detect.Certified, detect.Symmetric} {
		if !present[v] {
			continue
		}
		colour, style, _ := verdictStyle(v)
		// One run of text per line: Graphviz places each run at a fixed
		// place, measured with its own fonts, so a line mixing bold and
		// plain runs shows gaps in a browser with other fonts.
		parts = append(parts, font(colour, 0, esc(fmt.Sprintf("%s (%s): %s", v, style, strings.SplitN(verdictWords(v), ": ", 2)[1]))))
	}
	return strings.Join(parts, `<BR ALIGN="LEFT"/>`)
}

func (d *skeleton) states(b *strings.Builder) {
	for s, name := range d.sys.States {
		fmt.Fprintf(b, "  s%d %s;\n", s, attrs(
			"label", quote(name),
			"shape", "circle",
			"style", "filled",
			"fillcolor", quote(colourFill),
			"penwidth", "1.5",
			"tooltip", quote(tooltip("local state "+name+d.initText(s, false))),
		))
	}
}

// occupants returns, for state s, the groups with processes initially in
// s and how many.
//
// A group spread over several initial states (gsst/initial.go) has any
// number of processes in each, count -1.
func (d *skeleton) occupants(s int) (groups []string, counts []int, all bool) {
	all = true
	for g, row := range d.sys.Init {
		if d.sys.InitOver != nil && d.sys.InitOver[g] != nil {
			if slices.Contains(d.sys.InitOver[g], s) {
				groups = append(groups, d.sys.Groups[g].Name)
				counts = append(counts, -1)
			}
			all = false
			continue
		}
		if row[s] > 0 {
			groups = append(groups, d.sys.Groups[g].Name)
			counts = append(counts, row[s])
		}
		if row[s] != d.sys.Groups[g].Size {
			all = false
		}
	}
	return groups, counts, all
}

// initText describes the initial occupants of state s: "all 3
// processes", or "reader 1, writer 1".
func (d *skeleton) initText(s int, abbreviate bool) string {
	groups, counts, all := d.occupants(s)
	switch {
	case len(groups) == 0:
		return ""
	case all && d.sys.Parametric():
		return " (initially all processes)"
	case all:
		return fmt.Sprintf(" (initially all %s)", plural(d.sys.N(), "process", "processes"))
	}
	items := make([]string, len(groups))
	for i := range groups {
		items[i] = fmt.Sprintf("%s %d", groups[i], counts[i])
		if counts[i] < 0 {
			items[i] = groups[i] + " any number"
		} else if g := d.group(groups[i]); g.Ranged {
			items[i] = groups[i] + " all" // a ranged group starts in one state
		}
	}
	var list string
	if abbreviate {
		list = d.nameList(items)
	} else {
		list = strings.Join(items, ", ")
	}
	return " (initially " + list + ")"
}

// group returns the group named name.
func (d *skeleton) group(name string) *gsst.Group {
	for g := range d.sys.Groups {
		if d.sys.Groups[g].Name == name {
			return &d.sys.Groups[g]
		}
	}
	return &gsst.Group{}
}

// init draws the initial configuration: a start point with a dotted
// arrow to each state that holds processes, labelled with how many.
func (d *skeleton) init(b *strings.Builder) {
	fmt.Fprintf(b, "  start %s;\n", attrs("shape", "point", "width", "0.12", "color", quote(colourText), "tooltip", quote("initial configuration")))
	for s := range d.sys.States {
		text := d.initText(s, d.abbreviate())
		if text == "" {
			continue
		}
		label := strings.TrimSuffix(strings.TrimPrefix(text, " (initially "), ")")
		fmt.Fprintf(b, "  start -> s%d %s;\n", s, attrs(
			"label", quote(label),
			"style", "dotted",
			"penwidth", "1.5",
			"fontcolor", quote(colourMuted),
			"tooltip", quote(tooltip("initially "+strings.TrimSuffix(strings.TrimPrefix(d.initText(s, false), " (initially "), ")"))),
		))
	}
}

// transition draws local transition i as an edge.
func (d *skeleton) transition(b *strings.Builder, i int) {
	sys := d.sys
	t := &sys.Transitions[i]
	name := sys.TransitionName(t)
	var label []string // escaped HTML lines
	if t.Name != "" {
		label = append(label, "<B>"+esc(t.Name)+"</B>") // several transitions may join these states
	}
	tip := []string{name}
	colour, style, width := colourMuted, "solid", 1.5
	var res *detect.TransitionResult
	if d.c.report != nil {
		res = &d.c.report.Transitions[i]
		colour, style, width = verdictStyle(res.Verdict)
		label, tip = verdictMarks(res, label, tip)
	}
	guards, guardTip := d.guardLabel(t)
	label = append(label, guards...)
	tip = append(tip, guardTip...)
	if res != nil && res.Verdict == detect.Violated && res.Witness != nil {
		label = append(label, d.witnessTable(name, res.Witness))
		tip = append(tip, d.witnessText(name, res.Witness))
	}
	html := ""
	if len(label) > 0 {
		html = "<" + rows(label) + ">"
	}
	fmt.Fprintf(b, "  s%d -> s%d %s;\n", t.From, t.To, attrs(
		"label", html,
		"color", quote(colour),
		"style", style,
		"penwidth", fmt.Sprint(width),
		"arrowsize", "0.9",
		"tooltip", quote(tooltip(strings.Join(tip, "\n"))),
		"labeltooltip", quote(tooltip(strings.Join(tip, "\n"))),
	))
}

// verdictMarks appends to an item's label lines (escaped HTML) and
// tooltip lines what its certification result res says: the verdict, in
// its colour, in the label unless symmetric (symmetric items are told
// apart by their thin grey line, see the legend; a word on each would
// crowd the picture), its meaning and any solver reason in the tooltip.
func verdictMarks(res *detect.TransitionResult, label, tip []string) ([]string, []string) {
	colour, _, _ := verdictStyle(res.Verdict)
	if res.Verdict != detect.Symmetric {
		label = append(label, font(colour, 0, "<B>"+esc(res.Verdict.String())+"</B>"))
	}
	tip = append(tip, verdictWords(res.Verdict))
	if res.Verdict == detect.Unknown && res.Reason != "" {
		tip = append(tip, "solver: "+res.Reason)
	}
	return label, tip
}

// guardLabel returns the label lines (escaped HTML) and the tooltip lines
// (plain, whole) of t's guards. An unguarded transition has none.
func (d *skeleton) guardLabel(t *gsst.Transition) (label, tip []string) {
	sys := d.sys
	// One block of every group: the guard alone, or nothing.
	if len(t.Blocks) == 1 && len(t.Blocks[0].Groups) == len(sys.Groups) {
		text := t.Blocks[0].Text
		ul, ut := updateLines(sys, &t.Blocks[0].Update, "")
		if text == "" || text == "true" {
			return ul, append([]string{"no guard: any process in " + sys.States[t.From] + " may move"}, ut...)
		}
		lines, cut := wrapGuard(text, d.abbreviate())
		d.abbreviated = d.abbreviated || cut
		for _, l := range lines {
			label = append(label, esc(l))
		}
		return append(label, ul...), append([]string{"guard (all groups): " + text}, ut...)
	}
	shown := len(t.Blocks)
	if d.abbreviate() && shown > maxBlocks {
		shown = maxBlocks - 1
		d.abbreviated = true
	}
	covered := make([]bool, len(sys.Groups))
	for k, blk := range t.Blocks {
		for _, g := range blk.Groups {
			covered[g] = true
		}
		key := strings.Join(d.names(blk.Groups), ", ")
		text := blk.Text
		if text == "" {
			text = "true"
		}
		tip = append(tip, key+": "+text)
		ul, ut := updateLines(sys, &blk.Update, "&#160;&#160;&#160;&#160;")
		tip = append(tip, ut...)
		if k >= shown {
			continue
		}
		lines, cut := wrapGuard(text, d.abbreviate())
		d.abbreviated = d.abbreviated || cut
		for j, l := range lines {
			if j == 0 {
				label = append(label, esc(d.nameList(d.names(blk.Groups))+": "+l))
				continue
			}
			label = append(label, "&#160;&#160;&#160;&#160;"+esc(l))
		}
		label = append(label, ul...)
	}
	if rest := len(t.Blocks) - shown; rest > 0 {
		var groups []int
		for _, blk := range t.Blocks[shown:] {
			groups = append(groups, blk.Groups...)
		}
		label = append(label, font(colourMuted, 0, esc(fmt.Sprintf("… %d more guard blocks, for %s", rest, d.nameList(d.names(groups))))))
	}
	var never []int
	for g, ok := range covered {
		if !ok {
			never = append(never, g)
		}
	}
	if len(never) > 0 {
		label = append(label, font(colourMuted, 0, "<I>"+esc(d.nameList(d.names(never))+": cannot take it")+"</I>"))
		tip = append(tip, strings.Join(d.names(never), ", ")+": cannot take it (in no guard block)")
	}
	return label, tip
}

// witnessRows picks the groups a witness table shows: all of them, or
// when abbreviating a long list, those that differ between the two
// configurations and the witness's group; the others are summed up.
func (d *skeleton) witnessRows(w *detect.Witness) (rows []int, hidden int) {
	for g := range d.sys.Groups {
		differ := g == w.Group
		for s := range d.sys.States {
			differ = differ || w.Enabled[g][s] != w.Disabled[g][s]
		}
		if !d.abbreviate() || len(d.sys.Groups) <= maxRows || (differ && len(rows) < maxRows) {
			rows = append(rows, g)
		} else {
			hidden++
		}
	}
	return rows, hidden
}

// witnessTable draws a witness as two tables of group counters with
// equal totals: in the first a process of the witness's group can take
// the transition, in the second none can.
func (d *skeleton) witnessTable(name string, w *detect.Witness) string {
	sys := d.sys
	rows, hidden := d.witnessRows(w)
	if hidden > 0 {
		d.abbreviated = true
	}
	table := func(title string, conf [][]int) string {
		var b strings.Builder
		fmt.Fprintf(&b, `<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="3" COLOR="%s">`, colourViolated)
		fmt.Fprintf(&b, `<TR><TD COLSPAN="%d" BORDER="0" ALIGN="LEFT">%s</TD></TR>`, len(sys.States)+1, title)
		b.WriteString(`<TR><TD BORDER="0"></TD>`)
		for _, s := range sys.States {
			fmt.Fprintf(&b, "<TD><B>%s</B></TD>", esc(s))
		}
		b.WriteString("</TR>")
		totals := make([]int, len(sys.States))
		for g := range sys.Groups {
			for s := range sys.States {
				totals[s] += conf[g][s]
			}
		}
		for _, g := range rows {
			fmt.Fprintf(&b, `<TR><TD ALIGN="LEFT">%s</TD>`, esc(sys.Groups[g].Name))
			for s := range sys.States {
				fmt.Fprintf(&b, "<TD>%d</TD>", conf[g][s])
			}
			b.WriteString("</TR>")
		}
		if hidden > 0 {
			fmt.Fprintf(&b, `<TR><TD COLSPAN="%d" ALIGN="LEFT"><I>%d other groups: the same in both</I></TD></TR>`, len(sys.States)+1, hidden)
		}
		fmt.Fprintf(&b, `<TR><TD ALIGN="LEFT"><B>total</B></TD>`)
		for _, k := range totals {
			fmt.Fprintf(&b, "<TD><B>%d</B></TD>", k)
		}
		b.WriteString("</TR></TABLE>")
		return b.String()
	}
	first, second := d.witnessTitles(name, w)
	return fmt.Sprintf(`<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="2"><TR><TD COLSPAN="2" ALIGN="LEFT">%s</TD></TR><TR><TD VALIGN="TOP">%s</TD><TD VALIGN="TOP">%s</TD></TR></TABLE>`,
		font(colourViolated, 0, "<B>witness: equal total counters, yet</B>"),
		table(esc(first), w.Enabled),
		table(esc(second), w.Disabled))
}

// witnessTitles says what tells a witness's two configurations apart.
// For the paper's Theorem 6 it is enabledness: a process of the
// witness's group can take the step named name in the first and none
// can in the second. For a step whose effect matters (an update, a
// transfer, a rendezvous, an environment step, which no process takes)
// it is the orbit the step reaches from the first and no step reaches
// from the second.
func (d *skeleton) witnessTitles(name string, w *detect.Witness) (first, second string) {
	if w.Step != nil {
		return name + " leads from here to an orbit", "no step from here reaches that orbit"
	}
	return "a " + d.sys.Groups[w.Group].Name + " process can take " + name, "no process can take " + name
}

// witnessText says the same in words, for the tooltip.
func (d *skeleton) witnessText(name string, w *detect.Witness) string {
	conf := func(c [][]int) string {
		var groups []string
		for g, row := range c {
			var parts []string
			for s, k := range row {
				if k > 0 {
					parts = append(parts, fmt.Sprintf("%s=%d", d.sys.States[s], k))
				}
			}
			groups = append(groups, d.sys.Groups[g].Name+": "+strings.Join(parts, " "))
		}
		return strings.Join(groups, "; ")
	}
	if w.Step != nil {
		return fmt.Sprintf("witness: %s leads from\n  %s\nto an orbit that no step reaches from\n  %s\nalthough both have the same total counters",
			name, conf(w.Enabled), conf(w.Disabled))
	}
	return fmt.Sprintf("witness: a process of group %s can take %s in\n  %s\nbut no process can in\n  %s\nalthough both have the same total counters",
		d.sys.Groups[w.Group].Name, name, conf(w.Enabled), conf(w.Disabled))
}

// depth returns the number of states on the longest shortest path from
// an initially occupied state: the number of ranks dot will use, about.
func depth(sys *gsst.System) int {
	level := make([]int, len(sys.States))
	var queue []int
	for s := range sys.States {
		level[s] = -1
		for g, row := range sys.Init {
			if (row[s] > 0 || sys.InitOver != nil && slices.Contains(sys.InitOver[g], s)) && level[s] < 0 {
				level[s] = 0
				queue = append(queue, s)
			}
		}
	}
	deepest := 0
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, t := range sys.Transitions {
			if t.From == s && level[t.To] < 0 {
				level[t.To] = level[s] + 1
				deepest = max(deepest, level[t.To])
				queue = append(queue, t.To)
			}
		}
	}
	return deepest + 1
}
