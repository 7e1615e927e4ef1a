package dot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/internal/emit"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Trace returns the DOT graph of tr, a trace of sys found by an explore
// engine, as a column of configurations joined by process moves. The
// moves come from tr.Lifted, replayed from the initial configuration of
// sys. Without a lifted trace (or when lifting stopped early) it draws
// the states of tr themselves, with each move inferred from the counters
// that change. Trace trusts tr as explore gives it (explore.Lift replays
// every step on sys, and the engines' traces are cross-checked in their
// own tests): it does not check the trace again.
func Trace(sys *gsst.System, tr *explore.Trace, opts ...Option) (string, error) {
	if tr == nil || len(tr.States) == 0 {
		return "", fmt.Errorf("dot: empty trace")
	}
	d := &traceDrawing{sys: sys, tr: tr, c: newConfig(opts)}
	if l := tr.Lifted; l != nil && l.Error == "" && (l.Loop >= 0) == (tr.Loop >= 0) {
		d.replay(l)
	} else {
		d.counters()
	}
	var body strings.Builder
	d.draw(&body)
	var b strings.Builder
	header(&b, sys.Name, d.title(), "rankdir=TB, nodesep=0.4, ranksep=0.35")
	b.WriteString("  node [shape=plaintext, margin=0];\n")
	b.WriteString(body.String())
	b.WriteString("}\n")
	return b.String(), nil
}

// move is one step between two drawn configurations.
type move struct {
	stutter bool
	group   int // -1 when unknown (a counter trace of the abstract model)
	process int // -1 when unknown
	from    int
	to      int
	step    int // index into System.Steps(), -1 when unknown
	// The other processes the step moves: the other parts of a
	// rendezvous, and the processes a broadcast carries along.
	also, transferred []explore.Mover
	several           bool // a counter trace step that moves several processes
	idle              bool // a counter trace step that changes nothing: a stutter or a self-loop
}

// mayStay reports whether some step of sys may leave the counters and
// the shared values as they were: a part that stays, and no transfer.
func mayStay(sys *gsst.System) bool {
	for _, st := range sys.Steps() {
		if len(st.Parts) > 0 && len(st.Transfers) == 0 && !slices.ContainsFunc(st.Parts, func(p gsst.Part) bool { return p.From != p.To }) {
			return true
		}
	}
	return false
}

type traceDrawing struct {
	sys *gsst.System
	tr  *explore.Trace
	c   *config
	// confs[i][g][s]: the processes of group g in state s in
	// configuration i, as sorted process numbers; nil rows when only
	// counters are known (counts then holds the group counters, or
	// totals in row 0 for an abstract trace without group counters).
	procs  [][][][]int
	counts [][][]int
	totals [][]int
	shared [][]int // shared[i]: the shared values of configuration i; nil rows without shared variables
	moves  []move  // moves[i] leads from configuration i to i+1, or back to loop
	loop   int     // configuration the last move returns to; -1: a path
	lifted bool    // configurations and moves are of processes
	note   string  // why the trace is drawn on counters, if it is

	abbreviated bool
}

func (d *traceDrawing) abbreviate() bool { return !d.c.full }

// initialProcs places the processes of each group in state order, as
// explore.Lifted documents: the first start[g][0] in state 0, and so on.
func initialProcs(sys *gsst.System, start [][]int) [][]int {
	out := make([][]int, len(sys.Groups))
	for g, row := range start {
		for s, k := range row {
			for range k {
				out[g] = append(out[g], s)
			}
		}
	}
	return out
}

