package gsst

import (
	"fmt"
	"sort"
	"strings"

	"github.com/vsym/vsym/errkind"
)

// Pos is a position in a source file. Line and Col start at 1; a zero Line
// means the position is unknown.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is a message about a position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 && e.Pos.File == "" {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// Less orders errors, given by position and message, as error lists are
// sorted: by file, line, column and message.
func Less(p Pos, msg string, q Pos, qmsg string) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	if p.Col != q.Col {
		return p.Col < q.Col
	}
	return msg < qmsg
}

// ErrorList is a list of errors, reported together.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{pos, fmt.Sprintf(format, args...)})
}

// Sort orders the list by file, line, column and message, and removes
// duplicates.
func (l *ErrorList) Sort() {
	e := *l
	sort.SliceStable(e, func(i, j int) bool { return Less(e[i].Pos, e[i].Msg, e[j].Pos, e[j].Msg) })
	out := e[:0]
	for i, x := range e {
		if i > 0 && x.Pos == e[i-1].Pos && x.Msg == e[i-1].Msg {
			continue
		}
		out = append(out, x)
	}
	*l = out
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Is makes errors.Is(err, errkind.Input) hold: an error list is always
// about malformed input.
func (l ErrorList) Is(target error) bool { return target == errkind.Input }

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}
