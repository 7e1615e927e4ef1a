package testsupport

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
)

// YAML writes sys as a file of the GSST language (docs/gsst-format.md),
// for the tests that read systems from text: gsst.Parse reads it back as
// sys, up to positions and the order of blocks. Formulas and updates are
// written by gsst's printers (FormatFormula, FormatUpdate), which say
// they read back with the same meaning; names and texts are quoted. A
// fixed parameter is declared like an open one, its value already folded
// into every formula; a transition no group may take, which only
// gsst.New takes, is written with the guard false for every group (the
// same steps); a group of no process, which only New takes either, is
// written with size 0, which Parse refuses.
func YAML(sys *gsst.System) string {
	var b strings.Builder
	q := strconv.Quote
	fmt.Fprintf(&b, "name: %s\nstates: [", q(sys.Name))
	for s, name := range sys.States {
		if s > 0 {
			b.WriteString(", ")
		}
		b.WriteString(q(name))
	}
	b.WriteString("]\ngroups:\n")
	for _, g := range sys.Groups {
		size := strconv.Itoa(g.Size)
		switch {
		case g.OverParams():
			size = q(g.SizeTerm.Format(sys.VarName))
		case g.Ranged && g.Max == gsst.Unbounded:
			size = q(fmt.Sprintf("%d..", g.Size))
		case g.Ranged:
			size = q(fmt.Sprintf("%d..%d", g.Size, g.Max))
		}
		fmt.Fprintf(&b, "  %s: %s\n", q(g.Name), size)
	}
	if len(sys.Params) > 0 {
		var names []string
		for _, p := range sys.Params {
			names = append(names, q(p.Name))
		}
		fmt.Fprintf(&b, "params: [%s]\n", strings.Join(names, ", "))
	}
	if sys.Assume.Formula != nil {
		fmt.Fprintf(&b, "assume: %s\n", q(sys.FormatFormula(sys.Assume.Formula)))
	}
	if len(sys.Shared) > 0 {
		b.WriteString("shared:\n")
		for j, v := range sys.Shared {
			typ := q(v.TypeText())
			if v.Values != nil {
				var consts []string
				for _, c := range v.Values {
					consts = append(consts, q(c))
				}
				typ = "[" + strings.Join(consts, ", ") + "]"
			}
			init := v.ValueName(v.Init)
			if v.InitRange || !v.InitTerm.IsConst() {
				init = strconv.Quote(sys.InitText(j))
			}
			fmt.Fprintf(&b, "  %s: {type: %s, init: %s}\n", q(v.Name), typ, init)
		}
	}
	b.WriteString("init:\n")
	for g, row := range sys.Init {
		var counts []string
		for s, k := range row {
			if k > 0 {
				counts = append(counts, fmt.Sprintf("%s: %d", q(sys.States[s]), k))
			}
		}
		if sys.InitOver != nil && sys.InitOver[g] != nil {
			var states []string
			for _, s := range sys.InitOver[g] {
				states = append(states, q(sys.States[s]))
			}
			fmt.Fprintf(&b, "  %s: [%s]\n", q(sys.Groups[g].Name), strings.Join(states, ", "))
		} else if state, ok := sys.InitState(g); ok {
			fmt.Fprintf(&b, "  %s: %s\n", q(sys.Groups[g].Name), q(sys.States[state]))
		} else {
			fmt.Fprintf(&b, "  %s: {%s}\n", q(sys.Groups[g].Name), strings.Join(counts, ", "))
		}
	}
	if len(sys.Transitions) > 0 {
		b.WriteString("transitions:\n")
	}
	for i := range sys.Transitions {
		writeTransition(&b, sys, &sys.Transitions[i])
	}
	if len(sys.Rendezvous) > 0 {
		b.WriteString("rendezvous:\n")
	}
	for _, rv := range sys.Rendezvous {
		var parts []string
		for _, p := range rv.Parts {
			part := fmt.Sprintf("{from: %s, to: %s", q(sys.States[p.From]), q(sys.States[p.To]))
			if p.Groups != nil {
				part += ", groups: [" + groupNames(sys, p.Groups) + "]"
			}
			parts = append(parts, part+"}")
		}
		fmt.Fprintf(&b, "  - parts: [%s]\n    guard: %s\n", strings.Join(parts, ", "), q(sys.FormatFormula(rv.Guard)))
		if rv.Name != "" {
			fmt.Fprintf(&b, "    name: %s\n", q(rv.Name))
		}
		if len(rv.Update.Assign) > 0 {
			fmt.Fprintf(&b, "    update: %s\n", q(sys.FormatUpdate(&rv.Update)))
		}
		writeTransfers(&b, sys, rv.Broadcast)
	}
	if len(sys.Environment) > 0 {
		b.WriteString("environment:\n")
	}
	for _, e := range sys.Environment {
		fmt.Fprintf(&b, "  - guard: %s\n", q(sys.FormatFormula(e.Guard)))
		if e.Name != "" {
			fmt.Fprintf(&b, "    name: %s\n", q(e.Name))
		}
		if len(e.Update.Assign) > 0 {
			fmt.Fprintf(&b, "    update: %s\n", q(sys.FormatUpdate(&e.Update)))
		}
		writeTransfers(&b, sys, e.Broadcast)
	}
	if len(sys.Properties) > 0 {
		b.WriteString("properties:\n")
	}
	for _, p := range sys.Properties {
		fmt.Fprintf(&b, "  %s: %s\n", q(p.Name), q(ctl.FormatAtoms(p.Formula, sys.VarName, sys.TypedAtom)))
	}
	if f := &sys.Fairness; !f.Empty() {
		b.WriteString("fairness:\n")
		if len(f.Justice) > 0 {
			b.WriteString("  justice:\n")
		}
		for _, j := range f.Justice {
			fmt.Fprintf(&b, "    - %s\n", q(sys.FormatFormula(j.Formula)))
		}
		if len(f.Weak) > 0 {
			b.WriteString("  weak:\n")
		}
		for _, w := range f.Weak {
			t := &sys.Transitions[w.Transition]
			entry := sys.States[t.From] + " -> " + sys.States[t.To]
			if t.Name != "" {
				entry = t.Name
			}
			if w.Group >= 0 {
				entry += " [" + sys.Groups[w.Group].Name + "]"
			}
			fmt.Fprintf(&b, "    - %s\n", q(entry))
		}
	}
	return b.String()
}