// replay builds the configurations of a lifted trace. A lasso's last
// move returns to the configuration where its loop starts, which is
// drawn once.
func (d *traceDrawing) replay(l *explore.Lifted) {
	start := l.Start
	if start.Counts == nil {
		start = d.sys.InitConfig()
	}
	state := initialProcs(d.sys, start.Counts)
	d.lifted = true
	d.loop = l.Loop
	shared := slices.Clone(start.Shared)
	d.snapshot(state, shared)
	for _, st := range l.Steps {
		if !st.Stutter && st.Environment == nil { // an environment step has no mover
			state[st.Group][st.Process] = st.To
		}
		if !st.Stutter {
			for _, mv := range append(append([]explore.Mover(nil), st.Also...), st.Transferred...) {
				state[mv.Group][mv.Process] = mv.To
			}
			if st.Shared != nil {
				shared = st.Shared
			}
		}
		m := move{stutter: st.Stutter, group: st.Group, process: st.Process, from: st.From, to: st.To, step: -1,
			also: st.Also, transferred: st.Transferred}
		if !st.Stutter {
			m.step = d.stepOf(st.Transition, st.Rendezvous, st.Environment, st.Group)
		}
		d.moves = append(d.moves, m)
		d.snapshot(state, shared)
	}
	if d.loop >= 0 {
		last := len(d.procs) - 1
		d.procs, d.counts, d.totals, d.shared = d.procs[:last], d.counts[:last], d.totals[:last], d.shared[:last]
	}
}

// snapshot records the configuration of process states state[g][p] and
// shared values shared (nil without shared variables).
func (d *traceDrawing) snapshot(state [][]int, shared []int) {
	sys := d.sys
	procs := make([][][]int, len(sys.Groups))
	counts := make([][]int, len(sys.Groups))
	totals := make([]int, len(sys.States))
	for g, ps := range state {
		procs[g] = make([][]int, len(sys.States))
		counts[g] = make([]int, len(sys.States))
		for p, s := range ps {
			procs[g][s] = append(procs[g][s], p)
			counts[g][s]++
			totals[s]++
		}
	}
	d.procs = append(d.procs, procs)
	d.counts = append(d.counts, counts)
	d.totals = append(d.totals, totals)
	d.shared = append(d.shared, sharedRow(d.sys, shared))
}

// sharedRow copies the shared values of a configuration; nil for a
// system without shared variables.
func sharedRow(sys *gsst.System, shared []int) []int {
	if len(sys.Shared) == 0 {
		return nil
	}
	return append([]int(nil), shared...)
}

// counters takes the configurations from the states of the trace itself
// and infers each move from the counters that change.
func (d *traceDrawing) counters() {
	tr := d.tr
	d.loop = tr.Loop
	d.note = "drawn on counters: the trace was not replayed on processes"
	if l := tr.Lifted; l != nil {
		d.note = "drawn on counters: replaying the trace on processes stopped (" + l.Error + ")"
		if l.Error == "" {
			d.note = "drawn on counters: the trace replayed on processes is not a lasso like the trace"
		}
	}
	for _, st := range tr.States {
		d.totals = append(d.totals, st.Counters)
		d.counts = append(d.counts, st.Groups)
		d.procs = append(d.procs, nil)
		d.shared = append(d.shared, sharedRow(d.sys, st.Shared))
	}
	next := func(i int) int {
		if i+1 < len(tr.States) {
			return i + 1
		}
		return tr.Loop
	}
	last := len(tr.States) - 1
	if tr.Loop < 0 {
		last--
	}
	for i := 0; i <= last; i++ {
		d.moves = append(d.moves, d.inferMove(tr.States[i], tr.States[next(i)]))
	}
}

