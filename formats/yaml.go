package formats

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
)

// Write writes the translation of imp as GSST YAML, with its notes as
// comments. imp must have no error (Err nil): only a complete Spec has a
// YAML of its own. Guards, updates, properties and justice conditions are
// written from their Text as the translation wrote it, or, when it left
// it empty, from the formula; the tests of each reader read the YAML
// back and compare it with the Spec.
func Write(w io.Writer, imp *Import) error {
	if err := imp.Err(); err != nil {
		return err
	}
	p := &printer{w: bufio.NewWriter(w), s: imp.Spec, n: &imp.Notes, refusals: imp.Refused}
	p.file()
	return p.w.Flush()
}

type printer struct {
	w        *bufio.Writer
	s        *gsst.Spec
	n        *Notes
	refusals []Refusal
}

func (p *printer) printf(format string, args ...any) { fmt.Fprintf(p.w, format, args...) }

// comments writes each line of lines as a comment, indented.
func (p *printer) comments(indent string, lines []string) {
	for _, l := range lines {
		for _, part := range strings.Split(printable(l), "\n") {
			if part == "" {
				p.printf("%s#\n", indent)
			} else {
				p.printf("%s# %s\n", indent, part)
			}
		}
	}
}

// printable returns s with every character that YAML does not allow in
// a comment (control characters but tab and line breaks, invalid
// UTF-8, ...) written as an escape (\x08, \ufffe), as a source's own
// comments may carry any byte.
func printable(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == '\t' || r == '\n' || r == '\r' || r == 0x85,
			0x20 <= r && r <= 0x7e, 0xa0 <= r && r <= 0xd7ff,
			0xe000 <= r && r <= 0xfffd, 0x10000 <= r && r <= 0x10ffff:
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

// trailing returns " # note" for a note, "" for none.
func trailing(notes []string, i int) string {
	if i < len(notes) && notes[i] != "" {
		return "  # " + strings.ReplaceAll(printable(notes[i]), "\n", " ")
	}
	return ""
}

func (p *printer) file() {
	s, n := p.s, p.n
	p.comments("", n.Header)
	p.printf("name: %s\n", quoteName(s.Name))
	if len(s.Params) > 0 {
		p.printf("params:\n")
		for k, prm := range s.Params {
			p.printf("  - %s%s\n", quoteName(prm.Name), trailing(n.Params, k))
		}
	}
	if s.Assume.Formula != nil {
		p.comments("", n.Assume)
		text := s.Assume.Text
		if text == "" {
			text = s.FormatFormula(s.Assume.Formula)
		}
		p.printf("assume: %s\n", quote(text))
	}
	if len(s.Shared) > 0 {
		p.printf("shared:\n")
		for j := range s.Shared {
			v := &s.Shared[j]
			init := v.ValueName(v.Init)
			if v.Values != nil {
				init = quoteName(init)
			}
			if v.InitRange || !v.InitTerm.IsConst() {
				init = quote(s.InitText(j))
			}
			p.printf("  %s: {type: %s, init: %s}%s\n", quoteName(v.Name), typeText(v), init, trailing(n.Shared, j))
		}
	}
	p.printf("states:\n")
	for i, st := range s.States {
		p.printf("  - %s%s\n", quoteName(st), trailing(n.States, i))
	}
	p.printf("groups:\n")
	for g := range s.Groups {
		grp := &s.Groups[g]
		size := grp.SizeText()
		if grp.OverParams() {
			size = quote(grp.SizeTermText)
		} else if grp.Ranged {
			size = quote(size)
		}
		p.printf("  %s: %s%s\n", quoteName(grp.Name), size, trailing(n.Groups, g))
	}
	p.init()
	p.printf("transitions:")
	if len(s.Transitions) == 0 {
		p.printf(" []\n")
	} else {
		p.printf("\n")
	}
	for i := range s.Transitions {
		if i < len(n.Transitions) {
			p.comments("  ", n.Transitions[i])
		}
		p.transition(&s.Transitions[i])
	}
	if len(s.Rendezvous) > 0 {
		p.printf("rendezvous:\n")
		for i := range s.Rendezvous {
			if i < len(n.Rendezvous) {
				p.comments("  ", n.Rendezvous[i])
			}
			p.rendezvous(&s.Rendezvous[i])
		}
	}
	if len(s.Environment) > 0 {
		p.printf("environment:\n")
		for i := range s.Environment {
			if i < len(n.Environment) {
				p.comments("  ", n.Environment[i])
			}
			p.environment(&s.Environment[i])
		}
	}
	if !s.Fairness.Empty() {
		p.fairness()
	}
	if len(s.Properties) > 0 {
		p.printf("properties:\n")
		for i := range s.Properties {
			pr := &s.Properties[i]
			if i < len(n.Properties) {
				p.comments("  ", n.Properties[i])
			}
			text := pr.Text
			if text == "" {
				text = ctl.FormatAtoms(pr.Formula, s.VarName, s.TypedAtom)
			}
			p.printf("  %s: %s\n", quoteName(pr.Name), quote(text))
		}
		p.refused("  ")
	} else {
		p.refused("")
	}
	p.comments("", n.Trailer)
}

// refused writes the properties the translation does not state, one
// comment each.
func (p *printer) refused(indent string) {
	for _, r := range p.refusals {
		p.comments(indent, []string{"not stated: " + r.String()})
	}
}

// init writes the initial configuration: "init: S" when every process
// starts in S, else one entry per group, a state or counts per state.
func (p *printer) init() {
	s := p.s
	all := -1
	for g := range s.Groups {
		st, ok := s.InitState(g)
		if !ok || s.InitOver != nil || (all >= 0 && st != all) {
			all = -2
			break
		}
		all = st
	}
	if all >= 0 {
		p.printf("init: %s\n", quoteName(s.States[all]))
		return
	}
	p.printf("init:\n")
	for g := range s.Groups {
		if s.InitOver != nil && s.InitOver[g] != nil {
			var names []string
			for _, st := range s.InitOver[g] {
				names = append(names, quoteName(s.States[st]))
			}
			p.printf("  %s: [%s]\n", quoteName(s.Groups[g].Name), strings.Join(names, ", "))
			continue
		}
		if st, ok := s.InitState(g); ok {
			p.printf("  %s: %s\n", quoteName(s.Groups[g].Name), quoteName(s.States[st]))
			continue
		}
		var parts []string
		for st, k := range s.Init[g] {
			if k > 0 {
				parts = append(parts, quoteName(s.States[st])+": "+strconv.Itoa(k))
			}
		}
		p.printf("  %s: {%s}\n", quoteName(s.Groups[g].Name), strings.Join(parts, ", "))
	}
}

// every reports whether groups lists every group of the spec.
func (p *printer) every(groups []int) bool { return len(groups) == len(p.s.Groups) }

func (p *printer) groupList(groups []int) string {
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = quoteName(p.s.Groups[g].Name)
	}
	return strings.Join(names, ", ")
}

