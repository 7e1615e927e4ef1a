package dot

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
)

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
			esc(v.Name), font(colourMuted, 0, esc(v.TypeText())), esc(sys.InitText(j)))
		tip = append(tip, fmt.Sprintf("%s: %s, initially %s", v.Name, v.TypeText(), sys.InitText(j)))
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