// inferMove finds the move from state a to state b of a counter trace:
// the counter that goes down by one and the one that goes up by one, or
// no change (stutter). A step of an engine's trace is one of the two.
func (d *traceDrawing) inferMove(a, b explore.State) move {
	m := move{group: -1, process: -1, from: -1, to: -1, step: -1}
	changed := 0
	for s := range a.Counters {
		switch b.Counters[s] - a.Counters[s] {
		case 0:
			continue
		case -1:
			m.from = s
		case 1:
			m.to = s
		}
		changed++
	}
	if changed > 2 || changed == 2 && (m.from < 0 || m.to < 0) || changed == 0 && !slices.Equal(a.Shared, b.Shared) {
		// A rendezvous or a broadcast, or a step that only changes
		// shared variables (From and To are the same total counter
		// only across groups: not here).
		return move{several: true, group: -1, process: -1, from: -1, to: -1, step: -1}
	}
	if changed == 0 && mayStay(d.sys) {
		// No counter and no shared value changes: a deadlock's stutter,
		// or a step whose movers stay where they are (a self-loop).
		return move{idle: true, group: -1, process: -1, from: -1, to: -1, step: -1}
	}
	if m.from < 0 || m.to < 0 {
		m.stutter = true
		return m
	}
	for g := range a.Groups {
		if len(b.Groups) > g && b.Groups[g][m.to]-a.Groups[g][m.to] == 1 {
			m.group = g
		}
	}
	if m.group >= 0 {
		steps := d.sys.Steps()
		for i := range steps {
			if len(steps[i].Parts) != 1 {
				continue
			}
			if pt := &steps[i].Parts[0]; pt.From == m.from && pt.To == m.to && pt.Allows(m.group) {
				m.step = i
			}
		}
	}
	return m
}

// stepOf returns the index of the step a lifted move took: that of
// rendezvous r when r is not nil, that of environment step e when e is
// not nil, else that of transition t for a process of group g; -1 when
// there is none.
func (d *traceDrawing) stepOf(t int, r, e *int, g int) int {
	steps := d.sys.Steps()
	for i := range steps {
		o := &steps[i].Origin
		switch {
		case e != nil && o.Environment == *e:
			return i
		case r != nil && o.Rendezvous == *r:
			return i
		case r == nil && e == nil && o.Transition == t && t >= 0 && g >= 0 && steps[i].Parts[0].Allows(g):
			return i
		}
	}
	return -1
}

// visible decides which configurations are drawn: all of them, or for a
// long trace when abbreviating, the first and last few and those around
// the loop's start.
//
// A lifted lasso may go round the trace's loop several times before its
// processes are back where the loop started (each round moves other
// processes); when abbreviating, the rounds after the first are folded
// into one node (foldedRounds).
func (d *traceDrawing) visible() []bool {
	n := len(d.totals)
	if rounds, _ := d.foldedRounds(); rounds > 0 {
		n = len(d.tr.States) // the configurations after it repeat the loop
	}
	vis := make([]bool, len(d.totals))
	keep := func(lo, hi int) {
		for i := max(lo, 0); i < min(hi, n); i++ {
			vis[i] = true
		}
	}
	switch limit := d.c.maxConfigs; {
	case !d.abbreviate() || limit == 0 && n <= maxConfigs || limit > 0 && n <= limit:
		keep(0, n)
	case limit > 0:
		head, tail := (limit+1)/2, limit/2
		if d.loop >= head && d.loop < n-tail {
			tail-- // the loop's start stands in for one of the last
			vis[d.loop] = true
		}
		keep(0, head)
		keep(n-tail, n)
	default:
		keep(0, maxConfigs/2)
		keep(n-maxConfigs/4, n)
		if d.loop >= 0 {
			keep(d.loop-2, d.loop+3)
		}
	}
	for _, v := range vis {
		d.abbreviated = d.abbreviated || !v
	}
	return vis
}

// foldedRounds returns, for a lifted lasso that goes round the trace's
// loop more than once when abbreviating, how many rounds after the first
// are folded and the length of a round; 0 otherwise.
func (d *traceDrawing) foldedRounds() (rounds, length int) {
	n, loop := len(d.tr.States), d.tr.Loop
	if !d.abbreviate() || !d.lifted || d.loop < 0 || loop < 0 || len(d.totals) <= n {
		return 0, 0
	}
	length = n - loop
	return (len(d.totals) - n) / length, length
}

