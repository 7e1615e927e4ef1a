package dot

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
)

// An Option tunes a drawing.
type Option func(*config)

type config struct {
	report   *detect.Report
	property *gsst.Property
	full     bool
	source   string
	// maxConfigs: configurations per trace (MaxConfigs); 0 for the
	// default abbreviation.
	maxConfigs int
}

func newConfig(opts []Option) *config {
	c := &config{}
	for _, o := range opts {
		o(c)
	}
	return c
}

// MaxConfigs draws at most n configurations of a trace (n >= 2): the
// first ceil(n/2) and the last floor(n/2), with the start of a lasso's
// loop among them in place of one of the last; the others become one
// node that says which it stands for. Full overrides it.
func MaxConfigs(n int) Option { return func(c *config) { c.maxConfigs = n } }

// Verdicts colours each transition of a skeleton by its verdict in rep, a
// certification report of the same system, and draws the witness of each
// violated transition.
func Verdicts(rep *detect.Report) Option { return func(c *config) { c.report = rep } }

// ForProperty names the property a trace is about, for its title.
func ForProperty(p gsst.Property) Option { return func(c *config) { c.property = &p } }

// Full turns abbreviation off: every guard, group and configuration is
// drawn in full, however large the picture gets.
func Full() Option { return func(c *config) { c.full = true } }

// Source names the file the system was read from, for the title.
func Source(file string) Option { return func(c *config) { c.source = file } }

// Colours, chosen to stay apart for colour-blind readers and on grey
// print: verdicts differ in line style and width too.
const (
	colourText      = "#24292f"
	colourMuted     = "#57606a"
	colourSymmetric = "#57606a"
	colourCertified = "#1a7f37"
	colourViolated  = "#cf222e"
	colourUnknown   = "#9a6700"
	colourMove      = "#0969da"
	colourLoop      = "#8250df"
	colourFill      = "#f6f8fa"
	colourHighlight = "#fff8c5"
	fontName        = "Helvetica"
)

// verdictStyle returns the colour, line style and pen width of a verdict.
func verdictStyle(v detect.Verdict) (colour, style string, width float64) {
	switch v {
	case detect.Symmetric:
		return colourSymmetric, "solid", 1.2
	case detect.Certified:
		return colourCertified, "solid", 2
	case detect.Violated:
		return colourViolated, "bold", 3
	}
	return colourUnknown, "dashed", 2
}

// verdictWords says what a verdict means, for legends and tooltips.
func verdictWords(v detect.Verdict) string {
	switch v {
	case detect.Symmetric:
		return "symmetric: one guard over total counters for all groups"
	case detect.Certified:
		return "certified: Z3 proved the transition's domain closed under permutations"
	case detect.Violated:
		return "violated: breaks full virtual symmetry (its witness is drawn beside it)"
	}
	return "unknown: the solver gave no answer"
}

// quote writes s as a DOT double-quoted string, on one line.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// esc escapes s for an HTML-like DOT label.
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\n':
			b.WriteString(`<BR ALIGN="LEFT"/>`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// font wraps escaped HTML text in a FONT element.
func font(colour string, size float64, html string) string {
	attrs := ""
	if colour != "" {
		attrs += fmt.Sprintf(` COLOR="%s"`, colour)
	}
	if size > 0 {
		attrs += fmt.Sprintf(` POINT-SIZE="%g"`, size)
	}
	return "<FONT" + attrs + ">" + html + "</FONT>"
}

// maxTooltip bounds a tooltip: a browser shows no more, and a guard of a
// generated system can be megabytes long.
const maxTooltip = 4000

// tooltip cuts s to maxTooltip bytes on a rune boundary, saying so.
func tooltip(s string) string {
	if len(s) <= maxTooltip {
		return s
	}
	cut := maxTooltip
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "\n… (cut here: the spec holds the whole text)"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// plural returns "1 process" or "k processes".
func plural(k int, one, many string) string {
	if k == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", k, many)
}

// header starts a digraph with the house style and an HTML title.
func header(b *strings.Builder, name string, title []string, graphAttrs string) {
	fmt.Fprintf(b, "digraph %s {\n", quote(name))
	fmt.Fprintf(b, "  graph [fontname=%q, fontsize=12, fontcolor=%q, labelloc=t, labeljust=l, pad=0.3, %s,\n", fontName, colourText, graphAttrs)
	fmt.Fprintf(b, "    label=<%s>];\n", strings.Join(title, `<BR ALIGN="LEFT"/>`)+`<BR ALIGN="LEFT"/>`)
	fmt.Fprintf(b, "  node [fontname=%q, fontsize=12, fontcolor=%q, color=%q];\n", fontName, colourText, colourMuted)
	fmt.Fprintf(b, "  edge [fontname=%q, fontsize=11, fontcolor=%q, color=%q];\n", fontName, colourText, colourMuted)
}

// attrs formats DOT attributes: pairs of name and already quoted or
// HTML value.
func attrs(kv ...string) string {
	var parts []string
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			continue
		}
		parts = append(parts, kv[i]+"="+kv[i+1])
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// rows stacks HTML fragments (text, or a table) as left-aligned rows of a
// borderless table: an HTML label holds either text or one table, so
// text and tables are mixed this way.
func rows(cells []string) string {
	var b strings.Builder
	b.WriteString(`<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">`)
	for _, c := range cells {
		b.WriteString(`<TR><TD ALIGN="LEFT" BALIGN="LEFT">` + c + `</TD></TR>`)
	}
	b.WriteString("</TABLE>")
	return b.String()
}
