package testsupport

import (
	"bytes"
	"strings"
)

// Archive is a txtar archive (the format of golang.org/x/tools/txtar and
// of CUE's test data): a comment, then files, each introduced by a line
// "-- name --".
type Archive struct {
	Comment []byte
	Files   []File
}

// File is one file of an Archive.
type File struct {
	Name string
	Data []byte
}

// ParseArchive reads a txtar archive. It never fails: text before the
// first file line is the comment, and a file runs to the next file line.
func ParseArchive(data []byte) *Archive {
	a := &Archive{}
	var cur *File
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if name, ok := fileLine(line); ok {
			a.Files = append(a.Files, File{Name: name})
			cur = &a.Files[len(a.Files)-1]
			continue
		}
		if cur == nil {
			a.Comment = append(a.Comment, line...)
		} else {
			cur.Data = append(cur.Data, line...)
		}
	}
	return a
}

// fileLine recognises "-- name --".
func fileLine(line []byte) (string, bool) {
	s := strings.TrimRight(string(line), "\r\n")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	return strings.TrimSpace(s[3 : len(s)-3]), true
}

// Format writes the archive back as text; a file's data gets a final
// newline when it lacks one.
func (a *Archive) Format() []byte {
	var b bytes.Buffer
	b.Write(a.Comment)
	for _, f := range a.Files {
		b.WriteString("-- " + f.Name + " --\n")
		b.Write(f.Data)
		if len(f.Data) > 0 && f.Data[len(f.Data)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// Get returns the data of the named file, or nil.
func (a *Archive) Get(name string) []byte {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

// Set replaces the data of the named file, or adds the file at the end.
func (a *Archive) Set(name string, data []byte) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, File{Name: name, Data: data})
}