// shownStates returns the state columns of configuration i: all states,
// or when abbreviating a system of many states, the states occupied in
// i and the one the move into i left (at most maxColumns of them), and
// how many occupied states it left out.
func (d *traceDrawing) shownStates(i int, in *move) (cols []int, hidden int) {
	sys := d.sys
	if !d.abbreviate() || len(sys.States) <= maxColumns {
		for s := range sys.States {
			cols = append(cols, s)
		}
		return cols, 0
	}
	d.abbreviated = true
	for s := range sys.States {
		if d.totals[i][s] > 0 || (in != nil && !in.stutter && in.from == s) {
			if len(cols) < maxColumns {
				cols = append(cols, s)
			} else {
				hidden++
			}
		}
	}
	return cols, hidden
}

// shownGroups returns the group rows drawn: all, or when abbreviating
// many groups, the ones that move in the trace (at most maxRows); moved
// reports whether some hidden group moves.
func (d *traceDrawing) shownGroups() (rows []int, hiddenMove bool) {
	sys := d.sys
	if !d.abbreviate() || len(sys.Groups) <= maxRows {
		for g := range sys.Groups {
			rows = append(rows, g)
		}
		return rows, false
	}
	d.abbreviated = true
	moves := make([]bool, len(sys.Groups))
	for i := range d.moves {
		for _, mv := range d.moves[i].movers() {
			moves[mv.Group] = true
		}
	}
	for g := range sys.Groups {
		if moves[g] {
			if len(rows) < maxRows {
				rows = append(rows, g)
			} else {
				hiddenMove = true
			}
		}
	}
	return rows, hiddenMove
}

// draw writes the configurations and the moves between them.
func (d *traceDrawing) draw(b *strings.Builder) {
	vis := d.visible()
	rows, hiddenMove := d.shownGroups()
	n := len(d.totals)
	// arrived[i]: the move that led into configuration i, for highlighting.
	arrived := make([]*move, n)
	for i := range d.moves {
		if i+1 < n {
			arrived[i+1] = &d.moves[i]
		}
	}
	for i := 0; i < n; i++ {
		if vis[i] {
			fmt.Fprintf(b, "  c%d %s;\n", i, attrs("label", "<"+d.confTable(i, rows, hiddenMove, arrived[i])+">", "tooltip", quote(d.confText(i))))
			continue
		}
		if i > 0 && !vis[i-1] {
			continue
		}
		j := i
		for j < n && !vis[j] {
			j++
		}
		label := fmt.Sprintf("… %s not drawn (%d to %d); vsym dot --full draws them", plural(j-i, "configuration", "configurations"), i, j-1)
		if rounds, length := d.foldedRounds(); rounds > 0 && i == len(d.tr.States) {
			label = fmt.Sprintf("… the loop (configurations %d to %d) goes round %s more, moving other processes, before they are back where it started (configurations %d to %d, not drawn); vsym dot --full draws them",
				d.tr.Loop, i-1, plural(rounds, "time", "times"), i, i+rounds*length-1)
		}
		fmt.Fprintf(b, "  c%d %s;\n", i, attrs("shape", "box", "style", `"rounded,dashed"`, "margin", "0.15", "label", quote(label)))
	}
	// node returns the drawn node standing for configuration i.
	node := func(i int) int {
		for i > 0 && !vis[i] && !vis[i-1] {
			i--
		}
		return i
	}
	for i, m := range d.moves {
		to, closing := i+1, i+1 >= n
		if closing {
			to = d.loop
		}
		switch {
		case !closing && !vis[i] && !vis[to]:
			continue // inside an elided stretch
		case !closing && (!vis[i] || !vis[to]):
			fmt.Fprintf(b, "  c%d -> c%d %s;\n", node(i), node(to), attrs("style", "dashed"))
			continue
		}
		colour, extra := colourMove, []string{}
		if closing {
			colour = colourLoop
			extra = []string{"constraint", "false", "penwidth", "2.5", "style", "bold"}
		}
		label, tip := d.moveLabel(m, closing)
		kv := append([]string{"label", "<" + label + ">", "color", quote(colour), "fontcolor", quote(colourText),
			"tooltip", quote(tip), "labeltooltip", quote(tip), "penwidth", "1.5"}, extra...)
		fmt.Fprintf(b, "  c%d -> c%d %s;\n", node(i), node(to), attrs(kv...))
	}
}

