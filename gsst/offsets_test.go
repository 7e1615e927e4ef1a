package gsst

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// TestOffsetsAgainstSource writes random guard values in every scalar
// style, parses the YAML and checks the offset map of each value against
// the source text itself: a character written as itself must map to
// that character in the source, an escape to its backslash, a doubled
// single quote to a quote, and the end of a quoted value to its closing
// quote.
func TestOffsetsAgainstSource(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	alphabet := []string{"a", "Z", "#", "C", "=", "0", " ", "&", "é", "→", "'", `"`, `\`, "[", "]"}
	styles := map[string]int{}
	for i := range 3000 {
		var v strings.Builder
		for range r.Intn(30) {
			v.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		val := strings.TrimSpace(v.String())
		var src string
		style := []string{"double", "single", "plain", "literal"}[i%4]
		switch style {
		case "double":
			var q strings.Builder
			for _, c := range val {
				switch {
				case c == '"' || c == '\\':
					q.WriteString(`\` + string(c))
				case c == 'é' && r.Intn(2) == 0:
					q.WriteString(`\u00e9`)
				case c == 'a' && r.Intn(2) == 0:
					q.WriteString(`\x61`)
				case c == ' ' && r.Intn(4) == 0:
					q.WriteString(`\t`)
					// the value gets a tab
				default:
					q.WriteRune(c)
				}
			}
			src = fmt.Sprintf("é:\n  - {k: é, guard: \"%s\"}\n", q.String())
		case "single":
			src = fmt.Sprintf("x: [ 'é', '%s' ]\n", strings.ReplaceAll(val, "'", "''"))
		case "plain":
			// Letters, digits and spaces only, so that YAML reads the
			// value as written.
			val = strings.Map(func(c rune) rune {
				if strings.ContainsRune("aZC0é→ ", c) {
					return c
				}
				return 'C'
			}, val)
			val = strings.Join(strings.Fields(val), " ")
			if val == "" || val[0] == '0' {
				val = "C" + val
			}
			src = fmt.Sprintf("é: {guard: %s}\n", val)
		case "literal":
			lines := strings.Fields(strings.ReplaceAll(val, "#", "C"))
			if len(lines) == 0 {
				lines = []string{"C"}
			}
			src = "x:\n  guard: |\n    " + strings.Join(lines, "\n    ") + "\n  y: 1\n"
		}
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		n := findScalar(&doc, style)
		if n == nil {
			t.Fatalf("no %s scalar in %q", style, src)
		}
		styles[style]++
		d := &decoder{file: "f", lines: splitLines([]byte(src))}
		pos := d.offsets(n)
		at := func(p Pos) (rune, bool) {
			s, ok := d.lineFrom(p.Line, p.Col)
			if !ok || s == "" {
				return 0, false
			}
			c, _ := utf8.DecodeRuneInString(s)
			return c, true
		}
		prev := Pos{}
		for off, c := range n.Value {
			p := pos(off)
			if p.Line < prev.Line || p.Line == prev.Line && p.Col <= prev.Col {
				t.Fatalf("%q: offset %d maps to %v, not after %v", src, off, p, prev)
			}
			prev = p
			got, ok := at(p)
			switch {
			case ok && got == c:
			case c == '\n' && style == "literal":
				// A line break maps to the end of its source line.
				if rest, ok := d.lineFrom(p.Line, p.Col); !ok || rest != "" {
					t.Fatalf("%q: line break at offset %d maps to %v, not to the end of a line", src, off, p)
				}
			case ok && style == "double" && got == '\\':
			default:
				t.Fatalf("%q (value %q): offset %d (%q) maps to %v, which holds %q", src, n.Value, off, c, p, got)
			}
			// The other bytes of the character map to the same place.
			for j := 1; j < utf8.RuneLen(c); j++ {
				if q := pos(off + j); q != p {
					t.Fatalf("%q: byte %d of %q maps to %v, not %v", src, j, c, q, p)
				}
			}
		}
		end := pos(len(n.Value))
		switch style {
		case "double", "single":
			if got, _ := at(end); style == "double" && got != '"' || style == "single" && got != '\'' {
				t.Fatalf("%q: end of value maps to %v, which holds %q, not the closing quote", src, end, got)
			}
		case "plain":
			if got, _ := at(end); got != '}' {
				t.Fatalf("%q: end of value maps to %v, which holds %q", src, end, got)
			}
		}
		if pos(-1) != d.pos(n) || pos(len(n.Value)+1) != d.pos(n) {
			t.Fatalf("%q: offsets out of range do not map to the start of the scalar", src)
		}
	}
	t.Logf("styles: %v", styles)
}

// findScalar returns the scalar whose style the test wrote a guard in.
func findScalar(n *yaml.Node, style string) *yaml.Node {
	var want yaml.Style
	switch style {
	case "double":
		want = yaml.DoubleQuotedStyle
	case "single":
		want = yaml.SingleQuotedStyle
	case "literal":
		want = yaml.LiteralStyle
	}
	var found *yaml.Node
	var walk func(n *yaml.Node, key string)
	walk = func(n *yaml.Node, key string) {
		// The last one found: the single style's value follows an 'é'
		// in its sequence, and may be 'é' itself.
		if n.Kind == yaml.ScalarNode && n.Style == want && (style != "plain" || key == "guard") {
			found = n
		}
		for i, c := range n.Content {
			k := ""
			if n.Kind == yaml.MappingNode && i%2 == 1 {
				k = n.Content[i-1].Value
			}
			walk(c, k)
		}
	}
	walk(n, "")
	return found
}

// TestParseExprColumns checks that ParseExpr counts columns in
// characters, with and without non-ASCII text before the error.
func TestParseExprColumns(t *testing.T) {
	for _, src := range []string{"#C = 0 & $", "#é = 0 & $", "#C → 0", "#Céé = → & 1", strings.Repeat("#C = 0 & ", 2000) + "$"} {
		_, err := ParseExpr(src)
		if err == nil {
			t.Fatalf("%q: no error", src)
		}
		e := err.(ErrorList)[0]
		bad := strings.IndexAny(src, "$→é")
		if want := 1 + utf8.RuneCountInString(src[:bad]); e.Pos.Col != want || e.Pos.Line != 1 {
			t.Errorf("%q: error at %v, want column %d", src, e.Pos, want)
		}
	}
}