func (p *printer) transition(t *gsst.Transition) {
	s := p.s
	p.printf("  - from: %s\n    to: %s\n", quoteName(s.States[t.From]), quoteName(s.States[t.To]))
	if t.Name != "" {
		p.printf("    name: %s\n", t.Name)
	}
	switch {
	case len(t.Blocks) == 1 && p.every(t.Blocks[0].Groups):
		b := &t.Blocks[0]
		if g := p.guardText(b); g != "" {
			p.printf("    guard: %s\n", quote(g))
		}
		if u := p.updateText(&b.Update); u != "" {
			p.printf("    update: %s\n", quote(u))
		}
	default:
		p.printf("    guard:\n")
		for i := range t.Blocks {
			b := &t.Blocks[i]
			g := p.guardText(b)
			if g == "" {
				g = "true"
			}
			p.printf("      %s: %s\n", quote(p.groupList(b.Groups)), quote(g))
		}
		var ups []string
		for i := range t.Blocks {
			b := &t.Blocks[i]
			if u := p.updateText(&b.Update); u != "" {
				ups = append(ups, fmt.Sprintf("      %s: %s\n", quote(p.groupList(b.Groups)), quote(u)))
			}
		}
		if len(ups) > 0 {
			p.printf("    update:\n%s", strings.Join(ups, ""))
		}
	}
	p.transfers(t.Broadcast)
}