// moveLabel returns the label (HTML) and tooltip of a move.
func (d *traceDrawing) moveLabel(m move, closing bool) (string, string) {
	sys := d.sys
	var lines []string
	var tip string
	switch {
	case m.stutter:
		lines = append(lines, "<B>stutter: nobody can move (deadlock)</B>")
		tip = "deadlock: no process can move, so the run stays here"
	case m.idle:
		lines = append(lines, "<B>no counter changes: a step whose process stays, or a stutter (deadlock)</B>")
		tip = "the configuration stays: a self-loop was taken, or nobody can move"
	case m.several:
		lines = append(lines, "<B>a step of several processes (rendezvous or broadcast)</B>")
		tip = "several processes move at once; the configurations show where"
	case m.step >= 0 && len(sys.Steps()[m.step].Parts) == 0:
		label, _ := emit.StepLabel(sys, &sys.Steps()[m.step])
		lines = append(lines, "<B>"+esc(label)+"</B>")
		tip = label + ": no process moves by its own choice"
	case m.step >= 0 && len(sys.Steps()[m.step].Parts) > 1:
		lines = append(lines, "<B>"+esc("rendezvous "+emit.PartsText(sys, sys.Steps()[m.step].Parts))+"</B>")
		who := []string{fmt.Sprintf("%s[%d]: %s → %s", sys.Groups[m.group].Name, m.process, sys.States[m.from], sys.States[m.to])}
		for _, mv := range m.also {
			who = append(who, fmt.Sprintf("%s[%d]: %s → %s", mv.GroupName, mv.Process, mv.FromName, mv.ToName))
		}
		lines = append(lines, esc(strings.Join(who, ", ")))
		tip = "rendezvous: " + strings.Join(who, ", ") + " move together"
	case m.process >= 0:
		who := fmt.Sprintf("%s[%d]", sys.Groups[m.group].Name, m.process)
		lines = append(lines, "<B>"+esc(who+": "+sys.States[m.from]+" → "+sys.States[m.to])+"</B>")
		tip = fmt.Sprintf("process %d of group %s moves from %s to %s", m.process, sys.Groups[m.group].Name, sys.States[m.from], sys.States[m.to])
	default:
		who := "one process"
		if m.group >= 0 {
			who = "a process of " + sys.Groups[m.group].Name
		}
		lines = append(lines, esc(who)+": "+esc(sys.States[m.from]+" → "+sys.States[m.to]))
		tip = who + " moves from " + sys.States[m.from] + " to " + sys.States[m.to]
	}
	if !m.stutter && m.step >= 0 && len(sys.Steps()[m.step].Parts) == 1 {
		if text := sys.Steps()[m.step].Origin.GuardText; text != "" {
			guard, cut := wrapGuard(text, d.abbreviate())
			d.abbreviated = d.abbreviated || cut
			for k, l := range guard {
				prefix := "guard: "
				if k > 0 {
					prefix = "&#160;&#160;&#160;&#160;"
				}
				lines = append(lines, font(colourMuted, 10, prefix+esc(l)))
			}
			tip += ", allowed by its guard " + text
		}
	}
	if len(m.transferred) > 0 {
		var who []string
		for _, mv := range m.transferred {
			who = append(who, fmt.Sprintf("%s[%d]: %s → %s", mv.GroupName, mv.Process, mv.FromName, mv.ToName))
		}
		lines = append(lines, font(colourMuted, 10, esc("broadcast carries along "+strings.Join(who, ", "))))
		tip += "; the broadcast carries along " + strings.Join(who, ", ")
	}
	if u := d.update(m); u != "" {
		lines = append(lines, font(colourMuted, 10, esc("update: "+u)))
		tip += "; update " + u
	}
	if closing {
		lines = append(lines, font(colourLoop, 0, fmt.Sprintf("<B>back to configuration %d: the loop repeats forever</B>", d.loop)))
		tip += "; then the run repeats from configuration " + fmt.Sprint(d.loop) + " forever"
	}
	return strings.Join(lines, `<BR ALIGN="LEFT"/>`) + `<BR ALIGN="LEFT"/>`, tooltip(tip)
}

