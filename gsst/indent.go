package gsst

import (
	"fmt"
	"strings"
)

// Indentation mistakes. For a key indented one space too far, or back to
// a column where no enclosing block starts, yaml.v3 says "mapping values
// are not allowed in this context" or "did not find expected key" with
// the line of some token near it and no column. misindented finds the
// line itself, reading the source as block-style YAML, so that the error
// points at the key.

// misindentation is a line whose indentation fits no block.
type misindentation struct {
	line, col int    // of its first character, from 1
	key       string // the line's text up to the first ':' (or the whole line)
	deeper    bool   // indented deeper than the line before allows
	cols      []int  // the columns the enclosing blocks start at (when !deeper)
}

// misindented returns the first line of lines (from 1) whose indentation
// fits no block: deeper than the line before when that line opens no
// block (a key with no value on its line, or the mapping of a list item
// "- key: value"), or back to a column where no enclosing block starts.
// Blank lines, comments, block scalars (| and >) and quoted strings or
// flow collections that span lines are skipped. ok is false when every
// line fits.
func misindented(lines []string) (m misindentation, ok bool) {
	stack := []int{0} // columns (from 0) of the open blocks, innermost last
	opens := false    // the line before may be followed by a deeper block
	item := -1        // the column of the mapping of a list item on the line before
	scalar := -1      // skip lines deeper than this: a block scalar's
	var quote byte    // a quoted string left open on the line before
	depth := 0        // flow collections left open
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		ind := len(l) - len(t)
		if quote != 0 || depth > 0 {
			quote, depth = scanFlow(t, quote, depth)
			continue
		}
		if t == "" || t[0] == '#' || t == "---" || t == "..." {
			continue
		}
		if scalar >= 0 {
			if ind > scalar {
				continue
			}
			scalar = -1
		}
		top := stack[len(stack)-1]
		switch {
		case ind == top:
		case ind > top && (opens || ind == item):
			stack = append(stack, ind)
		case ind > top:
			return newMisindentation(i, ind, t, true, nil), true
		default:
			cols := make([]int, len(stack))
			for j, c := range stack {
				cols[j] = c + 1
			}
			for len(stack) > 1 && stack[len(stack)-1] > ind {
				stack = stack[:len(stack)-1]
			}
			if stack[len(stack)-1] != ind {
				return newMisindentation(i, ind, t, false, cols), true
			}
		}
		// What this line opens for the next one.
		body, col := t, ind
		item = -1
		for strings.HasPrefix(body, "- ") || body == "-" {
			rest := strings.TrimLeft(strings.TrimPrefix(body, "-"), " ")
			col += len(body) - len(rest)
			body = rest
			item = col
		}
		code := stripComment(body)
		opens = strings.HasSuffix(code, ":") || code == "" && item >= 0
		if k := strings.Index(code, ": "); k >= 0 {
			v := strings.TrimSpace(code[k+2:])
			if strings.HasPrefix(v, "|") || strings.HasPrefix(v, ">") {
				scalar = ind
			}
		}
		if item >= 0 && !strings.Contains(code, ": ") && !strings.HasSuffix(code, ":") {
			item = -1 // "- value": no mapping continues below
		}
		quote, depth = scanFlow(code, 0, 0)
	}
	return misindentation{}, false
}

func newMisindentation(i, ind int, t string, deeper bool, cols []int) misindentation {
	key := t
	if k := strings.IndexByte(t, ':'); k > 0 {
		key = t[:k]
	}
	return misindentation{line: i + 1, col: ind + 1, key: key, deeper: deeper, cols: cols}
}

// stripComment returns s without a comment (a # at the start or after a
// space, outside quotes) and trailing spaces.
func stripComment(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case (c == '"' || c == '\'') && opensQuote(s, i):
			quote = c
		case c == '#' && (i == 0 || s[i-1] == ' '):
			return strings.TrimRight(s[:i], " ")
		}
	}
	return strings.TrimRight(s, " ")
}

// scanFlow continues the quote and the depth of flow collections left
// open before s through s.
func scanFlow(s string, quote byte, depth int) (byte, int) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case (c == '"' || c == '\'') && opensQuote(s, i):
			quote = c
		case c == '{' || c == '[':
			depth++
		case (c == '}' || c == ']') && depth > 0:
			depth--
		case c == '#' && (i == 0 || s[i-1] == ' ') && depth == 0:
			return quote, depth
		}
	}
	return quote, depth
}

// opensQuote reports whether the quote character s[i] starts a quoted
// string: at the start of a value, not inside a plain one ("it's").
func opensQuote(s string, i int) bool {
	return i == 0 || strings.IndexByte(" [{,", s[i-1]) >= 0
}

// explain returns the message for the misindented line, after the YAML
// library's msg.
func (m misindentation) explain() string {
	if m.deeper {
		return fmt.Sprintf("%q is indented deeper than the line above, which opens no block; indent it as the other keys of its mapping", m.key)
	}
	cols := make([]string, len(m.cols))
	for i, c := range m.cols {
		cols[i] = fmt.Sprint(c)
	}
	return fmt.Sprintf("%q starts at column %d, where no enclosing block does (they start at columns %s); indent it as the other keys of its mapping", m.key, m.col, strings.Join(cols, ", "))
}