// transfers prints the broadcast key of a step; nothing without
// transfers.
func (p *printer) transfers(transfers []gsst.Transfer) {
	s := p.s
	if len(transfers) > 0 {
		p.printf("    broadcast:\n")
		for _, x := range transfers {
			entry := s.States[x.From] + " -> " + s.States[x.To]
			if x.Groups != nil {
				entry += " [" + p.groupList(x.Groups) + "]"
			}
			p.printf("      - %s\n", quote(entry))
		}
	}
}

// environment prints an environment step.
func (p *printer) environment(e *gsst.Environment) {
	guard := e.Text
	if guard == "" && e.Guard != nil && !isTrue(e.Guard) {
		guard = p.s.FormatFormula(e.Guard)
	}
	if guard == "" {
		guard = "true"
	}
	p.printf("  - guard: %s\n", quote(guard))
	if e.Name != "" {
		p.printf("    name: %s\n", e.Name)
	}
	if u := p.updateText(&e.Update); u != "" {
		p.printf("    update: %s\n", quote(u))
	}
	p.transfers(e.Broadcast)
}

func (p *printer) guardText(b *gsst.Block) string {
	if b.Text != "" {
		return b.Text
	}
	if b.Guard == nil || isTrue(b.Guard) {
		return ""
	}
	return p.s.FormatFormula(b.Guard)
}

func (p *printer) updateText(u *gsst.Update) string {
	if u.Text != "" {
		return u.Text
	}
	if len(u.Assign) == 0 {
		return ""
	}
	return p.s.FormatUpdate(u)
}

func (p *printer) rendezvous(r *gsst.Rendezvous) {
	s := p.s
	parts := make([]string, len(r.Parts))
	for i, pt := range r.Parts {
		parts[i] = "{from: " + quoteName(s.States[pt.From]) + ", to: " + quoteName(s.States[pt.To])
		if pt.Groups != nil {
			parts[i] += ", groups: [" + p.groupList(pt.Groups) + "]"
		}
		parts[i] += "}"
	}
	p.printf("  - parts: [%s]\n", strings.Join(parts, ", "))
	guard := r.Text
	if guard == "" && r.Guard != nil && !isTrue(r.Guard) {
		guard = s.FormatFormula(r.Guard)
	}
	if guard != "" {
		p.printf("    guard: %s\n", quote(guard))
	}
	if u := p.updateText(&r.Update); u != "" {
		p.printf("    update: %s\n", quote(u))
	}
	if r.Name != "" {
		p.printf("    name: %s\n", r.Name)
	}
	p.transfers(r.Broadcast)
}

func (p *printer) fairness() {
	s := p.s
	p.printf("fairness:\n")
	if len(s.Fairness.Justice) > 0 {
		p.printf("  justice:\n")
		for i, j := range s.Fairness.Justice {
			text := j.Text
			if text == "" {
				text = s.FormatFormula(j.Formula)
			}
			p.printf("    - %s%s\n", quote(text), trailing(p.n.Justice, i))
		}
	}
	if len(s.Fairness.Weak) > 0 {
		p.printf("  weak:\n")
		for _, w := range s.Fairness.Weak {
			p.printf("    - %s\n", quote(s.WeakName(&w)))
		}
	}
}

// quote writes s as a YAML double-quoted scalar.
func quote(s string) string { return strconv.Quote(s) }

// typeText writes v's type: an enumeration as a YAML list of its
// constants (the language reads a quoted "[a, b]" as a string, not a
// type), any other type as a string.
func typeText(v *gsst.Shared) string {
	if v.Values == nil {
		return quote(v.TypeText())
	}
	names := make([]string, len(v.Values))
	for i, c := range v.Values {
		names[i] = quoteName(c)
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// plainName matches the identifiers that YAML reads as plain strings;
// those it would read as booleans, null or numbers are quoted.
var plainName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`) })

var yamlWords = map[string]bool{
	"y": true, "yes": true, "n": true, "no": true, "true": true, "false": true,
	"on": true, "off": true, "null": true,
}

// quoteName writes a name plainly when YAML reads it back as that
// string, quoted otherwise.
func quoteName(name string) string {
	if plainName().MatchString(name) && !yamlWords[strings.ToLower(name)] {
		return name
	}
	return quote(name)
}