// confTable draws configuration i as an HTML table.
func (d *traceDrawing) confTable(i int, rows []int, hiddenMove bool, in *move) string {
	sys := d.sys
	states, hiddenStates := d.shownStates(i, in)
	var b strings.Builder
	border := colourMuted
	if i == d.loop {
		border = colourLoop
	}
	fmt.Fprintf(&b, `<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="0" CELLPADDING="3" COLOR="%s" BGCOLOR="white">`, border)
	head := fmt.Sprintf("configuration %d", i)
	switch {
	case i == 0 && i == d.loop:
		head += " · initial · the loop starts here"
	case i == 0:
		head += " · initial"
	case i == d.loop:
		head += " · the loop starts here"
	}
	headColour := colourText
	if i == d.loop {
		headColour = colourLoop
	}
	if text, colour, ok := d.marker(i); ok {
		head += " · " + text
		headColour, border = colour, colour
	}
	fmt.Fprintf(&b, `<TR><TD COLSPAN="%d" ALIGN="LEFT" BGCOLOR="%s">%s</TD></TR>`, len(states)+1, colourFill, font(headColour, 0, "<B>"+esc(head)+"</B>"))
	b.WriteString(`<TR><TD></TD>`)
	for _, s := range states {
		fmt.Fprintf(&b, `<TD><B>%s</B></TD>`, esc(sys.States[s]))
	}
	b.WriteString("</TR>")
	if d.counts[i] != nil {
		for _, g := range rows {
			fmt.Fprintf(&b, `<TR><TD ALIGN="LEFT">%s</TD>`, esc(sys.Groups[g].Name))
			for _, s := range states {
				cell, hot := d.cell(i, g, s, in)
				bg := ""
				if hot {
					bg = fmt.Sprintf(` BGCOLOR="%s"`, colourHighlight)
				}
				fmt.Fprintf(&b, `<TD%s>%s</TD>`, bg, cell)
			}
			b.WriteString("</TR>")
		}
		if hidden := len(sys.Groups) - len(rows); hidden > 0 {
			what := "never move: as initially"
			if hiddenMove {
				what = "not drawn"
			}
			fmt.Fprintf(&b, `<TR><TD COLSPAN="%d" ALIGN="LEFT">%s</TD></TR>`, len(states)+1,
				font(colourMuted, 0, "<I>"+esc(fmt.Sprintf("%d other groups: %s", hidden, what))+"</I>"))
		}
	}
	b.WriteString(`<TR><TD ALIGN="LEFT"><B>total</B></TD>`)
	for _, s := range states {
		fmt.Fprintf(&b, `<TD><B>%d</B></TD>`, d.totals[i][s])
	}
	b.WriteString("</TR>")
	if row := d.shared[i]; row != nil {
		// The shared values, those the move into i changed in bold.
		var parts []string
		for j, x := range row {
			text := esc(sys.Shared[j].Assignment(x))
			if i > 0 && d.shared[i-1] != nil && d.shared[i-1][j] != x {
				text = "<B>" + text + "</B>"
			}
			parts = append(parts, text)
		}
		fmt.Fprintf(&b, `<TR><TD COLSPAN="%d" ALIGN="LEFT" BGCOLOR="%s">%s</TD></TR>`, len(states)+1, colourFill, font(colourText, 0, "shared: "+strings.Join(parts, " ")))
	}
	if left := len(sys.States) - len(states); left > 0 {
		text := fmt.Sprintf("%d other states: empty", left)
		if hiddenStates > 0 {
			text = fmt.Sprintf("%d other states, %d of them occupied: not drawn", left, hiddenStates)
		}
		fmt.Fprintf(&b, `<TR><TD COLSPAN="%d" ALIGN="LEFT">%s</TD></TR>`, len(states)+1, font(colourMuted, 0, "<I>"+esc(text)+"</I>"))
	}
	b.WriteString("</TABLE>")
	return b.String()
}

