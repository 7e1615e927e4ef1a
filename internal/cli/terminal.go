package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What vsym writes to a terminal is text a user reads and commands a
// user may paste, and part of it comes from the spec (its name, the
// names and texts it gives) and from the command line (file names). Two
// rules keep that text from acting on the terminal or the shell:
//
//   - every control character other than tab and newline (C0, DEL and
//     the C1 range U+0080-U+009F, which terminals obey as escape
//     sequences: an OSC sets the window title, a CSI moves the cursor)
//     is written as \u00XX, on standard output and standard error alike.
//     JSON stays valid: inside a string \u00XX means the character, and
//     encoding/json writes no control character raw outside one. Files
//     written with -o get the text as it is;
//   - every command vsym suggests quotes the words that the shell would
//     read otherwise (shellQuote).

// controlEscaper writes what it is given to w with every control
// character escaped. The two bytes of a C1 character may arrive in two
// writes: the first is held until the next write or flush.
type controlEscaper struct {
	w    io.Writer
	lead bool // the last write ended with 0xC2, not yet written
}

func (e *controlEscaper) Write(p []byte) (int, error) {
	var b strings.Builder
	rest := p
	if e.lead {
		e.lead = false
		if len(p) > 0 && p[0] >= 0x80 && p[0] <= 0x9f {
			fmt.Fprintf(&b, `\u%04x`, p[0])
			rest = p[1:]
		} else {
			b.WriteByte(0xc2)
		}
	}
	if err := e.write(&b, rest); err != nil {
		return 0, err
	}
	return len(p), nil
}

// write escapes p after what b holds already and writes it all.
func (e *controlEscaper) write(b *strings.Builder, p []byte) error {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\t' || c == '\n':
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(b, `\u%04x`, c)
		case c == 0xc2 && i+1 == len(p):
			e.lead = true
		case c == 0xc2 && p[i+1] >= 0x80 && p[i+1] <= 0x9f:
			fmt.Fprintf(b, `\u%04x`, p[i+1])
			i++
		default:
			b.WriteByte(c)
		}
	}
	_, err := io.WriteString(e.w, b.String())
	return err
}

// flush writes a byte held back by the last write.
func (e *controlEscaper) flush() {
	if e.lead {
		e.lead = false
		e.w.Write([]byte{0xc2})
	}
}

// escapeControls returns text with its control characters escaped as
// controlEscaper escapes them, for text that is drawn over on a terminal
// (the progress line) rather than written through the escaper.
func escapeControls(text string) string {
	var b strings.Builder
	e := &controlEscaper{w: &b}
	io.WriteString(e, text)
	e.flush()
	return b.String()
}

// rawWriter returns the writer under an escaper: the terminal itself,
// for the progress line's own control sequences and for asking whether
// it is a terminal.
func rawWriter(w io.Writer) io.Writer {
	if e, ok := w.(*controlEscaper); ok {
		return e.w
	}
	return w
}

// shellQuote returns word as a POSIX shell reads it back unchanged: as
// it is when it holds only characters no shell treats specially, else
// in single quotes (a single quote inside closes them, is escaped with a
// backslash, and opens them again).
func shellQuote(word string) string {
	safe := func(r rune) bool {
		return r < utf8.RuneSelf && strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/:=@%+", r) ||
			r >= utf8.RuneSelf && unicode.IsGraphic(r) && !unicode.IsSpace(r) // no shell gives these a meaning
	}
	if word != "" && strings.IndexFunc(word, func(r rune) bool { return !safe(r) }) < 0 {
		return word
	}
	return "'" + strings.ReplaceAll(word, "'", `'\''`) + "'"
}

// shellCommand joins words into a command line a POSIX shell splits back
// into the same words.
func shellCommand(words ...string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = shellQuote(w)
	}
	return strings.Join(quoted, " ")
}