// writeTransition writes one entry of transitions: a guard string for
// one block of every group, else a mapping with a key per block; an
// update string when every block has the same, else a mapping with the
// keys of the blocks that update.
func writeTransition(b *strings.Builder, sys *gsst.System, t *gsst.Transition) {
	q := strconv.Quote
	fmt.Fprintf(b, "  - from: %s\n    to: %s\n", q(sys.States[t.From]), q(sys.States[t.To]))
	if t.Name != "" {
		fmt.Fprintf(b, "    name: %s\n", q(t.Name))
	}
	switch {
	case len(t.Blocks) == 0:
		b.WriteString("    guard: false\n")
	case len(t.Blocks) == 1 && len(t.Blocks[0].Groups) == len(sys.Groups):
		fmt.Fprintf(b, "    guard: %s\n", q(sys.FormatFormula(t.Blocks[0].Guard)))
	default:
		b.WriteString("    guard:\n")
		for _, blk := range t.Blocks {
			fmt.Fprintf(b, "      %s: %s\n", q(groupNames(sys, blk.Groups)), q(sys.FormatFormula(blk.Guard)))
		}
	}
	same := true
	for _, blk := range t.Blocks {
		same = same && sys.FormatUpdate(&blk.Update) == sys.FormatUpdate(&t.Blocks[0].Update)
	}
	switch {
	case same && len(t.Blocks) > 0 && len(t.Blocks[0].Update.Assign) > 0:
		fmt.Fprintf(b, "    update: %s\n", q(sys.FormatUpdate(&t.Blocks[0].Update)))
	case !same:
		b.WriteString("    update:\n")
		for _, blk := range t.Blocks {
			if len(blk.Update.Assign) > 0 {
				fmt.Fprintf(b, "      %s: %s\n", q(groupNames(sys, blk.Groups)), q(sys.FormatUpdate(&blk.Update)))
			}
		}
	}
	writeTransfers(b, sys, t.Broadcast)
}

// writeTransfers writes the broadcast key of a step, nothing when it
// has no transfer.
func writeTransfers(b *strings.Builder, sys *gsst.System, transfers []gsst.Transfer) {
	q := strconv.Quote
	if len(transfers) > 0 {
		b.WriteString("    broadcast:\n")
	}
	for _, tr := range transfers {
		entry := sys.States[tr.From] + " -> " + sys.States[tr.To]
		if tr.Groups != nil {
			entry += " [" + groupNames(sys, tr.Groups) + "]"
		}
		fmt.Fprintf(b, "      - %s\n", q(entry))
	}
}

// groupNames joins the names of groups with commas.
func groupNames(sys *gsst.System, groups []int) string {
	var names []string
	for _, g := range groups {
		names = append(names, sys.Groups[g].Name)
	}
	return strings.Join(names, ", ")
}