// movers returns every process m moves, the one that takes the step
// first, then the other parts of a rendezvous and the processes a
// broadcast carries along; only the first when m is not lifted to
// processes (its process is then -1).
func (m *move) movers() []explore.Mover {
	if m == nil || m.stutter || m.several || m.idle {
		return nil
	}
	var out []explore.Mover
	if m.group >= 0 { // not an environment step, which moves only what it transfers
		out = []explore.Mover{{Group: m.group, Process: m.process, From: m.from, To: m.to}}
	}
	out = append(out, m.also...)
	return append(out, m.transferred...)
}

// cell returns the content of the cell of group g and state s in
// configuration i, and whether a process of the move into i arrived
// there: the one that took the step, a part of its rendezvous, or one
// its broadcast carried along. Each of them is bold.
func (d *traceDrawing) cell(i, g, s int, in *move) (string, bool) {
	hot := false
	moved := map[int]bool{}
	for _, mv := range in.movers() {
		if mv.Group == g && mv.To == s {
			hot, moved[mv.Process] = true, true
		}
	}
	k := d.counts[i][g][s]
	if k == 0 {
		return font(colourMuted, 0, "·"), hot
	}
	if d.procs[i] == nil || (d.abbreviate() && d.sys.Groups[g].Size > maxIndices) {
		return fmt.Sprint(k), hot
	}
	var parts []string
	for _, p := range d.procs[i][g][s] {
		text := fmt.Sprint(p)
		if moved[p] {
			text = "<B>" + text + "</B>"
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, " "), hot
}

// confText describes configuration i in words, for its tooltip.
func (d *traceDrawing) confText(i int) string {
	sys := d.sys
	text := fmt.Sprintf("configuration %d: %s", i, sys.FormatTotals(d.totals[i]))
	if row := d.shared[i]; row != nil {
		text += "\nshared: " + sys.FormatShared(row)
	}
	if d.counts[i] != nil {
		for g, row := range d.counts[i] {
			var cells []string
			for s, k := range row {
				if k > 0 {
					cells = append(cells, fmt.Sprintf("%s=%d", sys.States[s], k))
				}
			}
			text += "\n" + sys.Groups[g].Name + ": " + strings.Join(cells, " ")
		}
	}
	return tooltip(text)
}

func (d *traceDrawing) title() []string {
	sys, tr := d.sys, d.tr
	name := sys.Name
	if d.c.source != "" {
		name += " (" + d.c.source + ")"
	}
	lines := []string{font("", 16, "<B>"+esc(name)+"</B>")}
	verdict, colour := "Witness", colourCertified
	if tr.Kind == explore.Counterexample {
		verdict, colour = "Counterexample", colourViolated
	}
	if p := d.c.property; p != nil {
		what := "holds"
		if tr.Kind == explore.Counterexample {
			what = "FAILS"
		}
		text := p.Text
		if d.abbreviate() && len(text) > 2*lineWidth {
			text, d.abbreviated = cutText(text, 2*lineWidth), true
		}
		verdict = fmt.Sprintf("%s: property %s %s: %s", verdict, p.Name, what, text)
	}
	lines = append(lines, font(colour, 14, "<B>"+esc(verdict)+"</B>"))
	moves := len(d.moves)
	if d.loop >= 0 {
		lines = append(lines, esc(fmt.Sprintf("A lasso: %s from the initial configuration, the last one back to configuration %d; the moves from there on repeat forever (purple).",
			plural(moves, "move", "moves"), d.loop)))
	} else {
		lines = append(lines, esc(fmt.Sprintf("A path of %s from the initial configuration.", plural(moves, "move", "moves"))))
	}
	if d.lifted {
		lines = append(lines, font(colourMuted, 0, esc("Each box is a configuration: a row per group, a column per local state; a cell lists the processes of the group")),
			font(colourMuted, 0, esc(d.numbering())),
			font(colourMuted, 0, esc("the total row holds the counters the property reads.")))
	} else {
		lines = append(lines, font(colourMuted, 0, esc("Each box is a state of the counter model: the number of processes per local state (and per group, when known).")),
			font(colourUnknown, 0, esc(strings.ToUpper(d.note[:1])+d.note[1:]+".")))
	}
	if d.abbreviated {
		lines = append(lines, font(colourUnknown, 0, esc("Abbreviated: long guards are cut and some rows, columns or configurations left out; vsym dot --full draws everything.")))
	}
	return lines
}

// numbering explains what the cells of a configuration hold.
func (d *traceDrawing) numbering() string {
	for _, g := range d.sys.Groups {
		if d.abbreviate() && g.Size > maxIndices {
			return fmt.Sprintf("in that state, numbered from 0 (their number, for groups of more than %d); yellow: where the processes of the last move arrived;", maxIndices)
		}
	}
	return "in that state, numbered from 0; yellow: where the processes of the last move arrived (in bold);"
}

// marker says, for a property AG p or EF p with p free of temporal
// operators, whether p is false (AG) or true (EF) in configuration i, as
// computed from its total counters: the configurations that make the
// trace a counterexample or a witness.
func (d *traceDrawing) marker(i int) (text, colour string, ok bool) {
	p := d.c.property
	if p == nil {
		return "", "", false
	}
	u, isUnary := p.Formula.(ctl.Unary)
	if !isUnary || (u.Op != ctl.AG && u.Op != ctl.EF) {
		return "", "", false
	}
	holds, known := stateHolds(d.sys, u.X, d.totals[i], d.shared[i])
	switch {
	case !known:
		return "", "", false
	case u.Op == ctl.AG && !holds:
		return "here " + cutText(stateText(p.Text), lineWidth) + " is false", colourViolated, true
	case u.Op == ctl.EF && holds:
		return "here " + cutText(stateText(p.Text), lineWidth) + " holds", colourCertified, true
	}
	return "", "", false
}

// stateText strips the leading temporal operator from the text of a
// property AG p or EF p, leaving p.
func stateText(text string) string {
	t := strings.TrimSpace(text)
	for _, op := range []string{"AG", "EF"} {
		if rest, ok := strings.CutPrefix(t, op); ok {
			return strings.TrimSpace(rest)
		}
	}
	return t
}

// stateHolds evaluates a formula without temporal operators on the total
// counters and the shared values of a configuration; known is false for
// a temporal formula, or one reading group counters.
func stateHolds(sys *gsst.System, f ctl.Formula, totals, shared []int) (holds, known bool) {
	switch f := f.(type) {
	case ctl.Atom:
		known := sys.IsTotal(f.P)
		holds := presburger.Eval(f.P, func(v presburger.Var) int64 {
			if s, g, ok := sys.Counter(v); ok && g < 0 {
				return int64(totals[s])
			}
			if j, ok := sys.SharedOf(v); ok && shared != nil {
				return int64(shared[j])
			}
			if k, ok := sys.ParamOf(v); ok {
				return int64(sys.Params[k].Value)
			}
			known = false
			return 0
		})
		return holds, known
	case ctl.Not:
		h, k := stateHolds(sys, f.X, totals, shared)
		return !h, k
	case ctl.Binary:
		l, kl := stateHolds(sys, f.L, totals, shared)
		r, kr := stateHolds(sys, f.R, totals, shared)
		switch f.Op {
		case ctl.And:
			return l && r, kl && kr
		case ctl.Or:
			return l || r, kl && kr
		case ctl.Implies:
			return !l || r, kl && kr
		}
	}
	return false, false
}

// update writes the update a move applies, "" when it has none.
func (d *traceDrawing) update(m move) string {
	switch {
	case m.stutter || m.several:
		return ""
	case m.step >= 0:
		return updateText(d.sys, &d.sys.Steps()[m.step].Update)
	}
	return ""
}
