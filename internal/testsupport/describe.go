package testsupport

import (
	"fmt"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// Describe prints a system compactly, for failure messages: states,
// groups (sizes, ranges, sizes over parameters) and the initial
// configuration, shared variables, parameters and the assumption, each
// transition's blocks (groups, guard, update) and broadcast, the
// rendezvous, the properties and the fairness constraints.
func Describe(sys *gsst.System) string {
	var b []byte
	b = fmt.Appendf(b, "states %v, groups", sys.States)
	for _, g := range sys.Groups {
		b = fmt.Appendf(b, " %s:%s", g.Name, g.SizeText())
		if g.OverParams() {
			b = fmt.Appendf(b, "=%s", g.SizeTermText)
		}
	}
	b = fmt.Appendf(b, ", init %v", sys.Init)
	if sys.InitOver != nil {
		b = fmt.Appendf(b, " spread over %v", sys.InitOver)
	}
	b = append(b, '\n')
	for j, v := range sys.Shared {
		b = fmt.Appendf(b, "  shared %s: %s init %s\n", v.Name, v.TypeText(), sys.InitText(j))
	}
	for _, p := range sys.Params {
		if p.Fixed {
			b = fmt.Appendf(b, "  param %s = %d\n", p.Name, p.Value)
		} else {
			b = fmt.Appendf(b, "  param %s\n", p.Name)
		}
	}
	if sys.Assume.Formula != nil {
		b = fmt.Appendf(b, "  assume %s\n", presburger.Format(sys.Assume.Formula, sys.VarName))
	}
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		b = fmt.Appendf(b, "  %s:", sys.TransitionName(t))
		for _, blk := range t.Blocks {
			var gs []string
			for _, g := range blk.Groups {
				gs = append(gs, sys.Groups[g].Name)
			}
			b = fmt.Appendf(b, " %v %s", gs, presburger.Format(blk.Guard, sys.VarName))
			if blk.Update.Text != "" {
				b = fmt.Appendf(b, " {%s}", blk.Update.Text)
			}
			b = append(b, ';')
		}
		b = describeTransfers(b, sys, t.Broadcast)
		b = append(b, '\n')
	}
	for _, rv := range sys.Rendezvous {
		b = append(b, "  rendezvous"...)
		for _, p := range rv.Parts {
			b = fmt.Appendf(b, " %s->%s%v", sys.States[p.From], sys.States[p.To], p.Groups)
		}
		b = fmt.Appendf(b, " guard %s update %s", presburger.Format(rv.Guard, sys.VarName), rv.Update.Text)
		b = describeTransfers(b, sys, rv.Broadcast)
		b = append(b, '\n')
	}
	for k, e := range sys.Environment {
		b = fmt.Appendf(b, "  %s: guard %s update %s", sys.EnvironmentName(k), presburger.Format(e.Guard, sys.VarName), e.Update.Text)
		b = describeTransfers(b, sys, e.Broadcast)
		b = append(b, '\n')
	}
	for _, p := range sys.Properties {
		b = fmt.Appendf(b, "  property %s: %s\n", p.Name, ctl.Format(p.Formula, sys.VarName))
	}
	for _, j := range sys.Fairness.Justice {
		b = fmt.Appendf(b, "  justice %s\n", presburger.Format(j.Formula, sys.VarName))
	}
	for i := range sys.Fairness.Weak {
		b = fmt.Appendf(b, "  weak %s\n", sys.WeakName(&sys.Fairness.Weak[i]))
	}
	return string(b)
}

// describeTransfers appends the transfers of a step's broadcast.
func describeTransfers(b []byte, sys *gsst.System, transfers []gsst.Transfer) []byte {
	for _, tr := range transfers {
		b = fmt.Appendf(b, " broadcast %s -> %s %v;", sys.States[tr.From], sys.States[tr.To], tr.Groups)
	}
	return b
}
