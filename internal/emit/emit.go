package emit

import (
	"strconv"
	"strings"
)

// Namer hands out identifiers that are valid, not reserved, and distinct
// from every identifier handed out before, for a target language given
// by its reserved words and by how it turns any string into something
// shaped like an identifier.
type Namer struct {
	used     map[string]bool
	reserved func(string) bool
	sanitize func(string) string
}

// NewNamer returns a Namer for the language whose reserved words are
// those reserved reports and whose identifiers sanitize shapes.
func NewNamer(reserved func(string) bool, sanitize func(string) string) *Namer {
	return &Namer{used: map[string]bool{}, reserved: reserved, sanitize: sanitize}
}

// Fresh returns base sanitized, or, when that is reserved or taken, the
// first free one of base_, base_2, base_3, ... The result depends only on
// the sequence of calls, so the output stays deterministic.
func (n *Namer) Fresh(base string) string {
	s := n.sanitize(base)
	cand := s
	for i := 1; n.reserved(cand) || n.used[cand]; i++ {
		if i == 1 {
			cand = s + "_"
		} else {
			cand = s + "_" + strconv.Itoa(i)
		}
	}
	n.used[cand] = true
	return cand
}

// UncertifiedBanner returns the warning that heads a total-counter model
// forced on a system that is not certified, as comment lines that start
// with prefix, between two bars of width '#'. status, when not empty, is
// the certification outcome, already made safe for the target's
// comments.
func UncertifiedBanner(status, prefix string, width int) string {
	bar := prefix + " " + strings.Repeat("#", width) + "\n"
	var b strings.Builder
	b.WriteString(bar)
	for _, l := range uncertifiedWarning(status) {
		b.WriteString(prefix + " ## " + l + "\n")
	}
	b.WriteString(bar)
	return b.String()
}

func uncertifiedWarning(status string) []string {
	lines := []string{
		"WARNING: UNCERTIFIED MODEL, built with --force.",
		"The system is NOT certified fully virtually symmetric: this counter model",
		"over-approximates it. A universal (ACTL) property that holds here holds",
		"in the system; any other verdict is NOT exact. (The model also stutters",
		"where some configuration with these totals may be deadlocked.)",
	}
	if status != "" {
		lines = append(lines, "Certification outcome: "+status)
	}
	return lines
}
