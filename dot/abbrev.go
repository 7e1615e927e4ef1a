package dot

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits of what a label shows when abbreviating. They keep the labels of
// generated systems (GR&W with d groups has guards of d conjuncts on a
// transition of d blocks) about as large as those of hand-written ones.
const (
	lineWidth  = 48 // characters per line of a guard
	guardLines = 3  // lines of one guard before the rest is elided
	maxBlocks  = 6  // guard blocks per transition
	maxNames   = 4  // group names per guard block, per init arrow
	maxRows    = 10 // group rows per configuration of a trace
	maxColumns = 12 // state columns per configuration of a trace
	maxConfigs = 40 // configurations per trace
	maxIndices = 6  // a group larger than this shows counts, not process numbers
)

// conjuncts splits a guard at its top-level & and && (outside
// parentheses and brackets), trimming spaces.
func conjuncts(text string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '&':
			if depth != 0 {
				continue
			}
			out = append(out, strings.TrimSpace(text[start:i]))
			if i+1 < len(text) && text[i+1] == '&' {
				i++
			}
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(text[start:]))
}

// cutText shortens s to at most n characters, ending with "…".
func cutText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// wrapGuard lays a guard out in lines of about lineWidth characters,
// breaking after top-level conjunctions. When abbreviating, it keeps
// guardLines lines and says how many conjuncts it left out; cut reports
// whether it did.
func wrapGuard(text string, abbreviate bool) (lines []string, cut bool) {
	parts := conjuncts(text)
	var cur string
	used := 0
	for i, p := range parts {
		if abbreviate {
			if c := cutText(p, 2*lineWidth); c != p {
				p, cut = c, true
			}
		}
		if i < len(parts)-1 {
			p += " &"
		}
		switch {
		case cur == "":
			cur = p
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(p) <= lineWidth:
			cur += " " + p
		default:
			lines = append(lines, cur)
			cur = p
			if abbreviate && len(lines) == guardLines {
				rest := len(parts) - used
				return append(lines, fmt.Sprintf("… %s more", plural(rest, "conjunct", "conjuncts"))), true
			}
		}
		used++
	}
	return append(lines, cur), cut
}

// nameList lists names, eliding the middle of a long list when
// abbreviating: "g2, g3, …, g100 (99 groups)".
func nameList(names []string, abbreviate bool) (string, bool) {
	if !abbreviate || len(names) <= maxNames {
		return strings.Join(names, ", "), false
	}
	return fmt.Sprintf("%s, %s, …, %s (%d groups)", names[0], names[1], names[len(names)-1], len(names)), true
}
